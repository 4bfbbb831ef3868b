"""``teach lessons``: check lesson files (validate and prove every puzzle)."""

from __future__ import annotations

import json
import sys

import click


@click.group("lessons")
def lessons_group() -> None:
    """Lesson files: check them."""


@lessons_group.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the errors and the summary as JSON.")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: one per core).")
def check_command(paths: tuple[str, ...], as_json: bool, jobs: int | None) -> None:
    """Validate lesson files and prove every puzzle (default: the lessons/ folder). Exit status 1 on any error."""
    from .loader import check_paths

    report = check_paths(list(paths) or None, workers=jobs)
    if as_json:
        click.echo(json.dumps({"ok": report.ok, "files": report.files, "lessons": report.lessons,
                               "puzzles": report.puzzles, "seconds": round(report.seconds, 2),
                               "errors": [e.as_dict() for e in report.errors]}, ensure_ascii=False, indent=2))
    else:
        for error in report.errors:
            click.echo(str(error))
        n = len(report.errors)
        click.echo(f"{report.files} file{'s' * (report.files != 1)}, {report.lessons} lesson"
                   f"{'s' * (report.lessons != 1)}, {report.puzzles} puzzle{'s' * (report.puzzles != 1)} checked "
                   f"in {report.seconds:.1f}s: " + (f"{n} error{'s' * (n != 1)}" if n else "ok"))
    sys.exit(1 if report.errors else 0)


@lessons_group.command("practice")
# --topic is the option's first name, kept so scripts that wrote it still work
@click.option("--drill", "--topic", "drill", required=True,
              type=click.Choice(["liberties", "atari", "capture", "escape", "ladder", "net"]))
@click.option("--level", required=True, type=click.IntRange(1, 3))
@click.option("--seed", required=True, help="The same seed gives the same puzzles (hand it to a whole class).")
@click.option("--count", default=10, show_default=True, type=click.IntRange(0, 200))
@click.option("--size", default="9", show_default=True, type=click.Choice(["9", "13"]))
def practice_command(drill: str, level: int, seed: str, count: int, size: str) -> None:
    """Print fresh practice steps for a drill and level as lesson-file YAML, each puzzle proven by the judge."""
    from .practice import generate, to_yaml

    click.echo(to_yaml(generate(drill, level, seed, count=count, size=int(size))), nl=False)
