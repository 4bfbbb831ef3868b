"""The review after a game (找找漏掉的吃子, "captures you missed"): the moments a child's game gave a tactic away,
each turned into a retry puzzle on the game's own position (as Lichess's "learn from your mistakes").

``review_game(game, color, seconds)`` replays the game on its own copy and looks at every move of the child
(``color``). Three kinds of finding, one question each, judged by the lesson puzzles' ``Judge``:

- ``missed-capture`` (goal ``capture``): an opponent chain the child could have captured — directly (in atari),
  by a ladder or a net (two liberties) — and the move played does not capture it.
- ``unsaved-atari`` (goal ``save``): a chain of the child's in atari that one move could have saved, and the move
  played does not save it.
- ``self-atari`` (goal ``save``): the child's move joined an existing chain (one that had two liberties or more)
  into a chain in atari that the opponent can then capture; the puzzle is the position before it, saving that
  chain. A lone new stone played into atari has no chain to save: it is not reviewed (as a "save" puzzle the goal
  would be met by every other move, and a throw-in is often the right play anyway).

Every claim is proven, never guessed: a finding is returned only when the judge, on exactly the puzzle's
position (``Finding.position()``) and with the lessons' node budget, proves the goal achievable, judges every
legal first move (``answers`` are all those that win, none left unknown), and proves the move played (or the
pass) fails. A reading that runs out of budget or time drops the finding. Answers that work only by winning a
ko drop it too: a retry puzzle hangs on no ko. On top of the judge, every claim is read again at the root one ply
deeper, where the reader is known to be generous (found against GNU Go: inside a read only the root's moves are
verified): after each answer and every opponent reply that could matter (the chain's liberties and the points next
to them, the liberties of the chains touching it, the pass), a root read must still reach the goal, and the
replies that resist the most are followed a move or two further (``_verify_line``); a "save" that leaves the
stones to be taken at once is none (the reader counts a capture taken straight back, a snapback, as none); and
"the move played fails" must hold for a root read after it, and after its refutation (``_verify_played``).
``seconds`` is a deadline for the whole review, ``nodes`` (optional) the reading work it may do in all: each
read gets a share of what is left, and the moves not reached are not reviewed. The node budget gives the same
findings on any machine; the clock alone depends on the machine's load.

What a teacher would point out, and what not (the rules, in the order they are applied):

- At most one finding per child move: a missed capture (the biggest chain) before an unsaved atari (the
  biggest chain) before a self-atari.
- No missed capture when the move played captured at least as many stones, started a capture of a chain at least
  as big (the chain is still lost after it), or saved a chain of its own at least as big that was in atari (after
  the move the opponent cannot capture it). A capture the child did play is never a finding.
- No unsaved atari when the chain was lost whatever the child did (the judge says no move saves it), or when the
  move played captured at least as many stones, or saved a bigger (or the same size) chain in atari.
- No self-atari when the move captured at least as many stones as the chain it put in atari (a trade).
- Not reviewed: a move made while a ko forbade the child one point (the puzzle's position cannot carry that ban,
  so its answers could include the forbidden retake); the move that won a capture game (吃子游戏: it reached the
  goal, the game is over, there is nothing to retry); a position where an answer would repeat an earlier position
  of the game (superko).
- A chain is told once: at the first move that missed it (capturing it, or saving it); the same stones missed
  again at the next moves are not told again (not even when the first finding's answers could not all be
  proven in time and it was dropped: the review then stays silent about that chain).
- At most ``MAX_FINDINGS`` per game: the biggest chains when there are more, then in the order of the game.

The puzzle's position is the stones only, Chinese rules, the child to move, no capture goal: a capture game's
puzzle is the same tactical question.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from .game import BLACK, COLOR_NAMES, EMPTY, WHITE, Game, IllegalMove, parse_color
from .judge import Goal, Judge
from .reading import LOSE, WIN, BudgetExceeded, Limits, Reader

KINDS = ("missed-capture", "unsaved-atari", "self-atari")
MAX_FINDINGS = 10
LESSON_LIMITS = Limits()  # how lesson puzzles are judged (Finding.judge too)
# The answers are read on the lessons' budget (and the clock, see _Clock). The first pass reads every chain short
# of liberties at every move, on a smaller node budget: a read that finishes inside it is the very read the
# lessons' budget would make (the same moves in the same order), so its answer is the lessons' answer; one that
# does not is unknown, and that chain is not looked at.
SCAN_LIMITS = replace(LESSON_LIMITS, nodes=100_000)  # a lone stone's rescue on an open 7x7 board takes 50,000
REVIEW_LIMITS = LESSON_LIMITS
READ_SHARE = 4  # a read may take this fraction of the time left: one judged move makes a few reads at most
SCAN_SHARE = 0.4  # the part of the time the first pass over the game may take; the answers get the rest
ANSWER_SHARE = 3  # a finding's answers may take a third of the time left at most (the others get their turn)
# An answer's most resisting lines are read again at the root this many child moves deep. A save is followed less
# far: the stones' fight widens at every move, and deeper the reader's root reads disagree with each other about
# answers GNU Go confirms (found on seeded games); a capture's lines stay narrow.
VERIFY_DEPTH = {"capture": 2, "save": 1}
QUIET_REACH = 3  # a chain read with nothing found is read again when a stone this near (Manhattan) changed


@dataclass(frozen=True)
class Finding:
    """One moment of the game as a retry puzzle: the stones before the child's move, the child to play, the goal
    on one stone of the chain (``target``), what the child played and every move that achieves the goal."""

    move_number: int  # 1-based index into game.moves of the child's move
    kind: str  # one of KINDS
    size: int  # board size
    black: list[str]
    white: list[str]
    to_play: str  # the child's colour
    goal: str  # capture | save
    target: str
    played: str  # GTP name or "pass"
    answers: list[str]  # every first move that achieves the goal, in board order

    def position(self) -> Game:
        """The puzzle's start: these stones, the child to play (Chinese rules, no history, no ko ban)."""
        return _position(self.size, self.black, self.white, self.to_play)

    def judge(self, limits: Limits = LESSON_LIMITS) -> Judge:
        """The judge of the retry puzzle, as a lesson puzzle is judged."""
        return Judge(self.position(), Goal(self.goal, (self.target,)), limits)


