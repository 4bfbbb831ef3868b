"""Help that never leaves a child stuck on a puzzle.

After two misses the board itself hints: the stones the puzzle is about pulse and their liberties light up
(``board_hint``). After three, "show me" plays the answer move by move (``solution_line``): the line is the
judge's own — its best move for the kid, the computer's reply to it, and so on until the goal is reached — so it is
right for any puzzle, a teacher's or a generated one, and never a list typed in by hand. Then the board goes back
to the start and the child plays it themselves: the puzzle is solved by the child's moves, not by the button.

A miss is a finished attempt that failed (``Attempt.result == "failed"``), counted on the server, so "show me"
is there only for a child who really tried; a move that works but brings the goal no nearer ("slow") counts too,
for as long as the session lasts: a child who keeps playing those has not found the way either.
"""

from __future__ import annotations

import time
import weakref

import sqlalchemy as sa
from flask import g, jsonify
from flask_babel import gettext as _
from flask_login import current_user

from teach.go import Game
from teach.go.judge import GoalError
from teach.go.reading import LOSE, BudgetExceeded
from teach.models import Attempt
from teach.web.board import replay
from teach.web.extensions import db
from teach.web.moves import slow_moves

MISSES_FOR_BOARD_HINT = 2
MISSES_FOR_SHOW_ME = 3
LONGEST_LINE = 12  # the kid's moves "show me" plays at most; a lesson or practice puzzle needs far fewer
SHORT_LINE = 3  # the shortest line is searched for up to this many of the kid's moves
SEARCH_SECONDS = 2.0  # the search for the shortest line; then the line that presses hardest, or the reader's
LINE_SECONDS = 10.0  # the whole answer: past it (a judge call is not cut short) the page says "let's try another"
_lines: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # judge -> its lines, worked out once a process


def _note_watched(key: str, step: int) -> None:
    """The answer was shown: the kid's latest try at this puzzle keeps it as a hint (``Attempt.hints``), so a
    solve after watching is told from one found alone (the practice summary, the teacher's export)."""
    latest = db.session.scalar(sa.select(Attempt).where(
        Attempt.kid_id == current_user.id, Attempt.lesson_id == key, Attempt.step == step)
        .order_by(Attempt.id.desc()).limit(1))
    if latest is not None:
        latest.hints = (latest.hints or 0) + 1


def misses(key: str, step: int) -> int:
    """How many times this kid has missed this puzzle (failed attempts, on any device), and played a move that
    works but does not bring the goal nearer (``moves.note_slow``: in this session)."""
    return (db.session.scalar(sa.select(sa.func.count(Attempt.id)).where(
        Attempt.kid_id == current_user.id, Attempt.lesson_id == key, Attempt.step == step,
        Attempt.result == "failed")) or 0) + slow_moves(key, step)


def show_me_due(key: str, step: int) -> bool:
    """Whether the page shows "show me" from the start: missed often enough already (a reload, another day)."""
    return misses(key, step) >= MISSES_FOR_SHOW_ME


def board_hint(puzzle) -> dict:
    """The stones the puzzle is about and their liberties, at the start position (GTP names)."""
    start = puzzle.start()
    stones: set[str] = set()
    liberties: set[str] = set()
    for target in puzzle.targets:
        stones.update(start.chain_at(target))
        liberties.update(start.liberties(target))
    return {"stones": sorted(stones), "liberties": sorted(liberties)}


def solution_line(judge, start: Game, targets: tuple[str, ...] = (), seconds: float = SEARCH_SECONDS,
                  line_seconds: float = LINE_SECONDS) -> list[dict] | None:
    """The answer as the judge plays it: a list of {"move", "rows", "reply", "reply_rows"} from the start until
    the goal is reached, or None when the judge cannot give one within its budget (the page then says
    "let's try another" — never that the computer gave up).

    The shortest line is looked for first (iterative deepening over the judge's own move and the targets'
    liberties, for ``seconds``): the reader's move keeps a win but may take the long way round, and a child shown
    the answer should see the plain one. Then the line that presses the targets hardest, then the reader's own,
    all within ``line_seconds``. A line found is kept for the judge's lifetime; running out of time is not kept
    (a busy moment must not hide the answer for good)."""
    cache = _lines.setdefault(judge, {})
    key = tuple(targets)
    if key in cache:
        return cache[key]
    began = time.monotonic()
    try:
        moves = _shortest(judge, start, targets, began + seconds) \
            or _forcing_line(judge, start, targets, began + line_seconds) \
            or _readers_line(judge, start, began + line_seconds)
    except _OutOfTime:
        return None
    except (BudgetExceeded, GoalError):
        moves = None
    found = None if moves is None else _pictures(start, moves)
    cache[key] = found
    return found


class _OutOfTime(Exception):
    pass


