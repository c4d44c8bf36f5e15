"""ledger: the club ledger's payments (each a row never changed), and each account's count of ledger writes

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 19:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts') as batch:
        batch.add_column(sa.Column('ledger_writes', sa.Integer(), server_default='0', nullable=False))
    op.create_table(
        'ledger_payments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uid', sa.String(length=16), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('payer_id', sa.Integer(), nullable=False),
        sa.Column('payee_id', sa.Integer(), nullable=False),
        sa.Column('cents', sa.BigInteger(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('obligation', sa.String(length=40), nullable=True),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('reverses_id', sa.Integer(), nullable=True),
        sa.Column('note', sa.String(length=200), nullable=False),
        sa.Column('by', sa.String(length=64), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['owner_id'], ['accounts.id'], name=op.f('fk_ledger_payments_owner_id_accounts'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['payer_id'], ['players.id'], name=op.f('fk_ledger_payments_payer_id_players')),
        sa.ForeignKeyConstraint(['payee_id'], ['players.id'], name=op.f('fk_ledger_payments_payee_id_players')),
        sa.ForeignKeyConstraint(['reverses_id'], ['ledger_payments.id'],
                                name=op.f('fk_ledger_payments_reverses_id_ledger_payments')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_payments')),
        sa.UniqueConstraint('uid', name=op.f('uq_ledger_payments_uid')),
        sa.UniqueConstraint('reverses_id', name=op.f('uq_ledger_payments_reverses_id')))
    with op.batch_alter_table('ledger_payments') as batch:
        batch.create_index('ix_ledger_payments_owner_id_currency', ['owner_id', 'currency'])


def downgrade() -> None:
    with op.batch_alter_table('ledger_payments') as batch:
        batch.drop_index('ix_ledger_payments_owner_id_currency')
    op.drop_table('ledger_payments')
    with op.batch_alter_table('accounts') as batch:
        batch.drop_column('ledger_writes')
