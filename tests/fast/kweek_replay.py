"""Replaying rules-engine Eigen Kweek games through the compiled kernel, step by step.

``replay`` plays one game on the rules engine (seats ``random``, ``heuristic`` or
``heuristic`` abstaining from cards) and applies every chance outcome and every joint
action to a kernel row as well. After every step it compares the full position
(every field of ``layout`` up to ``RULES_WIDTH``: everything but the text log and
notes), who acts, every acting seat's menu (in order), token and coin conservation,
and each heuristic seat's decision: the Python heuristic gets a generator answering
from the kernel's stream (``KernelRng``), so both must make the very same draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gamebag.agents.base import SeatView
from gamebag.agents.heuristics.eigen_kweek import EigenKweekHeuristic
from gamebag.core.protocol import NodeKind
from gamebag.core.rng import derive_rng, draw_index
from gamebag.fast.eigen_kweek import layout as L
from gamebag.fast.eigen_kweek.heuristic import heuristic_choice
from gamebag.fast.eigen_kweek.kernel import acting, apply_chance, apply_moves
from gamebag.fast.eigen_kweek.observe import OBSERVATION_SIZE, observe_row
from gamebag.fast.eigen_kweek.phases import new_game
from gamebag.fast.eigen_kweek.policies import menu, random_choice
from gamebag.fast.eigen_kweek.tables import kernel_tables, row_from_state
from gamebag.fast.rng import draw_below, game_key, run_key
from gamebag.games.eigen_kweek.components import CARDS, TOTAL_COINS, TOTAL_TOKENS


def _field_names() -> dict[int, str]:
    names: dict[int, str] = {}
    blocks = {
        "TOKENS": 4, "BIDS": 4, "BOARDS": 16, "COINS": 20, "CORNER_COINS": 20, "BAG": 5, "BAG_SEEN": 5,
        "DEALT": 8, "HELD": 4, "KEPT": 4, "T_BIDS": 4, "T_HANDS": 4, "T_COUNTS": 4, "T_ORDER": 4,
        "T_CHOSEN": 4, "KNOW": 16, "STACK_KNOWN": L.MAX_SEATS * L.PLACES, "QUEUE": 14,
        "PLAYS": L.MAX_PLAYS * L.PLAY_WIDTH,
    }  # fmt: skip
    for name, size in blocks.items():
        start = getattr(L, name)
        for i in range(size):
            names[start + i] = f"{name}[{i}]"
    for name in (
        "ROUND", "PHASE", "STEP", "POT", "HAS_BIDS", "REFILL_NEXT", "REFILL_LEFT", "STACK", "WINDOW_STEP",
        "RIA_CARD", "RIA_SEAT", "CHOOSER", "ROB_TARGET", "BERNARD_TARGET", "HAS_TRADE", "T_ORDER_LEN",
        "T_CHOSEN_LEN", "T_LUCIEN", "WINNERS", "ENDED_BY", "NPLAYS", "QLEN",
    ):  # fmt: skip
        names[getattr(L, name)] = name
    return names


FIELD_NAMES = _field_names()


class KernelRng:
    """A ``random.Random`` stand-in whose ``randrange`` answers from a kernel game's stream."""

    def __init__(self, key: np.uint64, counter: np.ndarray) -> None:
        self.key = key
        self.counter = counter

    def randrange(self, start: int, stop: int | None = None) -> int:
        low, width = (0, start) if stop is None else (start, stop - start)
        value = int(draw_below(self.key, self.counter[0], np.int64(width)))
        self.counter[0] += np.uint64(1)
        return low + value


def conserved(game: Any, s: np.ndarray) -> None:
    n = game.num_players
    tokens = int(s[L.POT]) + int(s[L.TOKENS : L.TOKENS + n].sum()) + int(s[L.BIDS : L.BIDS + n].sum())
    board = s[L.BOARDS : L.BOARDS + 4 * n]
    tokens += int(board[board > 0].sum())
    assert tokens == TOTAL_TOKENS, f"{tokens} weed tokens"
    held = s[L.COINS : L.COINS + 5 * n].reshape(n, 5).sum(0)
    coins = held + s[L.CORNER_COINS : L.CORNER_COINS + 20].reshape(4, 5).sum(0) + s[L.BAG : L.BAG + 5]
    want = [game.options[f"coins_worth_{v}"] for v in range(1, 6)]
    assert coins.tolist() == want and sum(want) == TOTAL_COINS, f"coins {coins.tolist()} != {want}"


