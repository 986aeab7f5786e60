"""Table chat and reactions: what people type, checked, stored with the table and sent to its readers.

Nothing here is automatic: the server never writes a chat line, so no hidden information can
travel through chat except what a person types. A line is plain text of one line (the pages
show it as text, never as markup, apart from the game's log and under its author's name), limited
in length and in rate per seat; the host can mute a seat; spectators have a channel of their own,
which only spectators read and which is off until the host turns it on. Lines are stored (in a
thread, never on the event loop) before anyone is told of them, so what a reader saw survives a
restart; in a cluster the other processes are told a line's id on the bus, never its text.
"""

from __future__ import annotations

import asyncio
import logging
import time
import unicodedata
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from gamebag.core.errors import GamebagError
from gamebag.core.i18n import formatted
from gamebag.web.store.chatstore import PLAYERS, SPECTATORS, ChatLine, ChatSettings, ChatStore
from gamebag.web.store.db import TABLES_CHANNEL
from gamebag.web.store.faults import is_storage_fault
from gamebag.web.tables.hub import Connection, RateLimiter
from gamebag.web.tables.messages import dumps, error_message
from gamebag.web.words.text import N_, _

if TYPE_CHECKING:
    from gamebag.web.tables.live import LiveTable
    from gamebag.web.tables.tablestate import ManagerState

log = logging.getLogger("gamebag.web")

MAX_CHARS = 200  # characters in one line, after normalisation
MAX_LINES_PER_TABLE = 1000  # lines a table keeps; past it the chat is full (bounds the replay's chat too)
HISTORY_LINES = 100  # lines a reader receives on joining
CHAT_RATE = 1.0 / 3.0  # lines per second one seat (or one spectator's address) may send on average
CHAT_BURST = 5.0  # ... and in a row
LIMITERS_KEPT = 4096  # rate buckets kept in memory (the oldest forgotten first)
# The reactions a person may send: language-neutral codes; the page draws each one.
REACTIONS = ("thumbs_up", "laugh", "wow", "sad", "party", "think")
# Format characters a line may hold: emoji joiners and variation selectors. Every other control
# or format character (bidirectional overrides included) could disguise a line, so it is refused.
ALLOWED_FORMAT = {"\u200d", "\ufe0e", "\ufe0f"}

SPECTATOR_NAME = "Spectator"
TEXTS = {
    "not_text": N_("a chat message is {\"type\": \"chat\", \"text\": \"...\"} with some text"),
    "empty": N_("a chat message needs some text"),
    "too_long": N_("a chat message is at most {most} characters; this one has {count}"),
    "control": N_("a chat message is one line of text, without control or formatting characters"),
    "reaction": N_("a reaction is one of: {names}"),
    "rate": N_(
        "too many chat messages: at most {burst} in a row, then one every {every} seconds; try again in {wait} s"
    ),
    "muted": N_("the host has muted your chat at this table"),
    "spectators_off": N_("spectators' chat is off at this table; the host can turn it on"),
    "full": N_("this table's chat is full ({most} lines)"),
    "storage": N_("the chat could not be saved just now; nothing was sent, try again"),
}


class ChatRefused(GamebagError):
    """A chat line or reaction that is not sent, with why (and, for a flood, when to try again)."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def clean_text(value: Any) -> str:
    """One chat line as stored: NFC-normalised, trimmed, checked (``ChatRefused`` says why not)."""
    if not isinstance(value, str):
        raise ChatRefused(_(TEXTS["not_text"]))
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise ChatRefused(_(TEXTS["empty"]))
    if len(text) > MAX_CHARS:
        raise ChatRefused(_(TEXTS["too_long"], most=MAX_CHARS, count=len(text)))
    for character in text:
        category = unicodedata.category(character)
        if (category == "Cc" or (category.startswith("Z") and character != " ")) or (
            category in ("Cf", "Co", "Cs", "Cn") and character not in ALLOWED_FORMAT
        ):
            raise ChatRefused(_(TEXTS["control"]))
    return text


def clean_reaction(value: Any) -> str:
    if not isinstance(value, str) or value not in REACTIONS:
        raise ChatRefused(_(TEXTS["reaction"], names=", ".join(REACTIONS)))
    return value


def reads(connection: Connection, channel: str) -> bool:
    """Whether a reader is told lines of a channel: the players' one everyone, the spectators' one spectators."""
    return channel == PLAYERS or connection.seat is None


def channels_of(connection: Connection) -> tuple[str, ...]:
    return (PLAYERS,) if connection.seat is not None else (PLAYERS, SPECTATORS)


def settings_json(settings: ChatSettings, seat: int | None) -> dict[str, Any]:
    """The settings a reader is told: whether spectators chat, and whether this reader's own seat is muted."""
    return {"spectators": settings.spectators, "muted": seat is not None and seat in settings.muted}


