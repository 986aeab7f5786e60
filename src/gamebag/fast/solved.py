"""Solved policies that the compiled engines read, supplied by the layer that solves them.

The compiled ``optimal-score`` and ``optimal-win`` policies of Pig and Catch A Dragon
look up the exact solvers' tables. Those solvers (``gamebag.agents.solvers``) sit in a
layer above the kernels, so the kernels never import them: the solving side registers
one *source* here, a function ``(game, objective) -> solution``, and the engines ask
:func:`solution` for what they need (dependency inversion). The ``gamebag`` package
registers the exact solvers when it is imported (``gamebag/__init__.py``), so every
process that plays a game, simulation workers included, finds them.

The engines read these attributes of a solution: a score solution has ``graph`` (a turn
graph with ``decision_nodes``, ``nodes`` and ``actions``) and ``action_at(node)``; a Pig
(race) win solution has ``graph`` and ``choices``; a Catch A Dragon (rounds) win
solution has ``graph``, ``rounds``, ``tiebreak_rounds`` and ``levels``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamebag.core.protocol import Game

OBJECTIVES = ("score", "win")
SolutionSource = Callable[[Game[Any, Any, Any], str], Any]

_source: list[SolutionSource] = []


def provide_solutions(source: SolutionSource) -> None:
    """Make ``source`` the one place the engines get solved policies from (a later call replaces it)."""
    _source[:] = [source]


def solutions_available() -> bool:
    """Whether a source of solved policies is registered."""
    return bool(_source)


def solution(game: Game[Any, Any, Any], objective: str) -> Any:
    """The solved ``objective`` policy of ``game`` (``"score"`` or ``"win"``), from the registered source."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if not _source:
        raise LookupError("no source of solved policies is registered (gamebag.fast.solved.provide_solutions)")
    return _source[0](game, objective)