def review_game(game: Game, color: str, seconds: float = 10.0, nodes: int | None = None) -> list[Finding]:
    """The findings of ``color``'s moves in ``game`` (see the module docstring), in the order of the game.
    ``game`` is not changed; the review is over ``seconds`` from now, or when its reads have searched ``nodes``
    nodes in all (None: no such limit). The node budget decides the same way on any machine (tests give it, and a
    clock they never reach); the clock alone, as the web gives it, depends on the machine's load.

    Two passes: the first goes through the game and proves, for each of the child's moves, the finding it may
    give (the goal achievable, the move played failing); the second judges every first move of the biggest
    of them for their answers, and checks every claim one ply deeper (``_verify_played``, ``_verify_answer``).
    The first pass may take ``SCAN_SHARE`` of the time and nodes (moves it does not reach are not reviewed), the
    second the rest, a fair share to each finding."""
    child = parse_color(color)
    clock = _Clock(seconds, nodes)
    candidates = _scan(game, child, clock.part(SCAN_SHARE, SCAN_LIMITS))
    return _answer(candidates, clock)


class _Meter:
    """The nodes the review's reads have searched so far."""

    def __init__(self) -> None:
        self.spent = 0


class _Clock:
    """A deadline and a node allowance, and the budget of each read under them: the review's nodes (at most the
    nodes left), and a share of the time left (so the few reads of one judged move together stay inside the
    deadline). A read is stopped only by its own budget, so the review may go past its nodes by what one read
    was given; it stops reading after that."""

    def __init__(self, seconds: float, nodes: int | None = None, deadline: float | None = None,
                 meter: _Meter | None = None, budget: Limits = REVIEW_LIMITS, node_end: int | None = None) -> None:
        end = time.perf_counter() + max(0.0, seconds)
        self.deadline = end if deadline is None else min(end, deadline)
        self.meter = _Meter() if meter is None else meter
        self.node_end = node_end
        if nodes is not None:
            own = self.meter.spent + max(0, nodes)
            self.node_end = own if node_end is None else min(own, node_end)
        self.budget = budget

    def part(self, share: float, budget: Limits = REVIEW_LIMITS) -> _Clock:
        """A clock for ``share`` of the time and nodes left, inside this one, its reads on ``budget``."""
        nodes = None if self.node_end is None else int(self.nodes_left() * share)
        return _Clock(self.left() * share, nodes, self.deadline, self.meter, budget, self.node_end)

    def left(self) -> float:
        return max(0.0, self.deadline - time.perf_counter())

    def nodes_left(self) -> int | None:
        return None if self.node_end is None else max(0, self.node_end - self.meter.spent)

    def out(self) -> bool:
        return time.perf_counter() >= self.deadline or self.nodes_left() == 0

    def limits(self) -> Limits:
        nodes = self.budget.nodes if self.node_end is None else min(self.budget.nodes, self.nodes_left())
        return replace(self.budget, seconds=self.left() / READ_SHARE, nodes=nodes)

    def judge(self, start: Game, goal: Goal) -> Judge:
        return _MeteredJudge(start, goal, self.limits(), self.meter)

    def read(self, game: Game, attack: bool, target: int) -> tuple[int, int | None]:
        """A root read (attack or defend the chain at ``target``, the side to move in ``game`` first), counted;
        over budget it proves nothing."""
        reader = Reader(game, self.limits())
        try:
            return (reader.attack if attack else reader.defend)(target)
        except BudgetExceeded:
            raise _Unproven from None
        finally:
            self.meter.spent += reader.nodes_read()


