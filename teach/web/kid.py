"""The kid's side: the lesson map, the lesson player (every move judged by the reader), stars and stickers.

A puzzle move goes to the server, the judge answers, and every move with its verdict is stored in an ``Attempt``,
so progress is the same on any device and teachers see which wrong moves a class plays.
"""

from __future__ import annotations

from typing import NoReturn

import sqlalchemy as sa
from flask import (Blueprint, abort, current_app, g, jsonify, make_response, redirect, render_template, request,
                   send_from_directory, url_for)
from flask_babel import gettext as _
from flask_login import current_user

from teach.go import Game
from teach.lessons.practice import SET_SIZE, drill_names, drill_pictures
from teach.models import Assignment, Attempt, LessonProgress, Membership, StickerAward, utcnow
from teach.web import classroom, content, daily, messages, milestones, puzzle_help, timing
from teach.web.access import kid_required
from teach.web.board import render_board
from teach.web.extensions import db
from teach.web.moves import json_body, judge_move, new_milestones, quiz_answer, quiz_missed, quiz_right, refused
from teach.web.pictures import choice_pictures, glyph

bp = Blueprint("kid", __name__, url_prefix="/learn")
FIRST_LEVELS = 2  # lessons of these levels are for pre-readers: read aloud by themselves, boards without letters
SETTINGS = ("narrate", "coordinates")  # what the grown-ups' panel of the lesson player sets, for this kid


def step_settings(level: int | None) -> dict[str, bool]:
    """This kid's lesson player: what a grown-up chose for this kid (stored on the kid's account, so a classroom
    tablet shared by many kids reads aloud for one and not for the next); a choice not made follows the lesson's
    level: narration on and coordinates off for the first levels."""
    young = (level or 1) <= FIRST_LEVELS
    defaults = {"narrate": young, "coordinates": not young}
    return {name: defaults[name] if getattr(current_user, name) is None else bool(getattr(current_user, name))
            for name in SETTINGS}


@bp.post("/settings")
@kid_required
def settings():
    """The grown-ups' panel: {"narrate": true/false} and/or {"coordinates": true/false}; null forgets the choice
    (the level decides again). Anything else is refused, and nothing is changed."""
    data = json_body()
    if not data or not data.keys() <= set(SETTINGS) or not all(v is None or isinstance(v, bool) for v in data.values()):
        return refused()
    for name, value in data.items():
        setattr(current_user, name, value)
    db.session.commit()
    return jsonify(result="saved", **{name: getattr(current_user, name) for name in SETTINGS})


# ---------------------------------------------------------------------- progress
def _progress_rows() -> dict[str, LessonProgress]:
    rows = db.session.scalars(sa.select(LessonProgress).where(LessonProgress.kid_id == current_user.id))
    return {p.lesson_id: p for p in rows}


def _last_placed(lessons, placed: str | None) -> int:
    """The index of the last lesson of the topic the placement test placed the kid at (-1: none)."""
    return max((i for i, lesson in enumerate(lessons) if lesson.topic == placed), default=-1) if placed else -1


def _placed_ids(lessons, placed: str | None) -> set[str]:
    """The lessons the placement test opened (all up to the placed topic's last)."""
    return {lesson.id for lesson in lessons[:_last_placed(lessons, placed) + 1]}


def _next_lesson(lessons, homework, unlocked: set[str], progress: dict, placed: str | None) -> str | None:
    """The map's "Next!": homework first, then the first open lesson not finished — past the lessons the
    placement test opened that the kid has not started (a child who already plays is not sent back to the
    board's first lesson), unless nothing is left after them."""
    def open_and_not_done(lesson) -> bool:
        p = progress.get(lesson.id)
        return lesson.id in unlocked and not (p is not None and p.finished_at is not None)

    known = _placed_ids(lessons, placed) - progress.keys()
    for group in (homework, [l for l in lessons if l.id not in known], lessons):
        found = next((l.id for l in group if open_and_not_done(l)), None)
        if found is not None:
            return found
    return None


