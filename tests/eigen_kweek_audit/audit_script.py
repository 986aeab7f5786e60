"""Audit helpers: write Eigen Kweek records event by event and replay them.

A ``Script`` is a hand-written record under construction. Every event added is
applied at once through ``gamebag.core.records.apply_event`` (the path
``replay`` takes), so a test can look at the position after any event, and
``replayed()`` checks the whole record again through ``replay``. Conservation of
the 116 weed tokens and 35 coins is checked after every event from the state's
own fields, counted independently of the engine's helpers.
"""

from __future__ import annotations

from typing import Any

import gamebag
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.records import Record, apply_event, replay

GAME_ID = "eigen-kweek"
TOTAL_TOKENS = 116
TOTAL_COINS = 35
COSTS = (2, 4, 6, 8)
EMPTY = -1
SACK = -2


def seat_moves(by_seat: dict[str, str]) -> dict[str, Any]:
    """``{"s0": "pass", "s2": "bid:3"}`` -> ``{"moves": {"0": "pass", "2": "bid:3"}}``."""
    return {"moves": {key.removeprefix("s"): value for key, value in by_seat.items()}}


class Script:
    """A record written event by event; the position is kept up to date."""

    def __init__(self, players: int, **options: Any) -> None:
        self.players = players
        self.options = dict(options)
        self.events: list[dict[str, Any]] = []
        self.game: Game[Any, Any, Any] = gamebag.make(GAME_ID, players, **options)
        self.state: Any = self.game.initial_state()
        self.history: list[Any] = [self.state]

    # ---- writing events --------------------------------------------------------------------
    def event(self, event: dict[str, Any]) -> Script:
        self.state = apply_event(self.game, self.state, event)
        self.events.append(event)
        self.history.append(self.state)
        check_conservation(self.game, self.state)
        return self

    def chance(self, *outcomes: int | str) -> Script:
        for outcome in outcomes:
            self.event({"chance": outcome})
        return self

    def moves(self, **by_seat: str) -> Script:
        return self.event(seat_moves(by_seat))

    def everyone(self, action: str = "pass") -> Script:
        """Every acting seat does ``action`` (the acting set is checked by the replay)."""
        seats = self.game.acting_players(self.state)
        assert seats, f"nobody acts at the {self.state.step} step"
        return self.event({"moves": {str(seat): action for seat in seats}})

    def quiet_window(self) -> Script:
        """Everyone holding a card passes until this phase's window closes."""
        assert self.state.step == "window", self.state.step
        phase = self.state.phase
        while self.state.step == "window" and self.state.phase == phase:
            self.everyone("pass")
        return self

    # ---- reading -------------------------------------------------------------------------
    @property
    def step(self) -> str:
        return str(self.state.step)

    def acting(self) -> tuple[int, ...]:
        return tuple(self.game.acting_players(self.state))

    def legal(self, seat: int) -> tuple[str, ...]:
        return tuple(self.game.legal_actions(self.state, seat))

    def kind(self) -> NodeKind:
        return self.game.node_kind(self.state)

    def record(self) -> Record:
        return Record(GAME_ID, self.players, dict(self.options), list(self.events))

    def replayed(self) -> Any:
        """Replay the whole record through ``replay``; it must end where the script is."""
        _, state = replay(self.record(), gamebag.make)
        assert state == self.state
        return state

    def obs(self, seat: int) -> dict[str, Any]:
        return dict(self.game.observation(self.state, seat))

    def slot(self, seat: int, cost: int) -> int:
        return int(self.state.boards[seat][COSTS.index(cost)])

    def coin_values(self, seat: int) -> list[int]:
        """The coin values ``seat`` holds (from its own observation)."""
        return sorted(self.obs(seat)["you"]["coins"])

    def corner_sizes(self) -> list[int]:
        return list(self.game.public_view(self.state)["corners"])

    def values_in(self, counts: tuple[int, ...]) -> list[int]:
        values = self.game.config.values  # type: ignore[attr-defined]
        return sorted(v for v, n in zip(values, counts, strict=True) for _ in range(n))


