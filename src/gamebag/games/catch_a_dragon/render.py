"""Text rendering of Catch A Dragon views (Rich markup), kept apart from the rules.

Words are made in the reader's language (``gamebag.games.catch_a_dragon.translation``); the views
stay language-neutral (colour codes, phase names). Seats are written ``seat N``, a neutral token
the terminal replaces with its seat names; a view carrying ``"narrated": True`` (added by the
terminal, which has just told the turns) leaves out the last turn.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from gamebag.core.i18n import join_list, number
from gamebag.core.protocol import JsonDict
from gamebag.games.catch_a_dragon.translation import N_, _, ngettext

SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")
STYLE = {
    "green": "green",
    "gold": "yellow",
    "blue": "blue",
    "red": "red",
    "purple": "magenta",
    "gray": "bright_black",
    "white": "white",
    "black": "black on white",
    "orange": "dark_orange",
    "yellow": "bright_yellow",
    "pink": "hot_pink",
    "brown": "orange4",
    "silver": "grey70",
    "teal": "dark_cyan",
}
# The dragons' colours as players read them (the option's values, ``dice.PALETTE``, stay codes).
COLOUR_NAMES = {
    # Translators: the colours of the dragons (the faces of the dice): a dragon's colour, short.
    "green": N_("green"),
    "gold": N_("gold"),
    "blue": N_("blue"),
    "red": N_("red"),
    "purple": N_("purple"),
    "gray": N_("gray"),
    "white": N_("white"),
    "black": N_("black"),
    "orange": N_("orange"),
    "yellow": N_("yellow"),
    "pink": N_("pink"),
    "brown": N_("brown"),
    "silver": N_("silver"),
    "teal": N_("teal"),
}
# The ``duplicate_bust`` option's values in the terminal's heading (the codes, in English).
BUST_RULE_NAMES = {
    # Translators: the duplicate-bust rule "any": any rolled die of a colour already held busts.
    "any": N_("any"),
    # Translators: the duplicate-bust rule "none-new": a roll busts only when it shows no new colour.
    "none-new": N_("none-new"),
}


def seat_token(seat: int, capital: bool = False) -> str:
    """The seat as the terminal finds it to put its name in its place (never translated; ``capital``:
    at the head of an English sentence)."""
    return f"{'Seat' if capital else 'seat'} {seat}"


def _padded(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (a wide CJK character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
    return text + " " * max(0, width - used)


def colour_name(colour: Any) -> str:
    """A dragon colour in the reader's words (an unknown one as it is)."""
    name = COLOUR_NAMES.get(str(colour))
    return _(name) if name else str(colour)


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    tiebreak = view["tiebreak_round"]
    if tiebreak:
        heading = _(
            "[bold]Tie-break round {round}[/bold] of at most {most}",
            round=number(tiebreak),
            most=number(view["max_tiebreak_rounds"]),
        )
    else:
        heading = _(
            "[bold]Round {round}[/bold] of {rounds}", round=number(view["round"]), rounds=number(view["rounds"])
        )
    lines = [heading, _("Die: {ring}", ring=_ring(view))]
    last = view.get("last_turn")
    if last and not view.get("narrated"):
        lines.append(_("Last turn: {turn}", turn=describe_turn(last)))
    lines.append("")
    seat_heading, fame_heading = _("seat"), _("fame")
    lines.append(f"{_padded(seat_heading, SEAT_COLUMN)}  {fame_heading}")
    for p, score in enumerate(view["scores"]):
        marks = []
        if p == view["turn_seat"]:
            marks.append(_("to play"))
        if p == seat:
            marks.append(_("you"))
        marked = join_list(marks, "standard-narrow")
        lines.append(f"{seat_token(p):<{SEAT_COLUMN}}  {number(score):>4}  {marked}")
    if not view["over"]:
        lines.append("")
        lines.append(_turn_lines(view))
    else:
        lines.append(_("[bold green]Game over: {reason}[/bold green]", reason=why_won(view)))
    return "\n".join(lines)


def why_won(view: JsonDict) -> str:
    """Who won a finished game and why, in the rulebook's words."""
    winners = view["winners"]
    best = number(max(view["scores"]))
    names = join_list([seat_token(w) for w in winners])
    tiebreaks = view["tiebreak_round"]
    after = ngettext("after {n} round", "after {n} rounds", view["rounds"])
    if tiebreaks:
        after = _(
            "{after} and {tiebreaks}",
            after=after,
            tiebreaks=ngettext("{n} tie-break round", "{n} tie-break rounds", tiebreaks),
        )
    if len(winners) > 1:
        return _(
            "{names} share the win, tied on the highest total, {best} fame, {after}: no tie-break rounds are "
            "left (at most {most}).",
            names=names,
            best=best,
            after=after,
            most=number(view["max_tiebreak_rounds"]),
        )
    if tiebreaks:
        return _(
            "{names} wins with the highest total, {best} fame, {after} (a shared highest total means every "
            "player plays another round).",
            names=names,
            best=best,
            after=after,
        )
    return _("{names} wins with the highest total, {best} fame, {after}.", names=names, best=best, after=after)


