"""Positions built the way a teacher draws them: a target chain, the stones that take its liberties, a few stones
of both colours next to the fight, and at level 3 a quiet group or two elsewhere on the board. How big and how
cluttered they are is the level's ``Spec``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from teach.go.coords import col_row, diagonals, from_col_row, neighbours, turned
from teach.go.game import BLACK, EMPTY, WHITE, Game


class Sketch:
    """A position under construction: stones on point indices, with the engine's neighbour tables."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.nb = neighbours(size)
        self.diag = diagonals(size)
        self.board = [EMPTY] * (size * size)

    def at(self, col: int, row: int) -> int | None:
        if 0 <= col < self.size and 0 <= row < self.size:
            return from_col_row(col, row, self.size)
        return None

    def put(self, p: int, color: int) -> None:
        self.board[p] = color

    def chain(self, p: int) -> tuple[set[int], set[int]]:
        """Stones and liberties of the chain on ``p``."""
        color, board, nb = self.board[p], self.board, self.nb
        stones, libs, todo = {p}, set(), [p]
        while todo:
            q = todo.pop()
            for r in nb[q]:
                if board[r] == color and r not in stones:
                    stones.add(r)
                    todo.append(r)
                elif board[r] == EMPTY:
                    libs.add(r)
        return stones, libs

    def chains(self) -> list[tuple[int, set[int], set[int]]]:
        seen: set[int] = set()
        out = []
        for p, c in enumerate(self.board):
            if c and p not in seen:
                stones, libs = self.chain(p)
                seen |= stones
                out.append((c, stones, libs))
        return out

    def near(self, p: int, dist: int) -> list[int]:
        c0, r0 = col_row(p, self.size)
        out = []
        for dc in range(-dist, dist + 1):
            for dr in range(-dist, dist + 1):
                q = self.at(c0 + dc, r0 + dr)
                if q is not None and q != p:
                    out.append(q)
        return out

    def edge_distance(self, p: int) -> int:
        c, r = col_row(p, self.size)
        return min(c, r, self.size - 1 - c, self.size - 1 - r)

    def game(self) -> Game | None:
        g = Game(self.size)
        black = [p for p, c in enumerate(self.board) if c == BLACK]
        white = [p for p, c in enumerate(self.board) if c == WHITE]
        try:
            g.setup(black=black, white=white)
        except ValueError:
            return None
        g.to_play = "black"
        return g

    def transformed(self, k: int) -> Sketch:
        """The same position under one of the board's 8 symmetries."""
        n = self.size
        out = Sketch(n)
        for p, c in enumerate(self.board):
            if c:
                out.board[turned(p, n, k)] = c
        return out

    def diagram(self, labels: dict[int, str] | None = None) -> str:
        chars = ".XO"
        n = self.size
        rows = []
        for row in range(n - 1, -1, -1):
            cells = []
            for col in range(n):
                p = from_col_row(col, row, n)
                cells.append(labels[p] if labels and p in labels else chars[self.board[p]])
            rows.append(" ".join(cells))
        return "\n".join(rows) + "\n"


def pick_spot(rng: random.Random, sk: Sketch, placement: str, margin: int = 0) -> int:
    """A starting point: 'open' keeps two lines from the edge, 'edge' sits on the first or second line, 'any'."""
    n = sk.size
    while True:
        p = rng.randrange(n * n)
        d = sk.edge_distance(p)
        if placement == "open" and d >= max(2, margin):
            return p
        if placement == "edge" and d <= 1:
            return p
        if placement == "any" and d >= 0:
            return p


def grow(rng: random.Random, sk: Sketch, start: int, color: int, stones: int) -> set[int] | None:
    """A connected chain of ``stones`` stones grown from ``start`` (a random walk over empty neighbours)."""
    chain = [start]
    sk.put(start, color)
    while len(chain) < stones:
        options = [q for s in chain for q in sk.nb[s] if sk.board[q] == EMPTY]
        if not options:
            return None
        q = rng.choice(options)
        sk.put(q, color)
        chain.append(q)
    return set(chain)