def _unlocked(lessons, progress, placed: str | None = None) -> set[str]:
    """The first lesson, every lesson started or finished, and the one after each finished lesson; with a
    placement test taken (``placed``: the topic it placed the kid at), every lesson up to that topic's last."""
    open_ids = set()
    previous_done = True
    last_placed = _last_placed(lessons, placed)
    for i, lesson in enumerate(lessons):
        p = progress.get(lesson.id)
        if previous_done or p is not None or i <= last_placed:
            open_ids.add(lesson.id)
        previous_done = (p is not None and p.finished_at is not None) or i <= last_placed
    return open_ids


def _placed(kid_id: int | None = None) -> str | None:
    """The topic this kid's (the signed-in kid's by default) placement test opened the map up to (None: not taken,
    or the first puzzle missed)."""
    from teach.web import rank

    return rank.placed_of(current_user.id if kid_id is None else kid_id)


def _assigned() -> dict[str, object]:
    """The lessons this kid's teachers assigned (lesson id -> earliest due day); they are open whatever the map."""
    rows = db.session.scalars(sa.select(Assignment).join(Membership, Membership.group_id == Assignment.group_id)
                              .where(Membership.user_id == current_user.id, Membership.role == "kid")
                              .order_by(Assignment.due_on))
    due: dict[str, object] = {}
    for a in rows:
        if a.for_kid(current_user.id):
            due.setdefault(a.lesson_id, a.due_on)
    return due


def _lesson_or_404(lesson_id: str):
    lesson = content.catalog().lessons.get(lesson_id) or classroom.class_lesson(current_user.id, lesson_id)
    if lesson is None:
        abort(404)
    return lesson


def _open_lesson_or_404(lesson_id: str):
    """The lesson if it is open to this kid. A lesson the kid has started is open: its progress row is read here
    (and kept for ``_progress_for``), and only a lesson not started yet needs the whole map to decide."""
    lesson = _lesson_or_404(lesson_id)
    row = _stored_progress(lesson.id)
    if row is None and lesson.id in content.catalog().lessons \
            and lesson.id not in _unlocked(content.ordered_lessons(), _progress_rows(), _placed()) \
            and lesson.id not in _assigned():  # the class's own lessons are open to the class
        _locked(lesson)
    return lesson


def _locked(lesson) -> NoReturn:
    """A lesson the kid cannot open yet. A page (a tap on a locked card of the map, a link from practice) says which
    lesson opens it — the last open one before it on the map — read aloud, with the way there: never "this page is
    not for you". Anything else (a move, an answer) gets the plain 403."""
    if request.method != "GET":
        abort(403)
    lessons = content.ordered_lessons()
    unlocked = _unlocked(lessons, _progress_rows(), _placed())
    ids = [l.id for l in lessons]
    before = next((l for l in reversed(lessons[:ids.index(lesson.id)]) if l.id in unlocked), None) \
        if lesson.id in ids else None
    abort(make_response(render_template("kid/locked.html", lesson=lesson, before=before), 403))


# built once: every kid request asks it, and a statement kept keeps its compiled form and cache key
PROGRESS_ROW = sa.select(LessonProgress).where(LessonProgress.kid_id == sa.bindparam("kid_id"),
                                               LessonProgress.lesson_id == sa.bindparam("lesson_id"))


def _stored_progress(lesson_id: str) -> LessonProgress | None:
    rows = g.setdefault("kid_progress", {})
    if lesson_id not in rows:
        rows[lesson_id] = db.session.scalar(PROGRESS_ROW, {"kid_id": current_user.id, "lesson_id": lesson_id})
    return rows[lesson_id]


def _progress_for(lesson) -> LessonProgress:
    """The kid's progress row for the lesson, made on first use."""
    p = _stored_progress(lesson.id)
    if p is None:
        p = LessonProgress(kid_id=current_user.id, lesson_id=lesson.id, step=0, stars=0)
        db.session.add(p)
        try:
            db.session.flush()
        except sa.exc.IntegrityError:  # two tabs opened the lesson at once: the other one's row
            db.session.rollback()
            del g.kid_progress[lesson.id]
            return _stored_progress(lesson.id)
        g.kid_progress[lesson.id] = p
    return p


