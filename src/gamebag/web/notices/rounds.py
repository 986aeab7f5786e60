"""The "your move" e-mail rounds: who must move, still, after the delay, and is not at the table.

One task per server process wakes every ``tick`` seconds:

1. on the loop, cheaply: the seats of this process's live tables that must act now (the game's
   ``waiting_for``, in memory), new since the last round, are noted in ``notice_due`` (in a
   thread) with ``due_at`` = now + ``delay``, for the seats whose account has a confirmed address
   and was not mailed for that step already;
2. in a thread: the notices that are due are checked against the database alone (the table is at
   the same step, open, unfinished, no secret choice of that seat waits, the seat is still the
   account's); a seat connected to its table now waits another ``delay``; quiet hours (in the
   person's time zone) move a notice to their end; at most ``MOVE_MAILS_PER_HOUR`` a person;
   a digest account gets one mail every ``digest_hours`` listing its tables.

A mail says the game and table and links to it; it never holds anything of the seat's view (no
hand, no other seat's choice), only facts every reader of the table sees. Without ``--smtp`` no
service runs and nothing is ever sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import quote
from zoneinfo import ZoneInfo

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

import gamebag
from gamebag.core.errors import GamebagError
from gamebag.core.i18n import DEFAULT_LANGUAGE, game_text, use_language
from gamebag.web.notices.addresses import log_sent, sent_since
from gamebag.web.notices.mailer import RETRY_PAUSES, Mail, Mailer, SmtpTarget
from gamebag.web.notices.rows import MailAddressRow, NoticeDueRow, NoticeSentRow, read_rows
from gamebag.web.people.schema import AccountRow, SeatOwnerRow
from gamebag.web.store.db import PendingRow, TableRow
from gamebag.web.tables.lobbyrows import SummaryRow
from gamebag.web.tables.manager import TableManager
from gamebag.web.words.text import N_, _, ngettext

log = logging.getLogger("gamebag.web")

MOVE_MAILS_PER_HOUR = 6  # "your move" mails a person gets per hour at most; the rest wait
RATE_PAUSE = 600.0  # seconds a notice over that bound waits before it is looked at again
ROUND_LIMIT = 200  # due notices looked at per round at most

# Every sentence a mail holds (one place; translated as a mail is written, in its recipient's
# language: the account's latest, ``AccountRow.language``). The digest's subject is a plural.
TEXT = {
    "move_subject": N_("Your move in {game}"),
    "move_body": N_("It is your move in {game} at table {table}.\n\nOpen the table: {link}\n"),
    "digest_intro": N_("It is your move at these tables:\n"),
    "digest_line": N_("{game} at table {table}: {link}\n"),
    "confirm_subject": N_("Confirm your address for gamebag notices"),
    "confirm_body": N_(
        'Someone, we hope you, asked for gamebag\'s "your move" notices at this address.\n\n'
        "To get them, open this link: {link}\n\nIf it was not you, ignore this mail: nothing more will be sent.\n"
    ),
    "footer": N_("\nTo stop these e-mails, open {link}\n"),
}


@dataclass
class NoticeTiming:
    """The service's delays (tests make them short) and its clock (wall-clock seconds)."""

    delay: float = 120.0  # a move left this long (and the person away) gets its mail
    tick: float = 5.0  # seconds between rounds
    clock: Callable[[], float] = field(default=time.time)
    retry_pauses: tuple[float, ...] = RETRY_PAUSES  # the mailer's pauses before trying a mail again


def game_title(game_id: str) -> str:
    try:
        cls = gamebag.entry(game_id).game_class
        return game_text(cls, cls.title)
    except GamebagError:
        return game_id


def unsubscribe_headers(base: str, token: str) -> tuple[tuple[str, str], ...]:
    """RFC 8058's one-click unsubscribe: a POST to this URL unsubscribes, no page to open."""
    return (
        ("List-Unsubscribe", f"<{base}/api/notices/unsubscribe?token={quote(token)}>"),
        ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
    )


def unsubscribe_page(base: str, token: str) -> str:
    return f"{base}/notices#unsubscribe={quote(token)}"


def confirm_mail(address: str, base: str, code: str) -> Mail:
    link = f"{base}/notices#confirm={quote(code)}"
    return Mail(address, _(TEXT["confirm_subject"]), _(TEXT["confirm_body"], link=link))


def quiet_until(now: float, row: MailAddressRow) -> float | None:
    """When the person's quiet hours end, if ``now`` is inside them (their time zone), else None."""
    start, end = row.quiet_start, row.quiet_end
    if start is None or end is None or start == end:
        return None
    local = datetime.fromtimestamp(now, ZoneInfo(row.time_zone))
    inside = start <= local.hour < end if start < end else (local.hour >= start or local.hour < end)
    if not inside:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return ends.timestamp()


