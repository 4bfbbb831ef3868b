"""Endless practice: fresh puzzles from the generator, per drill and level, judged like lesson puzzles.

A practice set is (drill, level, seed): the same seed gives the same puzzles on any device, so a teacher can hand
one set to a whole class. Every answer is stored as an ``Attempt`` under its ``PracticeKey``,
``practice:<drill>:<level>:<seed>``.

A drill opens once the first lesson of its topic is learned (``DRILL_TOPICS``; ladder practice before the ladder
lesson would only teach guessing); a set a teacher gave is open whatever the map. A drill whose topic has no
lesson in this catalogue is open, and so is every drill whose topic the placement test opened the map to (a
child who already plays is not sent back to lesson one to practise). The lock is on the practice page and on drawing a fresh set; a set named by its
seed (homework, the puzzle of the day, a link a teacher shares) stays open. A set ends with a summary: how many
were solved, how many at the first try.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

import sqlalchemy as sa
from flask import Blueprint, abort, g, jsonify, redirect, render_template, request, url_for
from flask_login import current_user

from teach.lessons.practice import DRILLS, LEVELS, MAX_SEED, SET_SIZE, PracticeKey, drawn, drill_names, drill_pictures
from teach.lessons.practice.proofs import solved_judge
from teach.go.proof import Unwinnable
from teach.lessons import wholeproof
from teach.lessons.step import build_step
from teach.models import Attempt, LessonProgress, RankPlacement, utcnow
from teach.web import classroom, content, kid, messages, milestones, puzzle_help, timing
from teach.web.access import kid_required
from teach.web.board import render_board
from teach.web.extensions import db
from teach.web.moves import json_body, judge_move, new_milestones, quiz_answer, quiz_missed, quiz_right, refused

bp = Blueprint("practice", __name__, url_prefix="/practice")

DRILL_TOPICS = {"liberties": "liberties", "atari": "capture", "capture": "capture", "escape": "escape",
                "ladder": "ladder", "net": "net"}  # the lesson topic each drill practises
LEVEL_PICTURES = {1: "🌱", 2: "🌿", 3: "🌳"}  # levels grow like a plant: stars are for scores

# pages that offer a practice set (the teacher's homework form) spell its key with the one class that parses it
bp.add_app_template_global(PracticeKey, "PracticeKey")


class _Set:
    """One practice set as far as it has been drawn: its steps are drawn and proven when a page first needs
    them, so the first puzzle shows after one is made, not ten (a kid solves it while the next is drawn on
    the next page). Skipped puzzles (see ``_built``) are replaced by the next ones drawn: a set always has
    ``SET_SIZE`` steps."""

    def __init__(self, drill: str, level: int, seed: int, size: int) -> None:
        self.raw = drawn(drill, level, seed, size)
        self.size = size
        self.steps: list = []
        self.lock = threading.Lock()  # a threaded server's two requests for one set draw each step once

    def upto(self, index: int) -> list:
        """The steps up to ``index`` (at most ``SET_SIZE``), drawing those not drawn yet."""
        with self.lock:
            while len(self.steps) <= min(index, SET_SIZE - 1):
                built = _built(next(self.raw), self.size)
                if built is not None:
                    self.steps.append(built)
            return self.steps


def _built(raw: dict, size: int):
    """A drawn step typed and, for a puzzle, proven whole (answered by lookups; one too big for the budget is
    read live); None for one to skip: unfit, or a puzzle whose lines read to the end and nothing wins."""
    built, errors = build_step(raw, size, prove=False)
    if built is None or errors:
        return None
    if built.kind == "puzzle":
        try:
            judge = solved_judge(built.start(), built.goal_object())
            wholeproof.attach(built, wholeproof.PRACTICE_SECONDS, judge=judge)
        except Unwinnable:
            return None
    return built


_SETS: OrderedDict[tuple, _Set] = OrderedDict()
SETS_KEPT = 256
_SETS_LOCK = threading.Lock()


def _set(drill: str, level: int, seed: int, size: int) -> _Set:
    key = (drill, level, seed, size)
    with _SETS_LOCK:
        got = _SETS.get(key)
        if got is None:
            got = _SETS[key] = _Set(drill, level, seed, size)
            while len(_SETS) > SETS_KEPT:
                _SETS.popitem(last=False)
        _SETS.move_to_end(key)
        return got


def practice_step(drill: str, level: int, seed: int, index: int, size: int = 9):
    """Step ``index`` of a practice set (0 <= index < SET_SIZE), drawn when first asked for."""
    return _set(drill, level, seed, size).upto(index)[index]


def practice_set(drill: str, level: int, seed: int, size: int = 9) -> tuple:
    """The typed steps of one whole practice set (drawn and built once per process)."""
    return tuple(_set(drill, level, seed, size).upto(SET_SIZE - 1))


def _step_or_404(drill: str, level: int, seed: int, step: int, kind: str | None = None):
    if drill not in DRILLS or level not in LEVELS or not 0 <= seed < MAX_SEED:
        abort(404)
    if not 0 <= step < SET_SIZE:
        abort(404)
    got = practice_step(drill, level, seed, step)
    if kind is not None and got.kind != kind:
        abort(404)
    return got


def first_lessons() -> dict[str, object]:
    """Each topic's first lesson in map order (topic id -> lesson)."""
    first: dict[str, object] = {}
    for lesson in content.ordered_lessons():
        first.setdefault(lesson.topic, lesson)
    return first


