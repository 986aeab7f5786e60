"""The tables behind open tables, ratings and the home page (declared on the web schema's base).

* ``web_listings``: one row per table opened since these tables exist: whether it is public
  (listed in the lobby, any free seat takeable), rated, a quick-play table (and when its
  free seats are filled with bots), and whether its outcome was settled (``settled``).
* ``people_outcomes``: a finished listed table's result per seat (place, score, win), the
  public facts home pages and statistics read without rebuilding a game.
* ``people_ratings``: an account's current openskill rating per game and player count.
* ``people_rating_history``: every rating an account had after a rated table (the profile plot).

They are new tables (no column was added to an existing one); the integrator's migration creates
them, ``create_all`` does today (``store/db.py`` imports this module).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from gamebag.web.store.base import Base


class ListingRow(Base):
    """How a table is offered: public or by invite only, rated or casual, quick play."""

    __tablename__ = "web_listings"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    quick: Mapped[bool] = mapped_column(Boolean, default=False)  # opened by "Play now"
    # quick play: when the free seats get bots (wall-clock seconds; NULL: never) and whether they did
    fill_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    filled: Mapped[bool] = mapped_column(Boolean, default=False)
    settled: Mapped[bool] = mapped_column(Boolean, default=False)  # outcome (and ratings) written
    created_at: Mapped[float] = mapped_column(Float)


class OutcomeRow(Base):
    """One seat's result at a finished table: its place (1 = best), score and whether it won."""

    __tablename__ = "people_outcomes"

    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    won: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """An account's rating in one game at one player count (openskill Plackett-Luce)."""

    __tablename__ = "people_ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """An account's rating right after one rated table (one point of the profile's plot)."""

    __tablename__ = "people_rating_history"
    __table_args__ = (Index("ix_people_rating_history_account", "account_id", "game", "players", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"))
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
