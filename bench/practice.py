"""Practice generator speed: puzzles generated per second for every topic and level, on 9x9 and 13x13.

Usage: python bench/practice.py [COUNT] [SIZE ...]   (default: 3 puzzles per cell, sizes 9 and 13)

Each cell generates COUNT puzzles from a fixed seed (every puzzle proven by the judge, so this is the cost a
teacher waits for when asking for a fresh set). CPU time is reported next to wall time: the machine is shared.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teach.lessons.practice import DRILLS, LEVELS, generate  # noqa: E402


def main(argv: list[str]) -> None:
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
