"""An independent, plain reference of the Eel family rules (`eel-harvest`, `wriggle-roulette`).

Written from the rulebooks (eel-harvest.txt, wriggle-roulette.txt) and rulings.md only, without
the project's engine, to cross-check it by differential testing. It replays a game record
(docs/records.md) event by event and keeps, after every event, the scores, the round number, who
is still in the round, the reserves, the bag, the centre snakes and (at the end) the winners.

Readings of points the texts leave open (each is written where it is used, too):

* Exit timing. Ruling 5 only says exits resolve before the outbreak check. Our reading
  (``exit_timing="before_draws"``, the default): the counts are chosen together, so a player who
  chose 0 hands their eels back when the grab is revealed, before anyone draws; the others may
  draw those eels in the same grab. The alternatives are kept as options so a test can show which
  reading a record needs: ``"in_draw_order"`` (an exiting player returns eels at their place in
  the draw order, as at a physical table passing the bag) and ``"after_draws"``. They can only
  differ when the bag runs short.
* "Drew the most tokens in this grab" (eel-harvest outbreak) counts the tokens actually drawn,
  which is less than the count chosen only when the bag ran short.
* Exit order for the eel-harvest tie-break: players who chose 0 in grab g exited at (g, 0); a
  player still in when an outbreak ends the round exited at (g, 1), after everyone who chose 0 in
  that grab (the ruling says so). A player who exits automatically under ``lone_player_grabs``
  at the end of grab g was, like the outbreak's players, still in at that grab's reveal, so our
  reading (``lone_exit_with_grab=False``) puts them at (g, 1) too, after the players whose exits
  left them alone. The other reading (``lone_exit_with_grab=True``: the ruling's "players who
  exited in the same grab exited together" taken literally) puts them at (g, 0). The two differ
  only with ``lone_player_grabs: 0`` when the lone player ends the round tied for the top score
  with a player who exited in that same grab.
* ``lone_player_grabs: N``: counted from the first grab after the one that left a single player
  in the round; after N such grabs (N = 0: at once, at the end of the grab that left them alone)
  the player exits automatically, scoring their reserve.
* ``wriggle-roulette`` ends at the end of the grab in which a score reaches 20, even in the middle
  of a round; the reserves still out are not scored (they stay as they are in the position).
* ``draw: dice`` takes nothing from the bag: the bag stays 51/17 and the draw lengths are always
  the counts chosen.
* A draw event may write ``""`` for a seat of the grab that drew nothing (the records doc leaves
  such seats out; the engine accepts both).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

EELS = 51
SNAKES = 17
TARGET = 20
THRESHOLDS = {2: 6, 3: 7, 4: 9, 5: 11, 6: 13, 7: 15, 8: 17}

ExitTiming = Literal["before_draws", "in_draw_order", "after_draws"]


class ReferenceRuleError(ValueError):
    """A record event that breaks a rule, by the reference's reading."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"event {index}: {message}")
        self.index = index


@dataclass(frozen=True)
class EelRules:
    """A rule set, a player count and the options."""

    rule_set: str
    players: int
    rotate_start: bool = False
    outbreak_scores_reserve: bool = False
    lone_player_grabs: int | None = None
    dice: bool = False
    exit_timing: ExitTiming = "before_draws"
    lone_exit_with_grab: bool = False

    @property
    def max_grab(self) -> int:
        return 6 if self.players == 2 else 4

    @property
    def threshold(self) -> int:
        return THRESHOLDS[self.players]

    @property
    def harvest(self) -> bool:
        return self.rule_set == "eel-harvest"

    @classmethod
    def from_record(
        cls, record: dict[str, Any], exit_timing: ExitTiming = "before_draws", lone_exit_with_grab: bool = False
    ) -> EelRules:
        game = record["game"]
        if game not in ("eel-harvest", "wriggle-roulette"):
            raise ValueError(f"not an Eel family record: {game!r}")
        options = dict(record.get("options", {}))
        players = int(record["players"])
        if players not in THRESHOLDS:
            raise ValueError(f"2 to 8 players, not {players}")
        lone = options.get("lone_player_grabs")
        return cls(
            rule_set=game,
            players=players,
            rotate_start=bool(options.get("rotate_start", False)),
            outbreak_scores_reserve=bool(options.get("outbreak_scores_reserve", False)),
            lone_player_grabs=None if lone in (None, "none") else int(lone),
            dice=options.get("draw", "bag") == "dice",
            exit_timing=exit_timing,
            lone_exit_with_grab=lone_exit_with_grab,
        )


