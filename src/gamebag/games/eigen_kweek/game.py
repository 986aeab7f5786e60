"""``EigenKweek``: the Game protocol over the Eigen Kweek rules.

Nodes (``KweekState.step``):

* chance: ``refill`` (one coin from the bag onto the next corner), ``deal`` (one
  character card to the next player), ``ria_draw`` (RIA's card from the stack),
  ``rob_draw`` (PASTOOR's coin from the victim, face down), ``lucien_draw``
  (LUCIEN's coin from the bag). Each outcome is one coin value or one card.
* decision, everyone concerned at once: ``choose`` (players dealt cards),
  ``window`` (players holding an unplayed card), ``bid`` (everyone),
  ``cultivate`` (everyone not blocked by BERNARD), ``keep`` (holders of an
  unplayed card);
* decision, one player in the open: ``ria_direction``, ``keun``, ``griet``,
  ``rob``, ``bernard`` (the card's player picks its target), ``corner``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from gamebag.core.errors import IllegalActionError, IllegalChanceOutcomeError
from gamebag.core.options import Option
from gamebag.core.protocol import Game, JsonDict, NodeKind
from gamebag.core.rng import Rng
from gamebag.core.traits import Information, Moves, Termination, Traits
from gamebag.games.eigen_kweek import phases, views
from gamebag.games.eigen_kweek.actions import Move, action_catalogue, describe_action_forms
from gamebag.games.eigen_kweek.characters import AIMED_BY_KIND, target_options, window_actions
from gamebag.games.eigen_kweek.components import (
    EMPTY,
    OPTION_SPECS,
    PLANT_COSTS,
    SACK,
    build_config,
    minimal_payments,
    payment_text,
)
from gamebag.games.eigen_kweek.state import Draft, KweekState, sacks

Outcome = int | str  # a coin value or a character card
CHANCE_STEPS = frozenset({"refill", "deal", "ria_draw", "rob_draw", "lucien_draw"})
CARD_DRAWS = frozenset({"deal", "ria_draw"})
SOLO_STEPS = frozenset({"ria_choice", "ria_direction", "keun", "griet", "rob", "bernard", "corner"})


class EigenKweek(Game[KweekState, str, Outcome]):
    """Eigen Kweek for 2-4 players: bid weed tokens for coins, grow plants, plough four sacks."""

    game_id: ClassVar[str] = "eigen-kweek"
    title: ClassVar[str] = "Eigen Kweek"
    version: ClassVar[str] = "1.0"
    summary: ClassVar[str] = (
        "Bid secret weed tokens for coins, sow and harvest plants, play characters; "
        "the first to plough over four plant cards into potato sacks wins."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    traits: ClassVar[Traits] = Traits(Moves.SIMULTANEOUS, Information.HIDDEN, chance=True)
    option_specs: ClassVar[tuple[Option, ...]] = OPTION_SPECS

    def _configure(self) -> None:
        self.config = build_config(self.num_players, self.options)
        self._catalogue: dict[str, Move] = action_catalogue(self.config)
        self._actions: tuple[str, ...] = tuple(self._catalogue)
        # (kind, cost, price) -> [(payment, action)] for sow and plough.
        self._payments: dict[tuple[str, int, int], list[tuple[tuple[int, ...], str]]] = {}
        for kind in ("sow", "plough"):
            for cost in PLANT_COSTS:
                for price in self.config.prices(kind, cost):
                    self._payments[(kind, cost, price)] = [
                        (m, f"{kind}:{cost}:{payment_text(m, self.config.values)}")
                        for m in minimal_payments(price, self.config.values)
                    ]

    # ---- dynamics -------------------------------------------------------------------------
    def initial_state(self) -> KweekState:
        return phases.initial_state(self.config)

    def node_kind(self, state: KweekState) -> NodeKind:
        if state.step == "over":
            return NodeKind.TERMINAL
        if state.step in CHANCE_STEPS:
            return NodeKind.CHANCE
        return NodeKind.DECISION

    def acting_players(self, state: KweekState) -> tuple[int, ...]:
        step = state.step
        if step in SOLO_STEPS:
            return (state.chooser,) if state.chooser is not None else ()
        if step == "choose":
            return tuple(seat for seat, hand in enumerate(state.dealt) if hand)
        if step in ("window", "keep"):
            return tuple(seat for seat, card in enumerate(state.held) if card is not None)
        if step == "bid":
            return tuple(range(self.num_players))
        if step == "cultivate":
            return phases.cultivators(state)
        return ()

    def legal_actions(self, state: KweekState, player: int) -> Sequence[str]:
        if player not in self.acting_players(state):
            return ()
        step = state.step
        if step == "choose":
            return tuple(f"choose:{card}" for card in sorted(set(state.dealt[player])))
        if step == "window":
            return tuple(window_actions(state, player))
        if step == "ria_choice":
            return ("ria:draw", "ria:skip")
        if step == "ria_direction":
            return ("ria:left", "ria:right")
        if step in ("keun", "griet", "rob", "bernard"):
            assert state.chooser is not None
            card = AIMED_BY_KIND[step]
            return tuple(target_options(self.config, state, card, state.chooser))
        if step == "bid":
            return tuple(phases.bid_actions(state, player))
        if step == "corner":
            return tuple(phases.corner_actions(state))
        if step == "cultivate":
            return tuple(self._cultivate_actions(state, player))
        if step == "keep":
            return ("keep", "hand_in")
        return ()

    def _cultivate_actions(self, state: KweekState, seat: int) -> list[str]:
        frank = _active(state, "FRANK") == seat
        jos = _active(state, "JOS") == seat
        coins = state.coins[seat]
        actions = ["pass"]
        board = state.boards[seat]
        for cost, slot in zip(PLANT_COSTS, board, strict=True):
            if slot == EMPTY:
                actions.extend(self._affordable("sow", cost, frank, coins))
            elif slot != SACK:
                if slot > 0:
                    actions.append(f"harvest:{cost}")
                actions.extend(self._affordable("plough", cost, frank, coins))
        if jos and any(slot > 0 for slot in board):
            actions.append("harvest_all")
        return actions

    def _affordable(self, kind: str, cost: int, frank: bool, coins: tuple[int, ...]) -> list[str]:
        price = self.config.price(kind, cost, frank)
        return [
            action
            for payment, action in self._payments[(kind, cost, price)]
            if all(need <= have for need, have in zip(payment, coins, strict=True))
        ]

    def _illegal_action_message(self, state: KweekState, player: int, action: Any, legal: Sequence[str]) -> str:
        shown = ", ".join(list(legal)[:10]) + (", ..." if len(legal) > 10 else "")
        return (
            f"seat {player}: {action!r} is not allowed at the {state.step} step of the "
            f"{state.phase} phase; allowed: {shown}"
        )

    def _apply(self, state: KweekState, moves: Mapping[int, str]) -> KweekState:
        parsed = {seat: self._catalogue[action] for seat, action in moves.items()}
        d = Draft(state)
        step = state.step
        if step == "choose":
            phases.apply_choose(self.config, d, parsed)
        elif step == "window":
            phases.apply_window(self.config, d, parsed)
        elif step == "bid":
            phases.apply_bids(self.config, d, parsed)
        elif step == "cultivate":
            phases.apply_cultivate(self.config, d, parsed)
        elif step == "keep":
            phases.apply_keep(self.config, d, parsed)
        else:
            seat, action = next(iter(moves.items()))
            move = parsed[seat]
            if step == "ria_choice":
                phases.apply_ria_choice(self.config, d, move.kind == "ria_draw")
            elif step == "ria_direction":
                assert move.number is not None
                phases.apply_ria_direction(self.config, d, move.number)
            elif step == "corner":
                assert move.number is not None
                phases.take_corner(self.config, d, move.number)
            else:
                phases.apply_target(self.config, d, seat, action)
        return d.freeze()

    # ---- chance ---------------------------------------------------------------------------
    def _coin_source(self, state: KweekState) -> tuple[int, ...]:
        if state.step == "rob_draw":
            assert state.rob_target is not None
            return state.coins[state.rob_target]
        return state.bag

    def chance_outcomes(self, state: KweekState) -> Sequence[tuple[Outcome, Fraction]]:
        if state.step not in CHANCE_STEPS:
            return []
        if state.step in CARD_DRAWS:
            share = Fraction(1, len(state.stack))
            return [(card, share) for card in state.stack]
        source = self._coin_source(state)
        total = sum(source)
        return [
            (value, Fraction(count, total))
            for value, count in zip(self.config.values, source, strict=True)
            if count > 0
        ]

    def sample_chance(self, state: KweekState, rng: Rng) -> Outcome:
        if state.step not in CHANCE_STEPS:
            raise IllegalChanceOutcomeError(f"no chance event happens at the {state.step} step")
        if state.step in CARD_DRAWS:
            return state.stack[rng.randrange(len(state.stack))]
        source = self._coin_source(state)
        pick = rng.randrange(sum(source))
        for value, count in zip(self.config.values, source, strict=True):
            if pick < count:
                return value
            pick -= count
        raise IllegalChanceOutcomeError("the coin source is empty")

    def _check_outcome(self, state: KweekState, outcome: Any) -> None:
        step = state.step
        if step in CARD_DRAWS:
            if not isinstance(outcome, str) or outcome not in state.stack:
                raise IllegalChanceOutcomeError(
                    f"the {step} draws a character card from the stack ({', '.join(state.stack)}), "
                    f"not {outcome!r}"
                )
            return
        source = self._coin_source(state)
        available = {v for v, n in zip(self.config.values, source, strict=True) if n > 0}
        if isinstance(outcome, bool) or not isinstance(outcome, int) or outcome not in available:
            where = "the victim's coins" if step == "rob_draw" else "the coin bag"
            raise IllegalChanceOutcomeError(
                f"the {step} draws a coin value present in {where} ({sorted(available)}), not {outcome!r}"
            )

    def _apply_chance(self, state: KweekState, outcome: Outcome) -> KweekState:
        step = state.step
        d = Draft(state)
        if step in CARD_DRAWS:
            assert isinstance(outcome, str)  # checked by _check_outcome
            if step == "deal":
                phases.deal_card(self.config, d, outcome)
            else:
                phases.apply_ria_draw(self.config, d, outcome)
            return d.freeze()
        assert isinstance(outcome, int)  # checked by _check_outcome
        if step == "refill":
            phases.place_refill_coin(self.config, d, outcome)
        elif step == "rob_draw":
            phases.apply_rob_draw(self.config, d, outcome)
        else:
            phases.apply_lucien_draw(self.config, d, outcome)
        return d.freeze()

    # ---- results --------------------------------------------------------------------------
    def scores(self, state: KweekState) -> tuple[float, ...]:
        """Potato sacks on each board."""
        return tuple(float(sacks(board)) for board in state.boards)

    def winners(self, state: KweekState) -> tuple[int, ...]:
        return state.winners

    def termination(self, state: KweekState) -> Termination | None:
        return {"four_sacks": Termination.GOAL, "round_cap": Termination.ROUND_CAP}.get(state.ended_by or "")

    def round_number(self, state: KweekState) -> int:
        return state.round_no

    # ---- information ----------------------------------------------------------------------
    def observation(self, state: KweekState, player: int) -> JsonDict:
        return views.observation(self, state, player)

    def public_view(self, state: KweekState) -> JsonDict:
        return views.public_view(self, state)

    def resample_from_infostate(self, state: KweekState, player: int, rng: Rng) -> KweekState:
        return views.resample(self.config, state, player, rng)

    def observation_tensor(self, state: KweekState, player: int) -> list[float]:
        return views.observation_tensor(self, state, player)

    # ---- encodings ------------------------------------------------------------------------
    def action_to_json(self, action: str) -> Any:
        return action

    def action_from_json(self, data: Any) -> str:
        if not isinstance(data, str) or data not in self._catalogue:
            raise IllegalActionError(
                f"{data!r} is not an Eigen Kweek action of this configuration; actions are written "
                f"{describe_action_forms()}"
            )
        return data

    def outcome_to_json(self, outcome: Outcome) -> Any:
        return outcome

    def outcome_from_json(self, data: Any) -> Outcome:
        if isinstance(data, bool) or not isinstance(data, int | str):
            raise IllegalChanceOutcomeError(
                f"a chance outcome is a coin value (a number) or a character card name, not {data!r}"
            )
        return data

    def all_actions(self) -> Sequence[str]:
        return self._actions


def _active(state: KweekState, card: str) -> int | None:
    for play in state.plays:
        if play.card == card and not play.blocked:
            return play.seat
    return None
