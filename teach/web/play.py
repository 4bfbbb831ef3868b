"""Kids play Go: the capture game (吃子游戏) and full games under the Chinese rules, against the computer's levels
or with someone sitting beside them (pass and play), counted (数子) at the end.

Every game is a ``PlayedGame`` row: its moves are the record, and the engine rebuilds the position from them on
each request (``played.game_of``), so any app process can serve any tap. A change is written
``UPDATE ... WHERE id = :id AND ply = :seen``: the same tap sent twice, or a move from a second tab, finds the ply
moved on and is answered 409 with the game on record, so nothing is played twice. The kid's move and the
computer's reply are one request and one write.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user

from teach.go import IllegalMove, bot, counting
from teach.go.game import EMPTY
from teach.go.handicap import max_fixed_handicap
from teach.go.scoring import stones_text
from teach.models import PlayedGame, utcnow
from teach.web import messages, milestones, reviews
from teach.web.access import kid_required
from teach.web.board import render_board
from teach.web.characters import CHARACTERS, character, levels
from teach.web.extensions import db
from teach.web.kid import step_settings
from teach.web.moves import json_body, refused
from teach.web.pictures import glyph
from teach.web.played import BrokenRecord, game_of, new_game, rules_of
from teach.web.safety import one_line
from teach.web.security import ID_MAX, plain_int

bp = Blueprint("play", __name__, url_prefix="/play")

KOMI = 7.5  # 贴3¾子; a handicap game has none (Black gives back half a stone per handicap stone when counting)
CAPTURE_GOALS = (1, 3, 5)
CAPTURE_SIZES = (7, 9)
FULL_SIZES = (9, 13, 19)
HANDICAPS = {9: (0, 2, 3, 4), 13: (0, 2, 3, 4, 5), 19: (0, 2, 3, 4, 5, 6, 7, 8, 9)}
FRIEND_NAME_MAX = 20
MOVE_FIELDS = frozenset({"move", "ply", "resign"})
COUNT_FIELDS = frozenset({"point", "ply"})
MAX_PLY = 4 * 19 * 19  # more than any game a kid plays; a bigger number is no ply of ours
CONTINUE_LIMIT = 3  # unfinished games offered on the start page


def _level(number: int) -> bot.Level | None:
    return next((lv for lv, _c in levels() if lv.number == number), None)


# ---------------------------------------------------------------------- the start page
@bp.get("/")
@kid_required
def start():
    return _start_page()


def _start_page(error: str | None = None, status: int = 200):
    unfinished = db.session.scalars(
        sa.select(PlayedGame).where(PlayedGame.kid_id == current_user.id, PlayedGame.state != "finished")
        .order_by(PlayedGame.updated_at.desc(), PlayedGame.id.desc()).limit(CONTINUE_LIMIT)).all()
    page = render_template("play/start.html", levels=levels(), goals=CAPTURE_GOALS, capture_sizes=CAPTURE_SIZES,
                           full_sizes=FULL_SIZES, error=error,
                           handicap_sizes=[(n, [s for s in FULL_SIZES if n in HANDICAPS[s]]) for n in HANDICAPS[19]],
                           friend_max=FRIEND_NAME_MAX, unfinished=[(r, _opponent(r)) for r in unfinished],
                           settings=step_settings(None))
    # never kept by the browser: "back" from a game just started must show it under "keep playing", not the
    # page as it was before the game (play.js reloads a page the back/forward cache restores, for the same reason)
    return page, status, {"Cache-Control": "no-store"}


def _choice(form, name: str, allowed):
    """The form's value for ``name`` if it is exactly one of ``allowed`` (compared as text), else None."""
    value = form.get(name, "")
    for a in allowed:
        if value == str(a):
            return a
    return None


