"""Card studies: what each card is worth, measured by a seat that never uses it.

For a game whose heuristic takes ``abstain=CARD`` (Eigen Kweek's characters), the
study plays a baseline cell where every seat plays the heuristic, and for each card
a cell where seat 0 abstains from that card and the others play as usual. Seat 0's
win share with the card (baseline) against without it (abstaining), with 95%
intervals, the difference and its p-value, says what the card is worth; comparing
the same seat keeps the seat effect out of the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gamebag.agents.registry import heuristic_parameters
from gamebag.core.errors import GamebagError
from gamebag.lab.cells import build_cells
from gamebag.lab.results import BalanceResult
from gamebag.lab.stats import Difference, share_difference
from gamebag.lab.study import CellRun, check_limits

ABSTAIN = "abstain"


@dataclass(frozen=True)
class CardRow:
    """One card: seat 0's share playing it (baseline) and abstaining from it."""

    card: str
    with_card: float
    with_card_ci: tuple[float, float]
    without_card: float
    without_card_ci: tuple[float, float]
    difference: Difference  # with - without: what the card is worth to the seat

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "with_card": self.with_card,
            "with_card_ci": list(self.with_card_ci),
            "without_card": self.without_card,
            "without_card_ci": list(self.without_card_ci),
            "worth": self.difference.to_json(),
        }


@dataclass
class CardStudy:
    """The rows of a card study and the balance study behind them."""

    rows: list[CardRow]
    study: BalanceResult

    def to_json(self) -> dict[str, Any]:
        return {**self.study.to_json(), "cards": [row.to_json() for row in self.rows]}


def study_cards(game: str) -> tuple[str, ...]:
    """The cards ``game``'s heuristic can abstain from, or a clear error."""
    for parameter in heuristic_parameters(game):
        if parameter.name == ABSTAIN:
            return parameter.values
    raise GamebagError(f"--cards needs a game whose heuristic takes abstain=CARD; {game} has no cards to study")


def card_study(
    game: str,
    players: int,
    games: int = 500,
    seed: int = 0,
    workers: int = 1,
    executor: str = "local",
    address: str | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_cell_done: Callable[[CellRun], None] | None = None,
) -> CardStudy:
    """Seat 0's win share with and without each card (``games`` per card and for the baseline)."""
    from gamebag.lab.api import run_cells

    check_limits(games, None, 1000)  # the same bounds as a balance study, before any cell is built
    cards = study_cards(game)
    cells, notices = build_cells(game, [players], ["heuristic"], (), options, seed)
    for card in cards:
        agents = [f"heuristic:{ABSTAIN}={card}"] + ["heuristic"] * (players - 1)
        more, _ = build_cells(game, [players], agents, (), options, seed)
        cells.append(replace(more[0], index=len(cells)))
    notices.append("seat 0 abstains from one card per cell; the first cell is the baseline (every seat plays all)")
    result = run_cells(
        game, cells, notices, games, None, seed, workers, executor, address, 1000, progress, on_cell_done
    )
    base = result.cells[0] if result.cells and result.cells[0].cell.index == 0 else None
    rows = []
    if base is not None:
        wins_base = base.win_share[0] * base.games
        for cell in result.cells[1:]:
            card = cells[cell.cell.index].agents[0].split("=", 1)[1]
            rows.append(
                CardRow(
                    card=card,
                    with_card=base.win_share[0],
                    with_card_ci=base.win_share_ci[0],
                    without_card=cell.win_share[0],
                    without_card_ci=cell.win_share_ci[0],
                    difference=share_difference(cell.win_share[0] * cell.games, cell.games, wins_base, base.games),
                )
            )
    return CardStudy(rows, result)
