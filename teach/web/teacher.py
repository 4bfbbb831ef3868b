"""The teacher's side: classes and their kids, assignments, the class dashboard, the mistake map, kid details,
worksheets, a CSV of progress and the teacher's own lesson files.

Every page checks that the teacher teaches the class, and that the kid, attempt or assignment belongs to that
class; anything else is a 404, so nothing tells a teacher whether another class's kid exists.
"""

from __future__ import annotations

import csv
import io
import re
import secrets
import tempfile
from datetime import date
from pathlib import Path

import sqlalchemy as sa
import yaml
from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from teach.models import (Assignment, Attempt, Group, Membership, ParentLink, TeacherLesson, User, new_code,
                          utcnow)
from teach.web import classroom, content, messages
from teach.web.board import render_board, rows_after
from teach.web.access import teacher_required
from teach.web.extensions import db

bp = Blueprint("teacher", __name__, url_prefix="/teach")
UPLOAD_MAX = 64 * 1024  # bytes of one uploaded lesson file
WORKSHEET_MAX = 24



def _class_or_404(class_id: int) -> Group:
    return classroom.own_group_or_404(class_id, "class", "teacher")


def _kid_or_404(group: Group, kid_id: int) -> User:
    kid = db.session.scalar(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "kid", User.id == kid_id))
    if kid is None:
        abort(404)
    return kid


def _my_classes(archived: bool | None = None) -> list[Group]:
    q = sa.select(Group).join(Membership).where(Group.kind == "class", Membership.user_id == current_user.id,
                                                Membership.role == "teacher").order_by(Group.name, Group.id)
    if archived is not None:
        q = q.where(Group.archived.is_(archived))
    return list(db.session.scalars(q))


def _clean_name(raw: str | None) -> str:
    return " ".join((raw or "").split())[:80]


# ---------------------------------------------------------------------- classes
@bp.get("/")
@teacher_required
def classes():
    return render_template("teacher/classes.html", active=_my_classes(False), archived=_my_classes(True))


@bp.post("/classes")
@teacher_required
def create_class():
    name = _clean_name(request.form.get("name"))
    if not name:
        flash(_("Give the class a name."), "error")
        return redirect(url_for("teacher.classes"))
    group = Group(kind="class", name=name)
    group.members.append(Membership(user=current_user, role="teacher"))
    db.session.add(group)
    db.session.commit()
    return redirect(url_for("teacher.class_page", class_id=group.id))


@bp.get("/classes/<int:class_id>")
@teacher_required
def class_page(class_id: int):
    group = _class_or_404(class_id)
    teachers = db.session.scalars(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "teacher").order_by(User.name)).all()
    assignments = db.session.scalars(sa.select(Assignment).where(Assignment.group_id == group.id)
                                     .order_by(Assignment.due_on, Assignment.id)).all()
    own = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id.in_([t.id for t in teachers]))
                             .order_by(TeacherLesson.created_at)).all()
    return render_template("teacher/class.html", group=group, kids=classroom.class_kids(group.id),
                           archived_kids=classroom.class_kids(group.id, archived=True), teachers=teachers,
                           assignments=assignments, catalog=content.catalog(), own_lessons=own,
                           other_classes=[c for c in _my_classes(False) if c.id != group.id],
                           today=date.today(), now=utcnow(), **_practice_choices())


def _practice_choices() -> dict:
    from teach.lessons.practice import LEVELS, TOPICS
    from teach.web.practice import NAMES

    return {"practice_topics": TOPICS, "practice_levels": LEVELS, "practice_names": NAMES}


@bp.post("/classes/<int:class_id>/rename")
@teacher_required
def rename_class(class_id: int):
    group = _class_or_404(class_id)
    name = _clean_name(request.form.get("name"))
    if name:
        group.name = name
        db.session.commit()
    else:
        flash(_("Give the class a name."), "error")
    return redirect(url_for("teacher.class_page", class_id=group.id))


