"""Skill ratings of agents from finished games (openskill, Plackett-Luce model).

Each game is one update: every seat is a one-player team ranked by its standing
(share of the win, then score in the game's direction: the keys arrive already turned
by ``Game.score_sign``, see ``gamebag.sim.tournament.standing``). An agent that fills several seats of one game
(possible with more than two players) moves by the mean of its seats' updates.
Updates are applied in the order the games are given, so the same games in the
same order always give the same ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from gamebag.core.results import competition_ranks


@dataclass(frozen=True)
class Rating:
    """One agent's rating: mean skill ``mu``, uncertainty ``sigma``; ``ordinal`` = mu - 3 sigma."""

    agent: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal, "games": self.games}


@dataclass(frozen=True)
class RatedGame:
    """Who sat where (agent index per seat) and each seat's standing key (higher is better)."""

    seats: tuple[int, ...]
    standing: tuple[tuple[float, float], ...]


def places(standing: Sequence[tuple[float, float]]) -> list[int]:
    """1-based places from standing keys (higher is better); equal keys share a place."""
    return competition_ranks(standing)


def rate_games(agents: Sequence[str], games: Iterable[RatedGame]) -> list[Rating]:
    """Ratings of ``agents`` after the ``games`` in order, best ordinal first."""
    model = PlackettLuce()
    mu = [model.mu] * len(agents)
    sigma = [model.sigma] * len(agents)
    played = [0] * len(agents)
    for game in games:
        teams = [[model.create_rating([mu[a], sigma[a]])] for a in game.seats]
        updated = model.rate(teams, ranks=[float(p) for p in places(game.standing)])
        moves: dict[int, list[tuple[float, float]]] = {}
        for agent, team in zip(game.seats, updated, strict=True):
            moves.setdefault(agent, []).append((team[0].mu, team[0].sigma))
        for agent, results in moves.items():
            mu[agent] = sum(m for m, _ in results) / len(results)
            sigma[agent] = sum(s for _, s in results) / len(results)
            played[agent] += 1
    ratings = [Rating(name, mu[i], sigma[i], played[i]) for i, name in enumerate(agents)]
    return sorted(ratings, key=lambda r: (-r.ordinal, r.agent))
