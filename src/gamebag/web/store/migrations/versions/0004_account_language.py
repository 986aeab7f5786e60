"""An account's language: the language of its latest signed-in request, for its e-mails.

Revision ID: 0004
Revises: 0003b
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision: str | None = '0003b'
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table('people_accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('people_accounts', schema=None) as batch_op:
        batch_op.drop_column('language')
