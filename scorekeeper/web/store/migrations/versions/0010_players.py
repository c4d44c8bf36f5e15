"""players: a public id for each player of a circle, and the player a merge made him one with

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 14:00:00.000000
"""

import secrets

from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('uid', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('merged_into_id', sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f('fk_players_merged_into_id_players'), 'players', ['merged_into_id'], ['id'])
    connection = op.get_bind()
    for (player_id,) in connection.execute(sa.text('SELECT id FROM players')).all():
        connection.execute(sa.text('UPDATE players SET uid = :uid WHERE id = :id'),
                           {'uid': secrets.token_urlsafe(9), 'id': player_id})
    with op.batch_alter_table('players') as batch:
        batch.alter_column('uid', existing_type=sa.String(length=16), nullable=False)
        batch.create_unique_constraint(op.f('uq_players_uid'), ['uid'])


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_constraint(op.f('uq_players_uid'), type_='unique')
        batch.drop_constraint(op.f('fk_players_merged_into_id_players'), type_='foreignkey')
        batch.drop_column('merged_into_id')
        batch.drop_column('uid')
