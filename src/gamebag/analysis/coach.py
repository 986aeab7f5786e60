"""The coach: at one seat's decision, the winning chance of each of its choices and advice in words.

``advise(game, state, seat)`` values every legal action of ``seat`` at ``state`` with the same
evaluator the post-game analysis uses (``run.select_evaluator``): exactly where a solver covers the
configuration (two-player Pig and Catch A Dragon, the two-player Eel equilibrium), else by playouts
from the seat's own information set, with 95% intervals. The advice is computed from what the seat
may know: the exact evaluators read perfect-information positions (the Eel grabs of the others,
chosen at the same time, are not in ``state`` until revealed), the estimator draws every playout's
starting state from the seat's information set, so the other seats' hidden information plays no
part (``tests/analysis/test_coach.py`` checks that changing it changes nothing).

The words name the choice the solver (or the playouts) prefers and each choice's winning chance,
and, where a turn model covers the game, the exact chance that a choice leading to a roll busts,
e.g. "The solver's choice here: stop and score 4. Win chance after each choice: stop and score 4
(29%), roll the 2 other dice (28%). Roll busts 25/36 of the time."; estimates too close to tell
apart say so ("The two choices are too close to call at this budget.").
``docs/analysis.md`` (the coach) says how the web tables and ``gamebag play --coach`` use it.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from gamebag.agents.solvers.turn_graph import CHANCE, END
from gamebag.analysis.evaluators import Choices, Evaluator
from gamebag.analysis.run import AnalysisError, AnalysisSettings, WithPoints, select_evaluator
from gamebag.analysis.turns import TurnPoints, TurnWinEvaluator
from gamebag.analysis.words import action_said, either
from gamebag.core.protocol import Game, JsonDict

COACH_PLAYOUTS = 100  # playouts per estimated value: advice within about a second on the compiled engines
SHOWN = 4  # choices named in the words (all are in the JSON)
CACHED_EVALUATORS = 8  # evaluators kept (an exact one keeps its solved tables between decisions)

_evaluators: OrderedDict[tuple[str, int, str, int | None, int], Evaluator] = OrderedDict()


def evaluator_for(game: Game[Any, Any, Any], playouts: int | None = None, seed: int = 0) -> Evaluator:
    """The analysis's evaluator for ``game``'s configuration, kept between calls."""
    key = (game.game_id, game.num_players, json.dumps(game.options, sort_keys=True, default=str), playouts, seed)
    evaluator = _evaluators.get(key)
    if evaluator is None:
        evaluator = select_evaluator(game, AnalysisSettings(playouts=playouts, seed=seed))
        _evaluators[key] = evaluator
        while len(_evaluators) > CACHED_EVALUATORS:
            _evaluators.popitem(last=False)
    _evaluators.move_to_end(key)
    return evaluator


def advise(
    game: Game[Any, Any, Any],
    state: Any,
    seat: int,
    step: int = 0,
    playouts: int | None = COACH_PLAYOUTS,
    seed: int = 0,
) -> JsonDict:
    """``seat``'s choices at ``state`` valued from its own information, and the advice in words.

    ``step`` (the record's event index) seeds the playouts, so the same position, step, budget and
    seed give the same advice. Raises ``AnalysisError`` where ``seat`` has no choice to make.
    """
    if not game.is_terminal(state) and seat in game.acting_players(state):
        legal = list(game.legal_actions(state, seat))
    else:
        legal = []
    if len(legal) < 2:
        raise AnalysisError(f"seat {seat} has no choice to make here (legal actions: {len(legal)})")
    if playouts is not None:
        AnalysisSettings(playouts=playouts).check(game)
    evaluator = evaluator_for(game, playouts, seed)
    found = evaluator.choices(state, seat, legal, step)
    advice = advice_json(game, seat, legal, found, evaluator, game.observation(state, seat))
    busts = bust_chances(evaluator, state, seat, legal)
    if busts:
        for item in advice["choices"]:
            bust = busts.get(game.action_from_json(item["action"]))
            if bust is not None:
                item["busts"] = str(bust)
        said = "; ".join(f"{action_text(game.action_to_json(a))} busts {b} of the time" for a, b in busts.items())
        advice["words"] += f" {said[0].upper()}{said[1:]}."
    return advice


def bust_chances(evaluator: Evaluator, state: Any, seat: int, legal: Sequence[Any]) -> dict[Any, Fraction]:
    """Where a turn model covers the game: the exact chance that each choice leading to a roll ends
    the turn at once with nothing (a bust), read off the turn graph from the seat's own view."""
    source: TurnWinEvaluator | TurnPoints | None = None
    if isinstance(evaluator, TurnWinEvaluator):
        source = evaluator
    elif isinstance(evaluator, WithPoints):
        source = evaluator.turn_points
    if source is None:
        return {}
    graph, position = source.turn_node(state, seat)
    node = graph.index.get(position)
    if node is None:
        return {}
    children = dict(zip(graph.actions[node], graph.children[node], strict=True))
    busts = {}
    for action in legal:
        child = children.get(action)
        if child is None or graph.kinds[child] != CHANCE:
            continue
        outcomes = zip(graph.children[child], graph.probabilities[child], strict=True)
        bust = sum((p for c, p in outcomes if graph.kinds[c] == END and graph.points[c] == 0), Fraction(0))
        if bust > 0:
            busts[action] = bust
    return busts


def advice_json(
    game: Game[Any, Any, Any],
    seat: int,
    legal: Sequence[Any],
    found: Choices,
    evaluator: Evaluator,
    view: JsonDict | None = None,
) -> JsonDict:
    """The advice as JSON: each choice's value (with its interval), the best, and the words."""
    order = sorted(legal, key=lambda action: -found.values[action].mean)
    choices = []
    for action in order:
        value = found.values[action]
        item: JsonDict = {"action": game.action_to_json(action), "value": value.mean}
        if view is not None:
            item["said"] = action_said(game, view, action)  # the choice in the game's words
        if not value.is_exact:
            item["interval"] = [value.low, value.high]
        if found.points is not None:
            item["points"] = found.points[action]
        choices.append(item)
    return {
        "seat": seat,
        "exact": found.exact,
        "method": evaluator.method,
        "best": [game.action_to_json(action) for action in found.best],
        "choices": choices,
        "words": words(game, order, found, view),
    }


# The coach's sentences, one whole sentence each (the choices are named in the game's words).
COACH_TEXT = {
    "solver": "The solver's choice here: {best}.",
    "tied": "The solver's best choices here, equally good: {best}.",
    "favoured": "The best choice here looks to be {best}.",
    "close_two": "The two choices are too close to call at this budget.",
    "close": "The best choices are too close to call at this budget.",
    "chances": "Win chance after each choice: {shown}.",
    "chances_more": "Win chance after each choice: {shown}, and {more} more.",
    "points": "Most game points expected this turn: {best} ({points}).",
}


def words(game: Game[Any, Any, Any], order: Sequence[Hashable], found: Choices, view: JsonDict | None = None) -> str:
    """The advice in two or three sentences (win chances in whole %), the choices in the game's words
    as the seat reads them (``view``: its own view; without one, the actions' codes)."""

    def name(action: Hashable) -> str:
        return action_said(game, view, action) if view is not None else action_text(game.action_to_json(action))

    best = [name(a) for a in found.best]
    shown = ", ".join(f"{name(a)} ({percent(found.values[a].mean)})" for a in order[:SHOWN])
    if found.exact and len(best) > 1:
        lead = COACH_TEXT["tied"].format(best=either(best))
    elif found.exact:
        lead = COACH_TEXT["solver"].format(best=best[0])
    else:
        # Estimates: the words name the choice with the best value shown (read off the held-out
        # playouts), and say when the runner-up's loss is not told apart from noise.
        top, runner_up = order[0], order[1]
        close = found.losses[runner_up].low <= 0.0 or top not in found.best
        if close:
            lead = COACH_TEXT["close_two"] if len(order) == 2 else COACH_TEXT["close"]
        else:
            lead = COACH_TEXT["favoured"].format(best=name(top))
    if len(order) > SHOWN:
        chances = COACH_TEXT["chances_more"].format(shown=shown, more=len(order) - SHOWN)
    else:
        chances = COACH_TEXT["chances"].format(shown=shown)
    text = f"{lead} {chances}"
    if found.points is not None:
        top = max(found.points, key=lambda a: found.points[a] if found.points else 0.0)
        text += " " + COACH_TEXT["points"].format(best=name(top), points=f"{found.points[top]:.2f}")
    return text


def action_text(action: Any) -> str:
    """An action's JSON as a player reads it (a list joined with +)."""
    if isinstance(action, list):
        return "+".join(action_text(a) for a in action)
    if isinstance(action, dict):
        return ", ".join(f"{key} {action_text(value)}" for key, value in action.items())
    return str(action)


def percent(value: float) -> str:
    return f"{max(0.0, 100 * value):.0f}%"
