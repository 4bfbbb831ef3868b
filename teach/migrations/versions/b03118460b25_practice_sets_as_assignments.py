"""practice sets as assignments: a teacher hands a class one practice set (topic, level, seed)"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b03118460b25'
down_revision = '8b5d0849ff83'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('assignment', schema=None) as batch_op:
        batch_op.add_column(sa.Column('practice_topic', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('practice_level', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('practice_seed', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('assignment', schema=None) as batch_op:
        batch_op.drop_column('practice_seed')
        batch_op.drop_column('practice_level')
        batch_op.drop_column('practice_topic')