def _shortest(judge, start: Game, targets: tuple[str, ...], deadline: float) -> list[tuple] | None:
    """The kid's moves and the computer's replies of a shortest winning line, or None (none within the time)."""

    def search(line: list[str], depth: int) -> list[tuple] | None:
        if time.monotonic() > deadline:
            raise _OutOfTime
        game, whole = replay(start, line)
        if not whole:
            return None
        for move in _candidates(judge, game, targets):
            verdict = judge.judge(line, move)
            if verdict.result == "correct":
                return [(move, None)]
            if depth > 1 and verdict.result not in ("wrong", "illegal") and verdict.reply:
                rest = search(line + [move, verdict.reply], depth - 1)
                if rest is not None:
                    return [(move, verdict.reply)] + rest
        return None

    try:
        for depth in range(1, SHORT_LINE + 1):
            found = search([], depth)
            if found is not None:
                return found
    except _OutOfTime:
        return None
    return None


def _candidates(judge, game: Game, targets: tuple[str, ...]) -> list[str]:
    """The reader's move for the side to move, then the targets' liberties."""
    names = []
    result, best = judge.best(game)
    if best is not None and result != LOSE:
        names.append(game.name(best))
    for t in targets:
        if game.color_at(t) is not None:
            names += [n for n in game.liberties(t) if n not in names]
    return names


def _ataris(start: Game, line: list[str], targets: tuple[str, ...]) -> bool:
    """Whether the last move of ``line`` leaves a target in atari."""
    game, whole = replay(start, line)
    return whole and any(game.color_at(t) is not None and len(game.liberties(t)) == 1 for t in targets)


def _target_liberties(game: Game, targets: tuple[str, ...]) -> int:
    return min((len(game.liberties(t)) for t in targets if game.color_at(t) is not None), default=0)


def _forcing_line(judge, start: Game, targets: tuple[str, ...], deadline: float) -> list[tuple] | None:
    """A line that presses hardest: at each turn the move that wins at once, else the winning move after which
    (and the computer's reply) a target has the fewest liberties — how a ladder or a chase is shown to a child."""
    line: list[str] = []
    moves: list[tuple] = []
    for _move in range(LONGEST_LINE):
        if time.monotonic() > deadline:
            raise _OutOfTime
        game, whole = replay(start, line)
        if not whole:
            return None
        choice = None
        for move in _candidates(judge, game, targets):
            verdict = judge.judge(line, move)
            if verdict.result == "correct":
                return moves + [(move, None)]
            if verdict.result in ("wrong", "illegal") or not verdict.reply:
                continue
            after, whole = replay(start, line + [move, verdict.reply])
            pressure = _target_liberties(after, targets) if whole else 99
            if choice is None or pressure < choice[0]:
                choice = (pressure, move, verdict.reply)
            if _ataris(start, line + [move], targets):
                # a winning atari presses as hard as any move short of a capture, and judging the other
                # candidates (a wrong atari in a ladder: the reader proves the runner escapes) took seconds
                break
        if choice is None:
            return None
        moves.append(choice[1:])
        line += [choice[1], choice[2]]
    return None


def _readers_line(judge, start: Game, deadline: float) -> list[tuple] | None:
    """The reader's own line: its best move for the kid, the computer's reply, until the goal is reached."""
    line: list[str] = []
    moves: list[tuple] = []
    for _move in range(LONGEST_LINE):
        if time.monotonic() > deadline:
            raise _OutOfTime
        game, whole = replay(start, line)
        if not whole:
            return None
        result, best = judge.best(game)
        if best is None or result == LOSE:
            return None
        move = game.name(best)
        verdict = judge.judge(line, move)
        if verdict.result == "correct":
            return moves + [(move, None)]
        if verdict.result in ("wrong", "illegal") or not verdict.reply:
            return None
        moves.append((move, verdict.reply))
        line += [move, verdict.reply]
    return None


def _pictures(start: Game, moves: list[tuple]) -> list[dict]:
    shown, line = [], []
    for move, reply in moves:
        line.append(move)
        entry = {"move": move, "rows": _rows(start, line), "reply": reply, "reply_rows": None}
        if reply:
            line.append(reply)
            entry["reply_rows"] = _rows(start, line)
        shown.append(entry)
    return shown


def _rows(start: Game, moves: list[str]) -> list[str]:
    return replay(start, moves)[0].board_rows()


# ---------------------------------------------------------------------- the answers the pages send
def hint_answer(puzzle, key: str, step: int):
    """POST …/board-hint: the marks for the board once the kid has missed twice (before that, nothing)."""
    n = misses(key, step)
    body = {"misses": n, "show_me": n >= MISSES_FOR_SHOW_ME}
    if n >= MISSES_FOR_BOARD_HINT:
        body.update(board_hint(puzzle))
        body["message"] = _("Look at the stones that are shaking, and at their roads!")
    return jsonify(body)


def show_me_answer(puzzle, judge, key: str, step: int, next_url: str | None = None, shown=None):
    """POST …/show-me: the answer line once the kid has missed three times. ``shown()`` notes the help (a hint for
    the lesson's stars)."""
    if misses(key, step) < MISSES_FOR_SHOW_ME:
        return jsonify(result="not-yet", message=_("Try a little more first. You can do it!")), 409
    line = solution_line(judge, puzzle.start(), tuple(puzzle.targets))
    if line is None:
        return jsonify(result="another", message=_("Let's try another one!"), next=next_url)
    _note_watched(key, step)
    if shown is not None:
        shown()
    db.session.commit()
    return jsonify(result="line", line=line, lang=g.lang, message=_("Watch carefully…"),
                   after=_("Now you try! Play it just like that."))
