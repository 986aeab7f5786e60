"""The web server's schema: every table it keeps, declared on ``base.Base`` (one ``MetaData``).

This module is the one place where the tables of every room are gathered for migrations
(``migrate.py``, Alembic's ``env.py``) and for the test that the models match the head
revision: a module that declares tables on ``Base`` is imported here. A column or table added
to a model needs a new revision (docs/web.md, "Upgrading and migrations").

Tables used only by a PostgreSQL cluster (the bus key, the shared rate counts and socket
counts) are marked ``info={"dialects": ("postgresql",)}``: the revisions create them there only,
and the comparison with the models skips them elsewhere.
"""

from __future__ import annotations

from sqlalchemy import (
    ARRAY,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import DOUBLE_PRECISION
from sqlalchemy.orm import Mapped, mapped_column

# Every module declaring tables on Base is imported here, so ``Base.metadata`` holds them all
# (one line per module; the names are kept so the imports are not unused).
from gamebag.web.people.credentials import ChallengeRow, PasskeyRow, PasswordRow, RecoveryCodeRow, SessionRow
from gamebag.web.people.schema import AccountRow, SeatOwnerRow
from gamebag.web.people.standingrows import ListingRow, OutcomeRow, RatingHistoryRow, RatingRow
from gamebag.web.store.base import Base
from gamebag.web.store.chatstore import ChatLineRow, ChatSettingRow
from gamebag.web.store.clockstore import ClockSettingRow, SeatClockRow
from gamebag.web.store.seataid import SeatAidRow
from gamebag.web.tables.lobbyrows import SummaryRow

# declared in their rooms, registered here
ROOM_TABLES = (
    AccountRow, SeatOwnerRow, SummaryRow, SeatAidRow, ChatLineRow, ChatSettingRow,
    PasswordRow, SessionRow, PasskeyRow, RecoveryCodeRow, ChallengeRow,
    ListingRow, OutcomeRow, RatingRow, RatingHistoryRow, ClockSettingRow, SeatClockRow,
)
POSTGRESQL_ONLY = {"dialects": ("postgresql",)}  # ``Table.info`` of a table a cluster alone uses


def only_on(table: Table, dialect: str) -> bool:
    """Whether ``table`` belongs to the schema of a database of ``dialect``."""
    dialects = table.info.get("dialects")
    return dialects is None or dialect in dialects


class TableRow(Base):
    """One table: the game, its configuration and its seed."""

    __tablename__ = "web_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)  # JSON object
    seed: Mapped[str] = mapped_column(String(64))
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    timeout_agent: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    host_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    last_active: Mapped[float | None] = mapped_column(Float, nullable=True)  # the last accepted action
    closed: Mapped[str | None] = mapped_column(String(16), nullable=True)  # None, "host" or "expired"
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the process holding the lease
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)  # database clock, seconds
    next_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # its rematch, once opened
    # A cluster's turn clock, as the owner last set it: the step it runs for and its deadline
    # (wall-clock seconds; NULL: no clock at that step), so a process that starts following
    # the table mid-step shows the same deadline at once.
    clock_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    clock_deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    coach: Mapped[str | None] = mapped_column(Text, nullable=True)  # the coach setting (coachsetting.py)


class SeatRow(Base):
    """One seat of a table: held by a secret token (humans) or played by a bot."""

    __tablename__ = "web_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    agent: Mapped[str | None] = mapped_column(String(200), nullable=True)  # None: a human seat
    # False: the token is an invite code no device claimed yet (claims.py); NULL (older tables): claimed
    claimed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


class EventRow(Base):
    """One record event (``{"moves": ...}`` or ``{"chance": ...}``) of a table, in order."""

    __tablename__ = "web_events"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column("idx", Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class PendingRow(Base):
    """A secret choice made at the current decision node, not yet revealed."""

    __tablename__ = "web_pending"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(Text)  # JSON encoding of the action


class NodeRow(Base):
    """A server process of a cluster and until when it is known to be alive (database clock)."""

    __tablename__ = "web_nodes"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    alive_until: Mapped[float] = mapped_column(Float)


# The cluster's tables (PostgreSQL): the bus key (busseal.py), and the limit counts every
# process shares (admission/ratestore.py).
bus_key_table = Table(
    "web_bus_key",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("secret", Text, nullable=False),
    info=POSTGRESQL_ONLY,
)
rate_hits_table = Table(
    "web_rate_hits",
    Base.metadata,
    Column("key", String(200), primary_key=True),
    Column("hits", ARRAY(DOUBLE_PRECISION), nullable=False),
    Column("accepted", Boolean, nullable=False, server_default=text("true")),
    info=POSTGRESQL_ONLY,
)
open_sockets_table = Table(
    "web_open_sockets",
    Base.metadata,
    Column("kind", String(16), primary_key=True),
    Column("key", Text, primary_key=True),
    Column("node", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
    info=POSTGRESQL_ONLY,
)
