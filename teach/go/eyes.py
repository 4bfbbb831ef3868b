"""Eye spaces and what they are worth: the number of eyes, and the vital points that decide it.

An **eye space** is a small connected area of empty points that one colour (its owner) nearly surrounds,
together with the enemy stones shut inside it (every liberty of theirs in the area, or in other small areas
the owner closes: those areas join the space through the dead stones). Its points next to enemy stones outside
the area are *marginal*: the enemy can play there with support from outside.

An eye space's **value** is a pair (min, max): the eyes it gives its owner when the opponent moves first there,
and when the owner moves first (0, 1 or 2: two eyes are life, more is never needed). When min < max, the point
where the opponent destroys an eye (attack) and where the owner secures it (defence) are the vital points —
the middle of a straight three or bent three, the centre of a T-four, flower five or bulky five, the point
of a rabbity six; a straight four or bent four in the middle of the board is two eyes whoever plays first.

The value is read, not looked up: the eye space is cut out of the board into a *test position* where the owner
is a wall with no other eye (does the space alone make it live? then it is worth two) or with exactly one other
real eye (does the space make the second eye? then it is worth at least one), the enemy stones bordering the
space from outside are made alive, and the life-and-death reader (teach/go/lifedeath.py) answers "can it be
killed" (opponent first) and "can it live" (owner first). The test position keeps the board's stones on the
space's neighbours and diagonals as they are; a chain the filling leaves without a liberty gets one back. True
and false one-point eyes come out of the same reading: a diagonal the enemy holds lets it fill the eye with
atari, on the edge one such diagonal is enough.

``eval_eye`` answers like GNU Go's GTP ``eval_eye``: ``min max`` or ``min max ATTACK DEFENCE``, ``-1`` for a
point that is not in an eye space. Pure Python, standard library and ``teach.go`` only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import cast

from .coords import diagonals
from .game import EMPTY, Chain, Game
from .lifedeath import LifeReader
from .reading import LOSE
from .search import Budget, BudgetExceeded

__all__ = ["EyeSpace", "EyeValue", "eye_space", "eye_value", "EYE_SPACE_MAX", "EYE_LIMITS"]

EYE_SPACE_MAX = 10  # empty points; a bigger area is territory, not an eye space
EYE_LIMITS = Budget(nodes=30_000, seconds=2.0)
KEEP = 1  # the stones this many steps around an eye space are copied into the test position


@dataclass(frozen=True)
class EyeSpace:
    color: int  # the owner
    points: frozenset[int]  # empty points and the enemy stones shut inside
    marginal: frozenset[int]  # points next to enemy stones outside the space


@dataclass(frozen=True)
class EyeValue:
    min: int
    max: int
    attack: int | None = None  # where the opponent takes an eye away (when min < max)
    defence: int | None = None  # where the owner makes it


def eye_space(game: Game, p: int, limit: int = EYE_SPACE_MAX) -> EyeSpace | None:
    """The eye space holding point ``p``, or None when ``p`` is in no small enclosed area."""
    board, chain, nb = game.board, game.chain_of, game.adjacent
    here = board[p]
    if here != EMPTY:
        # a stone is in an eye space when its chain is shut inside one of the other colour's
        c = cast(Chain, chain[p])
        starts = sorted(c.libs)
        inside = set(c.stones)
    else:
        starts = [p]
        inside = set()
    empties: set[int] = set()
    stack = list(starts)
    for s in starts:
        empties.add(s)
    while stack:
        q = stack.pop()
        for r in nb[q]:
            if board[r] == EMPTY and r not in empties:
                empties.add(r)
                if len(empties) > limit:
                    return None
                stack.append(r)
    if not empties:
        return None
    # the owner: the colour of most stones around the empty points (not counting the stones inside)
    around = {1: 0, 2: 0}
    for q in empties:
        for r in nb[q]:
            if board[r] != EMPTY and r not in inside:
                around[board[r]] += 1
    if here != EMPTY:
        owner = 3 - here
    else:
        if around[1] == around[2]:
            return None
        owner = 1 if around[1] > around[2] else 2
    enemy = 3 - owner
    points = set(empties) | inside
    # enemy chains with every liberty in the space are shut inside it; so are those whose other liberties are
    # small areas the owner closes (dead stones between two parts of one eye space join them)
    grew = True
    while grew:
        grew = False
        for q in list(points):
            for r in nb[q]:
                e = chain[r]
                if e is None or e.color != enemy or r in points:
                    continue
                if e.libs <= empties:
                    points.update(e.stones)
                    grew = True
                    continue
                more = _closed_areas(game, e.libs - empties, owner, set(e.stones) | points, limit - len(empties))
                if more is not None:
                    empties |= more
                    points |= more
                    points.update(e.stones)
                    grew = True
    if here != EMPTY and here != enemy:
        return None
    if here != EMPTY and not inside <= points:
        return None
    marginal = frozenset(q for q in empties if any(board[r] == enemy and r not in points for r in nb[q]))
    # an area mostly surrounded by the enemy is not this owner's eye space
    if sum(1 for q in empties for r in nb[q] if board[r] == enemy and r not in points) > around[owner]:
        return None
    return EyeSpace(owner, frozenset(points), marginal)


def _closed_areas(game: Game, starts, owner: int, inside: set[int], room: int) -> set[int] | None:
    """The empty areas holding ``starts`` when together they have at most ``room`` points and touch only the
    owner's stones and ``inside``; else None."""
    board, nb = game.board, game.adjacent
    seen = set(starts)
    stack = list(starts)
    while stack:
        q = stack.pop()
        for r in nb[q]:
            if r in seen or r in inside:
                continue
            if board[r] == EMPTY:
                seen.add(r)
                if len(seen) > room:
                    return None
                stack.append(r)
            elif board[r] != owner:
                return None
    return seen if len(seen) <= room else None