# ---------------------------------------------------------------------- pages
@bp.get("/")
@kid_required
def lesson_map():
    lessons = content.ordered_lessons()
    progress = _progress_rows()
    assigned = _assigned()
    goal = daily.for_map(current_user.id, progress)  # its one query also brings the placement test's answers
    own = {l.id: l for l in classroom.class_lessons(current_user.id)}  # the class's own: open to its kids
    known = {**own, **content.catalog().lessons}
    unlocked = _unlocked(lessons, progress, goal["placed_through"]) | (assigned.keys() & known.keys())
    homework = [known[i] for i in assigned if i in known]
    next_id = _next_lesson(lessons, homework, unlocked, progress, goal["placed_through"])
    return render_template("kid/map.html", topics=content.catalog().topics, progress=progress,
                           unlocked=unlocked, next_id=next_id, homework=homework, assigned=assigned,
                           class_lessons=[l for l in own.values() if l.id not in assigned],
                           practice_homework=_practice_homework(), today=timing.today(), **goal)


def _practice_homework() -> list[dict]:
    """Practice sets this kid's teachers gave (earliest due first), with how many of their puzzles are solved."""
    sets = {a.lesson_id: a for a in reversed(classroom.assignments_for(current_user)) if a.is_practice}
    if not sets:
        return []
    solved = dict(db.session.execute(
        sa.select(Attempt.lesson_id, sa.func.count(sa.distinct(Attempt.step)))
        .where(Attempt.kid_id == current_user.id, Attempt.lesson_id.in_(list(sets)), Attempt.result == "solved")
        .group_by(Attempt.lesson_id)).all())
    names, pictures = drill_names(g.lang), drill_pictures()
    return [{"assignment": a, "name": names[a.practice_topic], "picture": pictures.get(a.practice_topic, ""),
             "solved": solved.get(key, 0), "total": SET_SIZE}
            for key, a in sorted(sets.items(), key=lambda x: (x[1].due_on, x[1].id))]


@bp.get("/sw.js")
def service_worker():
    """The offline helper, served from /learn/ so that it looks after the kid's pages (a worker's reach is the
    folder it is served from); never cached by the browser, so a new version is picked up at once."""
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/stickers")
@kid_required
def stickers():
    awards = db.session.scalars(sa.select(StickerAward).where(StickerAward.kid_id == current_user.id)
                                .order_by(StickerAward.awarded_at)).all()
    catalog = content.catalog()
    sticker = classroom.sticker_lookup(current_user.id, catalog)  # the class's own lessons' stickers too
    mine = [sticker(a.sticker_id) for a in awards]
    held = {a.sticker_id for a in awards}
    own = [l.sticker for l in classroom.class_lessons(current_user.id)]
    missing = [s for s in [*milestones.all_stickers(catalog), *own] if s.id not in held]
    return render_template("kid/stickers.html", mine=mine, missing=missing)


@bp.get("/<lesson_id>")
@kid_required
def lesson(lesson_id: str):
    lesson = _open_lesson_or_404(lesson_id)
    p = _progress_for(lesson)
    step = p.step if p.finished_at is None else 0
    if step == 0:  # a fresh start or a replay: stars count this run's slips only
        p.mistakes = p.hints = 0
    db.session.commit()
    return redirect(url_for("kid.step", lesson_id=lesson.id, step=min(step, len(lesson.steps) - 1)))


@bp.get("/<lesson_id>/<int:step>")
@kid_required
def step(lesson_id: str, step: int):
    lesson = _open_lesson_or_404(lesson_id)
    if not 0 <= step < len(lesson.steps):
        abort(404)
    p = _progress_for(lesson)
    if p.finished_at is None and step > p.step:
        return redirect(url_for("kid.step", lesson_id=lesson.id, step=p.step))
    timing.step_shown(current_user.id, lesson.id, step)
    db.session.commit()
    s = lesson.steps[step]
    kind = s.kind
    board = None
    frames = []
    settings = step_settings(getattr(lesson, "level", None))
    if s.position is not None:
        to_play = getattr(s, "to_play", "black")
        game = s.position.game(to_play)
        board = render_board(game.board_rows(), lang=g.lang, marks=s.marks, labels=s.position.label_points,
                             playable=kind in ("puzzle", "quiz"), coordinates=settings["coordinates"])
        if kind == "demo":
            frames = _demo_frames(game, s)
    urls = {what: url_for(f"kid.{what}", lesson_id=lesson.id, step=step)
            for what in ("move", "answer", "hint", "board_hint", "show_me")}
    pictures = choice_pictures(s.choices) if kind == "quiz" and s.ask == "choice" else []
    return render_template("kid/step.html", lesson=lesson, step=s, index=step, kind=kind, board=board,
                           frames=frames, total=len(lesson.steps), progress=p, urls=urls, settings=settings,
                           choice_pictures=pictures,
                           show_me_due=kind == "puzzle" and puzzle_help.show_me_due(lesson.id, step))


