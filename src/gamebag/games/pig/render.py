"""Text rendering of Pig views (Rich markup), kept apart from the rules."""

from __future__ import annotations

from gamebag.core.protocol import JsonDict


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
        lines.append(f"seat {p}: {score:>4}{suffix}")
    last = view["last_roll"]
    if view["over"]:
        winner = view["winners"][0]
        lines.append(f"Rolled {last}. [bold green]Game over: seat {winner} wins.[/bold green]")
    elif view["phase"] == "decide":
        lines.append(f"Rolled {last}. Turn total [bold]{view['turn_total']}[/bold]: hold (bank it) or roll again.")
    else:
        if last == 1:
            lines.append("[red]The last roll was a 1: that turn's total was lost.[/red]")
        lines.append(f"Seat {view['turn_seat']} rolls the die.")
    return "\n".join(lines)
