"""when a kid was shown each lesson or practice step: time on task is measured from it"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '25e4f5a6b7c8'
down_revision = '22b1c2d3e4f5'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'step_shown',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kid_id', sa.Integer(), nullable=False),
        sa.Column('lesson_id', sa.String(length=80), nullable=False),
        sa.Column('step', sa.Integer(), nullable=False),
        sa.Column('shown_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['kid_id'], ['account.id'], name=op.f('fk_step_shown_kid_id_account'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_step_shown')),
    )
    op.create_index('ix_step_shown_kid_shown_at', 'step_shown', ['kid_id', 'shown_at'], unique=False)


def downgrade():
    op.drop_index('ix_step_shown_kid_shown_at', table_name='step_shown')
    op.drop_table('step_shown')