def _demo_frames(game: Game, demo) -> list[dict]:
    frames = []
    for m in demo.moves:
        captured = game.play(m.move)
        frames.append({"move": m.move, "rows": game.board_rows(), "captured": captured,
                       "say": m.say.get(g.lang) if m.say else ""})
    return frames


# ---------------------------------------------------------------------- playing
def _step_or_404(lesson, step: int, kinds: tuple[str, ...]):
    """The step, if it is of one of ``kinds`` and the kid has reached it: a lesson is done in order until it is
    finished (then any step may be played again). An answer to a step further on is refused with the way to the
    step the kid is at — it finished a lesson, stars and sticker included, from one post to its last step."""
    if not 0 <= step < len(lesson.steps):
        abort(404)
    s = lesson.steps[step]
    if s.kind not in kinds:
        abort(404)
    progress = _stored_progress(lesson.id)
    reached = 0 if progress is None else len(lesson.steps) if progress.finished_at is not None else progress.step
    if step > reached:
        here = url_for("kid.step", lesson_id=lesson.id, step=reached)
        if "explain" in kinds:  # "go on" from an explain or demo step is a form: back to the page
            abort(redirect(here))
        abort(make_response(jsonify(result="error", reason="not-reached", next=here,
                                    message=_("That did not work. Please reload the page and try again.")), 409))
    return s


def _one_more(column):
    """``column + 1`` as the database computes it: two answers at once both count (read, add one, write back
    lost one of them)."""
    return sa.func.coalesce(column, 0) + 1


@bp.post("/<lesson_id>/<int:step>/move")
@kid_required
def move(lesson_id: str, step: int):
    """Judge one move of a puzzle. Body: {"move": "D4", "attempt": id or null, "ply": moves the page has seen}."""
    lesson = _open_lesson_or_404(lesson_id)
    puzzle = _step_or_404(lesson, step, ("puzzle",))
    judge = content.judge_for(lesson.id, step) if lesson.id in content.catalog().lessons else puzzle.judge()

    def solved() -> dict:
        return _advance(lesson, _progress_for(lesson), step)

    def failed() -> None:
        _progress_for(lesson).mistakes = _one_more(LessonProgress.mistakes)

    return judge_move(puzzle, judge, lesson.id, step, json_body(), solved, failed)


@bp.post("/<lesson_id>/<int:step>/hint")
@kid_required
def hint(lesson_id: str, step: int):
    lesson = _open_lesson_or_404(lesson_id)
    s = _step_or_404(lesson, step, ("puzzle", "quiz"))
    _progress_for(lesson).hints = _one_more(LessonProgress.hints)
    db.session.commit()
    return jsonify(hint=s.hint.get(g.lang) if s.hint else messages.no_hint())


# ---------------------------------------------------------------------- help (teach/web/puzzle_help.py)
def _lesson_judge(lesson, step: int, puzzle):
    return content.judge_for(lesson.id, step) if lesson.id in content.catalog().lessons else puzzle.judge()


@bp.post("/<lesson_id>/<int:step>/board-hint")
@kid_required
def board_hint(lesson_id: str, step: int):
    lesson = _open_lesson_or_404(lesson_id)
    return puzzle_help.hint_answer(_step_or_404(lesson, step, ("puzzle",)), lesson.id, step)


