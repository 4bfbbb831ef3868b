"""Life and death of one group: can it be killed, can it live — against the best defence.

The goals ``kill`` and ``live`` of the puzzles. A group is **dead** when the attacker can capture it whatever
the defender does (the attacker may need many moves), **alive** when it cannot be captured: two real eyes,
pass-alive stones, or a seki (neither side can afford to move: counted as alive, as Go teachers do).

Method: a depth-first alpha-beta search with a transposition table keyed by (position hash, side to move, ko
point, threat-retakes used). The rules of this local game:

- The *target* is the chain on the point the caller names; it is the group's owner (the defender) against the
  other colour (the attacker). When the target is captured the attacker has won.
- Moves are played in a small *region*: by default the group's stones, its eye space (small closed areas of
  empty points next to it and the enemy stones shut inside them), the group's liberties and their empty
  neighbours, and the stones and liberties of enemy chains touching it with two liberties or fewer. The group
  is the target plus its colour's chains bordering that eye space or one move from connecting to the target.
  The attacker may also fill any liberty of the defender's stones outside the region: the region is a fence
  the defender cannot run through, so the question is always "can it live here".
- When the target's stones are pass-alive (Benson's unconditional life, checked locally and exactly: a set of
  chains each with two vital enclosed regions, every region bounded only by chains of the set) the defender has
  won. The root position is also asked of ``life.unconditionally_alive`` (GNU Go's unconditional status).
- The defender may pass; the attacker may not, because two passes end the game with the group standing
  (= alive), so an attacker's pass is a loss. A seki is therefore a position where every attacker move loses.
- Plain ko: a ko recapture is banned for one move. The banned side may still retake *after a ko threat*: that
  line is worth at most KO_B to it (it wins only by winning a ko the other side took first); the side that took
  the ko first then sees KO_A. A line may contain at most ``KO_THREATS`` such threat-retakes, and a move that
  repeats a position of the current line is not played (no endless cycles; as in every such search, a result
  stored in the table may in rare cases depend on the line that reached it).
- Results use reading.py's scale for the side to move (WIN, KO_A, KO_B, LOSE; ``INVERT`` flips the side).

Every search result is a pair of bounds (lo, hi). A line longer than ``Budget.max_depth`` is unknown,
(LOSE, WIN); a root answer that still has open bounds, or a search over its node or time budget, raises
``BudgetExceeded``: the honest answer is ``unknown``, never a guess.

Move ordering does the work: the TT move, captures, then the vital points (empty region points with the most
empty neighbours inside the eye space), ataris, the defender's pass, other region moves, self-ataris last,
each helped by a history of the moves that refuted others. Suicides are not tried, and neither side fills a
one-point eye of its own chain (four neighbours, or the edge, of that chain alone): that only takes a liberty
away from itself, and the other side can reply by passing.

Pure Python: standard library and ``teach.go`` only.
"""

from __future__ import annotations

from typing import cast

from .game import EMPTY, Chain, Game, IllegalMove
from .life import unconditionally_alive as _life_alive  # unconditional life (GNU Go's unconditional_status)
from .reading import GTP_CODE, KO_A, KO_B, LOSE, NAMES, WIN, Limits, reading_copy
from .search import Budget, BudgetExceeded, Search, named

__all__ = ["LifeReader", "default_region", "owl", "solve", "dragon_status", "KO_THREATS", "Budget", "BudgetExceeded",
           "Limits", "WIN", "KO_A", "KO_B", "LOSE"]

EYE_MAX = 16  # an enclosed area of more points than this is open space, not eye space
BENSON_REGION_MAX = 14  # regions bigger than this are never vital in the local pass-alive check
BENSON_CHAINS_MAX = 40  # chains looked at by the local pass-alive check before it gives up (says "no")
KO_THREATS = 2  # threat-retakes allowed on one line of play
OWL_LIMITS = Budget(nodes=250_000, seconds=5.0)  # GTP owl_attack / owl_defend (GNU Go's regression timeout: 10 s)
_PASS = -1
_WON, _LOST, _OPEN = (WIN, WIN), (LOSE, LOSE), (LOSE, WIN)