class _MeteredJudge(Judge):
    """The lesson judge, its capture and save reads made by a metered reader: the very reads ``Judge`` makes
    (same reader, same limits, same order), so its verdicts are the lesson puzzle's (``Finding.judge``)."""

    def __init__(self, position: Game, goal: Goal, limits: Limits, meter: _Meter) -> None:
        super().__init__(position, goal, limits)
        self.meter = meter

    def _read(self, game: Game, watch=None) -> tuple[int, int | None]:
        if self.goal.kind not in ("capture", "save") or any(game.board[p] == EMPTY for p in self.targets):
            return super()._read(game, watch)
        reader = Reader(game, self.limits)
        if watch is not None:
            watch.attach(reader.g)
        attacker_to_move = (game.to_move == self.solver) == (self.goal.kind == "capture")
        try:
            return self._attack_any(reader) if attacker_to_move else self._defend_all(reader)
        finally:
            self.meter.spent += reader.nodes_read()


class _Unproven(Exception):
    """A reading ran out of budget or time, or hit a ko: the finding is dropped."""


@dataclass
class _Candidate:
    """A finding proven but for its answers."""

    number: int
    kind: str
    goal: str
    target: int
    stones: int  # of the chain it is about: the biggest are kept
    judge: Judge
    legal: frozenset[int]  # the child's legal points in the game there (superko included)
    black: list[str]
    white: list[str]
    played: str
    move: int | None  # the point played, None for a pass

    def finding(self, clock: _Clock) -> Finding:
        start = self.judge.start
        _verify_played(start, self.goal, self.target, self.move, clock)
        answers = _answers(self.judge, self.legal, clock)
        return Finding(move_number=self.number, kind=self.kind, size=start.size, black=self.black,
                       white=self.white, to_play=start.to_play, goal=self.goal, target=start.name(self.target),
                       played=self.played, answers=answers)


def _scan(game: Game, child: int, clock: _Clock) -> list[_Candidate]:
    """Replay the game on a copy; at each of the child's moves, its candidate finding."""
    found = []
    told: dict[str, set[int]] = {"capture": set(), "save": set()}  # stones of the chains found already
    quiet: dict[tuple, bool] = {}  # chains read at an earlier move with nothing to find: see _MoveReview._quiet
    replay = Game(game.size, komi=game.komi, rules=game.rules)
    setups = sorted(game.setups, key=lambda s: s[0])
    for number, (mover, point) in enumerate(game.moves, 1):
        while setups and setups[0][0] <= number - 1:
            _, black, white, empty = setups.pop(0)
            replay.setup(black=black, white=white, empty=empty)
        if replay.end_reason == "passes":
            replay.resume()  # a record that went on after two passes
        if mover == child:
            if clock.out():
                break
            try:
                hit = _MoveReview(replay, child, point, number, told, quiet, clock).candidate()
            except IllegalMove:
                hit = None  # a move only a record's own rules allowed (a suicide): no puzzle on these rules
            if hit is not None:
                found.append(hit)
                ch = hit.judge.start.chain_of[hit.target]
                told[hit.goal].update(ch.stones)
        try:
            if point is None:
                replay.pass_move(mover)
            else:
                replay.play_point(point, mover, allow_repeat=True)
        except IllegalMove:
            break  # the record goes on past its end (a finished capture game): nothing after it to review
        for stones in told.values():
            stones.difference_update([p for p in stones if replay.board[p] == EMPTY])
    return found


