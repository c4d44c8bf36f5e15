"""generations: the access generation other server processes watch

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 23:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        'generations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('access', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_generations')),
    )
    op.bulk_insert(table, [{'id': 1, 'access': 0}])


def downgrade() -> None:
    op.drop_table('generations')
