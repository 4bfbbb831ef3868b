"""Worksheets to print: puzzles picked from the lessons, drawn for paper, with an answer key on its own page."""

from __future__ import annotations

from flask import abort, g, render_template, request

from teach.web import content
from teach.web.access import teacher_required
from teach.web.board import render_board

from . import bp

WORKSHEET_MAX = 24  # puzzles on one sheet


def _all_puzzles():
    for lesson in content.ordered_lessons():
        for i, s in enumerate(lesson.steps):
            if s.kind == "puzzle":
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
