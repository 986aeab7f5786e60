"""The kernels' view of a rules configuration and of a rules-engine position.

``kernel_tables`` turns a configured ``EigenKweek`` into the configuration row, the
action table (one row per action of ``all_actions()``, in its order, so an action's
index is the same in the kernels and in the rules engine) and the payment table (the
rules engine's cultivate menus, per plant card, kind and FRANK: the count, the least
value of a payment, then the actions, each with its packed coins; ``PAY_ROWS`` rows further down the same menus
cheapest first, by the heuristic's ``_cheapest`` key). ``row_from_state``
writes a rules-engine position into a kernel row, for the equality tests and for
search playouts that start from a rules-engine state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gamebag.fast.eigen_kweek import layout as L
from gamebag.games.eigen_kweek import EigenKweek, KweekState
from gamebag.games.eigen_kweek.actions import action_catalogue
from gamebag.games.eigen_kweek.components import CARDS, PLANT_COSTS
from gamebag.games.eigen_kweek.steps import Context

Ints = npt.NDArray[np.int64]
_KINDS = {name: code for code, name in enumerate(L.KIND_NAMES)}
_CARD = {card: code for code, card in enumerate(CARDS)}


def _cheap_key(text: str) -> tuple[int, int, str]:
    """The heuristic's ``_cheapest`` key of a payment action (least value, then most coins)."""
    coins = [int(c) for c in text.split(":")[2].split("+")]
    return (sum(coins), -len(coins), text)


def longest_cultivate_menu(row_lengths: list[int]) -> int:
    """The most actions a cultivate menu can list, from the payment rows' lengths (``PAY_*`` order):
    pass, then per plant card either a sow of its longer sow row or its harvest and a plough of its
    longer plough row, then harvest_all (every payment fitting: a bound, never short)."""
    per_card = [
        max(max(row_lengths[c * 2 : c * 2 + 2]), 1 + max(row_lengths[8 + c * 2 : 8 + c * 2 + 2]))
        for c in range(len(PLANT_COSTS))
    ]
    return 2 + sum(per_card)


