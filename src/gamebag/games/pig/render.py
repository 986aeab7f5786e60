"""Text rendering of Pig views (Rich markup), kept apart from the rules."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict

SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    lines = [f"[bold]Pig[/bold] - first to {view['goal']} wins. Round {view['round']}."]
    for p, score in enumerate(view["scores"]):
        marks = []
        if p == view["turn_seat"]:
            marks.append("to play")
        if p == seat:
            marks.append("you")
        suffix = f"  ({', '.join(marks)})" if marks else ""
        lines.append(f"{f'seat {p}':<{SEAT_COLUMN}}  {score:>4}{suffix}")
    last = view["last_roll"]
    if view["over"]:
        winner = view["winners"][0]
        lines.append(
            f"Rolled {last}. [bold green]Game over: seat {winner} wins, the first to reach the goal of "
            f"{view['goal']} ({view['scores'][winner]} points).[/bold green]"
        )
    elif view["phase"] == "decide":
        lines.append(f"Rolled {last}. Turn total [bold]{view['turn_total']}[/bold]: hold (bank it) or roll again.")
    else:
        if last == 1:
            lines.append("[red]The last roll was a 1: that turn's total was lost.[/red]")
        lines.append(f"Seat {view['turn_seat']} rolls the die.")
    return "\n".join(lines)


# ---- the terminal: events, choices in words, help ---------------------------------------------
def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """Every roll and every hold between two views of one seat."""
    if before is None:
        return []
    lines: list[str] = []
    for seat, (old, new) in enumerate(zip(before["scores"], after["scores"], strict=True)):
        if new != old:
            lines.append(f"seat {seat} holds and banks {new - old}: {new} in all.")
    roller = before["turn_seat"]
    if roller is None:
        return lines
    if after["last_roll"] == 1 and after["turn_seat"] != roller:
        lines.append(f"seat {roller} rolls a 1: the turn total is lost.")
    elif after["turn_seat"] == roller and after["last_roll"] is not None and (
        (after["last_roll"], after["turn_total"]) != (before["last_roll"], before["turn_total"])
    ):
        lines.append(f"seat {roller} rolls {after['last_roll']} (turn total {after['turn_total']}).")
    return lines


def action_words(view: JsonDict, action: object) -> str:
    if action == "hold":
        return f"hold: bank your turn total of {view['turn_total']}"
    return "roll the die" if action == "roll" else str(action)


def decision_help(view: JsonDict) -> str:
    return (
        f"Roll to add the die to your turn total (a 1 loses it and ends your turn), or hold to bank it. "
        f"First to {view['goal']} wins."
    )
