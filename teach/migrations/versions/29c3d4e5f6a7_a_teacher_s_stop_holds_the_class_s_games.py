"""a teacher's stop holds the class's games: play_room.stopped_at

"Stop the games" at the end of a lesson rested every game, and both children tapped "play on" at once and played
on. The room now keeps when its teacher stopped the games: until the teacher lets them play again, starts a round,
or a day has passed (``live.STOP_HOURS``), children can neither play on in a game that rests nor start a new one.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '29c3d4e5f6a7'
down_revision = '28b2c3d4e5f6'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('play_room', sa.Column('stopped_at', sa.DateTime(), nullable=True))


def downgrade():
    op.drop_column('play_room', 'stopped_at')