def compare(game: Any, state: Any, s: np.ndarray, where: str) -> None:
    expected = row_from_state(game, state)[: L.RULES_WIDTH]
    got = s[: L.RULES_WIDTH]
    diff = np.flatnonzero(expected != got)
    if diff.size:
        shown = ", ".join(f"{FIELD_NAMES.get(int(i), i)}: rules {expected[i]} kernel {got[i]}" for i in diff[:12])
        raise AssertionError(f"{where}: {shown}\nstate: {state}")


def replay(
    game: Any, agents: Sequence[str], seed: int | str, number: int, observe: bool = True, held: set[Any] | None = None
) -> dict[str, int]:
    """Play game ``number`` on both engines, comparing after every step; returns what was checked.

    ``observe``: compare every seat's observation tensor at every decision too; ``held``
    collects ``(seat, card)`` for every card a seat held unplayed at some decision.
    """
    cfg, acts, pays = kernel_tables(game)
    names = list(game.all_actions())
    index = {name: i for i, name in enumerate(names)}
    n = game.num_players
    heuristics: dict[int, EigenKweekHeuristic] = {}
    masks = np.zeros(n, np.int64)
    for seat, spec in enumerate(agents):
        if spec.startswith("heuristic"):
            abstain = frozenset(spec.split("=", 1)[1].split("+")) if "=" in spec else frozenset()
            heuristics[seat] = EigenKweekHeuristic(abstain)
            masks[seat] = sum(1 << CARDS.index(card) for card in abstain)
    rng = derive_rng(seed, "kweek-replay", number)
    key = np.uint64(game_key(run_key(seed), np.int64(number)))
    counter = np.zeros(1, np.uint64)
    s = np.zeros(L.WIDTH, np.int32)
    w = np.zeros(L.SCRATCH, np.int64)
    new_game(s, cfg)
    state = game.initial_state()
    compare(game, state, s, "start")
    checked = {"steps": 0, "decisions": 0, "heuristic": 0, "random": 0, "observations": 0}
    tensor = np.zeros(OBSERVATION_SIZE, np.float32)
    while game.node_kind(state) is not NodeKind.TERMINAL:
        where = f"game {number}, round {state.round_no}, {state.phase}/{state.step}"
        if game.node_kind(state) is NodeKind.CHANCE:
            outcome = game.sample_chance(state, rng)
            state = game.apply_chance(state, outcome)
            code = CARDS.index(outcome) if isinstance(outcome, str) else outcome - 1
            apply_chance(s, cfg, code, w)
        else:
            seats = game.acting_players(state)
            if held is not None:
                held.update((seat, card) for seat, card in enumerate(state.held) if card is not None)
            if observe:
                for seat in range(n):
                    observe_row(s, cfg, seat, tensor)
                    want_tensor = np.array(game.observation_tensor(state, seat), np.float32)
                    bad = np.flatnonzero(want_tensor != tensor)
                    assert bad.size == 0, f"{where}, seat {seat}: observation differs at {bad.tolist()}"
                    checked["observations"] += 1
            assert [p for p in range(n) if acting(s, cfg, p)] == list(seats), where
            moves = {}
            joint = np.full(L.MAX_SEATS, -1, np.int64)
            for seat in seats:
                legal = list(game.legal_actions(state, seat))
                count = menu(s, cfg, acts, pays, seat, w, L.W_LEGAL)
                assert [names[a] for a in w[L.W_LEGAL : L.W_LEGAL + count]] == legal, f"{where}, seat {seat}"
                if seat in heuristics:
                    before = counter.copy()
                    want = heuristics[seat].act(SeatView(game, state, seat), KernelRng(key, before))
                    got = heuristic_choice(s, cfg, acts, pays, seat, masks[seat], key, counter, w)
                    assert names[got] == want, f"{where}, seat {seat}: kernel {names[got]}, rules {want}"
                    assert before[0] == counter[0], f"{where}, seat {seat}: draws differ"
                    checked["heuristic"] += 1
                else:
                    want = legal[draw_index(rng, len(legal))]
                    # The compiled random policy reads its commonest menus off without listing them:
                    # it must still pick as one uniform draw over the menu in order would.
                    drawn = counter.copy()
                    pick = random_choice(s, cfg, acts, pays, seat, key, drawn, w)
                    uniform = legal[int(draw_below(key, counter[0], np.int64(len(legal))))]
                    assert names[pick] == uniform, f"{where}, seat {seat}: random {names[pick]}, uniform {uniform}"
                    assert drawn[0] == counter[0] + 1, f"{where}, seat {seat}: the random policy made other draws"
                    checked["random"] += 1
                moves[seat] = want
                joint[seat] = index[want]
            state = game.apply(state, moves)
            apply_moves(s, cfg, acts, joint, w)
            checked["decisions"] += 1
        checked["steps"] += 1
        compare(game, state, s, where)
        conserved(game, s)
    return checked
