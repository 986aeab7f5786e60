"""The analysis and the coach in players' words: every sentence they show, in one place.

Units, as players read them: a winning chance is a percentage ("48% win chance"), a loss is the
win chance a choice gave up ("lost about 6% win chance", never "percentage points"), points are the
game's own points, and luck is the win chance the dice, draws and cards moved, in % (``LUCK_UNIT``
says so in one line). Each decision is located and named in the game's own words: the game's
registry entry says where a decision stands (``locate``, ``place_words``: round, grab or turn,
phase) and what an action is called (``action_words``), read off the deciding seat's own view.

Where an estimate cannot tell a decision's loss from nothing and its interval is wider than
``UNDECIDED_HALF_WIDTH`` either side, or where the estimator's budget ran out first (``undecided``),
the decision is too close to judge (``is_undecided``): the words say it is too close
to judge at this budget instead of giving a wide number. How the values were computed (playouts,
information sets, budgets) is kept for the "How is this computed?" fold, never the first line.

The records and the JSON stay language-neutral apart from the ``said`` and ``words`` texts made
here, so a translation replaces this module's catalogue and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from typing import Any

from rich.errors import MarkupError
from rich.text import Text

from gamebag.analysis.figures import UNDECIDED_HALF_WIDTH
from gamebag.core.errors import UnknownGameError
from gamebag.core.protocol import Game, JsonDict
from gamebag.core.registry import entry

# A loss below this (half a percent of win chance) counts as none in the words (solver noise, roundings).
NEGLIGIBLE = 0.005

TEXT = {
    "best": "{place}: {who} chose {action}, a best choice ({value} win chance).",
    "lost": "{place}: {who} chose {action}; {best} was better, and the choice lost about {lost} win chance "
    "({value} instead of {best_value}).",
    "lost_range": "{place}: {who} chose {action}; {best} was better, and the choice lost about {lost} win chance "
    "({value} instead of {best_value}; between {low} and {high} with 95% confidence).",
    "undecided": "{place}: {who} chose {action}; against {best} it is too close to judge at this budget.",
    "points": "It also gave up {points} game points expected this turn.",
    "inaccuracy": "That is an inaccuracy.",
    "mistake": "That is a mistake.",
    "blunder": "That is a blunder.",
    "headline": "{accurate} played most accurately ({accuracy}), and {lucky} had the most luck ({luck} win chance).",
    "headline_same": "{accurate} played most accurately ({accuracy}) and also had the most luck ({luck} win chance).",
    "headline_one": "{accurate} played with an accuracy of {accuracy}, and luck moved their win chance by {luck}.",
    "no_decisions": "Nobody had a choice to make in this game, so only luck decided it.",
    "seat": "seat {seat}",
    "round": "round {round}",
    "either": "{first} or {second}",
    "how_exact": "Every win chance here is exact: it comes from the solved game, as a perfect player would see it.",
    "how_estimated": "Win chances here are estimated by playing the rest of the game out many times from "
    "what the player could know at that moment (up to {playouts} games per value), so each comes with a "
    "95% range.",
    "how_undecided": "A decision is called too close to judge at this budget when its range is wider than "
    "{width} either side and could mean no loss at all.",
    "how_method": "Method: {method}.",
}
LUCK_UNIT = (
    "Luck: how much the dice, draws and cards moved a player's win chance over the game, in % "
    "(0% is average luck, + is lucky)."
)
ACCURACY_UNIT = "Accuracy: 100% means every choice was a best one; each win chance lost lowers it."

_SEAT = re.compile(r"\bseat (\d+)\b")


# ---- numbers as players read them ------------------------------------------------------------
def percent(value: float, digits: int = 0) -> str:
    """A win chance: ``0.48`` is ``48%`` (never ``-0%``); ``digits`` after the point."""
    return f"{max(0.0, 100 * value):.{digits}f}%"


def percent_change(value: float) -> str:
    """A change of win chance with its sign: ``+45%``, ``-3%``; under 1% with one decimal."""
    points = 100 * value
    return f"{points:+.1f}%" if abs(points) < 1 else f"{points:+.0f}%"


def amount(value: float) -> str:
    """A loss of win chance, without sign: ``6%``, ``0.7%``."""
    points = max(0.0, 100 * value)
    return f"{points:.1f}%" if points < 1 else f"{points:.0f}%"


# ---- decisions -----------------------------------------------------------------------------
def plain(text: str) -> str:
    """Text front ends' Rich markup taken out (``[red]gold[/red]`` is ``gold``)."""
    try:
        return Text.from_markup(text).plain
    except MarkupError:
        return text


def seat_words(game: Game[Any, Any, Any], state: Any, seat: int) -> tuple[JsonDict, str, Any]:
    """Where ``seat``'s decision at ``state`` stands (neutral, then in words) and its view, for naming actions."""
    view = game.observation(state, seat)
    try:
        found = entry(game.game_id)
    except UnknownGameError:  # a game built in a session and never registered: the round alone
        place: JsonDict = {"round": game.round_number(state)}
        return place, TEXT["round"].format(**place), view
    place = found.locate(view)
    return place, found.place_words(place), view