def parse_new_game(form) -> tuple[dict | None, str | None]:
    """The new game's settings from the start page's form, each checked against what the page offers; or None
    and the kid-language reason it cannot start."""
    kind = _choice(form, "kind", ("capture", "full"))
    if kind is None:
        return None, _("Pick a game: the capture game or a whole game.")
    if kind == "capture":
        size = _choice(form, "size", CAPTURE_SIZES)
        goal = _choice(form, "goal", CAPTURE_GOALS)
        if size is None or goal is None:
            return None, _("The capture game is played on a 7×7 or 9×9 board, to 1, 3 or 5 captures.")
        handicap = 0
    else:
        size = _choice(form, "size", FULL_SIZES)
        if size is None:
            return None, _("A whole game is played on a 9×9, 13×13 or 19×19 board.")
        handicap = _choice(form, "handicap", HANDICAPS[size]) if form.get("handicap") else 0
        if handicap is None or handicap > max_fixed_handicap(size):
            return None, _("Pick a handicap the board has room for.")
        goal = None
    color = _choice(form, "color", ("black", "white")) or ("black" if not form.get("color") else None)
    if color is None:
        return None, _("Pick black or white.")
    who = form.get("who", "")  # a computer level's number, or "friend" (someone here plays the other side)
    friend_name = None
    level = None
    if who == "friend":
        opponent = "friend"
        friend_name = one_line(form.get("friend_name", ""))
        if len(friend_name) > FRIEND_NAME_MAX:
            return None, _("That name is too long: %(n)d letters at most.", n=FRIEND_NAME_MAX)
        friend_name = friend_name or None
    else:
        number = plain_int(who, 2)
        chosen = _level(number) if number is not None else None
        if chosen is None:
            return None, _("Pick who to play against: one of the computer's animals, or someone here with you.")
        level = chosen.number
        opponent = "gnugo" if chosen.engine == "gnugo" else "computer"
    return {"kind": kind, "size": size, "capture_goal": goal, "handicap": handicap, "color": color,
            "opponent": opponent, "level": level, "friend_name": friend_name}, None


@bp.post("/new")
@kid_required
def new():
    settings, error = parse_new_game(request.form)
    if settings is None:
        return _start_page(error, 400)
    row = PlayedGame(kid_id=current_user.id, kind=settings["kind"], size=settings["size"],
                     komi=0.0 if settings["handicap"] >= 2 else KOMI, handicap=settings["handicap"],
                     capture_goal=settings["capture_goal"], kid_color=settings["color"],
                     opponent=settings["opponent"], level=settings["level"], friend_name=settings["friend_name"],
                     seed=random.SystemRandom().randrange(1, 2**31), moves=[], ply=0, state="playing", dead=[])
    game = new_game(row.size, row.komi, row.handicap, rules_of(row))
    if _computer_plays(row) and game.to_play != row.kid_color:  # the computer has Black, or White after handicap
        try:
            row.moves = [_computer_move(row, game)]
        except _ComputerFailed:
            return _start_page(messages.computer_failed(), 503)
        row.ply = 1
    db.session.add(row)
    db.session.commit()
    return redirect(url_for("play.game", game_id=row.id))


# ---------------------------------------------------------------------- the game page
def _own_game_or_404(game_id: int) -> PlayedGame:
    if not 1 <= game_id <= ID_MAX:
        abort(404)
    row = db.session.get(PlayedGame, game_id)
    if row is None or row.kid_id != current_user.id:
        abort(404)
    return row


def _position(row: PlayedGame):
    """The game on record as the engine's Game, ready for the next move (play goes on after a disputed count).
    A record changed outside the app so that it no longer replays is not played on: 404."""
    try:
        game = game_of(row)
    except BrokenRecord:
        current_app.logger.warning("played game %s no longer replays", row.id)
        abort(404)
    if row.state == "playing" and row.kind == "full" and game.end_reason == "passes":
        game.resume()
    return game


@bp.get("/<int:game_id>")
@kid_required
def game(game_id: int):
    row = _own_game_or_404(game_id)
    game = _position(row)
    view = _view(row, game)
    count = _count_view(row, game, row.dead or [], _counting_side(row)) if row.state == "counting" else None
    settings = step_settings(None)  # the kid's own: read aloud and no coordinates unless a grown-up chose
    board = count["board"] if count else render_board(
        game.board_rows(), lang=g.lang, playable=row.state == "playing", last=_last_point(row),
        coordinates=settings["coordinates"])
    return render_template("play/game.html", row=row, view=view, board=board, count=count,
                           characters=CHARACTERS, urls=_urls(row), settings=settings)


def _urls(row: PlayedGame) -> dict:
    return {what: url_for(f"play.{what}", game_id=row.id) for what in ("move", "count", "count_done", "resume")}


def _computer_plays(row: PlayedGame) -> bool:
    return row.opponent in ("computer", "gnugo")


def _last_point(row: PlayedGame) -> str | None:
    last = row.moves[-1] if row.moves else None
    return last if last and last != "pass" else None


