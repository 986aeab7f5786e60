"""Text rendering of Eel family views (Rich markup), kept apart from the rules.

Every sentence is made in the reader's language (``translation``: the ``eel_family`` catalogue).
Seats are written ``seat N`` in every language: a language-neutral mark that the terminal replaces
with its seat names; a view carrying ``"narrated": True`` (added by the terminal, which has just told
the grabs) leaves out the last grab.
"""

from __future__ import annotations

import unicodedata

from gamebag.core.i18n import current_language, join_list
from gamebag.core.protocol import JsonDict
from gamebag.games.eel_family.translation import _, ngettext

SEAT_COLUMN = 8  # wide enough for the terminal's seat names ("Player 8")


def seat_mark(p: int) -> str:
    """The seat as the game's words write it: ``seat N`` (the terminal puts the seat's name there)."""
    return f"seat {p}"


def render_view(view: JsonDict) -> str:
    """The table as one player (or a spectator) sees it."""
    seat = view.get("seat")
    lines = [
        # Translators: {seat} is "seat N", which the terminal replaces with the seat's name; keep the
        # [bold]...[/bold] marks (the terminal's colours) around the same words.
        _(
            "[bold]Round {round}[/bold], grab {grab} - start player: {seat}",
            round=view["round"],
            grab=view["grab"],
            seat=seat_mark(view["start_player"]),
        ),
        _bag_line(view),
        _(
            "Snakes in the centre: {snakes} of {threshold} (outbreak at {threshold})",
            snakes=_red(view["centre_snakes"]),
            threshold=view["threshold"],
        ),
    ]
    last = view.get("last_grab")
    if last and not view.get("narrated"):
        lines.append(describe_grab(last))
    lines.append("")
    seat_head, score_head, reserve_head, status_head = _("seat"), _("score"), _("reserve"), _("status")
    score_width, reserve_width = max(5, _width(score_head)), max(7, _width(reserve_head))
    lines.append(
        f"{_pad(seat_head, SEAT_COLUMN)}  {_pad(score_head, score_width, right=True)}  "
        f"{_pad(reserve_head, reserve_width, right=True)}  {status_head}"
    )
    chosen = set(view.get("chosen", [])) | set((view.get("choices") or {}).get("chosen", []))
    for p in range(view["players"]):
        if not view["in_round"][p]:
            status = _("out")
        elif p in chosen and not view["over"]:
            status = _("in the round, has chosen")
        else:
            status = _("in the round")
        if p == seat:
            status = _("{status} (you)", status=status)
        lines.append(
            f"{seat_mark(p):<{SEAT_COLUMN}}  {view['scores'][p]:>{score_width}}  "
            f"{view['reserves'][p]:>{reserve_width}}  {status}"
        )
    mine = view.get("my_pending_grab")
    if mine is None and view.get("choices"):
        mine = view["choices"].get("mine")
    if mine is not None and not view["over"]:
        lines.append(_("Your secret grab: {count}", count=mine))
    if view["over"]:
        lines.append("[bold green]" + _("Game over: {reason}", reason=why_won(view)) + "[/bold green]")
    return "\n".join(lines)


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal: Japanese and Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal columns (on the left when ``right``)."""
    gap = " " * max(0, width - _width(text))
    return gap + text if right else text + gap


def _sentences(*texts: str) -> str:
    """Sentences side by side: a space between them, none in Japanese and Chinese."""
    gap = "" if current_language() in ("ja", "zh_Hans") else " "
    return gap.join(text for text in texts if text)


def why_won(view: JsonDict) -> str:
    """Who won a finished game and why, in the rulebook's words."""
    scores, winners = view["scores"], view["winners"]
    best = max(scores)
    tied = [p for p, score in enumerate(scores) if score == best]
    who = seat_list(winners)
    if len(tied) > len(winners):  # Eel Harvest's tie rule decided it
        earlier = seat_list([p for p in tied if p not in winners])
        if len(winners) == 1:
            return _(
                "{who} wins: tied on the highest score, {best}, with {earlier}, who exited earlier in the final "
                "round (among tied players whoever exited earlier loses).",
                who=who,
                best=best,
                earlier=earlier,
            )
        return _(
            "{who} share the win: tied on the highest score, {best}, with {earlier}, who exited earlier in the "
            "final round (among tied players whoever exited earlier loses).",
            who=who,
            best=best,
            earlier=earlier,
        )
    if len(winners) > 1:
        return _(
            "{who} share the win, tied on the highest score, {best} (a score reached the target of {target}, "
            "which ends the game; a tie is a shared win).",
            who=who,
            best=best,
            target=view["target"],
        )
    return _(
        "{who} wins with the highest score, {best} (a score reached the target of {target}, which ends the game).",
        who=who,
        best=best,
        target=view["target"],
    )


def seat_list(seats: list[int]) -> str:
    """``seat 1``, ``seat 1 and seat 2``, ``seat 0, seat 1, and seat 3`` (``nobody`` for none), as
    the reader's language lists them."""
    if not seats:
        return _("nobody")
    return join_list([seat_mark(p) for p in seats])


