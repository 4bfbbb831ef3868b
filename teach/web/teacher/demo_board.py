"""The demo board for the classroom projector (挂盘): a full-screen board where the teacher sets up stones, marks
points, plays a sequence and steps back, opens a lesson diagram or a game a kid of their classes played, and asks
the reader "can these stones be captured?".

The page keeps the position and the moves; the engine plays every move (captures, ko, forbidden points are the
engine's, never the page's), so each move is one small request replaying the line. The reader's question is
answered inside the request with a small node budget and a clock, and says "too hard to read here" honestly when
the budget runs out."""

from __future__ import annotations

import sqlalchemy as sa
from flask import g, jsonify, render_template, request
from flask_babel import gettext as _
from flask_login import current_user
from flask_limiter.util import get_remote_address

from teach.go import Game, IllegalMove
from teach.go.reading import LOSE, BudgetExceeded, Limits, Reader
from teach.lessons import authoring
from teach.models import Membership, PlayedGame, User
from teach.web import content, messages
from teach.web.access import teacher_required
from teach.web.board import render_board
from teach.web.extensions import db, limiter
from teach.web.moves import json_body, refused
from teach.web.security import plain_int

from . import bp
from .editor import empty_rows, kid_game_or_none

DEMO_SIZES = (9, 13, 19)
RECENT_GAMES = 30  # kids' games offered to open
MAX_MOVES = 400  # moves of one demonstrated line (a whole 19x19 game fits)
# the projector's question is answered while the class waits: a small budget, a clock under a second or two
ASK_LIMITS = Limits(nodes=40_000, seconds=1.5)
# each question may cost the server up to 1.5 s of reading: a class asks a few a minute, a script may not ask more
ASK_RATE = "20 per minute;300 per hour"


def _teacher_or_address() -> str:
    return f"teacher:{current_user.id}" if current_user.is_authenticated else get_remote_address()


def _opening() -> tuple[list[str], str, list[str]]:
    """(rows, side to move, moves to step through) the board opens with."""
    lesson_id, _sep, step = (request.args.get("from") or "").partition(":")
    lesson = content.catalog().lessons.get(lesson_id)
    index = plain_int(step, 4)
    if lesson is not None and index is not None and index < len(lesson.steps):
        chosen = lesson.steps[index]
        if chosen.position is not None:
            to_play = getattr(chosen, "to_play", "black")
            line = [m.move for m in getattr(chosen, "moves", ())] if chosen.kind == "demo" else []
            return chosen.position.game(to_play).board_rows(), to_play, line
    game_id = request.args.get("game", type=int)
    if game_id:
        played = kid_game_or_none(game_id)
        if played is not None:
            start = Game(played.size)
            return start.board_rows(), "black", list(played.moves or [])[:MAX_MOVES]
    size = request.args.get("size", type=int)
    return empty_rows(size if size in DEMO_SIZES else 19), "black", []


@bp.get("/board")
@teacher_required
def demo_board():
    rows, to_play, line = _opening()
    lessons = [(lesson, [i for i, s in enumerate(lesson.steps) if s.position is not None])
               for lesson in content.ordered_lessons()]
    return render_template("teacher/demo_board.html", board=render_board(rows, lang=g.lang, playable=True),
                           size=len(rows), to_play=to_play, line=line, sizes=DEMO_SIZES,
                           lessons=[(l, steps) for l, steps in lessons if steps], games=recent_kid_games(),
                           puzzle_sizes=authoring.BOARD_SIZES)


def recent_kid_games() -> list[tuple[PlayedGame, str]]:
    """The latest games the kids of this teacher's classes played, with the kid's name (one query)."""
    mine = sa.select(Membership.group_id).where(Membership.user_id == current_user.id, Membership.role == "teacher")
    kids = sa.select(Membership.user_id).where(Membership.group_id.in_(mine), Membership.role == "kid")
    query = (sa.select(PlayedGame, User.name).join(User, User.id == PlayedGame.kid_id)
             .where(PlayedGame.kid_id.in_(kids), PlayedGame.ply > 0)
             .order_by(PlayedGame.created_at.desc(), PlayedGame.id.desc()).limit(RECENT_GAMES))
    return [tuple(row) for row in db.session.execute(query)]


