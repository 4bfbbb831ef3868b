"""The puzzle-move contract every kid page that judges answers shares (lesson steps, practice, and games next):
read the JSON body, judge a move in the line on record, check a quiz answer, and find the milestone stickers a
right answer reached. Pages supply what is theirs (the key the attempt is stored under, what comes next)."""

from __future__ import annotations

from threading import Lock
from weakref import WeakKeyDictionary

import sqlalchemy as sa
from flask import abort, g, jsonify, request, session
from flask_login import current_user

from flask_babel import gettext as _
from flask_babel import ngettext

from teach.go import Game
from teach.go.coords import point_names
from teach.go.judge import GoalError
from teach.models import Attempt, utcnow
from teach.web import content, deep_read, messages, milestones
from teach.web.board import LineBoards
from teach.web.extensions import db
from teach.web.pictures import glyph
from teach.web.security import ID_MAX

# what a kid page may send, and nothing else: the attempt keeps only what the judge read (and a first move's tap
# id), each field bounded, so a body stuffed with extra data is refused instead of stored (and exported, and shown)
MOVE_FIELDS = frozenset({"move", "attempt", "ply", "tap"})
TAP_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")  # a first move's tap id, made by the page
ANSWER_FIELDS = frozenset({"points", "yes", "choice", "number"})
MAX_PLY = 2 * 19 * 19  # more moves than a puzzle line can have
MAX_CHOICE = 99  # a multiple-choice quiz has a handful of choices
MAX_NUMBER = 10_000  # counting quizzes count stones and points of one board


def json_body() -> dict:
    """The request's JSON object, or an empty one (a body that is not an object answers nothing)."""
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else {}


def line_of(attempt: Attempt) -> list[str]:
    """A try's line as played: each of the kid's moves and the computer's reply to it."""
    return [m for entry in attempt.moves for m in (entry["move"], entry.get("reply")) if m]


def refused():
    """The answer to a body that is not what the page sends: a 400 with words the board shows to the kid."""
    message = _("That did not work. Please reload the page and try again.")
    return jsonify(result="error", reason="bad-request", message=message), 400


