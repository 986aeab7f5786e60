"""Text rendering of Eel family views (Rich markup), kept apart from the rules.

Seats are written ``seat N`` (the terminal puts its seat names in their place); a view carrying
``"narrated": True`` (added by the terminal, which has just told the grabs) leaves out the last grab.
"""

from __future__ import annotations

from gamebag.core.protocol import JsonDict
from gamebag.core.words import counted

SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    lines = [
        f"[bold]Round {view['round']}[/bold], grab {view['grab']} - start player: seat {view['start_player']}",
        _bag_line(view),
        f"Snakes in the centre: {_red(view['centre_snakes'])} of {view['threshold']} (outbreak at "
        f"{view['threshold']})",
    ]
    last = view.get("last_grab")
    if last and not view.get("narrated"):
        lines.append(describe_grab(last))
    lines.append("")
    lines.append(f"{'seat':<{SEAT_COLUMN}}  score  reserve  status")
    chosen = set(view.get("chosen", [])) | set((view.get("choices") or {}).get("chosen", []))
    for p in range(view["players"]):
        status = "in the round" if view["in_round"][p] else "out"
        if view["in_round"][p] and p in chosen and not view["over"]:
            status += ", has chosen"
        you = " (you)" if p == seat else ""
        lines.append(f"{f'seat {p}':<{SEAT_COLUMN}}  {view['scores'][p]:>5}  {view['reserves'][p]:>7}  {status}{you}")
    mine = view.get("my_pending_grab")
    if mine is None and view.get("choices"):
        mine = view["choices"].get("mine")
    if mine is not None and not view["over"]:
        lines.append(f"Your secret grab: {mine}")
    if view["over"]:
        lines.append(f"[bold green]Game over: {why_won(view)}[/bold green]")
    return "\n".join(lines)


def why_won(view: JsonDict) -> str:
    """Who won a finished game and why, in the rulebook's words."""
    scores, winners = view["scores"], view["winners"]
    best = max(scores)
    tied = [p for p, score in enumerate(scores) if score == best]
    who = f"{seat_list(winners)} {'wins' if len(winners) == 1 else 'share the win'}"
    if len(tied) > len(winners):  # Eel Harvest's tie rule decided it
        earlier = seat_list([p for p in tied if p not in winners])
        return (
            f"{who}: tied on the highest score, {best}, with {earlier}, who exited earlier in the final round "
            "(among tied players whoever exited earlier loses)."
        )
    reached = f"a score reached the target of {view['target']}, which ends the game"
    if len(winners) > 1:
        return f"{who}, tied on the highest score, {best} ({reached}; a tie is a shared win)."
    return f"{who} with the highest score, {best} ({reached})."


def seat_list(seats: list[int]) -> str:
    """``seat 1``, ``seat 1 and seat 2``, ``seat 0, seat 1 and seat 3`` (``nobody`` for none)."""
    names = [f"seat {p}" for p in seats]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _bag_line(view: JsonDict) -> str:
    bag = view["bag"]
    if bag.get("dice"):
        return "Draws are D4 rolls: each token is a snake with chance 1/4."
    return f"Bag: {_green(counted(bag['eels'], 'eel'))}, {_red(counted(bag['snakes'], 'snake'))}"


# Eels are green and snakes red wherever the terminal counts them (the web table's colours too).
def _green(text: object) -> str:
    return f"[green]{text}[/green]"


def _red(text: object) -> str:
    return f"[red]{text}[/red]"


def describe_grab(last: JsonDict) -> str:
    """One line per seat explaining what the last grab revealed."""
    parts = []
    for p, count in enumerate(last["counts"]):
        if count is None:
            continue
        if count == 0:
            parts.append(f"seat {p} exited scoring {last['scored'][p]}")
            continue
        eels, snakes = last["eels"][p], last["snakes"][p]
        text = f"seat {p} grabbed {count}: {_green(counted(eels, 'eel'))}, {_red(counted(snakes, 'snake'))}"
        if p in last["exited"]:
            text += f", then had to exit scoring {last['scored'][p]}"
        parts.append(text)
    line = "Last grab: " + "; ".join(parts) if parts else "Last grab: nobody drew"
    if last["outbreak"]:
        losers = last["losers"]
        lose = "loses" if len(losers) == 1 else "lose"
        line += f"\n[bold red]Snake outbreak![/bold red] {seat_list(losers)} {lose} their eels. {_spared(last)}"
    elif last["round_over"]:
        line += "\nEveryone has exited: the round is over."
    return line


def _spared(last: JsonDict) -> str:
    """What the outbreak gave the seats still in and not losing (an exit in the same grab is not theirs).

    Exits resolve before the outbreak (rules.py), so a seat that exited at this grab scored its
    reserve by exiting: the line above says so, and the outbreak credits it with nothing.
    """
    spared = [
        p
        for p, count in enumerate(last["counts"])
        if count and p not in last["exited"] and p not in last["losers"]
    ]
    if not spared:
        return "Nobody else was still in the round."
    gains = ", ".join(f"seat {p} +{last['scored'][p]}" for p in spared)
    return f"Spared by the outbreak: {gains}."


# ---- the terminal: events, choices in words, help ---------------------------------------------
def narrate(before: JsonDict | None, after: JsonDict) -> list[str]:
    """Every grab revealed between two views of one seat, the ones after it exited included."""
    lines: list[str] = []
    if before is None:
        return lines
    last = after.get("last_grab")
    moved_on = (after["round"], after["grab"]) != (before["round"], before["grab"])
    if last and (last != before.get("last_grab") or moved_on):
        # Named by its number: several grabs may be told at once, and the table shows the last one.
        told = describe_grab(last).replace("Last grab", f"Grab {before['grab']} of round {before['round']}", 1)
        lines.extend(told.split("\n"))
    if after["round"] != before["round"] and not after["over"]:
        lines.append(f"[bold]Round {after['round']}[/bold] begins; scores: " + _scores(after))
    return lines


def _scores(view: JsonDict) -> str:
    return ", ".join(f"seat {p} {score}" for p, score in enumerate(view["scores"]))


def action_words(view: JsonDict, action: object) -> str:
    """A grab count in plain words (0 is exiting)."""
    if action == 0:
        seat = view.get("seat")
        reserve = view["reserves"][seat] if isinstance(seat, int) else 0
        return f"exit: score the {counted(reserve, 'eel')} in your reserve and leave the round"
    return f"grab {counted(int(str(action)), 'token')}"


def decision_help(view: JsonDict) -> str:
    """What a grab decision means."""
    return (
        f"Everyone still in the round chooses at the same time, in secret, how many tokens to grab "
        f"(0 to {view['max_grab']}). Drawn eels go to your reserve, snakes to the centre. 0 means exit: you "
        f"score your reserve and are out of the round. When the snakes in the centre reach "
        f"{view['threshold']}, a snake outbreak ends the round (see the rules for who loses their eels)."
    )
