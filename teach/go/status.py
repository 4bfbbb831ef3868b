"""Dead stones at the end of a game: the computer's proposal a teacher then corrects, and the count it gives.

``estimate(game)`` sorts every stone into alive, dead, seki or unsure:

1. **Unconditional status first** (teach/go/life.py, GNU Go's ``unconditional_status``): stones that can never
   be captured are alive, stones on the opponent's unconditional territory are dead. This is certain.
2. **Dragons.** The other chains are grouped into dragons: chains of one colour that share two liberties (the
   opponent cannot cut both) or border the same small enclosed area (one eye space) are one dragon. A dragon
   is judged as a whole.
3. **Reading, checked by playouts.** Each dragon left is read by the life-and-death reader
   (teach/go/lifedeath.py) with a small budget, and random playouts to the end of the game (``ownership``,
   seeded) say who usually ends up owning its stones. The reader reads inside a fence (its region), so its
   answer is no proof on a whole board: "alive" stands when the playouts do not give the stones to the
   opponent, "dead" when they do not give them to the owner and the group is shut in by certainly alive enemy
   stones. Otherwise only a clear playout answer (mean ownership beyond ``OWNED``) decides; the rest —
   critical groups, kos, groups over budget with unclear playouts — is **unsure**: it stays on the board for
   the count, and the teacher decides. ``certain`` holds the stones of unconditional status and the fenced
   dead groups.
4. **Seki.** An alive dragon that is not unconditionally alive, has fewer than two enclosed areas of its own
   and shares a liberty with an alive enemy dragon where either side's move would be a self-atari is in seki.

The count is ``game.score(dead)``: area scoring (数子) with komi and the handicap give-back. Deterministic:
dragons are read in board order, budgets are node counts first (a time limit only guards against a pathological
position, and then the answer is ``unsure``, never a guess).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import EMPTY, Game
from .life import unconditional_statuses
from .lifedeath import LifeReader
from .reading import LOSE
from .search import Budget, BudgetExceeded

__all__ = ["Estimate", "estimate", "dragons", "STATUS_LIMITS"]

STATUS_LIMITS = Budget(nodes=6_000, seconds=1.5)  # per dragon: the reader's budget
PLAYOUTS = 200  # random games played to the end for the groups reading leaves open
OWNED = 0.6  # mean ownership (from -1 to 1, own colour positive) that calls a group alive, its negative dead
AREA_MAX = 12  # an enclosed area this small is one eye space: the chains around it are one dragon


@dataclass
class Estimate:
    """The status of every stone (point indices). ``unsure`` holds the stones of dragons the reader could not
    settle (critical, ko or over budget): counted as alive by ``score``."""

    game: Game
    alive: set[int] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)
    seki: set[int] = field(default_factory=set)
    unsure: set[int] = field(default_factory=set)
    certain: set[int] = field(default_factory=set)  # stones whose status is unconditional

    def status(self, p: int) -> str:
        for name in ("dead", "seki", "unsure", "alive"):
            if p in getattr(self, name):
                return name
        return "empty"

    def score(self):
        """The count (a ``Score``) with the dead stones removed."""
        return self.game.score([self.game.name(p) for p in sorted(self.dead)])


def _enclosed_areas(game: Game, color: int, limit: int) -> list[tuple[set[int], list]]:
    """Connected sets of points without ``color``'s stones, of at most ``limit`` points, bordered only by
    ``color``'s stones and the edge; with the chains of ``color`` around each."""
    board, chain, nb = game.board, game.chain_of, game.adjacent
    seen: set[int] = set()
    out = []
    for start in range(len(board)):
        if board[start] == color or start in seen:
            continue
        area = {start}
        stack = [start]
        borders: list = []
        small = True
        while stack:
            p = stack.pop()
            for q in nb[p]:
                if board[q] == color:
                    c = chain[q]
                    if not any(c is b for b in borders):
                        borders.append(c)
                elif q not in area:
                    area.add(q)
                    stack.append(q)
        seen |= area
        if len(area) > limit:
            small = False
        if small:
            out.append((area, borders))
    return out


