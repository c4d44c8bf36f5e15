"""played on: the day a pulka was played, when its owner says it was not the day it was entered

A game entered afterwards (yesterday's evening typed in today) keeps its entry time as its start; the day
its players played it is kept beside it, and its pages, files and statistics date it by that day. Empty for
every pulka so far: each was played the day it was entered.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-10 12:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('pulkas') as batch:
        batch.add_column(sa.Column('played_on', sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('pulkas') as batch:
        batch.drop_column('played_on')
