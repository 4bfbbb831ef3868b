"""a kid's own lesson-player settings: read each step aloud, coordinates round the board (None: the level decides)"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '26b2c3d4e5f6'
down_revision = '23d3e4f5a6b7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('narrate', sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column('coordinates', sa.Boolean(), nullable=True))


def downgrade():
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.drop_column('coordinates')
        batch_op.drop_column('narrate')
