"""How long the count screen's proposal of dead stones makes a kid wait, on games kids end early.

    python bench/play_count.py [--full]

Games of the weakest computer against itself, stopped part way (kids pass long before the board is full), on
9x9, 13x13 and 19x19: the count screen's proposal (``teach.go.counting.proposal``, bounded for the whole board)
and, with ``--full``, the status reader with its own per-group budget only (``teach.go.status.estimate``), which
is what the bound is for.
"""

from __future__ import annotations

import sys
import time

from teach.go import Game, bot, counting, status

POSITIONS = ((9, 40), (9, 60), (13, 90), (13, 130), (19, 150), (19, 220))


def position(size: int, moves: int, seed: int = 7) -> Game:
    game = Game(size)
    for _ in range(moves):
        game.play(bot.reply(game, 1, seed))
    return game


def main(argv: list[str]) -> None:
    full = "--full" in argv
    print(f"{'board':>6} {'moves':>5} {'bounded s':>9} {'dead':>4}" + (f" {'unbounded s':>11} {'dead':>4}" if full else ""))
    for size, moves in POSITIONS:
        game = position(size, moves)
        t = time.perf_counter()
        dead = counting.proposal(game)
        bounded = time.perf_counter() - t
        line = f"{size:>4}x{size:<2}{moves:>5} {bounded:>9.2f} {len(dead):>4}"
        if full:
            t = time.perf_counter()
            other = status.estimate(game).dead
            line += f" {time.perf_counter() - t:>11.2f} {len(other):>4}"
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