def _small_int(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def judge_move(puzzle, judge, key: str, step: int, data: dict, solved, failed=None):
    """The move contract of every puzzle page (lessons and practice): judge the kid's move in the line on record,
    store it in the attempt under ``key``/``step``, and answer with both boards and the kid-language message.
    ``solved()`` returns what the page needs next; ``failed()`` notes a mistake. A move the judge could not finish
    reading (``thinking``) or one that keeps the win without bringing it nearer (``slow``) is no move of the line:
    nothing is stored and no mistake noted; the answer carries the board with the stone (``rows``) and without it
    (``back_rows``), and the page takes the stone back — or, for a move read again in the background
    (``deep_read``), keeps it and asks again after ``retry`` ms. A first move carries the page's ``tap`` id, kept
    with it, so the same first move sent again (its answer lost) is answered from the record, not stored twice."""
    tap = data.get("tap")
    if not data.keys() <= MOVE_FIELDS or not (data.get("attempt") is None or _small_int(data["attempt"], 1, ID_MAX)) \
            or not (data.get("ply") is None or _small_int(data["ply"], 0, MAX_PLY)) \
            or not (tap is None or isinstance(tap, str) and 8 <= len(tap) <= 32 and set(tap) <= TAP_CHARS):
        return refused()
    point = data.get("move")
    boards = boards_of(puzzle, judge)
    if not _on_board(boards.start, point):
        return jsonify(result="illegal", reason="off-board", message=messages.illegal("off-board")), 400
    point = point.strip().upper()
    attempt = _open_attempt(key, step, data.get("attempt"))
    if attempt is None and tap is not None:
        sent = db.session.scalar(LATEST_ATTEMPT, {"kid_id": current_user.id, "key": key, "step": step})
        if sent is not None and sent.moves and sent.moves[0].get("tap") == tap:
            # this first move sent again (its answer was lost on the way, and the page sent it once more): the
            # move is on record, once; the page carries on from the record, or from the start once it is over
            on_record = line_of(sent)
            over = sent.result != "open"
            return jsonify(result="stale", attempt=None if over else sent.id,
                           rows=boards.after([] if over else on_record), ply=0 if over else len(on_record),
                           message=messages.stale()), 409
    played = line_of(attempt) if attempt else []
    ply = data.get("ply")
    if attempt is not None and ply is not None and ply != len(played):
        # the same tap sent twice, or a second tab: answer with what is already on record
        return jsonify(result="stale", attempt=attempt.id, rows=boards.after(played), ply=len(played),
                       message=messages.stale()), 409
    try:
        verdict = deep_read.settled(judge, played, point) or judge.judge(played, point)
    except GoalError:
        return jsonify(result="illegal", reason="off-board", message=messages.illegal("off-board")), 400
    if verdict.result == "illegal":
        return jsonify(result="illegal", reason=verdict.reason, message=messages.illegal(verdict.reason))
    if verdict.reason == "unknown":
        # read again on a larger budget meanwhile: the page shows the computer thinking and asks again
        if deep_read.later(judge, played, point):
            return _not_a_move(boards, played, point, attempt, "working", retry=deep_read.RETRY_MS)
        return _not_a_move(boards, played, point, attempt, "thinking")
    if verdict.result == "slow":
        note_slow(key, step)
        return _not_a_move(boards, played, point, attempt, "slow")
    if attempt is None:
        attempt = Attempt(kid_id=current_user.id, lesson_id=key, step=step, moves=[], first_move=point)
        db.session.add(attempt)
    entry = {"move": point, "verdict": verdict.result, "reason": verdict.reason, "reply": verdict.reply}
    if tap is not None and not played:
        entry["tap"] = tap  # a first move's tap id: the same tap sent again is known (see above)
    attempt.moves = attempt.moves + [entry]
    after_move, after_reply = boards.after_move_and_reply(played + [point], verdict.reply)
    body = {"result": verdict.result, "reason": verdict.reason, "reply": verdict.reply, "attempt": None,
            "rows": after_move, "reply_rows": after_reply if verdict.reply else None}
    if verdict.result == "correct":
        attempt.result = "solved"
        attempt.finished_at = utcnow()
        body["message"] = messages.success(puzzle, g.lang, verdict.ko)
        body.update(solved())
        body["milestones"] = new_milestones(milestones.Answer(puzzle, key, bool(body.get("finished"))))
    elif verdict.result == "wrong":
        attempt.result = "failed"
        attempt.finished_at = utcnow()
        if failed is not None:
            failed()
        body["message"] = messages.wrong(puzzle, verdict.reason, g.lang,
                                         taken=bool(verdict.reply) and _taken(boards.start, puzzle, after_reply),
                                         stopped=bool(played) and _away_from_the_chase(judge, played, point))
    else:
        body["message"] = messages.keep_going(verdict.ko)
    if verdict.result == "continue":
        db.session.flush()  # the attempt's id goes back to the page; otherwise the commit writes everything at once
        body["attempt"] = attempt.id
        body["ply"] = len(played) + 1 + (1 if verdict.reply else 0)
    db.session.commit()
    return jsonify(body)


# Answers that are not a move of the line: the stone is shown, then taken back, and the child taps again.
# Nothing is stored (no move, no miss): "thinking" is the judge running out of its budget, which a child must never
# hear as the computer giving up, and "slow" is a move that keeps the win but brings it no nearer.
NOT_A_MOVE = {
    "working": lambda: _("Hmm, let me think about that…"),  # the page asks again by itself (``retry``)
    "thinking": lambda: _("Let me think about that… tap again."),
    "slow": lambda: _("That works too, but there is a better move. Find it!"),
}


def note_slow(key: str, step: int) -> None:
    """A move that keeps the win without bringing it nearer is no miss, but a child who keeps playing such moves
    has not found the way: they count towards the help (``puzzle_help.misses``). Kept in the session for the
    puzzle at hand only (a number, not a record: nothing is stored of a move that is no move of the line)."""
    session["slow"] = [key, step, min(slow_moves(key, step) + 1, 99)]


def slow_moves(key: str, step: int) -> int:
    """How many such moves this session has played at this puzzle (0 for any other puzzle)."""
    seen = session.get("slow")
    return seen[2] if isinstance(seen, list) and len(seen) == 3 and seen[:2] == [key, step] else 0


def _not_a_move(boards: LineBoards, played: list[str], point: str, attempt: Attempt | None, kind: str,
                retry: int | None = None):
    """``kind``: "slow", "thinking", or "working" (a thinking answer the page asks for again after ``retry`` ms)."""
    back = boards.after(played)
    shown = boards.after(played + [point])  # the stone to show before it goes back
    return jsonify(result="slow" if kind == "slow" else "thinking", reason=None, reply=None, rows=shown,
                   back_rows=back, attempt=attempt.id if attempt is not None else None, ply=len(played),
                   message=NOT_A_MOVE[kind](), retry=retry)


def _taken(start: Game, puzzle, rows: list[str]) -> bool:
    """Whether the computer's reply took stones of the kid's that the puzzle is about (a target of the kid's
    colour empty on the board after the reply): the words then say they were caught, as the board shows, not
    that they "can be caught now"."""
    size = start.size
    for target in getattr(puzzle, "targets", ()) or ():
        try:
            index = start.point(target)
        except ValueError:
            continue
        if start.board[index] == start.to_move and rows[size - 1 - index // size][index % size] == ".":
            return True
    return False


def _away_from_the_chase(judge, played: list[str], point: str) -> bool:
    """Is ``point`` more than two points (across or diagonally) from every stone and liberty of the target chains,
    in the position the line had reached? In the middle of a chase, such a move is no move of it."""
    try:
        game = judge._replay(played)
        p = game.require_point(point)
    except (GoalError, ValueError):
        return False
    size = game.size
    near = set()
    for t in getattr(judge, "targets", ()):
        chain = game.chain_of[t]
        if chain is not None:
            near.update(chain.stones)
            near.update(chain.libs)
    if not near:
        return False
    row, col = divmod(p, size)
    return all(max(abs(q // size - row), abs(q % size - col)) > 2 for q in near)


def _on_board(game: Game, point) -> bool:
    """A point of this board (a kid's puzzle move is never a pass)."""
    if not isinstance(point, str) or len(point) > 4:
        return False
    try:
        return game.point(point.strip()) is not None
    except ValueError:
        return False


# built once (a statement kept keeps its compiled form and cache key): a line's every move after the first asks it
OPEN_ATTEMPT = sa.select(Attempt).where(Attempt.id == sa.bindparam("id"))
LATEST_ATTEMPT = sa.select(Attempt).where(Attempt.kid_id == sa.bindparam("kid_id"),
                                          Attempt.lesson_id == sa.bindparam("key"),
                                          Attempt.step == sa.bindparam("step")).order_by(Attempt.id.desc()).limit(1)


def _open_attempt(key: str, step: int, attempt_id) -> Attempt | None:
    if attempt_id is None:
        return None
    attempt = db.session.scalar(OPEN_ATTEMPT, {"id": attempt_id})
    if attempt is None or attempt.kid_id != current_user.id or attempt.lesson_id != key \
            or attempt.step != step or attempt.result != "open":
        abort(404)
    return attempt


# the boards of each puzzle's lines, kept as long as the puzzle's judge (shared by every request in this process)
_boards: WeakKeyDictionary = WeakKeyDictionary()
_boards_lock = Lock()


def boards_of(puzzle, judge) -> LineBoards:
    """The start position of the puzzle ``judge`` judges, and the boards after its lines. A judge reads one
    start position, its puzzle's, so the boards are kept with it: a puzzle whose judge lives (every lesson
    puzzle's, for the life of the process) replays a line once, not once per move."""
    try:
        found = _boards.get(judge)
    except TypeError:  # a judge that cannot be a weak key: its boards for this request only
        return LineBoards(puzzle.start())
    if found is None:
        with _boards_lock:
            found = _boards.get(judge)
            if found is None:
                found = _boards[judge] = LineBoards(puzzle.start())
    return found


def quiz_answer(quiz, data: dict) -> dict | None:
    """The one field of a quiz answer this quiz asks for, checked and normalised as it is stored:
    {"points": [...]} (points of the board, each once, sorted) for tap quizzes, {"yes": bool}, {"choice": "black"
    or "white"} or {"choice": i}, {"number": n}; None for a body that is no answer to this quiz."""
    if len(data) != 1 or not data.keys() <= ANSWER_FIELDS:
        return None
    ask = quiz.ask
    if ask in ("liberties", "forbidden", "tap", "atari"):
        points = data.get("points")
        names = set(point_names(quiz.position.size)) if quiz.position is not None else set()
        if not isinstance(points, list) or len(points) > len(names) \
                or not all(isinstance(p, str) and len(p) <= 4 and p.strip().upper() in names for p in points):
            return None
        return {"points": sorted({p.strip().upper() for p in points})}
    if ask == "legal":
        yes = data.get("yes")
        return {"yes": yes} if isinstance(yes, bool) else None
    if ask == "winner":
        who = data.get("choice")
        return {"choice": who} if who in ("black", "white") else None
    if ask == "count":
        n = data.get("number")
        if isinstance(n, float) and n.is_integer():
            n = int(n)
        return {"number": n} if _small_int(n, -MAX_NUMBER, MAX_NUMBER) or (
            isinstance(n, float) and abs(n) <= MAX_NUMBER) else None
    if ask == "choice":
        i = data.get("choice")
        return {"choice": i} if _small_int(i, 0, MAX_CHOICE) else None
    return None


def quiz_right(quiz, answer: dict) -> bool:
    """Whether a quiz answer (as ``quiz_answer`` returned it) is right."""
    ask = quiz.ask
    if ask in ("liberties", "forbidden", "tap", "atari"):
        chosen = set(answer["points"])
        if ask == "atari":
            return len(chosen) == 1 and chosen <= set(quiz.answers)
        return chosen == set(quiz.answers)
    if ask == "legal":
        return answer["yes"] == bool(quiz.answer)
    if ask == "count":
        return float(answer["number"]) == float(quiz.answer)
    return answer["choice"] == quiz.answer


def quiz_missed(quiz, answer: dict, lang: str) -> dict:
    """The answer to a wrong quiz answer: more than "have another look". A tap quiz says what is wrong with the
    points tapped (the ones that are not right come back, for the board to mark; or how many are still to find);
    any quiz adds its hint when it has one."""
    body: dict = {"result": "wrong"}
    words = messages.quiz_wrong(quiz.ask)
    if quiz.ask in ("liberties", "forbidden", "tap"):
        chosen, right = set(answer["points"]), set(quiz.answers)
        body["not_right"] = sorted(chosen - right)
        if body["not_right"]:
            words = ngettext("Not quite: the point marked ✗ is not one of them.",
                             "Not quite: the points marked ✗ are not among them.", len(body["not_right"]))
        elif right - chosen:
            words = ngettext("Almost! %(num)d more to find.", "Almost! %(num)d more to find.", len(right - chosen))
    hint = quiz.hint.get(lang) if getattr(quiz, "hint", None) else None
    body["message"] = f"{words} {hint}" if hint else words
    return body


def new_milestones(answer: milestones.Answer) -> list[dict]:
    """Milestone stickers reached with this right answer (awarded once), for the page to celebrate."""
    return [{"id": m.id, "picture": m.picture, "glyph": glyph(m.picture), "name": m.get(g.lang)}
            for m in milestones.award(current_user.id, content.catalog(), answer, session)]
