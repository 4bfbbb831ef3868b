"""the placement test's result: the rank points a kid who already knows some Go starts with"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '23d3e4f5a6b7'
down_revision = '25f5a6b7c8d9'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('rank_placement',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kid_id', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('answers', sa.JSON(), nullable=False),
    sa.Column('taken_at', sa.DateTime(), nullable=False),
    sa.CheckConstraint('points >= 0', name=op.f('ck_rank_placement_points')),
    sa.ForeignKeyConstraint(['kid_id'], ['account.id'], name=op.f('fk_rank_placement_kid_id_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rank_placement')),
    sa.UniqueConstraint('kid_id', name=op.f('uq_rank_placement_kid_id')),
    sqlite_autoincrement=True
    )


def downgrade():
    op.drop_table('rank_placement')
