"""Endless practice: fresh puzzles from the generator, per topic and level, judged like lesson puzzles.

A practice set is (topic, level, seed): the same seed gives the same puzzles on any device, so a teacher can hand
one set to a whole class. Every answer is stored as an ``Attempt`` under ``practice:<topic>:<level>:<seed>``.
"""

from __future__ import annotations

import secrets
from functools import lru_cache

from flask import Blueprint, abort, g, jsonify, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from teach.lessons.practice import LEVELS, TOPICS, generate
from teach.lessons.step import build_step
from teach.models import Attempt, utcnow
from teach.web import messages, milestones
from teach.web.board import render_board
from teach.web.extensions import db
from teach.web.kid import _json_body, _quiz_right, judge_move, kid_required, new_milestones

bp = Blueprint("practice", __name__, url_prefix="/practice")
SET_SIZE = 10
PICTURES = {"liberties": "🛣️", "atari": "🔔", "capture": "🐭", "escape": "🏃", "ladder": "🪜", "net": "🥅"}
MAX_SEED = 10**9
NAMES = {"liberties": _l("Count the liberties"), "atari": _l("Atari"), "capture": _l("Capture"),
         "escape": _l("Escape"), "ladder": _l("Ladder"), "net": _l("Net")}


@lru_cache(maxsize=256)
def practice_set(topic: str, level: int, seed: int, size: int = 9) -> tuple:
    """The typed steps of one practice set (generated and built once per process)."""
    steps = []
    for raw in generate(topic, level, seed, count=SET_SIZE, size=size):
        built, errors = build_step(raw, size, prove=False)
        if built is not None and not errors:
            steps.append(built)
    return tuple(steps)


def _step_or_404(topic: str, level: int, seed: int, index: int):
    if topic not in TOPICS or level not in LEVELS or not 0 <= seed < MAX_SEED:
        abort(404)
    steps = practice_set(topic, level, seed)
    if not 0 <= index < len(steps):
        abort(404)
    return steps[index]


def _key(topic: str, level: int, seed: int) -> str:
    return f"practice:{topic}:{level}:{seed}"


@bp.get("/")
@kid_required
def choose():
    return render_template("kid/practice_choose.html", topics=TOPICS, levels=LEVELS, pictures=PICTURES,
                           practice_names=NAMES)


@bp.get("/<topic>/<int:level>")
@kid_required
def start(topic: str, level: int):
    """A new set, or the one a teacher handed out (``?seed=``)."""
    if topic not in TOPICS or level not in LEVELS:
        abort(404)
    seed = request.args.get("seed", type=int)
    if seed is None or not 0 <= seed < MAX_SEED:
        seed = secrets.randbelow(MAX_SEED)
    return redirect(url_for("practice.step", topic=topic, level=level, seed=seed, index=0))


@bp.get("/<topic>/<int:level>/<int:seed>/<int:index>")
@kid_required
def step(topic: str, level: int, seed: int, index: int):
    s = _step_or_404(topic, level, seed, index)
    kind = type(s).__name__.lower()
    game = s.position.game(getattr(s, "to_play", "black"))
    board = render_board(game.board_rows(), lang=g.lang, marks=s.marks, labels=s.position.label_points,
                         playable=True)
    urls = {what: url_for(f"practice.{what}", topic=topic, level=level, seed=seed, index=index)
            for what in ("move", "answer", "hint")}
    return render_template("kid/step.html", lesson=None, step=s, kind=kind, board=board, urls=urls, frames=[],
                           level=level, index=index, total=len(practice_set(topic, level, seed)),
                           picture=PICTURES[topic])


def _next_url(topic: str, level: int, seed: int, index: int) -> str:
    if index + 1 < len(practice_set(topic, level, seed)):
        return url_for("practice.step", topic=topic, level=level, seed=seed, index=index + 1)
    return url_for("practice.start", topic=topic, level=level)  # a fresh set


@bp.post("/<topic>/<int:level>/<int:seed>/<int:index>/move")
@kid_required
def move(topic: str, level: int, seed: int, index: int):
    """One move of a practice puzzle; the same contract as a lesson puzzle's move."""
    s = _step_or_404(topic, level, seed, index)
    if type(s).__name__ != "Puzzle":
        abort(404)
    return judge_move(s, s.judge(), _key(topic, level, seed), index, _json_body(),
                      lambda: {"next": _next_url(topic, level, seed, index)})


@bp.post("/<topic>/<int:level>/<int:seed>/<int:index>/answer")
@kid_required
def answer(topic: str, level: int, seed: int, index: int):
    s = _step_or_404(topic, level, seed, index)
    if type(s).__name__ != "Quiz":
        abort(404)
    data = _json_body()
    right = _quiz_right(s, data)
    if right is None:
        return jsonify(result="illegal", message=messages.illegal("off-board")), 400
    key = _key(topic, level, seed)
    db.session.add(Attempt(kid_id=current_user.id, lesson_id=key, step=index,
                           moves=[{"answer": data, "verdict": "correct" if right else "wrong"}],
                           result="solved" if right else "failed", finished_at=utcnow()))
    if right:
        found = new_milestones(milestones.Answer(s, key))  # the answer and its stickers in one commit
        db.session.commit()
        return jsonify(result="correct", message=messages.quiz_right(s, g.lang),
                       next=_next_url(topic, level, seed, index), milestones=found)
    db.session.commit()
    return jsonify(result="wrong", message=messages.quiz_wrong(s.ask))


@bp.post("/<topic>/<int:level>/<int:seed>/<int:index>/hint")
@kid_required
def hint(topic: str, level: int, seed: int, index: int):
    s = _step_or_404(topic, level, seed, index)
    return jsonify(hint=s.hint.get(g.lang) if s.hint else messages.no_hint())
