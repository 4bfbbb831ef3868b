"""CPU per computer move, by level and board size (median, p99, max), on positions from real games.

The positions are those of games the levels play against each other (level 3 against level 5, seeded, full
games and capture-5 games), taken every few moves from the opening to the end; every built-in level then answers
each position with a few seeds. CPU time (``process_time``) of ``bot.reply``; the level's budget is a cap on the
clock inside the search, so p99 should stay at or under it.

    python bench/bot_time.py [--sizes 9,13] [--games 3] [--seeds 2]

Targets (9x9): levels 1-3 p99 <= 50 ms; level 6 p99 <= 300 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teach.go import Game, Rules  # noqa: E402
from teach.go.bot import LEVELS, reply  # noqa: E402


def positions(size: int, games: int, every: int) -> list[Game]:
    """Copies of the positions of seeded level-3-against-level-5 games, every ``every`` moves."""
    out = []
    for g in range(games):
        goal = 5 if g % 3 == 2 else None
        game = Game(size, rules=Rules(capture_goal=goal))
        cap = 2 * size * size
        while not game.over and len(game.moves) < cap:
            if len(game.moves) % every == 0:
                copy = Game(size, rules=game.rules)
                for _, p in game.moves:
                    copy.play(game.name(p))
                out.append(copy)
            game.play(reply(game, 3 if (game.to_move == 1) == (g % 2 == 0) else 5, 100 + g))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="9,13")
    ap.add_argument("--games", type=int, default=3, help="games per size the positions come from")
    ap.add_argument("--seeds", type=int, default=2, help="seeds per position and level")
    args = ap.parse_args(argv)
    levels = [lv for lv in LEVELS if lv.engine == "builtin"]
    print(f"{'size':>4} {'level':<10}{'moves':>7}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}{'budget ms':>11}")
    for size in (int(s) for s in args.sizes.split(",")):
        pos = positions(size, args.games, every=3 if size <= 9 else 6)
        for lv in levels:
            times = []
            for game in pos:
                for seed in range(args.seeds):
                    t = time.process_time()
                    reply(game, lv.number, seed)
                    times.append(time.process_time() - t)
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(f"{size:>4} {lv.number} {lv.slug:<8}{len(times):>7}{1000 * statistics.median(times):>11.1f}"
                  f"{1000 * p99:>9.1f}{1000 * times[-1]:>9.1f}{1000 * lv.budget_seconds:>11.0f}")


if __name__ == "__main__":
    main()