def _answer(candidates: list[_Candidate], clock: _Clock) -> list[Finding]:
    """The answers of the biggest candidates, at most MAX_FINDINGS of them, in the order of the game."""
    findings = []
    ordered = sorted(candidates, key=lambda c: (-c.stones, c.number))
    for i, candidate in enumerate(ordered):
        if len(findings) >= MAX_FINDINGS or clock.out():
            break
        slots = min(MAX_FINDINGS - len(findings), len(ordered) - i, ANSWER_SHARE)
        try:
            findings.append(candidate.finding(clock.part(1 / slots)))
        except _Unproven:
            continue
    return sorted(findings, key=lambda f: f.move_number)


def _answers(judge: Judge, legal: frozenset[int], clock: _Clock) -> list[str]:
    """Every legal first move that achieves the goal: all judged, none unknown, none winning by ko only."""
    start = judge.start
    answers = []
    for name in start.legal_moves():
        if clock.out():
            raise _Unproven
        judge.limits = clock.limits()
        solution = judge.solve([name])
        if solution.status == "unknown" or solution.unknown:
            raise _Unproven
        won = solution.winning.get(name)
        if won == "ko":
            raise _Unproven
        if won == "win":
            p = start.require_point(name)
            if p not in legal:
                raise _Unproven  # legal on the puzzle's board, but it repeats a position of the game
            if judge.goal.kind == "save" and _still_in_atari(start, p, judge.targets[0]):
                # the reader counts a capture that is taken straight back (a snapback) as no capture; the
                # stones are gone all the same, so this "save" is none, and the judge would accept it
                raise _Unproven
            _verify_answer(judge, name, clock)
            answers.append(name)
    if not answers:
        raise _Unproven
    return answers


def _replies(game: Game, target: int) -> list[int | None]:
    """The moves of the side to move in ``game`` that could change what happens to the chain at ``target``:
    its liberties and the empty points next to them, the liberties of every chain touching it (the chains that
    capture it or that it captures, their ataris and their escapes), and the pass. A move farther away changes
    no read of this chain's fight the reader makes from these moves."""
    ch = game.chain_of[target]
    points = set(ch.libs)
    for lib in ch.libs:
        points.update(q for q in game.adjacent[lib] if game.board[q] == EMPTY)
    for s in ch.stones:
        for q in game.adjacent[s]:
            other = game.chain_of[q]
            if other is not None and other.color != ch.color:
                points.update(other.libs)
    color = game.to_move
    return [p for p in sorted(points) if game.is_legal_point(p, color)] + [None]


def _verify_answer(judge: Judge, name: str, clock: _Clock) -> None:
    """The answer's claim read again at the root, deeper than the judge reads it: inside a read only the root's
    moves are verified, so a reply found wanting one ply down can hold at the root (found against GNU Go). After
    the answer, ``_verify_line`` checks every reply that could matter (the judge's own among them)."""
    start, target = judge.start, judge.targets[0]
    game = _copy(start)
    child = game.to_move
    game.play_point(start.require_point(name), child)
    verdict = judge.judge([], name)
    first = start.require_point(verdict.reply) if verdict.reply not in (None, "pass") else None
    _verify_line(game, target, judge.goal.kind == "capture", clock, VERIFY_DEPTH[judge.goal.kind], first)


