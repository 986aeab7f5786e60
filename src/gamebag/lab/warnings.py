"""Warnings a designer needs before trusting a study's numbers.

* random agents: they measure luck, not the game;
* capped games: a game stopped by a round cap has no real winner;
* a cell whose games last far longer or shorter than the default options' (often
  the bots misreading a variant, not the variant itself);
* degenerate runs: bots that choose the same action at nearly every simultaneous
  decision (then ties and shared fates come from the bots' symmetry).

For cells played on the compiled engine the lockstep rate is measured on a short
probe of the same configuration played by the rules engine.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamebag.agents.registry import agents_for
from gamebag.lab.cells import Cell
from gamebag.lab.play import RULES, Block, play_block
from gamebag.lab.results import CellResult
from gamebag.lab.study import CellRun
from gamebag.lab.translation import N_, Choices, Figure, say

ALIKE_WARNING = 0.9  # share of simultaneous decisions with every seat choosing the same
LENGTH_RATIO = 2.0  # a mean length over twice, or under half, the default options'
CAP_WARNING = 0.0  # any capped game is worth a warning
PROBE_GAMES = 10
REFERENCE_GAMES = 200


def probe_alike(cell: Cell, max_rounds: int) -> float | None:
    """The lockstep rate of ``cell``'s agents over a few rules-engine games (None: no simultaneous moves)."""
    block = play_block(cell, 0, PROBE_GAMES, RULES, max_rounds)
    joint = int(block.joint.sum())
    return float(block.alike.sum() / joint) if joint else None


def reference_length(cell: Cell, max_rounds: int, games: int) -> float:
    """Mean length of ``games`` games of ``cell``'s players and agents under the default options."""
    default = Cell(cell.index, cell.game, cell.players, {}, cell.agents, cell.seed)
    block: Block = play_block(default, 0, games, RULES, max_rounds)
    return float(np.mean(block.length))


def study_warnings(
    runs: list[CellRun],
    results: list[CellResult],
    max_rounds: int,
    reference: Callable[[Cell], float] | None = None,
) -> list[str]:
    """Every warning for the cells of a study (``reference`` gives a default-options mean length)."""
    out: list[str] = []
    random_cells = [r.cell for r in results if any(a.split(":")[0] == "random" for a in r.cell.agents)]
    if random_cells:
        out.append(
            say(
                N_("random agents in {cells}: random play measures luck, not the game's balance; {advice}"),
                cells=_few([c.label for c in random_cells]),
                advice=_stronger_advice(random_cells[0]),
            )
        )
    alike_cells = [
        r.cell for r in results if not r.cell.population and r.cell.players > 1 and len(set(r.cell.agents)) == 1
    ]
    if alike_cells:
        agents = ", ".join(sorted({cell.agents[0] for cell in alike_cells}))
        out.append(
            say(
                N_(
                    "every seat plays the same agent ({agents}) in {alike} of {cells} cell(s): seat shares then "
                    "measure these bots as much as the game; mix agents per game with --population (e.g. {example})"
                ),
                agents=agents,
                alike=len(alike_cells),
                cells=len(results),
                example=_population_example(alike_cells[0]),
            )
        )
    for result in results:
        capped = sum(count for reason, count in result.ended_by.items() if "cap" in reason)
        if capped > CAP_WARNING:
            out.append(
                say(
                    N_(
                        "{cell}: {capped} of {games} games hit a round cap and have no real winner "
                        "(--max-rounds {rounds}); the bots may be stuck"
                    ),
                    cell=result.cell.label,
                    capped=Figure(capped),
                    games=Figure(result.games),
                    rounds=max_rounds,
                )
            )
        if result.alike_rate is not None and result.alike_rate >= ALIKE_WARNING:
            out.append(
                say(
                    N_(
                        "{cell}: the bots chose the same action at {rate} of simultaneous decisions (degenerate "
                        "lockstep play); ties and shared losses then come from the bots' symmetry"
                    ),
                    cell=result.cell.label,
                    rate=_Percent(result.alike_rate),
                )
            )
    defaults: dict[tuple[int, tuple[str, ...]], CellResult] = {}
    for result in results:
        if result.cell.uses_defaults():
            defaults.setdefault((result.cell.players, result.cell.agents), result)
    for result in results:
        if result.cell.uses_defaults() or result.games == 0:
            continue
        base = defaults.get((result.cell.players, result.cell.agents))
        mean = base.length.mean if base is not None else (reference(result.cell) if reference else None)
        if mean is None or mean <= 0:
            continue
        ratio = result.length.mean / mean
        if ratio > LENGTH_RATIO or ratio < 1 / LENGTH_RATIO:
            out.append(
                say(
                    N_(
                        "{cell}: games last {mean} rounds on average against {default} with the default options "
                        "({ratio}x); check that the bots suit this variant"
                    ),
                    cell=result.cell.label,
                    mean=Figure(result.length.mean, ".1f"),
                    default=Figure(mean, ".1f"),
                    ratio=Figure(ratio, ".1f"),
                )
            )
    return out


class _Percent(Figure):
    """A share written as the reader writes a percentage (85% / 85 %)."""

    def __str__(self) -> str:
        from gamebag.core.i18n import percent

        return percent(self.value)


def _few(labels: list[str]) -> str:
    if len(labels) <= 3:
        return ", ".join(labels)
    return say(N_("{cells} and {more} more"), cells=", ".join(labels[:3]), more=len(labels) - 3)


# Agents worth naming in advice, strongest first: the advice names only those that play the game
# (a plugin game without a heuristic is not told to use one).
_ADVISED = ("heuristic", "learned", "ismcts")


def _playing(cell: Cell) -> list[str]:
    playable = set(agents_for(cell.make_game()))
    return [name for name in _ADVISED if name in playable]


def _stronger_advice(cell: Cell) -> str:
    playing = _playing(cell)
    if "heuristic" in playing:
        return say(N_("use heuristic or an optimal agent"))
    if playing:
        return say(N_("use {agents}"), agents=Choices(playing))
    return say(N_("name a stronger agent with --agents"))


def _population_example(cell: Cell) -> str:
    return ",".join([*_playing(cell), "random"][:2])
