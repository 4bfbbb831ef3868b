"""a teacher's own lesson is a draft until published, and published to the classes its teacher chooses; the
lessons that were live before stay live for every class their teacher teaches"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '25f5a6b7c8d9'
down_revision = '25e4f5a6b7c8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('teacher_lesson', schema=None) as batch_op:
        batch_op.add_column(sa.Column('published_at', sa.DateTime(), nullable=True))
    op.create_table(
        'teacher_lesson_class',
        sa.Column('lesson_pk', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['lesson_pk'], ['teacher_lesson.id'],
                                name=op.f('fk_teacher_lesson_class_lesson_pk_teacher_lesson'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['group_id'], ['kid_group.id'],
                                name=op.f('fk_teacher_lesson_class_group_id_kid_group'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('lesson_pk', 'group_id', name=op.f('pk_teacher_lesson_class')),
    )
    with op.batch_alter_table('teacher_lesson_class', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_teacher_lesson_class_group_id'), ['group_id'], unique=False)
    # what was live stays live: every lesson already uploaded, for every class its teacher teaches now
    op.execute("UPDATE teacher_lesson SET published_at = created_at")
    op.execute("INSERT INTO teacher_lesson_class (lesson_pk, group_id) "
               "SELECT teacher_lesson.id, membership.group_id FROM teacher_lesson "
               "JOIN membership ON membership.user_id = teacher_lesson.owner_id AND membership.role = 'teacher'")


def downgrade():
    with op.batch_alter_table('teacher_lesson_class', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_teacher_lesson_class_group_id'))
    op.drop_table('teacher_lesson_class')
    with op.batch_alter_table('teacher_lesson', schema=None) as batch_op:
        batch_op.drop_column('published_at')
