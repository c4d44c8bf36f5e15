"""accounts, API tokens, share links, players by account, the last change of a pulka

Pulkas and players from before accounts keep owner_id NULL until they are claimed (the first
account registered, or `scorekeeper db claim USERNAME`).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 12:12:14.948849
"""

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=False),
    sa.Column('username_key', sa.String(length=120), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('is_admin', sa.Boolean(), nullable=False),
    sa.Column('disabled', sa.Boolean(), nullable=False),
    sa.Column('session_epoch', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_accounts')),
    sa.UniqueConstraint('username_key', name=op.f('uq_accounts_username_key'))
    )
    op.create_table('login_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failures'))
    )
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_login_failures_key'), ['key'], unique=False)

    op.create_table('api_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_api_tokens_account_id_accounts'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_tokens')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_api_tokens_token_hash'))
    )
    op.create_table('shares',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('pulka_id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('role', sa.String(length=8), nullable=False),
    sa.Column('label', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['pulka_id'], ['pulkas.id'], name=op.f('fk_shares_pulka_id_pulkas'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shares')),
    sa.UniqueConstraint('token', name=op.f('uq_shares_token'))
    )
    with op.batch_alter_table('shares', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_shares_pulka_id'), ['pulka_id'], unique=False)

    op.create_table('pulka_access',
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('share_id', sa.String(length=16), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name=op.f('fk_pulka_access_account_id_accounts'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['share_id'], ['shares.id'], name=op.f('fk_pulka_access_share_id_shares'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('account_id', 'share_id', name=op.f('pk_pulka_access'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner_id', sa.Integer(), nullable=True))
        batch_op.drop_constraint(batch_op.f('uq_players_name'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_players_owner_id'), ['owner_id', 'name'])
        batch_op.create_foreign_key(batch_op.f('fk_players_owner_id_accounts'), 'accounts', ['owner_id'], ['id'])

    with op.batch_alter_table('pulkas', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('last_change', sa.JSON(none_as_null=True), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_pulkas_owner_id_accounts'), 'accounts', ['owner_id'], ['id'])



def downgrade() -> None:
    with op.batch_alter_table('pulkas', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_pulkas_owner_id_accounts'), type_='foreignkey')
        batch_op.drop_column('last_change')
        batch_op.drop_column('owner_id')

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_players_owner_id_accounts'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_players_owner_id'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_players_name'), ['name'])
        batch_op.drop_column('owner_id')

    op.drop_table('pulka_access')
    with op.batch_alter_table('shares', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_shares_pulka_id'))

    op.drop_table('shares')
    op.drop_table('api_tokens')
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_failures_key'))

    op.drop_table('login_failures')
    op.drop_table('accounts')
