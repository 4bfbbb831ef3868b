"""The engine's two builds side by side: the same work on the Python source and on the mypyc-compiled modules.

Each workload is one of the other benchmarks (or the suite runner), run as a child process twice in a row —
``TEACH_PURE_PYTHON=1``, then the compiled build — with its answers compared: the table gives each run's CPU
seconds (user + system of the child), the ratio, and whether the two printed the same answers (the lines named by
the workload, timings removed). The compiled build must have been made (``make``): the script refuses otherwise.

    .venv/bin/python bench/builds.py                 # every workload
    .venv/bin/python bench/builds.py reading optics  # some of them

Run it on a quiet machine: the two builds take turns, so a neighbour's load falls on both, not evenly.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT.parent / "shared" / "peer" / "gnugo-regression"
PY = sys.executable

# name -> (command, what the run answers: a regex for the lines compared between builds, what it measures)
WORKLOADS: dict[str, tuple[list[str], str | None, str]] = {
    "reading": ([PY, "bench/reading_suite.py", str(PEER / "reading.tst")], r"^(ok|FAIL)\s",
                "GNU Go's reading.tst in-process, 2 s a test (the GTP front end's clock)"),
    "reading-nodes": ([PY, "bench/reading_suite.py", str(PEER / "reading.tst"), "--seconds", "600"],
                      r"^(ok|FAIL)\s", "reading.tst read to the node budget alone (the same answers on any machine)"),
    "optics": ([PY, "bench/life_suite.py", "tst", str(PEER / "optics.tst")], r"^(ok|FAIL)\s",
               "optics.tst (eye values) in-process"),
    "connection": ([PY, "bench/connection_suite.py", str(PEER / "connection.tst")], r"^(ok|FAIL)\s",
                   "connection.tst in-process"),
    # these two print their times, not their moves or puzzles: nothing to compare but the CPU
    "bot": ([PY, "bench/bot_time.py", "--sizes", "9"], None, "CPU per computer move, 9x9, every level"),
    "practice": ([PY, "bench/practice.py", "--whole", "9"], None,
                 "a practice set of ten generated and proven whole, 9x9"),
}


def run(name: str, pure: bool) -> tuple[float, float, list[str], str]:
    """(CPU seconds, wall seconds, the answer lines, the last line) of one workload on one build."""
    command, answers, _ = WORKLOADS[name]
    env = {k: v for k, v in os.environ.items() if k != "TEACH_PURE_PYTHON"}
    if pure:
        env["TEACH_PURE_PYTHON"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{name} ({'source' if pure else 'compiled'}) failed:\n{out.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = out.stdout.splitlines()
    if answers is None:
        return cpu, wall, [], out.stdout
    pattern = re.compile(answers)
    # the answers without their timings: a number followed by s or ms is a time
    chosen = [re.sub(r"\d+(\.\d+)?\s*(ms|s)\b", "", line).split("SLOW")[0].rstrip()
              for line in lines if pattern.search(line)]
    return cpu, wall, chosen, (lines[-1] if lines else "")


def main(argv: list[str]) -> None:
    names = argv or list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        raise SystemExit(f"unknown workload {', '.join(unknown)}; choose from {', '.join(WORKLOADS)}")
    check = subprocess.run([PY, "-c", "import teach.go; print(teach.go.BUILD)"], cwd=ROOT, capture_output=True,
                           text=True)
    if check.stdout.strip() != "compiled":
        raise SystemExit("the compiled build is not in use here (make builds it): nothing to compare")
    print(f"{'workload':<14}{'source s':>10}{'compiled s':>12}{'ratio':>8}  same answers  what")
    for name in names:
        pure_cpu, _, pure_answers, pure_last = run(name, pure=True)
        fast_cpu, _, fast_answers, fast_last = run(name, pure=False)
        if WORKLOADS[name][1] is None:
            same = "n/a"
        elif pure_answers == fast_answers:
            same = f"yes ({len(pure_answers)})"
        else:
            same = f"no: {sum(a != b for a, b in zip(pure_answers, fast_answers))} of {len(pure_answers)} differ"
        print(f"{name:<14}{pure_cpu:>10.1f}{fast_cpu:>12.1f}{pure_cpu / fast_cpu:>7.2f}x  {same:<12}  "
              f"{WORKLOADS[name][2]}", flush=True)
        for build, last in (("source", pure_last), ("compiled", fast_last)):
            print("\n".join(f"{'':<14}{build + ':':<10}{line}" for line in last.strip().splitlines()), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
