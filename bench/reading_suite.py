"""Run a GNU Go regression file in-process against the engine and show each test's answer and time.

A development tool for the tactical reader (the product's runner is ``teach go regress``, which talks to a
``teach gtp`` subprocess exactly as GNU Go's own tools do):

    python bench/reading_suite.py ../shared/peer/gnugo-regression/reading.tst [--only 12,13] [--slow 0.5]

Through GTP a read cut short answers ``0``, like a read that found nothing; here such answers are marked
``unknown`` and the summary says how many passes they are. ``--seconds 600`` reads to the node budget alone
(the machine-independent answers); the default is the GTP front end's 2 s.
"""

from __future__ import annotations

import os
import sys
import time

from teach.go.gtp import GtpEngine
from teach.go.regress import parse_tst, report_line, run_in_process

from suite_args import apply_limits, parse_suite, suite_parser


def main(argv=None) -> int:
    ap = suite_parser(2.0, "the reader's clock per answer (the GTP default: 2)")
    ap.add_argument("--limits", default="", help="reader limits to try, e.g. threelib_depth=9,fourlib_depth=5")
    args = parse_suite(ap, argv)
    apply_limits(args.limits)
    os.chdir(args.file.parent)
    engine = GtpEngine(read_seconds=args.seconds)
    passed = total = 0
    worst, worst_test = 0.0, "-"
    unknown_passes = []
    start_all = time.perf_counter()
    steps = parse_tst(args.file.read_text(encoding="utf-8", errors="replace"))
    for step, response, took, ok in run_in_process(steps, engine.handle, only=args.only):
        if took > worst:
            worst, worst_test = took, step.number
        total += 1
        passed += ok
        if ok and engine.unknown:
            unknown_passes.append(step.number)
        if not ok or not args.quiet or took > args.slow or engine.unknown:
            print(report_line(step, response, took, ok, args.slow) + ("  unknown" if engine.unknown else ""))
    unknowns = f", {len(unknown_passes)} of the passes unknown ({' '.join(unknown_passes)})" if unknown_passes else ""
    print(f"{args.file.name}: {passed}/{total}{unknowns} in {time.perf_counter() - start_all:.1f} s, "
          f"slowest {worst:.2f} s (test {worst_test})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
