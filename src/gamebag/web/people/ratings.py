"""Results and ratings of finished tables: who placed where, and openskill ratings of accounts.

When a listed table (``web_listings``) finishes, ``settle`` replays its record once (in a
thread: ``upkeep.py`` calls it off the event loop) and writes, in one transaction:

* each seat's outcome (``people_outcomes``): its place by standing (share of the win, then
  score in the game's own direction, ``gamebag.core.results``: lowest-wins games count right),
  its score and whether it won: the home page's history and statistics;
* for a rated table, the new ratings of the accounts that own its seats (``people_ratings``)
  and one point of their history each (``people_rating_history``).

The model: openskill's Plackett-Luce, one rating per account, game and player count, every
seat a one-player team ranked by its place (ties share a place). A new account starts at the
model's prior (mu 25, sigma 25/3). Bots are fixed-strength anchors: every bot seat enters the
update with its agent's anchor rating (``ANCHORS``) and is never updated itself, so a rating
reads as "how you fare against heuristic or learned". Guests (seats no account owns) enter at
the prior and are not stored: a guest neither gains nor keeps a rating, but the accounts at the
table are rated against them as against an unknown newcomer. A table with no account is not rated.
An account is provisional until ``PROVISIONAL_GAMES`` rated games; its rating is shown as mu
with its uncertainty (plus or minus two sigma), and leaderboards order by the ordinal mu - 3 sigma.
"""

from __future__ import annotations

import json
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

import gamebag
from gamebag.core.records import apply_event
from gamebag.core.results import competition_ranks, standing_keys
from gamebag.web.people import accounts
from gamebag.web.people.owners import account_names, owners_of_table
from gamebag.web.people.standingrows import ListingRow, OutcomeRow, RatingHistoryRow, RatingRow
from gamebag.web.store.clockstore import forfeited_seats
from gamebag.web.store.db import EventRow, SeatRow, TableRow, now
from gamebag.web.tables.turnclock import forced_places

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6: openskill's defaults
PROVISIONAL_GAMES = 5  # rated games before a rating is shown as settled
ANCHOR_SIGMA = 1.0  # an anchor is near certain: people move around it, not it around them
# Fixed defaults, by agent name (a spec's part before ':'): random well below a newcomer, the
# heuristic at the newcomer's prior (a fair first opponent), the learned policy above it. They
# are fixed on purpose (a scale, not a measurement); re-measuring them from bot-against-bot
# games with the lab would shift every rating by the same amount.
ANCHORS: dict[str, float] = {"random": 15.0, "heuristic": 25.0, "learned": 30.0}
DEFAULT_ANCHOR = 25.0  # any other agent (a search, an exact player) until it is given its own
HISTORY_POINTS = 200  # a profile's plot shows at most this many recent points per rating
LEADERBOARD_LIMIT = 100


def anchor_of(spec: str) -> tuple[float, float]:
    """A bot's fixed rating (mu, sigma): by its full spec if listed, else by its agent name."""
    mu = ANCHORS.get(spec, ANCHORS.get(spec.split(":", 1)[0], DEFAULT_ANCHOR))
    return mu, ANCHOR_SIGMA


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def rating_json(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as pages show it: mu with its uncertainty (two sigma), the ordinal, provisional or not."""
    return {
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "interval": [round(mu - 2 * sigma, 2), round(mu + 2 * sigma, 2)],
        "ordinal": round(ordinal(mu, sigma), 2),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
    }


def _final_places(
    game_id: str, players: int, options: dict[str, Any], events: list[Any]
) -> tuple[list[int], list[float], list[bool]]:
    """Each seat's place, score and win in the finished game the record's events tell."""
    game = gamebag.make(game_id, players, **options)
    state = game.initial_state()
    for event in events:
        state = apply_event(game, state, event)
    scores = [float(score) for score in game.scores(state)]
    keys = standing_keys(game.returns(state), scores, game.score_sign())
    winners = set(game.winners(state))
    return competition_ranks(keys), scores, [seat in winners for seat in range(players)]


def unsettled(engine: Engine, limit: int = 20) -> list[str]:
    """Finished listed tables whose outcome is not written yet (oldest first)."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(ListingRow.table_id)
            .join(TableRow, TableRow.id == ListingRow.table_id)
            .where(TableRow.finished.is_(True), ListingRow.settled.is_(False))
            .order_by(TableRow.created_at)
            .limit(limit)
        )
        return [str(row[0]) for row in rows]


