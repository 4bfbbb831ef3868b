"""Capturing races (比气): who captures first — and when nobody can, a seki (双活).

The goal ``race`` of the puzzles. The *targets* are the opponent's chains in the race; the *race chains* of the
solver are its chains next to a target at the start. The solver wins when a target is captured, loses when
one of its race chains is captured first, and when neither side can move without losing (both pass) the
result is a seki: no win for the solver.

Method: a search, not a liberty formula, so outside, inside and shared liberties, approach moves (紧气 that
need a preparing move first) and big eyes (三三、四五、五八、六十二) all come out of the reading. Values for
the solver: WIN, SEKI, LOSE; minimax with alpha-beta over a small local region and a transposition table of
bounds keyed by (position hash, side to move, ko point, passes in a row).

The region, recomputed at every node: the liberties of the targets and of the solver's race chains, the small
closed empty areas next to them (eye space, where a big eye's liberties are), the liberties of any chain
touching a race chain with two liberties or fewer (captures, escapes), and for a liberty that would be a
self-atari to fill, its empty neighbours (the approach moves). Both sides may pass; two passes in a row end
the race (seki when nothing was captured). A move that repeats a position of the current line is not played,
so ko fights end: the side that takes a ko first wins it (no threats are read; the verdict does not flag ko).

A line longer than ``Budget.max_depth`` or a search over its node or time budget raises ``BudgetExceeded``:
the honest answer is ``unknown``.
"""

from __future__ import annotations

from .game import EMPTY, Game, IllegalMove
from .lifedeath import empty_area
from .reading import reading_copy
from .search import Budget, BudgetExceeded, Search

LOSE, SEKI, WIN = 0, 1, 2
RACE_NAMES = {WIN: "win", SEKI: "seki", LOSE: "lose"}
PASS = -1
EYE_MAX = 8  # a closed empty area up to this size next to a race chain is eye space (a big eye)

__all__ = ["LOSE", "PASS", "RACE_NAMES", "RaceReader", "SEKI", "WIN", "influence", "race_chains"]


def race_chains(game: Game, targets: list[int]) -> list[int]:
    """One stone of every chain of the other colour touching a target chain (the solver's race chains)."""
    chain, nb = game.chain_of, game.adjacent
    out: dict[int, int] = {}
    for t in targets:
        ch = chain[t]
        if ch is None:
            continue
        for s in ch.stones:
            for q in nb[s]:
                c = chain[q]
                if c is not None and c.color != ch.color and id(c) not in out:
                    out[id(c)] = min(c.stones)
    return list(out.values())


