"""whole proofs kept with what they prove: a teacher's own lesson (its puzzles by key) and a game's retry puzzle"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '27a1b2c3d4e5'
down_revision = '26c3d4e5f6a7'
branch_labels = None
depends_on = None


def upgrade():
    # plain ADD COLUMN: nullable, so rows written before stay as they are (their moves are read live)
    op.add_column('teacher_lesson', sa.Column('proofs', sa.JSON(), nullable=True))
    op.add_column('missed_capture', sa.Column('proof', sa.JSON(), nullable=True))


def downgrade():
    op.drop_column('missed_capture', 'proof')
    op.drop_column('teacher_lesson', 'proofs')
