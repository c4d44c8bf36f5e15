"""tables: the pulkas a table plays one after another, which its share links open; a link's player

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 05:10:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every pulka so far is a table of its own: its first pulka's uid names the table.
    with op.batch_alter_table('pulkas') as batch:
        batch.add_column(sa.Column('table_uid', sa.String(length=32), nullable=True))
    op.execute('UPDATE pulkas SET table_uid = uid')
    with op.batch_alter_table('pulkas') as batch:
        batch.alter_column('table_uid', existing_type=sa.String(length=32), nullable=False)
        batch.create_index(op.f('ix_pulkas_table_uid'), ['table_uid'])
    with op.batch_alter_table('shares') as batch:
        batch.add_column(sa.Column('player', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('shares') as batch:
        batch.drop_column('player')
    with op.batch_alter_table('pulkas') as batch:
        batch.drop_index(op.f('ix_pulkas_table_uid'))
        batch.drop_column('table_uid')