def _opponent(row: PlayedGame) -> dict:
    """The other side's picture and name: the computer's character, or the person beside the kid."""
    if _computer_plays(row):
        c = character(row.level)
        return {"glyph": c.glyph, "name": str(c.name), "computer": True}
    return {"glyph": "🙂", "name": row.friend_name or _("Friend"), "computer": False}


def _player(row: PlayedGame, color: str) -> dict:
    if color == row.kid_color:
        return {"glyph": glyph(current_user.avatar or "star"), "name": current_user.name, "computer": False,
                "color": color}
    return {**_opponent(row), "color": color}


def _turn_text(row: PlayedGame, color: str) -> str:
    player = _player(row, color)
    if player["computer"]:
        return _("%(name)s is thinking…", name=player["name"])
    if _computer_plays(row):
        return _("Your turn!")
    return _("%(name)s's turn!", name=player["name"])


def _view(row: PlayedGame, game) -> dict:
    """What the page shows about the game besides the board, and what the move answer carries for it."""
    to_move = game.to_play
    caps = game.captures
    return {
        "ply": row.ply, "state": row.state, "to_move": to_move, "captures": caps,
        "players": {c: _player(row, c) for c in ("black", "white")},
        "turn": _turn_text(row, to_move) if row.state == "playing" else "",
        "goal": row.capture_goal, "last": _last_point(row), "game_result": row.result, "winner": row.winner,
        "banner": _banner(row, game) if row.state == "finished" else None,
    }


def _banner(row: PlayedGame, game) -> dict:
    """The end of the game in kid words: who won (you, the computer, or by name), why, and the record's RE."""
    winner = row.winner
    kid = row.kid_color
    if winner is None:
        title, mood = _("A draw! Nobody wins, nobody loses."), "draw"
    elif _computer_plays(row):
        title, mood = (_("You won!"), "win") if winner == kid else (
            _("%(name)s won this time. Play again?", name=_opponent(row)["name"]), "lose")
    else:
        title, mood = _("%(name)s won!", name=_player(row, winner)["name"]), "win"
    reason = ""
    loser = "white" if winner == "black" else "black"
    if row.result and row.result.endswith("+R"):
        if _computer_plays(row) and loser == kid:  # "you", as the title speaks to the kid
            reason = _("You resigned.")
        else:
            reason = _("%(name)s resigned.", name=_player(row, loser)["name"])
    elif row.kind == "capture" and winner is not None:
        n = game.captures[winner]
        if game.end_reason != "captures":
            reason = _("Both passed: more captures wins.")
        else:  # against the computer the kid is "you", as in the title
            you = _computer_plays(row) and winner == kid
            reason = capture_reason(None if you else _player(row, winner)["name"], n, row.capture_goal)
    referee = ""
    if row.kind == "full" and row.result and not row.result.endswith("+R"):

        reason = _count_sentence(row.result)
        counted = counting.count(game, row.dead or [])
        referee = counted.referee_zh() if g.lang == "zh" else counted.referee_en()
    # the record (RE) is for grown-ups reading a counted or resigned game; a capture game's reason says it all
    return {"title": title, "mood": mood, "reason": reason, "referee": referee,
            "result": row.result if row.kind == "full" else "", "result_words": score_words(row.result),
            "glyph": "🎉" if mood == "win" else "🤝" if mood == "draw" else "💪"}


def capture_reason(name: str | None, n: int, goal: int | None) -> str:
    """Why a capture game ended, as the winner's count card shows it: "You captured 3 stones first." (``name``
    None: the kid, spoken to), or by name. The last capture can take the count past the goal (a capture-3 game
    won by taking three stones at once with two already caught): then the words give the count and the goal,
    beside a card that stops at the goal."""
    if goal and n > goal:
        if name is None:
            return _("You captured %(num)d stones: more than the %(goal)d you needed!", num=n, goal=goal)
        return _("%(name)s captured %(num)d stones: more than the %(goal)d needed to win!", num=n, goal=goal,
                 name=name)
    if name is None:
        return ngettext("You captured %(num)d stone first.", "You captured %(num)d stones first.", n)
    return ngettext("%(name)s captured %(num)d stone first.", "%(name)s captured %(num)d stones first.", n, name=name)


