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
from gamebag.analysis.translation import N_, _
from gamebag.core import i18n
from gamebag.core.errors import UnknownGameError
from gamebag.core.protocol import Game, JsonDict
from gamebag.core.registry import entry

# A loss below this (half a percent of win chance) counts as none in the words (solver noise, roundings).
NEGLIGIBLE = 0.005

# The sentences, marked for the catalogue and translated where they are said (never at import).
TEXT = {
    # Translators: {place} is where the decision stands in the game's words ("Round 3, with 12 in the
    # turn"), {who} a player's name, {action} what they did, {value} a win chance ("48%").
    "best": N_("{place}: {who} chose {action}, a best choice ({value} win chance)."),
    "lost": N_(
        "{place}: {who} chose {action}; {best} was better, and the choice lost about {lost} win chance "
        "({value} instead of {best_value})."
    ),
    "lost_range": N_(
        "{place}: {who} chose {action}; {best} was better, and the choice lost about {lost} win chance "
        "({value} instead of {best_value}; between {low} and {high} with 95% confidence)."
    ),
    "undecided": N_("{place}: {who} chose {action}; against {best} it is too close to judge at this budget."),
    # Translators: {points} is a number of the game's own points ("1.25").
    "points": N_("It also gave up {points} game points expected this turn."),
    "inaccuracy": N_("That is an inaccuracy."),
    "mistake": N_("That is a mistake."),
    "blunder": N_("That is a blunder."),
    "headline": N_(
        "{accurate} played most accurately ({accuracy}), and {lucky} had the most luck ({luck} win chance)."
    ),
    "headline_same": N_(
        "{accurate} played most accurately ({accuracy}) and also had the most luck ({luck} win chance)."
    ),
    "headline_one": N_(
        "{accurate} played with an accuracy of {accuracy}, and luck moved their win chance by {luck}."
    ),
    "no_decisions": N_("Nobody had a choice to make in this game, so only luck decided it."),
    # Translators: a player without a name at the table (the seats count from 0).
    "seat": N_("seat {seat}"),
    "round": N_("round {round}"),
    # Translators: two or more choices, the last joined by "or" ("roll, hold or bank").
    "either": N_("{first} or {second}"),
    "how_exact": N_(
        "Every win chance here is exact: it comes from the solved game, as a perfect player would see it."
    ),
    "how_estimated": N_(
        "Win chances here are estimated by playing the rest of the game out many times from "
        "what the player could know at that moment (up to {playouts} games per value), so each comes with a "
        "95% range."
    ),
    "how_undecided": N_(
        "A decision is called too close to judge at this budget when its range is wider than "
        "{width} either side and could mean no loss at all."
    ),
    # Translators: {method} is the method's own sentence ("exact: optimal-win's solved winning chances").
    "how_method": N_("Method: {method}."),
}
LUCK_UNIT = N_(
    "Luck: how much the dice, draws and cards moved a player's win chance over the game, in % "
    "(0% is average luck, + is lucky)."
)
ACCURACY_UNIT = N_("Accuracy: 100% means every choice was a best one; each win chance lost lowers it.")

_SEAT = re.compile(r"\bseat (\d+)\b")


def seat_name(seat: int) -> str:
    """A seat without a player's name, as the reader's language calls it ("seat 0", "plaats 0")."""
    return _(TEXT["seat"], seat=seat)


def luck_unit() -> str:
    """What luck means, in one line, in the reader's language."""
    return _(LUCK_UNIT)


def accuracy_unit() -> str:
    """What accuracy means, in one line, in the reader's language."""
    return _(ACCURACY_UNIT)


# ---- numbers as players read them (the reader's notation: 48% / 48 % / 48%) -------------------
def percent(value: float, digits: int = 0) -> str:
    """A win chance: ``0.48`` is ``48%`` (never ``-0%``); ``digits`` after the point."""
    return i18n.percent(max(0.0, value), digits)


def percent_change(value: float) -> str:
    """A change of win chance with its sign: ``+45%``, ``-3%``; under 1% with one decimal."""
    digits = 1 if abs(100 * value) < 1 else 0
    sign = "-" if round(100 * value, digits) < 0 else "+"
    return sign + i18n.percent(abs(value), digits)


