"""The proof of a whole puzzle: every legal move at every position a child can reach, judged once and kept.

A child reaches a position by playing moves that still win and bring the goal nearer (``continue``), each answered
by the computer's reply. So the proof starts at the puzzle's position, judges every legal move there, and goes on
after each ``continue`` with its reply, until every line ends (solved, wrong, illegal, or ``slow``: a move that
keeps the win but brings it no nearer, which the page takes back, so no line grows through it). Because every
move followed makes progress (``Judge._progress``), each line gets shorter and the proof stays small; the same
position reached by two move orders is judged once.

A proof is plain data: per position (``position_key``), the verdicts of its legal moves, grouped by verdict so a
position's forty moves "elsewhere" that all lose to the same reply take one entry. ``Proof.verdict`` answers a
child's move with a lookup; a position or a move the proof does not hold answers None, and the caller reads it.

What makes a proof stale: the puzzle (position, side, goal, targets) and the engine's source (``ENGINE_VERSION``,
a digest of the modules the judge reads with), so a change to either proves again.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from .coords import col_row
from .game import Game
from .judge import GoalError, Judge, Verdict
from .reading import KO_A, KO_B, LOSE, BudgetExceeded

# the modules whose code decides a verdict (the judge and everything it imports): a change to any of them makes
# every stored proof stale. This module is not among them: it decides which positions a proof holds, and a change
# to what a proof is bumps the store's format (``look_ahead`` here settles moves read live, which nothing stores).
_ENGINE_MODULES = ("coords", "game", "search", "reading", "judge", "life", "lifedeath", "race", "connection")
MAX_POSITIONS = 600  # child-to-move positions a lesson puzzle may have: more is a puzzle too branchy to teach


def _engine_version() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in _ENGINE_MODULES:
        digest.update(name.encode())
        digest.update((here / f"{name}.py").read_bytes())
    return digest.hexdigest()[:16]


ENGINE_VERSION = _engine_version()


def position_key(game: Game) -> str:
    """A position as the judge sees it: the stones, the side to move and the point a ko forbids."""
    ko = game.ko if game.ko >= 0 and game.ko_color == game.to_move else -1
    rows = "".join(game.board_rows())
    return hashlib.blake2b(f"{game.size}|{rows}|{game.to_move}|{ko}".encode(), digest_size=10).hexdigest()


def puzzle_key(game: Game, goal_kind: str, targets: tuple[str, ...], engine: str | None = None) -> str:
    """What a proof is the proof of: the start position, side to move, goal and targets, and the engine."""
    text = "|".join([engine or ENGINE_VERSION, position_key(game), goal_kind, ",".join(targets)])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


class ProofError(Exception):
    """The puzzle cannot be proven everywhere: ``line`` is where (the moves from the start, then the move);
    ``partial`` holds the positions proven before it stopped (each with every legal move judged), or None."""

    def __init__(self, message: str, line: list[str], partial: "Proof | None" = None) -> None:
        super().__init__(message, line)
        self.line = line
        self.partial = partial

    def __str__(self) -> str:
        return str(self.args[0])


class Unwinnable(ProofError):
    """Read to the end of its lines, the puzzle has no winning first move: the reader's first reading was
    over-hopeful, and the puzzle would teach something false (``settle``)."""


@dataclass
class Proof:
    key: str
    positions: dict[str, list[list]] = field(default_factory=dict)  # position -> [[result, reason, reply, ko, moves]]
    judgements: int = 0
    seconds: float = 0.0
    # False for what a proof that could not finish holds: its positions are proven, the rest is read live
    complete: bool = True
    lines: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)  # position -> a line to it
    _index: dict[str, dict[str, Verdict]] | None = field(default=None, repr=False, compare=False)

    def verdict(self, game: Game, move: str) -> Verdict | None:
        """The stored verdict of ``move`` in ``game`` (the position after the line), or None if not proven."""
        return self.verdict_at(position_key(game), move)

    def verdict_at(self, key: str, move: str) -> Verdict | None:
        """The stored verdict of ``move`` in the position ``key`` (``position_key``), or None if not proven."""
        if self._index is None:
            self._index = {}
        moves = self._index.get(key)
        if moves is None:
            groups = self.positions.get(key)
            if groups is None:
                return None
            moves = self._index[key] = {m: Verdict(result, reason, reply, bool(ko))
                                        for result, reason, reply, ko, names in groups for m in names.split()}
        found = moves.get(move)
        return None if found is None else Verdict(found.result, found.reason, found.reply, found.ko)

    def to_json(self) -> dict:
        data = {"positions": self.positions, "judgements": self.judgements, "seconds": round(self.seconds, 2)}
        if not self.complete:
            data["complete"] = False
        return data

    @classmethod
    def from_json(cls, key: str, data: dict) -> "Proof":
        if not isinstance(data["positions"], dict):
            raise TypeError("positions")
        return cls(key, data["positions"], data.get("judgements", 0), data.get("seconds", 0.0),
                   data.get("complete", True) is not False)


def prove(judge: Judge, max_positions: int = MAX_POSITIONS, cpu_seconds: float | None = None,
          until: float | None = None) -> Proof:
    """Judge every legal move at every position a child can reach in ``judge``'s puzzle. Raises ``ProofError``
    naming the line where the reader ran out of budget, the computer had no reply, the puzzle grew past
    ``max_positions``, or the proof took more than ``cpu_seconds`` of this process's CPU time (CPU, not the
    clock: a busy machine proves the same puzzles, only later) or went past ``until`` (a ``time.monotonic()``:
    the wall clock of a caller that must answer by then, whatever the machine's load)."""
    started = time.monotonic()
    deadline = None if cpu_seconds is None else time.process_time() + cpu_seconds
    proof = Proof(puzzle_key(judge.start, judge.goal.kind, judge.goal.targets))
    stack: list[list[str]] = [[]]
    judge._solving = True  # moves elsewhere answered from one reading of a pass, from the first move on
    try:
        _prove_lines(judge, proof, stack, max_positions, cpu_seconds, deadline, until)
    except ProofError as e:  # what was proven stays useful: a position held is answered with a lookup
        proof.complete = False
        proof.seconds = time.monotonic() - started
        if proof.positions:
            settle(proof, judge._replay)  # read to the end of the lines it reached (Unwinnable: nothing to keep)
        e.partial = proof if proof.positions else None
        raise
    finally:
        judge._solving = False
    settle(proof, judge._replay)
    proof.seconds = time.monotonic() - started
    return proof


WINNING = ("continue", "correct", "slow")  # verdicts of a move that keeps the win


def settle(proof: Proof, replay) -> int:
    """Read the proof's lines to their end: the reader judges each position on its own, and may call a move
    ``continue`` that leads, after the computer's reply, to a position where it then finds no winning move (an
    over-hopeful read a few moves up the line). Such a move is ``wrong`` after all, refuted by that reply, and the
    position before it is looked at again, up to the start. ``replay(line)`` gives the position after a line of
    moves from the start. Returns how many verdicts changed; raises ``Unwinnable`` when no first move is left
    that wins (a puzzle the author must look at again)."""
    root = position_key(replay([]))
    if root not in proof.positions:
        return 0
    parents: dict[str, list[tuple[str, str, str]]] = {}  # position -> (position before it, move, reply)
    lines, todo = {root: []}, [[]]
    while todo:
        line = todo.pop()
        here = position_key(replay(line))
        for result, _reason, reply, _ko, names in proof.positions.get(here, ()):
            if result != "continue":
                continue
            for move in names.split():
                try:
                    child = position_key(replay(line + [move, reply]))
                except ValueError:
                    continue  # a line the rules stop (the proof itself says so when it meets one)
                parents.setdefault(child, []).append((here, move, reply))
                if child not in lines and child in proof.positions:
                    lines[child] = line + [move, reply]
                    todo.append(lines[child])

    def lost(key: str) -> bool:
        groups = proof.positions.get(key)
        return groups is not None and not any(g[0] in WINNING for g in groups)

    changed, work = 0, [key for key in lines if key != root and lost(key)]
    while work:
        key = work.pop()
        reason = next((g[1] for g in proof.positions[key] if g[0] == "wrong" and g[1]), "escapes")
        for parent, move, reply in parents.get(key, ()):
            if _refute(proof.positions[parent], move, reason, reply):
                changed += 1
                if parent != root and lost(parent):
                    work.append(parent)
    proof._index = None
    if lost(root):
        raise Unwinnable("no first move wins once every line is read to its end", [])
    return changed


def _refute(groups: list[list], move: str, reason: str, reply: str) -> bool:
    """Move ``move`` from its ``continue`` group into a ``wrong`` one refuted by ``reply``; False if it was not
    there."""
    for group in groups:
        names = group[4].split()
        if group[0] == "continue" and move in names:
            names.remove(move)
            group[4] = " ".join(names)
            ko = group[3]
            break
    else:
        return False
    groups[:] = [g for g in groups if g[4]]
    target = next((g for g in groups if g[:4] == ["wrong", reason, reply, ko]), None)
    if target is None:
        groups.append(["wrong", reason, reply, ko, move])
    else:
        target[4] += " " + move
    return True


def _prove_lines(judge: Judge, proof: Proof, stack: list[list[str]], max_positions: int, cpu_seconds: float | None,
                 deadline: float | None, until: float | None) -> None:
    """``prove``'s walk: a position goes into ``proof.positions`` only once every legal move in it is judged."""
    while stack:
        line = stack.pop()
        try:
            game = judge._replay(line)
        except GoalError as e:  # a reply the rules do not allow yet (taking a ko straight back)
            raise ProofError(f"the computer's answer cannot be played ({e})", line) from None
        key = position_key(game)
        if key in proof.positions:
            continue
        if len(proof.positions) >= max_positions:
            raise ProofError(f"more than {max_positions} positions to prove", line)
        proof.lines[key] = line
        groups: dict[tuple, list[str]] = {}
        for move in game.legal_moves():
            if deadline is not None and time.process_time() > deadline:
                raise ProofError(f"the proof took more than {cpu_seconds:.0f} s", line + [move])
            if until is not None and time.monotonic() > until:
                raise ProofError("the proof ran out of time", line + [move])
            v = judge.judge(line, move)
            proof.judgements += 1
            if v.result == "wrong" and v.reason == "unknown":
                raise ProofError("the reader ran out of budget", line + [move])
            if v.result == "continue":
                if not v.reply:
                    raise ProofError("the computer has no answer", line + [move])
                stack.append(line + [move, v.reply])
            groups.setdefault((v.result, v.reason, v.reply, int(v.ko)), []).append(move)
        proof.positions[key] = [[*k, " ".join(moves)] for k, moves in groups.items()]


AHEAD_MOVES = 4  # the solver's moves a live "continue" is checked with after the reply: the reader's best, the nearest
AHEAD_STEPS = 3  # how many of the child's moves beyond the reply are looked at (each checked so, one step less)
# CPU seconds a web request's looking ahead may take beyond the move's own reading. Looking ahead is reading
# several more positions, and in a long ladder or ko fight one request took seven seconds of a worker; past this the
# move is one the request could not settle ("unknown"): the page shows the computer thinking while the move is read
# again in the background, looking ahead without this cap (``teach.web.deep_read``, ``teach.go.deep``).
AHEAD_SECONDS = 1.0


class _OutOfTime(Exception):
    pass


def look_ahead(judge: Judge, line: list[str], move: str, steps: int = AHEAD_STEPS,
               seconds: float | None = None) -> Verdict:
    """``_look_ahead`` (below); with ``seconds``, a verdict still being looked at after that much more of this
    process's CPU time than the move's own reading took is ``unknown`` (the caller reads it again on its own time)."""
    if seconds is None:
        return _look_ahead(judge, line, move, steps, None)
    verdict = judge.judge(line, move)  # the move's own reading (kept by the judge: read once)
    try:
        return _look_ahead(judge, line, move, steps, time.process_time() + seconds)
    except _OutOfTime:
        return Verdict("wrong", "unknown", None, verdict.ko)


def _look_ahead(judge: Judge, line: list[str], move: str, steps: int, until: float | None) -> Verdict:
    """The judge's verdict on ``move`` after ``line``, with what ``settle`` does for a whole proof done a few steps
    ahead for a move read live. The reader judges each position on its own, and a defence it does not look at
    deep in one reading is found in the next, two moves further on: so a ``continue`` could lead, after the
    computer's reply, to a position where every move the child tries is ``wrong`` — the shown answer too. Here a
    live ``continue`` stands only when, after its reply, one of the solver's moves (the reader's best, then the
    nearest to the targets, ``AHEAD_MOVES`` in all) is judged to keep the win — itself looked at so, ``steps - 1``
    steps ahead — or could not be settled (which condemns nothing). Otherwise the move is ``wrong``, refuted by
    that reply, as a proof would settle it; and so is a move that wins only through a ko when the reply takes the
    ko and the reader's way on is to take it straight back (a puzzle has no ko threats to play first). Beyond
    ``steps`` the reader's word stands: a line that goes on longer is settled when the child gets there."""
    verdict = judge.judge(line, move)
    if steps <= 0 or verdict.result != "continue" or not verdict.reply:
        return verdict
    if until is not None and time.process_time() > until:
        raise _OutOfTime
    after = line + [move, verdict.reply]
    try:
        game = judge._replay(after)
    except (GoalError, ValueError):
        return verdict  # a reply the rules stop here (a ko taken straight back): the judge's word stands
    if game.to_move != judge.solver:
        return verdict
    try:
        result, best = judge.best(game)
    except BudgetExceeded:
        return verdict
    if not (result in (KO_A, KO_B) and best is not None and best == game.ko and game.ko_color == game.to_move):
        size = game.size
        near = [col_row(p, size) for p in judge.targets]

        def distance(name: str) -> int:
            c, r = col_row(game.require_point(name), size)
            return min(max(abs(c - tc), abs(r - tr)) for tc, tr in near)

        first = [game.name(best)] if best is not None and result != LOSE else []
        legal = [m for m in game.legal_moves() if m not in first]
        candidates = (first + sorted(legal, key=distance))[:AHEAD_MOVES]
        if not candidates:
            return verdict
        for candidate in candidates:
            if until is not None and time.process_time() > until:
                raise _OutOfTime
            try:
                v = _look_ahead(judge, after, candidate, steps - 1, until)
            except GoalError:
                continue
            if v.result in WINNING or v.reason == "unknown":
                return verdict
    played = judge._replay(line + [move])
    reply = None if verdict.reply == "pass" else played.require_point(verdict.reply)
    return Verdict("wrong", judge._reason(played, played.require_point(move), reply), verdict.reply, verdict.ko)


class ProvenJudge:
    """A puzzle's judge that answers from its proof: a lookup for every position a child can reach, the live
    reader (``judge``) for anything the proof does not hold. Everything else is the judge's."""

    LINES = 4096  # lines whose position is remembered (a stranger's made-up lines cannot grow it further)

    def __init__(self, judge: Judge, proof: Proof | None) -> None:
        self.reader = judge
        self.proof = proof
        self.looked_up = 0
        self.read = 0
        self._keys: dict[tuple[str, ...], str] = {}  # line -> its position's key (at most LINES of them)
        self._ahead: dict[tuple, Verdict] = {}  # (line, move) -> a live verdict, looked ahead
        self.ahead_seconds: float | None = AHEAD_SECONDS  # None: look ahead as far as it takes (no request waits)

    def __getattr__(self, name: str):
        return getattr(self.reader, name)

    def judge(self, moves_so_far: list[str], move: str) -> Verdict:
        if self.proof is not None:
            found = self._stored(moves_so_far, move)
            if found is not None and not self._beyond(moves_so_far, move, found):
                self.looked_up += 1
                return found
        self.read += 1
        key = (tuple(moves_so_far), move)
        hit = self._ahead.get(key)
        if hit is None:
            hit = look_ahead(self.reader, list(moves_so_far), move, seconds=self.ahead_seconds)
            if len(self._ahead) < self.LINES:
                self._ahead[key] = hit
        return hit

    def _beyond(self, moves_so_far: list[str], move: str, found: Verdict) -> bool:
        """A ``continue`` of a proof that could not finish, whose position after the reply the proof does not
        hold: ``settle`` read the proof's lines to their end, but this one leaves the proof there, so its verdict
        is the reader's first, over-hopeful word (a loose move in a ladder, "good move" and then nothing works).
        Such a move is read live and looked ahead, as any move the proof does not hold."""
        if self.proof is None or self.proof.complete or found.result != "continue" or not found.reply:
            return False
        try:
            after = self.reader._replay(list(moves_so_far) + [move, found.reply])
        except (GoalError, ValueError):
            return False
        return position_key(after) not in self.proof.positions

    def _stored(self, moves_so_far: list[str], move: str) -> Verdict | None:
        """The proof's answer, the line's position worked out once per line (kids replay the same few lines)."""
        line = tuple(moves_so_far)
        key = self._keys.get(line)
        if key is None:
            try:
                game = self.reader._replay(moves_so_far)
            except ValueError:
                return None  # the reader gives the precise error
            if game.to_move != self.reader.solver:
                return None
            key = position_key(game)
            if len(self._keys) < self.LINES:
                self._keys[line] = key
        return self.proof.verdict_at(key, move.strip().upper())
