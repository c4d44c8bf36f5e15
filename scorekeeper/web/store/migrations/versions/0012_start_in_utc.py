"""start in UTC: on SQLite, a pulka started with an offset kept the digits of its local time as UTC

SQLite stores a datetime's digits and drops its offset, so a pulka imported with "23:40+03:00" (or begun
again from one that had an offset) read back as 23:40 UTC, three hours late, and from 21:00 on a date too
late. Such a row has its offset stored beside it: its start moves back by that offset. PostgreSQL kept the
instant: nothing to do there.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 10:00:00.000000
"""

from datetime import timedelta

from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

pulkas = sa.table('pulkas', sa.column('id', sa.Integer()), sa.column('created_at', sa.DateTime(timezone=True)),
                  sa.column('utc_offset', sa.Integer()))


def upgrade() -> None:
    _move(-1)


def downgrade() -> None:
    _move(1)


def _move(sign: int) -> None:
    bind = op.get_bind()
    if bind.dialect.name != 'sqlite':
        return
    rows = bind.execute(sa.select(pulkas.c.id, pulkas.c.created_at, pulkas.c.utc_offset)
                        .where(pulkas.c.utc_offset.is_not(None), pulkas.c.utc_offset != 0)).all()
    for id_, created_at, offset in rows:
        bind.execute(pulkas.update().where(pulkas.c.id == id_)
                     .values(created_at=created_at + sign * timedelta(minutes=offset)))