def _bag_line(view: JsonDict) -> str:
    bag = view["bag"]
    if bag.get("dice"):
        return _("Draws are D4 rolls: each token is a snake with chance 1/4.")
    return _("Bag: {eels}, {snakes}", eels=_green(_eels(bag["eels"])), snakes=_red(_snakes(bag["snakes"])))


def _eels(n: int) -> str:
    return ngettext("{n} eel", "{n} eels", n)


def _snakes(n: int) -> str:
    return ngettext("{n} snake", "{n} snakes", n)


# Eels are green and snakes red wherever the terminal counts them (the web table's colours too).
def _green(text: object) -> str:
    return f"[green]{text}[/green]"


def _red(text: object) -> str:
    return f"[red]{text}[/red]"


def describe_grab(last: JsonDict, heading: str | None = None) -> str:
    """One line per seat explaining what the last grab revealed (``heading``: the line's start,
    "Last grab" in the reader's language by default)."""
    parts = []
    for p, count in enumerate(last["counts"]):
        if count is None:
            continue
        seat = seat_mark(p)
        if count == 0:
            parts.append(_("{seat} exited scoring {points}", seat=seat, points=last["scored"][p]))
            continue
        eels, snakes = _green(_eels(last["eels"][p])), _red(_snakes(last["snakes"][p]))
        if p in last["exited"]:
            parts.append(
                _(
                    "{seat} grabbed {count}: {eels}, {snakes}, then had to exit scoring {points}",
                    seat=seat,
                    count=count,
                    eels=eels,
                    snakes=snakes,
                    points=last["scored"][p],
                )
            )
        else:
            parts.append(
                _("{seat} grabbed {count}: {eels}, {snakes}", seat=seat, count=count, eels=eels, snakes=snakes)
            )
    heading = _("Last grab") if heading is None else heading
    line = (
        # Translators: {events} is each seat's part of one grab, joined by the separator "; ".
        _("{heading}: {events}", heading=heading, events=_("; ").join(parts))
        if parts
        else _("{heading}: nobody drew", heading=heading)
    )
    if last["outbreak"]:
        losers = last["losers"]
        lose = (
            _("{seats} loses their eels.", seats=seat_list(losers))
            if len(losers) == 1
            else _("{seats} lose their eels.", seats=seat_list(losers))
        )
        line += "\n" + _sentences("[bold red]" + _("Snake outbreak!") + "[/bold red]", lose, _spared(last))
    elif last["round_over"]:
        line += "\n" + _("Everyone has exited: the round is over.")
    return line


def _spared(last: JsonDict) -> str:
    """What the outbreak gave the seats still in and not losing (an exit in the same grab is not theirs).

    Exits resolve before the outbreak (rules.py), so a seat that exited at this grab scored its
    reserve by exiting: the line above says so, and the outbreak credits it with nothing.
    """
    spared = [
        p for p, count in enumerate(last["counts"]) if count and p not in last["exited"] and p not in last["losers"]
    ]
    if not spared:
        return _("Nobody else was still in the round.")
    # Translators: the separator between the items of a list of seats and scores ("seat 0 +3, seat 2 +1").
    gains = _(", ").join(f"{seat_mark(p)} +{last['scored'][p]}" for p in spared)
    return _("Spared by the outbreak: {gains}.", gains=gains)


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
        heading = _("Grab {grab} of round {round}", grab=before["grab"], round=before["round"])
        lines.extend(describe_grab(last, heading).split("\n"))
    if after["round"] != before["round"] and not after["over"]:
        lines.append(
            _("[bold]Round {round}[/bold] begins; scores: {scores}", round=after["round"], scores=_scores(after))
        )
    return lines


def _scores(view: JsonDict) -> str:
    return _(", ").join(f"{seat_mark(p)} {score}" for p, score in enumerate(view["scores"]))


def action_words(view: JsonDict, action: object) -> str:
    """A grab count in plain words (0 is exiting)."""
    if action == 0:
        seat = view.get("seat")
        reserve = view["reserves"][seat] if isinstance(seat, int) else 0
        return ngettext(
            "exit: score the {n} eel in your reserve and leave the round",
            "exit: score the {n} eels in your reserve and leave the round",
            reserve,
        )
    count = int(str(action))
    return ngettext("grab {n} token", "grab {n} tokens", count)


def decision_help(view: JsonDict) -> str:
    """What a grab decision means."""
    return _(
        "Everyone still in the round chooses at the same time, in secret, how many tokens to grab "
        "(0 to {most}). Drawn eels go to your reserve, snakes to the centre. 0 means exit: you "
        "score your reserve and are out of the round. When the snakes in the centre reach "
        "{threshold}, a snake outbreak ends the round (see the rules for who loses their eels).",
        most=view["max_grab"],
        threshold=view["threshold"],
    )