def amount(value: float) -> str:
    """A loss of win chance, without sign: ``6%``, ``0.7%``."""
    value = max(0.0, value)
    return percent(value, 1 if 100 * value < 1 else 0)


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
        return place, _(TEXT["round"], round=i18n.number(place["round"])), view
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


def decision_said(game: Game[Any, Any, Any], state: Any, seat: int, action: Hashable,
                  best: Sequence[Hashable]) -> tuple[JsonDict, JsonDict]:
    """Where ``seat``'s decision at ``state`` stands (neutral) and its ``said``: the place, the action
    taken and the best ones in the game's words, in the current language, read off the seat's view."""
    place, place_said, view = seat_words(game, state, seat)
    said = {
        "place": place_said,
        "action": action_said(game, view, action),
        "best": [action_said(game, view, choice) for choice in best],
    }
    return place, said


def in_reader_words(analysis: JsonDict, record: JsonDict) -> JsonDict:
    """``analysis`` with each decision's ``said`` made again in the reader's language: a kept analysis
    holds language-neutral figures and the words of whoever computed it (a worker process speaks
    English), so the record is replayed and each decision said from the deciding seat's view. Where the
    record cannot be replayed (a game no longer known) the decisions keep the words they have."""
    import gamebag
    from gamebag.core.records import Record, apply_event, make_game

    decisions = analysis.get("decisions") or []
    if i18n.current_language() == i18n.SOURCE_LANGUAGE and all("said" in d for d in decisions):
        return analysis  # the words were made in English: nothing to say again
    try:
        game_record = Record.from_json(record)
        game = make_game(game_record, gamebag.make)
        by_event: dict[int, list[JsonDict]] = {}
        for decision in decisions:
            by_event.setdefault(int(decision["event"]), []).append(decision)
        state, resaid = game.initial_state(), []
        for index, event in enumerate(game_record.events):
            for decision in by_event.get(index, ()):
                action = game.action_from_json(decision["action"])
                best = [game.action_from_json(choice) for choice in decision["best"]]
                __, said = decision_said(game, state, int(decision["seat"]), action, best)
                resaid.append({**decision, "said": said})
            state = apply_event(game, state, event)
    except Exception:  # a record or game that no longer replays: its words as they were kept
        return analysis
    if len(resaid) != len(decisions):
        return analysis
    resaid.sort(key=lambda d: (d["event"], d["seat"]))
    return {**analysis, "decisions": resaid}


def short(action: Any) -> str:
    """An action's JSON where a game has no words for it (a list joined with +)."""
    if isinstance(action, list):
        return "+".join(short(a) for a in action)
    return str(action)


