"""Game-quality metrics of one configuration: drama, decisions, skill and interaction.

After Ludii's game metrics, Browne's aesthetic criteria and Duersch, Lambrecht and Oechssler
(2020) (docs/designers.md defines each with its source):

- from traced games (the cell's own agents, played on the rules engine, which sees every round):
  ``lead_changes`` (times the sole leader changes, at round ends, per game), ``comeback_rate``
  (games where the sole leader at half-length does not win), ``decisiveness`` (the winner's
  margin over the runner-up as a share of the winner's score), ``forced_share`` (decisions with
  one legal choice) and ``decisions_per_game``. The leader holds the best score in the game's
  direction (``Game.score_sign``: the lowest where the lowest score wins), and there the margin
  is a share of the runner-up's score (``gamebag.core.results.relative_margin``);
- from a ladder of agents playing each other (random < heuristic < learned < optimal, whichever the
  game has): ``skill_spread`` (the spread of their ratings: a game of pure luck has none) and
  ``upset_rate`` (how often the weaker of two ladder agents finishes ahead);
- ``interaction``: how often the best decision changes when only the opponents' position counts,
  measured exactly where two exact solvers exist (``optimal-win`` against ``optimal-score``:
  the share of ``optimal-win``'s decisions that the score-maximiser, blind to the opponents,
  would make differently). Other games report it as not measured.
Every figure carries a 95% interval (``Estimate``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from gamebag.agents.base import SeatView
from gamebag.agents.registry import make_agent
from gamebag.core.errors import GamebagError, UnknownAgentError
from gamebag.core.i18n import number
from gamebag.core.protocol import Game, NodeKind
from gamebag.core.results import relative_margin, sole_leader
from gamebag.core.rng import derive_rng
from gamebag.lab.stats import Estimate
from gamebag.lab.translation import N_, _, say
from gamebag.sim.stats import Z95, wilson_interval
from gamebag.sim.tournament import TournamentSpec, run_tournament

DEFAULT_TRACE_GAMES = 300
MAX_TRACE_GAMES = 20_000
DEFAULT_LADDER_GAMES = 100
MAX_LADDER_GAMES = 10_000
MAX_STEPS = 200_000
# The ladder, weakest first; agents a configuration cannot seat are left out.
LADDER = ("random", "heuristic", "learned", "optimal-win")
EXACT_PAIR = ("optimal-win", "optimal-score")


@dataclass
class Quality:
    """The quality metrics of one configuration (see the module docstring)."""

    traced_games: int
    lead_changes: Estimate
    comeback_rate: Estimate
    decisiveness: Estimate
    forced_share: Estimate
    decisions_per_game: Estimate
    skill_spread: Estimate | None = None
    upset_rate: Estimate | None = None
    ladder: tuple[str, ...] = ()
    interaction: Estimate | None = None
    interaction_exact: bool = False
    notes: list[str] = field(default_factory=list)

    def estimates(self) -> dict[str, Estimate]:
        named = {
            "lead_changes": self.lead_changes,
            "comeback_rate": self.comeback_rate,
            "decisiveness": self.decisiveness,
            "forced_share": self.forced_share,
            "decisions_per_game": self.decisions_per_game,
            "skill_spread": self.skill_spread,
            "upset_rate": self.upset_rate,
            "interaction": self.interaction,
        }
        return {name: e for name, e in named.items() if e is not None}

    def to_json(self) -> dict[str, Any]:
        return {
            "traced_games": self.traced_games,
            **{name: e.to_json() for name, e in self.estimates().items()},
            "ladder": list(self.ladder),
            "interaction_exact": self.interaction_exact,
            "notes": self.notes,
        }


QUALITY_METRICS = (
    "lead_changes",
    "comeback_rate",
    "decisiveness",
    "forced_share",
    "decisions_per_game",
    "skill_spread",
    "upset_rate",
    "interaction",
)


def _mean(values: Sequence[float]) -> Estimate:
    array = np.asarray(values, dtype=np.float64)
    if len(array) == 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean = float(array.mean())
    half = Z95 * float(array.std(ddof=1)) / math.sqrt(len(array)) if len(array) > 1 else math.inf
    return Estimate(mean, mean - half, mean + half)


def _share(hits: float, total: int) -> Estimate:
    low, high = wilson_interval(hits, total)
    return Estimate(hits / total if total else math.nan, low, high)


def _clustered_share(hits: Sequence[float], totals: Sequence[float]) -> Estimate:
    """The share sum(hits) / sum(totals) of events counted game by game, with an interval that
    treats each game, not each event, as one draw.

    Decisions of one game are not independent (one position leads to the next), so a binomial
    interval over decisions is too narrow; this is the ratio estimator's delta-method (cluster
    robust) interval over games.
    """
    h = np.asarray(hits, dtype=np.float64)
    c = np.asarray(totals, dtype=np.float64)
    total = float(c.sum())
    if total == 0:
        return Estimate(math.nan, math.nan, math.nan)
    share = float(h.sum()) / total
    n = len(c)
    if n < 2:
        return Estimate(share, 0.0, 1.0)
    residuals = h - share * c
    half = Z95 * math.sqrt(n / (n - 1) * float((residuals**2).sum())) / total
    return Estimate(share, max(0.0, share - half), min(1.0, share + half))


@dataclass
class _Trace:
    round_scores: list[tuple[float, ...]]
    winners: tuple[int, ...]
    final: tuple[float, ...]
    decisions: int
    forced: int
    disagreements: int
    compared: int
    score_sign: int = 1  # the game's direction: -1 where the lowest score wins (leaders, margins)


def trace_game(game: Game[Any, Any, Any], agents: Sequence[Any], rng: Any, second_opinion: Any | None = None) -> _Trace:
    """Play one game on the rules engine, noting the scores at every round end and each decision."""
    state = game.initial_state()
    rounds: list[tuple[float, ...]] = []
    current = game.round_number(state)
    decisions = forced = disagreements = compared = 0
    for _step in range(MAX_STEPS):
        kind = game.node_kind(state)
        if kind is NodeKind.TERMINAL:
            break
        if kind is NodeKind.CHANCE:
            state = game.advance_chance(state, rng)
        else:
            legal = game.legal_actions_by_seat(state)
            moves = {}
            for seat, choices in legal.items():
                view = SeatView(game, state, seat, choices)
                moves[seat] = agents[seat].act(view, rng)
                decisions += 1
                forced += len(choices) == 1
                if second_opinion is not None and len(choices) > 1:
                    compared += 1
                    disagreements += second_opinion.act(view, rng) != moves[seat]
            state = game.apply_chosen(state, moves, legal)
        now = game.round_number(state)
        if now != current:
            rounds.append(tuple(game.scores(state)))
            current = now
    else:
        raise GamebagError(
            _("{game} did not end within {steps} steps while tracing", game=game.game_id, steps=number(MAX_STEPS))
        )
    final = tuple(game.scores(state))
    if not rounds or rounds[-1] != final:
        rounds.append(final)
    return _Trace(
        rounds, tuple(game.winners(state)), final, decisions, forced, disagreements, compared, game.score_sign()
    )


def _agents(game: Game[Any, Any, Any], specs: Sequence[str]) -> list[Any]:
    return [make_agent(spec, game) for spec in specs]


def _seatable(game: Game[Any, Any, Any], spec: str) -> bool:
    try:
        make_agent(spec, game)
    except UnknownAgentError:
        return False
    return True


def check_quality_limits(trace_games: int, ladder_games: int = DEFAULT_LADDER_GAMES) -> None:
    if not 1 <= trace_games <= MAX_TRACE_GAMES:
        raise GamebagError(
            _("--metrics-games must be from 1 to {most}, not {given}", most=number(MAX_TRACE_GAMES), given=trace_games)
        )
    if not 1 <= ladder_games <= MAX_LADDER_GAMES:
        raise GamebagError(
            _("ladder games must be from 1 to {most}, not {given}", most=number(MAX_LADDER_GAMES), given=ladder_games)
        )


def measure_quality(
    game_id: str,
    players: int,
    options: dict[str, Any],
    agents: Sequence[str],
    seed: int,
    trace_games: int = DEFAULT_TRACE_GAMES,
    ladder_games: int = DEFAULT_LADDER_GAMES,
    skill: bool = True,
) -> Quality:
    """The quality metrics of ``game_id`` with ``players`` and ``options`` (``agents`` seat the traced games)."""
    import gamebag

    check_quality_limits(trace_games, ladder_games)
    game = gamebag.make(game_id, players, **options)
    seats = _agents(game, agents)
    exact = all(_seatable(game, spec) for spec in EXACT_PAIR)
    opinion = make_agent(EXACT_PAIR[1], game) if exact else None
    # Interaction is measured on optimal-win's own decisions, so those games seat optimal-win.
    traced_seats = _agents(game, [EXACT_PAIR[0]] * players) if exact else seats
    traces = [trace_game(game, traced_seats, derive_rng(seed, "quality", k), opinion) for k in range(trace_games)]
    quality = _from_traces(traces)
    if exact:
        quality.interaction = _clustered_share([t.disagreements for t in traces], [t.compared for t in traces])
        quality.interaction_exact = True
        quality.notes.append(say(N_("traced games seat optimal-win (interaction is measured on its decisions)")))
    else:
        quality.notes.append(say(N_("interaction: not measured (the game has no pair of exact solvers for it)")))
    if skill:
        _ladder(quality, game, game_id, players, options, seed, ladder_games)
    return quality


def _from_traces(traces: Sequence[_Trace]) -> Quality:
    changes: list[float] = []
    comebacks = comeback_games = 0
    margins: list[float] = []
    for trace in traces:
        leaders = [sole_leader(scores, trace.score_sign) for scores in trace.round_scores]
        sole = [leader for leader in leaders if leader is not None]
        changes.append(float(sum(1 for a, b in pairwise(sole) if a != b)))
        half = leaders[(len(leaders) - 1) // 2] if len(leaders) >= 2 else None
        if half is not None and trace.winners:
            comeback_games += 1
            comebacks += half not in trace.winners
        if len(trace.winners) == 1:
            margin = relative_margin(trace.final, trace.score_sign)
            if margin is not None:
                margins.append(margin)
    return Quality(
        traced_games=len(traces),
        lead_changes=_mean(changes),
        comeback_rate=_share(float(comebacks), comeback_games),
        decisiveness=_mean(margins),
        forced_share=_clustered_share([t.forced for t in traces], [t.decisions for t in traces]),
        decisions_per_game=_mean([float(t.decisions) for t in traces]),
    )


def _ladder(
    quality: Quality,
    game: Game[Any, Any, Any],
    game_id: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    games: int,
) -> None:
    ladder = tuple(spec for spec in LADDER if _seatable(game, spec))
    quality.ladder = ladder
    if len(ladder) < 2:
        quality.notes.append(say(N_("skill: fewer than two ladder agents seat this configuration")))
        return
    result = run_tournament(TournamentSpec(game_id, players, ladder, games, seed, dict(options), auto_ladder=False))
    by_name = {r.agent: r for r in result.ratings}
    ordered = sorted(ladder, key=lambda spec: by_name[spec].mu)
    weakest, strongest = by_name[ordered[0]], by_name[ordered[-1]]
    spread = strongest.mu - weakest.mu
    half = Z95 * math.hypot(strongest.sigma, weakest.sigma)
    quality.skill_spread = Estimate(spread, spread - half, spread + half)
    # The weaker of two agents (by rating) finishing ahead, over every pair's games.
    rank = {spec: ordered.index(spec) for spec in ladder}
    upsets = total = 0.0
    for i, row in enumerate(result.matrix):
        for j, cell in enumerate(row):
            if cell is None or rank[ladder[i]] >= rank[ladder[j]]:
                continue
            upsets += cell.rate * cell.games
            total += cell.games
    quality.upset_rate = _share(upsets, int(total)) if total else None
