"""Puzzle goals and the move judge: is this move a solution, and if not, what is the best refutation?

A puzzle states a goal; the readers decide, for any move, whether it achieves the goal against the best
defence. Every correct move is accepted, not just the one the author thought of. Solutions are cached per
position hash and goal, so judging the same position again costs a lookup.

Goals (``GOALS``) and their targets:

- ``capture`` / ``save``: capture any of the opponent's target chains / save all of one's own (reading.py).
- ``kill`` / ``live``: the opponent's group dies / one's own group lives (lifedeath.py).
- ``race`` (比气): the targets are the opponent's chains in a capturing race; the solver wins when one is
  captured before any of its own chains next to them. A seki is not a win (race.py).
- ``connect`` (连): two of the solver's chains become one, or can no longer be separated (connection.py).
- ``cut`` (断): two of the opponent's chains are kept apart for good, capturing one of them included.

Reasons a wrong move is given (``Verdict.reason``), for the lesson to turn into kid language:

- ``captured-you``: the reply captures the stone just played; ``self-atari``: the move left its own chain with
  one liberty (both for every goal, when that is what happened);
- ``not-a-liberty`` (capture): the first move is next to the target's liberties but on none of them, while the
  answer is on one (a move far away is ``escapes``);
- ``escapes`` (capture), ``dies`` (save, live), ``lives`` (kill);
- ``loses-race`` (race): the opponent wins the race; ``seki`` (race): nobody can capture, the race ends in seki;
- ``cut`` (connect): the opponent cuts the chains apart; ``connected`` (cut): the opponent connects them;
- ``unknown``: the reading ran out of budget (never a guess).

Speed: a move elsewhere (for capture, save, kill, live) is judged without reading it. The position is read once
after a pass, with the reader's board watched; a move on none of the points that reading looked at cannot change
it, so it gets the pass's answer. A ladder breaker is on the ladder's path, so it is always read.

Budgets: the default ``Limits`` decide by nodes alone (the clock is a far safety net), so tests and the lesson
checker get the same verdicts on any machine; ``SERVER_LIMITS`` adds a clock cap for answering kids' moves.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace

from ._build import BUILD
from .game import COLOR_NAMES, EMPTY, Game, IllegalMove
from .reading import INVERT, KO_A, KO_B, LOSE, WIN, BudgetExceeded, Limits, Reader

GOALS = ("capture", "save", "live", "kill", "race", "connect", "cut")
# every Verdict.reason of a wrong move (see the module docstring); lessons may word each one for kids
REASONS = ("escapes", "captured-you", "self-atari", "not-a-liberty", "lives", "dies", "loses-race", "seki", "cut",
           "connected", "unknown")
ATTACKING = ("capture", "kill", "race", "cut")  # goals about the opponent's stones
PROGRESS = ("capture", "kill", "race")  # goals whose lines go on while the solver keeps winning (see _progress)
PAIRS = ("connect", "cut")  # goals about exactly two chains
STATUS = {WIN: "win", KO_A: "ko", KO_B: "ko", LOSE: "lose"}
# For a server answering kids' moves: the same node budget as the lesson checker (a proven puzzle reads the same
# way there), with a clock that caps a kid's wait on an overloaded machine (the verdict is then an honest
# unknown). Tests and the checker use the default Limits, where only the node budget decides.
SERVER_LIMITS = Limits(seconds=5.0)


class GoalError(ValueError):
    """A goal that does not fit the position (no stone on a target point, stones of both colours...)."""


@dataclass(frozen=True)
class Goal:
    kind: str  # one of GOALS
    targets: tuple[str, ...]  # GTP points naming the chains/groups: capture any of them, save/live all of them

    def __post_init__(self) -> None:
        if self.kind not in GOALS:
            raise GoalError(f"unknown goal {self.kind!r}; use one of {', '.join(GOALS)}")
        if not self.targets:
            raise GoalError("a goal needs at least one target point")
        if self.kind in PAIRS and len(self.targets) != 2:
            raise GoalError(f"the goal {self.kind} needs exactly two target points, one on each chain")


@dataclass
class Solution:
    """The reader's verdict on a position: the status for the side to move, every winning first move, and for
    every other first move the reply that refutes it."""

    status: str  # win | ko | lose | unknown
    winning: dict[str, str] = field(default_factory=dict)  # move -> win | ko
    refutations: dict[str, str | None] = field(default_factory=dict)  # losing move -> the opponent's answer
    unknown: list[str] = field(default_factory=list)  # first moves whose reading ran out of budget: not proven
    slow: list[str] = field(default_factory=list)  # first moves that keep the win but bring it no nearer


@dataclass
class Verdict:
    result: str  # correct | wrong | illegal | continue | slow (still winning, but no nearer: see _progress)
    reason: str | None = None  # wrong: see the module docstring; illegal: the engine's reason
    reply: str | None = None  # the computer's answer to show on the board
    ko: bool = False  # the move works only by winning a ko


def _check_targets(game: Game, goal: Goal) -> tuple[list[int], int]:
    points = []
    for name in goal.targets:
        p = game.require_point(name)
        if game.board[p] == EMPTY:
            raise GoalError(f"the goal names {name}, but there is no stone there")
        points.append(p)
    owners = {game.board[p] for p in points}
    if len(owners) != 1:
        raise GoalError("the target stones of one goal must all be the same colour")
    return points, owners.pop()


class Judge:
    """Judges moves for one goal from one puzzle start position. Keeps its readers' tables between calls."""

    def __init__(self, position: Game, goal: Goal, limits: Limits = Limits()) -> None:
        self.start = position
        self.goal = goal
        self.limits = limits
        self.targets, self.owner = _check_targets(position, goal)
        # the solver is the side to move at the start
        self.solver = position.to_move
        attacking = goal.kind in ATTACKING
        if attacking and self.owner == self.solver:
            if goal.kind == "race":
                raise GoalError("a race target must be a chain of the opponent (the side not to move)")
            if goal.kind == "cut":
                raise GoalError("cut needs two chains of the opponent (the side not to move)")
            raise GoalError(f"the goal is to {goal.kind} stones of the side to move")
        if not attacking and self.owner != self.solver:
            if goal.kind == "connect":
                raise GoalError("connect needs two chains of the side to move")
            raise GoalError(f"the goal is to {goal.kind} stones of the side not to move")
        if goal.kind in PAIRS:
            a, b = self.targets
            if position.chain_of[a] is position.chain_of[b]:
                raise GoalError(f"{goal.targets[0]} and {goal.targets[1]} are the same chain already")
        self._cache: OrderedDict[tuple, tuple[int, int | None]] = OrderedDict()
        self._race_tt: dict = {}
        self._race_value: dict[tuple, int] = {}  # race: the solver's value (win, seki, lose) per position key
        # per position (solver to move): the reading after a pass, the points it looked at, the life setup
        self._pass_reads: OrderedDict[tuple, tuple | None] = OrderedDict()
        self._moves_seen: set[tuple] = set()  # positions where one move was judged already
        self._verdicts: OrderedDict[tuple, Verdict] = OrderedDict()  # (line, move) -> verdict
        self._slack: dict[tuple, bool | None] = {}  # position -> would a pass still win (see _pass_wins)
        self._solving = False
        if goal.kind == "race":
            from .race import influence, race_chains

            self.ours = race_chains(position, self.targets)
            self._influence = influence(position, self.targets, self.ours)

    # ------------------------------------------------------------------ reading one position
    def best(self, game: Game) -> tuple[int, int | None]:
        """(result, move) for the side to move in ``game`` (solver or opponent). Cached per position."""
        key = self._key(game)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        answer = self._read(game)
        self._cache[key] = answer
        if len(self._cache) > 4096:
            self._cache.popitem(last=False)
        return answer

    def _read(self, game: Game, watch: _Watch | None = None) -> tuple[int, int | None]:
        """The reading itself. With ``watch``, the capture/save/kill/live readers record every point they
        look at (see ``_Watch``)."""
        kind = self.goal.kind
        solver_to_move = game.to_move == self.solver
        attacker_to_move = solver_to_move == (kind in ("capture", "kill"))
        if any(game.board[p] == EMPTY for p in self.targets):
            return (WIN, None) if attacker_to_move else (LOSE, None)  # a target is already captured
        if kind == "race":
            return self._read_race(game, solver_to_move)
        if kind in PAIRS:
            return self._read_connection(game, solver_to_move)
        if kind in ("capture", "save"):
            reader = Reader(game, self.limits)
            if watch is not None:
                watch.attach(reader.g)
            return self._attack_any(reader) if attacker_to_move else self._defend_all(reader)
        readers = self._life_readers(game)
        if watch is not None:
            watch.setup = self._life_setup(readers)
            for r in readers:
                watch.attach(r.g)
        if attacker_to_move:
            return max((r.kill() for r in readers), key=lambda rm: rm[0])
        return min((r.live() for r in readers), key=lambda rm: rm[0])

    def _life_readers(self, game: Game) -> list:
        from .lifedeath import LifeReader

        return [LifeReader(game, p, limits=self.limits) for p in self.targets]

    @staticmethod
    def _life_setup(readers: list) -> list[tuple]:
        """What a life reader fixes before it searches (its region, eye space, and whether the group is
        unconditionally alive): two readers with the same setup search alike where their boards agree."""
        return [(r.region, r.eye, r._root_alive) for r in readers]

    # ------------------------------------------------------------------ moves elsewhere
    def _elsewhere(self, before: Game, p: int) -> tuple[int, int | None] | None:
        """The opponent's best answer (result, move) after the solver's move ``p`` in ``before``, when ``p``
        is a move elsewhere: none of the points the reader looked at when it read the same position after a
        pass. Such a reading cannot tell ``p`` from the pass (the search makes the same moves and sees the
        same stones, liberties and chains; only the hash differs, by the same key everywhere), so its answer
        is the pass's. A ladder breaker lies on the ladder's path, which the reader looked at, so it is never
        taken for a move elsewhere. None when ``p`` must be read (captures, moves in the region, other goals,
        a pass reading over budget)."""
        kind = self.goal.kind
        if kind not in ("capture", "save", "kill", "live") or any(before.board[t] == EMPTY for t in self.targets):
            return None
        key = self._key(before)
        seen = self._pass_reads.get(key, False)
        if seen is False:
            if key not in self._moves_seen and not self._solving:
                # the first move judged here is read as it is: a fresh judge answering one kid's move does
                # not pay for the pass reading too; from the second move on, it pays for itself
                self._moves_seen.add(key)
                return None
            seen = self._pass_reads[key] = self._read_pass(before)
            if len(self._pass_reads) > 1024:
                self._pass_reads.popitem(last=False)
        if seen is None:
            return None
        answer, region, setup = seen
        if p in region or self._captures(before, p, self.solver):
            return None
        if setup is not None:
            after = _clone(before)
            after.play_point(p, self.solver)
            if self._life_setup(self._life_readers(after)) != setup:
                return None
        return answer

    def _read_pass(self, before: Game) -> tuple[tuple[int, int | None], frozenset[int], list | None] | None:
        game = _clone(before)
        game.to_play = COLOR_NAMES[3 - self.solver]
        game.ko, game.ko_color = -1, 0
        if not _Watch.works:
            return None
        watch = _Watch()
        try:
            answer = self._read(game, watch)
        except BudgetExceeded:
            return None
        return answer, watch.region(game.adjacent), watch.setup

    @staticmethod
    def _captures(game: Game, p: int, color: int) -> bool:
        chain = game.chain_of
        return any((c := chain[q]) is not None and c.color != color and len(c.libs) == 1 for q in game.adjacent[p])

    def _read_race(self, game: Game, solver_to_move: bool) -> tuple[int, int | None]:
        from .race import PASS, RaceReader
        from .race import WIN as RACE_WIN

        reader = RaceReader(game, self.targets, self.ours, self.limits, tt=self._race_tt)
        value, move = reader.best()
        self._race_value[self._key(game)] = value
        move = None if move == PASS else move
        won = value == RACE_WIN  # a seki is no win for the solver
        if solver_to_move:
            return (WIN if won else LOSE), move
        return (LOSE if won else WIN), move

    def _read_connection(self, game: Game, solver_to_move: bool) -> tuple[int, int | None]:
        from .connection import ConnectionReader

        reader = ConnectionReader(game, self.targets[0], self.targets[1], self.limits)
        connector_to_move = solver_to_move == (self.goal.kind == "connect")
        return reader.connect() if connector_to_move else reader.disconnect()

    @staticmethod
    def _key(game: Game) -> tuple:
        return (game.hash, game.to_move, game.ko if game.ko_color == game.to_move else -1)

    def _attack_any(self, reader: Reader) -> tuple[int, int | None]:
        """Capture any one of the targets. With several targets a move may threaten two at once (双吃), so
        every attacking move is tried against the defender's best single answer."""
        if len(self.targets) == 1:
            return reader.attack(self.targets[0])
        g = reader.g
        reader._start()
        attacker = 3 - self.owner
        best, best_move = LOSE, None
        for m in self._candidates(reader, attacking=True):
            try:
                g.play_point(m, attacker)
            except IllegalMove:
                continue
            try:
                v = INVERT[self._defend_all(reader, depth=1)[0]]
            finally:
                g.undo()
            if v > best:
                best, best_move = v, m
                if v == WIN:
                    break
        return best, best_move

    def _defend_all(self, reader: Reader, depth: int = 0) -> tuple[int, int | None]:
        """Save every target with one move: the defender's best answer when several are threatened."""
        g = reader.g
        if any(g.board[p] == EMPTY for p in self.targets):
            return LOSE, None
        if len(self.targets) == 1:
            return reader._defend(self.targets[0], depth) if depth else reader.defend(self.targets[0])
        if not depth:
            reader._start()
        best, best_move = LOSE, None
        for m in self._candidates(reader, attacking=False):
            try:
                g.play_point(m, self.owner)
            except IllegalMove:
                continue
            try:
                v = max(reader._attack(p, depth + 1)[0] for p in self.targets)
            finally:
                g.undo()
            v = INVERT[v]
            if v > best:
                best, best_move = v, m
                if v == WIN:
                    break
        return best, best_move

    def _candidates(self, reader: Reader, attacking: bool) -> list[int]:
        g = reader.g
        moves: dict[int, None] = {}
        for p in self.targets:
            ch = g.chain_of[p]
            if ch is None:
                continue
            gen = reader._attack_moves(ch, 3 - ch.color, 0) if attacking else reader._defend_moves(ch, ch.color, 0)
            moves.update(dict.fromkeys(gen))
        return list(moves)

    # ------------------------------------------------------------------ judging a kid's move
    def judge(self, moves_so_far: list[str], move: str) -> Verdict:
        key = (tuple(moves_so_far), move)
        hit = self._verdicts.get(key)
        if hit is None:
            hit = self._verdicts[key] = self._judge(moves_so_far, move)
            if len(self._verdicts) > 4096:
                self._verdicts.popitem(last=False)
        return replace(hit)

    def _judge(self, moves_so_far: list[str], move: str) -> Verdict:
        game = self._replay(moves_so_far)
        if game.to_move != self.solver:
            raise GoalError("it is the computer's turn in this line")
        try:
            p = game.require_point(move)
        except ValueError as e:
            raise GoalError(str(e)) from None
        try:
            game.play_point(p, self.solver)
        except IllegalMove as e:
            return Verdict("illegal", e.reason)
        try:
            return self._after_move(game, p)
        except BudgetExceeded:
            return Verdict("wrong", "unknown")

    def _after_move(self, game: Game, p: int) -> Verdict:
        kind = self.goal.kind
        done = self._achieved(game)
        if done is True:
            return Verdict("correct")
        game.undo()
        try:
            elsewhere = self._elsewhere(game, p)
        finally:
            game.play_point(p, self.solver)
        read_game = game
        if kind == "race" and p not in self._influence and not game.moves[:-1]:
            # a first move the race reading never looks at is a move elsewhere: read the race without it
            read_game = _clone(self.start)
            read_game.to_play = COLOR_NAMES[3 - self.solver]
        opp_result, reply = elsewhere if elsewhere is not None else self.best(read_game)  # the opponent to move
        mine = INVERT[opp_result]
        reply_name = game.name(reply) if reply is not None else None
        if mine == LOSE:
            return Verdict("wrong", self._reason(game, p, reply, read_game), reply_name)
        if mine != WIN and reply is not None and reply == game.ko and game.ko_color == game.to_move:
            # the fight goes on only by taking the ko straight back, which the ko rule forbids this turn: the child
            # has won the ko, which is what a puzzle won only through a ko asks (the opponent would first need a
            # threat elsewhere, and a puzzle has none to read)
            return Verdict("correct", ko=True)
        if kind in ("save", "live", "connect", "cut") and opp_result == LOSE:
            # nothing the opponent does can hurt the stones any more
            return Verdict("correct", ko=mine != WIN)
        if kind in PROGRESS and not self._progress(game, p, elsewhere is not None):
            return Verdict("slow", "slow", ko=mine != WIN)
        if reply is None and kind in ("capture", "save", "live", "kill"):
            reply = self._resistant_reply(game)
            reply_name = game.name(reply)
        if kind == "kill" and self._dead_with_time_to_spare(game, reply):
            return Verdict("correct", ko=mine != WIN)
        # the opponent has nothing sensible left to play: it passes, and the child carries on
        return Verdict("continue", reply=reply_name or "pass", ko=mine != WIN)

    # ------------------------------------------------------------------ progress
    def _pass_wins(self, before: Game) -> bool | None:
        """Would the solver still win if it passed here (the opponent moving twice in a row)? None when that
        reading runs out of budget. Cached per position."""
        key = self._key(before)
        hit = self._slack.get(key)
        if hit is None and key not in self._slack:
            game = _clone(before)
            game.to_play = COLOR_NAMES[3 - self.solver]
            game.ko, game.ko_color = -1, 0
            try:
                hit = INVERT[self.best(game)[0]] != LOSE
            except BudgetExceeded:
                hit = None
            self._slack[key] = hit
        return hit

    def _progress(self, game: Game, p: int, elsewhere: bool) -> bool:
        """Does the solver's winning move ``p`` (just played in ``game``) bring the goal nearer? A move elsewhere
        does not: the reading cannot tell it from a pass. A move the solver could not have passed instead of
        (the opponent would get away) does. When a pass would still win (the stones are caught with a move to
        spare), only a move that takes liberties from the targets, or captures, does: anything else leaves the
        fight as it was. So every line a child follows gets shorter with every move, and a proof of the whole
        puzzle stays small."""
        if elsewhere:
            return False
        game.undo()
        try:
            spare = self._pass_wins(game)
            before = self._target_liberties(game)
            stones = sum(1 for c in game.board if c != EMPTY)
        finally:
            game.play_point(p, self.solver)
        if not spare:  # the move was needed (or the pass could not be read: follow the move, never refuse it)
            return True
        captured = sum(1 for c in game.board if c != EMPTY) <= stones
        return captured or self._target_liberties(game) < before

    def _target_liberties(self, game: Game) -> int:
        chains = {id(c): c for c in (game.chain_of[t] for t in self.targets) if c is not None}
        return sum(len(c.libs) for c in chains.values())

    def _dead_with_time_to_spare(self, game: Game, reply: int | None) -> bool:
        """Kill: after the solver's move and the opponent's best answer, the group would stay dead even if the
        solver passed (the opponent moving twice): the killing is done, whatever the stones still on the board."""
        after = _clone(game)
        try:
            if reply is not None:
                after.play_point(reply, after.to_move)
            else:
                after.pass_move()
        except IllegalMove:
            return False
        if any(after.board[t] == EMPTY for t in self.targets):
            return False
        return self._pass_wins(after) is True

    def _resistant_reply(self, game: Game) -> int | None:
        """When the opponent is lost anyway it still answers, with the move that keeps the targets' liberties
        highest (so the kid gets to finish the job), or passes if it has nothing sensible."""
        reader = Reader(game, self.limits)
        side = game.to_move
        best, best_move = -1, None
        for m in self._candidates(reader, attacking=side != self.owner):
            try:
                reader.g.play_point(m, side)
            except IllegalMove:
                continue
            try:
                chains = [reader.g.chain_of[p] for p in self.targets]
                libs = sum(len(c.libs) for c in chains if c is not None)
            finally:
                reader.g.undo()
            if libs > best:
                best, best_move = libs, m
        return best_move

    def _achieved(self, game: Game) -> bool:
        if self.goal.kind in ("capture", "kill", "race", "cut"):
            return any(game.board[p] == EMPTY for p in self.targets)
        if self.goal.kind == "connect":
            a, b = self.targets
            return game.chain_of[a] is game.chain_of[b]
        return False

    def _reason(self, game: Game, p: int, reply: int | None, read_game: Game | None = None) -> str:
        """Why a move fails, in words the lesson turns into kid language (see the module docstring)."""
        kind = self.goal.kind
        ch = game.chain_of[p]
        if reply is not None:
            game.play_point(reply, game.to_move)
            try:
                if game.chain_of[p] is None or (ch is not None and all(game.board[s] == EMPTY for s in ch.stones)):
                    return "captured-you"
            finally:
                game.undo()
        if ch is not None and len(ch.libs) == 1:
            return "self-atari"
        if kind == "capture":
            return "not-a-liberty" if self._off_the_liberties(game, p) else "escapes"
        if kind == "race":
            from .race import SEKI

            return "seki" if self._race_value.get(self._key(read_game or game)) == SEKI else "loses-race"
        if kind == "connect":
            return "cut"
        if kind == "cut":
            return "connected"
        if kind == "kill":
            return "lives"
        return "dies"

    def _off_the_liberties(self, game: Game, p: int) -> bool:
        """Is the move (just played, first of the line) next to a liberty of a target chain but on none, while
        the reader's answer for the start position is on one? Then the kid aimed at the stones and missed their
        liberties: "play on a liberty" is the lesson to draw."""
        if len(game.moves) != 1:
            return False
        start = self.start
        libs = set()
        for t in self.targets:
            ch = start.chain_of[t]
            if ch is not None:
                libs |= ch.libs
        if p in libs:
            return False
        near = set()
        for lib in libs:
            near.update(start.adjacent[lib])
        if p not in near:
            return False  # a move far away is not aimed at the stones: they simply escape
        try:
            result, move = self.best(_clone(start))
        except BudgetExceeded:
            return False
        return result != LOSE and move in libs

    def _replay(self, moves: list[str]) -> Game:
        game = _clone(self.start)
        for i, name in enumerate(moves):
            try:
                game.play(name)
            except (IllegalMove, ValueError) as e:
                raise GoalError(f"move {i + 1} of the line ({name!r}) cannot be played: {e}") from None
        return game

    # ------------------------------------------------------------------ the whole solution
    def solve(self, candidates: list[str] | None = None) -> Solution:
        """Every first move judged: which win (and whether only by ko) and the refutation of every other one."""
        game = _clone(self.start)
        try:
            result, _ = self.best(game)
        except BudgetExceeded:
            return Solution("unknown")
        solution = Solution(STATUS[result])
        moves = candidates if candidates is not None else game.legal_moves()
        self._solving = True
        try:
            verdicts = [(name, self.judge([], name)) for name in moves]
        finally:
            self._solving = False
        for name, verdict in verdicts:
            if verdict.result in ("correct", "continue"):
                solution.winning[name] = "ko" if verdict.ko else "win"
            elif verdict.result == "slow":
                solution.slow.append(name)
            elif verdict.result == "wrong" and verdict.reason == "unknown":
                solution.unknown.append(name)  # neither a win nor a refuted move: never a wrong certainty
            elif verdict.result == "wrong":
                solution.refutations[name] = verdict.reply
        return solution

    def warm(self, depth: int = 6) -> Solution:
        """Judge in advance the moves kids play most, so a server answers them with a lookup: every move at the
        start (``solve``), then down each winning first move the computer's reply and the reader's own winning
        move after it, up to ``depth`` moves of the kid. (Every move at every later position would cost seconds
        of reading per wrong move on a ladder or a net; those are read when a kid plays them.)"""
        solution = self.solve()
        lines = [[name, None] for name in solution.winning]
        while lines:
            line = lines.pop()
            verdict = self.judge(line[:-2], line[-2])
            if verdict.result != "continue" or not verdict.reply or len(line) // 2 >= depth:
                continue
            line[-1] = verdict.reply
            game = self._replay(line)
            try:
                result, own = self.best(game)
            except BudgetExceeded:
                continue
            if own is not None and result != LOSE:
                lines.append(line + [game.name(own), None])
        return solution


