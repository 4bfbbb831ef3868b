"""Live judging of retry puzzles: does a move called "good, go on" ever leave the child where every move is wrong?

Usage: python bench/live_judge.py [--games N] [--sizes 9,13] [--positions P] [--nodes N] [--seconds S]

The puzzles are the review's findings (``review_game``, on a node budget, so the same on every run) in the seeded
semi-random games of ``bench/review.py``, for both sides. Each puzzle is judged as the web judges a position no proof
holds, two ways: the reader alone (``Judge.judge``) and looking ahead (``ProvenJudge`` without a proof, that is
``proof.look_ahead``). For each way, the lines a child can follow are walked (every legal move at each position,
going on after every ``continue`` with its reply, depth first, at most P positions a puzzle), and counted:

- **dead ends**: positions reached through a ``continue`` where every legal move is judged ``wrong`` with a reason
  (the child was told "good move" and then cannot do anything right, the shown answer included);
- **unknown**: positions where some moves could not be settled on the request's budget (the page shows the
  computer thinking and the deep reader answers them) and none wins: not counted as dead ends;
- CPU seconds for the whole walk, and judgements made.

The walk for each way starts from fresh judges. A position the two ways reach differs (a move looking ahead calls
wrong is not followed): the dead ends are compared per puzzle, not per position.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from review import semi_random_game  # noqa: E402  (bench/review.py's seeded games)
from teach.go.judge import SERVER_LIMITS, Goal, Judge  # noqa: E402
from teach.go.proof import ProvenJudge  # noqa: E402
from teach.go.review import review_game  # noqa: E402

WINNING = ("correct", "continue", "slow")


def walk(judge, positions: int, seconds: float) -> dict:
    """Every line a child can follow in the puzzle, as ``judge`` answers it (at most ``positions`` positions, and
    no new position after ``seconds`` of CPU)."""
    reader = getattr(judge, "reader", judge)
    seen, stack = set(), [[]]
    out = {"positions": 0, "dead": 0, "unknown": 0, "judged": 0}
    stop = time.process_time() + seconds
    while stack and out["positions"] < positions and time.process_time() < stop:
        line = stack.pop()
        game = reader._replay(line)
        key = (game.hash, game.to_move)
        if key in seen:
            continue
        seen.add(key)
        out["positions"] += 1
        verdicts = {}
        for move in game.legal_moves():
            v = judge.judge(line, move)
            out["judged"] += 1
            verdicts[move] = v
            if v.result == "continue" and v.reply:
                stack.append(line + [move, v.reply])
        if not line or any(v.result in WINNING for v in verdicts.values()):
            continue
        if any(v.reason == "unknown" for v in verdicts.values()):
            out["unknown"] += 1
        else:
            out["dead"] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--sizes", default="9")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--nodes", type=int, default=400_000, help="the review's node budget per game and side")
    parser.add_argument("--seconds", type=float, default=120.0, help="CPU seconds a walk may start new positions in")
    args = parser.parse_args()
    ways = {"reader alone": lambda f: Judge(f.position(), Goal(f.goal, (f.target,)), SERVER_LIMITS),
            "looking ahead": lambda f: ProvenJudge(Judge(f.position(), Goal(f.goal, (f.target,)), SERVER_LIMITS),
                                                   None)}
    totals = {name: {"puzzles": 0, "with dead ends": 0, "positions": 0, "dead": 0, "unknown": 0, "judged": 0,
                     "cpu": 0.0} for name in ways}
    for size in [int(s) for s in args.sizes.split(",")]:
        for seed in range(args.games):
            for child, color in ((1, "black"), (2, "white")):
                game = semi_random_game(seed, size, child)
                findings = review_game(game, color, seconds=1e9, nodes=args.nodes)
                for f in findings:
                    row = []
                    for name, make in ways.items():
                        cpu = time.process_time()
                        got = walk(make(f), args.positions, args.seconds)
                        spent = time.process_time() - cpu
                        t = totals[name]
                        t["puzzles"] += 1
                        t["with dead ends"] += got["dead"] > 0
                        t["cpu"] += spent
                        for k in ("positions", "dead", "unknown", "judged"):
                            t[k] += got[k]
                        row.append(f"{name}: {got['dead']} dead, {got['unknown']} unknown, {got['positions']} "
                                   f"positions, {spent:.1f} s")
                    print(f"{size}x{size} game {seed} {color} move {f.move_number} {f.goal} {f.target}: "
                          + " | ".join(row), flush=True)
    print(f"\n{'':15}{'puzzles':>9}{'with dead ends':>16}{'dead ends':>11}{'unknown':>9}{'positions':>11}"
          f"{'judged':>9}{'CPU s':>8}{'ms/judged':>11}")
    for name, t in totals.items():
        per = t["cpu"] / t["judged"] * 1000 if t["judged"] else 0.0
        print(f"{name:15}{t['puzzles']:>9}{t['with dead ends']:>16}{t['dead']:>11}{t['unknown']:>9}"
              f"{t['positions']:>11}{t['judged']:>9}{t['cpu']:>8.1f}{per:>11.2f}")


if __name__ == "__main__":
    main()