@dataclass
class EelPosition:
    """Everything the reference tracks; ``awaiting`` is "moves", "chance" or "over"."""

    rules: EelRules
    round: int = 1
    start_player: int = 0
    grab: int = 0  # grabs begun in this round
    scores: list[int] = field(default_factory=list)
    reserves: list[int] = field(default_factory=list)
    in_round: list[bool] = field(default_factory=list)
    bag_eels: int = EELS
    bag_snakes: int = SNAKES
    centre_snakes: int = 0
    awaiting: str = "moves"
    pending: dict[int, int] = field(default_factory=dict)  # counts chosen this grab, in-round seats
    exit_time: dict[int, tuple[int, int]] = field(default_factory=dict)  # this round
    lone_grabs_left: int | None = None
    winners: tuple[int, ...] = ()
    last_outbreak: bool = False
    seen: Counter[str] = field(default_factory=Counter)  # rule situations met, for coverage checks

    def __post_init__(self) -> None:
        n = self.rules.players
        self.scores = [0] * n
        self.reserves = [0] * n
        self.in_round = [True] * n

    # ---- views -------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.awaiting == "over"

    def in_seats(self) -> list[int]:
        return [s for s in range(self.rules.players) if self.in_round[s]]

    def draw_order(self) -> list[int]:
        n = self.rules.players
        return [(self.start_player + k) % n for k in range(n)]

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "start_player": self.start_player,
            "scores": list(self.scores),
            "reserves": list(self.reserves),
            "in_round": list(self.in_round),
            "bag": (self.bag_eels, self.bag_snakes),
            "centre_snakes": self.centre_snakes,
            "over": self.over,
            "winners": self.winners,
            "awaiting": self.awaiting,
        }

    def tokens(self) -> int:
        """Every token the position holds (68 between events, whatever happens)."""
        return self.bag_eels + self.bag_snakes + self.centre_snakes + sum(self.reserves)

    # ---- events ------------------------------------------------------------------------------
    def apply_moves(self, index: int, moves: dict[str, Any]) -> None:
        if self.awaiting != "moves":
            raise ReferenceRuleError(index, f"a moves event is not expected (awaiting {self.awaiting})")
        if not isinstance(moves, dict):
            raise ReferenceRuleError(index, "moves must be an object")
        counts: dict[int, int] = {}
        for key, value in moves.items():
            seat = int(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ReferenceRuleError(index, f"seat {seat}: a count must be an integer")
            if not 0 <= value <= self.rules.max_grab:
                raise ReferenceRuleError(index, f"seat {seat}: count {value} not in 0..{self.rules.max_grab}")
            counts[seat] = value
        if sorted(counts) != self.in_seats():
            raise ReferenceRuleError(
                index, f"seats {sorted(counts)} moved; the seats in the round are {self.in_seats()}"
            )
        self.grab += 1
        self.pending = counts
        if self.rules.exit_timing == "before_draws":
            for seat in self.draw_order():
                if counts.get(seat) == 0:
                    self._exit(seat, (self.grab, 0))
        if any(c > 0 for c in counts.values()):
            self.awaiting = "chance"
            return
        # Everyone left chose 0: no draw, no chance event.
        for seat in self.draw_order():
            if counts.get(seat) == 0 and self.in_round[seat]:
                self._exit(seat, (self.grab, 0))
        self._end_of_grab(drawn={})

    def apply_chance(self, index: int, chance: Any) -> None:
        if self.awaiting != "chance":
            raise ReferenceRuleError(index, f"a chance event is not expected (awaiting {self.awaiting})")
        if not isinstance(chance, dict):
            raise ReferenceRuleError(index, "an Eel family draw must be an object of seat to tokens")
        hands: dict[int, str] = {}
        for key, value in chance.items():
            seat = int(key)
            if not isinstance(value, str) or set(value) - {"E", "S"}:
                raise ReferenceRuleError(index, f"seat {seat}: tokens must be a string of E and S")
            if value or seat not in self.pending:
                hands[seat] = value  # "" for a seat of this grab that drew nothing is tolerated
        timing = self.rules.exit_timing
        drawn: dict[int, tuple[int, int]] = {}
        for seat in self.draw_order():
            count = self.pending.get(seat)
            if count is None:
                continue
            if count == 0:
                if timing == "in_draw_order":
                    self._exit(seat, (self.grab, 0))
                continue
            expected = count if self.rules.dice else min(count, self.bag_eels + self.bag_snakes)
            hand = hands.pop(seat, "")
            if expected < count:
                self.seen["short_bag"] += 1
            if len(hand) != expected:
                raise ReferenceRuleError(index, f"seat {seat} should draw {expected} tokens, drew {len(hand)}")
            eels, snakes = hand.count("E"), hand.count("S")
            if not self.rules.dice:
                if eels > self.bag_eels or snakes > self.bag_snakes:
                    raise ReferenceRuleError(
                        index,
                        f"seat {seat} drew {eels} eels and {snakes} snakes; the bag held "
                        f"{self.bag_eels} and {self.bag_snakes}",
                    )
                self.bag_eels -= eels
                self.bag_snakes -= snakes
            drawn[seat] = (eels, snakes)
        if hands:
            raise ReferenceRuleError(index, f"seats {sorted(hands)} drew but did not grab or the bag was empty")
        # Reveal: eels to reserves, snakes to the centre.
        for seat, (eels, snakes) in drawn.items():
            self.reserves[seat] += eels
            self.centre_snakes += snakes
        if timing == "after_draws":
            for seat in self.draw_order():
                if self.pending.get(seat) == 0:
                    self._exit(seat, (self.grab, 0))
        self._end_of_grab(drawn)

    # ---- rule steps --------------------------------------------------------------------------
    def _exit(self, seat: int, when: tuple[int, int]) -> None:
        """Score the reserve, return its eels to the bag, leave the round."""
        self.scores[seat] += self.reserves[seat]
        self._return_reserve(seat)
        self.in_round[seat] = False
        self.exit_time[seat] = when

    def _return_reserve(self, seat: int) -> None:
        if not self.rules.dice:
            self.bag_eels += self.reserves[seat]
        self.reserves[seat] = 0

    def _end_of_grab(self, drawn: dict[int, tuple[int, int]]) -> None:
        self.pending = {}
        self.last_outbreak = False
        still_in = self.in_seats()
        if still_in and self.centre_snakes >= self.rules.threshold:
            self.last_outbreak = True
            self.seen["outbreak"] += 1
            self._outbreak(still_in, drawn)
        elif len(still_in) == 1 and self.rules.harvest and self.rules.lone_player_grabs is not None:
            if self.lone_grabs_left is None:
                self.lone_grabs_left = self.rules.lone_player_grabs
            else:
                self.lone_grabs_left -= 1
            if self.lone_grabs_left <= 0:
                self.seen["lone_auto_exit"] += 1
                self._exit(still_in[0], (self.grab, 0 if self.rules.lone_exit_with_grab else 1))
        round_over = not any(self.in_round)
        if round_over:
            self._end_round()
        elif not self.rules.harvest and max(self.scores) >= TARGET:
            self._finish_wriggle()
        else:
            self.awaiting = "moves"

    def _outbreak(self, still_in: list[int], drawn: dict[int, tuple[int, int]]) -> None:
        if self.rules.harvest:
            # Who drew the most tokens (eels + snakes) in this grab; tokens actually drawn.
            taken = {s: sum(drawn.get(s, (0, 0))) for s in still_in}
            most = max(taken.values())
            losers = {s for s in still_in if taken[s] == most}
        else:
            most = max(self.reserves[s] for s in still_in)
            losers = {s for s in still_in if self.reserves[s] == most}
        for seat in still_in:
            if seat not in losers:
                if self.rules.harvest and not self.rules.outbreak_scores_reserve:
                    self.scores[seat] += drawn.get(seat, (0, 0))[0]
                else:
                    self.scores[seat] += self.reserves[seat]
            self._return_reserve(seat)
            self.in_round[seat] = False
            self.exit_time[seat] = (self.grab, 1)

    def _end_round(self) -> None:
        # Every token goes back into the bag.
        if not self.rules.dice:
            self.bag_snakes += self.centre_snakes
        self.centre_snakes = 0
        if self.rules.harvest:
            if max(self.scores) >= TARGET:
                top = max(self.scores)
                tied = [s for s in range(self.rules.players) if self.scores[s] == top]
                last = max(self.exit_time[s] for s in tied)
                self.winners = tuple(s for s in tied if self.exit_time[s] == last)
                if len(self.winners) < len(tied):
                    self.seen["tie_broken_by_exit_order"] += 1
                self.awaiting = "over"
                return
        elif max(self.scores) >= TARGET:
            self._finish_wriggle()
            return
        self.round += 1
        self.start_player = (self.round - 1) % self.rules.players if self.rules.rotate_start else 0
        self.grab = 0
        self.in_round = [True] * self.rules.players
        self.exit_time = {}
        self.lone_grabs_left = None
        self.awaiting = "moves"

    def _finish_wriggle(self) -> None:
        if any(self.in_round):
            self.seen["ended_mid_round"] += 1
        top = max(self.scores)
        self.winners = tuple(s for s in range(self.rules.players) if self.scores[s] == top)
        self.awaiting = "over"


def replay_eel(
    record: dict[str, Any],
    exit_timing: ExitTiming = "before_draws",
    *,
    lone_exit_with_grab: bool = False,
    snapshots: list[dict[str, Any]] | None = None,
) -> EelPosition:
    """Replay ``record``; raise ``ReferenceRuleError`` at the first event that breaks a rule.

    With ``snapshots``, the position after every event is appended to it.
    """
    position = EelPosition(EelRules.from_record(record, exit_timing, lone_exit_with_grab))
    for index, event in enumerate(record["events"]):
        if position.over:
            raise ReferenceRuleError(index, "the game is over")
        if "moves" in event:
            position.apply_moves(index, event["moves"])
        elif "chance" in event:
            position.apply_chance(index, event["chance"])
        else:
            raise ReferenceRuleError(index, "an event is a moves or a chance object")
        if not position.rules.dice and position.tokens() != EELS + SNAKES:
            raise AssertionError(f"reference lost tokens after event {index}: {position.snapshot()}")
        if snapshots is not None:
            snapshots.append(position.snapshot())
    return position