def empty_area(game: Game, start: int, limit: int) -> tuple[set[int], bool]:
    """The empty points connected to ``start`` through empty points (at most ``limit`` + 1 of them); True
    when the area is closed within the limit."""
    board, nb = game.board, game.adjacent
    seen = {start}
    stack = [start]
    while stack:
        s = stack.pop()
        for q in nb[s]:
            if q not in seen and board[q] == EMPTY:
                seen.add(q)
                if len(seen) > limit:
                    return seen, False
                stack.append(q)
    return seen, True


def default_region(game: Game, group: int, eye_max: int = EYE_MAX, link: bool = True) -> tuple[set[int], set[int]]:
    """(region, eye space) for the group on ``group``.

    The eye space is every small closed area of empty points (at most ``eye_max``) next to the group, plus
    the enemy chains inside it (all their liberties in it); the group is the chain on the point plus every
    chain of its colour bordering that eye space. The region adds the group's stones, its liberties and the
    liberties' empty neighbours, and the stones and liberties of enemy chains touching the group that are
    short of liberties (two or fewer: a capturing race)."""
    board, chain, nb = game.board, game.chain_of, game.adjacent
    first = chain[group]
    if first is None:
        raise ValueError("no stone at the group's point")
    d = first.color
    chains = [first]
    known = {id(first)}
    eye: set[int] = set()
    looked: set[int] = set()
    enemies_seen: set[int] = set()

    def join(points) -> None:
        for p in points:
            for r in nb[p]:
                c = chain[r]
                if c is not None and c.color == d and id(c) not in known:
                    known.add(id(c))
                    chains.append(c)

    if link:
        join(first.libs)  # the chains one move can connect to the target are part of its group
    k = 0
    while True:
        while k < len(chains):
            ch = chains[k]
            k += 1
            for s in ch.stones:
                for q in nb[s]:
                    if board[q] == EMPTY and q not in looked:
                        area, closed = empty_area(game, q, eye_max)
                        looked |= area
                        if closed:
                            eye |= area
                            join(area)
        # enemy chains shut inside the eye space (every liberty in it) belong to it
        for ch in chains:
            for s in ch.stones:
                for q in nb[s]:
                    c = chain[q]
                    if c is None or c.color == d or id(c) in enemies_seen:
                        continue
                    if c.libs and c.libs <= eye and len(eye) + len(c.stones) <= 2 * eye_max:
                        enemies_seen.add(id(c))
                        eye.update(c.stones)
                        join(c.stones)
        if k == len(chains):
            break
    region = set(eye)
    for ch in chains:
        region.update(ch.stones)
        for lib in ch.libs:
            region.add(lib)
            for q in nb[lib]:
                if board[q] == EMPTY:
                    region.add(q)
        for s in ch.stones:
            for q in nb[s]:
                c = chain[q]
                if c is not None and c.color != d and len(c.libs) <= 2:
                    region.update(c.libs)
                    region.update(c.stones)
    return region, eye


