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
(29%), roll the 2 other dice (28%). Roll the 2 other dice: a bust 25/36 of the time."; estimates too
close to tell apart say so ("The two choices are too close to call at this budget.").
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
from gamebag.analysis.translation import N_, _
from gamebag.analysis.turns import TurnPoints, TurnWinEvaluator
from gamebag.analysis.words import action_said, either, percent, sentences
from gamebag.core.i18n import decimal, number
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
        raise AnalysisError(
            _("seat {seat} has no choice to make here (legal actions: {count})", seat=seat, count=len(legal))
        )
    if playouts is not None:
        AnalysisSettings(playouts=playouts).check(game)
    evaluator = evaluator_for(game, playouts, seed)
    found = evaluator.choices(state, seat, legal, step)
    view = game.observation(state, seat)
    advice = advice_json(game, seat, legal, found, evaluator, view)
    for action, bust in bust_chances(evaluator, state, seat, legal).items():
        for item in advice["choices"]:
            if game.action_from_json(item["action"]) == action:
                item["busts"] = str(bust)
    advice["words"] = advice_words(game, view, advice)
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
    advice: JsonDict = {
        "seat": seat,
        "exact": found.exact,
        "method": evaluator.method,
        "best": [game.action_to_json(action) for action in found.best],
        "choices": choices,
    }
    if not found.exact:
        # Estimates: whether the runner-up's loss is told apart from noise (the words say so).
        top, runner_up = order[0], order[1]
        advice["close"] = found.losses[runner_up].low <= 0.0 or top not in found.best
    advice["words"] = advice_words(game, view, advice)
    return advice


# The coach's sentences, one whole sentence each (the choices are named in the game's words).
COACH_TEXT = {
    "solver": N_("The solver's choice here: {best}."),
    "tied": N_("The solver's best choices here, equally good: {best}."),
    "favoured": N_("The best choice here looks to be {best}."),
    "close_two": N_("The two choices are too close to call at this budget."),
    "close": N_("The best choices are too close to call at this budget."),
    # Translators: {shown} lists choices with their win chance: "stop (29%), roll (28%)".
    "chances": N_("Win chance after each choice: {shown}."),
    "chances_more": N_("Win chance after each choice: {shown}, and {more} more."),
    # Translators: one choice and its win chance in the list of choices: "stop (29%)".
    "chance": N_("{choice} ({chance})"),
    "points": N_("Most game points expected this turn: {best} ({points})."),
    # Translators: {action} is a choice that rolls dice, {chance} a fraction such as 25/36.
    "busts": N_("{action}: a bust {chance} of the time."),
}


def words(game: Game[Any, Any, Any], order: Sequence[Hashable], found: Choices, view: JsonDict | None = None) -> str:
    """The advice in two or three sentences (win chances in whole %), the choices in the game's words
    as the seat reads them (``view``: its own view; without one, the actions' codes)."""
    advice: JsonDict = {
        "exact": found.exact,
        "best": [game.action_to_json(action) for action in found.best],
        "choices": [
            {
                "action": game.action_to_json(action),
                "value": found.values[action].mean,
                **({"points": found.points[action]} if found.points is not None else {}),
            }
            for action in order
        ],
    }
    if not found.exact:
        top, runner_up = order[0], order[1]
        advice["close"] = found.losses[runner_up].low <= 0.0 or top not in found.best
    return advice_words(game, view, advice)


def advice_words(game: Game[Any, Any, Any], view: JsonDict | None, advice: JsonDict) -> str:
    """The advice's words in the reader's language, made from its language-neutral JSON (the choices
    in order of value, the best, ``close``, points and bust chances) and the seat's own ``view``."""

    def name(action: Any) -> str:
        if view is None:
            return action_text(action)
        return action_said(game, view, game.action_from_json(action))

    choices = advice["choices"]
    best = [name(action) for action in advice["best"]]
    shown = ", ".join(
        _(COACH_TEXT["chance"], choice=name(item["action"]), chance=percent(item["value"])) for item in choices[:SHOWN]
    )
    if advice["exact"] and len(best) > 1:
        lead = _(COACH_TEXT["tied"], best=either(best))
    elif advice["exact"]:
        lead = _(COACH_TEXT["solver"], best=best[0])
    elif advice.get("close"):
        # Estimates: the words name the choice with the best value shown (read off the held-out
        # playouts), and say when the runner-up's loss is not told apart from noise.
        lead = _(COACH_TEXT["close_two"] if len(choices) == 2 else COACH_TEXT["close"])
    else:
        lead = _(COACH_TEXT["favoured"], best=name(choices[0]["action"]))
    if len(choices) > SHOWN:
        chances = _(COACH_TEXT["chances_more"], shown=shown, more=number(len(choices) - SHOWN))
    else:
        chances = _(COACH_TEXT["chances"], shown=shown)
    said = [lead, chances]
    with_points = [item for item in choices if "points" in item]
    if with_points:
        top = max(with_points, key=lambda item: float(item["points"]))
        said.append(_(COACH_TEXT["points"], best=name(top["action"]), points=decimal(top["points"], 2)))
    for item in choices:
        if "busts" in item:
            bust = _(COACH_TEXT["busts"], action=name(item["action"]), chance=item["busts"])
            said.append(bust[:1].upper() + bust[1:])
    return sentences(*said)


def reworded(game: Game[Any, Any, Any], view: JsonDict, advice: JsonDict) -> JsonDict:
    """``advice`` (kept as a worker made it) with its choices' names and words made again in the
    reader's language, from the seat's own ``view``."""
    choices = [{**item, "said": action_said(game, view, game.action_from_json(item["action"]))}
               for item in advice["choices"]]
    fresh = {**advice, "choices": choices}
    fresh["words"] = advice_words(game, view, fresh)
    return fresh


def action_text(action: Any) -> str:
    """An action's JSON as a player reads it (a list joined with +)."""
    if isinstance(action, list):
        return "+".join(action_text(a) for a in action)
    if isinstance(action, dict):
        return ", ".join(f"{key} {action_text(value)}" for key, value in action.items())
    return str(action)
