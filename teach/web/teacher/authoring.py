"""The teacher's own lessons: an uploaded lesson file, or a puzzle made from an SGF position and a goal. The lesson
checker runs on either before it is kept (``teach.lessons.check_text``; the SGF puzzle is made by
``teach.lessons.authoring``); the teacher sees its errors, the classes of the teacher play what is kept."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.go.judge import GOALS
from teach.lessons import authoring, check_text
from teach.models import Membership, TeacherLesson
from teach.web import classroom, content
from teach.web.access import teacher_required
from teach.web.board import render_board
from teach.web.extensions import db

from . import bp
from .forms import GOAL_LABELS, UPLOAD_MAX, LessonUploadForm, SgfProblemForm, sgf_problem_message


# ---------------------------------------------------------------------- a lesson file
@bp.route("/lessons", methods=["GET", "POST"])
@teacher_required
def own_lessons():
    """Upload a lesson file: the lesson checker runs on it, its errors are shown, only a clean file is kept."""
    errors: list = []
    if request.method == "POST":
        errors = _check_upload(LessonUploadForm().lesson.data)
        if not errors:
            return redirect(url_for("teacher.own_lessons"))
    mine = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id == current_user.id)
                              .order_by(TeacherLesson.created_at)).all()
    return render_template("teacher/lessons.html", mine=mine, errors=errors), (422 if errors else 200)


def _check_upload(upload) -> list[dict]:
    """Every error of the uploaded file, each with its file name and line (empty when it is checked and saved)."""
    if upload is None:
        return [{"file": "", "line": 0, "message": _("Choose a lesson file (.yaml) to upload.")}]
    filename = Path(upload.filename).name[:200]
    data = upload.stream.read(UPLOAD_MAX + 1)
    if len(data) > UPLOAD_MAX:
        return [{"file": filename, "line": 0, "message": _("That file is too big (at most %(n)d KB).",
                                                           n=UPLOAD_MAX // 1024)}]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        return [{"file": filename, "line": 0, "message": _("That is not a text file. Upload a lesson in YAML.")}]
    lesson, errors, _count = check_text(data, filename)
    found = [{"file": filename, "line": e.line, "column": e.column, "message": e.message} for e in errors]
    if lesson is not None and not found:
        if content.catalog().topic(lesson.topic) is None:
            found.append({"file": filename, "line": 0, "message": _("There is no topic “%(topic)s”.",
                                                                    topic=lesson.topic)})
        elif lesson.id in content.catalog().lessons or db.session.scalar(sa.select(TeacherLesson.id).where(
                TeacherLesson.owner_id == current_user.id, TeacherLesson.lesson_id == lesson.id)) is not None:
            found.append({"file": filename, "line": 0, "message": _("A lesson with the id “%(id)s” exists already.",
                                                                    id=lesson.id)})
    if lesson is None and not found:
        found.append({"file": filename, "line": 0, "message": _("This is not a lesson file.")})
    if found:
        return found
    db.session.add(TeacherLesson(owner_id=current_user.id, lesson_id=lesson.id, filename=filename, source=text))
    db.session.commit()
    flash(_("The lesson “%(title)s” checked out and is saved.", title=lesson.title.get(g.lang)), "ok")
    return []


def _own_lesson_or_404(lesson_pk: int, owner_only: bool = False) -> TeacherLesson:
    """A lesson file of this teacher, or (to look at) of a teacher who shares a class with them."""
    mine = sa.select(Membership.group_id).where(Membership.user_id == current_user.id, Membership.role == "teacher")
    colleagues = sa.select(Membership.user_id).where(Membership.group_id.in_(mine), Membership.role == "teacher")
    found = db.session.get(TeacherLesson, lesson_pk)
    if found is None or (found.owner_id != current_user.id and (owner_only or db.session.scalar(
            sa.select(sa.literal(True)).where(sa.literal(found.owner_id).in_(colleagues))) is None)):
        abort(404)
    return found


@bp.get("/lessons/<int:lesson_pk>")
@teacher_required
def own_lesson(lesson_pk: int):
    stored = _own_lesson_or_404(lesson_pk)
    lesson = classroom.typed_lesson(stored)
    if lesson is None:
        abort(404)
    steps = []
    for s in lesson.steps:
        text = getattr(s, "text", None) or getattr(s, "question", None)
        board = None
        if s.position is not None:
            board = render_board(s.position.game(getattr(s, "to_play", "black")).board_rows(), lang=g.lang,
                                 marks=s.marks, labels=s.position.label_points)
        steps.append({"kind": s.kind, "text": text.get(g.lang) if text else "", "board": board})
    return render_template("teacher/own_lesson.html", stored=stored, lesson=lesson, steps=steps)


@bp.post("/lessons/<int:lesson_pk>/delete")
@teacher_required
def delete_own_lesson(lesson_pk: int):
    db.session.delete(_own_lesson_or_404(lesson_pk, owner_only=True))
    db.session.commit()
    return redirect(url_for("teacher.own_lessons"))


# ---------------------------------------------------------------------- a puzzle from an SGF
@bp.route("/sgf", methods=["GET", "POST"])
@teacher_required
def sgf_problem():
    """Upload an SGF position with a goal, target and instruction: the reader proves the puzzle before it is kept,
    as a one-puzzle lesson of the teacher's own that their classes can play."""
    errors: list[str] = []
    form = SgfProblemForm()
    if request.method == "POST":
        errors = _check_sgf_problem(form)
        if not errors:
            return redirect(url_for("teacher.own_lessons"))
    return render_template("teacher/sgf.html", goals=GOALS, goal_labels=GOAL_LABELS, topics=content.catalog().topics,
                           errors=errors, form=form), (422 if errors else 200)


def _check_sgf_problem(form: SgfProblemForm) -> list[str]:
    """Every problem with the upload and the form (empty when the puzzle is proven and saved)."""
    errors = form.problems()
    if form.root is None:
        return errors
    setup, problems = authoring.setup_of(form.root)
    errors += [sgf_problem_message(p) for p in problems]
    if errors:
        return errors
    lesson_id = authoring.new_lesson_id(current_user.id)
    lesson, source, lesson_errors = authoring.sgf_puzzle(
        setup, lesson_id, form.topic.data, form.goal.data, form.targets, form.instruction, form.titles)
    if lesson is None:
        return [e.message for e in lesson_errors] or [_("The reader could not prove this puzzle.")]
    filename = Path(form.sgf.data.filename).name[:200]
    db.session.add(TeacherLesson(owner_id=current_user.id, lesson_id=lesson_id, filename=filename, source=source))
    db.session.commit()
    flash(_("The puzzle “%(title)s” checked out and is saved.", title=lesson.title.get(g.lang)), "ok")
    return []
