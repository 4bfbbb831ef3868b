"""The ``teach`` console script: a FlaskGroup, so ``teach run`` serves the app and other commands hang off it."""

from __future__ import annotations

import sys

import click
from flask.cli import FlaskGroup


def _create_app():
    from teach.web import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app)
def cli() -> None:
    """teach: a Go classroom for kids."""


@cli.command("gtp")
def gtp_command() -> None:
    """Speak GTP version 2 on stdin/stdout (for GoGui, Sabaki, GNU Go's regression files)."""
    from teach.go.gtp import GtpEngine

    GtpEngine().serve(sys.stdin, sys.stdout)


@cli.group("go")
def go_group() -> None:
    """Tools around the rules engine."""


@go_group.command("regress")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--verbose", "-v", is_flag=True, help="Show every failing test with the answer given.")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds allowed for one command.")
def regress_command(files: tuple[str, ...], verbose: bool, timeout: float) -> None:
    """Run GNU Go regression (.tst) files against `teach gtp`; print pass counts and time per file."""
    from teach.regress import main

    sys.exit(main(list(files), verbose=verbose, timeout=timeout))
