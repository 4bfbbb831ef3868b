"""a game against a classmate names the classmate: played_game.friend_id, filled in for the records live games kept

A live game between two classmates kept each child's record as a game with a "friend", the way a game at one
tablet is kept, and only the classmate's first name told the two apart. The record now keeps the classmate's
account id (a plain integer: account ids are never handed out again, so an id whose account is gone names no one
else, and the record keeps the first name it was played with), so the games list shows the classmate's own
picture. Records kept before are filled in from the live games that wrote them.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '28b2c3d4e5f6'
down_revision = '27a1b2c3d4e5'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('played_game', sa.Column('friend_id', sa.Integer(), nullable=True))
    # each child's record names the other child of the live game that kept it
    op.execute("UPDATE played_game SET friend_id = (SELECT live_game.white_id FROM live_game "
               "WHERE live_game.black_record_id = played_game.id) "
               "WHERE id IN (SELECT black_record_id FROM live_game WHERE black_record_id IS NOT NULL)")
    op.execute("UPDATE played_game SET friend_id = (SELECT live_game.black_id FROM live_game "
               "WHERE live_game.white_record_id = played_game.id) "
               "WHERE id IN (SELECT white_record_id FROM live_game WHERE white_record_id IS NOT NULL)")


def downgrade():
    op.drop_column('played_game', 'friend_id')