def _test_position(game: Game, space: EyeSpace, extra_eye: bool) -> tuple[Game, int] | None:
    """The test position (see the module docstring) and a stone of the owner's wall; None when the board
    around the space leaves no room to build it."""
    size = game.size
    board, nb = game.board, game.adjacent
    owner, enemy = space.color, 3 - space.color
    pts = space.points
    colour = [EMPTY] * len(board)
    for q in pts:
        colour[q] = board[q]
    # the stones up to KEEP steps from the space stay (the diagonals decide false eyes); every other point takes
    # the colour of the nearest stone kept (the owner's first on ties)
    near = [-1] * len(board)
    ring = sorted(pts)
    for q in ring:
        near[q] = 0
    diagonal = {r for q in pts for r in diagonals(size)[q] if r not in pts}  # they decide false eyes
    k = 0
    while k < len(ring):
        q = ring[k]
        k += 1
        if near[q] >= KEEP:
            continue
        for r in nb[q]:
            if near[r] < 0:
                near[r] = near[q] + 1
                ring.append(r)
    dist = [-1] * len(board)
    for q in diagonal:
        if near[q] < 0:
            near[q] = 1
    frontier = [q for q in range(len(board)) if q not in pts and 0 < near[q] and board[q] != EMPTY]
    if not any(board[q] == owner for q in frontier):
        return None
    for q in frontier:
        dist[q] = 0
        colour[q] = board[q]
    frontier.sort(key=lambda r: (near[r], colour[r] != owner, r))
    k = 0
    while k < len(frontier):
        q = frontier[k]
        k += 1
        for r in nb[q]:
            if r not in pts and dist[r] < 0:
                dist[r] = dist[q] + 1
                colour[r] = colour[q]
                frontier.append(r)
    # eyes: every mass away from the space gets two (it lives), the owner's wall none or one (``extra_eye``)
    wall: list[list[int]] = []
    for comp in _masses(colour, nb, pts):
        start = comp[0]
        touches = any(r in pts for q in comp for r in nb[q])
        if touches and colour[start] == owner:
            wall.append(comp)
            continue
        got = _holes(comp, 2, nb, pts)
        if len(got) < 2 and colour[start] == enemy:
            # no room for two eyes: the points not copied from the board are left empty (outside liberties)
            got = [q for q in comp if near[q] < 0 or near[q] > KEEP]
        for q in got:
            colour[q] = EMPTY
    if extra_eye:
        if not wall:
            return None
        got = _holes(max(wall, key=len), 1, nb, pts)
        if not got:
            return None
        colour[got[0]] = EMPTY
    # a chain the filling left with no liberty gets one on a filled point beside it (it had liberties on the
    # board; filling is not capturing)
    fixed = set(pts) | {q for q in range(len(board)) if 0 < near[q] <= KEEP}
    for comp in _masses(colour, nb, set()):
        if any(colour[r] == EMPTY for q in comp for r in nb[q]):
            continue
        free = sorted(r for q in comp for r in nb[q] if r not in fixed)
        if not free:
            return None
        colour[free[0]] = EMPTY
    g = Game(size, komi=game.komi)
    black = [q for q, c in enumerate(colour) if c == 1]
    white = [q for q, c in enumerate(colour) if c == 2]
    try:
        g.setup(black=black, white=white)
    except Exception:
        return None
    for ch in g.chains():
        if not ch.libs:
            return None
    # the wall: the owner's chain touching the space with the most stones
    best = None
    for q in sorted(pts):
        for r in nb[q]:
            c = g.chain_of[r]
            if c is not None and c.color == owner and (best is None or len(c.stones) > len(best.stones)):
                best = c
    if best is None:
        return None
    g.to_move = enemy
    return g, min(best.stones)


