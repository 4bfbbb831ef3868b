"""the dead stones the computer proposed when counting began: against the computer, a kid's tap may give stones
to the computer but not take its live stones away"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f5b2d3c4e6a7'
down_revision = 'a6c3e4d5f7b8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('played_game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('proposed', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('played_game', schema=None) as batch_op:
        batch_op.drop_column('proposed')