def support(rng: random.Random, sk: Sketch, around: set[int], keep_free: set[int], count: int,
             black_share: float = 0.5) -> None:
    """A few stones of both colours next to the fight (never on ``keep_free``)."""
    for _ in range(count):
        options = sorted({q for s in around for q in sk.near(s, 2)
                          if sk.board[q] == EMPTY and q not in keep_free})
        if not options:
            return
        q = rng.choice(options)
        sk.put(q, BLACK if rng.random() < black_share else WHITE)


def distractors(rng: random.Random, sk: Sketch, groups: int) -> None:
    """Quiet groups of two or three stones away from the fight, as in a real game."""
    occupied = [p for p, c in enumerate(sk.board) if c]
    for _ in range(groups):
        far = [p for p in range(len(sk.board)) if sk.board[p] == EMPTY and sk.edge_distance(p) >= 1
               and all(max(abs(a - b) for a, b in zip(col_row(p, sk.size), col_row(q, sk.size))) >= 4
                       for q in occupied)]
        if not far:
            return
        start = rng.choice(far)
        color = rng.choice((BLACK, WHITE))
        stones = grow(rng, sk, start, color, rng.randint(2, 3))
        if stones:
            occupied += stones


def natural(sk: Sketch, allowed_atari: set[int], max_atari: int = 0) -> bool:
    """No stone without a liberty; at most ``max_atari`` chains in atari besides those on ``allowed_atari``."""
    extra = 0
    for _, stones, libs in sk.chains():
        if not libs:
            return False
        if len(libs) == 1 and not stones & allowed_atari:
            extra += 1
    return extra <= max_atari


def natural_game(sk: Sketch, allowed_atari: set[int], max_atari: int = 0) -> Game | None:
    """The sketch as a game, black to play; None when it does not look ``natural`` or is no legal position."""
    return sk.game() if natural(sk, allowed_atari, max_atari) else None



@dataclass
class Spec:
    """How big and how cluttered a level's positions are."""

    placement: tuple[str, ...]
    chain: tuple[int, int]
    support: tuple[int, int]
    distractors: tuple[int, int]
    most: int  # most winning first moves a puzzle may have


SPECS = {
    1: Spec(("open", "open", "open", "edge"), (1, 1), (0, 1), (0, 0), 1),
    2: Spec(("edge", "edge", "open", "any"), (1, 3), (1, 3), (0, 0), 2),
    3: Spec(("any", "edge", "any"), (2, 4), (2, 4), (1, 2), 2),
}


def fight(rng: random.Random, size: int, level: int, color: int, libs_left: int,
           extra_libs_ok: bool = False, friends: bool = False) -> tuple[Sketch, set[int]] | None:
    """A chain of ``color`` with exactly ``libs_left`` liberties, the other liberties taken by the other colour,
    and a few supporting stones around."""
    spec = SPECS[level]
    sk = Sketch(size)
    start = pick_spot(rng, sk, rng.choice(spec.placement))
    target = grow(rng, sk, start, color, rng.randint(*spec.chain))
    if target is None:
        return None
    _, libs = sk.chain(start)
    if len(libs) < libs_left:
        return None
    libs = sorted(libs)
    rng.shuffle(libs)
    for q in libs[libs_left:]:
        sk.put(q, 3 - color)
    keep = set(libs[:libs_left])
    if friends:
        # white friends just beyond the last liberty: the stone runs home unless it is caught right now
        for lib in sorted(keep):
            homes = [q for q in sk.nb[lib] if sk.board[q] == EMPTY and not any(r in target for r in sk.nb[q])]
            if homes:
                grow(rng, sk, rng.choice(homes), color, rng.randint(2, 3))
    support(rng, sk, target, keep, rng.randint(*spec.support))
    distractors(rng, sk, rng.randint(*spec.distractors))
    stones, now = sk.chain(start)
    if stones != target or (len(now) != libs_left and not extra_libs_ok):
        return None
    return sk, target