@bp.post("/classes/<int:class_id>/archive")
@teacher_required
def archive_class(class_id: int):
    group = _class_or_404(class_id)
    group.archived = request.form.get("archived", "1") == "1"
    db.session.commit()
    return redirect(url_for("teacher.classes"))


@bp.post("/classes/<int:class_id>/code")
@teacher_required
def new_class_code(class_id: int):
    """A fresh join code, for when the old one got out."""
    group = _class_or_404(class_id)
    group.code = new_code()
    db.session.commit()
    return redirect(url_for("teacher.class_page", class_id=group.id))


@bp.post("/classes/<int:class_id>/teachers")
@teacher_required
def add_teacher(class_id: int):
    group = _class_or_404(class_id)
    email = (request.form.get("email") or "").strip().lower()
    other = db.session.scalar(sa.select(User).where(User.email == email, User.role == "teacher"))
    if other is None:
        flash(_("There is no teacher with that email. Ask them to sign up first."), "error")
    elif db.session.scalar(sa.select(Membership.id).where(Membership.group_id == group.id,
                                                          Membership.user_id == other.id)) is None:
        group.members.append(Membership(user=other, role="teacher"))
        db.session.commit()
        flash(_("%(name)s teaches this class too now.", name=other.name), "ok")
    return redirect(url_for("teacher.class_page", class_id=group.id))


# ---------------------------------------------------------------------- kids
@bp.post("/classes/<int:class_id>/kids")
@teacher_required
def add_kids(class_id: int):
    """Add kids from a list of names: all of them in one transaction, or none with every problem listed."""
    group = _class_or_404(class_id)
    kids = classroom.class_kids(group.id) + classroom.class_kids(group.id, archived=True)
    names, problems = classroom.parse_names(request.form.get("names", ""), {k.name.casefold() for k in kids})
    if problems:
        for p in problems[:20]:
            flash(p, "error")
        if len(problems) > 20:
            flash(_("… and %(n)d more problems.", n=len(problems) - 20), "error")
        flash(_("Nobody was added. Fix the list and send it again."), "error")
        return redirect(url_for("teacher.class_page", class_id=group.id))
    taken = {k.avatar for k in kids}
    cards = [classroom.new_kid(name, group, taken) for name in names]
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=cards, fresh=True)


@bp.get("/classes/<int:class_id>/cards")
@teacher_required
def cards(class_id: int):
    """Login cards to print: the code and each kid's avatar; picture passwords are shown only when made."""
    group = _class_or_404(class_id)
    return render_template("teacher/cards.html", group=group,
                           cards=[(k, None) for k in classroom.class_kids(group.id)], fresh=False)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/pictures")
