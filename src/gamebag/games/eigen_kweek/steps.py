"""The one table that drives Eigen Kweek: for each step, who acts, what they may do, what follows.

``STEPS`` maps every ``Step`` to a ``Decision`` (who acts, their legal actions,
and the transition once all have chosen) or a ``Chance`` (where the drawn card
or coin comes from, and the transition). ``EigenKweek`` in ``game.py`` does
nothing but look steps up here; the rules themselves live in ``phases.py`` (the
round) and ``characters.py`` (the cards).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gamebag.games.eigen_kweek import phases
from gamebag.games.eigen_kweek.actions import Move
from gamebag.games.eigen_kweek.characters import AIMED, AIMED_BY_STEP, window_actions
from gamebag.games.eigen_kweek.components import EMPTY, PLANT_COSTS, SACK, Config, minimal_payments, payment_text
from gamebag.games.eigen_kweek.nodes import Step
from gamebag.games.eigen_kweek.state import Draft, KweekState

Outcome = int | str  # a coin value or a character card
CACHE_LIMIT = 50_000  # entries per memo table (a bound on memory; a full table starts again)


class Context:
    """A configuration's numbers plus the tables derived from them once (payments, menus)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        # (kind, cost, price) -> [(payment, action)] for sow and plough over.
        self.payments: dict[tuple[str, int, int], list[tuple[tuple[int, ...], str]]] = {}
        for kind in ("sow", "plough"):
            for cost in PLANT_COSTS:
                for price in config.prices(kind, cost):
                    self.payments[(kind, cost, price)] = [
                        (m, f"{kind}:{cost}:{payment_text(m, config.values)}")
                        for m in minimal_payments(price, config.values)
                    ]
        # Cultivate menus depend on the board, the coins and FRANK / JOS only: computed once each.
        self._menus: dict[tuple[tuple[int, ...], tuple[int, ...], bool, bool], tuple[str, ...]] = {}
        self._affordable_cache: dict[tuple[str, int, int, tuple[int, ...]], tuple[str, ...]] = {}

    def cultivate_menu(self, board: tuple[int, ...], coins: tuple[int, ...], frank: bool, jos: bool) -> tuple[str, ...]:
        key = (board, coins, frank, jos)
        menu = self._menus.get(key)
        if menu is None:
            if len(self._menus) >= CACHE_LIMIT:
                self._menus.clear()
            menu = self._menus[key] = self._build_menu(board, coins, frank, jos)
        return menu

    def _build_menu(self, board: tuple[int, ...], coins: tuple[int, ...], frank: bool, jos: bool) -> tuple[str, ...]:
        actions = ["pass"]
        for cost, slot in zip(PLANT_COSTS, board, strict=True):
            if slot == EMPTY:
                actions.extend(self._affordable("sow", cost, frank, coins))
            elif slot != SACK:
                if slot > 0:
                    actions.append(f"harvest:{cost}")
                actions.extend(self._affordable("plough", cost, frank, coins))
        if jos and any(slot > 0 for slot in board):
            actions.append("harvest_all")
        return tuple(actions)

    def _affordable(self, kind: str, cost: int, frank: bool, coins: tuple[int, ...]) -> tuple[str, ...]:
        price = self.config.price(kind, cost, frank)
        key = (kind, cost, price, coins)
        found = self._affordable_cache.get(key)
        if found is None:
            if len(self._affordable_cache) >= CACHE_LIMIT:
                self._affordable_cache.clear()
            found = self._affordable_cache[key] = tuple(
                action
                for payment, action in self.payments[(kind, cost, price)]
                if all(need <= have for need, have in zip(payment, coins, strict=True))
            )
        return found


@dataclass(frozen=True)
class Decision:
    """A step where players choose: who, from what, and the transition once all have chosen."""

    acting: Callable[[KweekState], tuple[int, ...]]
    legal: Callable[[Context, KweekState, int], tuple[str, ...]]
    apply: Callable[[Config, Draft, dict[int, Move]], None]


@dataclass(frozen=True)
class Chance:
    """A step decided by a draw: a character card from the stack, or a coin from ``coins``."""

    coins: Callable[[KweekState], tuple[int, ...]] | None  # None: a card from the stack
    where: str  # where the draw comes from, for error messages
    apply: Callable[[Config, KweekState, Outcome], KweekState]


# ---- who acts --------------------------------------------------------------------------------
def _chooser(state: KweekState) -> tuple[int, ...]:
    return (state.chooser,) if state.chooser is not None else ()


def _dealt(state: KweekState) -> tuple[int, ...]:
    return tuple([seat for seat, hand in enumerate(state.dealt) if hand])


def _holders(state: KweekState) -> tuple[int, ...]:
    return tuple([seat for seat, card in enumerate(state.held) if card is not None])


def _everyone(state: KweekState) -> tuple[int, ...]:
    return tuple(range(len(state.held)))


def _cultivators(state: KweekState) -> tuple[int, ...]:
    return tuple([seat for seat in range(len(state.held)) if seat != state.bernard_target])


