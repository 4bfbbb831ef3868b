"""Review speed: the time to review a whole 9x9 and 13x13 game, and what the review found in it.

Usage: python bench/review.py [--games N] [--seconds S] [--nodes N] [--sizes 9,13]

The games are seeded and the same on every run: the placeholder bot (``teach.go.bot.choose_move``) against a
child who plays a random legal move instead of the bot's half the time, until two passes or 1.5 moves per point.
Each game is reviewed for both sides with ``review_game(game, color, seconds=S)`` (the deadline the web gives).
Reported per board size: wall seconds per review (median, max), how many reviews hit the deadline, and the
findings per review; then the same reviews with a far deadline (``--full``, seconds): what the deadline costs in
findings (moves not reached in time, answers not read in time), and how long a whole review takes.
Wall time: the review is bounded by the clock, so that is what the web waits for (the machine is shared).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import test_review  # noqa: E402  (the suite's game generator: the bench reviews games of the same kind)
from teach.go import Game  # noqa: E402
from teach.go.review import review_game  # noqa: E402


def semi_random_game(seed: int, size: int, child: int) -> Game:
    """The suite's semi-random game (tests/test_review.py), as long as a whole game on this board."""
    return test_review.semi_random_game(seed * 1009 + size, size, int(1.5 * size * size), child)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sizes", default="9,13")
    parser.add_argument("--nodes", type=int, default=0, help="the review's node budget too (0: the clock alone)")
    parser.add_argument("--full", type=float, default=0.0, help="also review with this far deadline (0: no)")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        run(size, args.games, args.seconds, args.nodes or None)
        if args.full:
            run(size, args.games, args.full, args.nodes or None)


def run(size: int, games: int, seconds: float, nodes: int | None = None) -> None:
    """Review ``games`` seeded games of ``size`` for each side with the deadline ``seconds``; print the figures."""
    times, found, late = [], [], 0
    for seed in range(games):
        for child, color in ((1, "black"), (2, "white")):
            game = semi_random_game(seed, size, child)
            start = time.perf_counter()
            findings = review_game(game, color, seconds=seconds, nodes=nodes)
            took = time.perf_counter() - start
            times.append(took)
            found.append(len(findings))
            late += took >= seconds * 0.98
            print(f"  {size}x{size} game {seed} {color}: {len(game.moves)} moves, {took:.2f} s, "
                  f"{len(findings)} findings {[(f.move_number, f.kind) for f in findings]}", flush=True)
    print(f"{size}x{size}: {len(times)} reviews, seconds per review median {statistics.median(times):.2f} "
          f"max {max(times):.2f} (deadline {seconds:g}; {late} reached it), findings per review median "
          f"{statistics.median(found):g} max {max(found)}")


if __name__ == "__main__":
    main()