@teacher_required
def reset_pictures(class_id: int, kid_id: int):
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    pictures = classroom.new_pictures()
    kid.set_pictures(pictures)
    kid.failed_logins, kid.locked_until = 0, None
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=[(kid, pictures)], fresh=True)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/unlock")
@teacher_required
def unlock_kid(class_id: int, kid_id: int):
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    kid.failed_logins, kid.locked_until = 0, None
    db.session.commit()
    flash(_("%(name)s can sign in again.", name=kid.name), "ok")
    return redirect(url_for("teacher.class_page", class_id=group.id))


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/archive")
@teacher_required
def archive_kid(class_id: int, kid_id: int):
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    kid.archived = request.form.get("archived", "1") == "1"
    db.session.commit()
    return redirect(url_for("teacher.class_page", class_id=group.id))


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/move")
@teacher_required
def move_kid(class_id: int, kid_id: int):
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    target = _class_or_404(request.form.get("to", type=int) or 0)
    if target.id != group.id:
        if db.session.scalar(sa.select(Membership.id).where(Membership.group_id == target.id,
                                                            Membership.user_id == kid.id)) is not None:
            flash(_("%(name)s is already in that class.", name=kid.name), "error")
            return redirect(url_for("teacher.class_page", class_id=group.id))
        if any(k.name.casefold() == kid.name.casefold() for k in classroom.class_kids(target.id)):
            flash(_("“%(name)s” is already in this group; add a letter to tell them apart.", name=kid.name), "error")
            return redirect(url_for("teacher.class_page", class_id=group.id))
        membership = db.session.scalar(sa.select(Membership).where(Membership.group_id == group.id,
                                                                   Membership.user_id == kid.id))
        membership.group_id = target.id
        db.session.commit()
    return redirect(url_for("teacher.class_page", class_id=target.id))


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/remove")
@teacher_required
def remove_kid(class_id: int, kid_id: int):
    """Take the kid out of the class; a kid then in no class, family or parent's care is deleted with their data."""
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    db.session.execute(sa.delete(Membership).where(Membership.group_id == group.id, Membership.user_id == kid.id))
    db.session.flush()
    still = db.session.scalar(sa.select(Membership.id).where(Membership.user_id == kid.id).limit(1)) or \
        db.session.scalar(sa.select(ParentLink.id).where(ParentLink.kid_id == kid.id).limit(1))
    if not still:
        classroom.delete_kid(kid)
    db.session.commit()
    flash(_("%(name)s left the class.", name=kid.name), "ok")
    return redirect(url_for("teacher.class_page", class_id=group.id))


@bp.get("/classes/<int:class_id>/kids/<int:kid_id>")
@teacher_required
def kid_detail(class_id: int, kid_id: int):
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    cat = content.catalog()
    attempts = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid.id)
                                  .order_by(Attempt.id.desc()).limit(20)).all()
    return render_template("teacher/kid.html", group=group, kid=kid, catalog=cat,
                           timeline=classroom.timeline(kid, cat), weak=classroom.weak_topics(kid, cat),
                           attempts=attempts, link_code=classroom.link_code(kid), now=utcnow())


@bp.get("/classes/<int:class_id>/kids/<int:kid_id>/attempts/<int:attempt_id>")
@teacher_required
def replay(class_id: int, kid_id: int, attempt_id: int):
    """One attempt, move by move (``?ply=n``): the kid's move and the computer's answer."""
    group = _class_or_404(class_id)
    kid = _kid_or_404(group, kid_id)
    attempt = db.session.get(Attempt, attempt_id)
    if attempt is None or attempt.kid_id != kid.id:
        abort(404)
    puzzle = _puzzle_or_none(attempt.lesson_id, attempt.step)
    if puzzle is None:
        abort(404)
    played = [m for e in attempt.moves for m in (e.get("move"), e.get("reply")) if m]
    ply = max(0, min(request.args.get("ply", len(played), type=int), len(played)))
    board = render_board(rows_after(puzzle.start(), played[:ply]), lang=g.lang,
                         last=played[ply - 1] if ply else None)
    return render_template("teacher/replay.html", group=group, kid=kid, attempt=attempt, puzzle=puzzle,
                           lesson=content.catalog().lessons[attempt.lesson_id], board=board, ply=ply,
                           played=played)


def _puzzle_or_none(lesson_id: str, step: int):
    lesson = content.catalog().lessons.get(lesson_id)
    if lesson is None or not 0 <= step < len(lesson.steps) or type(lesson.steps[step]).__name__ != "Puzzle":
        return None
    return lesson.steps[step]


