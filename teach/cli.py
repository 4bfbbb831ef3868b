"""The ``teach`` console script: a FlaskGroup, so ``teach run`` serves the app and other commands hang off it."""

from __future__ import annotations

import click
from flask.cli import FlaskGroup


def _create_app():
    from teach.web import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app)
def cli() -> None:
    """teach: a Go classroom for kids."""
