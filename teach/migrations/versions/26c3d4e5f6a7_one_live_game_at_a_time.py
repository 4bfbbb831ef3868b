"""a child's seat in the live game they play now: one game going on at a time, guarded by the database"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '26c3d4e5f6a7'
down_revision = '26b2c3d4e5f6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('live_seat',
    sa.Column('kid_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['live_game.id'], name=op.f('fk_live_seat_game_id_live_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['kid_id'], ['account.id'], name=op.f('fk_live_seat_kid_id_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('kid_id', name=op.f('pk_live_seat'))
    )
    with op.batch_alter_table('live_seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_live_seat_game_id'), ['game_id'], unique=False)
    # the games going on now take their children's seats (a child found in two keeps the newest)
    op.execute("""
        INSERT INTO live_seat (kid_id, game_id)
        SELECT kid, MAX(id) FROM (
            SELECT black_id AS kid, id FROM live_game WHERE state IN ('playing', 'counting', 'disputed')
            UNION ALL
            SELECT white_id AS kid, id FROM live_game WHERE state IN ('playing', 'counting', 'disputed')
        ) AS seated GROUP BY kid
    """)


def downgrade():
    with op.batch_alter_table('live_seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_live_seat_game_id'))
    op.drop_table('live_seat')