# ---------------------------------------------------------------------- assignments
@bp.post("/classes/<int:class_id>/assignments")
@teacher_required
def assign(class_id: int):
    group = _class_or_404(class_id)
    cat = content.catalog()
    what = request.form.get("what", "")
    kind, _sep, ident = what.partition(":")
    practice = None
    if kind == "lesson" and ident in cat.lessons:
        lesson_ids, topic_id = [ident], None
    elif kind == "topic" and cat.topic(ident) is not None and cat.topic(ident).lessons:
        lesson_ids, topic_id = [l.id for l in sorted(cat.topic(ident).lessons, key=lambda l: (l.order, l.id))], ident
    elif kind == "practice":
        practice = _practice_choice(ident, request.form.get("seed", ""))
        if practice is None:
            flash(_("Choose a practice topic and level (and a seed of digits only, or none)."), "error")
            return redirect(url_for("teacher.class_page", class_id=group.id))
        lesson_ids, topic_id = [practice_key(*practice)], None
    else:
        flash(_("Choose a lesson or a topic."), "error")
        return redirect(url_for("teacher.class_page", class_id=group.id))
    try:
        due = date.fromisoformat(request.form.get("due", ""))
    except ValueError:
        flash(_("Choose the day it is due."), "error")
        return redirect(url_for("teacher.class_page", class_id=group.id))
    if due < date.today():
        flash(_("That day has passed already; choose today or a later day."), "error")
        return redirect(url_for("teacher.class_page", class_id=group.id))
    chosen = sorted({int(k) for k in request.form.getlist("kids") if k.isdigit()})
    if chosen:
        in_class = {k.id for k in classroom.class_kids(group.id)}
        if not set(chosen) <= in_class:
            abort(404)
    topic, level, seed = practice or (None, None, None)
    for lesson_id in lesson_ids:
        db.session.add(Assignment(group_id=group.id, lesson_id=lesson_id, topic_id=topic_id,
                                  kid_ids=chosen or None, due_on=due, created_by=current_user.id,
                                  practice_topic=topic, practice_level=level, practice_seed=seed))
    db.session.commit()
    flash(_("Assigned."), "ok")
    return redirect(url_for("teacher.class_page", class_id=group.id))


def practice_key(topic: str, level: int, seed: int) -> str:
    """The lesson id practice attempts are stored under (as the practice pages store them)."""
    return f"practice:{topic}:{level}:{seed}"


def _practice_choice(ident: str, raw_seed: str) -> tuple[str, int, int] | None:
    """(topic, level, seed) from ``<topic>:<level>`` and an optional seed; one seed for the whole class, so every
    kid gets the same puzzles. None when any part is not a real practice set."""
    from teach.lessons.practice import LEVELS, TOPICS
    from teach.web.practice import MAX_SEED

    topic, _sep, level = ident.partition(":")
    raw_seed = raw_seed.strip()
    if topic not in TOPICS or not level.isdigit() or int(level) not in LEVELS:
        return None
    if raw_seed:
        if not raw_seed.isdigit() or int(raw_seed) >= MAX_SEED:
            return None
        seed = int(raw_seed)
    else:
        seed = secrets.randbelow(MAX_SEED)
    return topic, int(level), seed


@bp.post("/classes/<int:class_id>/assignments/<int:assignment_id>/delete")
@teacher_required
def unassign(class_id: int, assignment_id: int):
    group = _class_or_404(class_id)
    a = db.session.get(Assignment, assignment_id)
    if a is None or a.group_id != group.id:
        abort(404)
    db.session.delete(a)
    db.session.commit()
    return redirect(url_for("teacher.class_page", class_id=group.id))


