"""account deals: each account's count of the deals its pulkas hold, kept with the account

A deal's write checks the account's room (SCOREKEEPER_MAX_ACCOUNT_DEALS) against it, where it counted every
deal of the owner's pulkas on each write. Filled here from the deals there are; from now on every write
that adds or removes deals moves it in its own transaction.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 05:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts') as batch:
        batch.add_column(sa.Column('deals', sa.Integer(), server_default='0', nullable=False))
    op.execute('UPDATE accounts SET deals = (SELECT count(*) FROM deals JOIN pulkas ON pulkas.id = deals.pulka_id '
               'WHERE pulkas.owner_id = accounts.id)')


def downgrade() -> None:
    with op.batch_alter_table('accounts') as batch:
        batch.drop_column('deals')
