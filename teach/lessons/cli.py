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
        if not paths and report.ok:  # the whole puzzles are proven by `teach lessons prove`, into the store
            from . import proofstore, wholeproof
            from .loader import DEFAULT_DIR

            store = proofstore.load(proofstore.store_path(DEFAULT_DIR))
            click.echo(store.problem or wholeproof.currency(store, wholeproof.puzzles(report.catalog)).summary)
    sys.exit(1 if report.errors else 0)


@lessons_group.command("prove")
@click.option("--check", "only_check", is_flag=True,
              help="Only say whether the proof store is current (exit status 1 if not); prove nothing.")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: one per core).")
@click.option("--budget", type=float, default=None,
              help="CPU seconds one puzzle's proof may take (default: the checker's).")
@click.option("--retry", is_flag=True, help="Try again the puzzles recorded as unproven (say, with a larger budget).")
def prove_command(only_check: bool, jobs: int | None, budget: float | None, retry: bool) -> None:
    """Prove every lesson puzzle whole (every move a child can play, at every position a child can reach) into
    the proof store, lessons/proofs.json, that the web app answers kids' moves from. Only what the store does not
    hold is proven, and the store is written as proofs arrive, so an interrupted run loses nothing."""
    from . import proofstore, wholeproof
    from .loader import DEFAULT_DIR, find_catalog, load_lessons

    catalog = load_lessons()
    path = proofstore.store_path(find_catalog([DEFAULT_DIR]).parent)
    try:
        store = proofstore.read(path)
    except proofstore.StoreError as e:
        if only_check:
            click.echo(str(e))
            sys.exit(1)
        store = proofstore.Store(path)
    puzzles = wholeproof.puzzles(catalog)
    if only_check:
        report = wholeproof.currency(store, puzzles)
        for line in report.lines:
            click.echo(f"{path}: {line}")
        click.echo(report.summary)
        sys.exit(0 if report.current else 1)
    result = wholeproof.prove_all(store, puzzles, workers=jobs, budget=budget, retry=retry,
                                  progress=lambda text: click.echo(text))
    for key, entry in sorted(store.unproven.items(), key=lambda kv: store.where[kv[0]]):
        click.echo(f"{entry['lesson']} step {entry['step'] + 1}: cannot be proven whole: {entry['why']} at "
                   f"{entry['line']}")
    click.echo(result)
    sys.exit(1 if store.unproven else 0)


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