def settle(engine: Engine, table_id: str) -> bool:
    """Write a finished table's outcome and (rated) its accounts' new ratings, once: the listing is
    marked settled in the same transaction, so of two processes only one writes. True if this call did."""
    with engine.connect() as connection:
        table = connection.execute(
            select(TableRow.game, TableRow.players, TableRow.options, TableRow.finished).where(TableRow.id == table_id)
        ).first()
        if table is None or not table.finished:
            return False
        events = [
            json.loads(data)
            for data in connection.execute(
                select(EventRow.data).where(EventRow.table_id == table_id).order_by(EventRow.index)
            ).scalars()
        ]
        agents = dict(connection.execute(select(SeatRow.seat, SeatRow.agent).where(SeatRow.table_id == table_id)).all())
        out = forfeited_seats(connection, table_id)
    options = json.loads(table.options)
    places, scores, won = _final_places(table.game, table.players, options, events)
    if out:
        # A seat whose time bank ran out with "forfeit" is placed last and rated as its person's,
        # though the timeout agent made its remaining decisions (``tables/banks.py``).
        places = forced_places(places, out)
        won = [w and seat not in out for seat, w in enumerate(won)]
        agents.update(dict.fromkeys(out))
    at = now()
    with engine.begin() as connection:
        claimed = connection.execute(
            update(ListingRow)
            .where(ListingRow.table_id == table_id, ListingRow.settled.is_(False))
            .values(settled=True)
        ).rowcount
        if not claimed:
            return False
        connection.execute(
            insert(OutcomeRow),
            [
                {
                    "table_id": table_id,
                    "seat": seat,
                    "game": table.game,
                    "players": table.players,
                    "place": places[seat],
                    "score": scores[seat],
                    "won": won[seat],
                    "finished_at": at,
                }
                for seat in range(table.players)
            ],
        )
        rated = connection.execute(select(ListingRow.rated).where(ListingRow.table_id == table_id)).scalar()
        if rated:
            _rate(connection, table_id, table.game, table.players, places, agents, at)
    return True


def _rate(
    connection: Connection,
    table_id: str,
    game: str,
    players: int,
    places: list[int],
    agents: dict[int, str | None],
    at: float,
) -> None:
    """Update the ratings of the accounts owning the table's people's seats (bots anchor, guests at the prior)."""
    owners = {
        seat: account for seat, account in owners_of_table(connection, table_id).items() if agents.get(seat) is None
    }
    if not owners:
        return
    current = {
        row.account_id: row
        for row in connection.execute(
            select(RatingRow)
            .where(
                RatingRow.account_id.in_(sorted(set(owners.values()))),
                RatingRow.game == game,
                RatingRow.players == players,
            )
            .with_for_update()  # two processes settling two tables of one account: one after the other
        ).all()
    }
    teams = []
    for seat in range(players):
        agent, account = agents.get(seat), owners.get(seat)
        if agent is not None:
            mu, sigma = anchor_of(agent)
        elif account is not None and account in current:
            mu, sigma = current[account].mu, current[account].sigma
        else:
            mu, sigma = MODEL.mu, MODEL.sigma  # a newcomer, or a guest
        teams.append([MODEL.create_rating([mu, sigma])])
    updated = MODEL.rate(teams, ranks=[float(place) for place in places])
    moves: dict[str, list[tuple[float, float]]] = {}
    for seat, account in owners.items():
        moves.setdefault(account, []).append((updated[seat][0].mu, updated[seat][0].sigma))
    for account, results in sorted(moves.items()):
        mu = sum(m for m, _ in results) / len(results)  # one account at several seats: their mean
        sigma = sum(s for _, s in results) / len(results)
        row = current.get(account)
        if row is None:
            connection.execute(
                insert(RatingRow).values(
                    account_id=account, game=game, players=players, mu=mu, sigma=sigma, games=1, updated_at=at
                )
            )
        else:
            connection.execute(
                update(RatingRow)
                .where(RatingRow.account_id == account, RatingRow.game == game, RatingRow.players == players)
                .values(mu=mu, sigma=sigma, games=row.games + 1, updated_at=at)
            )
        connection.execute(
            insert(RatingHistoryRow).values(
                account_id=account, game=game, players=players, table_id=table_id, mu=mu, sigma=sigma, at=at
            )
        )


