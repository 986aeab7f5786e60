"""The notices' tables: an account's e-mail address and settings, notices waiting, the sent log.

Revision ID: 0003b
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003b'
down_revision: str | None = '0003a'
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table('notice_addresses',
    sa.Column('account_id', sa.String(length=32), nullable=False),
    sa.Column('address', sa.String(length=254), nullable=False),
    sa.Column('confirmed', sa.Boolean(), nullable=False),
    sa.Column('confirm_digest', sa.String(length=64), nullable=True),
    sa.Column('unsubscribe_token', sa.String(length=64), nullable=False),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('digest_hours', sa.Integer(), nullable=False),
    sa.Column('quiet_start', sa.Integer(), nullable=True),
    sa.Column('quiet_end', sa.Integer(), nullable=True),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('link_base', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('last_digest_at', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['people_accounts.id'], ),
    sa.PrimaryKeyConstraint('account_id'),
    sa.UniqueConstraint('unsubscribe_token')
    )
    op.create_table('notice_due',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.String(length=32), nullable=False),
    sa.Column('step', sa.Integer(), nullable=False),
    sa.Column('due_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['people_accounts.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['web_tables.id'], ),
    sa.PrimaryKeyConstraint('table_id', 'seat')
    )
    with op.batch_alter_table('notice_due', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_due_account_id'), ['account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_due_due_at'), ['due_at'], unique=False)

    op.create_table('notice_sent',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('account_id', sa.String(length=32), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=True),
    sa.Column('step', sa.Integer(), nullable=True),
    sa.Column('sent_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['people_accounts.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('notice_sent', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_sent_account_id'), ['account_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('notice_sent', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_sent_account_id'))

    op.drop_table('notice_sent')
    with op.batch_alter_table('notice_due', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_due_due_at'))
        batch_op.drop_index(batch_op.f('ix_notice_due_account_id'))

    op.drop_table('notice_due')
    op.drop_table('notice_addresses')