def _verify_line(game: Game, target: int, capture: bool, clock: _Clock, depth: int, first: int | None = None
                 ) -> None:
    """After a move of the child (the opponent to move in ``game``), the goal holds by root reads: the opponent,
    moving, cannot undo it (a root read for the opponent finds nothing); and after every reply that could matter
    (``_replies``, ``first`` among them) the child's root read still reaches it: a capture must be won by a root
    attack read, a save must leave stones that a root defence read keeps and that cannot be taken at once. The
    replies that resist the most (a capture's target gaining liberties or taking stones, a save's target losing
    liberties or stones of the child's taken) are followed ``depth`` child moves further, with the child's move
    the root read found: a line can look won at the root one ply down and lost two plies further."""
    child = 3 - game.to_move
    ch = game.chain_of[target]
    if ch is None:
        if capture:
            return
        raise _Unproven
    if clock.out():
        raise _Unproven
    if clock.read(game, not capture, target)[0] != LOSE:
        raise _Unproven
    libs = len(ch.libs)
    replies = _replies(game, target)
    if first is not None and first not in replies:
        replies.insert(0, first)
    for reply in replies:
        if clock.out():
            raise _Unproven
        if reply is None:
            game.pass_move(3 - child)
            taken = 0
        else:
            taken = len(game.play_point(reply, 3 - child))
        try:
            ch = game.chain_of[target]
            if ch is None:
                if capture:
                    continue
                raise _Unproven
            result, move = clock.read(game, capture, target)
            if result != WIN or (not capture and _capturable_after(game, move, target)):
                raise _Unproven
            resists = taken > 0 or (len(ch.libs) > libs if capture else len(ch.libs) < libs) or (
                reply is not None and _counter_atari(game, reply, ch))
            if depth > 0 and resists and reply is not None:
                _verify_follow_up(game, target, capture, clock, depth - 1, move)
        finally:
            game.undo()


def _counter_atari(game: Game, reply: int, target) -> bool:
    """Did the opponent's ``reply`` put a chain of the child's (not the target chain) in atari?"""
    child = 3 - game.board[reply]
    for q in game.adjacent[reply]:
        other = game.chain_of[q]
        if other is not None and other is not target and other.color == child and len(other.libs) == 1:
            return True
    return False


def _verify_follow_up(game: Game, target: int, capture: bool, clock: _Clock, depth: int, move: int | None) -> None:
    """The child to move in ``game``, after a resisting reply: the move the root read found (``move``) must hold
    down the line (``_verify_line``). The reader's choice may be the one that does not (its root read, one ply
    down, is generous): then another move on the chain's liberties that holds will do (GNU Go's answer is often
    the other one)."""
    child = game.to_move
    tries = [move] + sorted(p for p in game.chain_of[target].libs if p != move)
    for i, p in enumerate(tries):
        if p is None:
            game.pass_move(child)
        else:
            try:
                game.play_point(p, child)
            except IllegalMove:
                continue
        try:
            _verify_line(game, target, capture, clock, depth)
            return
        except _Unproven:
            if clock.out() or i == len(tries) - 1:
                raise
        finally:
            game.undo()
    raise _Unproven


def _verify_played(start: Game, goal: str, target: int, move: int | None, clock: _Clock) -> None:
    """The claim "the move played (``move``, None for a pass) fails", read at the root: after it the opponent,
    read at the root, keeps the goal from being reached (defends the chain the child could capture, captures the
    chain the child could save), and after that refutation a root read finds the goal out of the child's reach."""
    capture = goal == "capture"
    game = _copy(start)
    child = game.to_move
    if move is None:
        game.pass_move(child)
    else:
        game.play_point(move, child)
    if game.board[target] == EMPTY:
        raise _Unproven  # it captured the chain (or lost it at once): no failure to tell
    result, refutation = clock.read(game, not capture, target)
    if result != WIN or (capture and _capturable_after(game, refutation, target)):
        raise _Unproven
    if refutation is None:
        game.pass_move(3 - child)
    else:
        game.play_point(refutation, 3 - child)
    if game.board[target] == EMPTY:
        if capture:
            raise _Unproven
        return
    if clock.read(game, capture, target)[0] != LOSE:
        raise _Unproven


