"""Run GNU Go's connection regression file in-process against the connection reader.

    python bench/connection_suite.py ../shared/peer/gnugo-regression/connection.tst [--only 21,22] [--quiet]

``connect A B`` / ``disconnect A B`` are answered by ``teach.go.connection.gtp_connect`` (result code 0/1/2/3
as for attack/defend, then the move); every other command (loadsgf, trymove, popgo...) goes to the GTP
engine. ``same_dragon`` needs GNU Go's dragons, which the engine does not have: those tests are counted as
not run.
"""

from __future__ import annotations

import os
import sys
import time

from teach.go.connection import gtp_connect
from teach.go.coords import parse_point
from teach.go.gtp import GtpEngine
from teach.go.reading import BudgetExceeded, Limits
from teach.go.regress import parse_tst, report_line, run_in_process

from suite_args import parse_suite, suite_parser


def answer(engine: GtpEngine, command: str, limits: Limits) -> str:
    words = command.split()
    if words and words[0].isdigit():
        words = words[1:]
    game = engine.game
    try:
        a, b = (parse_point(w, game.size) for w in words[1:3])
        code, move = gtp_connect(game, a, b, words[0], limits)
    except BudgetExceeded:
        return "= unknown\n\n"
    except ValueError as e:
        return f"? {e}\n\n"
    return f"= {code}" + (f" {game.name(move)}" if code and move is not None else "") + "\n\n"


def main(argv=None) -> int:
    args = parse_suite(suite_parser(5.0, "time budget per test"), argv)
    limits = Limits(nodes=400_000, seconds=args.seconds)
    os.chdir(args.file.parent)
    engine = GtpEngine()
    passed = total = skipped = 0
    worst = 0.0
    start_all = time.perf_counter()
    steps = parse_tst(args.file.read_text(encoding="utf-8", errors="replace"))
    tests = [s for s in steps
             if s.number is not None and s.pattern is not None and (not args.only or s.number in args.only)]
    skipped = sum(1 for s in tests if s.name not in ("connect", "disconnect"))
    steps = [s for s in steps if s.number is None or s.name in ("connect", "disconnect")]
    for step, response, took, ok in run_in_process(steps, engine.handle,
                                                   lambda s: answer(engine, s.command, limits), args.only):
        worst = max(worst, took)
        total += 1
        passed += ok
        if not ok or not args.quiet or took > args.slow:
            print(report_line(step, response, took, ok, args.slow))
    print(f"{args.file.name}: {passed}/{total} connect/disconnect in {time.perf_counter() - start_all:.1f} s, "
          f"slowest {worst:.2f} s; {skipped} same_dragon tests not run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
