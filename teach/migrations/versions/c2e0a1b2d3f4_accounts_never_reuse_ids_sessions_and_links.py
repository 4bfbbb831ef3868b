"""accounts and groups that never reuse an id, sessions bound to a per-account secret, parent links that need
consent, link and teacher invitations; the tables "user" and "group" (SQL reserved words) become account and
kid_group

Every existing account gets its own random session secret, so every session signed before the upgrade (it names
the account by id alone) is refused once, and each person signs in again. Existing parent links stay approved
(their teachers now see them and can remove them); old signed link codes no longer work.

SQLite can only add AUTOINCREMENT by rebuilding a table. The rebuild runs with foreign keys off (with them on,
dropping the old table would first delete, and so cascade to, every membership, attempt and sticker), inside one
transaction, and checks every foreign key before it commits.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c2e0a1b2d3f4'
down_revision = 'b03118460b25'
branch_labels = None
depends_on = None

ACCOUNT_COLUMNS = ["id", "role", "name", "email", "password_hash", "avatar", "picture_hash", "failed_logins",
                   "locked_until", "locale", "archived", "created_at"]
GROUP_COLUMNS = ["id", "kind", "name", "code", "archived", "created_at"]
LINK_COLUMNS = ["id", "parent_id", "kid_id"]
# foreign keys whose names say the table they point to (PostgreSQL keeps the names on a rename)
FOREIGN_KEYS = [("attempt", "kid_id", "user"), ("lesson_progress", "kid_id", "user"),
                ("membership", "user_id", "user"), ("membership", "group_id", "group"),
                ("parent_link", "kid_id", "user"), ("parent_link", "parent_id", "user"),
                ("sticker_award", "kid_id", "user"), ("assignment", "group_id", "group"),
                ("assignment", "created_by", "user"), ("teacher_lesson", "owner_id", "user")]
NEW_NAME = {"user": "account", "group": "kid_group"}


def _meta():
    """A metadata holding the tables foreign keys point at (by name only: they are never created from here)."""
    meta = sa.MetaData()
    for name in ("user", "account", "group", "kid_group"):
        sa.Table(name, meta, sa.Column('id', sa.Integer(), primary_key=True))
    return meta


def _account(name, new):
    cols = [
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(length=10), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=True),
        sa.Column('password_hash', sa.String(length=256), nullable=True),
        sa.Column('avatar', sa.String(length=20), nullable=True),
        sa.Column('picture_hash', sa.String(length=256), nullable=True),
        sa.Column('failed_logins', sa.Integer(), nullable=False),
        sa.Column('locked_until', sa.DateTime(), nullable=True),
        sa.Column('locale', sa.String(length=10), nullable=True),
        sa.Column('archived', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
    ]
    t = 'account' if new else 'user'
    if new:
        cols.append(sa.Column('session_secret', sa.String(length=32), nullable=False))
    return sa.Table(name, _meta(), *cols,
                    sa.CheckConstraint("role in ('teacher', 'parent', 'kid')", name=f'ck_{t}_role'),
                    sa.PrimaryKeyConstraint('id', name=f'pk_{t}'),
                    sa.UniqueConstraint('email', name=f'uq_{t}_email'),
                    sqlite_autoincrement=new)


def _group(name, new):
    t = 'kid_group' if new else 'group'
    return sa.Table(name, _meta(),
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('kind', sa.String(length=10), nullable=False),
                    sa.Column('name', sa.String(length=80), nullable=False),
                    sa.Column('code', sa.String(length=12), nullable=False),
                    sa.Column('archived', sa.Boolean(), nullable=False),
                    sa.Column('created_at', sa.DateTime(), nullable=False),
                    sa.CheckConstraint("kind in ('class', 'family')", name=f'ck_{t}_kind'),
                    sa.PrimaryKeyConstraint('id', name=f'pk_{t}'),
                    sa.UniqueConstraint('code', name=f'uq_{t}_code'),
                    sqlite_autoincrement=new)


def _parent_link(name, new):
    account = 'account' if new else 'user'
    cols = [sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('parent_id', sa.Integer(), nullable=False),
            sa.Column('kid_id', sa.Integer(), nullable=False)]
    extra = []
    if new:
        cols += [sa.Column('status', sa.String(length=10), nullable=False),
                 sa.Column('created_at', sa.DateTime(), nullable=True),
                 sa.Column('approved_by', sa.Integer(), nullable=True),
                 sa.Column('approved_at', sa.DateTime(), nullable=True)]
        extra = [sa.CheckConstraint("status in ('pending', 'approved')", name='ck_parent_link_status'),
                 sa.ForeignKeyConstraint(['approved_by'], ['account.id'], name='fk_parent_link_approved_by_account',
                                         ondelete='SET NULL')]
    return sa.Table(name, _meta(), *cols,
                    sa.ForeignKeyConstraint(['kid_id'], [f'{account}.id'], name=f'fk_parent_link_kid_id_{account}',
                                            ondelete='CASCADE'),
                    sa.ForeignKeyConstraint(['parent_id'], [f'{account}.id'],
                                            name=f'fk_parent_link_parent_id_{account}', ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('id', name='pk_parent_link'),
                    sa.UniqueConstraint('parent_id', 'kid_id', name='uq_parent_link_parent_kid'),
                    *extra, sqlite_autoincrement=new)


# ---------------------------------------------------------------------- SQLite
def _sqlite_begin(bind):
    """Foreign keys off for the rebuild, then one transaction of our own (PRAGMA foreign_keys is ignored
    inside a transaction, and the steps before this one may have left one open)."""
    raw = bind.connection.dbapi_connection
    if raw.in_transaction:
        raw.commit()
    raw.execute("PRAGMA foreign_keys=OFF")
    raw.execute("BEGIN")
    return raw


def _sqlite_end(raw):
    broken = raw.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raw.rollback()
        raw.execute("PRAGMA foreign_keys=ON")
        raise RuntimeError(f"the rebuilt tables break foreign keys: {broken[:5]}")
    raw.commit()
    raw.execute("PRAGMA foreign_keys=ON")


def _sqlite_rebuild(raw, table: sa.Table, name: str, columns: list[str], extra: dict[str, str] | None = None,
                    indexes: list[tuple[str, str]] = ()):
    """The SQLite procedure for a changed table: build the new one, copy every row, drop the old, rename; the
    tables pointing at ``name`` keep pointing at it by name."""
    from sqlalchemy.schema import CreateTable

    dialect = op.get_bind().dialect
    raw.execute(str(CreateTable(table).compile(dialect=dialect)))
    extra = extra or {}
    targets = ", ".join(f'"{c}"' for c in columns + list(extra))
    sources = ", ".join([f'"{c}"' for c in columns] + list(extra.values()))
    raw.execute(f'INSERT INTO "{table.name}" ({targets}) SELECT {sources} FROM "{name}"')
    raw.execute(f'DROP TABLE "{name}"')
    raw.execute(f'ALTER TABLE "{table.name}" RENAME TO "{name}"')
    for index, column in indexes:
        raw.execute(f'CREATE INDEX "{index}" ON "{name}" ("{column}")')


def _upgrade_sqlite(bind):
    raw = _sqlite_begin(bind)
    try:
        # the renames rewrite the references in every table pointing at them
        raw.execute('ALTER TABLE "user" RENAME TO account')
        raw.execute('ALTER TABLE "group" RENAME TO kid_group')
        _sqlite_rebuild(raw, _account('_new_account', True), 'account', ACCOUNT_COLUMNS,
                        {"session_secret": "lower(hex(randomblob(16)))"})
        _sqlite_rebuild(raw, _group('_new_kid_group', True), 'kid_group', GROUP_COLUMNS)
        _sqlite_rebuild(raw, _parent_link('_new_parent_link', True), 'parent_link', LINK_COLUMNS,
                        {"status": "'approved'"},
                        [('ix_parent_link_kid_id', 'kid_id'), ('ix_parent_link_parent_id', 'parent_id')])
        for statement in _new_tables_sql(bind):
            raw.execute(statement)
    except Exception:
        raw.rollback()
        raw.execute("PRAGMA foreign_keys=ON")
        raise
    _sqlite_end(raw)


def _downgrade_sqlite(bind):
    raw = _sqlite_begin(bind)
    try:
        raw.execute('DROP TABLE teacher_invitation')
        raw.execute('DROP TABLE link_invitation')
        _sqlite_rebuild(raw, _parent_link('_old_parent_link', False), 'parent_link', LINK_COLUMNS,
                        indexes=[('ix_parent_link_kid_id', 'kid_id'), ('ix_parent_link_parent_id', 'parent_id')])
        _sqlite_rebuild(raw, _account('_old_account', False), 'account', ACCOUNT_COLUMNS)
        _sqlite_rebuild(raw, _group('_old_group', False), 'kid_group', GROUP_COLUMNS)
        raw.execute('ALTER TABLE account RENAME TO "user"')
        raw.execute('ALTER TABLE kid_group RENAME TO "group"')
        raw.execute("DELETE FROM sqlite_sequence WHERE name IN ('user', 'group', 'parent_link')")
    except Exception:
        raw.rollback()
        raw.execute("PRAGMA foreign_keys=ON")
        raise
    _sqlite_end(raw)


# ---------------------------------------------------------------------- the new tables (both databases)
def _new_tables():
    meta = _meta()
    link = sa.Table(
        'link_invitation', meta,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('code', sa.String(length=16), nullable=False),
        sa.Column('kid_id', sa.Integer(), nullable=False),
        sa.Column('created_by', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('used_at', sa.DateTime(), nullable=True),
        sa.Column('used_by', sa.Integer(), nullable=True),
        sa.Column('withdrawn_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['kid_id'], ['account.id'], name='fk_link_invitation_kid_id_account',
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['created_by'], ['account.id'], name='fk_link_invitation_created_by_account',
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['used_by'], ['account.id'], name='fk_link_invitation_used_by_account',
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name='pk_link_invitation'),
        sa.UniqueConstraint('code', name='uq_link_invitation_code'),
        sqlite_autoincrement=True)
    sa.Index('ix_link_invitation_kid_id', link.c.kid_id)
    teacher = sa.Table(
        'teacher_invitation', meta,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('invitee_id', sa.Integer(), nullable=True),
        sa.Column('invited_by', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['kid_group.id'], name='fk_teacher_invitation_group_id_kid_group',
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['invitee_id'], ['account.id'], name='fk_teacher_invitation_invitee_id_account',
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['invited_by'], ['account.id'], name='fk_teacher_invitation_invited_by_account',
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name='pk_teacher_invitation'),
        sa.UniqueConstraint('group_id', 'email', name='uq_teacher_invitation_group_email'),
        sqlite_autoincrement=True)
    sa.Index('ix_teacher_invitation_group_id', teacher.c.group_id)
    sa.Index('ix_teacher_invitation_email', teacher.c.email)
    sa.Index('ix_teacher_invitation_invitee_id', teacher.c.invitee_id)
    return [link, teacher]


def _new_tables_sql(bind):
    from sqlalchemy.schema import CreateIndex, CreateTable

    for table in _new_tables():
        yield str(CreateTable(table).compile(dialect=bind.dialect))
        for index in table.indexes:
            yield str(CreateIndex(index).compile(dialect=bind.dialect))


# ---------------------------------------------------------------------- PostgreSQL
def _rename_postgresql(old_names: dict[str, str]):
    """Tables, their sequences and the constraint names that say a table's name, from old to new."""
    for old, new in old_names.items():
        op.execute(f'ALTER TABLE "{old}" RENAME TO "{new}"')
        op.execute(f'ALTER SEQUENCE "{old}_id_seq" RENAME TO "{new}_id_seq"')
        for kind in ("pk",):
            op.execute(f'ALTER TABLE "{new}" RENAME CONSTRAINT "{kind}_{old}" TO "{kind}_{new}"')
    for table, column, target in FOREIGN_KEYS:
        old, new = (target, NEW_NAME[target]) if target in old_names else (NEW_NAME[target], target)
        op.execute(f'ALTER TABLE "{table}" RENAME CONSTRAINT "fk_{table}_{column}_{old}" TO '
                   f'"fk_{table}_{column}_{new}"')


