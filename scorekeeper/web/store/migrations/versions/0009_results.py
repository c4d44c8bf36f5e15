"""results: a pulka's frozen result, when it ended, the offset its start was recorded with; the log of endings

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 13:00:00.000000
"""

from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('pulkas') as batch:
        batch.add_column(sa.Column('result', sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('utc_offset', sa.Integer(), nullable=True))
    op.create_table(
        'pulka_events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('pulka_id', sa.Integer(), nullable=False),
        sa.Column('what', sa.String(length=12), nullable=False),
        sa.Column('by', sa.String(length=64), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['pulka_id'], ['pulkas.id'], name=op.f('fk_pulka_events_pulka_id_pulkas'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_pulka_events')))
    with op.batch_alter_table('pulka_events') as batch:
        batch.create_index(op.f('ix_pulka_events_pulka_id'), ['pulka_id'])
    _freeze_the_finished()


def _freeze_the_finished() -> None:
    """The pulkas that finished before results were kept are frozen now, as they stand: as if their last deal
    had just finished them (their standing says which are finished, so nothing else is replayed)."""
    from scorekeeper.web.store.results import freeze_finished
    freeze_finished(op.get_bind(), datetime.now(timezone.utc))


def downgrade() -> None:
    with op.batch_alter_table('pulka_events') as batch:
        batch.drop_index(op.f('ix_pulka_events_pulka_id'))
    op.drop_table('pulka_events')
    with op.batch_alter_table('pulkas') as batch:
        batch.drop_column('utc_offset')
        batch.drop_column('ended_at')
        batch.drop_column('result')
