"""The declarative base every web table is declared on, so one schema (and its migrations) holds them all."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of the web schema."""