class LifeReader(Search[Budget]):
    """Reads the life and death of one group. Keep one reader per position to share its transposition table.

    ``limits``: a ``Budget`` (nodes, seconds, max_depth); the tactical ``Limits`` are one too."""

    def __init__(self, game: Game, group: int, region: set[int] | None = None, limits: Budget = Budget(),
                 ko_threats: int = KO_THREATS) -> None:
        if game.board[group] == EMPTY:
            raise ValueError("no stone at the group's point")
        super().__init__(limits)
        self.g = g = reading_copy(game)
        self.size = game.size
        self.nb = g.adjacent
        self.target = group
        self.defender = g.board[group]
        self.attacker = 3 - self.defender
        derived, eye = default_region(g, group)
        if region is None:
            region = derived
        else:
            region = set(region)
            eye = eye & region
        self.region = frozenset(region)
        self.eye = frozenset(eye)
        self._moves_list = sorted(self.region)
        self.ko_threats = ko_threats
        self.tt: dict[tuple, list] = {}
        self._alive_cache: dict[int, bool] = {}
        self._path: set[tuple] = set()
        self._retakes = 0
        self._history: dict[int, dict[int, int]] = {1: {}, 2: {}}  # cutoffs each move made, per colour
        self._root_alive = group in _life_alive(game, self.defender)

    # ------------------------------------------------------------------ public API
    def kill(self) -> tuple[int, int | None]:
        """(result, move) for the attacker moving first."""
        return self._root(self.attacker)

    def live(self) -> tuple[int, int | None]:
        """(result, move) for the defender moving first; move None = no move is needed (passing does as well
        as anything)."""
        return self._root(self.defender)

    def does_kill(self, move: int) -> int:
        """Result for the attacker of playing ``move`` first."""
        return self._after(move, self.attacker)

    def does_live(self, move: int) -> int:
        """Result for the defender of playing ``move`` first."""
        return self._after(move, self.defender)

    def winning_moves(self, side: str) -> list[tuple[int, int]]:
        """Every first move of the region that wins for ``side`` ("kill" or "live"), as (move, result),
        best results first. Passing is not listed (see ``live``)."""
        if side not in ("kill", "live"):
            raise ValueError("side is 'kill' or 'live'")
        color = self.attacker if side == "kill" else self.defender
        self._start()
        out = []
        for m in self.candidates(color):
            v = self._after(m, color, fresh=False)
            if v > LOSE:
                out.append((m, v))
        out.sort(key=lambda mv: (-mv[1], mv[0]))
        return out

    def candidates(self, color: int) -> list[int]:
        """The first moves ``color`` may play now: the region's empty points (and, for the attacker, the
        liberties of the defender's stones outside it); a ko retake banned this turn is included: it is
        played after a ko threat."""
        g = self.g
        points = self._moves_list
        if color == self.attacker:
            points = points + self._outside_liberties()
        out = []
        for p in points:
            if g.board[p] != EMPTY:
                continue
            if g.is_legal_point(p, color) or (p == g.ko and g.ko_color == color):
                out.append(p)
        return out

    # ------------------------------------------------------------------ driver
    def _set_turn(self, color: int) -> None:
        g = self.g
        if g.to_move != color:
            g.to_move = color
            if g.ko_color != color:
                g.ko = -1  # the ban was for the other side: the turn passed, so it is gone

    def _root(self, color: int) -> tuple[int, int | None]:
        g = self.g
        saved = (g.to_move, g.ko, g.ko_color)
        self._start()
        try:
            if self._root_alive:
                return (WIN, None) if color == self.defender else (LOSE, None)
            self._set_turn(color)
            t = cast(Chain, g.chain_of[self.target])
            if len(t.libs) >= 2 and self._pass_alive(t):
                return (WIN, None) if color == self.defender else (LOSE, None)
            ban = g.ko if (g.ko >= 0 and g.ko_color == color) else -1
            best_lo, best_hi, best_move = -1, -1, None
            moves = self._ordered(color, t, None, ban)
            if color == self.defender:  # no move needed is the best answer, when it is one
                moves.remove(_PASS)
                moves.insert(0, _PASS)
            for m in moves:
                got = self._value(m, color, max(best_lo, LOSE), 4, 0, ban)
                if got is None:
                    continue
                lo, hi = got
                if lo > best_lo:
                    best_lo, best_move = lo, m
                if hi > best_hi:
                    best_hi = hi
                if best_lo == WIN:
                    break
            if best_lo < 0:
                return LOSE, None
            if best_lo < best_hi:
                # some line was cut by the depth limit and might beat the best proven one: no certainty
                raise BudgetExceeded(self.nodes)
            if best_lo == LOSE or best_move == _PASS:
                best_move = None
            return best_lo, best_move
        finally:
            g.to_move, g.ko, g.ko_color = saved

    def _after(self, move: int, color: int, fresh: bool = True) -> int:
        g = self.g
        if g.board[move] != EMPTY:
            return LOSE
        saved = (g.to_move, g.ko, g.ko_color)
        if fresh:
            self._start()
        try:
            self._set_turn(color)
            ban = g.ko if (g.ko >= 0 and g.ko_color == color) else -1
            got = self._value(move, color, -1, 4, 0, ban)
            if got is None:
                return LOSE
            if got[0] != got[1]:
                raise BudgetExceeded(self.nodes)
            return got[0]
        finally:
            g.to_move, g.ko, g.ko_color = saved

    # ------------------------------------------------------------------ search
    def _value(self, m: int, side: int, alpha: int, beta: int, depth: int, ban: int) -> tuple[int, int] | None:
        """Bounds (lo, hi) on the value for ``side`` of playing ``m`` (or passing) now; None when the move
        may not be played."""
        g = self.g
        retakes = self._retakes
        threat = False
        if m == _PASS:
            g.pass_move(side)
        elif m == ban:
            if retakes >= self.ko_threats or alpha >= KO_B:
                return None
            threat = True
            g.play_point(m, side, allow_repeat=True)
        else:
            try:
                g.play_point(m, side)
            except IllegalMove:
                return None
        other = 3 - side
        try:
            if threat:
                self._retakes = retakes + 1
            if (g.hash, other, self._retakes) in self._path:
                return None
            if threat:
                b = beta if beta < KO_B else KO_B
                lo, hi = self._search(other, 3 - b, 3 - alpha, depth + 1)
                return min(3 - hi, KO_B), min(3 - lo, KO_B)
            lo, hi = self._search(other, 3 - beta, 3 - alpha, depth + 1)
            return 3 - hi, 3 - lo
        finally:
            self._retakes = retakes
            g.undo()

    def _search(self, side: int, alpha: int, beta: int, depth: int) -> tuple[int, int]:
        """Bounds (lo, hi) on the value for ``side`` (to move) of the current position: alpha-beta in the
        window [alpha, beta]. A result below alpha is only an upper bound, one above beta only a lower bound;
        a line cut by the depth limit leaves both open, so a proof never rests on it."""
        g = self.g
        t = g.chain_of[self.target]
        attacker = self.attacker
        if t is None:
            return _WON if side == attacker else _LOST
        if len(t.libs) >= 2 and self._pass_alive(t):
            return _LOST if side == attacker else _WON
        if side == attacker and len(t.libs) == 1:
            (lib,) = t.libs
            if not (lib == g.ko and g.ko_color == side) and g.is_legal_point(lib, side):
                return _WON
        self._tick()
        if depth >= self.limits.max_depth:
            return _OPEN  # unknown: the line is too long to read
        ban = g.ko if (g.ko >= 0 and g.ko_color == side) else -1
        key = (g.hash, side, ban, self._retakes)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            lo, hi, tt_move = entry
            if lo >= beta or hi <= alpha or lo == hi:
                return lo, hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        pkey = (g.hash, side, self._retakes)
        self._path.add(pkey)
        best_lo, best_hi, best_move = -1, -1, None
        try:
            for m in self._ordered(side, t, tt_move, ban):
                got = self._value(m, side, alpha if alpha > best_lo else best_lo, beta, depth, ban)
                if got is None:
                    continue
                lo, hi = got
                if lo > best_lo:
                    best_lo, best_move = lo, m
                if hi > best_hi:
                    best_hi = hi
                if best_lo >= beta or best_lo == WIN:
                    best_hi = WIN  # the moves not tried might be better still
                    if m != _PASS:
                        h = self._history[side]
                        h[m] = h.get(m, 0) + 1
                    break
        finally:
            self._path.discard(pkey)
        if best_lo < 0:
            best_lo = best_hi = LOSE  # the attacker has no move: it may only pass, and passing ends the game
        lo, hi = best_lo, best_hi
        if entry is not None and entry[0] <= hi and lo <= entry[1]:
            lo, hi = max(lo, entry[0]), min(hi, entry[1])
        self.tt[key] = [lo, hi, best_move]
        return lo, hi

    # ------------------------------------------------------------------ move generation
    def _ordered(self, side: int, t, tt_move: int | None, ban: int) -> list[int]:
        """The moves worth trying for ``side``, best guesses first (suicides and own-eye fills left out)."""
        g = self.g
        board, chain, nb = g.board, g.chain_of, self.nb
        region, eye = self.region, self.eye
        defender = side == self.defender
        history = self._history[side]
        tlibs = t.libs
        scored = []
        points = self._moves_list
        if not defender:
            # the attacker may fill the liberties of the defender's stones wherever they are: the defender
            # lives inside the region or not at all (it cannot run away through a liberty the fence misses)
            outside = self._outside_liberties()
            if outside:
                points = points + outside
        for p in points:
            if board[p] != EMPTY:
                continue
            empties = 0
            room = 0
            own = None
            own_many = False
            split = False
            foe = False
            capture = 0
            atari = 0
            for q in nb[p]:
                c = chain[q]
                if c is None:
                    room += 1
                    if q in region:
                        empties += 1
                elif c.color == side:
                    if own is None:
                        own = c
                    elif c is not own:
                        split = True
                    if len(c.libs) > 1:
                        own_many = True
                else:
                    foe = True
                    n = len(c.libs)
                    if n == 1:
                        capture += len(c.stones)
                    elif n == 2:
                        atari += 1
            if not room and not capture:
                if not own_many:
                    continue  # suicide
                if not split and not foe:
                    continue  # filling a one-point eye of one's own chain: never better than passing
            score = empties * 10 + history.get(p, 0)
            if p in eye:
                score += 15
            if p in tlibs:
                score += 5
            if capture:
                score += 100 + capture * 5
            if atari:
                score += 20 * atari
            if not capture and room <= 1 and self._self_atari(p, side):
                score -= 60
            if p == tt_move:
                score += 100000
            scored.append((-score, p))
        scored.sort()
        moves = [p for _, p in scored]
        if defender:
            # the defender may always pass; the attacker may not (its pass ends the game, the group standing)
            if tt_move == _PASS:
                moves.insert(0, _PASS)
            else:
                k = 0
                while k < len(moves) and -scored[k][0] >= 20:
                    k += 1
                moves.insert(k, _PASS)
        return moves

    def _outside_liberties(self) -> list[int]:
        """Liberties outside the region of the target and of the defender's chains with stones in the region."""
        g = self.g
        board, chain = g.board, g.chain_of
        d = self.defender
        region = self.region
        t = cast(Chain, chain[self.target])
        seen = {id(t)}
        out = {q for q in t.libs if q not in region}
        for p in self._moves_list:
            if board[p] == d:
                c = cast(Chain, chain[p])
                if id(c) not in seen:
                    seen.add(id(c))
                    for q in c.libs:
                        if q not in region:
                            out.add(q)
        return sorted(out)

    def _self_atari(self, p: int, side: int) -> bool:
        """Would a stone of ``side`` on ``p`` (capturing nothing) be left with one liberty?"""
        return len(self.g.liberties_after(p, side)) <= 1

    # ------------------------------------------------------------------ unconditional life, locally
    def _pass_alive(self, t) -> bool:
        """Is the target chain pass-alive (Benson)? Exact when it says yes; may say no for big groups."""
        g = self.g
        h = g.hash
        hit = self._alive_cache.get(h)
        if hit is not None:
            return hit
        result = self._benson(t)
        self._alive_cache[h] = result
        return result

    def _benson(self, t) -> bool:
        """Benson's algorithm on the chains reachable from the target through small enclosed regions.

        A region is a connected set of points without the defender's stones; it counts when it is closed
        within BENSON_REGION_MAX points. It is vital to a chain when each of its empty points is a liberty of
        the chain. Chains with fewer than two vital regions are struck off, then the regions they border, until
        nothing changes: the chains left are pass-alive. Leaving chains or regions out only strikes off more,
        so the answer "alive" is always right."""
        g = self.g
        board, chain, nb = g.board, g.chain_of, self.nb
        d = t.color
        region_of: dict[int, int] = {}  # point -> the flood that reached it
        regions: list[tuple[list[int], list]] = []  # (empty points, bordering chains) of the small regions

        def flood(q: int) -> bool:
            """Flood the region of q; record it when small. A point another flood reached belongs to a region
            already found too big (a small region is always flooded whole)."""
            mark = len(region_of) + 1
            area = [q]
            region_of[q] = mark
            found = []
            i = 0
            while i < len(area):
                a = area[i]
                i += 1
                for r in nb[a]:
                    if board[r] == d:
                        c = chain[r]
                        if c not in found:
                            found.append(c)
                    else:
                        seen = region_of.get(r)
                        if seen is None:
                            region_of[r] = mark
                            area.append(r)
                        elif seen != mark:
                            return False
                if len(area) > BENSON_REGION_MAX:
                    return False
            regions.append(([a for a in area if board[a] == EMPTY], found))
            return True

        # every vital region of the target holds one of its liberties: look there first
        for lib in t.libs:
            if lib not in region_of:
                flood(lib)
        if sum(1 for _, found in regions if t in found) < 2:
            return False
        chains = [t]
        index = {id(t): 0}
        k = 0
        while True:
            # grow the chain set through the small regions found so far, then flood the new chains' neighbours
            for _, found in regions:
                for c in found:
                    if id(c) not in index and len(chains) < BENSON_CHAINS_MAX:
                        index[id(c)] = len(chains)
                        chains.append(c)
            if k == len(chains):
                break
            while k < len(chains):
                ch = chains[k]
                k += 1
                for s in ch.stones:
                    for q in nb[s]:
                        if board[q] != d and q not in region_of:
                            flood(q)
        n = len(chains)
        usable = []  # (empties, bordering chain indices) of regions bordered only by chains in the set
        for empties, found in regions:
            if all(id(c) in index for c in found):
                usable.append((empties, [index[id(c)] for c in found]))
        vital: list[list[int]] = [[] for _ in range(n)]
        for ri, (empties, borders) in enumerate(usable):
            for ci in borders:
                libs = chains[ci].libs
                if all(e in libs for e in empties):
                    vital[ci].append(ri)
        alive = [True] * n
        healthy = [True] * len(usable)
        changed = True
        while changed:
            changed = False
            for ci in range(n):
                if alive[ci] and sum(1 for ri in vital[ci] if healthy[ri]) < 2:
                    alive[ci] = False
                    changed = True
            if changed:
                for ri, (_, borders) in enumerate(usable):
                    if healthy[ri] and any(not alive[ci] for ci in borders):
                        healthy[ri] = False
            if not alive[0]:
                return False
        return alive[0]