def action_said(game: Game[Any, Any, Any], view: JsonDict, action: Hashable) -> str:
    """An action in the game's words, as the seat whose view is given would read it."""
    encoded = game.action_to_json(action)
    try:
        found = entry(game.game_id)
    except UnknownGameError:
        return short(encoded)
    return plain(found.action_words(view, encoded))


def short(action: Any) -> str:
    """An action's JSON where a game has no words for it (a list joined with +)."""
    if isinstance(action, list):
        return "+".join(short(a) for a in action)
    return str(action)


def either(options: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(options) <= 1:
        return "".join(options)
    return TEXT["either"].format(first=", ".join(options[:-1]), second=options[-1])


def named(text: str, names: Sequence[str]) -> str:
    """The game's ``seat N`` in its words replaced by the table's names."""
    return _SEAT.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


def is_undecided(decision: JsonDict) -> bool:
    """Whether a decision of an analysis's JSON is too close to judge at its budget: the evaluator says
    so (``undecided``: its budget ran out, ``batched``), or its loss may be nothing and its interval is
    wider than ``UNDECIDED_HALF_WIDTH`` either side (``figures.too_wide``)."""
    if decision.get("undecided"):
        return True
    if decision.get("exact", True) or "loss_interval" not in decision:
        return False
    low, high = decision["loss_interval"]
    return bool(low <= 0.0 and (high - low) / 2 > UNDECIDED_HALF_WIDTH)


def decision_sentence(decision: JsonDict, names: Sequence[str]) -> str:
    """One decision of an analysis's JSON in words: where, who, what, what was better and what it cost."""
    seat = int(decision["seat"])
    said = decision.get("said") or {}
    place = said.get("place") or TEXT["round"].format(round="?")
    fields = {
        "place": place[:1].upper() + place[1:],
        "who": names[seat] if seat < len(names) else TEXT["seat"].format(seat=seat),
        "action": named(said.get("action") or short(decision["action"]), names),
        "best": named(either(said.get("best") or [short(b) for b in decision["best"]]), names),
        # A loss under 1% shows the two chances with a decimal, so they differ as the loss says.
        "value": percent(decision["value"], 1 if decision["loss"] < 0.01 else 0),
        "best_value": percent(decision["best_value"], 1 if decision["loss"] < 0.01 else 0),
        "lost": amount(decision["loss"]),
    }
    if is_undecided(decision):
        return TEXT["undecided"].format(**fields)
    if decision["loss"] < NEGLIGIBLE:
        text = TEXT["best"].format(**fields)
    elif "loss_interval" in decision:
        low, high = decision["loss_interval"]
        text = TEXT["lost_range"].format(**fields, low=amount(low), high=amount(high))
    else:
        text = TEXT["lost"].format(**fields)
    points = decision.get("points")
    if points and points["loss"] >= NEGLIGIBLE:
        text += " " + TEXT["points"].format(points=f"{points['loss']:.2f}")
    label = decision.get("label")
    if label in ("inaccuracy", "mistake", "blunder"):
        text += " " + TEXT[label]
    return text


# ---- the whole analysis --------------------------------------------------------------------
def headline(analysis: JsonDict, names: Sequence[str]) -> str:
    """The analysis's first line: who played most accurately and who had the most luck."""
    seats = analysis["seats"]
    judged = [s for s in seats if s["accuracy"] is not None]
    if not judged:
        return TEXT["no_decisions"]

    def who(seat: JsonDict) -> str:
        index = int(seat["seat"])
        return names[index] if index < len(names) else TEXT["seat"].format(seat=index)

    accurate = max(judged, key=lambda s: s["accuracy"])
    lucky = max(seats, key=lambda s: s["luck"])
    accuracy = f"{accurate['accuracy']:.0f}%"
    if len(seats) == 1:
        return TEXT["headline_one"].format(
            accurate=who(accurate), accuracy=accuracy, luck=percent_change(lucky["luck"])
        )
    if lucky is accurate:
        return TEXT["headline_same"].format(
            accurate=who(accurate), accuracy=accuracy, luck=percent_change(lucky["luck"])
        )
    return TEXT["headline"].format(
        accurate=who(accurate), accuracy=accuracy, lucky=who(lucky), luck=percent_change(lucky["luck"])
    )


def how_computed(analysis: JsonDict) -> list[str]:
    """The sentences of the "How is this computed?" fold (the method's details)."""
    lines = []
    if analysis.get("exact", True):
        lines.append(TEXT["how_exact"])
    else:
        lines.append(TEXT["how_estimated"].format(playouts=analysis.get("playouts")))
        lines.append(TEXT["how_undecided"].format(width=amount(UNDECIDED_HALF_WIDTH)))
    if analysis.get("method"):
        lines.append(TEXT["how_method"].format(method=analysis["method"]))
    return lines
