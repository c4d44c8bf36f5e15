"""players, pulkas, seats and deals

Revision ID: 0001
Revises:
Create Date: 2026-11-29 16:15:45.234138
"""

from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('name', name=op.f('uq_players_name'))
    )
    op.create_table('pulkas',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('currency', sa.String(length=8), nullable=False),
    sa.Column('first_dealer', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pulkas')),
    sa.UniqueConstraint('uid', name=op.f('uq_pulkas_uid'))
    )
    op.create_table('deals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('pulka_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=8), nullable=False),
    sa.Column('declarer', sa.Integer(), nullable=True),
    sa.Column('contract', sa.String(length=4), nullable=True),
    sa.Column('whist', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('tricks', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('open', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['pulka_id'], ['pulkas.id'], name=op.f('fk_deals_pulka_id_pulkas'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deals')),
    sa.UniqueConstraint('pulka_id', 'position', name=op.f('uq_deals_pulka_id'))
    )
    op.create_table('pulka_players',
    sa.Column('pulka_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_pulka_players_player_id_players')),
    sa.ForeignKeyConstraint(['pulka_id'], ['pulkas.id'], name=op.f('fk_pulka_players_pulka_id_pulkas'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pulka_id', 'seat', name=op.f('pk_pulka_players')),
    sa.UniqueConstraint('pulka_id', 'player_id', name=op.f('uq_pulka_players_pulka_id'))
    )


def downgrade() -> None:
    op.drop_table('pulka_players')
    op.drop_table('deals')
    op.drop_table('pulkas')
    op.drop_table('players')
