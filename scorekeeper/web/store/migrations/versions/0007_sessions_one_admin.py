"""sessions kept on the server, one administrator, usernames compared in NFKC, pulkas' standings

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 05:00:00.000000
"""

import unicodedata

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def _key(username: str) -> str:
    # domain.accounts.username_key as of this revision: a migration keeps its own copy.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username.strip()).casefold())


def upgrade() -> None:
    op.create_table(
        'sessions',
        sa.Column('id', sa.String(length=64), nullable=False),
        sa.Column('account_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_sessions_account_id_accounts'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_sessions')),
    )
    op.create_index(op.f('ix_sessions_account_id'), 'sessions', ['account_id'])
    op.create_index(op.f('ix_sessions_created_at'), 'sessions', ['created_at'])
    accounts = sa.table('accounts', sa.column('id', sa.Integer), sa.column('username', sa.String),
                        sa.column('username_key', sa.String), sa.column('is_admin', sa.Boolean))
    connection = op.get_bind()
    rows = connection.execute(sa.select(accounts.c.id, accounts.c.username, accounts.c.is_admin)
                              .order_by(accounts.c.id)).all()
    # The race that made several administrators left the first one the real one: the others become plain
    # accounts, their pulkas still theirs.
    admins = [row.id for row in rows if row.is_admin]
    if len(admins) > 1:
        connection.execute(sa.update(accounts).where(accounts.c.id.in_(admins[1:])).values(is_admin=False))
    # Keys as now compared. Of two accounts that now compare alike (a homoglyph registered beside the real
    # one before), the older keeps the name; the later is kept under a key no name gives (its old one and its
    # id), so no row is lost and the administrator sees both. Each is first moved out of the way, so that no
    # new key meets an old one not yet rewritten.
    for row in rows:
        connection.execute(sa.update(accounts).where(accounts.c.id == row.id).values(username_key=f"#{row.id}"))
    taken: set[str] = set()
    for row in rows:
        key = _key(row.username)
        if key in taken or len(key) > 120:
            key = f"{_key(row.username)[:100]}#{row.id}"
        taken.add(key)
        connection.execute(sa.update(accounts).where(accounts.c.id == row.id).values(username_key=key))
    op.create_index('uq_accounts_one_admin', 'accounts', ['is_admin'], unique=True,
                    sqlite_where=sa.text('is_admin'), postgresql_where=sa.text('is_admin'))
    # Null for the pulkas of before: the home list replays each once, and its next write keeps it.
    with op.batch_alter_table('pulkas') as batch:
        batch.add_column(sa.Column('standing', sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('pulkas') as batch:
        batch.drop_column('standing')
    op.drop_index('uq_accounts_one_admin', table_name='accounts')
    op.drop_index(op.f('ix_sessions_created_at'), table_name='sessions')
    op.drop_index(op.f('ix_sessions_account_id'), table_name='sessions')
    op.drop_table('sessions')