def score_words(result: str | None) -> str:
    """What a counted record means, beside it: "W+7.5" is "(7.5 points = 3¾ stones)", so the record's points and
    the referee's stones are seen to be one margin; a resignation in words ("B+R" is "(White resigned)"). Empty
    for a result the page says otherwise (B+C3: the capture count is on the card; 0: a draw)."""
    side, _plus, margin = (result or "").partition("+")
    if margin.upper() == "R" and side.upper() in ("B", "W"):
        return _("(White resigned)") if side.upper() == "B" else _("(Black resigned)")
    try:
        points = Fraction(margin)
    except (ValueError, ZeroDivisionError):
        return ""
    if points <= 0:
        return ""
    shown = str(int(points)) if points.denominator == 1 else str(float(points))
    if points / 2 <= 1:  # "¾ stone", as the line above it says
        return _("(%(points)s points = %(stones)s stone)", points=shown, stones=stones_text(points / 2))
    return _("(%(points)s points = %(stones)s stones)", points=shown, stones=stones_text(points / 2))


def _count_sentence(result: str) -> str:
    """A counted result's margin in stones, said for kids, from the record's RE (B+1.5 is ¾ stone)."""
    if result == "0":
        return _("Exactly even: a draw!")
    color, _plus, points = result.partition("+")
    try:
        stones = Fraction(points) / 2
    except (ValueError, ZeroDivisionError):
        return ""
    side = _("Black") if color == "B" else _("White")
    n = stones_text(stones)
    # "wins by", not "has more": the margin counts White's compensation, so an even board is still a win by 3¾
    if stones <= 1:
        return _("%(side)s wins by %(n)s stone!", side=side, n=n)
    return _("%(side)s wins by %(n)s stones!", side=side, n=n)


# ---------------------------------------------------------------------- moves
class _ComputerFailed(Exception):
    """The computer could not answer (its engine broke or gave a move the rules refuse): nothing is stored."""


def _computer_move(row: PlayedGame, game) -> str:
    """The computer's move, played on ``game``; raises _ComputerFailed if it cannot be had."""
    try:
        move = bot.reply(game, row.level or 1, row.seed)
        game.play(move)
    except Exception:  # noqa: BLE001 — whatever the engine did, the kid gets words and the game is kept as it was
        current_app.logger.exception("the computer (level %s) failed in game %s", row.level, row.id)
        raise _ComputerFailed from None
    return move


def _state_answer(row: PlayedGame, game, result: str, message: str = "", **extra) -> dict:
    body = {"result": result, "message": message, "rows": game.board_rows(), **_view(row, game), **extra}
    if row.state == "counting":
        body["reload"] = True  # the count screen is drawn by the server
    return body


def _on_record(row_id: int, message: str):
    """409: the game as it is stored (the same tap twice, another tab, a finished game), for the page to show."""
    db.session.rollback()
    row = db.session.get(PlayedGame, row_id)
    db.session.refresh(row)
    return jsonify(_state_answer(row, _position(row), "stale", message)), 409