# ---- what they may do ------------------------------------------------------------------------
def _choose_legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
    hand = state.dealt[seat]
    menu = _CHOOSE_MENUS.get(hand)
    if menu is None:
        menu = _CHOOSE_MENUS[hand] = tuple(f"choose:{card}" for card in sorted(set(hand)))
    return menu


# Dealt hands (two of 14 cards, in dealing order: at most 14 x 14) -> the choices they give.
_CHOOSE_MENUS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _window_legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
    return window_actions(state, seat)


def _target_legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
    return tuple(AIMED[AIMED_BY_STEP[state.step]].targets(ctx.config, state, seat))


def _bid_legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
    return phases.bid_actions(state, seat)


def _corner_legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
    return tuple(phases.corner_actions(state))


def _cultivate_legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
    frank = jos = False
    for play in state.plays:
        if play.seat == seat and not play.blocked:
            frank = frank or play.card == "FRANK"
            jos = jos or play.card == "JOS"
    return ctx.cultivate_menu(state.boards[seat], state.coins[seat], frank, jos)


def _fixed(*actions: str) -> Callable[[Context, KweekState, int], tuple[str, ...]]:
    def legal(ctx: Context, state: KweekState, seat: int) -> tuple[str, ...]:
        return actions

    return legal


# ---- transitions of the steps where one player acts -------------------------------------------
def _only(moves: dict[int, Move]) -> tuple[int, Move]:
    return next(iter(moves.items()))


def _apply_ria_choice(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    phases.apply_ria_choice(config, d, _only(moves)[1].kind == "ria_draw")


def _apply_ria_direction(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    number = _only(moves)[1].number
    assert number is not None  # every "ria:" direction action carries one
    phases.apply_ria_direction(config, d, number)


def _apply_target(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    seat, move = _only(moves)
    phases.apply_target(config, d, seat, move.text)


def _apply_corner(config: Config, d: Draft, moves: dict[int, Move]) -> None:
    number = _only(moves)[1].number
    assert number is not None  # every "corner:" action carries one
    phases.take_corner(config, d, number)


# ---- chance ------------------------------------------------------------------------------------
def _bag(state: KweekState) -> tuple[int, ...]:
    return state.bag


def _victim_coins(state: KweekState) -> tuple[int, ...]:
    assert state.rob_target is not None  # set whenever the step is rob_draw
    return state.coins[state.rob_target]


def _card(apply: Callable[[Config, Draft, str], None]) -> Callable[[Config, KweekState, Outcome], KweekState]:
    def on_draft(config: Config, state: KweekState, outcome: Outcome) -> KweekState:
        assert isinstance(outcome, str)  # checked against the stack before
        d = Draft(state)
        apply(config, d, outcome)
        return d.freeze()

    return on_draft


def _coin(apply: Callable[[Config, Draft, int], None]) -> Callable[[Config, KweekState, Outcome], KweekState]:
    def on_draft(config: Config, state: KweekState, outcome: Outcome) -> KweekState:
        assert isinstance(outcome, int)  # checked against the coin source before
        d = Draft(state)
        apply(config, d, outcome)
        return d.freeze()

    return on_draft


def _deal(config: Config, state: KweekState, outcome: Outcome) -> KweekState:
    assert isinstance(outcome, str)  # checked against the stack before
    return phases.deal_card(config, state, outcome)


def _refill(config: Config, state: KweekState, outcome: Outcome) -> KweekState:
    assert isinstance(outcome, int)  # checked against the bag before
    return phases.place_refill_coin(config, state, outcome)


_TARGET = Decision(_chooser, _target_legal, _apply_target)

STEPS: dict[Step, Decision | Chance | None] = {
    Step.REFILL: Chance(_bag, "the coin bag", _refill),
    Step.DEAL: Chance(None, "the stack", _deal),
    Step.RIA_DRAW: Chance(None, "the stack", _card(phases.apply_ria_draw)),
    Step.ROB_DRAW: Chance(_victim_coins, "the victim's coins", _coin(phases.apply_rob_draw)),
    Step.LUCIEN_DRAW: Chance(_bag, "the coin bag", _coin(phases.apply_lucien_draw)),
    Step.CHOOSE: Decision(_dealt, _choose_legal, phases.apply_choose),
    Step.WINDOW: Decision(_holders, _window_legal, phases.apply_window),
    Step.BID: Decision(_everyone, _bid_legal, phases.apply_bids),
    Step.CULTIVATE: Decision(_cultivators, _cultivate_legal, phases.apply_cultivate),
    Step.KEEP: Decision(_holders, _fixed("keep", "hand_in"), phases.apply_keep),
    Step.RIA_CHOICE: Decision(_chooser, _fixed("ria:draw", "ria:skip"), _apply_ria_choice),
    Step.RIA_DIRECTION: Decision(_chooser, _fixed("ria:left", "ria:right"), _apply_ria_direction),
    Step.KEUN: _TARGET,
    Step.GRIET: _TARGET,
    Step.ROB: _TARGET,
    Step.BERNARD: _TARGET,
    Step.CORNER: Decision(_chooser, _corner_legal, _apply_corner),
    Step.OVER: None,
}
