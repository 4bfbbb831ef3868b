"""Unconditional life: stones that can never be captured, and the territory they own for certain.

A chain is *unconditionally alive* (Benson's "pass-alive") when the opponent cannot capture it even if it is
allowed any number of moves in a row while its owner only passes. The points such chains own whatever happens
are *unconditional territory*; opponent stones lying there are *unconditionally dead*.

The answers follow GNU Go 3.8's ``unconditional_status`` GTP command (its regression file
``unconditional.tst``), whose method works by playing moves rather than by Benson's region bookkeeping:

1. **Capture what can be captured.** For one colour at a time, the opponent repeatedly tries every chain of
   that colour: it fills all of the chain's liberties it legally can (never suicide, never an immediate ko
   recapture). If that captures the chain, or leaves it with one liberty (then taken, a ko capture allowed),
   the stones stay on the board and the sweep goes on; otherwise those moves are taken back. When a sweep
   captures nothing, the chains still standing are invincible: their owner passes while the opponent plays
   as long as it likes, and they stay. (Chains of two stones with no other friendly stone, nor the edge,
   around them are left aside for now: they may be part of a seki, see below.)
2. **See which opponent stones could live.** The opponent fills every liberty of the invincible chains it
   legally can, then extends its chains in atari (not where that is suicide).
3. **A seki of a special shape.** A lone two-stone chain set aside in step 1 may sit in an eye space where the
   opponent's inside stones would live in seki under alternating play although one-sided play captures
   them (GNU Go's source discusses the shape at length). When the opponent's two stones beside the chain are
   one chain, the two-stone chain gets a third stone, so it cannot be captured as if the shape were dead.
   Then the set-aside chains are filled in like the others.
4. **Shrink the eyes.** Every opponent chain with exactly two liberties side by side plays on one of them
   (the one keeping more room), so big eyes become small ones.
5. **Read the result.** The invincible chains' stones are alive; their remaining liberties, and the opponent
   chains now left in atari together with their last liberty, are the colour's unconditional territory.

Done for white and then for black on the same position (black's verdict wins where both speak, as in GNU Go),
this gives every point one status: ``alive`` (a stone of an invincible chain, or a stone on its owner's own
unconditional territory), ``dead`` (a stone on the opponent's unconditional territory), ``black_territory`` /
``white_territory`` (an empty point of that colour's unconditional territory) or ``undecided``. On an empty
board every point is undecided.

The simulation uses its own small board that mirrors GNU Go's conventions where the outcome depends on them:
points are visited top row first, left to right; a chain is visited at its first stone in that order;
neighbours are taken south, west, north, east; liberties are listed in board order. Only the first-order
rules matter here (no superko: the opponent's moves are hypothetical), exactly as in GNU Go's ``trymove``.

Pure Python, standard library and ``teach.go`` only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from .coords import BadCoordinate, parse_point
from .game import BLACK, EMPTY, WHITE, Game

GRAY = 3  # off the board (the sentinel frame around the simulation board)

ALIVE = "alive"
DEAD = "dead"
UNDECIDED = "undecided"
TERRITORY = {BLACK: "black_territory", WHITE: "white_territory"}
STATUSES = (ALIVE, DEAD, UNDECIDED, TERRITORY[BLACK], TERRITORY[WHITE])

__all__ = ["unconditional_status", "unconditional_statuses", "unconditionally_alive", "unconditional_territory",
           "STATUSES"]


class _Board:
    """A framed board for hypothetical moves: play/undo with first-order legality (suicide, simple ko).

    Point ``q = (n + 2) + i * (n + 1) + j`` for row ``i`` counted from the top and column ``j``; one shared
    column of frame between rows and a frame row above and below, so every neighbour of a board point is an
    index of the list. Chains are found by flood fill and cached until the board changes.
    """

    def __init__(self, game: Game) -> None:
        n = game.size
        self.n = n
        ns = n + 1
        self.ns = ns
        self.board = [GRAY] * ((n + 1) * (n + 2) + 1)
        self.to_game: dict[int, int] = {}  # framed point -> game point index
        self.points: list[int] = []  # board points in GNU Go's scan order (top row first)
        for i in range(n):
            for j in range(n):
                q = (n + 2) + i * ns + j
                p = (n - 1 - i) * n + j
                self.board[q] = game.board[p]
                self.to_game[q] = p
                self.points.append(q)
        self.from_game = {p: q for q, p in self.to_game.items()}
        # GNU Go's directions: south, west, north, east, then the diagonals SW, NW, NE, SE.
        self.delta = (ns, -1, -ns, 1, ns - 1, -ns - 1, -ns + 1, ns + 1)
        self.nb = self.delta[:4]
        ko = getattr(game, "ko", -1)
        ko_color = getattr(game, "ko_color", 0)
        self.ko = self.from_game.get(ko, -1) if ko is not None and ko >= 0 else -1
        self.ko_color = ko_color if self.ko >= 0 else 0
        self._undo: list[tuple[list[tuple[int, int]], int, int]] = []
        self._chains: dict[int, tuple[int, list[int], list[int]]] = {}

    # ---------------------------------------------------------------- chains
    def chain(self, q: int) -> tuple[int, list[int], list[int]]:
        """(origin, stones, liberties) of the chain on q: origin = first stone in scan order, lists sorted."""
        got = self._chains.get(q)
        if got is not None:
            return got
        board = self.board
        color = board[q]
        stones = [q]
        seen = {q}
        libs = set()
        nb = self.nb
        k = 0
        while k < len(stones):
            s = stones[k]
            k += 1
            for d in nb:
                r = s + d
                c = board[r]
                if c == color:
                    if r not in seen:
                        seen.add(r)
                        stones.append(r)
                elif c == EMPTY:
                    libs.add(r)
        stones.sort()
        got = (stones[0], stones, sorted(libs))
        cache = self._chains
        for s in stones:
            cache[s] = got
        return got

    def origin(self, q: int) -> int:
        return self.chain(q)[0]

    def libs(self, q: int) -> list[int]:
        return self.chain(q)[2]

    def countlib(self, q: int) -> int:
        return len(self.chain(q)[2])

    def countstones(self, q: int) -> int:
        return len(self.chain(q)[1])

    def same_chain(self, a: int, b: int) -> bool:
        return self.board[a] == self.board[b] and self.chain(a)[0] == self.chain(b)[0]  # the same first stone

    def approxlib(self, q: int, color: int, maxlib: int) -> int:
        """Liberties a stone of ``color`` on empty q would have, captures ignored, counted up to maxlib."""
        board = self.board
        libs = set()
        for d in self.nb:
            r = q + d
            c = board[r]
            if c == EMPTY:
                libs.add(r)
            elif c == color:
                libs.update(self.chain(r)[2])
        libs.discard(q)
        return min(len(libs), maxlib)

    # ---------------------------------------------------------------- moves
    def trymove(self, q: int, color: int, ignore_ko: bool = False) -> bool:
        """Play if legal (not occupied, not suicide, not a simple-ko recapture unless ignore_ko); True if played."""
        board = self.board
        if board[q] != EMPTY:
            return False
        if not ignore_ko and q == self.ko and color == self.ko_color:
            return False
        other = 3 - color
        captured: list[list[int]] = []
        breathes = False
        for d in self.nb:
            r = q + d
            c = board[r]
            if c == EMPTY:
                breathes = True
            elif c == color:
                if not breathes and len(self.chain(r)[2]) > 1:
                    breathes = True
            elif c == other:
                origin, stones, libs = self.chain(r)
                if len(libs) == 1 and all(stones is not s for s in captured):
                    captured.append(stones)
        if not breathes and not captured:
            return False  # suicide
        changes = [(q, EMPTY)]
        board[q] = color
        removed = 0
        last = -1
        for stones in captured:
            for s in stones:
                changes.append((s, other))
                board[s] = EMPTY
                removed += 1
                last = s
        self._undo.append((changes, self.ko, self.ko_color))
        self._chains = {}
        if removed == 1 and all(board[q + d] != color for d in self.nb) and self.countlib(q) == 1:
            self.ko, self.ko_color = last, other
        else:
            self.ko, self.ko_color = -1, 0
        return True

    def popgo(self) -> None:
        changes, self.ko, self.ko_color = self._undo.pop()
        board = self.board
        for q, old in changes:
            board[q] = old
        self._chains = {}

    def pop_to(self, depth: int) -> None:
        while len(self._undo) > depth:
            self.popgo()

    @property
    def depth(self) -> int:
        return len(self._undo)


def _capture_all_but_invincible(b: _Board, color: int, exceptions: set[int]) -> bool:
    """Step 1: the opponent captures every chain of ``color`` it can (skipping ``exceptions``), leaving its
    stones on the board. True when no chain of ``color`` outside the exceptions is left standing."""
    other = 3 - color
    board = b.board
    something_captured = True
    found = False
    while something_captured:
        something_captured = False
        found = False
        for q in b.points:
            if board[q] != color or b.origin(q) != q or q in exceptions:
                continue
            found = True
            depth = b.depth
            for lib in b.libs(q):
                b.trymove(lib, other)
            if board[q] == EMPTY:
                something_captured = True
            else:
                libs = b.libs(q)
                if len(libs) == 1:
                    b.trymove(libs[0], other, ignore_ko=True)
                    something_captured = True
                else:
                    b.pop_to(depth)
    return not found


def _fill_liberties(b: _Board, q: int, color: int) -> None:
    for lib in b.libs(q):
        b.trymove(lib, color)


def _unconditional_marks(b: _Board, color: int) -> dict[int, int]:
    """GNU Go's unconditional analysis for one colour: framed point -> 1 (invincible stone of ``color``) or
    2 (``color``'s unconditional territory). The board is left as it was found."""
    other = 3 - color
    board = b.board
    start = b.depth
    delta = b.delta
    marks: dict[int, int] = {}

    # Lone two-stone chains: no other chain of ``color`` and no edge among the eight neighbours of either stone.
    potential_sekis: set[int] = set()
    for q in b.points:
        if board[q] != color or b.origin(q) != q or b.countstones(q) != 2:
            continue
        stones = b.chain(q)[1]
        if all(board[s + d] != GRAY and not (board[s + d] == color and s + d not in stones)
               for s in stones for d in delta):
            potential_sekis.update(stones)

    if _capture_all_but_invincible(b, color, potential_sekis):
        b.pop_to(start)
        return marks

    # Step 2: the opponent fills what it can of the invincible chains' liberties ...
    for q in b.points:
        if board[q] == color and q not in potential_sekis and b.origin(q) == q:
            _fill_liberties(b, q, other)
    # ... and extends its chains in atari, as long as that is possible.
    found = True
    while found:
        found = False
        for q in b.points:
            if board[q] != other or b.countlib(q) > 1:
                continue
            if b.trymove(b.libs(q)[0], other):
                found = True

    # Step 3: the seki shape around a lone two-stone chain.
    for q in b.points:
        if q not in potential_sekis or board[q] == EMPTY or b.origin(q) != q:
            continue
        for r in range(4):
            up = delta[r]
            right = delta[(r + 1) % 4]
            if board[q + up] != color or board[q + 2 * up] != EMPTY or board[q - up] != EMPTY:
                continue
            for k in range(2):
                if k == 1:
                    right = -right
                if board[q + right] != EMPTY or board[q + up - right] != EMPTY:
                    continue
                local = b.depth
                if board[q - right] == EMPTY:
                    b.trymove(q - right, other)
                if board[q + up + right] == EMPTY:
                    b.trymove(q + up + right, other)
                critical = (board[q - right] == other and board[q + up + right] == other
                            and b.same_chain(q - right, q + up + right))
                b.pop_to(local)
                if critical:
                    b.trymove(q - up, color)  # a third stone: this chain can no longer die as a pair
                    break
            if b.countstones(q) > 2:
                break
    for q in b.points:
        if q in potential_sekis and board[q] != EMPTY:
            _fill_liberties(b, q, other)

    # Step 4: opponent chains with two adjacent liberties take one, keeping as much room as possible.
    n_s = b.ns
    for q in b.points:
        if board[q] != other or b.countlib(q) != 2:
            continue
        a, c = b.libs(q)
        if abs(a // n_s - c // n_s) + abs(a % n_s - c % n_s) != 1:
            continue
        a_open, c_open = b.approxlib(a, color, 4), b.approxlib(c, color, 4)
        a_lib, c_lib = b.approxlib(a, other, 4), b.approxlib(c, other, 4)
        if a_open > c_open or (a_open == c_open and a_lib >= c_lib):
            b.trymove(a, other)
        else:
            b.trymove(c, other)

    # Step 5: read the result.
    for q in b.points:
        if board[q] == color and q not in potential_sekis:
            marks[q] = 1
            if b.origin(q) == q:
                for lib in b.libs(q):
                    marks[lib] = 2
        elif board[q] == other and b.countlib(q) == 1:
            marks[q] = 2
            marks[b.libs(q)[0]] = 2

    b.pop_to(start)
    return marks


class _Analysis:
    """Both colours' marks for one position, in game point indices."""

    __slots__ = ("marks", "status")

    def __init__(self, game: Game) -> None:
        b = _Board(game)
        self.marks: dict[int, dict[int, int]] = {}
        status = [UNDECIDED] * (game.size * game.size)
        if any(game.board):
            for color in (WHITE, BLACK):  # GNU Go's order: black's verdict overwrites white's
                marks = {b.to_game[q]: v for q, v in _unconditional_marks(b, color).items()}
                self.marks[color] = marks
                for p in marks:
                    here = game.board[p]
                    if here == color:
                        status[p] = ALIVE
                    elif here == EMPTY:
                        status[p] = TERRITORY[color]
                    else:
                        status[p] = DEAD
        else:
            self.marks = {BLACK: {}, WHITE: {}}
        self.status = status


_CACHE: OrderedDict[tuple, _Analysis] = OrderedDict()
_CACHE_SIZE = 64
_CACHE_LOCK = threading.Lock()


def _analysis(game: Game) -> _Analysis:
    """The analysis of the game's current position, computed once: the cache is keyed by the position (board
    and hash) and the simple-ko state, which decides whether a recapture is allowed."""
    ko = getattr(game, "ko", -1)
    key = (game.size, game.hash, ko, getattr(game, "ko_color", 0) if ko >= 0 else 0, tuple(game.board))
    with _CACHE_LOCK:
        got = _CACHE.get(key)
        if got is not None:
            _CACHE.move_to_end(key)
            return got
    got = _Analysis(game)
    with _CACHE_LOCK:
        _CACHE[key] = got
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return got


def _color(color: object) -> int:
    if color in (BLACK, WHITE):
        return color  # type: ignore[return-value]
    words = {"black": BLACK, "b": BLACK, "white": WHITE, "w": WHITE}
    c = words.get(str(color).strip().lower())
    if c is None:
        raise ValueError(f"{color!r} is not a colour (use 'black' or 'white')")
    return c


def unconditional_statuses(game: Game) -> list[str]:
    """The status of every point (by point index), as ``unconditional_status`` answers it."""
    return list(_analysis(game).status)


def unconditional_status(game: Game, point: str | int) -> str:
    """GNU Go's ``unconditional_status`` of one point (GTP name such as ``"D4"``, or a point index):

    ``alive`` / ``dead`` / ``undecided`` for a stone, ``black_territory`` / ``white_territory`` / ``undecided``
    for an empty point. Raises BadCoordinate for a bad point (or ``pass``)."""
    if isinstance(point, int) and not isinstance(point, bool):
        if not 0 <= point < game.size * game.size:
            raise BadCoordinate(point, game.size, "off the board")
        p = point
    else:
        parsed = parse_point(point, game.size)
        if parsed is None:
            raise BadCoordinate(point, game.size, "a point is needed here, not a pass")
        p = parsed
    return _analysis(game).status[p]


def unconditionally_alive(game: Game, color: object) -> set[int]:
    """Point indices of ``color``'s stones that can never be captured (pass-alive, GNU Go's sense)."""
    c = _color(color)
    board = game.board
    return {p for p in _analysis(game).marks.get(c, {}) if board[p] == c}


def unconditional_territory(game: Game, color: object) -> set[int]:
    """Point indices ``color`` owns unconditionally: empty points and (dead) opponent stones on its
    unconditional territory. ``color``'s own stones are not included (see ``unconditionally_alive``)."""
    c = _color(color)
    board = game.board
    return {p for p in _analysis(game).marks.get(c, {}) if board[p] != c}