_READ = object()  # open_drills: read the placement test from the database (only when a drill is still closed)


def open_drills(kid_id: int, finished_ids: set[str] | None = None, placed: str | None | object = _READ) -> list[str]:
    """The drills this kid may practise: those whose topic's first lesson is finished (or has no lesson here), and
    every drill the placement test opened the map past (``placed``: the topic it placed the kid at, as the map
    opens its lessons; read here unless given)."""
    if finished_ids is None:
        finished_ids = set(db.session.scalars(sa.select(LessonProgress.lesson_id).where(
            LessonProgress.kid_id == kid_id, LessonProgress.finished_at.is_not(None))))
    first = first_lessons()
    opened = [d for d in DRILLS if DRILL_TOPICS.get(d) not in first or first[DRILL_TOPICS[d]].id in finished_ids]
    if len(opened) == len(DRILLS):
        return opened
    if placed is _READ:
        placed = kid._placed(kid_id)
    if not placed:
        return opened
    order = {lesson.id: i for i, lesson in enumerate(content.ordered_lessons())}
    through = max((order[lesson.id] for lesson in content.ordered_lessons() if lesson.topic == placed), default=-1)
    return [d for d in DRILLS if d in opened or order[first[DRILL_TOPICS[d]].id] <= through]


def _open_or_403(drill: str) -> None:
    """A closed drill is still open for a set a teacher gave this kid."""
    if drill in open_drills(current_user.id):
        return
    if any(a.is_practice and a.practice_topic == drill for a in classroom.assignments_for(current_user)):
        return
    if request.method == "GET":  # a link or a bookmark: the practice page, where the drill says what opens it
        abort(redirect(url_for("practice.choose", _anchor=f"drill-{drill}")))
    abort(403)


@bp.get("/")
@kid_required
def choose():
    opened = open_drills(current_user.id)
    first = first_lessons()
    needs = {d: first[DRILL_TOPICS[d]] for d in DRILLS if d not in opened}
    return render_template("kid/practice_choose.html", drills=DRILLS, levels=LEVELS, pictures=drill_pictures(),
                           practice_names=drill_names(g.lang), opened=opened, level_pictures=LEVEL_PICTURES,
                           needs=needs, offer_placement=bool(needs) and _new_to_the_map(current_user.id))


def _new_to_the_map(kid_id: int) -> bool:
    """No lesson finished and no placement test taken: the map offers a child who already plays the test ("I can
    play Go already"), which opens the drills too, so the practice page with drills locked offers it as well."""
    finished = sa.select(LessonProgress.id).where(LessonProgress.kid_id == kid_id,
                                                  LessonProgress.finished_at.is_not(None)).limit(1)
    taken = sa.select(RankPlacement.id).where(RankPlacement.kid_id == kid_id)
    return db.session.scalar(finished) is None and db.session.scalar(taken) is None


@bp.get("/<drill>/<int:level>")
@kid_required
def start(drill: str, level: int):
    """A new set, or the one a teacher handed out (``?seed=``)."""
    if drill not in DRILLS or level not in LEVELS:
        abort(404)
    seed = request.args.get("seed", type=int)
    if seed is None or not 0 <= seed < MAX_SEED:
        _open_or_403(drill)  # a fresh set of a drill not opened yet; a named set (homework, a shared link) is open
        seed = secrets.randbelow(MAX_SEED)
    return redirect(url_for("practice.step", drill=drill, level=level, seed=seed, step=0))


@bp.get("/<drill>/<int:level>/<int:seed>/<int:step>")
@kid_required
def step(drill: str, level: int, seed: int, step: int):
    s = _step_or_404(drill, level, seed, step)
    game = s.position.game(getattr(s, "to_play", "black"))
    settings = kid.step_settings(None)  # the device's choices; unset, a practice board is drawn as a first level's
    board = render_board(game.board_rows(), lang=g.lang, marks=s.marks, labels=s.position.label_points,
                         playable=True, coordinates=settings["coordinates"])
    urls = {what: url_for(f"practice.{what}", drill=drill, level=level, seed=seed, step=step)
            for what in ("move", "answer", "hint", "board_hint", "show_me")}
    page = render_template("kid/step.html", lesson=None, step=s, kind=s.kind, board=board, urls=urls, frames=[],
                           level=level, index=step, total=SET_SIZE,
                           picture=drill_pictures()[drill], settings=settings,
                           skip_url=_next_url(drill, level, seed, step),
                           show_me_due=s.kind == "puzzle"
                           and puzzle_help.show_me_due(str(PracticeKey(drill, level, seed)), step))
    # noted once the page is drawn: the commit then cannot send the page back to the database for the kid
    timing.step_shown(current_user.id, str(PracticeKey(drill, level, seed)), step)
    db.session.commit()
    return page