def note_due(engine: Engine, keys: list[tuple[str, int, int]], due_at: float) -> None:
    """Note the seats that must act (table, seat, step), for those whose account wants notices."""
    with engine.begin() as connection:
        tables = sorted({table for table, _seat, _step in keys})
        owners = {
            (str(t), int(s)): str(a)
            for t, s, a in connection.execute(
                select(SeatOwnerRow.table_id, SeatOwnerRow.seat, SeatOwnerRow.account_id)
                .join(MailAddressRow, MailAddressRow.account_id == SeatOwnerRow.account_id)
                .where(SeatOwnerRow.table_id.in_(tables), MailAddressRow.confirmed.is_(True))
            )
        }
        for table_id, seat, step in keys:
            account = owners.get((table_id, seat))
            if account is None:
                continue
            done = connection.execute(
                select(NoticeSentRow.id).where(
                    NoticeSentRow.account_id == account, NoticeSentRow.table_id == table_id, NoticeSentRow.step == step
                )
            ).first()
            current = connection.execute(
                select(NoticeDueRow.step).where(NoticeDueRow.table_id == table_id, NoticeDueRow.seat == seat)
            ).scalar_one_or_none()
            if done is not None or current == step:
                continue
            connection.execute(delete(NoticeDueRow).where(NoticeDueRow.table_id == table_id, NoticeDueRow.seat == seat))
            connection.execute(
                insert(NoticeDueRow).values(table_id=table_id, seat=seat, account_id=account, step=step, due_at=due_at)
            )


@dataclass(frozen=True)
class DueNotice:
    table_id: str
    seat: int
    step: int
    game: str


def _still_their_move(connection: Connection, due: list[NoticeDueRow]) -> dict[tuple[str, int], str]:
    """(table, seat) -> game of the due notices whose seat must still act at the same step."""
    tables = sorted({row.table_id for row in due})
    steps = dict(
        connection.execute(select(SummaryRow.table_id, SummaryRow.step).where(SummaryRow.table_id.in_(tables))).all()
    )
    games = {
        str(t): str(g)
        for t, g in connection.execute(
            select(TableRow.id, TableRow.game).where(
                TableRow.id.in_(tables), TableRow.closed.is_(None), TableRow.finished.is_(False)
            )
        )
    }
    pending = set(
        connection.execute(select(PendingRow.table_id, PendingRow.seat).where(PendingRow.table_id.in_(tables))).all()
    )
    owners = dict(
        ((str(t), int(s)), str(a))
        for t, s, a in connection.execute(
            select(SeatOwnerRow.table_id, SeatOwnerRow.seat, SeatOwnerRow.account_id).where(
                SeatOwnerRow.table_id.in_(tables)
            )
        )
    )
    valid = {}
    for row in due:
        key = (row.table_id, row.seat)
        if (
            row.table_id in games
            and steps.get(row.table_id, 0) == row.step  # no summary row yet: no event yet
            and key not in pending
            and owners.get(key) == row.account_id
        ):
            valid[key] = games[row.table_id]
    return valid


def plan_round(
    engine: Engine, now: float, delay: float, connected: set[tuple[str, int]], offer: Callable[[Mail], bool]
) -> int:
    """Send what is due (through ``offer``); returns the number of mails handed over."""
    handed = 0
    with engine.begin() as connection:
        due: list[NoticeDueRow] = read_rows(
            connection,
            select(NoticeDueRow).where(NoticeDueRow.due_at <= now).order_by(NoticeDueRow.due_at).limit(ROUND_LIMIT),
        )
        if not due:
            return 0
        valid = _still_their_move(connection, due)
        accounts = sorted({row.account_id for row in due})
        confirmed = select(MailAddressRow).where(
            MailAddressRow.account_id.in_(accounts), MailAddressRow.confirmed.is_(True)
        )
        addresses = {row.account_id: row for row in read_rows(connection, confirmed)}
        languages = {
            str(account): language
            for account, language in connection.execute(
                select(AccountRow.id, AccountRow.language).where(AccountRow.id.in_(accounts))
            )
        }
        digests: dict[str, list[tuple[NoticeDueRow, str]]] = {}
        for row in due:
            key = (row.table_id, row.seat)
            address = addresses.get(row.account_id)
            where = (NoticeDueRow.table_id == row.table_id, NoticeDueRow.seat == row.seat)
            if key not in valid or address is None:
                connection.execute(delete(NoticeDueRow).where(*where))
                continue
            if key in connected:  # at the table now: asked again once they may have gone
                connection.execute(update(NoticeDueRow).where(*where).values(due_at=now + delay))
                continue
            quiet = quiet_until(now, address)
            if quiet is not None:
                connection.execute(update(NoticeDueRow).where(*where).values(due_at=quiet))
                continue
            if address.mode == "digest":
                digests.setdefault(row.account_id, []).append((row, valid[key]))
                continue
            if sent_since(connection, row.account_id, "move", now - 3600) >= MOVE_MAILS_PER_HOUR:
                connection.execute(update(NoticeDueRow).where(*where).values(due_at=now + RATE_PAUSE))
                continue
            # Claimed first (one conditional DELETE): of several server processes, one sends it.
            mine = (*where, NoticeDueRow.step == row.step, NoticeDueRow.due_at == row.due_at)
            if connection.execute(delete(NoticeDueRow).where(*mine)).rowcount != 1:
                continue
            if offer(_move_mail(address, row, valid[key], languages.get(row.account_id))):
                handed += 1
                log_sent(connection, row.account_id, "move", row.table_id, row.step, now)
            else:  # the mailer's queue is full: due again at the next round
                connection.execute(
                    insert(NoticeDueRow).values(
                        table_id=row.table_id, seat=row.seat, account_id=row.account_id, step=row.step, due_at=now
                    )
                )
        for account, rows in digests.items():
            address = addresses[account]
            last = address.last_digest_at
            if last is not None and now - last < address.digest_hours * 3600:
                continue  # they stay due until the digest's time
            # Claimed first (one conditional UPDATE of the last digest's time): one process sends it.
            same = MailAddressRow.last_digest_at.is_(None) if last is None else MailAddressRow.last_digest_at == last
            claim = update(MailAddressRow).where(MailAddressRow.account_id == account, same).values(last_digest_at=now)
            if connection.execute(claim).rowcount != 1:
                continue
            if not offer(_digest_mail(address, rows, languages.get(account))):
                restore = update(MailAddressRow).where(MailAddressRow.account_id == account)
                connection.execute(restore.values(last_digest_at=last))
                continue
            handed += 1
            for row, _game in rows:
                connection.execute(
                    delete(NoticeDueRow).where(NoticeDueRow.table_id == row.table_id, NoticeDueRow.seat == row.seat)
                )
                log_sent(connection, account, "digest", row.table_id, row.step, now)
    return handed


