"""The ``teach`` console script: a FlaskGroup, so ``teach run`` serves the app and other commands hang off it."""

from __future__ import annotations

import sys

import click
from flask.cli import FlaskGroup

from teach.go.judge import GOALS


def _create_app():
    from teach.web import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app)
def cli() -> None:
    """teach: a Go classroom for kids."""


@cli.command("gtp")
@click.option("--level", default=3, show_default=True, type=click.IntRange(1, 8),
              help="The computer level genmove plays: 1 (mouse) to 6 (chief) built in, 7 and 8 GNU Go.")
@click.option("--seed", default=0, show_default=True, type=int, help="The seed of the computer's random choices.")
@click.option("--capture", default=None, type=click.IntRange(1, None),
              help="Play the capture game: the first side to capture this many stones wins.")
def gtp_command(level: int, seed: int, capture: int | None) -> None:
    """Speak GTP version 2 on stdin/stdout (for GoGui, Sabaki, GNU Go's regression files)."""
    from teach.go.game import Rules
    from teach.go.gtp import GtpEngine

    GtpEngine(seed=seed, level=level, rules=Rules(capture_goal=capture)).serve(sys.stdin, sys.stdout)


@cli.group("go")
def go_group() -> None:
    """Tools around the rules engine."""


@go_group.command("regress")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--verbose", "-v", is_flag=True, help="Show every failing test with the answer given.")
@click.option("--timeout", default=10.0, show_default=True, help="Seconds allowed for one command.")
def regress_command(files: tuple[str, ...], verbose: bool, timeout: float) -> None:
    """Run GNU Go regression (.tst) files against `teach gtp`; print pass counts and time per file."""
    from teach.go.regress import main

    sys.exit(main(list(files), verbose=verbose, timeout=timeout))


@go_group.command("solve")
@click.argument("sgf_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--goal", required=True, type=click.Choice(list(GOALS)))
@click.option("--target", "targets", required=True, multiple=True, help="A stone of the chain or group (repeatable).")
@click.option("--move", "move_number", type=int, default=None, help="Read the position before this move.")
@click.option("--to-play", type=click.Choice(["black", "white"]), default=None, help="Override the side to move.")
@click.option("--json", "as_json", is_flag=True, help="Print the solution as JSON.")
def solve_command(sgf_file: str, goal: str, targets: tuple[str, ...], move_number: int | None,
                  to_play: str | None, as_json: bool) -> None:
    """Solve a puzzle: the status, every winning first move, and the refutation of every losing one."""
    import json
    from pathlib import Path

    from teach.go import Game
    from teach.go.judge import Goal, GoalError, Judge
    from teach.go.sgf import SGFError

    try:
        game = Game.from_sgf(Path(sgf_file).read_bytes(), move_number=move_number)
        if to_play:
            game.to_play = to_play
        solution = Judge(game, Goal(goal, tuple(t.upper() for t in targets))).solve()
    except (SGFError, GoalError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps({"status": solution.status, "to_play": game.to_play, "goal": goal,
                               "targets": list(targets), "winning": solution.winning,
                               "refutations": solution.refutations}, ensure_ascii=False, indent=2))
        return
    click.echo(f"{game.to_play} to play, goal: {goal} {' '.join(targets)}: {solution.status}")
    click.echo("winning first moves: " + (", ".join(f"{m} ({r})" for m, r in solution.winning.items()) or "none"))
    for move, reply in solution.refutations.items():
        click.echo(f"  {move}: refuted by {reply or 'pass'}")


@cli.group("proofs")
def proofs_group() -> None:
    """The queue of teachers' uploads waiting for their proof."""


@proofs_group.command("run")
def proofs_run_command() -> None:
    """Prove every queued upload now, one at a time, each within PROOF_DEADLINE_SECONDS; print how each ended."""
    from teach.web import proofs

    ran = 0
    while (status := proofs.run_next()) is not None:
        ran += 1
        click.echo(f"proof {ran}: {status}")
    click.echo(f"{ran} proof{'s' if ran != 1 else ''} run")


@cli.group("reviews")
def reviews_group() -> None:
    """The queue of finished games waiting for their review (the captures a kid missed)."""


@reviews_group.command("run")
def reviews_run_command() -> None:
    """Review every finished game waiting, one at a time, each within REVIEW_DEADLINE_SECONDS; print how each
    ended (how many findings, or why none)."""
    from teach.web import reviews

    ran = 0
    while (status := reviews.run_next()) is not None:
        ran += 1
        click.echo(f"review {ran}: {status}")
    click.echo(f"{ran} review{'s' if ran != 1 else ''} run")


from teach.lessons.cli import lessons_group  # noqa: E402  (after `cli` exists; the group imports lazily)

cli.add_command(lessons_group)