def _position(data: dict) -> Game | None:
    """The set-up position a page sent (rows and the side to move), or None when it is not a board."""
    rows, to_play = data.get("rows"), data.get("to_play")
    if not isinstance(rows, list) or len(rows) not in DEMO_SIZES or to_play not in ("black", "white"):
        return None
    size = len(rows)
    if not all(isinstance(r, str) and len(r) == size and not r.strip("XO.") for r in rows):
        return None
    def points(colour: str) -> list[int]:  # the engine counts points from A1, rows come top row first
        return [(size - 1 - r) * size + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == colour]

    game = Game(size)
    try:
        game.setup(black=points("X"), white=points("O"))
    except ValueError as e:  # stones set up with no liberty: no position the rules can reach
        raise _NoRoom(str(e).partition(": ")[2]) from None
    game.to_play = to_play
    return game


class _NoRoom(ValueError):
    """The set-up stones include a chain with no liberty (``points``, as the engine names them)."""

    def __init__(self, points: str) -> None:
        super().__init__(points)
        self.points = points

    def answer(self):
        return jsonify(result="no-room", message=_(
            "The stones on %(points)s have no liberties: no game reaches that. Take a stone away or give them "
            "room, then try again.", points=self.points)), 400


@bp.post("/board/play")
@teacher_required
def demo_play():
    """Body ``{"rows", "to_play", "moves"}``: the board after the moves (the engine's captures), or the first move
    that cannot be played and why, in the teacher's language."""
    data = json_body()
    try:
        game, moves = _position(data), data.get("moves")
    except _NoRoom as e:
        return e.answer()
    if game is None or not data.keys() <= {"rows", "to_play", "moves"} or not isinstance(moves, list) \
            or len(moves) > MAX_MOVES or not all(isinstance(m, str) and len(m) <= 4 for m in moves):
        return refused()
    for n, move in enumerate(moves):
        try:
            game.play(move.strip())
        except IllegalMove as e:
            return jsonify(result="illegal", at=n, rows=game.board_rows(), to_play=game.to_play,
                           message=messages.illegal(e.reason))
        except ValueError:
            return jsonify(result="illegal", at=n, rows=game.board_rows(), to_play=game.to_play,
                           message=messages.illegal("off-board"))
    return jsonify(result="ok", rows=game.board_rows(), to_play=game.to_play, captures=game.captures)


@bp.post("/board/ask")
@limiter.limit(ASK_RATE, key_func=_teacher_or_address)
@teacher_required
def demo_ask():
    """Body ``{"rows", "to_play", "point"}``: can the stones on ``point`` be captured? The reader answers both
    ways: when their opponent plays first (and where), and when their owner plays first (and where to escape)."""
    data = json_body()
    try:
        game, point = _position(data), data.get("point")
    except _NoRoom as e:
        return e.answer()
    if game is None or not data.keys() <= {"rows", "to_play", "point"} or not isinstance(point, str) \
            or len(point) > 4:
        return refused()
    try:
        p = game.require_point(point.strip())
    except ValueError:
        return refused()
    if game.board[p] == 0:
        return jsonify(result="empty", message=_("Tap a stone to ask about it."))
    reader = Reader(game, ASK_LIMITS)
    try:
        attack, attack_at = reader.attack(p)
        defend, defend_at = reader.defend(p)
    except BudgetExceeded:
        return jsonify(result="unknown", message=_("That is too hard to read here: try a smaller fight."))
    name = game.name
    if attack == LOSE:
        message, result = _("These stones cannot be captured, even if the other side plays first."), "safe"
    elif defend == LOSE:
        message, result = _("These stones can be captured even if they play first (start at %(move)s).",
                            move=name(attack_at) if attack_at is not None else "—"), "dead"
    else:
        message, result = _("Whoever plays first decides: capture at %(attack)s, or escape at %(defend)s.",
                            attack=name(attack_at) if attack_at is not None else "—",
                            defend=name(defend_at) if defend_at is not None else "—"), "urgent"
    return jsonify(result=result, message=message, attack=name(attack_at) if attack_at is not None else None,
                   defend=name(defend_at) if defend_at is not None else None)