class TableChat:
    """The chat of every table this process serves."""

    def __init__(self, manager: ManagerState) -> None:
        self.manager = manager
        self.store = ChatStore(manager.store.engine)
        self._limiters: OrderedDict[tuple[str, str], RateLimiter] = OrderedDict()

    def _limiter(self, key: tuple[str, str]) -> RateLimiter:
        limiter = self._limiters.pop(key, None) or RateLimiter(CHAT_RATE, CHAT_BURST)
        self._limiters[key] = limiter
        while len(self._limiters) > LIMITERS_KEPT:
            self._limiters.popitem(last=False)
        return limiter

    async def say(self, connection: Connection, table: LiveTable, message: dict[str, Any]) -> None:
        """A ``chat`` or ``react`` message from a reader: stored and sent to the table, or refused to its sender."""
        ref = message.get("ref")
        try:
            await self._say(connection, table, message)
        except ChatRefused as refusal:
            answer = error_message(str(refusal), ref)
            answer["code"] = "chat"
            if refusal.retry_after is not None:
                answer["retry_after"] = refusal.retry_after
            connection.send(dumps(answer))

    async def _say(self, connection: Connection, table: LiveTable, message: dict[str, Any]) -> None:
        if message["type"] == "react":
            kind, body = "reaction", clean_reaction(message.get("reaction"))
        else:
            kind, body = "text", clean_text(message.get("text"))
        seat = connection.seat
        channel = PLAYERS if seat is not None else SPECTATORS
        who = f"seat {seat}" if seat is not None else f"address {connection.address}"
        limiter = self._limiter((table.id, who))
        if not limiter.allow():
            wait = limiter.retry_after()
            every = formatted(1 / CHAT_RATE, "g")
            raise ChatRefused(_(TEXTS["rate"], burst=formatted(CHAT_BURST, "g"), every=every, wait=wait), wait)
        try:
            settings = await asyncio.to_thread(self.store.settings, table.id)
            if seat is not None and seat in settings.muted:
                raise ChatRefused(_(TEXTS["muted"]))
            if seat is None and not settings.spectators:
                raise ChatRefused(_(TEXTS["spectators_off"]))
            name = table.seats[seat].name if seat is not None else SPECTATOR_NAME
            line = ChatLine(0, channel, seat, name, kind, body, table.step, time.time())
            stored = await asyncio.to_thread(self.store.add, table.id, line, MAX_LINES_PER_TABLE)
        except ChatRefused:
            raise
        except Exception as error:
            if not is_storage_fault(error):
                raise
            self.manager.storage.failed(error, f"saving a chat line at table {table.id}")
            raise ChatRefused(_(TEXTS["storage"])) from error
        if stored is None:
            raise ChatRefused(_(TEXTS["full"], most=MAX_LINES_PER_TABLE))
        self.deliver(table.id, [stored])
        await self._notify({"k": "chat", "t": table.id, "i": stored.id})

    def deliver(self, table_id: str, lines: list[ChatLine]) -> None:
        """Send stored lines to this process's readers of the table who may read them."""
        for connection in self.manager.hub.members(table_id):
            if not connection.joined:
                continue
            mine = [line.to_json() for line in lines if reads(connection, line.channel)]
            if mine:
                connection.send(dumps({"type": "chat", "lines": mine}))

    async def welcome(self, connection: Connection, table: LiveTable) -> None:
        """A reader who just joined: the recent lines it may read, the settings and the longest line, in one message."""
        try:
            lines = await asyncio.to_thread(self.store.recent, table.id, channels_of(connection), HISTORY_LINES)
            settings = await asyncio.to_thread(self.store.settings, table.id)
        except Exception as error:  # the chat's history never costs a reader the table itself
            if is_storage_fault(error):
                self.manager.storage.failed(error, f"reading the chat of table {table.id}")
            else:
                log.exception("the chat history of table %s could not be read", table.id)
            return  # the game goes on without its chat history
        connection.send(
            dumps({
                "type": "chat", "history": True, "lines": [line.to_json() for line in lines],
                "settings": settings_json(settings, connection.seat), "max_chars": MAX_CHARS,
            })
        )

    async def change(
        self, table: LiveTable, spectators: bool | None = None, mute: tuple[int, bool] | None = None
    ) -> ChatSettings:
        """The host's change of the settings: stored, then every reader told (its own mute only)."""
        settings = await asyncio.to_thread(self.store.change, table.id, spectators, mute)
        self.tell_settings(table.id, settings)
        await self._notify({"k": "chatset", "t": table.id})
        return settings

    def tell_settings(self, table_id: str, settings: ChatSettings) -> None:
        for connection in self.manager.hub.members(table_id):
            if connection.joined:
                connection.send(dumps({"type": "chat_settings", **settings_json(settings, connection.seat)}))

    async def on_bus(self, message: dict[str, Any]) -> None:
        """Another process took a line or changed the settings: read it from the database and tell our readers."""
        table_id = str(message.get("t"))
        if not any(True for _ in self.manager.hub.members(table_id)):
            return
        if message.get("k") == "chat":
            line = await asyncio.to_thread(self.store.line, table_id, int(message.get("i", 0)))
            if line is not None:
                self.deliver(table_id, [line])
        else:
            self.tell_settings(table_id, await asyncio.to_thread(self.store.settings, table_id))

    async def _notify(self, message: dict[str, Any]) -> None:
        bus = self.manager.bus
        if bus is not None:
            await bus.send(TABLES_CHANNEL, {**message, "n": self.manager.node})
