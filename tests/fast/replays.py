"""The numba engines' adapters to the equality harness (``gamebag.equality``), and seat choosers.

Each adapter drives one engine game through a rules-engine game: the kernel's own
functions apply each decision and chance outcome, ``expected`` is the kernel row the rules
state must equal, and the views and conservation checks are the kernel's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from eel_helpers import check_tokens, expected_list

from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.rng import Rng
from gamebag.equality import Chooser, EngineReplay
from gamebag.fast import dragon as fast_dragon
from gamebag.fast import pig as fast_pig
from gamebag.fast.eel import batch, kernel, layout
from gamebag.fast.eel.engine import kernel_config
from gamebag.games.eel_family.rules import EelFamilyGame

AnyGame = Game[Any, Any, Any]


def agent_chooser(game: AnyGame, name: str) -> Chooser:
    """A seeded agent as a chooser (it draws from the replay's generator)."""
    agent = make_agent(name, game)
    return lambda state, seat, legal, rng: agent.act(SeatView(game, state, seat, legal), rng)


def seatings_of(game: AnyGame, seatings: Sequence[Sequence[str]]) -> list[list[Chooser]]:
    """Choosers for each seating of agent names."""
    return [[agent_chooser(game, name) for name in seating] for seating in seatings]


def random_counts(game: EelFamilyGame) -> list[list[Chooser]]:
    """One seating of uniformly random grab counts (0 .. max_grab), as the ``random`` agent plays."""

    def choose(state: Any, seat: int, legal: Sequence[int], rng: Rng) -> int:
        return rng.randrange(game.max_grab + 1)

    return [[choose] * game.num_players]


def eel_field_names() -> list[str]:
    names = [str(i) for i in range(layout.WIDTH)]
    for name, offset in layout.SEAT_BLOCKS.items():
        for seat in range(layout.MAX_SEATS):
            names[offset + seat] = f"{name}[{seat}]"
    for name, offset in layout.FIELDS.items():
        names[offset] = name
    return names


class EelDraws:
    """What the Eel adapters share: a grab's counts wait for its draw (the kernels resolve both at once)."""

    def __init__(self, game: EelFamilyGame) -> None:
        self.game = game
        self.counts = np.full(layout.MAX_SEATS, -1, np.int64)
        self.eels = np.zeros(layout.MAX_SEATS, np.int64)
        self.snakes = np.zeros(layout.MAX_SEATS, np.int64)

    def take(self, moves: Mapping[int, Any]) -> None:
        self.counts[:] = -1
        self.eels[:] = 0
        self.snakes[:] = 0
        for seat, count in moves.items():
            self.counts[seat] = count

    def drawn(self, outcome: Sequence[str]) -> None:
        for seat, tokens in enumerate(outcome):
            self.snakes[seat] = tokens.count("S")
            self.eels[seat] = len(tokens) - self.snakes[seat]

    def comparable(self, state: Any) -> bool:
        """The kernels hold no pending grab: a state waiting for its draw has no row."""
        return self.game.node_kind(state) is not NodeKind.CHANCE


class EelKernelReplay(EngineReplay):
    """The numba Eel kernel: ``draw_sizes`` and ``resolve`` per grab; observations; tokens conserved."""

    def __init__(self, game: EelFamilyGame) -> None:
        self.game = game
        self.cfg = kernel_config(game)
        self.field_names = eel_field_names()
        self.draws = EelDraws(game)
        self.board = np.zeros(layout.WIDTH, np.int32)
        self.sizes = np.zeros(layout.MAX_SEATS, np.int64)
        self.observed = np.zeros((1, game.num_players, batch.OBSERVATION_SIZE), np.float32)
        self.pending: list[str] = []

    def reset(self) -> None:
        kernel.new_game(self.board, self.cfg)

    def _resolve(self) -> None:
        d, n = self.draws, self.game.num_players
        kernel.draw_sizes(self.board, self.cfg, d.counts, self.sizes)
        drawn = d.eels[:n] + d.snakes[:n]
        if not np.array_equal(self.sizes[:n], drawn):
            self.pending.append(f"draw sizes: rules {drawn.tolist()}, kernel {self.sizes[:n].tolist()}")
        kernel.resolve(self.board, self.cfg, d.counts, d.eels, d.snakes)

    def decide(self, before: Any, moves: Mapping[int, Any], after: Any) -> None:
        self.draws.take(moves)
        if self.draws.comparable(after):  # nothing to draw: every seat exited
            self._resolve()

    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        self.draws.drawn(outcome)
        self._resolve()

    def row(self) -> np.ndarray:
        return self.board

    def expected(self, state: Any) -> list[int]:
        return expected_list(self.game, state)

    def comparable(self, state: Any) -> bool:
        return self.draws.comparable(state)

    def conservation(self) -> str | None:
        try:
            check_tokens(self.board, self.cfg)
        except AssertionError:
            return f"tokens not conserved in {self.board.tolist()}"
        return None

    def views(self, state: Any) -> list[str]:
        problems, self.pending = self.pending, []
        if state.over:
            return problems
        batch.observe(self.board[None, :], self.cfg, self.observed)
        game = self.game
        # Every seat's tensor in one comparison (this runs after every step); the seats that differ are named.
        wanted = np.array([game.observation_tensor(state, seat) for seat in range(game.num_players)], np.float32)
        if not np.array_equal(wanted, self.observed[0]):
            problems.extend(
                f"observation of seat {seat} differs"
                for seat in range(game.num_players)
                if not np.array_equal(wanted[seat], self.observed[0, seat])
            )
        return problems


class PigKernelReplay(EngineReplay):
    """The numba Pig kernel: ``apply_action`` and ``apply_roll`` on one board row."""

    field_names = fast_pig.FIELD_NAMES

    def __init__(self, game: AnyGame, keep_rows: bool = False) -> None:
        self.game = game
        self.goal = fast_pig.rules_of(game).goal
        self.board = np.zeros((1, fast_pig.FIELDS), dtype=np.int32)
        self.keep_rows = keep_rows
        self.rows: list[list[int]] = []  # with keep_rows: the rules rows of every state met

    def reset(self) -> None:
        fast_pig.reset_row(self.board, 0)

    def decide(self, before: Any, moves: Mapping[int, Any], after: Any) -> None:
        fast_pig.apply_action(self.board, 0, self.game.action_index(moves[before.seat]))

    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        fast_pig.apply_roll(self.board, 0, outcome, self.goal)

    def row(self) -> np.ndarray:
        return self.board[0]

    def expected(self, state: Any) -> list[int]:
        row = fast_pig.board_row(state)
        if self.keep_rows:
            self.rows.append(row)
        return row

    def conservation(self) -> str | None:
        return pig_conservation(self.board[0].tolist(), self.goal)

    def finish(self, state: Any) -> list[str]:
        got = fast_pig.round_number(self.board, 0)
        return [] if got == self.game.round_number(state) else [f"round {got}, rules {self.game.round_number(state)}"]


def pig_conservation(row: list[int], goal: int) -> str | None:
    """Points are never negative, and only a finished game's winner holds the goal."""
    scores = row[fast_pig.SCORE0 : fast_pig.SCORE1 + 1]
    if min(scores) < 0 or row[fast_pig.TOTAL] < 0:
        return f"negative points in {row}"
    reached = [seat for seat in range(2) if scores[seat] >= goal]
    if reached != ([row[fast_pig.WINNER]] if row[fast_pig.PHASE] == fast_pig.OVER else []):
        return f"the goal is held by {reached} in {row}"
    return None


def dice_counts(faces: tuple[int, ...]) -> list[int]:
    """A Catch A Dragon roll as six face counts."""
    return [faces.count(face) for face in range(1, 7)]


def dragon_conservation(row: list[int], dice: int, players: int) -> str | None:
    """Every die of a turn is held or just rolled while the seat collects, never more than the turn's dice
    anywhere, and banked points are never negative."""
    held = sum(row[fast_dragon.COLLECTED : fast_dragon.COLLECTED + 6])
    shown = sum(row[fast_dragon.ROLLED : fast_dragon.ROLLED + 6])
    collecting = row[fast_dragon.PHASE] == fast_dragon.COLLECTING
    if max(held, shown) > dice or (collecting and held + shown != dice):
        return f"{held} dice held and {shown} rolled of {dice} in {row}"
    if min(row[fast_dragon.SCORES : fast_dragon.SCORES + players]) < 0:
        return f"negative scores in {row}"
    return None


class DragonKernelReplay(EngineReplay):
    """The numba Catch A Dragon kernel: ``apply_action`` and ``apply_roll`` on one board row."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.dice = fast_dragon.rules_of(game).dice
        self.rules = fast_dragon.rules_arrays(fast_dragon.rules_of(game))
        self.board = np.zeros((1, fast_dragon.FIELDS), dtype=np.int32)

    def reset(self) -> None:
        fast_dragon.reset_row(self.board, 0)

    def decide(self, before: Any, moves: Mapping[int, Any], after: Any) -> None:
        fast_dragon.apply_action(self.board, 0, self.game.action_index(moves[before.seat]), self.rules)

    def chance(self, before: Any, outcome: Any, after: Any) -> None:
        fast_dragon.apply_roll(self.board, 0, np.array(dice_counts(outcome), dtype=np.int8), self.rules)

    def row(self) -> np.ndarray:
        return self.board[0]

    def expected(self, state: Any) -> list[int]:
        return fast_dragon.board_row(state)

    def conservation(self) -> str | None:
        return dragon_conservation(self.board[0].tolist(), self.dice, self.game.num_players)
