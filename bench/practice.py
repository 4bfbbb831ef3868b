"""Practice generator speed: puzzles generated per second for every topic and level, on 9x9 and 13x13.

Usage: python bench/practice.py [COUNT] [SIZE ...]   (default: 3 puzzles per cell, sizes 9 and 13)
       python bench/practice.py --whole [SIZE ...]   (a set of ten per cell, generated and proven whole)

Each cell generates COUNT puzzles from a fixed seed (every puzzle proven by the judge, so this is the cost a
teacher waits for when asking for a fresh set). CPU time is reported next to wall time: the machine is shared.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teach.lessons.practice import DRILLS, LEVELS, generate  # noqa: E402


def whole(sizes: list[int]) -> None:
    """What a kid opening a fresh practice set waits for: ten puzzles generated, each proven whole (every
    position a child can reach), as the web app does (``teach.web.practice.practice_set``)."""
    from teach.lessons import wholeproof
    from teach.lessons.practice import SET_SIZE
    from teach.lessons.practice.proofs import solved_judge
    from teach.lessons.step import build_step

    print(f"a set of {SET_SIZE}: CPU seconds to generate + to prove whole; proven/puzzles; positions")
    worst = 0.0
    for size in sizes:
        print(f"\n{size}x{size}    " + "".join(f"{'level ' + str(level):>30}" for level in LEVELS))
        for topic in DRILLS:
            cells = []
            for level in LEVELS:
                cpu = time.process_time()
                steps = [build_step(raw, size, prove=False)[0]
                         for raw in generate(topic, level, seed="bench", count=SET_SIZE, size=size)]
                made = time.process_time() - cpu
                puzzles = [s for s in steps if s is not None and s.kind == "puzzle"]
                proven = sum(wholeproof.attach(p, wholeproof.PRACTICE_SECONDS,
                                               judge=solved_judge(p.start(), p.goal_object())) for p in puzzles)
                proving = time.process_time() - cpu - made
                positions = sum(len(p.__dict__["proof"].positions) for p in puzzles if "proof" in p.__dict__)
                worst = max(worst, made + proving)
                cells.append(f"{made:5.2f}+{proving:5.2f}s {proven:2}/{len(puzzles):<2} {positions:4}")
            print(f"{topic:10}" + "".join(f"{c:>30}" for c in cells), flush=True)
    print(f"\nslowest set: {worst:.2f} s CPU (target 5 s)")


def main(argv: list[str]) -> None:
    if argv[:1] == ["--whole"]:
        whole([int(a) for a in argv[1:]] or [9, 13])
        return
    count = int(argv[0]) if argv else 3
    sizes = [int(a) for a in argv[1:]] or [9, 13]
    print(f"{count} puzzles per cell; puzzles per second (CPU seconds per puzzle)")
    for size in sizes:
        print(f"\n{size}x{size}    " + "".join(f"{'level ' + str(level):>18}" for level in LEVELS))
        for topic in DRILLS:
            cells = []
            for level in LEVELS:
                wall, cpu = time.perf_counter(), time.process_time()
                generate(topic, level, seed="bench", count=count, size=size)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                cells.append(f"{count / cpu:8.2f}/s ({cpu / count:5.2f}s)")
            print(f"{topic:10}" + "".join(f"{c:>18}" for c in cells), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
