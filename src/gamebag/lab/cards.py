"""Card studies: what each card is worth, measured by a seat that never uses it.

For a game whose heuristic takes ``abstain=CARD`` (Eigen Kweek's characters), the
study plays a baseline cell where every seat plays the study's agent (``heuristic``, or
``learned``, which abstains by the same rule), and for each card a cell where seat 0
abstains from that card and the others play as usual. Seat 0's
win share with the card (baseline) against without it (abstaining), with 95%
intervals, the difference and its p-value, says what the card is worth; comparing
the same seat keeps the seat effect out of the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import gamebag
from gamebag.agents.registry import abstention_for, heuristic_parameters
from gamebag.core.errors import GamebagError
from gamebag.lab.cells import Cell, build_cells
from gamebag.lab.results import BalanceResult
from gamebag.lab.stats import Difference, share_difference
from gamebag.lab.study import CellRun, check_limits
from gamebag.lab.translation import N_, _, or_list, say

ABSTAIN = "abstain"
# The agents a card study seats: each takes ``abstain=CARD`` where the game has cards.
STUDY_AGENTS = ("heuristic", "learned")


@dataclass(frozen=True)
class CardRow:
    """One card: seat 0's share playing it (baseline) and abstaining from it."""

    card: str
    players: int
    with_card: float
    with_card_ci: tuple[float, float]
    without_card: float
    without_card_ci: tuple[float, float]
    difference: Difference  # with - without: what the card is worth to the seat

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "players": self.players,
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


def study_cards(game: str, agent: str = "heuristic") -> tuple[str, ...]:
    """The cards ``game``'s ``agent`` (one of ``STUDY_AGENTS``) can abstain from, or a clear error."""
    if agent not in STUDY_AGENTS:
        raise GamebagError(
            _(
                "a card study seats {choices} (agents that take abstain=CARD), not {given}",
                choices=or_list(STUDY_AGENTS),
                given=repr(agent),
            )
        )
    for parameter in heuristic_parameters(game):
        if parameter.name == ABSTAIN:
            if agent != "heuristic" and abstention_for(gamebag.entry(game).game_class) is None:
                break
            return parameter.values
    raise GamebagError(
        _("--cards needs a game whose {agent} takes abstain=CARD; {game} has no cards to study", agent=agent, game=game)
    )


def card_study(
    game: str,
    players: int | Sequence[int],
    games: int = 500,
    seed: int = 0,
    workers: int = 1,
    executor: str = "local",
    address: str | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_cell_done: Callable[[CellRun], None] | None = None,
    agent: str = "heuristic",
) -> CardStudy:
    """Seat 0's win share with and without each card (``games`` per card and for the baseline),
    for one player count or several (then one row per card and count, all played in one run);
    every seat plays ``agent`` (``STUDY_AGENTS``), seat 0 as ``agent:abstain=CARD`` in card cells."""
    from gamebag.lab.api import run_cells

    check_limits(games, None, 1000)  # the same bounds as a balance study, before any cell is built
    cards = study_cards(game, agent)
    counts = [players] if isinstance(players, int) else list(dict.fromkeys(players))
    cells: list[Cell] = []
    baselines: dict[int, int] = {}
    for count in counts:
        first, _notices = build_cells(game, [count], [agent], (), options, seed)
        baselines[count] = len(cells)
        cells.append(replace(first[0], index=len(cells)))
        for card in cards:
            agents = [f"{agent}:{ABSTAIN}={card}"] + [agent] * (count - 1)
            more, _notices = build_cells(game, [count], agents, (), options, seed)
            cells.append(replace(more[0], index=len(cells)))
    notices: list[str] = [
        say(
            N_(
                "every seat plays {agent}; seat 0 abstains from one card per cell; the first cell of each "
                "player count is its baseline (every seat plays all)"
            ),
            agent=agent,
        )
    ]
    result = run_cells(
        game, cells, notices, games, None, seed, workers, executor, address, 1000, progress, on_cell_done
    )
    by_index = {cell.cell.index: cell for cell in result.cells}
    rows = []
    for cell in result.cells:
        count = cell.cell.players
        base = by_index.get(baselines[count])
        if base is None or cell is base:
            continue
        wins_base = base.win_share[0] * base.games
        rows.append(
            CardRow(
                card=cells[cell.cell.index].agents[0].split("=", 1)[1],
                players=count,
                with_card=base.win_share[0],
                with_card_ci=base.win_share_ci[0],
                without_card=cell.win_share[0],
                without_card_ci=cell.win_share_ci[0],
                difference=share_difference(cell.win_share[0] * cell.games, cell.games, wins_base, base.games),
            )
        )
    return CardStudy(rows, result)