def _masses(colour: list[int], nb, skip: Collection[int]):
    """The connected masses of one colour (stones of the test position), outside ``skip``, one at a time: a mass
    is found after the ones before it were changed, so a point emptied there is no longer part of a later one."""
    seen = set(skip)
    for start in range(len(colour)):
        if start in seen or colour[start] == EMPTY:
            continue
        comp = [start]
        seen.add(start)
        k = 0
        while k < len(comp):
            q = comp[k]
            k += 1
            for r in nb[q]:
                if r not in seen and colour[r] == colour[start]:
                    seen.add(r)
                    comp.append(r)
        yield comp


def _holes(comp: list[int], count: int, nb, pts) -> list[int]:
    """Up to ``count`` points of a mass whose neighbours all belong to it, away from the eye space and from
    each other: real eyes for the mass."""
    inside = set(comp)
    chosen: list[int] = []
    for q in sorted(comp):
        if len(chosen) == count:
            break
        if any(r not in inside or r in pts for r in nb[q]):
            continue
        if any(r in chosen or any(r2 in chosen for r2 in nb[r]) for r in nb[q]):
            continue
        if any(r2 in pts for r in nb[q] for r2 in nb[r]):
            continue
        chosen.append(q)
    return chosen


def _eyes(game: Game, space: EyeSpace, limits: Budget) -> dict | None:
    """Read the two test positions: {(eyes needed, first mover): (won, move)}."""
    out = {}
    region = set(space.points)
    for need, extra in ((2, False), (1, True)):
        built = _test_position(game, space, extra)
        if built is None:
            return None
        g, wall = built
        try:
            reader = LifeReader(g, wall, region=region, limits=limits)
            killed, attack = reader.kill()
            lived, defence = reader.live()
        except BudgetExceeded:
            return None
        out[need, "attacker"] = (killed == LOSE, attack)  # True: the space keeps its eyes, opponent first
        out[need, "owner"] = (lived != LOSE, defence)
    return out


def eye_value(game: Game, p: int, limits: Budget = EYE_LIMITS) -> EyeValue | None:
    """The value of the eye space holding ``p``; None when ``p`` is in no eye space or reading ran out."""
    space = eye_space(game, p)
    if space is None:
        return None
    got = _eyes(game, space, limits)
    if got is None:
        return None
    lo = 2 if got[2, "attacker"][0] else 1 if got[1, "attacker"][0] else 0
    hi = 2 if got[2, "owner"][0] else 1 if got[1, "owner"][0] else 0
    if hi < lo:  # a pass is always available to the owner: moving first is never worse
        hi = lo
    if lo == hi:
        return EyeValue(lo, hi)
    attack = got[lo + 1, "attacker"][1]
    defence = got[hi, "owner"][1]
    return EyeValue(lo, hi, attack, defence)