# ---------------------------------------------------------------------- conveniences
def solve(game: Game, point: str, goal: str, limits: Budget = Budget()) -> tuple[str, str | None]:
    """For callers outside the engine: ("win"|"ko"|"lose"|"unknown", move name or None) for the goal
    ``kill`` (the other colour moves first) or ``live`` (the group's owner moves first)."""
    p = game.require_point(point)
    reader = LifeReader(game, p, limits=limits)
    return named(reader.kill if goal == "kill" else reader.live, NAMES, game.name)


def owl(game: Game, point: int, what: str, limits: Budget | None = None) -> tuple[int, int | None]:
    """GNU Go's owl_attack / owl_defend on the group at ``point``: (GTP code 0-3, move or None).

    A budget that runs out answers 0 (GNU Go's "no attack/defence found")."""
    if limits is None:
        limits = OWL_LIMITS
    try:
        reader = LifeReader(game, point, limits=limits)
        result, move = reader.kill() if what == "attack" else reader.live()
    except BudgetExceeded:
        return 0, None
    return GTP_CODE[result], move


def dragon_status(game: Game, point: int, limits: Budget | None = None) -> tuple[str, int | None, int | None]:
    """GNU Go's ``dragon_status`` of the group at ``point``: ("alive"|"critical"|"dead"|"unknown", attack
    point, defence point). Alive: no kill with the attacker moving first; dead: no life with the owner moving
    first; critical: whoever moves first wins (both points given; a ko counts as a win, as in GNU Go).
    A search over budget answers "unknown": never a guess."""
    if limits is None:
        limits = OWL_LIMITS
    try:
        reader = LifeReader(game, point, limits=limits)
        killed, attack = reader.kill()
        if killed == LOSE:
            return "alive", None, None
        lived, defence = reader.live()
    except BudgetExceeded:
        return "unknown", None, None
    if lived == LOSE:
        return "dead", None, None
    if defence is None:  # passing lives: the kill found above needs a ko the attacker cannot win at once
        return "alive", None, None
    return "critical", attack, defence
