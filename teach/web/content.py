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
                _attach_proofs(found, path)
                _catalogs[path] = found
    return found


def _attach_proofs(found, path: str) -> None:
    """Give every puzzle its stored whole proof (``lessons/proofs.json``), so its judge answers with lookups.
    A puzzle the store does not hold (a lesson changed since ``teach lessons prove``) is read live, as before;
    a store that cannot be used is logged, never served."""
    from teach.lessons import proofstore

    store = proofstore.load(proofstore.store_path(path))
    if store.problem:
        current_app.logger.error("%s", store.problem)
    missing = too_big = 0
    for lesson in found.lessons.values():
        for step in lesson.steps:
            if step.kind == "puzzle":
                key = proofstore.key_of(step)
                proof = store.proofs.get(key) or store.partial.get(key)  # a too-big one's proven positions too
                if proof is not None:
                    step.__dict__["proof"] = proof
                if key in store.unproven:
                    too_big += 1
                elif proof is None:
                    missing += 1
    if too_big:
        current_app.logger.info("%d lesson puzzles are too big to prove whole: the positions their proofs reached "
                                "are answered with lookups, the rest is read live", too_big)
    if missing and not store.problem:
        current_app.logger.warning("%d lesson puzzles have no current proof in %s: their moves are read live "
                                   "(run `teach lessons prove`)", missing, store.path)


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
    """Solve once, at start-up, every lesson puzzle that has no complete stored proof (a proven one answers every
    move with a lookup already): each first move a kid can play is judged, and each move of the solution lines
    after it (``Judge.warm``; what a partial proof holds is a lookup). Run before the workers fork (gunicorn
    --preload), the answers are shared by all of them. Returns the number of puzzles solved."""
    solved = 0
    for lesson in catalog().lessons.values():
        for index, step in enumerate(lesson.steps):
            proof = step.__dict__.get("proof") if step.kind == "puzzle" else None
            if step.kind == "puzzle" and (proof is None or not proof.complete):  # a proven puzzle needs nothing
                judge_for(lesson.id, index).warm()
                solved += 1
    return solved
