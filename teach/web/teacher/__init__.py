"""The teacher's side: classes and their kids, assignments, the class dashboard, the mistake map, kid details,
worksheets, a CSV of progress and the teacher's own lesson files.

Every page checks that the teacher teaches the class, and that the kid, attempt or assignment belongs to that
class; anything else is a 404, so nothing tells a teacher whether another class's kid exists (``scope``).

One blueprint, ``teacher`` under ``/teach``, with its views by section: ``classes`` (a class, its name, code and
teachers), ``roster`` (its kids and their sign-in), ``assignments``, ``reports`` (dashboard, mistake map, a kid's
progress and replays, the CSV), ``worksheets`` and ``authoring`` (the teacher's own lessons, from a file or an
SGF; the lessons themselves are made by ``teach.lessons.authoring``). ``forms`` holds the forms they read.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("teacher", __name__, url_prefix="/teach")

# the sections add their views to bp when imported
from . import assignments, authoring, cards, classes, demo_board, editor, reports, roster, worksheets  # noqa: E402,F401