def _upgrade_postgresql(bind):
    _rename_postgresql({"user": "account", "group": "kid_group"})
    op.execute('ALTER TABLE account RENAME CONSTRAINT uq_user_email TO uq_account_email')
    op.execute('ALTER TABLE account RENAME CONSTRAINT ck_user_role TO ck_account_role')
    op.execute('ALTER TABLE kid_group RENAME CONSTRAINT uq_group_code TO uq_kid_group_code')
    op.execute('ALTER TABLE kid_group RENAME CONSTRAINT ck_group_kind TO ck_kid_group_kind')
    op.add_column('account', sa.Column('session_secret', sa.String(length=32), nullable=True))
    # a strong random secret per account (pgcrypto is not needed: gen_random_uuid is built in since 13)
    op.execute("UPDATE account SET session_secret = replace(gen_random_uuid()::text, '-', '')")
    op.alter_column('account', 'session_secret', nullable=False)
    op.add_column('parent_link', sa.Column('status', sa.String(length=10), nullable=False,
                                           server_default='approved'))
    op.alter_column('parent_link', 'status', server_default=None)
    op.add_column('parent_link', sa.Column('created_at', sa.DateTime(), nullable=True))
    op.add_column('parent_link', sa.Column('approved_by', sa.Integer(), nullable=True))
    op.add_column('parent_link', sa.Column('approved_at', sa.DateTime(), nullable=True))
    op.create_check_constraint('ck_parent_link_status', 'parent_link', "status in ('pending', 'approved')")
    op.create_foreign_key('fk_parent_link_approved_by_account', 'parent_link', 'account', ['approved_by'], ['id'],
                          ondelete='SET NULL')
    for statement in _new_tables_sql(bind):
        op.execute(statement)


def _downgrade_postgresql(bind):
    op.drop_table('teacher_invitation')
    op.drop_table('link_invitation')
    op.drop_constraint('fk_parent_link_approved_by_account', 'parent_link', type_='foreignkey')
    op.drop_constraint('ck_parent_link_status', 'parent_link', type_='check')
    for column in ('approved_at', 'approved_by', 'created_at', 'status'):
        op.drop_column('parent_link', column)
    op.drop_column('account', 'session_secret')
    op.execute('ALTER TABLE account RENAME CONSTRAINT uq_account_email TO uq_user_email')
    op.execute('ALTER TABLE account RENAME CONSTRAINT ck_account_role TO ck_user_role')
    op.execute('ALTER TABLE kid_group RENAME CONSTRAINT uq_kid_group_code TO uq_group_code')
    op.execute('ALTER TABLE kid_group RENAME CONSTRAINT ck_kid_group_kind TO ck_group_kind')
    _rename_postgresql({"account": "user", "kid_group": "group"})


def upgrade():
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        _upgrade_sqlite(bind)
    else:
        _upgrade_postgresql(bind)


def downgrade():
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        _downgrade_sqlite(bind)
    else:
        _downgrade_postgresql(bind)
