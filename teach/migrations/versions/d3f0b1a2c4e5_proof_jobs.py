"""proof jobs: a teacher's upload is proven outside the request, with one deadline, from a per-teacher queue"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd3f0b1a2c4e5'
down_revision = 'c2e0a1b2d3f4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'proof_job',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('filename', sa.String(length=200), nullable=False),
        sa.Column('source', sa.Text(), nullable=False),
        sa.Column('fields', sa.JSON(), nullable=False),
        sa.Column('content_hash', sa.String(length=64), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('seconds', sa.Float(), nullable=True),
        sa.Column('tries', sa.Integer(), nullable=False),
        sa.Column('runner', sa.String(length=80), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.CheckConstraint("kind in ('lesson', 'sgf')", name=op.f('ck_proof_job_kind')),
        sa.CheckConstraint("status in ('queued', 'running', 'done', 'refused', 'failed')",
                           name=op.f('ck_proof_job_status')),
        sa.ForeignKeyConstraint(['owner_id'], ['account.id'], name=op.f('fk_proof_job_owner_id_account'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_proof_job')),
    )
    with op.batch_alter_table('proof_job', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_proof_job_owner_id'), ['owner_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_proof_job_status'), ['status'], unique=False)
        batch_op.create_index('ix_proof_job_one_running', ['owner_id'], unique=True,
                              sqlite_where=sa.text("status = 'running'"),
                              postgresql_where=sa.text("status = 'running'"))
        batch_op.create_index('ix_proof_job_one_pending', ['owner_id', 'content_hash'], unique=True,
                              sqlite_where=sa.text("status in ('queued', 'running')"),
                              postgresql_where=sa.text("status in ('queued', 'running')"))


def downgrade():
    with op.batch_alter_table('proof_job', schema=None) as batch_op:
        batch_op.drop_index('ix_proof_job_one_pending')
        batch_op.drop_index('ix_proof_job_one_running')
        batch_op.drop_index(batch_op.f('ix_proof_job_status'))
        batch_op.drop_index(batch_op.f('ix_proof_job_owner_id'))
    op.drop_table('proof_job')