def _valid_ply(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_PLY


def _tapped(game, dead: list, point_text) -> tuple[list | None, object]:
    """A tap while counting (``counting.toggle``): the dead stones after it, or None and the answer to a tap
    that is off the board or on no stone. Games against the computer and live games count alike."""
    point = _move_name(game, point_text)
    if point is None or point == "pass":
        return None, (jsonify(result="illegal", reason="off-board", message=messages.illegal("off-board")), 400)
    try:
        return sorted(counting.toggle(game, list(dead or []), point), key=game.sort_key), None
    except ValueError:
        return None, jsonify(result="illegal", reason="empty", message=messages.tap_a_stone())


def _move_name(game, move) -> str | None:
    """``pass`` or a point of this board in GTP spelling, or None."""
    if not isinstance(move, str) or len(move) > 4:
        return None
    move = move.strip().upper()
    if move == "PASS":
        return "pass"
    try:
        return game.name(game.point(move)) if game.point(move) is not None else None
    except ValueError:
        return None


@bp.post("/<int:game_id>/move")
@kid_required
def move(game_id: int):
    """Play the kid's move (in pass and play: the side to move) and the computer's reply.

    Body: ``{"move": "D4" | "pass", "ply": moves the page has seen}`` or ``{"resign": true, "ply": n}``; any
    other field or type is 400 (``result: "error"``). Answers (JSON, always with ``message`` in kid words):

    - 200 ``result: "ok"``: ``move``, ``reply`` (the computer's move, ``pass``, or None), ``side`` (who moved),
      ``kid_rows`` (board after the kid's move), ``rows`` (after the reply), ``captured``, ``thinking``, then the
      game: ``ply``, ``state`` (playing | counting | finished), ``to_move``, ``turn`` (whose turn, in words),
      ``players``, ``captures`` ({"black": stones Black took, "white": ...}), ``goal``, ``last``, ``game_result``
      (SGF RE), ``winner``, ``banner`` (the end in kid words, when finished), ``milestones`` (new stickers),
      ``reload`` (true when the count screen opens).
    - 200 ``result: "illegal"`` with ``reason`` occupied | suicide | ko | superko; 400 for a point off the board.
    - 409 ``result: "stale"`` with the game on record: the ply moved on (a double tap, another tab), the game is
      being counted or is over.
    - 503 ``result: "error"``: the computer could not answer; nothing was stored.
    """
    row = _own_game_or_404(game_id)
    data = json_body()
    if not data.keys() <= MOVE_FIELDS or not _valid_ply(data.get("ply")) \
            or ("resign" in data) == ("move" in data) or data.get("resign", True) is not True:
        return refused()
    if row.state != "playing":
        return _on_record(row.id, messages.game_over() if row.state == "finished" else messages.counting_now())
    seen = data["ply"]
    if seen != row.ply:
        return _on_record(row.id, messages.board_changed())
    game = _position(row)
    side = game.to_play
    if _computer_plays(row) and side != row.kid_color:
        return _on_record(row.id, messages.not_your_turn())
    moves = list(row.moves)
    if data.get("resign"):
        game.resign(side)
        return _store(row, game, seen, moves, None, None, side)
    name = _move_name(game, data["move"])
    if name is None:
        return jsonify(result="illegal", reason="off-board", message=messages.illegal("off-board")), 400
    try:
        captured = game.play(name)
    except IllegalMove as e:
        return jsonify(result="illegal", reason=e.reason, message=messages.game_illegal(e.reason))
    moves.append(name)
    kid_rows = game.board_rows()
    reply = None
    if _computer_plays(row) and not game.over:
        try:
            reply = _computer_move(row, game)
        except _ComputerFailed:
            db.session.rollback()
            return jsonify(result="error", reason="computer", message=messages.computer_failed()), 503
        moves.append(reply)
    return _store(row, game, seen, moves, name, reply, side, kid_rows=kid_rows, captured=captured)


def _store(row: PlayedGame, game, seen: int, moves: list[str], move: str | None, reply: str | None, side: str,
           kid_rows=None, captured=()):
    """Write the new record if the ply is still the one the page saw; answer with both boards and the state."""
    values = {"moves": moves, "ply": len(moves), "updated_at": utcnow()}
    if game.over:
        values.update(_ending(row, game))
    done = db.session.execute(
        sa.update(PlayedGame).where(PlayedGame.id == row.id, PlayedGame.ply == seen, PlayedGame.state == "playing")
        .values(**values).execution_options(synchronize_session=False))
    if done.rowcount != 1:  # another tab or the same tap got there first
        return _on_record(row.id, messages.board_changed())
    db.session.refresh(row)
    won = _stickers(row) if row.state == "finished" else []
    db.session.commit()
    if row.state == "finished":
        reviews.ensure_runner()  # the review of the kid's moves starts now, outside this request
    body = _state_answer(row, game, "ok", milestones=won, move=move, reply=reply, side=side,
                         kid_rows=kid_rows or game.board_rows(), captured=list(captured))
    if reply is not None:  # shown while the page waits a moment before drawing the reply
        body["thinking"] = _turn_text(row, "white" if side == "black" else "black")
    if reply == "pass":  # after the kid's pass the computer's pass ends the game: counting starts, no pass is due
        name = _opponent(row)["name"]
        body["message"] = messages.computer_passed_too(name) if row.state == "counting" \
            else messages.computer_passed(name)
    elif move == "pass" and row.state == "playing":
        if reply is not None:  # the computer did not pass back: the game goes on, and the kid should know why
            body["message"] = messages.computer_plays_on(_opponent(row)["name"])
        elif not _computer_plays(row):  # pass and play: tell the one whose turn it is now that the other passed
            body["message"] = messages.player_passed(_player(row, side)["name"])
    return jsonify(body)


def _ending(row: PlayedGame, game) -> dict:
    """How a game the rules ended is stored: a full game ended by passes goes to counting; the others finish with
    their RE (``B+R`` after a resignation; ``B+C3`` for a capture game Black won with three captures; ``0`` a
    draw) and winner."""
    reason = game.end_reason
    if row.kind == "full" and reason == "passes":
        proposal = _proposal(game)
        return {"state": "counting", "dead": proposal, "proposed": proposal}
    winner = game.winner
    if reason == "resign":
        result = f"{winner[0].upper()}+R"
    elif winner is None:
        result = "0"
    else:
        result = f"{winner[0].upper()}+C{game.captures[winner]}"
    return {"state": "finished", "result": result, "winner": winner, "finished_at": utcnow()}


def _stickers(row: PlayedGame, counted: bool = False) -> list[dict]:
    """The play stickers this finished game reaches (each awarded once), for the banner to celebrate."""
    ids = milestones.game_milestones(kind=row.kind, kid_won=row.winner == row.kid_color,
                                     level_slug=CHARACTERS[row.level].slug if _computer_plays(row)
                                     and row.level in CHARACTERS else None, counted=counted)
    return [{"id": m.id, "picture": m.picture, "glyph": glyph(m.picture), "name": m.get(g.lang)}
            for m in milestones.award_ids(row.kid_id, ids)]


# ---------------------------------------------------------------------- counting
def _proposal(game) -> list[str]:
    """The dead stones the status reader proposes, within the count screen's budget for the whole board."""
    return counting.proposal(game)


def _count_view(row: PlayedGame, game, dead: list[str], you: str | None = None,
                coordinates: bool | None = None) -> dict:
    """The count screen: the board with the dead stones faded and every point's owner as a small square, the
    referee's sentence, the RE, and the same in kid words; ``tone``: "ahead" or "behind" for the child playing
    ``you`` (the kid line is green only when that child is ahead), "" at one tablet or a draw."""

    result = counting.count(game, dead)
    dead_set = set(dead)
    classes: dict[str, list[str]] = {}
    for p, owner in enumerate(result.owner):
        name = game.name(p)
        extra = [f"own-{owner}"] if owner else []
        if name in dead_set:
            extra.append("dead")
        if extra:
            classes[name] = extra
    marks = _Squares(square=[n for n, c in classes.items() if any(k.startswith("own-") for k in c)
                             and (n in dead_set or game.color_at(n) is None)])
    board = render_board(game.board_rows(), lang=g.lang, playable=True, marks=marks, point_classes=classes,
                         coordinates=step_settings(None)["coordinates"] if coordinates is None else coordinates)
    score = result.score
    return {"board": board, "dead": list(dead), "points": str(score), "points_words": score_words(str(score)),
            "referee": result.referee_zh() if g.lang == "zh" else result.referee_en(),
            # who wins, big; land still open is a note under it (both in one big line pushed the count's buttons
            # under a 1024x768 tablet's edge)
            "kid_line": _count_sentence(str(score)), "open_line": _open_words(game, result.owner),
            "winner": score.winner,
            "tone": "" if you is None or score.winner is None else "ahead" if score.winner == you else "behind"}


OPEN_SAID = 4  # empty points nobody owns that the count's words point out (a point or two between walls is usual)


def _open_words(game, owner: list[str]) -> str:
    """Said when a game ended with land still open: those points are shared half and half, which children who
    passed early did not expect ("you win by 3¼" on a board half empty); playing on would take them."""
    n = sum(1 for p, o in enumerate(owner) if not o and game.board[p] == EMPTY)
    if n < OPEN_SAID:
        return ""
    return ngettext("%(num)d point belongs to nobody yet, so it is shared. Keep playing to make it yours!",
                    "%(num)d points belong to nobody yet, so they are shared. Keep playing to make them yours!", n)


@dataclass
class _Squares:
    """Marks for render_board: a square on every owned point."""
    square: list


def _counting_row_or_answer(game_id: int, fields=COUNT_FIELDS, need_point=True):
    row = _own_game_or_404(game_id)
    data = json_body()
    if not data.keys() <= fields or not _valid_ply(data.get("ply")) or (need_point and "point" not in data):
        return row, data, refused()
    if row.state != "counting" or data["ply"] != row.ply:
        message = messages.game_over() if row.state == "finished" else messages.board_changed()
        return row, data, _on_record(row.id, message)
    return row, data, None


@bp.post("/<int:game_id>/count")
@kid_required
def count(game_id: int):
    """Tap a stone while counting: its whole group turns dead, or alive again. Body: ``{"point": "C3", "ply": n}``."""

    row, data, answer = _counting_row_or_answer(game_id)
    if answer is not None:
        return answer
    game = _position(row)
    dead, refusal = _tapped(game, row.dead, data["point"])
    if dead is None:
        return refusal
    holds = _computer_holds(row, game, dead) if _computer_plays(row) else None
    if holds is not None:
        return jsonify(result="disagree", message=messages.computer_disagrees(str(character(row.level).name), holds),
                       ply=row.ply, state="counting", dead=list(row.dead or []))
    db.session.execute(sa.update(PlayedGame).where(PlayedGame.id == row.id, PlayedGame.ply == row.ply,
                                                   PlayedGame.state == "counting")
                       .values(dead=dead, updated_at=utcnow()).execution_options(synchronize_session=False))
    db.session.commit()
    view = _count_view(row, game, dead, _counting_side(row))
    return jsonify(result="ok", message="", ply=row.ply, state="counting", dead=dead, board=str(view["board"]),
                   points=view["points"], points_words=view["points_words"], referee=view["referee"],
                   kid_line=view["kid_line"], open_line=view["open_line"], tone=view["tone"])


def _counting_side(row: PlayedGame) -> str | None:
    """The colour the child plays against the computer; None at one tablet (both sides are someone here)."""
    return None if row.opponent == "friend" else row.kid_color


def _computer_holds(row: PlayedGame, game, dead: list[str]) -> str | None:
    """Against the computer the kid counts alone, so the computer holds to what it proposed: the kid may mark the
    computer's stones alive (that only costs the kid) and take such a mark back; marking the computer's stones dead
    beyond its proposal is refused ("alive": the computer holds they live, the kid plays on to capture them), and
    so is marking alive the kid's own stones it proposed dead ("dead": the kid plays on to save them). Marking the
    kid's own living stones dead is refused too ("yours"): a child exploring with taps lost a won game by one tap
    on a big group. None when the computer agrees."""
    proposed = set(row.proposed or [])
    kid = row.kid_color
    for name in set(dead) - set(row.dead or []):
        if name not in proposed:
            return "alive" if game.color_at(name) != kid else "yours"
    for name in set(row.dead or []) - set(dead):
        if game.color_at(name) == kid and name in proposed:
            return "dead"
    return None


@bp.post("/<int:game_id>/count/done")
@kid_required
def count_done(game_id: int):
    """The players agree on the count: the result is stored and the game finished. Body: ``{"ply": n}``."""

    row, data, answer = _counting_row_or_answer(game_id, frozenset({"ply"}), need_point=False)
    if answer is not None:
        return answer
    game = _position(row)
    score = counting.count(game, list(row.dead or [])).score
    done = db.session.execute(
        sa.update(PlayedGame).where(PlayedGame.id == row.id, PlayedGame.ply == row.ply,
                                    PlayedGame.state == "counting")
        .values(state="finished", result=str(score), winner=score.winner, finished_at=utcnow(),
                updated_at=utcnow()).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        return _on_record(row.id, messages.board_changed())
    db.session.refresh(row)
    won = _stickers(row, counted=True)
    db.session.commit()
    reviews.ensure_runner()
    return jsonify(_state_answer(row, game, "ok", milestones=won))


@bp.post("/<int:game_id>/resume")
@kid_required
def resume(game_id: int):
    """The players do not agree on the count: play goes on (the computer moves first if it is its turn).
    Body: ``{"ply": n}``."""
    row, data, answer = _counting_row_or_answer(game_id, frozenset({"ply"}), need_point=False)
    if answer is not None:
        return answer
    game = _position(row)
    game.resume()
    moves = list(row.moves)
    if _computer_plays(row) and game.to_play != row.kid_color:
        try:
            moves.append(_computer_move(row, game))
        except _ComputerFailed:
            db.session.rollback()
            return jsonify(result="error", reason="computer", message=messages.computer_failed()), 503
    values = {"state": "playing", "dead": [], "proposed": None, "moves": moves, "ply": len(moves),
              "updated_at": utcnow()}
    if game.over:  # the computer passed again at once: back to counting
        values.update(_ending(row, game))
    done = db.session.execute(
        sa.update(PlayedGame).where(PlayedGame.id == row.id, PlayedGame.ply == row.ply,
                                    PlayedGame.state == "counting")
        .values(**values).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        return _on_record(row.id, messages.board_changed())
    db.session.commit()
    db.session.refresh(row)
    return jsonify(_state_answer(row, game, "ok", reload=True))