def kernel_tables(game: Any) -> tuple[Ints, Ints, Ints]:
    """``(cfg, acts, pays)`` of a configured Eigen Kweek game."""
    if not isinstance(game, EigenKweek):
        raise TypeError(f"{getattr(game, 'game_id', game)!r} is not Eigen Kweek")
    config = game.config
    catalogue = action_catalogue(config)
    names = list(catalogue)
    if tuple(names) != tuple(game.all_actions()):
        raise RuntimeError("the action catalogue and all_actions() disagree")  # pragma: no cover - a guard
    index = {name: i for i, name in enumerate(names)}
    cfg = np.full(L.CONFIG_WIDTH, -1, np.int64)
    cfg[L.C_PLAYERS] = config.players
    for c, cost in enumerate(PLANT_COSTS):
        cfg[L.C_CAPACITY + c] = config.capacity[cost]
        cfg[L.C_PLOUGH + c] = config.plough_cost[cost]
    cfg[L.C_MAX_ROUNDS] = config.max_rounds
    cfg[L.C_OPEN_COINS] = int(config.open_coins)
    cfg[L.C_STEFAAN_FIRST] = int(config.stefaan_first)
    cfg[L.C_FLUPPE_SACKS] = int(config.fluppe_counts_sacks)
    for v in range(L.VALUES):
        cfg[L.C_COIN_COUNTS + v] = 0
    for value, count in zip(config.values, config.coin_counts, strict=True):
        cfg[L.C_COIN_COUNTS + value - 1] = count
    cfg[L.C_NUM_ACTIONS] = len(names)
    cfg[L.C_TRACK_KNOWLEDGE] = 1
    acts = np.zeros((len(names), L.ACTION_WIDTH), np.int64)
    payments = sorted((n for n in names if n.startswith(("sow:", "plough:"))), key=_cheap_key)
    cheap = {name: rank for rank, name in enumerate(payments)}
    for i, (name, move) in enumerate(catalogue.items()):
        row = acts[i]
        row[L.A_KIND] = _KINDS[move.kind]
        row[L.A_CARD] = _CARD[move.card] if move.card is not None else -1
        row[L.A_SEAT] = move.seat if move.seat is not None else -1
        row[L.A_COST] = PLANT_COSTS.index(move.cost) if move.cost is not None else -1
        row[L.A_NUMBER] = move.number if move.number is not None else 0
        if move.payment is not None:
            for value, count in zip(config.values, move.payment, strict=True):
                row[L.A_PAY + value - 1] = count
                row[L.A_PACKED] |= count << (8 * (value - 1))
        row[L.A_CHEAP] = cheap.get(name, -1)
        kind = move.kind
        if kind == "choose":
            cfg[L.C_A_CHOOSE + row[L.A_CARD]] = i
        elif kind in ("play", "block"):
            cfg[(L.C_A_PLAY if kind == "play" else L.C_A_BLOCK) + row[L.A_CARD]] = i
        elif kind == "take":
            cfg[L.C_A_TAKE + row[L.A_SEAT]] = i
        elif kind == "keun":
            cfg[L.C_A_KEUN + row[L.A_SEAT] * 4 + row[L.A_COST]] = i
        elif kind == "griet":
            cfg[L.C_A_GRIET + row[L.A_COST]] = i
        elif kind == "rob":
            cfg[L.C_A_ROB + row[L.A_SEAT] * 6 + row[L.A_NUMBER]] = i
        elif kind == "bernard":
            cfg[L.C_A_BERNARD + row[L.A_SEAT]] = i
        elif kind == "corner":
            cfg[L.C_A_CORNER + row[L.A_NUMBER]] = i
        elif kind == "harvest":
            cfg[L.C_A_HARVEST + row[L.A_COST]] = i
    for name, at in (
        ("pass", L.C_A_PASS), ("ria:draw", L.C_A_RIA_DRAW), ("ria:skip", L.C_A_RIA_SKIP),
        ("ria:left", L.C_A_RIA_LEFT), ("ria:right", L.C_A_RIA_RIGHT), ("bid:0", L.C_A_BID),
        ("harvest_all", L.C_A_HARVEST_ALL), ("keep", L.C_A_KEEP), ("hand_in", L.C_A_HAND_IN),
    ):  # fmt: skip
        cfg[at] = index[name]
    context = Context(config)
    rows = []
    for kind_code, kind in ((L.PAY_SOW, "sow"), (L.PAY_PLOUGH, "plough")):
        for c, cost in enumerate(PLANT_COSTS):
            for frank in (False, True):
                price = config.price(kind, cost, frank)
                found = [index[a] for _, a in context.payments[(kind, cost, price)]]
                rows.append((kind_code * 8 + c * 2 + int(frank), found))
    width = L.PAY_FIRST + L.PAY_STEP * max(len(found) for _, found in rows)
    longest = longest_cultivate_menu([len(found) for _, found in rows])
    if longest > L.MAX_LEGAL:
        raise ValueError(f"a cultivate menu may list {longest} actions here; the kernels hold {L.MAX_LEGAL}")
    pays = np.full((2 * L.PAY_ROWS, width), -1, np.int64)
    for row_index, listed in rows:
        # The least value of a payment: a player holding less can pay none of them.
        least = min(int((acts[a, L.A_PAY : L.A_PAY + 5] * np.arange(1, 6)).sum()) for a in listed)
        cheap_first = sorted(listed, key=lambda a: int(acts[a, L.A_CHEAP]))
        for at, order in ((row_index, listed), (L.PAY_ROWS + row_index, cheap_first)):
            pays[at, 0] = len(order)
            pays[at, 1] = least
            for i, a in enumerate(order):
                pays[at, L.PAY_FIRST + L.PAY_STEP * i] = a
                pays[at, L.PAY_FIRST + L.PAY_STEP * i + 1] = acts[a, L.A_PACKED]
    return cfg, acts, pays


def _target(card: str, target: int | str | None) -> tuple[int, int, int]:
    if target is None:
        return 0, 0, 0
    if isinstance(target, int):
        return 1, target, 0
    if card == "JULITA":
        return 2, _CARD[target], 0
    parts = target.split(":")
    if parts[0] == "keun":
        return 3, int(parts[1]), PLANT_COSTS.index(int(parts[2]))
    if parts[0] == "griet":
        return 3, PLANT_COSTS.index(int(parts[1])), 0
    if parts[0] == "rob":
        return 3, int(parts[1]), int(parts[2]) if len(parts) == 3 else 0
    return 3, int(parts[1]), 0  # bernard:SEAT