def _move_mail(address: MailAddressRow, row: NoticeDueRow, game: str, language: str | None = None) -> Mail:
    """The "your move" mail of one seat, in its recipient's ``language`` (None: English)."""
    base = address.link_base
    title = game_title(game)
    link = f"{base}/play/{row.table_id}"
    with use_language(language or DEFAULT_LANGUAGE):
        body = _(TEXT["move_body"], game=title, table=row.table_id, link=link)
        body += _(TEXT["footer"], link=unsubscribe_page(base, address.unsubscribe_token))
        subject = _(TEXT["move_subject"], game=title)
    return Mail(address.address, subject, body, unsubscribe_headers(base, address.unsubscribe_token))


def _digest_mail(address: MailAddressRow, rows: list[tuple[NoticeDueRow, str]], language: str | None = None) -> Mail:
    """One digest of an account's tables, in its recipient's ``language`` (None: English)."""
    base = address.link_base
    with use_language(language or DEFAULT_LANGUAGE):
        body = _(TEXT["digest_intro"])
        for row, game in rows:
            link = f"{base}/play/{row.table_id}"
            body += _(TEXT["digest_line"], game=game_title(game), table=row.table_id, link=link)
        body += _(TEXT["footer"], link=unsubscribe_page(base, address.unsubscribe_token))
        subject = ngettext("Your move at {n} table", "Your move at {n} tables", len(rows))
    return Mail(address.address, subject, body, unsubscribe_headers(base, address.unsubscribe_token))


class NoticeService:
    """The rounds and the mailer of one server process (only when ``--smtp`` is given)."""

    def __init__(self, manager: TableManager, mailer: Mailer, timing: NoticeTiming) -> None:
        self.manager = manager
        self.mailer = mailer
        self.timing = timing
        self._seen: set[tuple[str, int, int]] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.mailer.start()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await asyncio.to_thread(self.mailer.stop)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.timing.tick)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the notices' round failed; it runs again later", exc_info=True)

    def waiting_seats(self) -> set[tuple[str, int, int]]:
        """(table, seat, step) of every person's seat that must act at this process's live tables."""
        waiting = set()
        for table in list(self.manager.tables.values()):
            if table.is_over:
                continue
            for seat in table.waiting_for():
                config = table.seats[seat]
                if config.agent is None and config.claimed:
                    waiting.add((table.id, seat, table.step))
        return waiting

    def connected(self) -> set[tuple[str, int]]:
        hub = self.manager.hub
        return {(table_id, seat) for table_id in list(self.manager.tables) for seat in hub.connected_seats(table_id)}

    async def round(self) -> int:
        """One round: note the new moves to make, then send what is due. Returns the mails handed over."""
        now = self.timing.clock()
        waiting = self.waiting_seats()
        new = sorted(waiting - self._seen)
        self._seen = waiting
        engine = self.manager.store.engine
        if new:
            await asyncio.to_thread(note_due, engine, new, now + self.timing.delay)
        return await asyncio.to_thread(plan_round, engine, now, self.timing.delay, self.connected(), self.mailer.offer)

    def send_confirmation(self, mail: Mail) -> bool:
        return self.mailer.offer(mail)


def start_notices(manager: TableManager, smtp: str | None, timing: NoticeTiming | None) -> NoticeService | None:
    """The service, started, when a mail server is configured; None (nothing ever sent) without."""
    if smtp is None:
        return None
    timing = timing or NoticeTiming()
    service = NoticeService(manager, Mailer(SmtpTarget.parse(smtp), timing.retry_pauses), timing)
    service.start()
    return service