def _next_url(drill: str, level: int, seed: int, step: int) -> str:
    if step + 1 < SET_SIZE:
        return url_for("practice.step", drill=drill, level=level, seed=seed, step=step + 1)
    return url_for("practice.summary", drill=drill, level=level, seed=seed)


@bp.post("/<drill>/<int:level>/<int:seed>/<int:step>/move")
@kid_required
def move(drill: str, level: int, seed: int, step: int):
    """One move of a practice puzzle; the same contract as a lesson puzzle's move."""
    s = _step_or_404(drill, level, seed, step, "puzzle")
    return judge_move(s, s.judge(), str(PracticeKey(drill, level, seed)), step, json_body(),
                      lambda: {"next": _next_url(drill, level, seed, step)})


@bp.post("/<drill>/<int:level>/<int:seed>/<int:step>/answer")
@kid_required
def answer(drill: str, level: int, seed: int, step: int):
    s = _step_or_404(drill, level, seed, step, "quiz")
    data = quiz_answer(s, json_body())  # only the answer's own field, bounded, is stored
    if data is None:
        return refused()
    right = quiz_right(s, data)
    key = str(PracticeKey(drill, level, seed))
    db.session.add(Attempt(kid_id=current_user.id, lesson_id=key, step=step,
                           moves=[{"answer": data, "verdict": "correct" if right else "wrong"}],
                           result="solved" if right else "failed", finished_at=utcnow()))
    if right:
        found = new_milestones(milestones.Answer(s, key))  # the answer and its stickers in one commit
        db.session.commit()
        return jsonify(result="correct", message=messages.quiz_right(s, g.lang),
                       next=_next_url(drill, level, seed, step), milestones=found)
    db.session.commit()
    return jsonify(quiz_missed(s, data, g.lang))


@bp.post("/<drill>/<int:level>/<int:seed>/<int:step>/hint")
@kid_required
def hint(drill: str, level: int, seed: int, step: int):
    s = _step_or_404(drill, level, seed, step)
    return jsonify(hint=s.hint.get(g.lang) if s.hint else messages.no_hint())


@bp.post("/<drill>/<int:level>/<int:seed>/<int:step>/board-hint")
@kid_required
def board_hint(drill: str, level: int, seed: int, step: int):
    s = _step_or_404(drill, level, seed, step, "puzzle")
    return puzzle_help.hint_answer(s, str(PracticeKey(drill, level, seed)), step)


@bp.post("/<drill>/<int:level>/<int:seed>/<int:step>/show-me")
@kid_required
def show_me(drill: str, level: int, seed: int, step: int):
    s = _step_or_404(drill, level, seed, step, "puzzle")
    return puzzle_help.show_me_answer(s, s.judge(), str(PracticeKey(drill, level, seed)), step,
                                      next_url=_next_url(drill, level, seed, step))


@bp.get("/<drill>/<int:level>/<int:seed>/done")
@kid_required
def summary(drill: str, level: int, seed: int):
    """The end of a set: each puzzle solved or not, and at the first try or not (one query)."""
    if drill not in DRILLS or level not in LEVELS or not 0 <= seed < MAX_SEED:
        abort(404)
    steps = practice_set(drill, level, seed)
    tries = db.session.execute(sa.select(Attempt.step, Attempt.result, Attempt.hints).where(
        Attempt.kid_id == current_user.id, Attempt.lesson_id == str(PracticeKey(drill, level, seed)),
        Attempt.result.in_(("solved", "failed"))).order_by(Attempt.id)).all()
    first: dict[int, bool] = {}
    solved: set[int] = set()
    watched: set[int] = set()  # the answer was shown before the puzzle was solved
    for index, result, hints in tries:
        first.setdefault(index, result == "solved")
        if hints and index not in solved:
            watched.add(index)
        if result == "solved":
            solved.add(index)
    marks = ["first" if first.get(i) else ("shown" if i in watched else "solved") if i in solved else "missed"
             for i in range(len(steps))]
    return render_template("kid/practice_summary.html", drill=drill, level=level, marks=marks,
                           solved=len(solved), first_try=sum(1 for m in marks if m == "first"), total=len(steps),
                           shown=sum(1 for m in marks if m == "shown"),
                           name=drill_names(g.lang)[drill], picture=drill_pictures()[drill],
                           level_picture=LEVEL_PICTURES[level])