class _WatchedList(list):
    """A board list that notes every index read. Whole-list reads (iteration, membership, copies) note every
    point: nothing is then a move elsewhere, which is always safe."""

    __slots__ = ("read", "chains")

    def __getitem__(self, i):
        value = list.__getitem__(self, i)
        if type(i) is int:
            self.read.add(i)
        else:
            self.read.update(range(len(self))[i])
        if self.chains is not None and type(value) is not int and value is not None:
            self.chains[id(value)] = value
        return value

    def _everything(self) -> None:
        self.read.update(range(len(self)))

    def __iter__(self):
        self._everything()
        return list.__iter__(self)

    def __reversed__(self):
        self._everything()
        return list.__reversed__(self)

    def __contains__(self, value) -> bool:
        self._everything()
        return list.__contains__(self, value)

    def index(self, *args):
        self._everything()
        return list.index(self, *args)

    def count(self, value) -> int:
        self._everything()
        return list.count(self, value)

    def copy(self) -> list:
        self._everything()
        return list.copy(self)


class _Watch:
    """The points a reading looked at: every board point and chain entry it read, and for every chain it
    reached, the chain's stones and their neighbours (a chain's liberties and extent depend on those)."""

    # It sees the reads through the lists' Python indexing. The compiled readers (teach/go/_build.py) index a
    # list directly, past any subclass, so there it would see almost nothing and take real moves for moves
    # elsewhere: with the compiled build every move is read as it is (the same verdicts, no shortcut).
    works = BUILD == "python"

    def __init__(self) -> None:
        self.read: set[int] = set()
        self.chains: dict[int, object] = {}
        self.setup: list | None = None  # life readers: what they fixed before searching

    def attach(self, g: Game) -> None:
        """Watch the reader's private copy ``g`` (called before it searches)."""
        board = _WatchedList(g.board)
        board.read, board.chains = self.read, None
        chain = _WatchedList(g.chain_of)
        chain.read, chain.chains = self.read, self.chains
        g.board, g.chain_of = board, chain

    def region(self, nb) -> frozenset[int]:
        points = set(self.read)
        for ch in self.chains.values():
            for s in ch.stones:
                points.add(s)
                points.update(nb[s])
        return frozenset(points)


def _clone(game: Game) -> Game:
    """A fresh game with the same position, side to move and ko, without history (puzzles start here)."""
    copy = Game(game.size, komi=game.komi, rules=game.rules)
    black = [p for p, c in enumerate(game.board) if c == 1]
    white = [p for p, c in enumerate(game.board) if c == 2]
    if black or white:
        copy.setup(black=black, white=white)
    copy.to_play = COLOR_NAMES[game.to_move]
    copy.ko, copy.ko_color = game.ko, game.ko_color
    return copy


def judge(position: Game, goal: Goal, moves_so_far: list[str], move: str, limits: Limits = Limits()) -> Verdict:
    """One-shot judgement (the web app keeps a ``Judge`` per puzzle to reuse its cache)."""
    return Judge(position, goal, limits).judge(moves_so_far, move)