@bp.post("/<lesson_id>/<int:step>/show-me")
@kid_required
def show_me(lesson_id: str, step: int):
    lesson = _open_lesson_or_404(lesson_id)
    puzzle = _step_or_404(lesson, step, ("puzzle",))

    def shown() -> None:  # seeing the answer counts as a hint for the lesson's stars
        _progress_for(lesson).hints = _one_more(LessonProgress.hints)

    return puzzle_help.show_me_answer(puzzle, _lesson_judge(lesson, step, puzzle), lesson.id, step, shown=shown)


@bp.post("/<lesson_id>/<int:step>/answer")
@kid_required
def answer(lesson_id: str, step: int):
    """A quiz answer: {"points": [...]} for tap quizzes, {"choice": i}, {"yes": bool} or {"number": n}."""
    lesson = _open_lesson_or_404(lesson_id)
    quiz = _step_or_404(lesson, step, ("quiz",))
    data = quiz_answer(quiz, json_body())  # only the answer's own field, bounded, is stored
    if data is None:
        return refused()
    right = quiz_right(quiz, data)
    progress = _progress_for(lesson)
    attempt = Attempt(kid_id=current_user.id, lesson_id=lesson.id, step=step,
                      moves=[{"answer": data, "verdict": "correct" if right else "wrong"}],
                      result="solved" if right else "failed", finished_at=utcnow())
    db.session.add(attempt)
    body = {"result": "correct" if right else "wrong"}
    if right:
        body["message"] = messages.quiz_right(quiz, g.lang)
        body.update(_advance(lesson, progress, step))
        body["milestones"] = new_milestones(milestones.Answer(quiz, lesson.id, bool(body.get("finished"))))
    else:
        progress.mistakes = _one_more(LessonProgress.mistakes)
        body = quiz_missed(quiz, data, g.lang)
    db.session.commit()
    return jsonify(body)


@bp.post("/<lesson_id>/<int:step>/next")
@kid_required
def next_step(lesson_id: str, step: int):
    """Explain and demo steps: the kid has seen it, go on."""
    lesson = _open_lesson_or_404(lesson_id)
    _step_or_404(lesson, step, ("explain", "demo"))
    body = _advance(lesson, _progress_for(lesson), step)
    db.session.commit()
    return redirect(body["next"])


def _advance(lesson, progress: LessonProgress, step: int) -> dict:
    """Move the kid past ``step``; at the end of the lesson give stars and the sticker (exactly once)."""
    if progress.finished_at is None and step >= progress.step:
        progress.step = step + 1
    if step + 1 < len(lesson.steps):
        return {"next": url_for("kid.step", lesson_id=lesson.id, step=step + 1)}
    stars = _stars(lesson, progress)
    progress.stars = max(progress.stars or 0, stars)
    if progress.finished_at is None:
        progress.finished_at = utcnow()
    progress.step = 0
    sticker_new = _award(lesson.sticker.id)
    return {"next": url_for("kid.lesson_map"), "finished": True, "stars": stars, "sticker_new": sticker_new,
            "sticker": {"id": lesson.sticker.id, "picture": lesson.sticker.picture,
                        "glyph": glyph(lesson.sticker.picture), "name": lesson.sticker.name.get(g.lang)}}


def _stars(lesson, progress: LessonProgress) -> int:
    """3 stars with no mistake and no hint; 2 with a few (up to a third of the puzzles); 1 for finishing."""
    tasks = sum(1 for s in lesson.steps if s.kind in ("puzzle", "quiz"))
    slips = (progress.mistakes or 0) + (progress.hints or 0)
    if slips == 0:
        return 3
    return 2 if slips <= max(1, tasks // 3) else 1


def _award(sticker_id: str) -> bool:
    """Insert the sticker unless the kid has it; the unique constraint settles double clicks and two tabs."""
    exists = db.session.scalar(sa.select(StickerAward.id).where(StickerAward.kid_id == current_user.id,
                                                                StickerAward.sticker_id == sticker_id))
    if exists is not None:
        return False
    try:
        with db.session.begin_nested():
            db.session.add(StickerAward(kid_id=current_user.id, sticker_id=sticker_id))
    except sa.exc.IntegrityError:
        return False
    return True
