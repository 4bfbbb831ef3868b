"""played games (capture games and full games, with the computer or a friend) and the missed captures their
review finds, kept as retry puzzles"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e4a1c2b3d5f6'
down_revision = 'd3f0b1a2c4e5'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('played_game',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kid_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('komi', sa.Float(), nullable=False),
    sa.Column('handicap', sa.Integer(), nullable=False),
    sa.Column('capture_goal', sa.Integer(), nullable=True),
    sa.Column('kid_color', sa.String(length=5), nullable=False),
    sa.Column('opponent', sa.String(length=10), nullable=False),
    sa.Column('level', sa.Integer(), nullable=True),
    sa.Column('friend_name', sa.String(length=40), nullable=True),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('moves', sa.JSON(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('dead', sa.JSON(), nullable=False),
    sa.Column('result', sa.String(length=20), nullable=True),
    sa.Column('winner', sa.String(length=5), nullable=True),
    sa.Column('reviewed', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.CheckConstraint("kid_color in ('black', 'white')", name=op.f('ck_played_game_kid_color')),
    sa.CheckConstraint("kind in ('capture', 'full')", name=op.f('ck_played_game_kind')),
    sa.CheckConstraint("opponent in ('computer', 'gnugo', 'friend')", name=op.f('ck_played_game_opponent')),
    sa.CheckConstraint("state in ('playing', 'counting', 'finished')", name=op.f('ck_played_game_state')),
    sa.ForeignKeyConstraint(['kid_id'], ['account.id'], name=op.f('fk_played_game_kid_id_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_played_game')),
    sqlite_autoincrement=True
    )
    with op.batch_alter_table('played_game', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_played_game_kid_id'), ['kid_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_played_game_state'), ['state'], unique=False)

    op.create_table('missed_capture',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('kid_id', sa.Integer(), nullable=False),
    sa.Column('move_number', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('black', sa.JSON(), nullable=False),
    sa.Column('white', sa.JSON(), nullable=False),
    sa.Column('to_play', sa.String(length=5), nullable=False),
    sa.Column('goal', sa.String(length=10), nullable=False),
    sa.Column('target', sa.String(length=4), nullable=False),
    sa.Column('played', sa.String(length=4), nullable=False),
    sa.Column('answers', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('solved_at', sa.DateTime(), nullable=True),
    sa.CheckConstraint("kind in ('missed-capture', 'unsaved-atari', 'self-atari')", name=op.f('ck_missed_capture_kind')),
    sa.CheckConstraint("status in ('open', 'solved', 'skipped')", name=op.f('ck_missed_capture_status')),
    sa.ForeignKeyConstraint(['game_id'], ['played_game.id'], name=op.f('fk_missed_capture_game_id_played_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['kid_id'], ['account.id'], name=op.f('fk_missed_capture_kid_id_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_missed_capture')),
    sa.UniqueConstraint('game_id', 'move_number', 'kind', name='uq_missed_capture_game_move_kind'),
    sqlite_autoincrement=True
    )
    with op.batch_alter_table('missed_capture', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_missed_capture_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_missed_capture_kid_id'), ['kid_id'], unique=False)




def downgrade():

    with op.batch_alter_table('missed_capture', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_missed_capture_kid_id'))
        batch_op.drop_index(batch_op.f('ix_missed_capture_game_id'))

    op.drop_table('missed_capture')
    with op.batch_alter_table('played_game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_played_game_state'))
        batch_op.drop_index(batch_op.f('ix_played_game_kid_id'))

    op.drop_table('played_game')