def _turn_lines(view: JsonDict) -> str:
    who = seat_token(view["turn_seat"], capital=True)
    held = view["collected"]
    lines = []
    if view["phase"] == "decide" and view["last_roll"]:
        # Translators: {seat} is "seat N" (the terminal puts the seat's name there); keep the [bold] tags.
        lines.append(_("{seat} rolled {dragons}.", seat=who, dragons=dragons(view["last_roll"])))
    if held:
        lines.append(_("{seat} holds {dragons}: {set}.", seat=who, dragons=dragons(held), set=_set_text(view)))
    if view["phase"] == "collect":
        lines.append(
            _("Rolled: {dragons}. Collect one or more dice that fit the set.", dragons=dragons(view["rolled"]))
        )
    elif view["phase"] == "prize":
        lines.append(
            _(
                "{seat} rolled {dragons}: bust. A consolation card is drawn.",
                seat=who,
                dragons=dragons(view["last_roll"]),
            )
        )
    elif view["phase"] == "decide":
        lines.append(
            ngettext(
                "Stop and score {points}, or roll the {n} other die.",
                "Stop and score {points}, or roll the {n} other dice.",
                view["dice_left"],
                points=number(view["set_points"]),
            )
        )
    else:
        lines.append(ngettext("{seat} rolls {n} die.", "{seat} rolls {n} dice.", view["dice_left"], seat=who))
    return "\n".join(lines)


def _set_text(view: JsonDict) -> str:
    kind = view["set_kind"]
    if kind == "identical":
        return _("identical, worth {points}", points=number(view["set_points"]))
    if kind == "different":
        parts = []
        for chain in view["chains"]:
            linked = "-".join(colour_name(c) for c in chain)
            if len(chain) > 1:
                parts.append(_("{dragons} chain ({points})", dragons=linked, points=number(2 * len(chain))))
            else:
                parts.append(_("{dragon} (1)", dragon=linked))
        return _("different, {parts} = {points}", parts=" + ".join(parts), points=number(view["set_points"]))
    return _("one dragon, worth 1 (still identical or different)")


def describe_turn(last: JsonDict, who: str | None = None) -> str:
    """One line on how the last turn ended (``who``: the seat's words, ``seat N`` by default)."""
    who = who or seat_token(last["seat"])
    points = number(last["points"])
    if last["ended_by"] == "bust":
        held = dragons(last["collected"]) if last["collected"] else _("nothing")
        rolled = dragons(last["last_roll"])
        # A variant may still score a bust: a consolation card drawn, or a fixed prize.
        if last.get("prize_drawn"):
            # Translators: {seat} is "seat N" (the terminal puts the seat's name there); keep the [bold] tags.
            return _(
                "{seat} held {held} and rolled {rolled}: [bold red]bust[/bold red], drew a consolation card, "
                "{points} points.",
                seat=who,
                held=held,
                rolled=rolled,
                points=points,
            )
        return _(
            "{seat} held {held} and rolled {rolled}: [bold red]bust[/bold red], {points} points.",
            seat=who,
            held=held,
            rolled=rolled,
            points=points,
        )
    if last["ended_by"] == "four":
        return _(
            "{seat} collected all four with {dragons} for {points} points.",
            seat=who,
            dragons=dragons(last["collected"]),
            points=points,
        )
    return _(
        "{seat} stopped with {dragons} for {points} points.",
        seat=who,
        dragons=dragons(last["collected"]),
        points=points,
    )


def dragons(colours: list[Any]) -> str:
    """Coloured dragon names for the terminal."""
    return " ".join(f"[{STYLE.get(c, 'white')}]{colour_name(c)}[/{STYLE.get(c, 'white')}]" for c in colours)


def _ring(view: JsonDict) -> str:
    faces = view["faces"]
    ring = " > ".join(f"{number(k)} {dragons([c])}" for k, c in enumerate(faces, 1))
    if view["cyclic"]:
        ring = _("{ring} > back to 1", ring=ring)
    rule = BUST_RULE_NAMES.get(str(view["duplicate_bust"]))
    return _("{ring}  (duplicate bust: {rule})", ring=ring, rule=_(rule) if rule else str(view["duplicate_bust"]))


# ---- the terminal: events, choices in words, help ---------------------------------------------
def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """Every roll, collection and turn's end between two views of one seat, its own bust included."""
    lines: list[str] = []
    if before is None:
        return lines
    me = after.get("seat")
    seat = after["turn_seat"]
    last = after.get("last_turn")
    if last and last != before.get("last_turn"):
        who = _("you ({seat})", seat=seat_token(me)) if me == last["seat"] else None
        lines.append(describe_turn(last, who))
    if seat is not None and seat != me:
        who = seat_token(seat)
        if after["phase"] == "collect" and after["rolled"] and after["rolled"] != before.get("rolled"):
            lines.append(_("{seat} rolls {dragons}.", seat=who, dragons=dragons(after["rolled"])))
        if after["phase"] == "decide" and after["collected"] != before.get("collected"):
            lines.append(
                _(
                    "{seat} collects and holds {dragons}: {set}.",
                    seat=who,
                    dragons=dragons(after["collected"]),
                    set=_set_text(after),
                )
            )
    if after["round"] != before["round"] and not after["over"]:
        lines.append(_("[bold]Round {round}[/bold] begins.", round=number(after["round"])))
    return lines


def action_words(view: JsonDict, action: Any) -> str:
    """Collect, stop or roll in plain words."""
    if action == "stop":
        return _("stop and score {points}", points=number(view["set_points"]))
    if action == "roll":
        return ngettext("roll the {n} other die", "roll the {n} other dice", view["dice_left"])
    if isinstance(action, list):
        return _("collect {dragons}", dragons=join_list([dragons([c]) for c in action]))
    return str(action)


def decision_help(view: JsonDict) -> str:
    """What this decision means."""
    if view["phase"] == "collect":
        return _(
            "Collect one or more of the dice just rolled that fit your set: all identical colours (n "
            "identical score n x n) or all different colours (linked chains score 2 per dragon, a lone "
            "dragon 1). Rolling no die that fits is a bust: 0 points for the turn."
        )
    return _("Stop and score your set now, or roll the dice you have not collected (a bust scores 0).")