def either(options: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(options) <= 1:
        return "".join(options)
    if i18n.current_language() in (i18n.SOURCE_LANGUAGE, i18n.PSEUDO_LANGUAGE):
        return _(TEXT["either"], first=", ".join(options[:-1]), second=options[-1])
    return i18n.join_list(list(options), style="or")  # the reader's own "a, b of c" / "a、b、またはc"


def named(text: str, names: Sequence[str]) -> str:
    """The game's ``seat N`` in its words replaced by the table's names."""

    def name(match: re.Match[str]) -> str:
        seat = int(next(group for group in match.groups() if group))
        return names[seat] if seat < len(names) else match[0]

    return _seat_pattern().sub(name, text)


def _seat_pattern() -> re.Pattern[str]:
    """``seat N`` as the English source and the reader's language write it (a game's words for a seat
    follow this catalogue's ``seat {seat}``)."""
    translated = _(TEXT["seat"], seat="\0")
    if translated == "seat \0" or "\0" not in translated:
        return _SEAT
    before, __, after = (re.escape(part) for part in translated.partition("\0"))
    return re.compile(rf"\bseat (\d+)\b|{before}(\d+){after}")


def sentences(*texts: str) -> str:
    """Whole sentences one after another, as the reader's language runs them (no space between
    Japanese or Chinese sentences)."""
    glue = "" if i18n.current_language() in _UNSPACED else " "
    return glue.join(text for text in texts if text)


_UNSPACED = ("ja", "zh_Hans")


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
    place = said.get("place") or _(TEXT["round"], round="?")
    fields = {
        "place": place[:1].upper() + place[1:],
        "who": names[seat] if seat < len(names) else seat_name(seat),
        "action": named(said.get("action") or short(decision["action"]), names),
        "best": named(either(said.get("best") or [short(b) for b in decision["best"]]), names),
        # A loss under 1% shows the two chances with a decimal, so they differ as the loss says.
        "value": percent(decision["value"], 1 if decision["loss"] < 0.01 else 0),
        "best_value": percent(decision["best_value"], 1 if decision["loss"] < 0.01 else 0),
        "lost": amount(decision["loss"]),
    }
    if is_undecided(decision):
        return _(TEXT["undecided"], **fields)
    if decision["loss"] < NEGLIGIBLE:
        text = _(TEXT["best"], **fields)
    elif "loss_interval" in decision:
        low, high = decision["loss_interval"]
        text = _(TEXT["lost_range"], **fields, low=amount(low), high=amount(high))
    else:
        text = _(TEXT["lost"], **fields)
    points = decision.get("points")
    if points and points["loss"] >= NEGLIGIBLE:
        text = sentences(text, _(TEXT["points"], points=i18n.decimal(points["loss"], 2)))
    label = decision.get("label")
    if label in ("inaccuracy", "mistake", "blunder"):
        text = sentences(text, _(TEXT[label]))
    return text


# ---- the whole analysis --------------------------------------------------------------------
def headline(analysis: JsonDict, names: Sequence[str]) -> str:
    """The analysis's first line: who played most accurately and who had the most luck."""
    seats = analysis["seats"]
    judged = [s for s in seats if s["accuracy"] is not None]
    if not judged:
        return _(TEXT["no_decisions"])

    def who(seat: JsonDict) -> str:
        index = int(seat["seat"])
        return names[index] if index < len(names) else seat_name(index)

    accurate = max(judged, key=lambda s: s["accuracy"])
    lucky = max(seats, key=lambda s: s["luck"])
    accuracy = i18n.percent(accurate["accuracy"] / 100)
    if len(seats) == 1:
        return _(
            TEXT["headline_one"],
            accurate=who(accurate), accuracy=accuracy, luck=percent_change(lucky["luck"])
        )
    if lucky is accurate:
        return _(
            TEXT["headline_same"],
            accurate=who(accurate), accuracy=accuracy, luck=percent_change(lucky["luck"])
        )
    return _(
        TEXT["headline"],
        accurate=who(accurate), accuracy=accuracy, lucky=who(lucky), luck=percent_change(lucky["luck"])
    )


def how_computed(analysis: JsonDict) -> list[str]:
    """The sentences of the "How is this computed?" fold (the method's details)."""
    lines = []
    if analysis.get("exact", True):
        lines.append(_(TEXT["how_exact"]))
    else:
        lines.append(_(TEXT["how_estimated"], playouts=_count(analysis.get("playouts"))))
        lines.append(_(TEXT["how_undecided"], width=amount(UNDECIDED_HALF_WIDTH)))
    if analysis.get("method"):
        lines.append(_(TEXT["how_method"], method=method_words(analysis)))
    return lines


def method_words(analysis: JsonDict) -> str:
    """The method's own sentence in the reader's language: the analysis's neutral ``method_text``
    (the catalogue's message and its figures), else its English ``method`` (an older analysis)."""
    said = analysis.get("method_text")
    if not isinstance(said, dict) or not isinstance(said.get("text"), str):
        return str(analysis.get("method", ""))
    params = {
        key: method_words({"method_text": value}) if isinstance(value, dict) else _figure(value)
        for key, value in (said.get("params") or {}).items()
    }
    return _(said["text"], **params)


def _figure(value: Any) -> Any:
    """A figure of a method's sentence in the reader's notation (a whole number, a width such as 0.05)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return i18n.number(value) if isinstance(value, int) else i18n.decimal(value, 2)


def _count(value: Any) -> Any:
    return i18n.number(value) if isinstance(value, int) and not isinstance(value, bool) else value