# ---------------------------------------------------------------------- dashboard, mistakes, CSV
def _dashboard_data(group: Group) -> dict:
    """The grid of kids × assigned lessons, ready to draw, and who is stuck or late: a fixed number of queries."""
    kids = classroom.class_kids(group.id)
    by_id = {k.id: k for k in kids}
    assignments = db.session.scalars(sa.select(Assignment).where(Assignment.group_id == group.id)
                                     .order_by(Assignment.due_on, Assignment.id)).all()
    cat = content.catalog()
    lessons = [cat.lessons[i] for i in dict.fromkeys(a.lesson_id for a in assignments) if i in cat.lessons]
    grid = classroom.progress_grid(classroom.kid_ids_of(group.id), [l.id for l in lessons])
    due: dict[tuple[int, str], date] = {}
    for a in assignments:
        for k in (kids if a.kid_ids is None else [by_id[i] for i in a.kid_ids if i in by_id]):
            key = (k.id, a.lesson_id)
            due[key] = min(due.get(key, a.due_on), a.due_on)
    today = date.today()
    rows = []
    for k in kids:
        cells = []
        for lesson in lessons:
            c, d = grid.get(k.id, lesson.id), due.get((k.id, lesson.id))
            late = d is not None and d < today and c.finished is None
            cells.append((c, " ".join(name for name, on in (("done", c.finished), ("stuck", c.stuck),
                                                            ("overdue", late), ("not-assigned", d is None)) if on),
                          d))
        rows.append((k, cells))
    overdue = sorted(((by_id[kid_id], cat.lessons[lid], d) for (kid_id, lid), d in due.items()
                      if d < today and lid in cat.lessons and grid.get(kid_id, lid).finished is None),
                     key=lambda x: (x[2], x[0].name))
    stuck = [(by_id[kid_id], cat.lessons[lid], c) for (kid_id, lid), c in grid.cells.items()
             if c.stuck and kid_id in by_id and lid in cat.lessons]
    puzzles = {l.id: [i for i, s in enumerate(l.steps) if type(s).__name__ == "Puzzle"] for l in lessons}
    return {"kids": kids, "lessons": lessons, "rows": rows, "overdue": overdue, "stuck": stuck,
            "puzzles": puzzles, "practice": _practice_progress(group, kids, assignments)}


def _practice_progress(group: Group, kids: list[User], assignments) -> list[dict]:
    """Each practice set given to the class, and how many of its puzzles each kid solved (one query)."""
    from teach.web.practice import NAMES, SET_SIZE

    sets = [a for a in assignments if a.is_practice]
    if not sets:
        return []
    solved: dict[tuple[int, str], int] = {}
    for kid_id, key, count in db.session.execute(
            sa.select(Attempt.kid_id, Attempt.lesson_id, sa.func.count(sa.distinct(Attempt.step)))
            .where(Attempt.kid_id.in_(classroom.kid_ids_of(group.id)),
                   Attempt.lesson_id.in_([a.lesson_id for a in sets]), Attempt.result == "solved")
            .group_by(Attempt.kid_id, Attempt.lesson_id)):
        solved[(kid_id, key)] = count
    today = date.today()
    return [{"assignment": a, "name": NAMES[a.practice_topic], "total": SET_SIZE,
             "kids": [(k, solved.get((k.id, a.lesson_id), 0)) for k in kids if a.for_kid(k.id)],
             "late": a.due_on < today} for a in sets]


@bp.get("/classes/<int:class_id>/dashboard")
@teacher_required
def dashboard(class_id: int):
    group = _class_or_404(class_id)
    return render_template("teacher/dashboard.html", group=group, **_dashboard_data(group))