def dragons(game: Game) -> list[list]:
    """The chains of the board grouped into dragons (lists of chains), in board order of their first stone."""
    chains = game.chains()
    index = {id(c): i for i, c in enumerate(chains)}
    parent = list(range(len(chains)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a, b) -> None:
        ra, rb = find(index[id(a)]), find(index[id(b)])
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    board, nb = game.board, game.adjacent
    # two chains of a colour with two common liberties: a cut at one is answered at the other
    for p in range(len(board)):
        if board[p] != EMPTY:
            continue
        around = []
        for q in nb[p]:
            c = game.chain_of[q]
            if c is not None and not any(c is a for a in around):
                around.append(c)
        for i, a in enumerate(around):
            for b in around[i + 1:]:
                if a.color == b.color and len(a.libs & b.libs) >= 2:
                    union(a, b)
    for color in (1, 2):
        for _area, borders in _enclosed_areas(game, color, AREA_MAX):
            for b in borders[1:]:
                union(borders[0], b)
    groups: dict[int, list] = {}
    for i, c in enumerate(chains):
        groups.setdefault(find(i), []).append(c)
    return [groups[k] for k in sorted(groups)]


def _read(game: Game, group: list, limits: Budget) -> str:
    """alive / dead / unsure for one dragon, read from its biggest chain."""
    target = max(group, key=lambda c: (len(c.stones), -min(c.stones)))
    point = min(target.stones)
    try:
        reader = LifeReader(game, point, limits=limits)
        killed, _ = reader.kill()
        if killed == LOSE:
            return "alive"
        lived, _ = reader.live()
    except BudgetExceeded:
        return "unsure"
    return "dead" if lived == LOSE else "unsure"


def _fenced_by_living(game: Game, group: list, certain: set, limit: int = 40) -> bool:
    """Is the group shut in a small area by enemy stones that are certainly alive? Only then is the reader's
    "dead" (read inside a fence, the enemy walls taken as solid) a proof."""
    board, nb, chain = game.board, game.adjacent, game.chain_of
    color = group[0].color
    area = {s for c in group for s in c.stones}
    stack = list(area)
    while stack:
        p = stack.pop()
        for q in nb[p]:
            if q in area:
                continue
            if board[q] == 3 - color:
                if chain[q].stones[0] not in certain:
                    return False
            else:
                area.add(q)
                if len(area) > limit:
                    return False
                stack.append(q)
    return True


def _self_atari(game: Game, p: int, color: int) -> bool:
    """Would ``color`` playing ``p`` be illegal or leave the chain it makes with one liberty?"""
    if not game.is_legal_point(p, color):
        return True
    for q in game.adjacent[p]:
        c = game.chain_of[q]
        if c is not None and c.color != color and len(c.libs) == 1:
            return False  # it captures: not a self-atari in the sense that matters here
    return len(game.liberties_after(p, color)) <= 1


def estimate(game: Game, limits: Budget = STATUS_LIMITS, playouts: int = PLAYOUTS) -> Estimate:
    """Alive, dead, seki and unsure stones of the position (see the module docstring)."""
    est = Estimate(game)
    status = unconditional_statuses(game)
    board = game.board
    verdict: dict[int, str] = {}  # dragon index -> status
    groups = dragons(game)
    for i, group in enumerate(groups):
        stones = [s for c in group for s in c.stones]
        marks = {status[s] for s in stones}
        if marks == {"alive"}:
            verdict[i] = "alive"
            est.certain.update(stones)
        elif marks == {"dead"}:
            verdict[i] = "dead"
            est.certain.update(stones)
    owned = None
    for i, group in enumerate(groups):
        if i in verdict:
            continue
        v = _read(game, group, limits)
        # the reader fences the group in: "dead" may miss a connection outside, "alive" a kill from outside,
        # and budgets leave the big groups unread. Random playouts say who ends up owning the stones; the
        # reader's answer stands when they do not contradict it, otherwise only a clear answer counts.
        if owned is None:
            owned = ownership(game, playouts)
        sign = 1 if group[0].color == 1 else -1
        share = sum(owned[s] for c in group for s in c.stones) * sign / sum(len(c.stones) for c in group)
        if v == "alive" and share >= 0:
            pass
        elif v == "dead" and share <= 0 and _fenced_by_living(game, group, est.certain):
            est.certain.update(s for c in group for s in c.stones)
        else:
            if share >= OWNED:
                v = "alive"
            elif share <= -OWNED:
                v = "dead"
            else:
                v = "unsure"
        verdict[i] = v
    # seki: alive by reading only, little eye space of its own, a shared liberty neither side may fill
    of_chain = {id(c): i for i, g in enumerate(groups) for c in g}
    own_areas: dict[int, int] = {}
    for color in (1, 2):
        for area, borders in _enclosed_areas(game, color, AREA_MAX):
            if any(board[p] == EMPTY for p in area):
                for k in {of_chain[id(b)] for b in borders}:
                    own_areas[k] = own_areas.get(k, 0) + 1
    seki: set[int] = set()
    for i, group in enumerate(groups):
        if verdict[i] != "alive" or min(group[0].stones) in est.certain or own_areas.get(i, 0) >= 2:
            continue
        for c in group:
            for lib in c.libs:
                for q in game.adjacent[lib]:
                    e = game.chain_of[q]
                    if e is None or e.color == c.color or lib not in e.libs:
                        continue
                    j = of_chain[id(e)]
                    if verdict[j] in ("alive", "unsure") and _self_atari(game, lib, c.color) \
                            and _self_atari(game, lib, e.color):
                        seki.add(i)
                        if verdict[j] == "alive":
                            seki.add(j)
    for i, group in enumerate(groups):
        stones = {s for c in group for s in c.stones}
        v = "seki" if i in seki else verdict[i]
        getattr(est, v).update(stones)
    return est


def ownership(game: Game, playouts: int = 64, seed: int = 20261129) -> list[float]:
    """Who owns each point at the end of random games from here: +1 always black, -1 always white.

    A playout plays uniformly random legal moves for both sides, never filling a one-point eye of its own
    (four own neighbours, at most one enemy diagonal, none at the edge), until both pass; the points are then
    owned by the stones on them and the single eyes by their surrounding colour. Deterministic (seeded)."""
    import random

    from .reading import reading_copy

    rng = random.Random(seed)
    g = reading_copy(game)
    board, chain, nb = g.board, g.chain_of, g.adjacent
    from .coords import diagonals

    diag = diagonals(g.size)
    n2 = len(board)
    total = [0] * n2
    cap = 3 * n2

    def own_eye(p: int, color: int) -> bool:
        for q in nb[p]:
            if board[q] != color:
                return False
        bad = 0
        for q in diag[p]:
            if board[q] == 3 - color:
                bad += 1
        return bad < (2 if len(diag[p]) == 4 else 1)

    def self_atari(p: int, color: int) -> bool:
        """Would the stone on ``p`` (capturing nothing) join a chain of two or more with one liberty?"""
        libs = set()
        size = 1
        for q in nb[p]:
            c = chain[q]
            if c is None:
                libs.add(q)
            elif c.color == color:
                libs |= c.libs
                size += len(c.stones)
            elif len(c.libs) == 1:
                return False
        libs.discard(p)
        return len(libs) <= 1 and size >= 2

    for _ in range(playouts):
        color = g.to_move
        played = 0
        passes = 0
        while passes < 2 and played < cap:
            move = -1
            # a chain in atari is taken (captures decide the capturing races the playouts are for)
            takes = [next(iter(ch.libs)) for ch in g.all_chains if ch.color != color and len(ch.libs) == 1]
            for p in sorted(takes):  # sorted: the chain set's order is not reproducible between runs
                if g.is_legal_point(p, color):
                    move = p
                    break
            if move < 0:
                empties = list(g.empty_points)
                k = len(empties)
                start = rng.randrange(k) if k else 0
                fallback = -1
                for i in range(k):
                    p = empties[(start + i) % k]
                    if own_eye(p, color) or not g.is_legal_point(p, color):
                        continue
                    if self_atari(p, color):
                        if fallback < 0:
                            fallback = p
                        continue
                    move = p
                    break
                if move < 0 and fallback >= 0 and rng.random() < 0.5:
                    move = fallback
            if move < 0:
                passes += 1
            else:
                passes = 0
                g.play_point(move, color)
                played += 1
            color = 3 - color
        for p in range(n2):
            c = board[p]
            if c == EMPTY:
                around = {board[q] for q in nb[p]}
                c = around.pop() if len(around) == 1 else EMPTY
            if c == 1:
                total[p] += 1
            elif c == 2:
                total[p] -= 1
        for _ in range(played):
            g.undo()
    return [t / playouts for t in total]
