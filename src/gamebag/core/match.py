"""A game in progress: state, record, and the secret choices not yet revealed.

``Match`` is what interactive front ends (terminal, web server) drive: players
submit their choices one at a time; the joint action is applied once every
acting seat has chosen, and chance nodes are resolved with a generator derived
from the match seed and the event number, so a match rebuilt from its record
continues exactly as it would have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamebag.core.errors import IllegalActionError
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.records import (
    Record,
    apply_event,
    chance_event,
    moves_event,
    new_record,
)
from gamebag.core.rng import derive_rng
from gamebag.core.translation import _


class Match:
    """One game being played, with pending secret choices kept apart from the rules state."""

    def __init__(self, game: Game[Any, Any, Any], seed: int | str, events: Sequence[JsonDict] = ()) -> None:
        self.game = game
        self.seed = seed
        self.state: Any = game.initial_state()
        self.record: Record = new_record(game)
        self.pending: dict[int, Any] = {}
        for event in events:
            self.state = apply_event(game, self.state, event)
            self.record.events.append(dict(event))
        self.resolve_chance()

    # ---- progress ---------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def waiting_for(self) -> tuple[int, ...]:
        """Seats that must still choose before the next reveal."""
        if self.game.node_kind(self.state) is not NodeKind.DECISION:
            return ()
        return tuple(p for p in self.game.acting_players(self.state) if p not in self.pending)

    def legal_actions(self, player: int) -> Sequence[Any]:
        return self.game.legal_actions(self.state, player)

    def submit(self, player: int, action: Any) -> list[JsonDict]:
        """Record ``player``'s secret choice; once everyone has chosen, resolve the reveal.

        A player may change a choice until the last one arrives. Returns the
        events the submission caused (empty while others are still choosing).
        """
        if self.game.node_kind(self.state) is not NodeKind.DECISION:
            raise IllegalActionError(_("the game is over") if self.is_over else _("no player may act now"))
        acting = self.game.acting_players(self.state)
        if player not in acting:
            raise IllegalActionError(
                _("seat {seat} does not act now; waiting for seat(s) {seats}", seat=player,
                  seats=", ".join(map(str, self.waiting_for())))
            )
        self.game.check_action(self.state, player, action)
        self.pending[player] = action
        if any(p not in self.pending for p in acting):
            return []
        moves = dict(self.pending)
        self.state = self.game.apply(self.state, moves)
        self.pending = {}
        events = [moves_event(self.game, moves)]
        self.record.events.append(events[0])
        events.extend(self.resolve_chance())
        return events

    def resolve_chance(self) -> list[JsonDict]:
        """Resolve chance nodes until players must act or the game ends."""
        events: list[JsonDict] = []
        while self.game.node_kind(self.state) is NodeKind.CHANCE:
            rng = derive_rng(self.seed, "chance", len(self.record.events))
            outcome = self.game.sample_chance(self.state, rng)
            self.state = self.game.apply_chance(self.state, outcome)
            event = chance_event(self.game, outcome)
            self.record.events.append(event)
            events.append(event)
        return events

    # ---- views --------------------------------------------------------------------------
    def view(self, player: int) -> JsonDict:
        """What ``player`` may know: the game's observation plus the state of the secret choices."""
        view = self.game.observation(self.state, player)
        view["choices"] = {
            "waiting_for": list(self.waiting_for()),
            "chosen": sorted(self.pending),
            "mine": self.game.action_to_json(self.pending[player]) if player in self.pending else None,
        }
        return view

    def public(self) -> JsonDict:
        """What a spectator may know."""
        view = self.game.public_view(self.state)
        view["choices"] = {"waiting_for": list(self.waiting_for()), "chosen": sorted(self.pending), "mine": None}
        return view