def row_from_state(game: EigenKweek, state: KweekState) -> npt.NDArray[np.int32]:
    """The kernel row of a rules-engine position (the fields ``RULES_WIDTH`` covers)."""
    config = game.config
    n = config.players
    s = np.zeros(L.WIDTH, np.int32)
    s[L.ROUND] = state.round_no
    s[L.PHASE] = L.PHASE_NAMES.index(str(state.phase))
    s[L.STEP] = L.STEP_NAMES.index(str(state.step))
    s[L.POT] = state.pot
    s[L.TOKENS : L.TOKENS + n] = state.tokens
    if state.bids is not None:
        s[L.HAS_BIDS] = 1
        s[L.BIDS : L.BIDS + n] = state.bids
    for p in range(n):
        s[L.BOARDS + 4 * p : L.BOARDS + 4 * p + 4] = state.boards[p]
        s[L.KEPT + p] = int(state.kept[p])
    slot = {value: value - 1 for value in config.values}
    for p in range(n):
        for value, count in zip(config.values, state.coins[p], strict=True):
            s[L.COINS + p * L.VALUES + slot[value]] = count
    for corner in range(L.CORNERS):
        for value, count in zip(config.values, state.corners[corner], strict=True):
            s[L.CORNER_COINS + corner * L.VALUES + slot[value]] = count
    for value, count, seen in zip(config.values, state.bag, state.bag_seen, strict=True):
        s[L.BAG + slot[value]] = count
        s[L.BAG_SEEN + slot[value]] = seen
    s[L.REFILL_NEXT] = state.refill_next
    s[L.REFILL_LEFT] = state.refill_left
    s[L.STACK] = sum(1 << _CARD[c] for c in state.stack)
    s[L.DEALT : L.DEALT + 8] = -1
    s[L.HELD : L.HELD + 4] = -1
    for p in range(n):
        for i, card in enumerate(state.dealt[p]):
            s[L.DEALT + 2 * p + i] = _CARD[card]
        held = state.held[p]
        s[L.HELD + p] = -1 if held is None else _CARD[held]
    s[L.NPLAYS] = len(state.plays)
    for i, play in enumerate(state.plays):
        b = L.PLAYS + i * L.PLAY_WIDTH
        tkind, t1, t2 = _target(play.card, play.target)
        s[b : b + L.PLAY_WIDTH] = (
            play.seat, _CARD[play.card], L.PHASE_NAMES.index(str(play.phase)), play.step, int(play.blocked),
            tkind, t1, t2, -1 if play.took is None else _CARD[play.took],
        )  # fmt: skip
    s[L.WINDOW_STEP] = state.window_step
    s[L.QLEN] = len(state.queue)
    for i, card in enumerate(state.queue):
        s[L.QUEUE + i] = _CARD[card]
    s[L.RIA_CARD] = -1 if state.ria_card is None else _CARD[state.ria_card]
    optional: tuple[tuple[int, int | None], ...] = (
        (L.RIA_SEAT, state.ria_seat), (L.CHOOSER, state.chooser), (L.ROB_TARGET, state.rob_target),
        (L.BERNARD_TARGET, state.bernard_target),
    )  # fmt: skip
    for at, maybe in optional:
        s[at] = -1 if maybe is None else maybe
    s[L.T_LUCIEN] = -1
    trade = state.trade
    if trade is not None:
        s[L.HAS_TRADE] = 1
        s[L.T_BIDS : L.T_BIDS + n] = trade.bids
        s[L.T_HANDS : L.T_HANDS + n] = trade.hands
        s[L.T_COUNTS : L.T_COUNTS + n] = trade.counts
        s[L.T_ORDER : L.T_ORDER + len(trade.order)] = trade.order
        s[L.T_ORDER_LEN] = len(trade.order)
        s[L.T_CHOSEN : L.T_CHOSEN + len(trade.chosen)] = trade.chosen
        s[L.T_CHOSEN_LEN] = len(trade.chosen)
        s[L.T_LUCIEN] = -1 if trade.lucien is None else trade.lucien
    for observer, seat, card in state.knowledge:
        s[L.KNOW + observer * 4 + seat] |= 1 << _CARD[card]
    for observer, card, where in state.stack_known:
        s[L.STACK_KNOWN + observer * L.PLACES + where + 2] |= 1 << _CARD[card]
    s[L.WINNERS] = sum(1 << p for p in state.winners)
    s[L.ENDED_BY] = {None: L.END_NONE, "four_sacks": L.END_FOUR_SACKS, "round_cap": L.END_ROUND_CAP}[state.ended_by]
    s[L.REC_CHOSE : L.REC_CHOSE + 4] = -1
    s[L.REC_KEPT : L.REC_KEPT + 4] = -1
    return s
