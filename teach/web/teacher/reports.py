"""What a class is doing: the dashboard (kids × assigned lessons, who is stuck or late, practice sets), the
mistake map of one puzzle, a kid's progress and the replay of an attempt, and a CSV of the class's progress.

Each page runs a fixed number of queries, whatever the size of the class."""

from __future__ import annotations

import csv
import io
from datetime import date

import sqlalchemy as sa
from flask import Response, abort, g, render_template, request
from flask_login import current_user

from teach.models import Assignment, Attempt, Group, User, utcnow
from teach.web import classroom, content, games, links, messages
from teach.web.access import teacher_required
from teach.web.board import render_board, rows_after
from teach.web.extensions import db

from . import bp
from .scope import class_kid_or_404, class_or_404, puzzle_or_none


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
    puzzles = {l.id: [i for i, s in enumerate(l.steps) if s.kind == "puzzle"] for l in lessons}
    return {"kids": kids, "lessons": lessons, "rows": rows, "overdue": overdue, "stuck": stuck,
            "puzzles": puzzles, "practice": _practice_progress(group, kids, assignments)}


def _practice_progress(group: Group, kids: list[User], assignments) -> list[dict]:
    """Each practice set given to the class, and how many of its puzzles each kid solved (one query)."""
    from teach.lessons.practice import SET_SIZE, drill_names

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
    names = drill_names(g.lang)
    return [{"assignment": a, "name": names[a.practice_topic], "total": SET_SIZE,
             "kids": [(k, solved.get((k.id, a.lesson_id), 0)) for k in kids if a.for_kid(k.id)],
             "late": a.due_on < today} for a in sets]


@bp.get("/classes/<int:class_id>/dashboard")
@teacher_required
def dashboard(class_id: int):
    group = class_or_404(class_id)
    return render_template("teacher/dashboard.html", group=group, **_dashboard_data(group))


@bp.get("/classes/<int:class_id>/progress.csv")
@teacher_required
def progress_csv(class_id: int):
    group = class_or_404(class_id)
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
    group = class_or_404(class_id)
    puzzle = puzzle_or_none(lesson_id, step)
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


@bp.get("/classes/<int:class_id>/kids/<int:kid_id>")
@teacher_required
def kid_detail(class_id: int, kid_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    cat = content.catalog()
    attempts = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid.id)
                                  .order_by(Attempt.id.desc()).limit(20)).all()
    return render_template("teacher/kid.html", group=group, kid=kid, catalog=cat,
                           timeline=classroom.timeline(kid, cat), weak=classroom.weak_topics(kid, cat),
                           attempts=attempts, games=games.recent_for(kid.id), now=utcnow(),
                           **links.kid_links(kid, current_user))


@bp.get("/classes/<int:class_id>/kids/<int:kid_id>/attempts/<int:attempt_id>")
@teacher_required
def replay(class_id: int, kid_id: int, attempt_id: int):
    """One attempt, move by move (``?ply=n``): the kid's move and the computer's answer."""
    group, kid = class_kid_or_404(class_id, kid_id)
    attempt = db.session.get(Attempt, attempt_id)
    if attempt is None or attempt.kid_id != kid.id:
        abort(404)
    puzzle = puzzle_or_none(attempt.lesson_id, attempt.step)
    if puzzle is None:
        abort(404)
    played = [m for e in attempt.moves for m in (e.get("move"), e.get("reply")) if m]
    ply = max(0, min(request.args.get("ply", len(played), type=int), len(played)))
    board = render_board(rows_after(puzzle.start(), played[:ply]), lang=g.lang,
                         last=played[ply - 1] if ply else None)
    return render_template("teacher/replay.html", group=group, kid=kid, attempt=attempt, puzzle=puzzle,
                           lesson=content.catalog().lessons[attempt.lesson_id], board=board, ply=ply,
                           played=played)
