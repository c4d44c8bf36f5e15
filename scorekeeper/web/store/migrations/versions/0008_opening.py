"""pulkas.opening: the paper sheet a pulka went on from (docs/files.md §5)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 06:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('pulkas') as batch:
        batch.add_column(sa.Column('opening', sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('pulkas') as batch:
        batch.drop_column('opening')
