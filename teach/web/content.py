"""The lessons as the web app sees them: loaded once per process from the lessons folder, puzzles judged with a
``Judge`` kept per puzzle so a repeated position costs a lookup."""

from __future__ import annotations

import threading
from functools import lru_cache

from flask import current_app

_lock = threading.Lock()
_catalogs: dict[str, object] = {}
_ordered: dict[int, tuple[object, list]] = {}  # id(catalogue) -> (catalogue, its lessons in map order)


def catalog():
    """The lesson catalogue of this app's LESSONS_DIR (loaded and checked once per process)."""
    from teach.lessons import load_lessons

    path = current_app.config["LESSONS_DIR"]
    found = _catalogs.get(path)
    if found is None:
        with _lock:
            found = _catalogs.get(path)
            if found is None:
                found = load_lessons(path)
                _catalogs[path] = found
    return found


def ordered_lessons():
    """Every lesson in map order: topics in catalogue order, lessons by their order inside the topic."""
    cat = catalog()
    found = _ordered.get(id(cat))
    if found is None or found[0] is not cat:  # worked out once per catalogue: every kid page asks for it
        found = (cat, [lesson for topic in cat.topics
                       for lesson in sorted(topic.lessons, key=lambda l: (l.order, l.id))])
        _ordered[id(cat)] = found
    return list(found[1])


@lru_cache(maxsize=4096)
def _judge(path: str, lesson_id: str, step: int):
    lesson = _catalogs[path].lessons[lesson_id]
    return lesson.steps[step].judge()


def judge_for(lesson_id: str, step: int):
    """The judge of one puzzle step, shared by every request in this process (its cache fills as kids play)."""
    catalog()
    return _judge(current_app.config["LESSONS_DIR"], lesson_id, step)


def prewarm() -> int:
    """Solve every lesson puzzle once, so each first move a kid can play is already judged, and so is each move
    of the solution lines after it (DESIGN: puzzles are static, solve each once; ``Judge.warm``). Run before the
    workers fork (gunicorn --preload), the answers are shared by all of them. Returns the number of puzzles."""
    solved = 0
    for lesson in catalog().lessons.values():
        for index, step in enumerate(lesson.steps):
            if step.kind == "puzzle":
                judge_for(lesson.id, index).warm()
                solved += 1
    return solved