def leaderboard(connection: Connection, game: str, players: int, limit: int, offset: int) -> dict[str, Any]:
    """The accounts rated in ``game`` at ``players``, best ordinal first, and the bots' anchors."""
    rows = connection.execute(
        select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma, RatingRow.games)
        .where(RatingRow.game == game, RatingRow.players == players)
        .order_by((RatingRow.mu - 3.0 * RatingRow.sigma).desc(), RatingRow.account_id)
        .limit(limit)
        .offset(offset)
    ).all()
    names = account_names(connection, [row[0] for row in rows])
    entries = [
        {
            "rank": offset + index + 1,
            "account": row[0],
            "name": names.get(row[0], "?"),
            **rating_json(row[1], row[2], row[3]),
        }
        for index, row in enumerate(rows)
    ]
    total = connection.execute(
        select(func.count()).select_from(RatingRow).where(RatingRow.game == game, RatingRow.players == players)
    ).scalar()
    anchors = [
        {"agent": name, "mu": mu, "sigma": ANCHOR_SIGMA} for name, mu in sorted(ANCHORS.items(), key=lambda kv: -kv[1])
    ]
    return {"game": game, "players": players, "total": int(total or 0), "entries": entries, "anchors": anchors}


def ratings_of(connection: Connection, account_id: str) -> list[dict[str, Any]]:
    """An account's ratings (every game and player count it was rated in), each with its history."""
    ratings = []
    rows = connection.execute(
        select(RatingRow).where(RatingRow.account_id == account_id).order_by(RatingRow.game, RatingRow.players)
    ).all()
    for row in rows:
        history = connection.execute(
            select(RatingHistoryRow.at, RatingHistoryRow.mu, RatingHistoryRow.sigma, RatingHistoryRow.table_id)
            .where(
                and_(
                    RatingHistoryRow.account_id == account_id,
                    RatingHistoryRow.game == row.game,
                    RatingHistoryRow.players == row.players,
                )
            )
            .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
            .limit(HISTORY_POINTS)
        ).all()
        points = [
            {"at": at, "mu": round(mu, 2), "sigma": round(sigma, 2), "table": table}
            for at, mu, sigma, table in reversed(history)
        ]
        ratings.append(
            {"game": row.game, "players": row.players, **rating_json(row.mu, row.sigma, row.games), "history": points}
        )
    return ratings


def ratings_export(connection: Connection, account_id: str) -> dict[str, Any]:
    """The account's ratings and their whole history, for its data export (the accounts' ``export_sections``)."""
    current = [
        {
            "game": row.game,
            "players": row.players,
            "mu": row.mu,
            "sigma": row.sigma,
            "games": row.games,
            "updated_at": row.updated_at,
        }
        for row in connection.execute(select(RatingRow).where(RatingRow.account_id == account_id)).all()
    ]
    history = [
        {
            "game": row.game,
            "players": row.players,
            "table": row.table_id,
            "mu": row.mu,
            "sigma": row.sigma,
            "at": row.at,
        }
        for row in connection.execute(
            select(RatingHistoryRow).where(RatingHistoryRow.account_id == account_id).order_by(RatingHistoryRow.id)
        ).all()
    ]
    return {"model": "openskill Plackett-Luce", "ratings": current, "history": history}


def delete_ratings(connection: Connection, account_id: str) -> None:
    """An account being deleted loses its ratings and their history (``accounts.deletion_steps``).

    The outcomes of its finished games stay: they are per seat, with no account in them, so the
    other players' histories and statistics keep the game, and the seat is nobody's."""
    connection.execute(delete(RatingHistoryRow).where(RatingHistoryRow.account_id == account_id))
    connection.execute(delete(RatingRow).where(RatingRow.account_id == account_id))


def register_personal_data() -> None:
    """Put the ratings into every account export and every account deletion (the web app and the
    operator's ``gamebag users`` call this before they export or delete)."""
    accounts.export_sections.setdefault("ratings", ratings_export)
    accounts.deletion_steps.setdefault("ratings", delete_ratings)
