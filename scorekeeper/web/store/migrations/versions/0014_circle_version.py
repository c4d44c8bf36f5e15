"""circle version: each account's count of the changes to what its circle is read from, and no circle of merges

The statistics and the ledger are kept per process by what they were read from; the key was an aggregate of
the pulkas and players that two different states could share. From now on every change of what an account's
circle shows (a merge, an undo, a rename, a pulka made, frozen, reopened or deleted, a link opened or
revoked) moves the count on in its own transaction, and a merge, an undo or a rename moves it first: the lock
that puts them one after another.

Two opposite merges sent at once could both be kept before: each such circle is broken here by undoing the
merge of its newest player (the one with the highest id), so that every player is counted as someone again.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-09 12:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts') as batch:
        batch.add_column(sa.Column('circle_version', sa.Integer(), server_default='0', nullable=False))
    connection = op.get_bind()
    into: dict[int, int] = dict(connection.execute(sa.text('SELECT id, merged_into_id FROM players '
                                           'WHERE merged_into_id IS NOT NULL')).all())
    for broken in circles(into):
        connection.execute(sa.text('UPDATE players SET merged_into_id = NULL WHERE id = :id'), {"id": broken})


def circles(into: dict[int, int]) -> list[int]:
    """The player whose merge is undone in each circle of `into` (player: whom he is merged into)."""
    done: set[int] = set()
    broken = []
    for start in sorted(into):
        path: list[int] = []
        player: int | None = start
        while player is not None and player not in done and player not in path:
            path.append(player)
            player = into.get(player)
        if player is not None and player in path:
            broken.append(max(path[path.index(player):]))
        done.update(path)
    return broken


def downgrade() -> None:
    with op.batch_alter_table('accounts') as batch:
        batch.drop_column('circle_version')
