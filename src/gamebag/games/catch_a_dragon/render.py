"""Text rendering of Catch A Dragon views (Rich markup), kept apart from the rules.

Seats are written ``seat N`` (the terminal puts its seat names in their place); a view carrying
``"narrated": True`` (added by the terminal, which has just told the turns) leaves out the last turn.
"""

from __future__ import annotations

from typing import Any

from gamebag.core.protocol import JsonDict

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


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    tiebreak = view["tiebreak_round"]
    heading = (
        f"[bold]Tie-break round {tiebreak}[/bold] of at most {view['max_tiebreak_rounds']}"
        if tiebreak
        else f"[bold]Round {view['round']}[/bold] of {view['rounds']}"
    )
    lines = [heading, "Die: " + _ring(view)]
    last = view.get("last_turn")
    if last and not view.get("narrated"):
        lines.append(describe_turn(last))
    lines.append("")
    lines.append(f"{'seat':<{SEAT_COLUMN}}  fame")
    for p, score in enumerate(view["scores"]):
        marks = []
        if p == view["turn_seat"]:
            marks.append("to play")
        if p == seat:
            marks.append("you")
        lines.append(f"{f'seat {p}':<{SEAT_COLUMN}}  {score:>4}  {', '.join(marks)}")
    if not view["over"]:
        lines.append("")
        lines.append(_turn_lines(view))
    else:
        lines.append(f"[bold green]Game over: {why_won(view)}[/bold green]")
    return "\n".join(lines)


def why_won(view: JsonDict) -> str:
    """Who won a finished game and why, in the rulebook's words."""
    winners = view["winners"]
    best = max(view["scores"])
    names = " and ".join(f"seat {w}" for w in winners)
    tiebreaks = view["tiebreak_round"]
    after = f"after {view['rounds']} round{'s' if view['rounds'] != 1 else ''}"
    if tiebreaks:
        after += f" and {tiebreaks} tie-break round{'s' if tiebreaks != 1 else ''}"
    if len(winners) > 1:
        return (
            f"{names} share the win, tied on the highest total, {best} fame, {after}: no tie-break rounds are "
            f"left (at most {view['max_tiebreak_rounds']})."
        )
    if tiebreaks:
        return (
            f"{names} wins with the highest total, {best} fame, {after} (a shared highest total means every "
            "player plays another round)."
        )
    return f"{names} wins with the highest total, {best} fame, {after}."


def _turn_lines(view: JsonDict) -> str:
    who = f"Seat {view['turn_seat']}"
    held = view["collected"]
    lines = []
    if view["phase"] == "decide" and view["last_roll"]:
        lines.append(f"{who} rolled {dragons(view['last_roll'])}.")
    if held:
        lines.append(f"{who} holds {dragons(held)}: {_set_text(view)}.")
    if view["phase"] == "collect":
        lines.append(f"Rolled: {dragons(view['rolled'])}. Collect one or more dice that fit the set.")
    elif view["phase"] == "prize":
        lines.append(f"{who} rolled {dragons(view['last_roll'])}: bust. A consolation card is drawn.")
    elif view["phase"] == "decide":
        lines.append(
            f"Stop and score {view['set_points']}, or roll the {view['dice_left']} other "
            f"{'die' if view['dice_left'] == 1 else 'dice'}."
        )
    else:
        lines.append(f"{who} rolls {view['dice_left']} {'die' if view['dice_left'] == 1 else 'dice'}.")
    return "\n".join(lines)


def _set_text(view: JsonDict) -> str:
    kind = view["set_kind"]
    if kind == "identical":
        return f"identical, worth {view['set_points']}"
    if kind == "different":
        parts = [
            "-".join(chain) + (f" chain ({2 * len(chain)})" if len(chain) > 1 else " (1)") for chain in view["chains"]
        ]
        return f"different, {' + '.join(parts)} = {view['set_points']}"
    return "one dragon, worth 1 (still identical or different)"


def describe_turn(last: JsonDict) -> str:
    """One line on how the last turn ended."""
    who = f"seat {last['seat']}"
    if last["ended_by"] == "bust":
        held = dragons(last["collected"]) if last["collected"] else "nothing"
        # A variant may still score a bust: a consolation card drawn, or a fixed prize.
        prize = ", drew a consolation card" if last.get("prize_drawn") else ""
        return (
            f"Last turn: {who} held {held} and rolled {dragons(last['last_roll'])}: "
            f"[bold red]bust[/bold red]{prize}, {last['points']} points."
        )
    how = "collected all four" if last["ended_by"] == "four" else "stopped"
    return f"Last turn: {who} {how} with {dragons(last['collected'])} for {last['points']} points."


def dragons(colours: list[Any]) -> str:
    """Coloured dragon names for the terminal."""
    return " ".join(f"[{STYLE.get(c, 'white')}]{c}[/{STYLE.get(c, 'white')}]" for c in colours)


def _ring(view: JsonDict) -> str:
    faces = view["faces"]
    ring = " > ".join(f"{k} {dragons([c])}" for k, c in enumerate(faces, 1))
    if view["cyclic"]:
        ring += " > back to 1"
    return ring + f"  (duplicate bust: {view['duplicate_bust']})"


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
        text = describe_turn(last).replace("Last turn: ", "", 1)
        if me == last["seat"]:
            text = text.replace(f"seat {me} ", f"you (seat {me}) ", 1)
        lines.append(text)
    if seat is not None and seat != me:
        who = f"seat {seat}"
        if after["phase"] == "collect" and after["rolled"] and after["rolled"] != before.get("rolled"):
            lines.append(f"{who} rolls {dragons(after['rolled'])}.")
        if after["phase"] == "decide" and after["collected"] != before.get("collected"):
            lines.append(f"{who} collects and holds {dragons(after['collected'])}: {_set_text(after)}.")
    if after["round"] != before["round"] and not after["over"]:
        lines.append(f"[bold]Round {after['round']}[/bold] begins.")
    return lines


def action_words(view: JsonDict, action: Any) -> str:
    """Collect, stop or roll in plain words."""
    if action == "stop":
        return f"stop and score {view['set_points']}"
    if action == "roll":
        left = view["dice_left"]
        return f"roll the {left} other {'die' if left == 1 else 'dice'}"
    if isinstance(action, list):
        return "collect " + " and ".join(dragons([c]) for c in action)
    return str(action)


def decision_help(view: JsonDict) -> str:
    """What this decision means."""
    if view["phase"] == "collect":
        return (
            "Collect one or more of the dice just rolled that fit your set: all identical colours (n "
            "identical score n x n) or all different colours (linked chains score 2 per dragon, a lone "
            "dragon 1). Rolling no die that fits is a bust: 0 points for the turn."
        )
    return "Stop and score your set now, or roll the dice you have not collected (a bust scores 0)."
