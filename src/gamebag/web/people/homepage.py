"""A person's home page: their tables (their move first), their finished games, their statistics.

Whose tables: a signed-in person's are the seats their account owns (``owners.py``); a guest's
are the seats whose tokens their browser holds and posts (each token checked against its table
here: the answer covers only the seats of the tokens given). Everything shown is public at the
table: the game, the seats' names, whose move it is (every reader of a table sees it), and,
once a game is over, its places, scores and winners (``people_outcomes``). No hand, no pending
choice, no view of any seat is read here.

Bounded: at most ``MAX_TOKENS`` tokens a request, ``OPEN_LIMIT`` open tables (each may need
loading to tell whose move it is), finished games a page of ``PAGE_SIZE`` at a time, and the
statistics over the newest ``STATS_LIMIT`` finished games.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

import gamebag
from gamebag.core.errors import GamebagError
from gamebag.core.results import HIGHER_IS_BETTER, LOWER_IS_BETTER
from gamebag.web.admission.bounds import LobbyError
from gamebag.web.people.owners import seats_of_account
from gamebag.web.people.standingrows import OutcomeRow
from gamebag.web.store.db import SeatRow, TableRow
from gamebag.web.tables.lobbyrows import SummaryRow
from gamebag.web.words.text import N_, _

MAX_TOKENS = 100
OPEN_LIMIT = 20
PAGE_SIZE = 20
MAX_PAGE = 500
STATS_LIMIT = 1000

TEXT = {
    "body": N_('the body must be {"seats": [{"table": "<id>", "token": "<seat token>"}, ...], "page": <0 or more>}'),
    "too_many": N_("at most {limit} seats may be asked about at once"),
}

Mine = dict[str, int]  # table id -> the asker's seat there


@dataclass(frozen=True)
class HomeRequest:
    tokens: tuple[tuple[str, str], ...]
    page: int


def parse_home(data: Any) -> HomeRequest:
    """A home request, checked (``LobbyError`` in players' words)."""
    if not isinstance(data, dict) or set(data) - {"seats", "page"}:
        raise LobbyError(_(TEXT["body"]))
    seats, page = data.get("seats", []), data.get("page", 0)
    if not isinstance(seats, list) or isinstance(page, bool) or not isinstance(page, int) or not 0 <= page <= MAX_PAGE:
        raise LobbyError(_(TEXT["body"]))
    if len(seats) > MAX_TOKENS:
        raise LobbyError(_(TEXT["too_many"], limit=MAX_TOKENS))
    tokens = []
    for item in seats:
        if not isinstance(item, dict) or set(item) != {"table", "token"}:
            raise LobbyError(_(TEXT["body"]))
        table, token = item["table"], item["token"]
        if (
            not isinstance(table, str)
            or not isinstance(token, str)
            or not 0 < len(table) <= 64
            or not 0 < len(token) <= 128
        ):
            raise LobbyError(_(TEXT["body"]))
        tokens.append((table, token))
    return HomeRequest(tuple(tokens), page)


def score_sign(game_id: str) -> int:
    """The game's score direction (+1 higher is better), read through its class; +1 for a game gone."""
    try:
        return LOWER_IS_BETTER if gamebag.entry(game_id).game_class.lower_score_wins else HIGHER_IS_BETTER
    except GamebagError:
        return HIGHER_IS_BETTER


def my_seats(engine: Engine, tokens: tuple[tuple[str, str], ...], account: str | None) -> Mine:
    """The asker's seats: the claimed seats whose tokens were given, and their account's seats."""
    mine: Mine = {}
    with engine.connect() as connection:
        wanted = sorted({table for table, __ in tokens})
        if wanted:
            rows = connection.execute(
                select(SeatRow.table_id, SeatRow.seat, SeatRow.token, SeatRow.claimed, SeatRow.agent).where(
                    SeatRow.table_id.in_(wanted)
                )
            ).all()
            given = set(tokens)
            for table_id, seat, token, claimed, agent in rows:
                if claimed is False or agent is not None:
                    continue  # an invite code nobody claimed is no one's seat yet
                if any(t == table_id and secrets.compare_digest(k.encode(), token.encode()) for t, k in given):
                    mine[str(table_id)] = int(seat)
        if account is not None:
            for table_id, seat in seats_of_account(connection, account):
                mine.setdefault(table_id, seat)
    return mine


def home_rows(engine: Engine, mine: Mine, page: int) -> dict[str, Any]:
    """The asker's open tables (newest first, at most ``OPEN_LIMIT``), a page of finished games and
    per-game statistics, from the database alone (whose move it is is added by the caller)."""
    if not mine:
        return {"open": [], "finished": [], "stats": [], "page": page, "more": False}
    ids = sorted(mine)
    with engine.connect() as connection:
        tables = connection.execute(
            select(
                TableRow.id, TableRow.game, TableRow.players, TableRow.finished, TableRow.closed, TableRow.created_at
            )
            .where(TableRow.id.in_(ids))
            .order_by(TableRow.created_at.desc())
        ).all()
        names: dict[str, dict[int, str]] = {}
        for table_id, seat, name in connection.execute(
            select(SeatRow.table_id, SeatRow.seat, SeatRow.name).where(SeatRow.table_id.in_(ids))
        ):
            names.setdefault(str(table_id), {})[int(seat)] = str(name)
        winners = {
            str(t): json.loads(w)
            for t, w in connection.execute(
                select(SummaryRow.table_id, SummaryRow.winners).where(SummaryRow.table_id.in_(ids))
            )
            if w is not None
        }
        outcomes: dict[str, dict[int, tuple[int, float, bool]]] = {}
        for table_id, seat, place, score, won in connection.execute(
            select(OutcomeRow.table_id, OutcomeRow.seat, OutcomeRow.place, OutcomeRow.score, OutcomeRow.won).where(
                OutcomeRow.table_id.in_(ids)
            )
        ):
            outcomes.setdefault(str(table_id), {})[int(seat)] = (int(place), float(score), bool(won))
    open_rows, finished_rows = [], []
    for table_id, game, players, finished, closed, created_at in tables:
        seat = mine[str(table_id)]
        seat_names = names.get(str(table_id), {})
        row: dict[str, Any] = {
            "id": table_id,
            "game": game,
            "players": players,
            "created_at": created_at,
            "seat": seat,
            "seat_names": [seat_names.get(s, "") for s in range(players)],
            "play": f"/play/{table_id}",
        }
        if finished:
            row.update(_finished_facts(str(table_id), seat, winners.get(str(table_id)), outcomes.get(str(table_id))))
            finished_rows.append(row)
        elif closed is None:
            open_rows.append(row)
    start = page * PAGE_SIZE
    return {
        "open": open_rows[:OPEN_LIMIT],
        "finished": finished_rows[start : start + PAGE_SIZE],
        "page": page,
        "more": len(finished_rows) > start + PAGE_SIZE,
        "stats": statistics(finished_rows[:STATS_LIMIT]),
    }


def _finished_facts(
    table_id: str, seat: int, winners: list[int] | None, outcome: dict[int, tuple[int, float, bool]] | None
) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "winners": winners,
        "replay": f"/replay/{table_id}",
        "analysis": f"/api/tables/{table_id}/analysis",  # the replay page shows it step by step
        "record": f"/api/tables/{table_id}/record",
        "place": None,
        "score": None,
        "won": None if winners is None else seat in winners,
        "scores": None,
    }
    if outcome is not None and seat in outcome:
        place, score, won = outcome[seat]
        facts.update(place=place, score=score, won=won, scores=[outcome[s][1] for s in sorted(outcome)])
    return facts


def statistics(finished: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per game: games, wins, average place and best score (in the game's direction) of the asker."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for row in finished:
        by_game.setdefault(row["game"], []).append(row)
    stats = []
    for game, rows in sorted(by_game.items()):
        places = [row["place"] for row in rows if row["place"] is not None]
        scores = [row["score"] for row in rows if row["score"] is not None]
        sign = score_sign(game)
        best = max(scores, key=lambda score: sign * score) if scores else None
        stats.append(
            {
                "game": game,
                "games": len(rows),
                "wins": sum(1 for row in rows if row["won"]),
                "average_place": round(sum(places) / len(places), 2) if places else None,
                "best_score": best,
                "lower_score_wins": sign == LOWER_IS_BETTER,
            }
        )
    return stats
