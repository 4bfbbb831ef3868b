"""when a runner took a finished game to review: a game being reviewed is told apart from one waiting and one done,
and a review whose runner died is taken again"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a6c3e4d5f7b8'
down_revision = 'e4a1c2b3d5f6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('played_game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('review_started_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('played_game', schema=None) as batch_op:
        batch_op.drop_column('review_started_at')