def _capturable_after(game: Game, defence: int | None, target: int) -> bool:
    """After the defence a root read found (``defence``, None for none needed, the defender to move in
    ``game``), can the attacker take the chain at once? The reader counts a capture that is taken straight
    back (a snapback) as none, yet the stones are gone: such a defence saves nothing."""
    owner = game.board[target]
    if defence is not None:
        game.play_point(defence, owner)
    try:
        ch = game.chain_of[target]
        if ch is None:
            return True
        if len(ch.libs) != 1:
            return False
        (lib,) = ch.libs
        return game.is_legal_point(lib, 3 - owner)
    finally:
        if defence is not None:
            game.undo()


def _still_in_atari(start: Game, p: int, target: int) -> bool:
    """After the solver's move ``p``, can the opponent capture the target chain at once?"""
    game = _copy(start)
    color = game.to_move
    game.play_point(p, color)
    ch = game.chain_of[target]
    if ch is None or len(ch.libs) != 1:
        return ch is None
    (lib,) = ch.libs
    return game.is_legal_point(lib, 3 - color)


def _position(size: int, black: list[str], white: list[str], to_play: str) -> Game:
    game = Game(size)
    if black or white:
        game.setup(black=black, white=white)
    game.to_play = to_play
    return game


class _MoveReview:
    """The questions about one move of the child (``move``, None for a pass) in ``game`` (the replay, the
    position before the move): ``start`` is the puzzle's position (the child to move), ``after`` the same after
    the move (the opponent to move); ``told`` the stones of chains found at earlier moves, not told again;
    ``quiet`` the chains whose goal could not be proven at an earlier move (see ``_quiet``)."""

    def __init__(self, game: Game, child: int, move: int | None, number: int, told: dict[str, set[int]],
                 quiet: dict[tuple, bool], clock: _Clock) -> None:
        self.game, self.child, self.move, self.number, self.told, self.clock = game, child, move, number, told, clock
        self.quiet = quiet
        self.black = [game.name(p) for p, c in enumerate(game.board) if c == BLACK]
        self.white = [game.name(p) for p, c in enumerate(game.board) if c == WHITE]
        self.start = _position(game.size, self.black, self.white, COLOR_NAMES[child])
        self.after = _copy(self.start)
        self.taken = len(self.after.play_point(move, child)) if move is not None else 0

    def candidate(self) -> _Candidate | None:
        game, child = self.game, self.child
        if game.ko >= 0 and game.ko_color == child:
            return None  # the ko ban is not part of the puzzle's position
        goal = game.rules.capture_goal
        if goal and game.captures[COLOR_NAMES[child]] + self.taken >= goal:
            return None  # the move won the capture game
        for kind, look in (("missed-capture", self.missed_capture), ("unsaved-atari", self.unsaved_atari),
                           ("self-atari", self.self_atari)):
            if self.clock.out():
                return None
            hit = look()
            if hit is not None:
                stones, goal_kind, target, judge = hit
                played = game.name(self.move) if self.move is not None else "pass"
                return _Candidate(self.number, kind, goal_kind, target, stones, judge,
                                  frozenset(game.legal_points(child)), self.black, self.white, played, self.move)
        return None

    def _quiet(self, goal: str, ch) -> tuple | None:
        """The key of a chain and of everything around it (every point within QUIET_REACH of its stones): a goal
        not proven at an earlier move, with nothing changed there since, is not read again. This only saves
        time: it can make the review miss a ladder that a far stone changed, never claim anything."""
        board, size = self.start.board, self.start.size
        near = set()
        for s in ch.stones:
            x, y = s % size, s // size
            for dx in range(-QUIET_REACH, QUIET_REACH + 1):
                span = QUIET_REACH - abs(dx)
                if 0 <= x + dx < size:
                    for dy in range(-span, span + 1):
                        if 0 <= y + dy < size:
                            near.add((y + dy) * size + x + dx)
        key = (goal, tuple(sorted(ch.stones)), tuple((p, board[p]) for p in sorted(near)))
        return None if self.quiet.get(key) else key

    def _fresh(self, chains, goal: str) -> list:
        """The chains not found already, biggest first."""
        told = self.told[goal]
        return sorted((c for c in chains if told.isdisjoint(c.stones)), key=lambda c: (-len(c.stones), min(c.stones)))

    # ------------------------------------------------------------------ the three kinds
    def missed_capture(self):
        start, child = self.start, self.child
        for ch in self._fresh((c for c in start.all_chains if c.color != child and len(c.libs) <= 2), "capture"):
            stones = len(ch.stones)
            if self.taken >= stones:
                return None  # the move captured as much (this chain among them, maybe)
            target = min(ch.stones)
            key = self._quiet("capture", ch)
            if key is None:
                continue
            try:
                judge = self._judge("capture", target)
                if not self._achievable(judge):
                    self.quiet[key] = True
                    continue
                if self._played_works(judge):
                    return None  # the move started this capture: the smaller chains are no matter
                if self._saved(stones):
                    return None
            except _Unproven:
                self.quiet[key] = True
                continue
            return stones, "capture", target, judge
        return None

    def unsaved_atari(self):
        start, child = self.start, self.child
        for ch in self._fresh((c for c in start.all_chains if c.color == child and len(c.libs) == 1), "save"):
            stones = len(ch.stones)
            if self.taken >= stones:
                return None  # a trade: the move captured as much
            target = min(ch.stones)
            try:
                judge = self._judge("save", target)
                if not self._achievable(judge):
                    continue  # lost whatever the child did
                if self._played_works(judge):
                    return None  # it saved this one, which is at least as big as the others
            except _Unproven:
                continue
            return stones, "save", target, judge
        return None

    def self_atari(self):
        start, after, child, move = self.start, self.after, self.child, self.move
        if move is None:
            return None
        joined = after.chain_of[move]
        if joined is None or len(joined.libs) != 1 or self.taken >= len(joined.stones):
            return None
        near = {id(c): c for c in (start.chain_of[q] for q in start.adjacent[move]) if c is not None}
        before = self._fresh([c for c in near.values() if c.color == child and len(c.libs) >= 2], "save")
        if not before:
            return None  # a lone stone played into atari, chains in atari already (unsaved-atari's part), or told
        ch = before[0]
        target = min(ch.stones)
        try:
            judge = self._judge("save", target)
            if not self._achievable(judge) or self._played_works(judge):
                return None
        except _Unproven:
            return None
        return len(ch.stones), "save", target, judge

    # ------------------------------------------------------------------ proofs
    def _judge(self, goal: str, target: int) -> Judge:
        return self.clock.judge(self.start, Goal(goal, (self.start.name(target),)))

    def _best(self, judge: Judge, game: Game) -> int:
        judge.limits = self.clock.limits()
        try:
            return judge.best(game)[0]
        except BudgetExceeded:
            raise _Unproven from None

    def _achievable(self, judge: Judge) -> bool:
        """Does the child, to move, achieve the goal for sure (no ko)?"""
        return self._best(judge, _copy(self.start)) == WIN

    def _played_works(self, judge: Judge) -> bool:
        """Does the move played (or the pass) achieve the goal? Unproven unless the judge is sure either way."""
        if self.move is None:
            # after a pass the opponent moves first: the goal is missed when it wins for sure
            other = _copy(self.start)
            other.to_play = COLOR_NAMES[3 - self.child]
            result = self._best(judge, other)
            if result == WIN:
                return False
            if result == LOSE:
                return True
            raise _Unproven  # a ko: no proof either way
        judge.limits = self.clock.limits()
        verdict = judge.judge([], self.start.name(self.move))
        if verdict.result in ("correct", "continue"):
            return True
        if verdict.result == "wrong" and verdict.reason != "unknown":
            return False
        raise _Unproven

    def _saved(self, stones: int) -> bool:
        """Did the move save a chain of the child's of at least ``stones`` stones that was in atari (after the
        move the opponent cannot capture it)? Unclear readings count as no."""
        if self.move is None:
            return False
        after = self.after
        for ch in self.start.all_chains:
            if ch.color != self.child or len(ch.libs) != 1 or len(ch.stones) < stones:
                continue
            try:
                if self.clock.read(after, True, ch.stones[0])[0] == LOSE:
                    return True
            except _Unproven:
                continue
        return False


def _copy(game: Game) -> Game:
    """The same stones and side to move on a fresh board (the judge keeps the puzzle's start as it is)."""
    copy = Game(game.size)
    black = [p for p, c in enumerate(game.board) if c == BLACK]
    white = [p for p, c in enumerate(game.board) if c == WHITE]
    if black or white:
        copy.setup(black=black, white=white)
    copy.to_play = game.to_play
    return copy
