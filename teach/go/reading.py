"""Tactical reading: can this chain be captured, can it be saved — against the best defence.

A goal-directed alpha-beta search over the moves that matter to one chain (its liberties, the liberties of
those, captures of the chains around it, rescues of the attacker's own stones in atari), with a
transposition table on the Zobrist hash, explicit ko results and node/time budgets. When a budget runs out the
answer is ``unknown`` rather than a guess. Two moves outside the generated lists are read too: the defender's
"nothing" (a chain whose liberties the attacker cannot approach needs no answer; moving would fill an eye), and
the defender's recapture after a capture that leaves the capturing stones in atari (a snapback).

The move lists narrow with depth, so a capture found at the root is checked once more: the position after its
first move is read as a root of its own, and a defence found there that leaves the attacker nothing withdraws
the move (see ``Reader._verified``).

Results use GNU Go's scale so the regression suite runs unchanged: WIN (works unconditionally), KO_A (works if
the side to move takes the ko first), KO_B (works only by winning a ko the other side takes first), LOSE.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import cast
from dataclasses import dataclass, replace
from itertools import islice

from .game import EMPTY, Chain, Game, IllegalMove, Rules
from .search import Budget, BudgetExceeded, Search, named

LOSE, KO_B, KO_A, WIN = 0, 1, 2, 3
INVERT = (WIN, KO_A, KO_B, LOSE)  # the same line seen from the other side
GTP_CODE = {WIN: 1, KO_A: 2, KO_B: 3, LOSE: 0}
NAMES = {WIN: "win", KO_A: "ko", KO_B: "ko", LOSE: "lose"}


@dataclass(frozen=True)
class Limits(Budget):
    """The tactical reader's budget (nodes, seconds, max_depth: see ``search.Budget``) and how wide it reads at
    each depth. The clock is only a safety net far above what the node budget takes (a few seconds here); a
    server that must answer within a set time passes its own ``seconds``, accepting an ``unknown`` on a busy
    machine."""

    branch_depth: int = 13  # deeper than this only forcing lines (ataris, escapes, captures) are read
    fourlib_depth: int = 7  # a chain with four liberties is attacked only this close to the root
    threelib_depth: int = 12  # and one with three liberties only this close (deeper, open-board fights explode)
    enclosed3_depth: int = 13  # but one shut in (see enclosed_room) a ply deeper
    enclosed_room: int = 2  # shut in: at most this many empty points next to its liberties, beyond them
    backfill_depth: int = 8  # deeper than this the liberties' neighbours are read only against two liberties
    ko_depth: int = 10  # deeper than this nobody takes a ko (cuts the take-threaten-retake cycles)
    ko_threat_depth: int = 4  # deeper than this nobody retakes a ko after a threat
    weak_attacker_depth: int = 4  # this close to the root the attacker also strengthens its two-liberty chains
    wide_defence_depth: int = 2  # a three-liberty chain reads its liberties' neighbours only this close
    wide4_defence_depth: int = 0  # and a four-liberty chain only this close
    breakchain3_depth: int = 8  # deeper than this the defender no longer attacks three-liberty attackers
    loose_attacker_depth: int = 8  # this close the defender also attacks three-liberty stones next to its liberties
    weak_friend_depth: int = 2  # this close the defender also strengthens its weak chains next to its liberties
    race_root_depth: int = 0  # this close a short chain also shortens any attacker of up to five liberties
    approach_depth: int = 0  # this close the attacker also shortens the defender's stones that guard a liberty
    counter_atari_depth: int = 2  # this close the attacker also ataris a defender chain that presses its weak stones
    race_friend_depth: int = 2  # this close the defender also takes stones in atari next to its other chains
    weak_friend3_depth: int = 0  # and this close also those with three liberties
    guard_depth: int = 2  # this close the defender also attacks the stones that guard a short attacker's liberties
    superstring_depth: int = 4  # this close a short chain counts the chains around its liberty-sharing friends
    verify: int = 4  # how many first moves a root read may find refuted (by a root-width read after them) and replace
    verify_libs: int = 2  # a defence is checked so only when it leaves the chain this many liberties or fewer
    verify_shut3: bool = True  # or three, when the chain is shut in (see enclosed_room) ...
    verify_shut3_nodes: int = 20_000  # ... within this many nodes (a check cut short there lets the move stand)
    verify_weak_depth: int = 8  # in a check the attacker strengthens its short chains this deep (weak_attacker_depth)


def _first(move: int, moves: Iterator[int]) -> Iterator[int]:
    """``move`` first, then ``moves`` without it."""
    yield move
    for m in moves:
        if m != move:
            yield m


def _hinted(hit: tuple | None, moves: Iterator[int]) -> Iterator[int]:
    """The moves to try, the best move of a stored (farther, narrower) read of the same position first."""
    return moves if hit is None or hit[2] is None else _first(hit[2], moves)


def reading_copy(game: Game) -> Game:
    """A private copy of the position for searching: same stones, side to move and ko, plain ko only
    (superko is a whole-game matter; tactical lines are short and ko is handled by result codes)."""
    g = Game(game.size, komi=game.komi, rules=Rules(superko="none", suicide=False))
    black = [p for p, c in enumerate(game.board) if c == 1]
    white = [p for p, c in enumerate(game.board) if c == 2]
    if black or white:
        g.setup(black=black, white=white)
    g.to_move = game.to_move
    g.ko, g.ko_color = game.ko, game.ko_color
    g.clear_undo()
    g.keep_no_history()
    return g


class Reader(Search["Limits"]):
    """Reads one position. Keep one Reader per position to share its transposition table."""

    def __init__(self, game: Game, limits: Limits = Limits()) -> None:
        super().__init__(limits, clock_every=256)
        self.g = reading_copy(game)
        self.size = game.size
        self.nb = self.g.adjacent
        self.cache: dict[tuple, tuple[int, int, int | None]] = {}  # key -> (depth read at, result, move)
        self._threat_used = False  # someone already retook a ko after a threat in this line
        self._excluded: set[int] = set()  # first moves found refuted at the root

    # ------------------------------------------------------------------ public API
    def attack(self, point: int) -> tuple[int, int | None]:
        """(result, move) for the side that wants to capture the chain at ``point``, moving first."""
        return self._run(self._attack, point)

    def defend(self, point: int) -> tuple[int, int | None]:
        """(result, move) for the owner of the chain at ``point``, moving first."""
        return self._run(self._defend, point)

    def does_attack(self, move: int, point: int) -> int:
        """Result for the attacker of playing ``move`` first (then the defender answers)."""
        return self._after(move, point, attacker=True)

    def does_defend(self, move: int, point: int) -> int:
        return self._after(move, point, attacker=False)

    def _after(self, move: int, point: int, attacker: bool) -> int:
        g = self.g
        owner = g.board[point]
        if owner == EMPTY:
            raise ValueError("no stone at the target point")
        color = 3 - owner if attacker else owner
        self._start()
        try:
            g.play_point(move, color)
        except IllegalMove:
            return LOSE
        try:
            ko_taken = g.ko >= 0
            if g.chain_of[point] is None:
                v = WIN if attacker else LOSE
                if attacker and not ko_taken and (back := self._snapped_back(move)) is not None:
                    v = self._after_snapback(back, owner, 1)
            elif attacker:
                v = INVERT[self._defend(point, 1)[0]]
            else:
                v = INVERT[self._attack(point, 1)[0]]
        finally:
            g.undo()
        if v > LOSE and self.limits.verify and self._refuted(point, move, color, v, attacker):
            v = LOSE
        return min(v, KO_A) if ko_taken and v > KO_A else v

    def _run(self, fn, point: int) -> tuple[int, int | None]:
        if self.g.board[point] == EMPTY:
            raise ValueError("no stone at the target point")
        self._start()
        result, move = fn(point, 0)
        if self.limits.verify and result > LOSE and move is not None:
            result, move = self._verified(point, result, move, fn == self._attack)
        return result, move

    def _verified(self, t: int, result: int, move: int, attacker: bool) -> tuple[int, int | None]:
        """Check the chosen first move as the root of its own read: below the root the move lists are narrower,
        so the other side's answer can hide there. That answer counts only if the side, read at root width
        after it too, then finds nothing; the root is then read again without that move. (A defence is checked
        only when it leaves the chain ``Limits.verify_libs`` liberties or fewer, or three when it is shut in: in open
        space the attacker's own reads run over-optimistic, so a looser defence refuted this way may be refuted
        wrongly.) The checks share the whole budget: one cut short makes the answer unknown, never the unchecked
        move (but see ``_refuted`` for a shut-in chain's three-liberty defence)."""
        g = self.g
        owner = g.board[t]
        color = 3 - owner if attacker else owner
        read = self._attack if attacker else self._defend
        excluded: set[int] = set()
        for _ in range(self.limits.verify):
            if not self._refuted(t, move, color, result, attacker):
                break
            excluded.add(move)
            self.cache.pop(self._key("A" if attacker else "D", t, color), None)
            self._excluded = excluded
            try:
                result, again = read(t, 0)
            finally:
                self._excluded = set()
            if result == LOSE or again is None:
                return result, again
            move = again
        return result, move

    def _refuted(self, t: int, move: int, color: int, claimed: int, attacker: bool) -> bool:
        """Is ``move`` (claimed worth ``claimed`` to ``color``) refuted by an answer found at root width, with
        ``color``, read at root width again, left with nothing after it?

        A check reads with the attacker also strengthening its short chains deeper than elsewhere
        (``Limits.verify_weak_depth``): a shut-in chain lives only by winning the race against the chains around
        it, and the attacker's answer to its escape attempts is often to lengthen those chains several moves
        down. A three-liberty defence of a shut-in chain is checked too, but only within its own share of nodes:
        such a check may read long, and a move that was never checked before stands when it runs out. The checks
        share the transposition table: what they store was read at least as widely as the search would."""
        g, lim = self.g, self.limits
        try:
            g.play_point(move, color)
        except IllegalMove:
            return False
        try:
            ch = g.chain_of[t]
            if g.ko >= 0 or ch is None:
                return False  # captures and ko fights are read through at every depth already
            shut3 = False
            if not attacker and len(ch.libs) > lim.verify_libs:
                shut3 = lim.verify_shut3 and len(ch.libs) == 3 and self._enclosed(ch)
                if not shut3:
                    return False
            nodes = min(lim.nodes, self.nodes + lim.verify_shut3_nodes) if shut3 else lim.nodes
            self.limits = replace(lim, nodes=nodes,
                                  weak_attacker_depth=max(lim.weak_attacker_depth, lim.verify_weak_depth))
            try:
                return self._refutes(t, color, claimed, attacker)
            except BudgetExceeded:
                if shut3 and self.nodes <= lim.nodes and self._in_time():
                    return False  # only this check's own share ran out
                raise
            finally:
                self.limits = lim
        finally:
            g.undo()

    def _refutes(self, t: int, color: int, claimed: int, attacker: bool) -> bool:
        """After ``color``'s move (on the board): does the other side's root-width answer leave ``color``,
        read at root width again, with nothing?"""
        g = self.g
        answer, reply = (self._defend if attacker else self._attack)(t, 0)
        if INVERT[answer] >= claimed or reply is None:
            return False
        g.play_point(reply, 3 - color)
        try:
            if g.chain_of[t] is None:
                return not attacker
            return (self._attack if attacker else self._defend)(t, 0)[0] == LOSE
        finally:
            g.undo()

    # ------------------------------------------------------------------ search
    def _key(self, kind: str, t: int, side: int) -> tuple:
        """The position (hash, the ko the side to move may not retake) and the target; any stone of the
        chain names it, and within one search the target point is the same one.

        A stored result is reused from the same depth or deeper: the limits only tighten with depth, so a result
        read nearer the root is at least as thorough. One read farther from the root is not reused, but its best
        move is tried first (the verification's root-width re-reads meet these all the time)."""
        g = self.g
        ko = g.ko if g.ko_color == side else -1
        return (kind, g.hash, ko, side, t, self._threat_used)

    def _attack(self, t: int, depth: int) -> tuple[int, int | None]:
        g = self.g
        ch = g.chain_of[t]
        if ch is None:
            return WIN, None
        self._tick()
        attacker = 3 - ch.color
        libs = ch.libs
        n = len(libs)
        lim = self.limits
        if n == 1:
            (lib,) = libs
            if not (lib == g.ko and attacker == g.ko_color) and not self._takes_ko(ch, lib):
                if any(g.board[q] == EMPTY for q in self.nb[lib]):
                    return WIN, lib  # the capturing stone has a liberty of its own: nothing can take it back
                g.play_point(lib, attacker)
                back = self._snapped_back(lib)
                g.undo()
                if back is None:
                    return WIN, lib
        if n >= 5 or (n == 4 and depth > lim.fourlib_depth) or (n == 3 and depth > lim.threelib_depth and (
                depth > lim.enclosed3_depth or not self._enclosed(ch))):
            return LOSE, None
        if depth >= lim.max_depth:
            return LOSE, None
        key = self._key("A", t, attacker)
        hit = self.cache.get(key)
        if hit is not None and hit[0] <= depth:
            return hit[1], hit[2]
        moves = _hinted(hit, self._attack_moves(ch, attacker, depth))
        best, best_move = self._best(t, moves, attacker, depth, self._defend)
        if best == LOSE and n == 1 and g.ko in libs and attacker == g.ko_color:
            # the capture is forbidden by ko right now: it works if the attacker wins the ko
            best, best_move = KO_B, g.ko
        self.cache[key] = (depth, best, best_move)
        return best, best_move

    def _defend(self, t: int, depth: int) -> tuple[int, int | None]:
        g = self.g
        ch = g.chain_of[t]
        if ch is None:
            return LOSE, None
        self._tick()
        defender = ch.color
        n = len(ch.libs)
        lim = self.limits
        if n >= 5 or (n == 4 and depth > lim.fourlib_depth + 1) or (n == 3 and depth > lim.threelib_depth + 1 and (
                depth > lim.enclosed3_depth + 1 or not self._enclosed(ch))):
            return WIN, None
        if depth >= lim.max_depth:
            return WIN, None
        key = self._key("D", t, defender)
        hit = self.cache.get(key)
        if hit is not None and hit[0] <= depth:
            return hit[1], hit[2]
        moves = _hinted(hit, self._defend_moves(ch, defender, depth))
        best, best_move = self._best(t, moves, defender, depth, self._attack)
        if best < WIN and self._no_approach(ch) and self._attack(t, depth)[0] == LOSE:
            # every move tried spoils something (fills an own eye, gives a liberty away in a seki) and the
            # attacker cannot approach: doing nothing is a move too, and the chain lives if the attacker, moving
            # now, cannot take it
            best, best_move = WIN, None
        self.cache[key] = (depth, best, best_move)
        return best, best_move

    def _best(self, t: int, moves: Iterable[int], color: int, depth: int, answer) -> tuple[int, int | None]:
        """Try each move for ``color`` and let the other side ``answer``; the best result and its move.
        A line that starts by taking a ko is worth at most KO_A unless the other side's retake (after a threat)
        was read and fails; deep in the tree nobody takes a ko."""
        g, lim = self.g, self.limits
        best, best_move, best_by_ko = LOSE, None, False
        for m in moves:
            if depth == 0 and m in self._excluded:
                continue
            threat = False
            try:
                g.play_point(m, color)
            except IllegalMove as e:
                # a ko we may not retake yet: it still works if we win the ko, finding a threat first (once per
                # line, so the two sides do not trade threats forever)
                if e.reason != "ko" or self._threat_used or depth > lim.ko_threat_depth:
                    continue
                g.play_point(m, color, allow_repeat=True)
                threat = self._threat_used = True
            ko_taken = g.ko >= 0
            threats_spent = self._threat_used
            captured = g.chain_of[t] is None
            if ko_taken and depth > lim.ko_depth and not captured:
                g.undo()
                continue
            try:
                if not captured:
                    v = INVERT[answer(t, depth + 1)[0]]
                elif ko_taken and g.ko == t and not threats_spent and depth + 1 <= lim.ko_threat_depth:
                    v = self._after_retake(t, 3 - color, depth + 1)
                elif not ko_taken and (back := self._snapped_back(m)) is not None:
                    v = self._after_snapback(back, 3 - color, depth + 1)
                else:
                    v = WIN
            finally:
                g.undo()
                if threat:
                    self._threat_used = False
            if threat and v > KO_B:
                v = KO_B
            elif ko_taken and v > KO_A and (threats_spent or depth + 1 > lim.ko_threat_depth):
                # a ko taken is won outright only when the other side's retake after a threat was read and
                # failed; where it was not read, assume the retake works
                v = KO_A
            if v > best or (v == WIN and best_by_ko and not ko_taken):
                best, best_move, best_by_ko = v, m, ko_taken
                # at the root a win that starts by taking a ko is kept only if no plain win is found
                if v == WIN and (depth > 0 or not ko_taken):
                    break
        return best, best_move

    def _snapped_back(self, move: int) -> int | None:
        """The move just played captured the target; is the capturing chain left in atari, so that the defender
        takes it straight back (a snapback, 倒扑; a plain ko is handled as a ko)? The point of that recapture."""
        g = self.g
        capturer = cast(Chain, g.chain_of[move])
        if len(capturer.libs) != 1:
            return None
        (back,) = capturer.libs
        return back if g.is_legal_point(back, 3 - capturer.color) else None

    def _after_snapback(self, back: int, defender: int, depth: int) -> int:
        """The defender takes the capturing stones back at ``back``; the capture stands only if the attacker can
        capture the defender's new chain in turn."""
        g = self.g
        g.play_point(back, defender)
        try:
            return self._attack(back, depth + 1)[0]
        finally:
            g.undo()

    def _takes_ko(self, ch, lib: int) -> bool:
        """Would taking ``ch`` (in atari) at ``lib`` be a ko capture: one stone taken, nothing else, by a stone
        left alone with that one liberty? (The same test as the engine's, without playing the move.)"""
        if len(ch.stones) != 1:
            return False
        chain = self.g.chain_of
        for q in self.nb[lib]:
            c = chain[q]
            if c is None or c.color != ch.color or (c is not ch and len(c.libs) == 1):
                return False
        return True

    def _no_approach(self, ch) -> bool:
        """The attacker can fill none of the chain's liberties without being taken at once: each one is a
        suicide for it or leaves the stone played in atari (eyes, or a seki's shared liberties)."""
        g = self.g
        attacker = 3 - ch.color
        for lib in list(ch.libs):
            if len(g.liberties_after(lib, attacker)) > 1:
                return False  # a stone there keeps two liberties even before it captures anything
            try:
                g.play_point(lib, attacker)
            except IllegalMove:
                continue
            try:
                if len(g.chain_of[lib].libs) > 1:
                    return False
            finally:
                g.undo()
        return True

    def _after_retake(self, t: int, defender: int, depth: int) -> int:
        """The target (one stone) was just captured by taking a ko: the defender retakes after a threat and the
        attacker reads on. The capture is worth WIN only if the attacker still captures after the retake."""
        g = self.g
        try:
            g.play_point(t, defender, allow_repeat=True)
        except IllegalMove:
            return WIN
        self._threat_used = True
        try:
            again = self._attack(t, depth + 1)[0]
        finally:
            g.undo()
            self._threat_used = False
        return WIN if again == WIN else KO_A

    # ------------------------------------------------------------------ move generation
    def _attack_moves(self, ch, attacker: int, depth: int) -> Iterator[int]:
        """Liberties first (the one that leaves the defender least room after it extends at another),
        then the liberties' own empty neighbours (nets, closing moves), then rescues of attacker stones in
        atari next to the target (or the defender escapes by capturing them). Generated in stages as the search
        asks for more, so a cut after an early move skips the later stages (the board is the same at each stage:
        the search takes back every move before asking for the next). The "add if not yet seen" loops here and
        in _defend_moves stay written out: a shared helper measured 6-8% slower per node on the long problems."""
        g, nb, board = self.g, self.nb, self.g.board
        libs = ch.libs
        forcing = depth > self.limits.branch_depth
        # a liberty's room: the empty points beyond the other liberties (the defender's room after we fill this
        # one and it extends at another), least first; ties go to the liberty with more empty neighbours of its own
        scored = []
        total = 0
        for lib in libs:
            beyond = own = 0
            for q in nb[lib]:
                if board[q] == EMPTY:
                    own += 1
                    if q not in libs:
                        beyond += 1
            total += beyond
            scored.append((-beyond, -own, lib))
        scored = sorted([(total + b, o, lib) for b, o, lib in scored])
        moves = [m for _, _, m in scored]
        yield from moves
        done = len(moves)
        if forcing and len(libs) > 2:
            return
        seen = set(moves)
        # attacker chains next to the target (or, with two liberties left, next to its liberties) that are in
        # atari: save them first, by extending or by taking a defender chain in atari next to them
        weak = self._neighbour_chains(ch)
        if len(libs) <= 2 and depth <= self.limits.backfill_depth:
            weak += [a for a in self._chains_at(libs, attacker) if len(a.libs) == 1 and a not in weak]
        for a in weak:
            if len(a.libs) == 1:
                for lib in a.libs:
                    if lib not in seen:
                        seen.add(lib)
                        moves.append(lib)
                for d in self._neighbour_chains(a):
                    if len(d.libs) == 1:
                        for lib in d.libs:
                            if lib not in seen:
                                seen.add(lib)
                                moves.append(lib)
        if len(libs) <= 3 and depth <= self.limits.approach_depth:
            # the defender's other chains next to the liberties (up to three liberties of their own) make those
            # liberties suicide for us, or a capture, or they share them and fight alongside: shorten them first
            for d in self._chains_at(libs, ch.color):
                if d is not ch and len(d.libs) <= 3:
                    for dlib in d.libs:
                        if dlib not in seen:
                            seen.add(dlib)
                            moves.append(dlib)
                        if len(g.liberties_after(dlib, attacker)) <= 1:
                            # a self-atari for us there: approach it from its empty neighbours first
                            for q2 in nb[dlib]:
                                if board[q2] == EMPTY and q2 not in seen:
                                    seen.add(q2)
                                    moves.append(q2)
        yield from moves[done:]
        done = len(moves)
        if not forcing and (len(libs) == 2 or (len(libs) == 3 and depth <= self.limits.backfill_depth)):
            second = []
            for lib in libs:
                for q in nb[lib]:
                    if board[q] == EMPTY and q not in seen:
                        seen.add(q)
                        second.append(q)
            moves += second
        if len(libs) == 1 and not forcing:
            # the capture on the last liberty is a ko (or forbidden): take away what connecting there would
            # give, so that the defender's connection at the ko leaves it short of liberties anyway
            (lib,) = libs
            chain = g.chain_of
            for q in nb[lib]:
                d = chain[q]
                if d is None:
                    if q not in seen:
                        seen.add(q)
                        moves.append(q)
                elif d.color == ch.color and d is not ch and len(d.libs) <= 3:
                    for dlib in d.libs:
                        if dlib not in seen:
                            seen.add(dlib)
                            moves.append(dlib)
        yield from moves[done:]
        done = len(moves)
        lim = self.limits
        if depth <= lim.weak_attacker_depth:
            # our own stones next to the target with two liberties are what the defender will attack to escape:
            # strengthen them first (extend, or take a defender chain in atari next to them)
            ours = self._neighbour_chains(ch)
            # and our stones next to the target's liberties (at the root even those with three)
            cap = 3 if depth == 0 else 2
            ours += [a for a in self._chains_at(libs, attacker) if len(a.libs) <= cap and a not in ours]
            races = []
            for a in ours:
                if len(a.libs) not in (2, 3) or (len(a.libs) == 3 and depth > 0):
                    continue
                for lib in a.libs:
                    if lib not in seen:
                        seen.add(lib)
                        moves.append(lib)
                for d in self._neighbour_chains(a):
                    # take a defender chain in atari next to them, or (closer to the root) atari one that has
                    # them short of liberties
                    if d is not ch and (len(d.libs) == 1 or (len(d.libs) == 2 and depth <= lim.counter_atari_depth)):
                        for lib in d.libs:
                            if lib not in seen:
                                seen.add(lib)
                                moves.append(lib)
                    elif d is not ch and len(d.libs) == 3 and len(a.libs) == 2 and depth == 0:
                        races.append(d)
            # at the root, last: a two-liberty chain of ours in a race with a three-liberty defender chain
            # next to it may win the race by shortening that chain first
            for d in races:
                for lib in d.libs:
                    if lib not in seen:
                        seen.add(lib)
                        moves.append(lib)
        yield from moves[done:]

    def _defend_moves(self, ch, defender: int, depth: int) -> Iterator[int]:
        """Captures of the chains around the target first (they gain liberties and break the net), then
        extensions on the liberties (most room first), then ataris on short-of-liberty attackers and, near the
        root, the liberties' empty neighbours (hanging connections, jumps). Generated in stages, like the
        attacker's moves."""
        g, nb, board = self.g, self.nb, self.g.board
        libs = ch.libs
        n = len(libs)
        moves: list[int] = []
        seen: set[int] = set()
        around = self._neighbour_chains(ch)
        if n <= 2 and depth <= self.limits.superstring_depth:
            # friends that share our liberties fight alongside us: the chains around them are around us too
            for f in self._chains_at(libs, defender):
                if f is not ch:
                    around += [a for a in self._neighbour_chains(f) if a not in around]
        for a in around:
            if len(a.libs) == 1:
                for lib in a.libs:
                    if lib not in seen:
                        seen.add(lib)
                        moves.append(lib)
        scored = []
        for lib in libs:
            if lib in seen:
                continue
            room = 0
            for q in nb[lib]:
                if board[q] == EMPTY and q not in libs:
                    room += 1
            scored.append((-room, lib))
        scored.sort()
        for _, lib in scored:
            seen.add(lib)
            moves.append(lib)
        yield from moves
        done = len(moves)
        lim = self.limits
        forcing = depth > lim.branch_depth
        ko = g.ko
        if ko >= 0 and g.ko_color == defender and ko not in seen and any(ko in a.libs for a in around):
            # the attacker just took a ko on a liberty of a chain around us: retaking it (after a threat) also
            # shortens that chain
            seen.add(ko)
            moves.append(ko)
        if n <= 3:
            for a in around:
                if len(a.libs) != 2:
                    continue
                if not forcing or n == 1:
                    for lib in a.libs:
                        if lib not in seen:
                            seen.add(lib)
                            moves.append(lib)
                elif n == 2:
                    # deep in the tree only the ataris that leave the attacker little room to run
                    for lib in a.libs:
                        if lib in seen:
                            continue
                        (other,) = a.libs - {lib}
                        room = sum(1 for q in nb[other] if board[q] == EMPTY and q != lib)
                        if lib in libs or room <= 1:
                            seen.add(lib)
                            moves.append(lib)
        yield from moves[done:]
        done = len(moves)
        if n <= 3 and depth <= lim.guard_depth:
            # a short attacker next to us is kept alive by its own stones next to its liberties (where our stone
            # would be taken at once): shorten those guards, so that the attacker's liberties open up
            chain = g.chain_of
            for a in around:
                if len(a.libs) != 2:
                    continue
                for alib in a.libs:
                    for q in nb[alib]:
                        b = chain[q]
                        if b is not None and b is not a and b.color == a.color and len(b.libs) <= 2:
                            for blib in b.libs:
                                if blib not in seen:
                                    seen.add(blib)
                                    moves.append(blib)
        yield from moves[done:]
        done = len(moves)
        if n <= 3 and depth <= lim.race_friend_depth:
            # a short attacker next to us is in a race with our other chains too: take the stones in atari that
            # weaken those chains (or save them), which may leave the attacker short of liberties
            for a in around:
                if len(a.libs) > 3:
                    continue
                for f in self._neighbour_chains(a):
                    if f is ch:
                        continue
                    if len(f.libs) == 1:
                        for flib in f.libs:
                            if flib not in seen:
                                seen.add(flib)
                                moves.append(flib)
                    for e in self._neighbour_chains(f):
                        if len(e.libs) == 1 and e is not a:
                            for elib in e.libs:
                                if elib not in seen:
                                    seen.add(elib)
                                    moves.append(elib)
        yield from moves[done:]
        done = len(moves)
        if n <= 2 or (n == 3 and depth <= lim.wide_defence_depth):
            # attacker stones next to our liberties that are short of liberties themselves: atari or take them
            for a in self._chains_at(libs, 3 - defender):
                if a not in around and (len(a.libs) <= 2 or (len(a.libs) == 3 and depth <= lim.loose_attacker_depth)):
                    for alib in a.libs:
                        if alib not in seen:
                            seen.add(alib)
                            moves.append(alib)
        if n <= 2:
            # our other chains in atari that keep a short-of-liberties attacker short: save them
            shallow = depth <= self.limits.backfill_depth
            for a in around:
                if len(a.libs) <= 2 or (shallow and len(a.libs) == 3):
                    for o in self._neighbour_chains(a):
                        if o is not ch and (len(o.libs) == 1 or (shallow and len(o.libs) == 2)):
                            for olib in o.libs:
                                if olib not in seen:
                                    seen.add(olib)
                                    moves.append(olib)
        yield from moves[done:]
        done = len(moves)
        if n <= 3 and depth <= lim.weak_friend_depth:
            # our own weak chains next to our liberties: a liberty the attacker cannot fill while they stand is
            # worth strengthening them (extend them, or connect them out)
            for o in self._chains_at(libs, defender):
                if o is not ch and (len(o.libs) <= 2 or (len(o.libs) == 3 and depth <= lim.weak_friend3_depth)):
                    for olib in o.libs:
                        if olib not in seen:
                            seen.add(olib)
                            moves.append(olib)
        yield from moves[done:]
        done = len(moves)
        wide = (n == 3 and depth <= lim.wide_defence_depth) or (n == 4 and depth <= lim.wide4_defence_depth)
        if (n <= 2 and depth <= lim.backfill_depth) or wide:
            for lib in libs:
                for q in nb[lib]:
                    if board[q] == EMPTY and q not in seen:
                        seen.add(q)
                        moves.append(q)
        if (n <= 2 and depth <= lim.breakchain3_depth) or wide:
            # and attackers with three liberties around us (in a race near the root also one with a liberty
            # more than ours; at the root a short chain may even shorten one of five): take one of them
            for a in around:
                if (len(a.libs) == 3 or (wide and len(a.libs) <= n + (depth == 0))
                        or (depth <= lim.race_root_depth and len(a.libs) <= 5)):
                    for alib in a.libs:
                        if alib not in seen:
                            seen.add(alib)
                            moves.append(alib)
        yield from moves[done:]

    def _enclosed(self, ch) -> bool:
        """Is the chain shut in: few empty points next to its liberties, beyond them (``Limits.enclosed_room``)?"""
        nb, board, libs = self.nb, self.g.board, ch.libs
        room = set()
        for lib in libs:
            for q in nb[lib]:
                if board[q] == EMPTY and q not in libs:
                    room.add(q)
        return len(room) <= self.limits.enclosed_room

    def _chains_at(self, points, color: int) -> list:
        """The chains of ``color`` next to any of ``points``, each once, in the order first met."""
        chain, nb = self.g.chain_of, self.nb
        found = []
        for p in points:
            for q in nb[p]:
                c = chain[q]
                if c is not None and c.color == color and c not in found:
                    found.append(c)
        return found

    def _neighbour_chains(self, ch) -> list:
        return self._chains_at(ch.stones, 3 - ch.color)


def ladder_attack(game: Game, point: int, limits: Limits = Limits()) -> tuple[int, int | None]:
    """Can the chain at ``point`` be captured in a ladder (征子): the attacker only plays ataris, the defender
    only extends or captures? Returns (result, first move)."""
    reader = Reader(game, replace(limits, ko_depth=limits.max_depth))  # a ladder may take a ko at any depth
    g = reader.g
    reader._start()

    def chase(t: int, depth: int) -> tuple[int, int | None]:
        ch = g.chain_of[t]
        if ch is None:
            return WIN, None
        reader._tick()
        attacker = 3 - ch.color
        if len(ch.libs) == 1:
            (lib,) = ch.libs
            return (WIN, lib) if g.is_legal_point(lib, attacker) else (LOSE, None)
        if len(ch.libs) != 2 or depth >= limits.max_depth:
            return LOSE, None
        moves = list(islice(reader._attack_moves(ch, attacker, limits.branch_depth + 1), 2))
        return reader._best(t, moves, attacker, depth, lambda t, d: (escape(t, d), None))

    def escape(t: int, depth: int) -> int:
        ch = cast(Chain, g.chain_of[t])
        if len(ch.libs) != 1:
            return WIN
        best = LOSE
        moves = [lib for a in reader._neighbour_chains(ch) if len(a.libs) == 1 for lib in a.libs] + list(ch.libs)
        for m in dict.fromkeys(moves):
            try:
                g.play_point(m, ch.color)
            except IllegalMove:
                continue
            try:
                v = INVERT[chase(t, depth + 1)[0]]
            finally:
                g.undo()
            best = max(best, v)
            if best == WIN:
                break
        return best

    return chase(point, 0)


def read(game: Game, what: str, point: str, limits: Limits = Limits()) -> tuple[str, str | None]:
    """Convenience for callers outside the engine: ("win"|"ko"|"lose"|"unknown", move name or None)."""
    reader = Reader(game, limits)
    p = game.require_point(point)
    return named(lambda: (reader.attack if what == "attack" else reader.defend)(p), NAMES, game.name)


__all__ = ["BudgetExceeded", "GTP_CODE", "KO_A", "KO_B", "LOSE", "Limits", "Reader", "WIN", "ladder_attack", "read"]
