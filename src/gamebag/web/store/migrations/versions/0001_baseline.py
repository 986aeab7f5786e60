"""Baseline: the web schema of release 66427e3 (every table its server created).

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

from alembic import op

from gamebag.web.store.migrations import baseline

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    baseline.create(op.get_bind(), checkfirst=False)


def downgrade() -> None:
    baseline.drop(op.get_bind())
