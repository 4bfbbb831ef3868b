"""Dead-stone estimate against GNU Go, and GNU Go regression files in-process.

    python bench/life_suite.py estimate [--sizes 9,13] [--limit N]   # teach.go.status vs gnugo final_status_list dead
    python bench/life_suite.py tst ../shared/peer/gnugo-regression/optics.tst [--only 101,102]

The product's runner is ``teach go regress`` (a ``teach gtp`` subprocess); this one shows each answer and its
time, and compares the dead-stone estimate with GNU Go on every finished 9x9/13x13 peer record (the last two
moves are passes, or the record has a result in points).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from teach.go import Game
from teach.go.status import estimate

PEER = Path(__file__).resolve().parents[2] / "shared" / "peer" / "gnugo-regression"
GNUGO = "/usr/games/gnugo"


def finished_records(sizes: set[int]) -> list[Path]:
    """Peer records of these sizes that ended: two passes at the end, or a result (RE) property."""
    out = []
    for path in sorted((PEER / "games").rglob("*.sgf")):
        data = path.read_bytes()
        try:
            game = Game.from_sgf(data)
        except Exception:
            continue
        if game.size not in sizes or not any(game.board):
            continue
        two_passes = len(game.moves) >= 2 and game.moves[-1][1] is None and game.moves[-2][1] is None
        if two_passes or re.search(rb"RE\[[BW]\+[0-9]", data):
            out.append(path)
    return out


def gnugo_dead(path: Path) -> set[str] | None:
    try:
        run = subprocess.run([GNUGO, "--mode", "gtp", "--chinese-rules"], input=f"loadsgf {path}\nfinal_status_list dead\n",
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    answers = [a for a in run.stdout.split("\n\n") if a.strip()]
    if len(answers) < 2 or not answers[1].startswith("="):
        return None
    return set(answers[1][1:].split())


def compare(path: Path) -> tuple[set[str], set[str], set[str], int, float] | None:
    """(ours, gnugo's, unsure) dead stones as names, the board's stone count, our time."""
    theirs = gnugo_dead(path)
    if theirs is None:
        return None
    game = Game.from_sgf(path.read_bytes())
    start = time.perf_counter()
    est = estimate(game)
    took = time.perf_counter() - start
    ours = {game.name(p) for p in est.dead}
    unsure = {game.name(p) for p in est.unsure}
    return ours, theirs, unsure, sum(1 for c in game.board if c), took


def main_estimate(args) -> int:
    paths = finished_records({int(s) for s in args.sizes.split(",")})
    if args.limit:
        paths = paths[: args.limit]
    games_ok = games = 0
    points_ok = points = 0
    slowest = 0.0
    for path in paths:
        got = compare(path)
        if got is None:
            continue
        ours, theirs, unsure, stones, took = got
        slowest = max(slowest, took)
        games += 1
        games_ok += ours == theirs
        wrong = ours ^ theirs
        points += stones
        points_ok += stones - len(wrong)
        if ours != theirs:
            print(f"{path.relative_to(PEER)}: only ours {sorted(ours - theirs)} only gnugo {sorted(theirs - ours)} "
                  f"(unsure {len(unsure)}) {took:.2f}s")
    print(f"games agreeing {games_ok}/{games}; stones agreeing {points_ok}/{points}; slowest {slowest:.2f}s")
    return 0


def main_tst(args) -> int:
    from teach.go.gtp import GtpEngine
    from teach.go.regress import parse_tst, report_line, run_in_process

    only = set(filter(None, args.only.split(",")))
    path = Path(args.file).resolve()
    os.chdir(path.parent)
    engine = GtpEngine()
    passed = total = 0
    worst = 0.0
    start_all = time.perf_counter()
    steps = parse_tst(path.read_text(encoding="utf-8", errors="replace"))
    for step, response, took, ok in run_in_process(steps, engine.handle, only=only):
        worst = max(worst, took)
        total += 1
        passed += ok
        if not ok or not args.quiet:
            print(report_line(step, response, took, ok), flush=True)
    print(f"{path.name}: {passed}/{total} in {time.perf_counter() - start_all:.1f} s, slowest {worst:.2f} s")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("estimate")
    e.add_argument("--sizes", default="9,13")
    e.add_argument("--limit", type=int, default=0)
    t = sub.add_parser("tst")
    t.add_argument("file")
    t.add_argument("--only", default="")
    t.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    return main_estimate(args) if args.what == "estimate" else main_tst(args)


if __name__ == "__main__":
    sys.exit(main())
