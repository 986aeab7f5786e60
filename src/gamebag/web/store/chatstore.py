"""Where table chat lasts: its lines and each table's chat settings (the host's mutes, spectators' chat).

Chat is stored with its table, never with the game's record: a record stays the game's alone.
Lines carry the step at which they were said, so the replay shows them where they were said.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, delete, func, insert, select, tuple_
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from gamebag.web.store.base import Base

PLAYERS = "players"  # the players' channel: every seat and spectator reads it
SPECTATORS = "spectators"  # the spectators' own channel: only spectators read it (off by default)
CHANNELS = (PLAYERS, SPECTATORS)


class ChatLineRow(Base):
    """One chat line or reaction at a table, in the order the server took them (``id``)."""

    __tablename__ = "web_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str] = mapped_column(String(64))  # the author's name at the time
    kind: Mapped[str] = mapped_column(String(16))  # "text" or "reaction"
    body: Mapped[str] = mapped_column(Text)  # the text, or the reaction's code
    step: Mapped[int] = mapped_column(Integer)  # the table's step when it was said
    at: Mapped[float] = mapped_column(Float)  # wall-clock seconds


class ChatSettingRow(Base):
    """A table's chat settings as its host left them."""

    __tablename__ = "web_chat_settings"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    spectators: Mapped[bool] = mapped_column(Boolean, default=False)  # spectators' chat on
    muted: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of muted seats


@dataclass(frozen=True)
class ChatLine:
    """A stored line, as its readers receive it (``to_json``)."""

    id: int
    channel: str
    seat: int | None
    name: str
    kind: str
    body: str
    step: int
    at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "channel": self.channel, "seat": self.seat, "name": self.name,
            "kind": self.kind, "body": self.body, "step": self.step, "at": round(self.at, 3),
        }


@dataclass(frozen=True)
class ChatSettings:
    """Whether spectators may chat, and which seats the host muted."""

    spectators: bool = False
    muted: frozenset[int] = frozenset()


def _line(row: Any) -> ChatLine:
    return ChatLine(
        id=int(row.id), channel=str(row.channel), seat=None if row.seat is None else int(row.seat),
        name=str(row.name), kind=str(row.kind), body=str(row.body), step=int(row.step), at=float(row.at),
    )


class ChatStore:
    """The chat tables of one database (blocking calls: the server makes them in a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, table_id: str, line: ChatLine, most: int) -> ChatLine | None:
        """Store a line (its ``id`` is ignored) unless the table holds ``most`` lines already: the stored line."""
        with self.engine.begin() as connection:
            count = connection.execute(
                select(func.count()).select_from(ChatLineRow).where(ChatLineRow.table_id == table_id)
            ).scalar_one()
            if count >= most:
                return None
            new_id = connection.execute(
                insert(ChatLineRow).values(
                    table_id=table_id, channel=line.channel, seat=line.seat, name=line.name, kind=line.kind,
                    body=line.body, step=line.step, at=line.at,
                ).returning(ChatLineRow.id)
            ).scalar_one()
        return ChatLine(int(new_id), line.channel, line.seat, line.name, line.kind, line.body, line.step, line.at)

    def line(self, table_id: str, line_id: int) -> ChatLine | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(ChatLineRow).where(ChatLineRow.table_id == table_id, ChatLineRow.id == line_id)
            ).first()
        return None if row is None else _line(row)

    def recent(self, table_id: str, channels: tuple[str, ...], limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of the given channels, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ChatLineRow)
                .where(ChatLineRow.table_id == table_id, ChatLineRow.channel.in_(channels))
                .order_by(ChatLineRow.id.desc())
                .limit(limit)
            ).all()
        return [_line(row) for row in reversed(rows)]

    def settings(self, table_id: str) -> ChatSettings:
        with self.engine.connect() as connection:
            return read_settings(connection, table_id)

    def change(
        self, table_id: str, spectators: bool | None = None, mute: tuple[int, bool] | None = None
    ) -> ChatSettings:
        """Turn spectators' chat on or off and/or mute or unmute one seat: the settings after."""
        with self.engine.begin() as connection:
            now = read_settings(connection, table_id)
            muted = set(now.muted)
            if mute is not None:
                seat, on = mute
                (muted.add if on else muted.discard)(seat)
            after = ChatSettings(now.spectators if spectators is None else spectators, frozenset(muted))
            connection.execute(delete(ChatSettingRow).where(ChatSettingRow.table_id == table_id))
            connection.execute(
                insert(ChatSettingRow).values(
                    table_id=table_id, spectators=after.spectators, muted=json.dumps(sorted(after.muted))
                )
            )
        return after


def read_settings(connection: Connection, table_id: str) -> ChatSettings:
    row = connection.execute(select(ChatSettingRow).where(ChatSettingRow.table_id == table_id)).first()
    if row is None:
        return ChatSettings()
    return ChatSettings(bool(row.spectators), frozenset(int(seat) for seat in json.loads(row.muted or "[]")))


def delete_table_chat(connection: Connection, table_id: str) -> None:
    """Everything said at a table, and its settings: gone with the table."""
    connection.execute(delete(ChatLineRow).where(ChatLineRow.table_id == table_id))
    connection.execute(delete(ChatSettingRow).where(ChatSettingRow.table_id == table_id))


def delete_seats_chat(connection: Connection, seats: list[tuple[str, int]]) -> int:
    """What the given (table, seat) pairs wrote: gone with the account that held them. The count removed."""
    if not seats:
        return 0
    result = connection.execute(delete(ChatLineRow).where(tuple_(ChatLineRow.table_id, ChatLineRow.seat).in_(seats)))
    return int(result.rowcount or 0)
