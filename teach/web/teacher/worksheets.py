"""Worksheets to print: puzzles picked by topic from board pictures, drawn for paper, with an answer key on its
own page. Each puzzle is numbered once, by the sheet (the lists are not numbered lists)."""

from __future__ import annotations

import re

import sqlalchemy as sa
from flask import abort, g, render_template, request
from flask_babel import gettext as _
from flask_login import current_user

from teach.models import TeacherLesson
from teach.web import classroom, content
from teach.web.access import teacher_required
from teach.web.board import render_board
from teach.web.extensions import db

from . import bp
from .scope import OwnTopic

WORKSHEET_MAX = 24  # puzzles on one sheet


def _all_puzzles():
    """Every puzzle a sheet may hold, by key: the map's (``lesson:step``), then the teacher's own lessons', drafts
    too (``own:<stored lesson>:<step>``), under a topic of their own."""
    for lesson in content.ordered_lessons():
        for i, s in enumerate(lesson.steps):
            if s.kind == "puzzle":
                yield f"{lesson.id}:{i}", lesson, i, s
    for stored in db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id == current_user.id)
                                     .order_by(TeacherLesson.created_at, TeacherLesson.id)):
        lesson = classroom.typed_lesson(stored)
        for i, s in enumerate(lesson.steps if lesson is not None else ()):
            if s.kind == "puzzle":
                yield f"own:{stored.id}:{i}", _Own(lesson), i, s


class _Own:
    """A teacher's own lesson on the picker: its title, under the tab of the teacher's own puzzles."""

    topic = OwnTopic.id

    def __init__(self, lesson) -> None:
        self.title = lesson.title


def _answers(puzzle) -> list[str]:
    if puzzle.answers:
        return list(puzzle.answers)
    if puzzle.winning:
        return sorted(puzzle.winning)
    return sorted(m for m, how in puzzle.judge().solve().winning.items())


def _picture(puzzle):
    return render_board(puzzle.start().board_rows(), lang=g.lang, marks=puzzle.marks,
                        labels=puzzle.position.label_points)


# how a puzzle's own words say who plays first ("黑先吃掉白子", "White to play and live"): the sheet then does
# not say it a second time before them
_SIDE_WORDS = re.compile(r"[黑白]先|[黑白]棋先|\b(black|white) (to play|plays|first|moves first)\b", re.I)


def names_side(text: str) -> bool:
    return bool(_SIDE_WORDS.search(text or ""))


@bp.get("/worksheet")
@teacher_required
def worksheet():
    """Pick puzzles (``?p=lesson:step``, repeated) and print them, with an answer key on its own page. The picker
    shows one topic at a time (``?topic=``) with a picture of every puzzle; the ones picked in other topics ride
    along in the form."""
    chosen = list(dict.fromkeys(request.args.getlist("p")))[:WORKSHEET_MAX]
    every = list(_all_puzzles())
    by_key = {key: (lesson, i, s) for key, lesson, i, s in every}
    if any(key not in by_key for key in chosen):
        abort(404)
    topic = request.args.get("all")
    if topic is not None:  # "tick all of this topic": its puzzles join the ones ticked, up to a sheet's worth
        chosen = list(dict.fromkeys(chosen + [key for key, lesson, _i, _s in every if lesson.topic == topic]))
        return _picker(every, chosen[:WORKSHEET_MAX], topic=topic)
    if not chosen or ("topic" in request.args and "make" not in request.args):
        # "make" with nothing ticked: the picker again, saying what to do (not the same page without a word)
        return _picker(every, chosen, nothing_picked="make" in request.args and not chosen)
    sheet = []
    for n, key in enumerate(chosen, 1):
        lesson, i, s = by_key[key]
        sheet.append({"n": n, "key": key, "lesson": lesson, "puzzle": s, "answers": _answers(s), "board": _picture(s),
                      "names_side": names_side(s.text.get(g.lang) if s.text else "")})
    return render_template("teacher/worksheet.html", sheet=sheet)


def _picker(every, chosen: list[str], nothing_picked: bool = False, topic: str | None = None):
    topics = [t for t in [*content.catalog().topics, OwnTopic(_("My own lessons"))]  # as the own-lessons page
              if any(lesson.topic == t.id for _k, lesson, _i, _s in every)]
    wanted = topic or request.args.get("topic")
    topic = next((t for t in topics if t.id == wanted), topics[0] if topics else None)
    counts = {t.id: sum(1 for _k, lesson, _i, _s in every if lesson.topic == t.id) for t in topics}
    shown = [{"key": key, "lesson": lesson, "n": i + 1, "puzzle": s, "board": _picture(s)}
             for key, lesson, i, s in every if topic is not None and lesson.topic == topic.id]
    shown_keys = {p["key"] for p in shown}
    return render_template("teacher/worksheet_pick.html", topics=topics, topic=topic, counts=counts, shown=shown,
                           chosen=chosen, carried=[k for k in chosen if k not in shown_keys], most=WORKSHEET_MAX,
                           nothing_picked=nothing_picked)
