"""Text rendering of Pig views (Rich markup), kept apart from the rules.

Words are made in the reader's language (``gamebag.games.pig.translation``). Seats stay written
``seat N``, a language-neutral token the terminal replaces with the seat's name; numbers are written
by locale (``core.i18n.number``).
"""

from __future__ import annotations

from gamebag.core.i18n import join_list, number
from gamebag.core.protocol import JsonDict
from gamebag.games.pig.translation import _

SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")


def seat_token(seat: int, capital: bool = False) -> str:
    """The seat as the terminal finds it to put its name in its place (never translated; ``capital``:
    at the head of an English sentence)."""
    return f"{'Seat' if capital else 'seat'} {seat}"


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    lines = [
        _(
            "[bold]Pig[/bold] - first to {goal} wins. Round {round}.",
            goal=number(view["goal"]),
            round=number(view["round"]),
        )
    ]
    for p, score in enumerate(view["scores"]):
        marks = []
        if p == view["turn_seat"]:
            marks.append(_("to play"))
        if p == seat:
            marks.append(_("you"))
        suffix = "  ({})".format(join_list(marks, "standard-narrow")) if marks else ""
        lines.append(f"{seat_token(p):<{SEAT_COLUMN}}  {number(score):>4}{suffix}")
    last = view["last_roll"]
    if view["over"]:
        winner = view["winners"][0]
        lines.append(
            # Translators: {seat} is "seat N" (the terminal puts the seat's name there); keep the [bold] tags.
            _(
                "Rolled {roll}. [bold green]Game over: {seat} wins, the first to reach the goal of {goal} "
                "({points} points).[/bold green]",
                roll=number(last),
                seat=seat_token(winner),
                goal=number(view["goal"]),
                points=number(view["scores"][winner]),
            )
        )
    elif view["phase"] == "decide":
        lines.append(
            _(
                "Rolled {roll}. Turn total [bold]{total}[/bold]: hold (bank it) or roll again.",
                roll=number(last),
                total=number(view["turn_total"]),
            )
        )
    else:
        if last == 1:
            lines.append(_("[red]The last roll was a 1: that turn's total was lost.[/red]"))
        # Translators: {seat} is "seat N" (the terminal puts the seat's name there); keep the [bold] tags.
        lines.append(_("{seat} rolls the die.", seat=seat_token(view["turn_seat"], capital=True)))
    return "\n".join(lines)


# ---- the terminal: events, choices in words, help ---------------------------------------------
def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """Every roll and every hold between two views of one seat."""
    if before is None:
        return []
    lines: list[str] = []
    for seat, (old, new) in enumerate(zip(before["scores"], after["scores"], strict=True)):
        if new != old:
            lines.append(
                _(
                    "{seat} holds and banks {banked}: {score} in all.",
                    seat=seat_token(seat),
                    banked=number(new - old),
                    score=number(new),
                )
            )
    roller = before["turn_seat"]
    if roller is None:
        return lines
    if after["last_roll"] == 1 and after["turn_seat"] != roller:
        lines.append(_("{seat} rolls a 1: the turn total is lost.", seat=seat_token(roller)))
    elif after["turn_seat"] == roller and after["last_roll"] is not None and (
        (after["last_roll"], after["turn_total"]) != (before["last_roll"], before["turn_total"])
    ):
        lines.append(
            _(
                "{seat} rolls {roll} (turn total {total}).",
                seat=seat_token(roller),
                roll=number(after["last_roll"]),
                total=number(after["turn_total"]),
            )
        )
    return lines


def action_words(view: JsonDict, action: object) -> str:
    """Hold or roll in plain words."""
    if action == "hold":
        return _("hold: bank your turn total of {total}", total=number(view["turn_total"]))
    return _("roll the die") if action == "roll" else str(action)


def decision_help(view: JsonDict) -> str:
    """What this decision means."""
    return _(
        "Roll to add the die to your turn total (a 1 loses it and ends your turn), or hold to bank it. "
        "First to {goal} wins.",
        goal=number(view["goal"]),
    )
