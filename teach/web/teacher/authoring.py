"""The teacher's own lessons: an uploaded lesson file, or a puzzle made from an SGF position and a goal.

The page runs the quick checks (size, text, YAML and SGF syntax, the lesson schema) and answers at once; the
reader's proof, which can take long, is queued (``teach.web.proofs``) and runs outside the request with one
deadline, and the teacher follows it on the job's page. Only a lesson that checks out is kept; the classes of the
teacher play it."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from flask import abort, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user

from teach.go.judge import GOALS
from teach.lessons import authoring, check_text
from teach.models import Assignment, Group, Membership, ProofJob, TeacherLesson, TeacherLessonClass, utcnow
from teach.web import classroom, content, milestones, proofs
from teach.web.access import teacher_required
from teach.web.board import render_board
from teach.web.errors import render_error
from teach.web.extensions import db

from . import bp
from .scope import ask_first, confirmed
from .checker_words import lesson_message
from .forms import GOAL_LABELS, UPLOAD_MAX, LessonUploadForm, SgfProblemForm, sgf_problem_message

RECENT_JOBS = 10  # uploads listed on the own-lessons page


# ---------------------------------------------------------------------- a lesson file
@bp.route("/lessons", methods=["GET", "POST"])
@teacher_required
def own_lessons():
    """Upload a lesson file: the quick checks answer at once, the proof is queued, only a clean file is kept."""
    errors: list = []
    status = 200
    if request.method == "POST":
        errors, job = _queue_upload(LessonUploadForm().lesson.data)
        if job is not None:
            return redirect(url_for("teacher.proof_job", job_id=job.id))
        status = 429 if errors and errors[0].get("busy") else 422
    mine = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id == current_user.id)
                              .order_by(TeacherLesson.created_at)).all()
    jobs = db.session.scalars(sa.select(ProofJob).where(ProofJob.owner_id == current_user.id)
                              .order_by(ProofJob.id.desc()).limit(RECENT_JOBS)).all()
    return render_template("teacher/lessons.html", mine=mine, jobs=jobs, errors=errors,
                           published_to=_published_to([l.id for l in mine]), typed=classroom.typed_lesson), \
        (status if errors else 200)


def _published_to(lesson_pks: list[int]) -> dict[int, list[str]]:
    """The names of the classes each of these lessons is published to (one query)."""
    found: dict[int, list[str]] = {}
    if lesson_pks:
        for pk, name in db.session.execute(
                sa.select(TeacherLessonClass.lesson_pk, Group.name).join(Group, Group.id == TeacherLessonClass.group_id)
                .where(TeacherLessonClass.lesson_pk.in_(lesson_pks)).order_by(Group.name, Group.id)):
            found.setdefault(pk, []).append(name)
    return found


def _queue_upload(upload) -> tuple[list[dict], ProofJob | None]:
    """(every error the quick checks find, each with its file name and line; the queued job when there is none)."""
    if upload is None:
        return [{"file": "", "line": 0, "message": _("Choose a lesson file (.yaml) to upload.")}], None
    filename = Path(upload.filename or "").name[:200]
    data = upload.stream.read(UPLOAD_MAX + 1)
    if len(data) > UPLOAD_MAX:
        return [{"file": filename, "line": 0, "message": _("That file is too big (at most %(n)d KB).",
                                                           n=UPLOAD_MAX // 1024)}], None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        return [{"file": filename, "line": 0, "message": _("That is not a text file. Upload a lesson in YAML.")}], None
    lesson, errors, _count = check_text(data, filename, prove=False)  # the proof is queued
    found = [{"file": filename, "line": e.line, "column": e.column, "message": lesson_message(e.message)}
             for e in errors]
    if lesson is not None and not found:
        if content.catalog().topic(lesson.topic) is None:
            found.append({"file": filename, "line": 0, "message": _("There is no topic “%(topic)s”.",
                                                                    topic=lesson.topic)})
        elif lesson.id in content.catalog().lessons or db.session.scalar(sa.select(TeacherLesson.id).where(
                TeacherLesson.lesson_id == lesson.id)) is not None:
            # any teacher's: two lessons of one id in a class would share the kids' progress and homework
            found.append({"file": filename, "line": 0, "message": _("A lesson with the id “%(id)s” exists already.",
                                                                    id=lesson.id)})
        elif lesson.sticker.id in milestones.taken_sticker_ids(content.catalog()):
            found.append({"file": filename, "line": 0, "message": _(
                "The sticker id “%(id)s” is a sticker of the map already: give your lesson's sticker an id of its "
                "own.", id=lesson.sticker.id)})
    if lesson is None and not found:
        found.append({"file": filename, "line": 0, "message": _("This is not a lesson file.")})
    if found:
        return found, None
    job = proofs.submit(current_user.id, "lesson", filename, text)
    if job is None:
        return [{"file": filename, "line": 0, "busy": True, "message": _busy()}], None
    return [], job


@bp.errorhandler(413)
def upload_too_big(_e):
    """A teacher's upload over the request limit is refused before its form reads it: the answer is the file
    limit the form would have given, not "too much to send at once". Only a form that carries a file (multipart)
    is an upload: any other teacher form over the limit gets the general answer."""
    if request.mimetype != "multipart/form-data":
        return render_error(413)
    return render_error(413, _("That file is too big (at most %(n)d KB).", n=UPLOAD_MAX // 1024) + " "
                        + _("Please go back and choose a smaller file."))


def _busy() -> str:
    return _("You have %(n)d uploads waiting to be checked already: wait for your earlier uploads, then try again.",
             n=proofs.setting("PROOF_QUEUE_PER_TEACHER"))


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
        hint = getattr(s, "hint", None)
        steps.append({"kind": s.kind, "text": text.get(g.lang) if text else "", "board": board,
                      "hint": hint.get(g.lang) if hint else "", "goal": GOAL_LABELS.get(getattr(s, "goal", ""), "")})
    puzzles = [s for s in lesson.steps if s.kind == "puzzle"]
    copyable = len(puzzles) == 1 and puzzles[0].position is not None \
        and puzzles[0].position.size in authoring.BOARD_SIZES  # the editor opens it (``?copy=``) to change
    # the classes of this teacher's that have it: how each did, step by step (on a phone, where the dashboard's
    # grid with the other map links is hidden, this is the way to them)
    mine = sa.select(Membership.group_id).where(Membership.user_id == current_user.id, Membership.role == "teacher")
    classes = db.session.execute(sa.select(Group.id, Group.name).join(
        TeacherLessonClass, TeacherLessonClass.group_id == Group.id).where(
        TeacherLessonClass.lesson_pk == stored.id, Group.id.in_(mine)).order_by(Group.name)).all()
    return render_template("teacher/own_lesson.html", stored=stored, lesson=lesson, steps=steps, copyable=copyable,
                           classes=classes)


@bp.post("/lessons/<int:lesson_pk>/delete")
@teacher_required
def delete_own_lesson(lesson_pk: int):
    """Asks first: a published lesson is on kids' maps, and a deleted one cannot be brought back."""
    stored = _own_lesson_or_404(lesson_pk, owner_only=True)
    if not confirmed():
        lesson = classroom.typed_lesson(stored)
        title = lesson.title.get(g.lang) if lesson is not None else stored.filename
        classes = db.session.scalar(sa.select(sa.func.count()).select_from(TeacherLessonClass)
                                    .where(TeacherLessonClass.lesson_pk == stored.id)) or 0
        if classes:
            text = ngettext("“%(title)s” is published to %(num)d class: its kids will no longer find it on their "
                            "map, nor as homework.", "“%(title)s” is published to %(num)d classes: their kids will "
                            "no longer find it on their map, nor as homework.", classes, title=title)
        else:
            text = _("“%(title)s” is a draft: no kid sees it yet.", title=title)
        return ask_first(_("Delete this lesson?"), text + " " + _("This cannot be undone."), _("Delete"),
                         url_for("teacher.own_lesson", lesson_pk=stored.id))
    classes = list(db.session.scalars(sa.select(TeacherLessonClass.group_id).where(
        TeacherLessonClass.lesson_pk == stored.id)))
    db.session.delete(stored)
    db.session.flush()
    for group_id in classes:  # the homework it was goes with it (a class's own lesson of the same id stays)
        if stored.lesson_id not in classroom.group_lessons(group_id):
            db.session.execute(sa.delete(Assignment).where(Assignment.group_id == group_id,
                                                           Assignment.lesson_id == stored.lesson_id))
    db.session.commit()
    return redirect(url_for("teacher.own_lessons"))


