"""Move judge speed: every legal first move of every curriculum puzzle, judged cold and cached.

Usage: python bench/judge.py [--goal KIND] [--lesson ID] [--top N] [--no-solve]
       python bench/judge.py --stored     (every reachable move, answered from lessons/proofs.json)

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


def stored() -> None:
    """What a freshly started server pays: the time to load the lessons and the proof store, then every move a
    child can play at every position a child can reach in every proven puzzle, answered as the web app answers it
    (``ProvenJudge.judge``: the line replayed, the position looked up), per topic; the puzzles the store could not
    prove are listed apart (the server reads those live)."""
    from teach.go.proof import ProvenJudge
    from teach.lessons import proofstore
    from teach.lessons.loader import DEFAULT_DIR

    clock = time.perf_counter
    t = clock()
    catalog = load_lessons()
    loaded = clock() - t
    t = clock()
    store = proofstore.read(proofstore.store_path(DEFAULT_DIR))
    read = clock() - t
    size = proofstore.store_path(DEFAULT_DIR).stat().st_size
    print(f"lessons loaded in {loaded:.2f} s, proof store ({size / 1024:.0f} KB) in {read:.2f} s")
    per_topic: dict[str, list[float]] = defaultdict(list)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # puzzles, proven, positions, unknown
    worst: list[tuple[float, str]] = []
    for lesson_id, lesson in sorted(catalog.lessons.items()):
        for i, step in enumerate(lesson.steps):
            if step.kind != "puzzle":
                continue
            c = counts[lesson.topic]
            c[0] += 1
            proof = store.get(step)
            if proof is None:
                continue
            c[1] += 1
            c[2] += len(proof.positions)
            judge = ProvenJudge(step.judge(), proof)
            for line in _lines(proof, judge):
                game = judge.reader._replay(line)
                for move in game.legal_moves():
                    t = clock()
                    verdict = judge.judge(line, move)
                    took = clock() - t
                    per_topic[lesson.topic].append(took)
                    c[3] += verdict.reason == "unknown"
                    worst.append((took, f"{lesson_id}#{i + 1} {' '.join(line)} {move}"))
            assert judge.read == 0, (lesson_id, i, judge.read)  # every answer came from the proof
    print(f"\n{'topic':22} {'puzzles':>7} {'proven':>6} {'positions':>9} {'moves':>7} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'unknown':>7}")
    every = []
    for topic in sorted(counts):
        values = per_topic[topic]
        every += values
        c = counts[topic]
        if values:
            print(f"{topic:22} {c[0]:7} {c[1]:6} {c[2]:9} {len(values):7} {percentile(values, 50) * 1000:7.2f} "
                  f"{percentile(values, 99) * 1000:7.2f} {max(values) * 1000:7.2f} {c[3]:7}")
        else:
            print(f"{topic:22} {c[0]:7} {c[1]:6} {c[2]:9} {0:7}")
    total = [sum(c[k] for c in counts.values()) for k in range(4)]
    print(f"{'all':22} {total[0]:7} {total[1]:6} {total[2]:9} {len(every):7} {percentile(every, 50) * 1000:7.2f} "
          f"{percentile(every, 99) * 1000:7.2f} {max(every) * 1000:7.2f} {total[3]:7}")
    print("\nslowest answers")
    for took, what in sorted(worst, reverse=True)[:5]:
        print(f"  {took * 1000:7.2f} ms  {what}")
    print(f"\nnot proven whole: {len(store.unproven)} (the positions a partial proof reached are lookups, the rest "
          f"is read live by the server)")
    for key, entry in sorted(store.unproven.items(), key=lambda kv: (kv[1]['lesson'], kv[1]['step'])):
        partial = store.partial.get(key)
        held = f"{len(partial.positions)} positions proven" if partial else "nothing proven"
        print(f"  {entry['lesson']}#{entry['step'] + 1}: {entry['why']} ({held})")


def _lines(proof, judge) -> list[list[str]]:
    """A line to every position of a proof, found by following its continue answers from the start."""
    from teach.go.proof import position_key

    found, todo = {}, [[]]
    while todo:
        line = todo.pop()
        key = position_key(judge.reader._replay(line))
        if key in found or key not in proof.positions:
            continue
        found[key] = line
        for result, _reason, reply, _ko, names in proof.positions[key]:
            if result == "continue":
                todo += [line + [m, reply] for m in names.split()]
    return list(found.values())


def main() -> None:
    if sys.argv[1:] == ["--stored"]:
        stored()
        return
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