def check_conservation(game: Game[Any, Any, Any], state: Any) -> None:
    """116 weed tokens and 35 coins, each in exactly one place, never negative."""
    on_cards = sum(slot for board in state.boards for slot in board if slot > 0)
    sealed = sum(state.bids) if state.bids is not None else 0
    assert state.pot + sum(state.tokens) + sealed + on_cards == TOTAL_TOKENS
    assert state.pot >= 0 and min(state.tokens) >= 0
    per_value = [sum(column) for column in zip(*state.coins, *state.corners, state.bag, strict=True)]
    assert sum(per_value) == TOTAL_COINS
    assert per_value == list(game.config.coin_counts)  # type: ignore[attr-defined]
    for place in (*state.coins, *state.corners, state.bag):
        assert min(place) >= 0


def opening(
    players: int,
    corners: tuple[int, int, int, int] = (1, 2, 3, 5),
    dealt: tuple[str, ...] = (),
    chosen: tuple[str, ...] = (),
    **options: Any,
) -> Script:
    """Setup (four coins on corners 1-4), the deal (two cards a seat, seat 0 first), the choice."""
    script = Script(players, **options).chance(*corners)
    if dealt:
        assert len(dealt) == 2 * players
        script.chance(*dealt)
        script.moves(**{f"s{seat}": f"choose:{card}" for seat, card in enumerate(chosen)})
    return script


# Two cards per seat that never do anything unless played; handy for quiet rounds.
QUIET = ("FRANK", "JOS", "BERNARD", "FLUPPE", "GRIET", "KEUN", "PASTOOR", "RIA")


def quiet_round(
    script: Script,
    bids: dict[int, int],
    corners: list[tuple[int, int]],
    cultivate: dict[int, str],
    refill: tuple[int, ...],
    dealt: tuple[str, ...] | None = None,
) -> Script:
    """One round nobody plays a character in: deal, choose the first card, pass every window,
    bid, take the corners given as (seat, corner) in turn, cultivate, hand in, refill."""
    if script.step == "deal":
        cards = dealt or QUIET[: 2 * len(_dealt_seats(script))]
        script.chance(*cards)
    if script.step == "choose":
        script.moves(**{f"s{seat}": f"choose:{sorted(script.state.dealt[seat])[0]}" for seat in script.acting()})
    while script.step == "window":
        script.quiet_window()
    assert script.step == "bid", script.step
    script.moves(**{f"s{seat}": f"bid:{size}" for seat, size in bids.items()})
    script.quiet_window()
    for seat, corner in corners:
        if script.step == "corner":
            assert script.acting() == (seat,), (script.acting(), seat)
            script.moves(**{f"s{seat}": f"corner:{corner}"})
    while script.step == "window":
        script.quiet_window()
    assert script.step == "cultivate", script.step
    script.moves(**{f"s{seat}": action for seat, action in cultivate.items()})
    while script.step == "window":  # the hand-in window (JULITA, DEN OLLANDER)
        script.quiet_window()
    if script.step == "keep":
        script.everyone("hand_in")
    if script.step == "refill":
        script.chance(*refill)
    return script


def _dealt_seats(script: Script) -> list[int]:
    return [seat for seat in range(script.players) if not script.state.kept[seat]]


FIVES: dict[str, Any] = {"coins_worth_1": 0, "coins_worth_2": 0, "coins_worth_3": 0, "coins_worth_5": 35}


def garden(dealt3: tuple[str, str, str, str] | None = None, **options: Any) -> Script:
    """Two players, every coin worth 5 (an option), two rounds of sowing.

    Round 1: seat 0 sows the 2 card, seat 1 the 4 card. Round 2: seat 0 sows the 8 card,
    seat 1 the 6 card. Stops in round 3 after the deal (cards ``dealt3``, seat 0 then seat 1,
    each seat choosing its first card), before the deal window, or at round 3's deal chance
    when ``dealt3`` is None. Plants grow in round 3's growth phase to 2 (2 card) and 3 (8 card)
    for seat 0, 2 (4 card) and 2 (6 card) for seat 1.
    """
    script = opening(2, corners=(5, 5, 5, 5), **{**FIVES, **options})
    quiet_round(script, bids={0: 2, 1: 1}, corners=[(0, 1), (1, 2)],
                cultivate={0: "sow:2:5", 1: "sow:4:5"}, refill=(5, 5, 5, 5))
    quiet_round(script, bids={0: 2, 1: 1}, corners=[(0, 3), (1, 4)],
                cultivate={0: "sow:8:5+5", 1: "sow:6:5+5"}, refill=(5, 5, 5, 5))
    assert script.state.round_no == 3 and script.step == "deal"
    if dealt3 is not None:
        script.chance(*dealt3).moves(s0=f"choose:{dealt3[0]}", s1=f"choose:{dealt3[2]}")
    return script
