"""The messages the server sends, each built from what its reader may know.

A seat's message holds that seat's observation (``Match.view``), its own legal
actions, the table's public facts (names, who is a bot, who is connected, the
turn clock) and, on a full sync, that seat's own views of earlier steps, from
which the browser writes the log (every event's view within the last ``HISTORY_STEPS``
steps), and after a change of several events (a move and the rolls it led to) the
views between them (``trail``), so that each event gets its line. A spectator's
message holds the public view.
Nothing here ever reads another seat's observation or the hidden state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import Any

from gamebag.core.i18n import game_text
from gamebag.core.protocol import JsonDict
from gamebag.core.results import LOWER_IS_BETTER, competition_ranks, standing_keys
from gamebag.web.tables.coachsetting import CoachSetting
from gamebag.web.tables.live import HISTORY_STEPS as HISTORY_STEPS  # the history's length, for readers of messages
from gamebag.web.tables.live import LiveTable
from gamebag.web.tables.turnclock import forced_places


def dumps(message: JsonDict) -> str:
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def table_meta(
    table: LiveTable, connected: Collection[int], deadline: float | None, clock_waits: bool = False
) -> JsonDict:
    """The public facts of a table (the same for every reader); ``clock_waits``: the turn clock
    waits until every person's seat has connected (or the host starts it)."""
    cls = type(table.game)
    return {
        "id": table.id,
        "game": table.game.game_id,
        "title": game_text(cls, cls.title),
        "players": table.game.num_players,
        "options": dict(table.config.options),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.agent is not None,
                "agent": s.agent,
                "connected": s.seat in connected,
                "claimed": s.agent is None and s.claimed,  # a device holds the seat (its invite is used)
            }
            for s in table.seats
        ],
        "turn_seconds": table.config.turn_seconds,
        "deadline_in": None if deadline is None else max(0.0, round(deadline - time.monotonic(), 2)),
        "clock_waits": clock_waits,
        "finished": table.is_over,
        "step": table.step,
        "coach": CoachSetting.parse(table.config.coach).public(table.human_seats()),
    }


def result_json(table: LiveTable) -> JsonDict | None:
    """Scores and winners once the game is over (public then), else None.

    ``places`` ranks the seats as a tournament does (share of the win, then score in the
    game's direction; ties share a place) and ``lower_score_wins`` says which way scores
    count, so that the end screen lists the standings best first in every game.
    """
    if not table.is_over:
        return None
    state = table.match.state
    game = table.game
    scores = game.scores(state)
    sign = game.score_sign()
    return {
        "winners": list(game.winners(state)),
        "scores": [_plain(s) for s in scores],
        "places": competition_ranks(standing_keys(game.returns(state), scores, sign)),
        "lower_score_wins": sign == LOWER_IS_BETTER,
    }


def state_message(
    table: LiveTable,
    seat: int | None,
    meta: JsonDict,
    *,
    summary: JsonDict | None = None,
    rematch: LiveTable | None = None,
    own: JsonDict | None = None,
) -> JsonDict:
    """The whole picture for one seat (or a spectator when ``seat`` is None).

    Once the game is over, ``result`` also holds the end ``summary`` (scores by round and
    every seat's final view: the record is public by then). Once a rematch is open,
    ``next`` says where: with this seat's own new invite for a seat, the watch link for
    a spectator. ``own``: facts for this seat alone (the moves made for it, ``forcing.py``).
    """
    message: JsonDict = {
        "type": "state",
        "seat": seat,
        "step": table.step,
        "table": meta,
        "view": table.view(seat),
        "legal": [] if seat is None else table.legal_json(seat),
        "result": result_json(table),
        "at": time.time(),
    }
    if own:
        message.update(own)
    out = {bank["seat"] for bank in (meta.get("banks") or {}).get("seats", []) if bank["out"]}
    if out and message["result"] is not None:
        message["result"] = forfeit_result(message["result"], out)
    if summary is not None and message["result"] is not None:
        message["result"] = {**message["result"], **summary}
    if rematch is not None:
        message["next"] = {"id": rematch.id, "path": rematch_path(rematch, seat)}
    trail = table.trail_views(seat)
    if trail is not None:
        message["trail"] = trail
    return message


def sync_text(
    table: LiveTable,
    seat: int | None,
    meta: JsonDict,
    *,
    history: bool = True,
    summary: JsonDict | None = None,
    rematch: LiveTable | None = None,
    own: JsonDict | None = None,
) -> str:
    """``state_message`` as text, with ``history`` (the seat's view after every event since the
    first of its last ``HISTORY_STEPS`` steps) as its last key: views the table keeps already
    serialized (``LiveTable.history_json``)."""
    text = dumps(state_message(table, seat, meta, summary=summary, rematch=rematch, own=own))
    if not history:
        return text
    return f'{text[:-1]},"history":{table.history_json(seat)}}}'


def forfeit_result(result: JsonDict, out: set[int]) -> JsonDict:
    """The result with the forfeited seats (their bank ran out, ``banks.py``) placed last and never winners."""
    places = forced_places(list(result["places"]), out)
    winners = [seat for seat in result["winners"] if seat not in out]
    if not winners:
        winners = [seat for seat, place in enumerate(places) if place == 1]
    return {**result, "places": places, "winners": winners, "forfeited": sorted(out)}


def record_with_forfeits(table: LiveTable, out: set[int]) -> JsonDict:
    """The finished table's record (``LiveTable.record_json``); where seats forfeited (their bank ran
    out), its metadata says which, with the standings that place them last and the winners without them.
    The events are the game as played (the timeout agent's decisions for the forfeited seats included)."""
    record = table.record_json()
    result = result_json(table)
    if out and result is not None:
        forced = forfeit_result(result, out)
        record["meta"].update(forfeited=forced["forfeited"], places=forced["places"], winners=forced["winners"])
    return record


def rematch_path(rematch: LiveTable, seat: int | None) -> str:
    """Where a reader continues at the ``rematch`` table.

    The rematch gives each seat a fresh token; a seat's new token goes only to that
    seat (the reader that holds its old one); spectators and bot seats get the watch link.
    """
    if seat is None or rematch.seats[seat].agent is not None or not rematch.seats[seat].claimed:
        return f"/play/{rematch.id}"
    return f"/play/{rematch.id}#seat={rematch.seats[seat].token}"


def error_message(text: str, ref: Any = None) -> JsonDict:
    return {"type": "error", "message": text, "ref": ref if isinstance(ref, int | str) else None}


def _plain(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