@bp.get("/classes/<int:class_id>/progress.csv")
@teacher_required
def progress_csv(class_id: int):
    group = _class_or_404(class_id)
    kids = classroom.class_kids(group.id)
    grid = classroom.progress_grid(classroom.kid_ids_of(group.id))
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["kid", "lesson", "title", "stars", "finished", "attempts", "wrong", "hints", "minutes"])
    for k in kids:
        for lesson in content.ordered_lessons():
            c = grid.get(k.id, lesson.id)
            if c.started:
                w.writerow([_cell(k.name), lesson.id, _cell(lesson.title.get(g.lang)), c.stars,
                            c.finished.date().isoformat() if c.finished else "", c.attempts, c.failed, c.hints,
                            round(c.seconds / 60, 1)])
    name = f"class-{group.id}-progress.csv"
    return Response("\ufeff" + out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


def _cell(text: str) -> str:
    """Spreadsheets run cells that start with = + - @ as formulas: a kid's name must stay a name."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@bp.get("/classes/<int:class_id>/mistakes/<lesson_id>/<int:step>")
@teacher_required
def mistakes(class_id: int, lesson_id: str, step: int):
    """The wrong first moves this class played on one puzzle, how many kids played each, and the refutation."""
    group = _class_or_404(class_id)
    puzzle = _puzzle_or_none(lesson_id, step)
    if puzzle is None:
        abort(404)
    rows = db.session.execute(sa.select(Attempt.kid_id, Attempt.first_move, Attempt.moves).where(
        Attempt.kid_id.in_(classroom.kid_ids_of(group.id)), Attempt.lesson_id == lesson_id, Attempt.step == step,
        Attempt.first_move.is_not(None)))
    plays: dict[str, set[int]] = {}
    solved: set[int] = set()
    for kid_id, first, moves in rows:
        verdict = moves[0].get("verdict") if moves else None
        if verdict == "correct":
            solved.add(kid_id)
        elif verdict == "wrong":
            plays.setdefault(first, set()).add(kid_id)
    judge = content.judge_for(lesson_id, step)
    start = puzzle.start()
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    found = []
    for i, (move, kids) in enumerate(sorted(plays.items(), key=lambda x: (-len(x[1]), x[0]))):
        verdict = judge.judge([], move)
        label = letters[i] if i < len(letters) else "?"
        found.append({"move": move, "label": label, "kids": len(kids), "reply": verdict.reply,
                      "why": messages.wrong(puzzle, verdict.reason, g.lang) if verdict.result == "wrong" else "",
                      "board": render_board(rows_after(start, [move] + ([verdict.reply]
                                                                                  if verdict.reply else [])),
                                            lang=g.lang, last=verdict.reply or move)})
    board = render_board(start.board_rows(), lang=g.lang, marks=puzzle.marks,
                         labels={m["move"]: m["label"] for m in found})
    return render_template("teacher/mistakes.html", group=group, lesson=content.catalog().lessons[lesson_id],
                           puzzle=puzzle, step=step, board=board, found=found, solved=len(solved))


# ---------------------------------------------------------------------- worksheets
def _all_puzzles():
    for lesson in content.ordered_lessons():
        for i, s in enumerate(lesson.steps):
            if type(s).__name__ == "Puzzle":
                yield f"{lesson.id}:{i}", lesson, i, s


def _answers(puzzle) -> list[str]:
    if puzzle.answers:
        return list(puzzle.answers)
    if puzzle.winning:
        return sorted(puzzle.winning)
    return sorted(m for m, how in puzzle.judge().solve().winning.items())


@bp.get("/worksheet")
@teacher_required
def worksheet():
    """Pick puzzles (``?p=lesson:step``, repeated) and print them, with an answer key on its own page."""
    chosen = request.args.getlist("p")[:WORKSHEET_MAX]
    every = list(_all_puzzles())
    if not chosen:
        return render_template("teacher/worksheet_pick.html", puzzles=every)
    by_key = {key: (lesson, i, s) for key, lesson, i, s in every}
    if any(key not in by_key for key in chosen):
        abort(404)
    sheet = []
    for n, key in enumerate(chosen, 1):
        lesson, i, s = by_key[key]
        sheet.append({"n": n, "lesson": lesson, "puzzle": s, "answers": _answers(s),
                      "board": render_board(s.start().board_rows(), lang=g.lang, marks=s.marks,
                                            labels=s.position.label_points)})
    return render_template("teacher/worksheet.html", sheet=sheet)


# ---------------------------------------------------------------------- the teacher's own lessons
@bp.route("/lessons", methods=["GET", "POST"])
@teacher_required
def own_lessons():
    """Upload a lesson file: the lesson checker runs on it, its errors are shown, only a clean file is kept."""
    errors: list = []
    if request.method == "POST":
        upload = request.files.get("lesson")
        errors = _check_upload(upload)
        if not errors:
            return redirect(url_for("teacher.own_lessons"))
    mine = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id == current_user.id)
                              .order_by(TeacherLesson.created_at)).all()
    return render_template("teacher/lessons.html", mine=mine, errors=errors), (422 if errors else 200)


def _check_upload(upload) -> list[dict]:
    from teach.lessons import check_file

    filename = Path((upload.filename if upload else "") or "lesson.yaml").name[:200]
    if upload is None or not upload.filename:
        return [{"file": "", "line": 0, "message": _("Choose a lesson file (.yaml) to upload.")}]
    data = upload.stream.read(UPLOAD_MAX + 1)
    if len(data) > UPLOAD_MAX:
        return [{"file": filename, "line": 0, "message": _("That file is too big (at most %(n)d KB).",
                                                           n=UPLOAD_MAX // 1024)}]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [{"file": filename, "line": 0, "message": _("That is not a text file. Upload a lesson in YAML.")}]
    if "\x00" in text:
        return [{"file": filename, "line": 0, "message": _("That is not a text file. Upload a lesson in YAML.")}]
    with tempfile.TemporaryDirectory() as tmp:
        # the checker wants a file named after its lesson id; the teacher's own file name may differ
        found_id = re.search(r"^id:\s*([A-Za-z0-9][A-Za-z0-9_-]{0,79})\s*$", text, re.MULTILINE)
        path = Path(tmp) / f"{found_id.group(1) if found_id else 'lesson'}.yaml"
        path.write_text(text, encoding="utf-8")
        lesson, errors, _count = check_file(path)
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
        steps.append({"kind": type(s).__name__.lower(), "text": text.get(g.lang) if text else "", "board": board})
    return render_template("teacher/own_lesson.html", stored=stored, lesson=lesson, steps=steps)


@bp.post("/lessons/<int:lesson_pk>/delete")
@teacher_required
def delete_own_lesson(lesson_pk: int):
    db.session.delete(_own_lesson_or_404(lesson_pk, owner_only=True))
    db.session.commit()
    return redirect(url_for("teacher.own_lessons"))


# ---------------------------------------------------------------------- SGF problems
SGF_SIZES = (9, 13)
GOAL_LABELS = {"capture": _l("Capture the target stones"), "save": _l("Save the target stones"),
               "live": _l("Make the target group live"), "kill": _l("Kill the target group"),
               "race": _l("Win the capturing race"), "connect": _l("Connect the target stones"),
               "cut": _l("Cut the target stones apart")}
POINT_RE = re.compile(r"^[A-HJ-Ta-hj-t](1[0-9]|[1-9])$")


@bp.route("/sgf", methods=["GET", "POST"])
@teacher_required
def sgf_problem():
    """Upload an SGF position with a goal, target and instruction: the reader proves the puzzle before it is kept,
    as a one-puzzle lesson of the teacher's own that their classes can play."""
    from teach.lessons.schema import GOAL_NAMES

    errors: list[str] = []
    form = request.form
    if request.method == "POST":
        errors = _check_sgf_problem(request.files.get("sgf"), form)
        if not errors:
            return redirect(url_for("teacher.own_lessons"))
    return render_template("teacher/sgf.html", goals=GOAL_NAMES, goal_labels=GOAL_LABELS, topics=content.catalog().topics, errors=errors,
                           form=form), (422 if errors else 200)


def _read_sgf(upload) -> tuple[object | None, str | None]:
    """The root node of an uploaded SGF, or why it cannot be used."""
    from teach.go.sgf import SGFError, parse_one

    if upload is None or not upload.filename:
        return None, _("Choose an SGF file to upload.")
    data = upload.stream.read(UPLOAD_MAX + 1)
    if len(data) > UPLOAD_MAX:
        return None, _("That file is too big (at most %(n)d KB).", n=UPLOAD_MAX // 1024)
    if b"\x00" in data or not data.strip():
        return None, _("That is not an SGF file (SGF is text that starts with “(;”).")
    try:
        return parse_one(data), None
    except (SGFError, UnicodeDecodeError, ValueError) as e:
        return None, _("That SGF could not be read: %(why)s", why=str(e))


def _check_sgf_problem(upload, form) -> list[str]:
    """Every problem with the upload and the form (empty when the puzzle is proven and saved)."""
    from teach.go.sgf import Node, SGFError, decode_point_list, encode_point, serialize
    from teach.lessons import check_file
    from teach.lessons.schema import GOAL_NAMES
    from teach.lessons.step import build_step

    errors = []
    root, problem = _read_sgf(upload)
    if problem:
        errors.append(problem)
    goal = form.get("goal", "")
    if goal not in GOAL_NAMES:
        errors.append(_("Choose what the kids must do (the goal)."))
    targets = [t.upper() for t in re.split(r"[\s,]+", form.get("target", "").strip()) if t]
    if not targets or not all(POINT_RE.match(t) for t in targets):
        errors.append(_("Write the target stones as points such as E5 (several: E5 E6)."))
    text = {lang: " ".join(form.get(f"text_{lang}", "").split())[:300] for lang in ("zh", "en")}
    if not text["zh"] or not text["en"]:
        errors.append(_("Write the instruction in both languages."))
    topic = form.get("topic", "")
    if content.catalog().topic(topic) is None:
        errors.append(_("Choose the topic the puzzle belongs to."))
    if root is None:
        return errors
    size_raw = root.get("SZ", "19")
    if not size_raw.strip().isdigit() or int(size_raw) not in SGF_SIZES:
        errors.append(_("The board must be 9×9 or 13×13 (SZ[9] or SZ[13]); this one is %(size)s.", size=size_raw))
        return errors
    size = int(size_raw)
    try:
        black = decode_point_list(root.get_all("AB"), size)
        white = decode_point_list(root.get_all("AW"), size)
    except SGFError as e:
        errors.append(_("That SGF could not be read: %(why)s", why=str(e)))
        return errors
    if not black and not white:
        errors.append(_("The SGF sets up no stones (AB and AW in its first node)."))
    to_play = {"B": "black", "W": "white"}.get((root.get("PL") or "B").strip().upper())
    if to_play is None:
        errors.append(_("PL must be B or W (the side to move)."))
    if errors:
        return errors
    # a clean record of the position alone: nothing else of the upload is kept
    clean = serialize(Node({"SZ": str(size), **({"AB": [encode_point(p, size) for p in black]} if black else {}),
                            **({"AW": [encode_point(p, size) for p in white]} if white else {})})).strip()
    step = {"puzzle": {"sgf": clean, "to_play": to_play, "goal": goal,
                       "target": targets if len(targets) > 1 else targets[0], "text": text}}
    built, step_errors = build_step(step, size)
    if built is None or step_errors:
        return [e.message for e in step_errors] or [_("The reader could not prove this puzzle.")]
    lesson_id = f"sgf-{current_user.id}-{secrets.token_hex(3)}"
    title = {"zh": (form.get("title_zh") or "").strip()[:80] or text["zh"][:80],
             "en": (form.get("title_en") or "").strip()[:80] or text["en"][:80]}
    source = yaml.safe_dump({"id": lesson_id, "topic": topic, "order": 1, "level": 1, "size": size,
                             "sticker": {"id": f"{lesson_id}-star", "picture": "star", "name": dict(title)},
                             "title": title, "intro": dict(text), "recap": dict(text), "steps": [step]},
                            allow_unicode=True, sort_keys=False)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{lesson_id}.yaml"
        path.write_text(source, encoding="utf-8")
        lesson, lesson_errors, _count = check_file(path, prove=False)  # the puzzle is proven above
    if lesson is None or lesson_errors:
        return [e.message for e in lesson_errors] or [_("The reader could not prove this puzzle.")]
    filename = Path(upload.filename).name[:200]
    db.session.add(TeacherLesson(owner_id=current_user.id, lesson_id=lesson_id, filename=filename, source=source))
    db.session.commit()
    flash(_("The puzzle “%(title)s” checked out and is saved.", title=title.get(g.lang) or title["en"]), "ok")
    return []
