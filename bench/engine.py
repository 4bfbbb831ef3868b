"""Engine benchmark, side by side with sgfmill 1.1.1 on identical work, in one run.

(a) replay: play every move of recorded games with legality checked.
    sgfmill: a liberty pre-check (occupied, suicide, simple ko), then ``Board.play``.
    teach:   ``Game.play`` (also checks situational superko).
(b) listing: every legal move at every position of those games.
    sgfmill: the pre-check on each empty point.  teach: ``Game.legal_moves()``.

Games: seeded random legal games (no filling of one's own eyes) on 9x9, 13x13 and 19x19, plus the peer game
records (../shared/peer/gnugo-regression) of each size that replay under the Chinese rules as they stand, with
their setup stones (handicap, AB/AW/AE after the root) applied on both sides.

    python bench/engine.py [--games N] [--peer DIR] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from sgfmill import boards

from teach.go import Game
from teach.go.coords import neighbours, point_names
from teach.go.record import RecordError, game_from_sgf

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT.parent / "shared" / "peer" / "gnugo-regression"
COLOURS = {1: "b", 2: "w"}


# ---------------------------------------------------------------- workloads
def random_game(size: int, rng: random.Random) -> list[tuple[int, int | None]]:
    """A random legal game that does not fill its own single-point eyes; ends with two passes."""
    game = Game(size, komi=7.5)
    nb = neighbours(size)
    moves: list[tuple[int, int | None]] = []
    while not game.over and len(moves) < size * size * 3:
        color = game.to_move
        legal = [p for p in game.legal_points(color) if not all(game.board[q] == color for q in nb[p])]
        if legal:
            p = rng.choice(legal)
            game.play_point(p, color)
        else:
            p = None
            game.pass_move(color)
        moves.append((color, p))
    return moves


def peer_games(size: int, folder: Path) -> list[list[tuple]]:
    """Main lines of the peer records of this size that replay under the rules as they stand (strict mode).
    Setup stones (handicap, AB/AW/AE anywhere in the record) stay in the line as ("setup", B, W, empty)."""
    out = []
    for path in sorted(folder.glob("**/*.sgf")):
        try:
            game = game_from_sgf(path.read_bytes(), strict=True)
        except (RecordError, ValueError):
            continue
        if game.size != size or not game.moves:
            continue
        events: list[tuple] = []
        setups = list(game.setups)
        for i, move in enumerate(game.moves):
            while setups and setups[0][0] == i:
                events.append(("setup",) + tuple(setups.pop(0)[1:]))
            events.append(move)
        out.append(events)
    return out


# ---------------------------------------------------------------- sgfmill side
def sgfmill_legal(board: boards.Board, size: int, row: int, col: int, colour: str, ko) -> bool:
    """The pre-check: empty, not the simple-ko point, and not suicide (an empty neighbour, a capture, or a
    friendly neighbour group with another liberty)."""
    if board.get(row, col) is not None or (row, col) == ko:
        return False
    other = "w" if colour == "b" else "b"
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < size and 0 <= c < size:
            who = board.get(r, c)
            if who is None:
                return True
            libs = _liberties(board, size, r, c, who, limit=2, ignore=(row, col))
            if who == other and libs == 0:
                return True
            if who == colour and libs >= 1:
                return True
    return False


def _liberties(board, size, row, col, colour, limit, ignore) -> int:
    """Liberties of the group at (row, col), not counting ``ignore``; stops at ``limit``."""
    seen = {(row, col)}
    stack = [(row, col)]
    libs = set()
    while stack:
        r0, c0 = stack.pop()
        for r, c in ((r0 - 1, c0), (r0 + 1, c0), (r0, c0 - 1), (r0, c0 + 1)):
            if 0 <= r < size and 0 <= c < size and (r, c) not in seen:
                who = board.get(r, c)
                if who is None:
                    if (r, c) != ignore:
                        libs.add((r, c))
                        if len(libs) >= limit:
                            return len(libs)
                elif who == colour:
                    seen.add((r, c))
                    stack.append((r, c))
    return len(libs)


def _rows_cols(points, size: int) -> list[tuple[int, int]]:
    return [divmod(p, size) for p in points]


def sgfmill_replay(games, size: int) -> int:
    n = 0
    for moves in games:
        board = boards.Board(size)
        ko = None
        for color, p, *setup in moves:
            if color == "setup":
                board.apply_setup(*(_rows_cols(points, size) for points in (p, *setup)))
                ko = None
                continue
            if p is None:
                ko = None
                continue
            row, col = divmod(p, size)
            colour = COLOURS[color]
            if not sgfmill_legal(board, size, row, col, colour, ko):
                raise AssertionError(f"sgfmill refuses {colour} {row},{col}")
            ko = board.play(row, col, colour)
            n += 1
    return n


def sgfmill_listing(games, size: int) -> int:
    positions = 0
    for moves in games:
        board = boards.Board(size)
        ko = None
        for color, p, *setup in moves:
            if color == "setup":
                board.apply_setup(*(_rows_cols(points, size) for points in (p, *setup)))
                ko = None
                continue
            colour = COLOURS[color]
            [(r, c) for r in range(size) for c in range(size) if sgfmill_legal(board, size, r, c, colour, ko)]
            positions += 1
            if p is None:
                ko = None
                continue
            ko = board.play(p // size, p % size, colour)
    return positions


# ---------------------------------------------------------------- teach side
def teach_replay(games, size: int) -> int:
    n = 0
    names = point_names(size)
    colour_names = {1: "black", 2: "white"}
    for moves in games:
        game = Game(size)
        for color, p, *setup in moves:
            if color == "setup":
                game.setup(black=p, white=setup[0], empty=setup[1])
                continue
            if p is None:
                game.resume()
                game.play("pass", colour_names[color])
                continue
            game.play(names[p], colour_names[color])
            n += 1
    return n


def teach_listing(games, size: int) -> int:
    positions = 0
    for moves in games:
        game = Game(size)
        for color, p, *setup in moves:
            if color == "setup":
                game.setup(black=p, white=setup[0], empty=setup[1])
                continue
            game.legal_moves()
            positions += 1
            if p is None:
                game.resume()
                game.pass_move(color)
            else:
                game.play_point(p, color)
    return positions


# ---------------------------------------------------------------- run
def best_rate(fn, games, size, repeat) -> float:
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        count = fn(games, size)
        rate = count / (time.perf_counter() - start)
        best = max(best, rate)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="random games per size")
    ap.add_argument("--peer", type=Path, default=PEER, help="folder of peer SGF records")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is kept")
    args = ap.parse_args(argv)

    rows = []
    for size in (9, 13, 19):
        rng = random.Random(size)
        workloads = [("random", [random_game(size, rng) for _ in range(args.games)])]
        if args.peer.is_dir():
            workloads.append(("records", peer_games(size, args.peer)))
        for label, games in workloads:
            if not games:
                continue
            moves = sum(1 for g in games for e in g if e[0] != "setup")
            for what, ref, ours in (("replay moves/s", sgfmill_replay, teach_replay),
                                    ("listing positions/s", sgfmill_listing, teach_listing)):
                a = best_rate(ref, games, size, args.repeat)
                b = best_rate(ours, games, size, args.repeat)
                rows.append((f"{size}x{size}", label, len(games), moves, what, a, b))

    print(f"{'board':6} {'games':8} {'n':>4} {'moves':>7}  {'measure':20} {'sgfmill':>10} {'teach':>10} {'ratio':>6}")
    for board, label, n, moves, what, a, b in rows:
        print(f"{board:6} {label:8} {n:4d} {moves:7d}  {what:20} {a:10,.0f} {b:10,.0f} {b / a:5.1f}x")
    # both workloads of a size together: total work over total time, each side
    print()
    for board in dict.fromkeys(r[0] for r in rows):
        for what in ("replay moves/s", "listing positions/s"):
            part = [r for r in rows if r[0] == board and r[4] == what]
            work = sum(r[3] for r in part)
            a = work / sum(r[3] / r[5] for r in part)
            b = work / sum(r[3] / r[6] for r in part)
            print(f"{board:6} {'all':8} {'':4} {work:7d}  {what:20} {a:10,.0f} {b:10,.0f} {b / a:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