# ---------------------------------------------------------------------- a puzzle from an SGF
@bp.route("/sgf", methods=["GET", "POST"])
@teacher_required
def sgf_problem():
    """Upload an SGF position with a goal, target and instruction: the quick checks answer at once, the reader's
    proof is queued, and a proven puzzle is kept as a one-puzzle lesson of the teacher's own for their classes."""
    errors: list[str] = []
    status = 422
    form = SgfProblemForm()
    if request.method == "POST":
        errors, job = _queue_sgf_problem(form)
        if job is not None:
            return redirect(url_for("teacher.proof_job", job_id=job.id))
        if errors == [_busy()]:
            status = 429
    return render_template("teacher/sgf.html", goals=GOALS, goal_labels=GOAL_LABELS, topics=content.catalog().topics,
                           errors=errors, form=form), (status if errors else 200)


def _queue_sgf_problem(form: SgfProblemForm) -> tuple[list[str], ProofJob | None]:
    """(every problem the quick checks find with the upload and the form; the queued job when there is none)."""
    errors = form.problems()
    if form.root is None:
        return errors, None
    setup, problems = authoring.setup_of(form.root)
    errors += [sgf_problem_message(p) for p in problems]
    if errors:
        return errors, None
    lesson_id = authoring.new_lesson_id(current_user.id)
    lesson, _source, lesson_errors = authoring.sgf_puzzle(
        setup, lesson_id, form.topic.data, form.goal.data, form.targets, form.instruction, form.titles, prove=False,
        hint=form.hint)
    if lesson is None:
        words = [lesson_message(e.message) for e in lesson_errors]
        return words or [_("The reader could not prove this puzzle.")], None
    fields = {"setup": {"sgf": setup.sgf, "size": setup.size, "to_play": setup.to_play}, "lesson_id": lesson_id,
              "topic": form.topic.data, "goal": form.goal.data, "targets": form.targets, "text": form.instruction,
              "title": form.titles, "hint": form.hint}
    job = proofs.submit(current_user.id, "sgf", Path(form.sgf.data.filename or "").name[:200], setup.sgf, fields)
    if job is None:
        return [_busy()], None
    return [], job


# ---------------------------------------------------------------------- an upload being proven
@bp.get("/proofs/<int:job_id>")
@teacher_required
def proof_job(job_id: int):
    """Where an upload is: waiting (its place in the queue), being proven (seconds so far), or the answer. The
    page reloads itself while the proof is pending (a meta refresh: the pages allow no inline script)."""
    job = db.session.get(ProofJob, job_id)
    if job is None or job.owner_id != current_user.id:
        abort(404)
    if job.pending:
        proofs.ensure_runner()  # after a restart, or when this process's runner is idle
    position = proofs.queue_position(job) if job.status == "queued" else 0
    elapsed = int((utcnow() - job.started_at).total_seconds()) if job.status == "running" else 0
    result = dict(job.result or {})
    result["errors"] = [{**e, "message": lesson_message(e.get("message", ""))} for e in result.get("errors") or []]
    title = (result.get("title") or {}).get(g.lang, "")
    return render_template("teacher/proof_job.html", job=job, result=result, title=title, position=position,
                           elapsed=max(0, elapsed), deadline=int(proofs.setting("PROOF_DEADLINE_SECONDS")))