class RaceReader(Search[Budget]):
    """Reads a capturing race from one position. ``tt`` may be shared between readers of the same race.

    ``limits``: a ``Budget`` (nodes, seconds, max_depth); the tactical ``Limits`` are one too."""

    def __init__(self, game: Game, targets: list[int], ours: list[int] | None = None, limits: Budget = Budget(),
                 tt: dict | None = None) -> None:
        if any(game.board[t] == EMPTY for t in targets):
            raise ValueError("no stone at a target point")
        super().__init__(limits)
        self.g = g = reading_copy(game)
        self.nb = g.adjacent
        self.targets = list(targets)
        self.owner = g.board[self.targets[0]]
        self.solver = 3 - self.owner
        self.ours = list(ours) if ours is not None else race_chains(g, self.targets)
        self.tt: dict[tuple, tuple[int, int, int | None]] = {} if tt is None else tt
        self._path: set[tuple] = set()

    # ------------------------------------------------------------------ public API
    def best(self, passes: int = 0) -> tuple[int, int | None]:
        """(value for the solver, best move for the side to move; PASS = pass) from the current position.
        When every move loses, the move is the one that holds out longest in the reading."""
        self._start()
        value = self._over()
        if value is not None:
            return value, None
        side = self.g.to_move
        moves = [m for m in self._moves(side, passes) if self._legal(m, side)]
        if not moves:
            return SEKI, PASS
        values: dict[int, int] = {}
        for m in moves:
            after = self.after(m, passes, fresh=False)
            if after is not None:
                values[m] = after
        v = max(values.values()) if side == self.solver else min(values.values())
        good = [m for m in moves if values.get(m) == v]
        good = [m for m in good if m != PASS] or good
        return v, good[0]

    def after(self, move: int, passes: int = 0, fresh: bool = True) -> int | None:
        """Value for the solver after the side to move plays ``move`` (PASS = pass); None when illegal."""
        if fresh:
            self._start()
        side = self.g.to_move
        lo, hi = LOSE, WIN  # the value lies in [lo, hi]; each proof narrows it
        for limit in self._deepening():
            for t in (WIN, SEKI):
                if not lo < t <= hi:
                    continue
                got = self._child(move, side, t, limit, False, 0, passes)
                if got is None:
                    return None
                if got:
                    lo = t
                elif not self._child(move, side, t, limit, True, 0, passes):
                    hi = t - 1
            if lo == hi:
                return lo
        raise BudgetExceeded(self.nodes)

    def _legal(self, m: int, side: int) -> bool:
        return m == PASS or self.g.is_legal_point(m, side)

    # ------------------------------------------------------------------ search
    def _deepening(self):
        """Iterative deepening: a short race is proved in a few plies and never waits for the long lines."""
        limit = 3
        while limit < self.limits.max_depth:
            yield limit
            limit += 2
        yield self.limits.max_depth

    def _over(self) -> int | None:
        board = self.g.board
        for t in self.targets:
            if board[t] != self.owner:
                return WIN
        for s in self.ours:
            if board[s] != self.solver:
                return LOSE
        return None

    def _child(self, m: int, side: int, t: int, left: int, hope: bool, depth: int, passes: int) -> bool | None:
        """Does the solver reach at least ``t`` after ``side`` plays ``m``? None when the move is not allowed."""
        g = self.g
        if m == PASS:
            if passes >= 1:
                return SEKI >= t  # two passes in a row: nobody can afford to move
            saved = (g.to_move, g.ko, g.ko_color)
            g.to_move, g.ko = 3 - side, -1
            try:
                return self._reach(3 - side, t, left - 1, hope, depth + 1, passes + 1)
            finally:
                g.to_move, g.ko, g.ko_color = saved
        try:
            g.play_point(m, side)
        except IllegalMove:
            return None
        try:
            if (g.hash, 3 - side) in self._path:
                return None  # the line repeats a position
            return self._reach(3 - side, t, left - 1, hope, depth + 1, 0)
        finally:
            g.undo()

    def _reach(self, side: int, t: int, left: int, hope: bool, depth: int, passes: int) -> bool:
        """Can the solver force a value of at least ``t`` with ``side`` to move and ``left`` plies to go? A line
        that runs out of plies counts as ``hope``: with hope False a True answer is a proof, with hope True a
        False answer is one."""
        value = self._over()
        if value is not None:
            return value >= t
        if left <= 0 or depth >= self.limits.max_depth:
            return hope
        self._tick()
        g = self.g
        ko = g.ko if g.ko_color == side else -1
        key = (g.hash, side, ko, passes, t, hope)
        entry = self.tt.get(key)
        # proofs without hope grow with the plies allowed, proofs with hope shrink: (yes from, no up to)
        if entry is not None:
            yes, no, tt_move = entry
            if (left >= yes) if not hope else (left <= yes):
                return True
            if (left <= no) if not hope else (left >= no):
                return False
        else:
            yes, no, tt_move = (10**6, -1, None) if not hope else (-1, 10**6, None)
        solver = side == self.solver
        result = not solver
        best = None
        pkey = (g.hash, side)
        self._path.add(pkey)
        try:
            for m in self._moves(side, passes, tt_move):
                got = self._child(m, side, t, left, hope, depth, passes)
                if got is None:
                    continue
                if got == solver:
                    result, best = got, m
                    break
        finally:
            self._path.discard(pkey)
        if result:
            yes = min(yes, left) if not hope else max(yes, left)
        else:
            no = max(no, left) if not hope else min(no, left)
        self.tt[key] = (yes, no, best if best is not None else tt_move)
        return result

    # ------------------------------------------------------------------ move generation
    def _moves(self, side: int, passes: int, tt_move: int | None = None) -> list[int]:
        """The race moves for ``side``, best guesses first, then the pass.

        Attack: the liberties (and the eye space behind them) of the enemy race chains that are shortest of
        liberties, give or take one; approach moves before a liberty that would be a self-atari. Defence:
        captures of enemy stones next to one's own race chains, and extensions that gain liberties for the
        shortest of them. Extending a chain that is not short of liberties, or filling its own liberties,
        never changes who wins a race and is not read."""
        g = self.g
        board, chain, nb = g.board, g.chain_of, self.nb
        mine_pts, theirs_pts = (self.ours, self.targets) if side == self.solver else (self.targets, self.ours)
        mine = self._live(mine_pts)
        theirs = self._live(theirs_pts)
        scored: dict[int, int] = {}

        def add(p: int, score: int) -> None:
            if board[p] == EMPTY and scored.get(p, -10**6) < score:
                scored[p] = score

        if theirs:
            short = min(len(c.libs) for c in theirs) + 1
            for c in theirs:
                if len(c.libs) > short:
                    continue
                for lib in c.libs:
                    area = self._small_area(lib)
                    for p in area or (lib,):
                        if self._self_atari(p, side) and not self._captures(p, side):
                            add(p, -50)
                            for q in nb[p]:  # approach moves: make this liberty fillable later
                                add(q, 5)
                        else:
                            add(p, 40 + (200 if len(c.libs) == 1 else 0) - 5 * len(c.libs))
        if mine:
            short = min(len(c.libs) for c in mine) + 1
            for c in mine:
                for s in c.stones:
                    for q in nb[s]:
                        d = chain[q]
                        if d is not None and d.color != side and len(d.libs) <= 2:
                            for lib in d.libs:  # take or atari the stones pressing on us
                                add(lib, 300 if len(d.libs) == 1 else 20)
                if len(c.libs) > short:
                    continue
                for lib in c.libs:
                    gain = sum(1 for q in nb[lib] if board[q] == EMPTY and q not in c.libs)
                    if gain >= 2 or (gain == 1 and self._touches_enemy(lib, side)):
                        add(lib, 10 + gain * 5)
        moves = [p for p, _ in sorted(scored.items(), key=lambda ps: (-ps[1], ps[0])) if self._sensible(p, side)]
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        if tt_move == PASS:
            moves.insert(0, PASS)
        else:
            moves.append(PASS)
        return moves

    def _live(self, points: list[int]) -> list:
        chain = self.g.chain_of
        out = []
        for p in points:
            c = chain[p]
            if c is not None and c not in out:
                out.append(c)
        return out

    def _touches_enemy(self, p: int, side: int) -> bool:
        chain = self.g.chain_of
        return any((c := chain[q]) is not None and c.color != side for q in self.nb[p])

    def _captures(self, p: int, side: int) -> bool:
        chain = self.g.chain_of
        return any((c := chain[q]) is not None and c.color != side and len(c.libs) == 1 for q in self.nb[p])

    def _sensible(self, p: int, side: int) -> bool:
        """Not a suicide and not the filling of a one-point eye of one's own single chain."""
        chain = self.g.chain_of
        own = None
        for q in self.nb[p]:
            c = chain[q]
            if c is None:
                return True
            if c.color != side:
                if len(c.libs) == 1:
                    return True
                return any((n := chain[r]) is None or (n.color == side and len(n.libs) > 1)
                           for r in self.nb[p])
            if own is None:
                own = c
            elif c is not own:
                return len(c.libs) > 1 or len(own.libs) > 1
        return False

    def _small_area(self, start: int) -> set[int] | None:
        area, closed = empty_area(self.g, start, EYE_MAX)
        return area if closed else None

    def _self_atari(self, p: int, side: int) -> bool:
        """Would a stone of ``side`` on ``p`` (capturing nothing) be left with one liberty?"""
        return len(self.g.liberties_after(p, side)) <= 1


def influence(game: Game, targets: list[int], ours: list[int]) -> set[int]:
    """Every point the race reading can look at from this position: a stone played anywhere else changes
    nothing in it (the move counts as a move elsewhere)."""
    chain, nb, board = game.chain_of, game.adjacent, game.board
    chains = []
    for p in targets + ours:
        c = chain[p]
        if c is not None and c not in chains:
            chains.append(c)
    for c in list(chains):
        for s in c.stones:
            for q in nb[s]:
                d = chain[q]
                if d is not None and d not in chains:
                    chains.append(d)
    out: set[int] = set()
    for c in chains:
        for s in c.stones:
            out.update(nb[s])
        for lib in c.libs:
            seen = {lib}
            stack = [lib]
            while stack and len(seen) <= EYE_MAX + 1:
                x = stack.pop()
                for q in nb[x]:
                    if q not in seen and board[q] == EMPTY:
                        seen.add(q)
                        stack.append(q)
            for x in seen:
                out.add(x)
                out.update(nb[x])
    return out
