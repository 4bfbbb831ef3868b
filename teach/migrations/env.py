"""Alembic's entry point, run by `teach db upgrade` (Flask-Migrate): migrate the app's database."""

from __future__ import annotations

import logging

from alembic import context
from flask import current_app

log = logging.getLogger("alembic.env")
config = context.config
migrate = current_app.extensions["migrate"]
engine = migrate.db.engine
metadata = migrate.db.metadata
config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))


def skip_empty_autogenerate(ctx, revision, directives) -> None:
    """`teach db migrate` with no model change writes no empty migration."""
    if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
        directives[:] = []
        log.info("no changes in the models")


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    args = dict(migrate.configure_args)
    args.setdefault("process_revision_directives", skip_empty_autogenerate)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata, **args)
        with context.begin_transaction():
            context.run_migrations()
