"""Handicap stones (让子): fixed star-point placements as GTP defines them, and free placement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .coords import from_col_row, neighbours

if TYPE_CHECKING:
    from .game import Game


def max_fixed_handicap(size: int) -> int:
    if size < 7:
        return 0
    return 9 if size % 2 and size >= 9 else 4


def fixed_handicap_points(size: int, stones: int) -> list[int]:
    """Star points for 2-9 handicap stones: corners first, then centre (odd counts), sides, top and bottom."""
    top = max_fixed_handicap(size)
    if not 2 <= stones <= top:
        raise ValueError(f"a {size}x{size} board takes 2 to {top} fixed handicap stones, not {stones}"
                         if top else f"a {size}x{size} board has no fixed handicap placement")
    lo = 2 if size < 13 else 3
    hi, mid = size - 1 - lo, size // 2
    pts = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)][: min(stones, 4)]
    if stones >= 6:
        pts += [(lo, mid), (hi, mid)]
    if stones >= 8:
        pts += [(mid, lo), (mid, hi)]
    if stones % 2 and stones >= 5:
        pts.append((mid, mid))
    return [from_col_row(c, r, size) for c, r in pts]


def place_fixed_handicap(game: "Game", stones: int) -> list[str]:
    return place_free_handicap(game, [game.name(p) for p in fixed_handicap_points(game.size, stones)])


def place_free_handicap(game: "Game", points: list[str]) -> list[str]:
    """Put black handicap stones on an empty board; white moves first afterwards."""
    if game.moves or any(game.board):
        raise ValueError("handicap stones go on an empty board")
    if len(points) < 2:
        raise ValueError("a handicap is at least 2 stones")
    pts = [game.require_point(m) for m in points]
    if len(set(pts)) != len(pts):
        raise ValueError("handicap stones must be on different points")
    if len(pts) >= game.size * game.size:
        raise ValueError("handicap stones cannot fill the whole board")
    game.setup(black=pts)
    game.handicap = len(pts)
    game.to_play = "white"
    return [game.name(p) for p in pts]


def free_handicap_points(size: int, stones: int) -> list[int]:
    """Where this engine puts ``stones`` free handicap stones: the fixed placement first, then spread out.

    Extra stones go where they are furthest from the stones already placed, preferring points away from the
    edge; no two stones touch, so every stone keeps its liberties. Fewer stones come back when the board has
    no room left (the spec allows that)."""
    top = max_fixed_handicap(size)
    chosen = list(fixed_handicap_points(size, min(stones, top))) if top >= 2 else []
    nb = neighbours(size)
    while len(chosen) < stones:
        taken = set(chosen)
        best, best_key = None, None
        for p in range(size * size):
            if p in taken or any(q in taken for q in nb[p]):
                continue
            col, row = p % size, p // size
            edge = min(col, row, size - 1 - col, size - 1 - row)
            spread = min((abs(col - q % size) + abs(row - q // size) for q in chosen), default=2 * size)
            key = (min(edge, 2), spread, -row, -col)
            if best_key is None or key > best_key:
                best, best_key = p, key
        if best is None:
            break
        chosen.append(best)
    return chosen
