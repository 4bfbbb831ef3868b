"""Connection reading: can two chains of one colour be joined (连), can they be cut apart (断)?

The goals ``connect`` and ``cut`` of the puzzles, and GTP ``connect`` / ``disconnect``. The *connector* owns
the two chains, the *cutter* is the other colour. The connector wins when the two chains become one chain, or
when a cutting chain (an enemy chain touching both) can be captured (the tactical ``Reader`` decides that,
ladders and nets included). The cutter wins when it captures either chain (the tactical reader again), or when
the connector has no way left to join them within the reading horizon (``Limits.branch_depth`` plies).

Method: a goal-directed alpha-beta search on the WIN / KO_A / KO_B / LOSE scale of ``reading.py`` with a
transposition table, over the moves that matter to the two chains: their common liberties, the liberties of
either that touch a liberty of the other (hanging connections, bamboo joints, one-point jumps), the empty points
of the shortest *ways* between them (a way may pass through other stones of the connector's, never through the
cutter's: joining means filling one, cutting means blocking all), captures and ataris of the enemy chains around
them, and rescues of either chain when it is short of liberties. The cutter has lost when the chains are joined
through *links* it cannot break: chains of the connector's on the shortest ways with two liberties in common,
each link with two points of its own (见合: the cutter fills one, the connector the other). Each question to the
tactical reader is read within ``capture_nodes``; a capture it cannot settle there is not counted on. A line that
takes a ko is worth at most KO_A; deep in the tree nobody takes a ko. Budgets as everywhere: over the node or
time budget the answer is ``unknown`` (``BudgetExceeded``), never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .game import EMPTY, Game, IllegalMove
from .reading import GTP_CODE, INVERT, KO_A, LOSE, NAMES, WIN, BudgetExceeded, Limits, Reader
from .search import Search, named

__all__ = ["CONNECT_LIMITS", "ConnectionReader", "connect", "disconnect", "gtp_connect", "GTP_CODE"]


@dataclass(frozen=True)
class ConnectLimits:
    plies: int = 10  # the connector must join the chains within this many plies (its moves and the cutter's)
    capture_libs: int = 3  # the tactical reader is asked about chains with at most this many liberties
    capture_nodes: int = 500  # each such question is read within this many nodes (unsettled: no capture)
    path_points: int = 3  # ways between the chains that need more empty points filled than this are not read


CONNECT_LIMITS = ConnectLimits()


class ConnectionReader(Search[Limits]):
    """Reads the connection of the chains on two points. Keep one per position to share its tables."""

    def __init__(self, game: Game, a: int, b: int, limits: Limits = Limits(),
                 connect_limits: ConnectLimits = CONNECT_LIMITS) -> None:
        if game.board[a] == EMPTY or game.board[b] == EMPTY:
            raise ValueError("no stone at a point to connect")
        if game.board[a] != game.board[b]:
            raise ValueError("the two points hold stones of different colours")
        super().__init__(limits)
        # the connection search only asks whether a chain is captured outright: a ko is already no capture
        # for it, so the reader need not spend nodes on retaking kos after threats
        self.reader = Reader(game, replace(limits, ko_threat_depth=-1))
        self.g = self.reader.g
        self.nb = self.g.adjacent
        self.a, self.b = a, b
        self.owner = game.board[a]
        self.cl = connect_limits
        self._capture_limits = replace(self.reader.limits, nodes=min(limits.nodes, connect_limits.capture_nodes))
        self.tt: dict[tuple, tuple[int, int, int | None]] = {}
        self._captures: dict[tuple, bool] = {}

    # ------------------------------------------------------------------ public API
    def connect(self) -> tuple[int, int | None]:
        """(result, move) for the connector moving first; move None when the chains are joined already."""
        self._start()
        return self._connect(0)

    def disconnect(self) -> tuple[int, int | None]:
        """(result, move) for the cutter moving first; move None when the cut needs no move (or fails)."""
        self._start()
        return self._cut(0)

    def after(self, move: int, color: int) -> int:
        """Result for ``color`` (connector or cutter) of playing ``move`` first; LOSE when it is illegal."""
        self._start()
        g = self.g
        try:
            g.play_point(move, color)
        except IllegalMove:
            return LOSE
        try:
            ko = g.ko >= 0
            v = INVERT[(self._cut(1) if color == self.owner else self._connect(1))[0]]
        finally:
            g.undo()
        return min(v, KO_A) if ko else v

    def joined(self) -> bool:
        ca, cb = self.g.chain_of[self.a], self.g.chain_of[self.b]
        return ca is not None and ca is cb

    # ------------------------------------------------------------------ search
    def _start(self) -> None:
        super()._start()
        self.reader._start()

    def _capturable(self, p: int, first: bool) -> bool:
        """Can the chain on ``p`` be captured unconditionally, its enemy moving first (or its owner first,
        when ``first`` is False)? Asked of the tactical reader; only chains short of liberties are read."""
        g = self.g
        ch = g.chain_of[p]
        if ch is None or len(ch.libs) > self.cl.capture_libs:
            return False
        key = (g.hash, g.ko, g.ko_color, min(ch.stones), first)
        known = self._captures.get(key)
        if known is not None:
            return known
        r = self.reader
        own = r.limits
        r.limits = self._capture_limits
        try:
            if first:
                hit = r._aside(r._attack, p, 1)[0] == WIN
            else:
                hit = r._aside(r._defend, p, 1)[0] == LOSE
        except BudgetExceeded:
            hit = False  # a capture not proven within its budget is no capture the connection may count on
        finally:
            r.limits = own
        self._captures[key] = hit
        return hit

    def _cutting_chains(self) -> list:
        """Enemy chains touching both of the connector's chains."""
        g = self.g
        ca, cb = g.chain_of[self.a], g.chain_of[self.b]
        around_a = self._around(ca)
        return [c for c in self._around(cb) if c in around_a]

    def _around(self, ch) -> list:
        chain, nb = self.g.chain_of, self.nb
        out = []
        for s in ch.stones:
            for q in nb[s]:
                c = chain[q]
                if c is not None and c.color != ch.color and c not in out:
                    out.append(c)
        return out

    def _connect(self, depth: int) -> tuple[int, int | None]:
        g = self.g
        ca, cb = g.chain_of[self.a], g.chain_of[self.b]
        if ca is None or cb is None:
            return LOSE, None
        if ca is cb:
            return WIN, None
        self._tick()
        for c in self._cutting_chains():
            if self._capturable(c.stones[0], True):
                r = self.reader
                return WIN, r._aside(r._attack, c.stones[0], 1)[1]
        if depth >= self.cl.plies:
            return LOSE, None
        key = ("C", g.hash, g.ko if g.ko_color == self.owner else -1)
        hit = self.tt.get(key)
        if hit is not None and hit[0] <= depth:
            return hit[1], hit[2]
        best = self._best(self._connect_moves(ca, cb), self.owner, depth, self._cut)
        self.tt[key] = (depth, best[0], best[1])
        return best

    def _cut(self, depth: int) -> tuple[int, int | None]:
        g = self.g
        ca, cb = g.chain_of[self.a], g.chain_of[self.b]
        if ca is None or cb is None:
            return WIN, None
        if ca is cb:
            return LOSE, None
        self._tick()
        for p in (self.a, self.b):
            if self._capturable(p, True):
                r = self.reader
                return WIN, r._aside(r._attack, p, 1)[1]
        ways = self._ways(ca, cb)  # read once here: the link test and the cutter's moves both walk them
        if self._miai(ca, cb, ways):
            return LOSE, None
        if depth >= self.cl.plies:
            return WIN, None
        key = ("D", g.hash, g.ko if g.ko_color == 3 - self.owner else -1)
        hit = self.tt.get(key)
        if hit is not None and hit[0] <= depth:
            return hit[1], hit[2]
        moves = self._cut_moves(ca, cb, ways)
        best = self._best(moves, 3 - self.owner, depth, self._connect)
        if best[1] is None and not any(g.is_legal_point(m, 3 - self.owner) for m in moves):
            # the cutter has nothing to play between the chains: it passes and the connector moves again
            v = INVERT[self._connect(depth + 1)[0]]
            best = (v, None)
        self.tt[key] = (depth, best[0], best[1])
        return best

    def _miai(self, ca, cb, ways: tuple[dict[int, int], dict[int, int], int]) -> bool:
        """Are the two chains joined through links the cutter cannot break (见合)? A link is two chains of the
        connector's with two liberties in common: the cutter fills one, the connector the other. The chains on the
        shortest ways between the two (``_path_points``) are joined link by link (each link with its own two
        points, no point serving two links), and none of them may be short of liberties (a cut would come with an
        atari, and the connector could not answer both)."""
        board, chain_of = self.g.board, self.g.chain_of
        da, db, best = ways
        members = {ca.stones[0]: ca, cb.stones[0]: cb}
        for p, d in da.items():
            if board[p] == ca.color and p in db and d + db[p] <= best:
                c = chain_of[p]
                if c is not None:
                    members[c.stones[0]] = c
        chains = list(members.values())
        if any(len(c.libs) < 3 for c in chains):
            return False
        root = {c.stones[0]: c.stones[0] for c in chains}

        def find(k: int) -> int:
            while root[k] != k:
                k = root[k]
            return k

        used: set[int] = set()
        for i, a in enumerate(chains):
            for b in chains[i + 1:]:
                common = sorted(a.libs & b.libs - used)
                if len(common) >= 2 and len(a.libs | b.libs) >= 4:
                    used.update(common[:2])
                    root[find(a.stones[0])] = find(b.stones[0])
        return find(ca.stones[0]) == find(cb.stones[0])

    def _best(self, moves: list[int], color: int, depth: int, answer) -> tuple[int, int | None]:
        g = self.g
        best, best_move = LOSE, None
        for m in moves:
            try:
                g.play_point(m, color)
            except IllegalMove:
                continue
            ko = g.ko >= 0
            if ko and depth > self.limits.ko_depth:
                g.undo()
                continue
            try:
                v = INVERT[answer(depth + 1)[0]]
            finally:
                g.undo()
            if ko and v > KO_A:
                v = KO_A
            if best_move is None or v > best:
                best, best_move = v, m
                if v == WIN:
                    break
        return best, best_move

    # ------------------------------------------------------------------ move generation
    def _links(self, ca, cb) -> tuple[list[int], list[int]]:
        """(common liberties, liberties of one chain touching a liberty of the other and the points
        touching a liberty of each)."""
        nb, board = self.nb, self.g.board
        la, lb = ca.libs, cb.libs
        common = sorted(la & lb)
        second = []
        for lib in sorted(la | lb):
            if lib in la and lib in lb:
                continue
            other = lb if lib in la else la
            if any(q in other for q in nb[lib]):
                second.append(lib)
        for lib in sorted(la):
            for q in nb[lib]:
                if board[q] == EMPTY and q not in la and q not in lb and q not in second:
                    if any(r in lb for r in nb[q]):
                        second.append(q)
        return common, second

    def _distances(self, ch, cap: int) -> dict[int, int]:
        """How many empty points a path from chain ``ch`` must fill to reach each point, stones of its own colour
        costing nothing and the other colour's barring the way (a 0-1 breadth-first search), up to ``cap``."""
        board, chain, nb = self.g.board, self.g.chain_of, self.nb
        colour = ch.color
        dist: dict[int, int] = {}
        now: list[int] = list(ch.stones)
        for s in now:
            dist[s] = 0
        cost = 0
        while now and cost <= cap:
            later: list[int] = []
            i = 0
            while i < len(now):  # the points at this cost, growing through own stones (free) as it goes
                p = now[i]
                i += 1
                for q in nb[p]:
                    if q in dist:
                        continue
                    c = board[q]
                    if c == EMPTY:
                        if cost + 1 <= cap:
                            dist[q] = cost + 1
                            later.append(q)
                    elif c == colour:
                        dist[q] = cost
                        now.append(q)
            now = later
            cost += 1
        return dist

    def _ways(self, ca, cb) -> tuple[dict[int, int], dict[int, int], int]:
        """The distances from each chain (``_distances``) and the fewest empty points a way between them must
        fill (more than ``path_points`` when there is no such way)."""
        cap = self.cl.path_points
        da, db = self._distances(ca, cap), self._distances(cb, cap)
        board = self.g.board
        best = cap + 1
        for p, d in da.items():
            if board[p] == EMPTY and p in db and d + db[p] - 1 < best:  # the point itself counted from both sides
                best = d + db[p] - 1
        return da, db, best

    def _path_points(self, ways: tuple[dict[int, int], dict[int, int], int]) -> list[int]:
        """The empty points on the shortest ways between the two chains: a way may go through other stones of
        the connector's (free) but never through the cutter's. Joining the chains means filling such a way;
        cutting them, blocking every one. Empty when the chains are further apart than the reading could ever
        join."""
        da, db, best = ways
        board = self.g.board
        return sorted(p for p, d in da.items() if board[p] == EMPTY and p in db and d + db[p] - 1 == best)

    def _connect_moves(self, ca, cb) -> list[int]:
        moves: dict[int, None] = {}
        for ch in (ca, cb):  # captures next to either chain first
            for c in self._around(ch):
                if len(c.libs) == 1:
                    moves.update(dict.fromkeys(c.libs))
        common, second = self._links(ca, cb)
        moves.update(dict.fromkeys(common))
        for ch in (ca, cb):  # a chain in atari must be saved (or the cut captures it)
            if len(ch.libs) <= 2:
                moves.update(dict.fromkeys(self.reader._defend_moves(ch, ch.color, self.limits.branch_depth)))
        moves.update(dict.fromkeys(second))
        for c in self._cutting_chains():
            if len(c.libs) <= 2:
                moves.update(dict.fromkeys(sorted(c.libs)))
        moves.update(dict.fromkeys(self._path_points(self._ways(ca, cb))))
        for ch in (ca, cb):  # ataris on the cutter's short chains around either: taking them opens new ways
            for c in self._around(ch):
                if len(c.libs) == 2:
                    moves.update(dict.fromkeys(sorted(c.libs)))
        return list(moves)

    def _cut_moves(self, ca, cb, ways: tuple[dict[int, int], dict[int, int], int]) -> list[int]:
        moves: dict[int, None] = {}
        common, second = self._links(ca, cb)
        for ch in (ca, cb):  # ataris on either chain first: they may cut with tempo
            if len(ch.libs) <= 2:
                moves.update(dict.fromkeys(sorted(ch.libs)))
        moves.update(dict.fromkeys(common))
        moves.update(dict.fromkeys(second))
        for c in self._cutting_chains():  # save a cutting stone short of liberties
            if len(c.libs) <= 2:
                moves.update(dict.fromkeys(self.reader._defend_moves(c, c.color, self.limits.branch_depth)))
        moves.update(dict.fromkeys(self._path_points(ways)))
        return list(moves)


