"""a kid's own lesson-player settings: read each step aloud, coordinates round the board (None: the level decides)"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '26b2c3d4e5f6'
down_revision = '23d3e4f5a6b7'
branch_labels = None
depends_on = None


def upgrade():
    # plain ADD COLUMN (SQLite has it): a batch copy of the account table would cascade-delete every row that
    # refers to an account (memberships, stickers, links) when it drops the old table
    op.add_column('account', sa.Column('narrate', sa.Boolean(), nullable=True))
    op.add_column('account', sa.Column('coordinates', sa.Boolean(), nullable=True))


def downgrade():
    # plain DROP COLUMN (SQLite 3.35 and later), for the same reason
    op.drop_column('account', 'coordinates')
    op.drop_column('account', 'narrate')
