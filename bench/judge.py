"""Move judge speed: every legal first move of every curriculum puzzle, judged cold and cached.

Usage: python bench/judge.py [--goal KIND] [--lesson ID] [--top N] [--no-solve]

For every puzzle in lessons/ (loaded with ``teach.lessons.load_lessons()``) and every legal first move:

- cold: a fresh ``Judge`` (what a web process pays for the first kid who plays that move),
- cached: the same call again on that judge (every later kid),

with p50/p99/max per judgement against the targets (p99 <= 50 ms cold, <= 2 ms cached), then the time of
``Judge.solve()`` per puzzle (what ``teach lessons check`` pays to prove a puzzle) and the slowest puzzles.
Times are CPU seconds of this process (the machine is shared; wall time follows other people's jobs).
Budgets are the defaults a ``Puzzle.judge()`` uses.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teach.go.judge import Judge  # noqa: E402
from teach.lessons import load_lessons  # noqa: E402

COLD_TARGET, CACHED_TARGET = 0.050, 0.002


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def row(name: str, values: list[float], target: float | None = None) -> str:
    if not values:
        return f"{name:10} {'-':>6}"
    p50, p99, worst = percentile(values, 50), percentile(values, 99), max(values)
    mark = "" if target is None else ("  ok" if p99 <= target else f"  over target ({target * 1000:.0f} ms)")
    return f"{name:10} {len(values):6} {p50 * 1000:9.2f} {p99 * 1000:9.2f} {worst * 1000:9.1f}{mark}"


def puzzles(args) -> list[tuple[str, object]]:
    catalog = load_lessons()
    found = []
    for lesson_id, lesson in sorted(catalog.lessons.items()):
        if args.lesson and lesson_id != args.lesson:
            continue
        for i, puzzle in enumerate(lesson.puzzles):
            if args.goal and puzzle.goal != args.goal:
                continue
            found.append((f"{lesson_id}#{i + 1} {puzzle.goal} {','.join(puzzle.targets)}", puzzle))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goal", help="only puzzles with this goal")
    ap.add_argument("--lesson", help="only this lesson id")
    ap.add_argument("--top", type=int, default=8, help="how many of the slowest puzzles to list")
    ap.add_argument("--no-solve", action="store_true", help="skip timing Judge.solve()")
    args = ap.parse_args()

    clock = time.process_time
    found = puzzles(args)
    cold: dict[str, list[float]] = defaultdict(list)
    cached: dict[str, list[float]] = defaultdict(list)
    slow_moves: list[tuple[float, str, str, str]] = []
    solve_times: list[tuple[float, str, str]] = []
    unknown = 0
    wall = time.perf_counter()
    for name, puzzle in found:
        start, goal = puzzle.start(), puzzle.goal_object()
        for move in start.legal_moves():
            t = clock()
            judge = Judge(start, goal)
            verdict = judge.judge([], move)
            took = clock() - t
            cold[puzzle.goal].append(took)
            slow_moves.append((took, name, move, verdict.result + (f" {verdict.reason}" if verdict.reason else "")))
            unknown += verdict.reason == "unknown"
            t = clock()
            again = judge.judge([], move)
            cached[puzzle.goal].append(clock() - t)
            assert again == verdict, (name, move, verdict, again)
        if not args.no_solve:
            t = clock()
            solution = Judge(start, goal).solve()
            solve_times.append((clock() - t, name, solution.status))
    wall = time.perf_counter() - wall

    print(f"{len(found)} puzzles, {sum(map(len, cold.values()))} first moves judged "
          f"({unknown} unknown) in {wall:.1f} s wall\n")
    print(f"{'ms / move':10} {'moves':>6} {'p50':>9} {'p99':>9} {'max':>9}")
    print("cold (a fresh Judge)")
    for kind in sorted(cold):
        print(row("  " + kind, cold[kind]))
    print(row("  all", [v for vs in cold.values() for v in vs], COLD_TARGET))
    print("cached (the same call again)")
    for kind in sorted(cached):
        print(row("  " + kind, cached[kind]))
    print(row("  all", [v for vs in cached.values() for v in vs], CACHED_TARGET))

    print("\nslowest cold judgements")
    for took, name, move, result in sorted(slow_moves, reverse=True)[:args.top]:
        print(f"  {took * 1000:8.1f} ms  {name}  {move}: {result}")
    if solve_times:
        total = sum(t for t, _, _ in solve_times)
        values = [t for t, _, _ in solve_times]
        print(f"\nJudge.solve() per puzzle: total {total:.1f} s, p50 {percentile(values, 50) * 1000:.0f} ms, "
              f"p99 {percentile(values, 99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")
        for took, name, status in sorted(solve_times, reverse=True)[:args.top]:
            print(f"  {took * 1000:8.0f} ms  {name}: {status}")


if __name__ == "__main__":
    main()