def _read(game: Game, a: str, b: str, what: str, limits: Limits) -> tuple[str, str | None]:
    r = ConnectionReader(game, game.require_point(a), game.require_point(b), limits)
    return named(r.connect if what == "connect" else r.disconnect, NAMES, game.name)


def connect(game: Game, a: str, b: str, limits: Limits = Limits()) -> tuple[str, str | None]:
    """Can the owner of the chains on ``a`` and ``b``, moving first, join them? ("win"|"ko"|"lose"|"unknown",
    move)."""
    return _read(game, a, b, "connect", limits)


def disconnect(game: Game, a: str, b: str, limits: Limits = Limits()) -> tuple[str, str | None]:
    """Can the other colour, moving first, keep the chains on ``a`` and ``b`` apart for good?"""
    return _read(game, a, b, "disconnect", limits)


def gtp_connect(game: Game, a: int, b: int, what: str, limits: Limits = Limits()) -> tuple[int, int | None]:
    """GTP ``connect A B`` / ``disconnect A B``: (result code 0/1/2/3 as for attack/defend, move or None).
    Raises ValueError for an empty point or stones of two colours, BudgetExceeded when over budget."""
    r = ConnectionReader(game, a, b, limits)
    result, move = r.connect() if what == "connect" else r.disconnect()
    return GTP_CODE[result], move
