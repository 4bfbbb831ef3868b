"""A live game between two classmates, each on their own device: the game page, its moves, resign and draw offers,
preset reactions, counting for both players (the teacher settles a disagreement), a child who left (the game
waits, then is adjourned or counted abandoned after the teacher's time), and watching (the class's teachers, the
players' parents).

All state is the ``LiveGame`` row, so any instance serves any request. Every change is one conditional
``UPDATE`` (``WHERE ply = <what the page saw>`` for a move, ``WHERE state = ...`` for the rest): of two moves
for one game arriving on two instances at once exactly one is played, and the other is answered 409 with the
game on record. Pages learn of changes by asking ``/state`` with the ETag they hold (``notify``).

JSON contract (every answer has ``result`` and ``message`` in kid words, and the game's state — see ``state_of``):
``POST /live/<id>/move {"move": "D4"|"pass", "ply": n}``; ``/resign {}``; ``/draw {"action": "offer"|"accept"|
"decline"}``; ``/react {"reaction": one of REACTIONS}``; ``/count {"point": "C3", "version": n}``; ``/agree
{"dead": [...]}``; ``/dispute {}``; ``/resume {}``; ``/settle {"version": n}`` (a teacher). 200 ``ok``,
200 ``illegal`` (with ``reason``), 409 ``stale`` (the game moved on: here it is), 400 ``error`` for a body the
page never sends, 404 for a game the visitor is not in (or may not watch).
"""

from __future__ import annotations

import random
import time
from datetime import timedelta

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, g, jsonify, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import force_locale
from flask_login import current_user, login_required

from teach.go import IllegalMove, counting
from teach.models import LiveGame, LiveSeat, Membership, PlayedGame, PlayRoom, StickerAward, User, utcnow
from teach.web import games, messages, milestones, notify, reviews
from teach.web.board import render_board
from teach.web.extensions import db
from teach.web.moves import json_body, refused
from teach.web.pictures import glyph
from teach.web.play import (KOMI, _count_sentence, _count_view, _move_name, _tapped, _valid_ply, capture_reason,
                             score_words)
from teach.web.played import BrokenRecord, game_of
from teach.web.security import ID_MAX, plain_int

bp = Blueprint("live", __name__, url_prefix="/live")

ACTIVE = ("playing", "counting", "disputed")
REACTIONS = ("thumbs", "smile", "nice-move", "good-game")
REACTION_GAP = timedelta(seconds=2)  # one reaction per player every two seconds: no flood of pictures
SEEN_EVERY = timedelta(seconds=10)  # how often a page's questions refresh the player's "still here"
AWAY_NOTICE = timedelta(seconds=30)  # after this the other page says "X left: the game waits"
STOP_HOURS = 12  # a teacher's "stop the games" holds the class's games this long at most (the rest of the day)
POLL_WAITING_MS = 750  # a page waiting for the opponent's move asks this often (the 1 s promise)
POLL_IDLE_MS = 3000  # a page whose turn it is, or that is watching, asks less often
HEARTBEAT_MS = 15000  # and without a condition this often: it says "still here" and repairs a lost version
# nothing changed for a while (a child thinking long, both away from the tablet): ask less often, up to the idle
# rhythm; the first move after the quiet is seen a little later, every move in a game going on is not
QUIET_STEPS = ((20_000, 1500), (60_000, POLL_IDLE_MS))
HIDDEN_POLL_MS = HEARTBEAT_MS  # a page in a hidden tab only says "still here"; shown again, it asks at once


def reaction_words() -> dict[str, str]:
    return {"thumbs": "👍", "smile": "😊", "nice-move": _("Nice move!"), "good-game": _("Good game!")}


# ---------------------------------------------------------------------- who is looking
def _row_or_404(game_id: int) -> LiveGame:
    if not 1 <= game_id <= ID_MAX:
        abort(404)
    row = db.session.get(LiveGame, game_id)
    if row is None:
        abort(404)
    return row


def viewer_of(row: LiveGame) -> tuple[str | None, bool]:
    """(the visitor's colour in the game, may they watch); 404 for anyone else. Players are the two kids;
    watchers are the class's teachers and the players' approved parents (``games.may_see``)."""
    if current_user.role == "kid":
        color = row.color_of(current_user.id)
        if color is None:
            abort(404)
        return color, True
    if games.may_see(row.black_id) or games.may_see(row.white_id):
        return None, True
    abort(404)


def _teacher_of(row: LiveGame) -> bool:
    """A teacher of the game's class (who may settle its count and resume it)."""
    if current_user.role != "teacher":
        return False
    return db.session.scalar(sa.select(Membership.id).where(
        Membership.group_id == row.group_id, Membership.user_id == current_user.id,
        Membership.role == "teacher").limit(1)) is not None


def _player_or_404(game_id: int) -> tuple[LiveGame, str]:
    row = _row_or_404(game_id)
    if current_user.role != "kid":
        abort(403)
    color = row.color_of(current_user.id)
    if color is None:
        abort(404)
    return row, color


def _position(row: LiveGame):
    try:
        game = game_of(row)
    except BrokenRecord:
        current_app.logger.warning("live game %s no longer replays", row.id)
        abort(404)
    return game


def _other(color: str) -> str:
    return "white" if color == "black" else "black"


# ---------------------------------------------------------------------- what a page shows
_NAMES: dict[int, tuple[float, str, str]] = {}  # kid id -> (until, first name, avatar): a page asks every second
NAMES_SECONDS = 60.0
NAMES_MAX = 5000


def _players(row: LiveGame) -> dict:
    """Each side's first name and avatar (kept a minute per process: a renamed child shows within a minute)."""
    now = time.monotonic()
    wanted = [k for k in (row.black_id, row.white_id) if _NAMES.get(k, (0.0,))[0] < now]
    if wanted:
        if len(_NAMES) > NAMES_MAX:
            _NAMES.clear()
        for u in db.session.scalars(sa.select(User).where(User.id.in_(wanted))):
            _NAMES[u.id] = (now + NAMES_SECONDS, games.first_name(u.name), glyph(u.avatar or "star"))
    out = {}
    for color, kid_id in (("black", row.black_id), ("white", row.white_id)):
        _until, name, picture = _NAMES.get(kid_id, (0.0, "", "⭐"))
        out[color] = {"name": name, "glyph": picture, "color": color}
    return out


def _turn(row: LiveGame, to_move: str, you: str | None, players: dict) -> str:
    """Whose turn it is, in words; after a pass, that it was one and what a second pass does (the board shows
    nothing of a pass: no stone, no last-move mark)."""
    if row.state != "playing":
        return ""
    if row.moves and row.moves[-1] == "pass":
        passer = _other(to_move)
        ends = _("If you pass too, the game ends.") if row.kind == "full" else \
            _("If you pass too, the game ends: more captures wins.")
        if you == to_move:
            return _("%(name)s passed. Your turn!", name=players[passer]["name"]) + " " + ends
        if you == passer:
            return _("You passed. If %(name)s passes too, the game ends.", name=players[to_move]["name"])
    if you == to_move:
        return _("Your turn!")
    if you is not None:
        return _("%(name)s is thinking…", name=players[to_move]["name"])
    return _("%(name)s's turn!", name=players[to_move]["name"])


def _banner(row: LiveGame, game, you: str | None, players: dict) -> dict | None:
    if row.state != "finished":
        return None
    winner = row.winner
    if winner is None:
        title, mood = _("A draw! Nobody wins, nobody loses."), "draw"
    elif you == winner:
        title, mood = _("You won!"), "win"
    elif you is not None:
        title, mood = _("%(name)s won this time. Play again?", name=players[winner]["name"]), "lose"
    else:
        title, mood = _("%(name)s won!", name=players[winner]["name"]), "win"
    loser = _other(winner) if winner else None
    reason = {
        "resign": lambda: _("%(name)s resigned.", name=players[loser]["name"]),
        "draw": lambda: _("Both players agreed on a draw."),
        "abandoned": lambda: _("%(name)s left the game and did not come back in time.", name=players[loser]["name"]),
        "settled": lambda: _("The teacher counted the game."),
    }.get(row.end_reason or "", lambda: "")()
    if row.end_reason == "captures" and winner:
        n = game.captures[winner]
        reason = capture_reason(players[winner]["name"], n, row.capture_goal)
    elif row.end_reason == "passes" and row.kind == "capture":
        reason = _("Both passed: more captures wins.")
    referee = ""
    if row.kind == "full" and row.end_reason in ("count", "settled"):
        counted = counting.count(game, row.dead or [])
        referee = counted.referee_zh() if g.lang == "zh" else counted.referee_en()
        reason = (reason + " " if reason else "") + _count_sentence(row.result or "")
    return {"title": title, "mood": mood, "reason": reason, "referee": referee,
            "result": row.result if row.kind == "full" else "",  # a capture game's reason says it all
            "result_words": score_words(row.result),
            "glyph": "🎉" if mood == "win" else "🤝" if mood == "draw" else "💪"}


def _away(row: LiveGame, you: str | None, now) -> dict | None:
    """The opponent who has not been seen for a while, and how long the game still waits for them."""
    if row.state != "playing":
        return None
    for color in ("black", "white"):
        if color == you:
            continue
        seen = getattr(row, f"{color}_seen_at")
        if seen is not None and now - seen > AWAY_NOTICE:
            left = max(0, row.away_seconds - int((now - seen).total_seconds()))
            return {"color": color, "seconds_left": left, "outcome": row.away_outcome}
    return None


def stopped(group_id: int) -> bool:
    """Whether the class's teacher stopped its games (the lesson is over) and has not let them play again: no game
    of the class is played on or started by the children meanwhile (a teacher may still play one on)."""
    at = db.session.scalar(sa.select(PlayRoom.stopped_at).where(PlayRoom.group_id == group_id))
    return at is not None and utcnow() - at < timedelta(hours=STOP_HOURS)


def stopped_words() -> str:
    return _("The teacher has stopped the games for now. You can play on when your teacher says so.")


def state_of(row: LiveGame, game, you: str | None) -> dict:
    """Everything a game page (a player's or a watcher's) draws, in one JSON object."""
    players = _players(row)
    now = utcnow()
    body = {
        "game": row.id, "version": row.version, "ply": row.ply, "state": row.state, "kind": row.kind,
        "size": row.size, "goal": row.capture_goal, "to_move": game.to_play, "you": you,
        "rows": game.board_rows(), "last": _last(row), "captures": game.captures, "players": players,
        "turn": _turn(row, game.to_play, you, players), "draw_offer": row.draw_offer,
        "reaction": _reaction(row), "away": _away(row, you, now), "dead": list(row.dead or []),
        "agreed": list(row.agreed or []), "game_result": row.result, "winner": row.winner,
        "banner": _banner(row, game, you, players),
        "poll": POLL_WAITING_MS if row.state == "playing" and you is not None and game.to_play != you
        else POLL_IDLE_MS,
        "heartbeat": HEARTBEAT_MS, "quiet": [list(step) for step in QUIET_STEPS], "hidden_poll": HIDDEN_POLL_MS,
        "hold": notify.hold_seconds(),  # > 0: a page may ask to be held until the game changes (?wait=)
    }
    if row.state in ("counting", "disputed"):
        view = _count_view(row, game, list(row.dead or []), you, coordinates=games.board_coordinates())
        body.update(count_board=str(view["board"]), points=view["points"], points_words=view["points_words"],
                    referee=view["referee"], kid_line=view["kid_line"], open_line=view["open_line"],
                    tone=view["tone"])
    if row.state == "adjourned":
        body["stopped"] = stopped(row.group_id)
        body["notice"] = stopped_words() if body["stopped"] else \
            _("This game is resting. Tap “play on” when you are both here.")
    if row.state == "disputed":
        body["notice"] = _("You do not agree on the count: the teacher will come and count with you.")
    if row.state == "finished":
        record = row.black_record_id if you == "black" else row.white_record_id if you == "white" else None
        if record:
            body["review"] = url_for("games.review", game_id=record)
        if you is not None:
            body["milestones"] = _stickers_won(row, you)
    return body


STICKER_WINDOW = timedelta(seconds=30)  # a game's stickers are awarded in the commit that finishes it


def _stickers_won(row: LiveGame, color: str) -> list[dict]:
    """The stickers this game gave the child playing ``color``, for the end banner of both children: the one
    whose tap ended the game hears of them in that answer, the other when their page sees the game end."""
    earned = milestones.game_milestones(kind=row.kind, kid_won=row.winner == color, level_slug=None,
                                        counted=row.end_reason in ("count", "settled"))
    if not earned or row.finished_at is None:
        return []
    kid_id = row.black_id if color == "black" else row.white_id
    got = db.session.scalars(sa.select(StickerAward.sticker_id).where(
        StickerAward.kid_id == kid_id, StickerAward.sticker_id.in_(sorted(earned)),
        StickerAward.awarded_at >= row.finished_at - STICKER_WINDOW))
    found = [milestones.BY_ID[i] for i in sorted(got) if i in milestones.BY_ID]
    return [{"id": m.id, "picture": m.picture, "glyph": glyph(m.picture), "name": m.get(g.lang)} for m in found]


def delta_of(row: LiveGame, game, you: str | None, since_ply: int) -> dict:
    """What changed for a page that shows the game at ``since_ply`` while it is being played: the moves since,
    the board after them and the few things a move changes — a fifth of the full answer, with none of its
    names, banners or counting. ``"delta": true`` tells the page to apply it to what it shows."""
    players = _players(row)
    return {
        "delta": True, "game": row.id, "version": row.version, "ply": row.ply, "state": row.state,
        "moves": list(row.moves[since_ply:]), "to_move": game.to_play, "rows": game.board_rows(), "last": _last(row),
        "captures": game.captures, "turn": _turn(row, game.to_play, you, players), "draw_offer": row.draw_offer,
        "reaction": _reaction(row), "away": _away(row, you, utcnow()),
        "poll": POLL_WAITING_MS if you is not None and game.to_play != you else POLL_IDLE_MS,
    }


def _last(row: LiveGame) -> str | None:
    last = row.moves[-1] if row.moves else None
    return last if last and last != "pass" else None


def _reaction(row: LiveGame) -> dict | None:
    r = row.reaction
    if not isinstance(r, dict) or r.get("id") not in REACTIONS:
        return None
    return {"color": r.get("color"), "id": r["id"], "n": r.get("n", 0), "text": reaction_words()[r["id"]]}


def _answer(row: LiveGame, you: str | None, result: str = "ok", message: str = "", status: int = 200, game=None,
            **extra):
    game = _position(row) if game is None else game
    body = {"result": result, "message": message, **state_of(row, game, you), **extra}
    response = make_response(jsonify(body), status)
    response.headers["ETag"] = notify.etag(row.id, row.version)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _on_record(game_id: int, you: str | None, message: str):
    """409: the game as it is stored now, for the page to show."""
    db.session.rollback()
    row = db.session.get(LiveGame, game_id)
    db.session.refresh(row)
    return _answer(row, you, "stale", message, 409)


# ---------------------------------------------------------------------- the page and its questions
@bp.get("/<int:game_id>")
@login_required
def page(game_id: int):
    row = _row_or_404(game_id)
    you, _watch = viewer_of(row)
    game = _position(row)
    state = state_of(row, game, you)
    board = render_board(game.board_rows(), lang=g.lang, playable=you is not None and row.state == "playing",
                         last=_last(row), coordinates=games.board_coordinates())
    urls = {what: url_for(f"live.{what}", game_id=row.id)
            for what in ("state", "move", "resign", "draw", "react", "count", "agree", "dispute", "resume",
                         "settle")}
    teacher = _teacher_of(row)
    return render_template("room/game.html", row=row, state=state, board=board, you=you, urls=urls,
                           reactions=reaction_words(), teacher=teacher, narrate=you is not None and games.narrated(),
                           room_url=url_for("room.home") if you else None,
                           # a teacher watching goes back to the class's live games, not to a dead end
                           live_url=url_for("room.live_view", class_id=row.group_id) if teacher else None)


def _database_version(game_id: int) -> int | None:
    return db.session.scalar(sa.select(LiveGame.version).where(LiveGame.id == game_id))


def _unchanged_first():
    """Before anything else of the request (the language, which loads the account, the rate limits): a page
    asking with the ETag it holds of a game that has not changed is answered 304 from Redis alone."""
    if request.endpoint != "live.state" or "If-None-Match" not in request.headers:
        return None
    game_id = (request.view_args or {}).get("game_id", 0)
    if not 1 <= game_id <= ID_MAX:
        return None
    if "here" in request.args:
        unchanged = _heartbeat_unchanged(game_id, request.headers["If-None-Match"])
    elif request.environ.get(notify.CHANGED):  # the middleware asked Redis a moment ago: changed
        return None
    else:
        unchanged = notify.unchanged(game_id, request.headers["If-None-Match"], _database_version)
    if unchanged:
        response = make_response("", 304)
        response.headers["ETag"] = request.headers["If-None-Match"]
        response.headers["Cache-Control"] = "no-cache, private"
        return response
    return None


def _heartbeat_unchanged(game_id: int, if_none_match: str) -> bool:
    """The page's "still here" every few seconds (``?here=1``), asked of the database, not Redis: so a version
    Redis missed is put right (a full answer), and the player is noted as here. Answered 304 from one small query
    (and the "here" update when due) while the game is as the page shows it and both players are here; a game
    with a player away goes to the full answer, which says so and adjourns it when the time is up."""
    found = db.session.execute(sa.select(
        LiveGame.version, LiveGame.state, LiveGame.black_id, LiveGame.white_id, LiveGame.black_seen_at,
        LiveGame.white_seen_at).where(LiveGame.id == game_id)).one_or_none()
    if found is None or not notify.unchanged(game_id, if_none_match, lambda _id: found.version, redis=False):
        return False
    now = utcnow()
    if found.state == "playing" and any(seen is None or now - seen > AWAY_NOTICE
                                        for seen in (found.black_seen_at, found.white_seen_at)):
        return False
    # the account named by the signed session cookie, whose ETag this is (bound to it by the HMAC)
    account = notify.session_account().partition(":")[0]
    for color, kid_id, seen in (("black", found.black_id, found.black_seen_at),
                                ("white", found.white_id, found.white_seen_at)):
        if account == str(kid_id) and found.state == "playing" and now - seen > SEEN_EVERY:
            db.session.execute(sa.update(LiveGame).where(LiveGame.id == game_id).values({f"{color}_seen_at": now})
                               .execution_options(synchronize_session=False))
            db.session.commit()
    return True


@bp.record_once
def _answer_unchanged_first(state) -> None:
    state.app.before_request_funcs.setdefault(None, []).insert(0, _unchanged_first)


@bp.get("/<int:game_id>/state")
def state(game_id: int):
    """The game now (a 304 when the page's ETag is still the game's is answered before: ``_unchanged_first``)."""
    if not 1 <= game_id <= ID_MAX:
        abort(404)
    if not current_user.is_authenticated:
        return jsonify(result="signed-out", message=_("Please sign in again."), login=url_for("main.home")), 401
    row = _row_or_404(game_id)
    you, _watch = viewer_of(row)
    now = utcnow()
    if _away_check(row, now):
        db.session.commit()
        db.session.refresh(row)
    since = _shown_ply(row)
    if since is not None:
        response = _delta_answer(row, you, since)
    else:
        response = _answer(row, you)
        notify.published(row.id, row.version)  # also puts right a version Redis missed
    if you is not None and _still_here(row, you, now):  # after the answer is made: no reload of the row
        db.session.commit()
    return response


def _shown_ply(row: LiveGame) -> int | None:
    """The ply of the page's board, when an answer of what changed since is enough: the game is being played, the
    page says which ply it shows (``?ply=``) and holds an ETag this session was given for this game. Anything
    else (a reconnect, the heartbeat, a game that ended or rests) gets the full answer."""
    if row.state != "playing":
        return None
    text = request.args.get("ply", "")
    since = plain_int(text, 4)
    if since is None or since > row.ply:
        return None
    if notify.version_of_tag(request.headers.get("If-None-Match"), row.id) is None:
        return None
    return since


def _delta_answer(row: LiveGame, you: str | None, since: int):
    body = {"result": "ok", "message": "", **delta_of(row, _position(row), you, since)}
    response = make_response(jsonify(body), 200)
    response.headers["ETag"] = notify.etag(row.id, row.version)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _still_here(row: LiveGame, you: str, now) -> bool:
    column = getattr(LiveGame, f"{you}_seen_at")
    seen = getattr(row, f"{you}_seen_at")
    if seen is None or now - seen > SEEN_EVERY:
        db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id).values({column: now})
                           .execution_options(synchronize_session=False))
        return True
    return False


def _away_check(row: LiveGame, now) -> bool:
    """A player gone longer than the teacher's time: the game is adjourned, or (if the teacher said so and the
    other player is here) counted abandoned. One conditional update, so two pages doing it at once do it once."""
    if row.state != "playing":
        return False
    limit = timedelta(seconds=row.away_seconds)
    gone = [c for c in ("black", "white")
            if getattr(row, f"{c}_seen_at") is not None and now - getattr(row, f"{c}_seen_at") > limit]
    if not gone:
        return False
    base = sa.update(LiveGame).where(LiveGame.id == row.id, LiveGame.state == "playing",
                                     LiveGame.version == row.version)
    if row.away_outcome == "abandon" and len(gone) == 1:
        winner = _other(gone[0])
        values = {"state": "finished", "result": f"{winner[0].upper()}+F", "winner": winner,
                  "end_reason": "abandoned", "finished_at": now}
    else:
        values = {"state": "adjourned", "draw_offer": None}
    done = db.session.execute(base.values(version=LiveGame.version + 1, updated_at=now, **values)
                              .execution_options(synchronize_session=False))
    if done.rowcount == 1:
        db.session.execute(sa.delete(LiveSeat).where(LiveSeat.game_id == row.id)
                           .execution_options(synchronize_session=False))
    if done.rowcount == 1 and values["state"] == "finished":
        db.session.refresh(row)
        _keep_records(row, _position(row))
    return done.rowcount == 1


# ---------------------------------------------------------------------- changes
def _changed(row: LiveGame, where, values: dict, you: str, message: str = "", game=None, finishing=False):
    """One conditional UPDATE of the game (``where`` says what the page saw); 409 with the record if it no
    longer holds. A change that ends the game keeps each child's record and stickers in the same commit."""
    now = utcnow()
    values = {**values, "version": LiveGame.version + 1, "updated_at": now, f"{you}_seen_at": now}
    done = db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id, *where).values(**values)
                              .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        return _on_record(row.id, you, messages.board_changed())
    db.session.refresh(row)
    release_seats(row)
    won = []
    if row.state == "finished":
        won = _keep_records(row, game or _position(row), you)
    db.session.commit()
    db.session.refresh(row)
    now = game if game is not None and len(game.moves) == row.ply else _position(row)
    _publish(row, now)
    if row.state == "finished":
        reviews.ensure_runner()
    return _answer(row, you, "ok", message, milestones=won, game=now)


def _publish(row: LiveGame, game) -> None:
    """The change, to every instance's pages: the version, and while the game is being played what changed for
    each player's page, so the middleware answers it without Flask (``notify.UnchangedPolls``)."""
    notify.published(row.id, row.version, snapshot_of(row, game) if row.state == "playing" else None)


def snapshot_of(row: LiveGame, game) -> dict:
    """What ``delta_of`` answers each player at this version, in both languages: the game's part, the turn line
    and the reaction in each language, each player's rhythm, when each was last seen, the language each
    account chose, and a key of each player's session (an HMAC of what the signed cookie names, so a session
    signed out, re-passworded or archived since no longer matches the next snapshot)."""
    accounts = {u.id: u for u in db.session.execute(sa.select(User.id, User.session_secret, User.locale,
                                                              User.archived)
                                                    .where(User.id.in_([row.black_id, row.white_id])))}
    players = _players(row)
    snap = {"game": row.id, "version": row.version, "at": time.time(), "ply": row.ply, "state": row.state,
            "moves": list(row.moves),
            "to_move": game.to_play, "rows": game.board_rows(), "last": _last(row), "captures": game.captures,
            "draw_offer": row.draw_offer, "turn": {}, "reaction": {}, "poll": {}, "seen": {}, "key": {},
            "locale": {}}
    for lang, locale in (("zh", "zh_Hans_CN"), ("en", "en")):
        with force_locale(locale):
            snap["turn"][lang] = {c: _turn(row, game.to_play, c, players) for c in ("black", "white")}
            snap["reaction"][lang] = _reaction(row)
    for color, kid_id in (("black", row.black_id), ("white", row.white_id)):
        seen = getattr(row, f"{color}_seen_at")
        snap["seen"][color] = seen.timestamp() if seen is not None else None
        snap["poll"][color] = POLL_WAITING_MS if game.to_play != color else POLL_IDLE_MS
        account = accounts.get(kid_id)
        live = account is not None and account.session_secret and not account.archived
        snap["key"][color] = notify.player_key(f"{kid_id}:{account.session_secret}") if live else ""
        snap["locale"][color] = account.locale if account is not None else None
    return snap


def _ending(row: LiveGame, game) -> dict:
    """A game the rules ended: a full game after two passes goes to counting (the reader proposes the dead
    stones); the capture game (or resignation) finishes with its RE."""
    reason = game.end_reason
    if row.kind == "full" and reason == "passes":
        return {"state": "counting", "dead": counting.proposal(game), "agreed": []}
    winner = game.winner
    if reason == "resign":
        result = f"{winner[0].upper()}+R"
    elif winner is None:
        result = "0"
    else:
        result = f"{winner[0].upper()}+C{game.captures[winner]}"
    return {"state": "finished", "result": result, "winner": winner, "finished_at": utcnow(),
            "end_reason": "captures" if reason == "captures" else reason}


@bp.post("/<int:game_id>/move")
@login_required
def move(game_id: int):
    row, you = _player_or_404(game_id)
    data = json_body()
    if not data.keys() <= {"move", "ply"} or "move" not in data or not _valid_ply(data.get("ply")):
        return refused()
    if row.state != "playing":
        return _on_record(row.id, you, messages.game_over() if row.state == "finished" else _not_now(row))
    if data["ply"] != row.ply:
        return _on_record(row.id, you, messages.board_changed())
    game = _position(row)
    if game.to_play != you:
        return _on_record(row.id, you, messages.not_your_turn())
    name = _move_name(game, data["move"])
    if name is None:
        return jsonify(result="illegal", reason="off-board", message=messages.illegal("off-board")), 400
    try:
        game.play(name)
    except IllegalMove as e:
        return jsonify(result="illegal", reason=e.reason, message=messages.game_illegal(e.reason))
    moves = [*row.moves, name]
    values = {"moves": moves, "ply": len(moves), "draw_offer": None}
    if game.over:
        values.update(_ending(row, game))
    return _changed(row, (LiveGame.ply == data["ply"], LiveGame.state == "playing"), values, you, game=game)


def _not_now(row: LiveGame) -> str:
    if row.state == "adjourned":
        return _("This game is resting. Tap “play on” when you are both here.")
    return messages.counting_now()


def _empty_body() -> bool:
    """No body, or a JSON body that is an empty object; a body that cannot be read is not "empty" (it was
    taken for one, and resigned a game)."""
    raw = request.get_data()
    if raw.strip() in (b"", b"{}"):
        return True
    return request.is_json and request.get_json(silent=True) == {}


@bp.post("/<int:game_id>/resign")
@login_required
def resign(game_id: int):
    """Resigning while the other player's move is on its way: whichever update comes first holds, and the record
    is exact either way (the move then the resignation, or the resignation and no move)."""
    row, you = _player_or_404(game_id)
    if not _empty_body():
        return refused()
    if row.state not in ("playing", "counting", "disputed"):
        return _on_record(row.id, you, messages.game_over())
    winner = _other(you)
    values = {"state": "finished", "result": f"{winner[0].upper()}+R", "winner": winner, "end_reason": "resign",
              "finished_at": utcnow(), "draw_offer": None}
    return _changed(row, (LiveGame.state.in_(ACTIVE),), values, you)


@bp.post("/<int:game_id>/draw")
@login_required
def draw(game_id: int):
    row, you = _player_or_404(game_id)
    data = json_body()
    action = data.get("action")
    if data.keys() != {"action"} or action not in ("offer", "accept", "decline"):
        return refused()
    if row.state != "playing":
        return _on_record(row.id, you, messages.game_over() if row.state == "finished" else _not_now(row))
    other = _other(you)
    if action == "offer":
        if row.draw_offer is not None:
            return _on_record(row.id, you, _("A draw is already offered."))
        return _changed(row, (LiveGame.state == "playing", LiveGame.draw_offer.is_(None)), {"draw_offer": you},
                        you, _("You offered a draw. Let’s see what your friend says."))
    if row.draw_offer != other:
        return _on_record(row.id, you, _("There is no draw offer to answer now."))
    if action == "decline":
        return _changed(row, (LiveGame.state == "playing", LiveGame.draw_offer == other), {"draw_offer": None},
                        you, _("No draw: play on!"))
    values = {"state": "finished", "result": "0", "winner": None, "end_reason": "draw", "finished_at": utcnow(),
              "draw_offer": None}
    return _changed(row, (LiveGame.state == "playing", LiveGame.draw_offer == other), values, you)


@bp.post("/<int:game_id>/react")
@login_required
def react(game_id: int):
    """A preset reaction (no text between children, ever): one of REACTIONS, one every two seconds."""
    row, you = _player_or_404(game_id)
    data = json_body()
    if data.keys() != {"reaction"} or data["reaction"] not in REACTIONS:
        return refused()
    now = utcnow()
    n = (row.reaction or {}).get("n", 0) + 1 if isinstance(row.reaction, dict) else 1
    where = (sa.or_(LiveGame.reacted_at.is_(None), LiveGame.reacted_at < now - REACTION_GAP),
             LiveGame.version == row.version)
    done = db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id, *where).values(
        reaction={"color": you, "id": data["reaction"], "n": n}, reacted_at=now, version=LiveGame.version + 1,
        updated_at=now).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        return _on_record(row.id, you, _("Wait a moment before the next one."))
    db.session.commit()
    db.session.refresh(row)
    game = _position(row)
    _publish(row, game)
    return _answer(row, you, game=game)


# ---------------------------------------------------------------------- counting
def _version_of(data) -> int | None:
    v = data.get("version")
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 < v <= ID_MAX else None


@bp.post("/<int:game_id>/count")
@login_required
def count(game_id: int):
    """Tap a group while counting: dead or alive again (both players may; the teacher while settling). Every tap
    takes back both players' agreement."""
    row = _row_or_404(game_id)
    you, _watch = viewer_of(row)
    teacher = _teacher_of(row)
    data = json_body()
    if data.keys() != {"point", "version"} or _version_of(data) is None:
        return refused()
    allowed = "counting" if you is not None else "disputed" if teacher else None
    if allowed is None:
        abort(403)
    if row.state != allowed or data["version"] != row.version:
        return _on_record(row.id, you, messages.board_changed() if row.state == allowed else _count_closed(row))
    game = _position(row)
    dead, refusal = _tapped(game, row.dead, data["point"])
    if dead is None:
        return refusal
    return _changed_by(row, you, (LiveGame.state == allowed, LiveGame.version == data["version"]),
                       {"dead": dead, "agreed": []})


def _changed_by(row: LiveGame, you: str | None, where, values: dict, message: str = ""):
    """A change by a player or a teacher (no "seen" to note for a teacher)."""
    if you is not None:
        return _changed(row, where, values, you, message)
    now = utcnow()
    done = db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id, *where)
                              .values(**values, version=LiveGame.version + 1, updated_at=now)
                              .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        return _on_record(row.id, None, messages.board_changed())
    db.session.refresh(row)
    release_seats(row)
    won = _keep_records(row, _position(row)) if row.state == "finished" else []
    db.session.commit()
    db.session.refresh(row)
    game = _position(row)
    _publish(row, game)
    if row.state == "finished":
        reviews.ensure_runner()
    return _answer(row, None, "ok", message, milestones=won, game=game)


def _count_closed(row: LiveGame) -> str:
    if row.state == "finished":
        return messages.game_over()
    if row.state == "disputed":
        return _("You do not agree on the count: the teacher will come and count with you.")
    return messages.board_changed()


@bp.post("/<int:game_id>/agree")
@login_required
def agree(game_id: int):
    """"I agree with the count as marked": the page sends the dead stones it shows. When both players agree, the
    game is counted and finished. The other player agreeing at the same moment is no conflict: retried."""
    row, you = _player_or_404(game_id)
    data = json_body()
    if data.keys() != {"dead"} or not isinstance(data["dead"], list) or len(data["dead"]) > 19 * 19 \
            or not all(isinstance(p, str) and len(p) <= 4 for p in data["dead"]):
        return refused()
    for _attempt in range(3):
        if row.state != "counting":
            return _on_record(row.id, you, _count_closed(row))
        if sorted(row.dead or []) != sorted(data["dead"]):
            return _on_record(row.id, you, _("The marks changed: look again, then say if you agree."))
        agreed = sorted(set(row.agreed or []) | {you})
        values: dict = {"agreed": agreed}
        game = None
        if len(agreed) == 2:
            game = _position(row)
            score = counting.count(game, list(row.dead or [])).score
            values.update(state="finished", result=str(score), winner=score.winner, end_reason="count",
                          finished_at=utcnow())
        now = utcnow()
        done = db.session.execute(sa.update(LiveGame).where(
            LiveGame.id == row.id, LiveGame.state == "counting", LiveGame.version == row.version).values(
            **values, version=LiveGame.version + 1, updated_at=now, **{f"{you}_seen_at": now})
            .execution_options(synchronize_session=False))
        if done.rowcount == 1:
            db.session.refresh(row)
            release_seats(row)
            won = _keep_records(row, game, you) if row.state == "finished" else []
            db.session.commit()
            db.session.refresh(row)
            _publish(row, game)
            if row.state == "finished":
                reviews.ensure_runner()
            return _answer(row, you, "ok", "" if row.state == "finished" else
                           _("Now your friend says if they agree."), milestones=won)
        db.session.rollback()
        row = db.session.get(LiveGame, game_id)
        db.session.refresh(row)
    return _on_record(row.id, you, messages.board_changed())


@bp.post("/<int:game_id>/dispute")
@login_required
def dispute(game_id: int):
    row, you = _player_or_404(game_id)
    if not _empty_body():
        return refused()
    if row.state != "counting":
        return _on_record(row.id, you, _count_closed(row))
    return _changed(row, (LiveGame.state == "counting",), {"state": "disputed", "agreed": []}, you,
                    _("You do not agree on the count: the teacher will come and count with you."))


@bp.post("/<int:game_id>/settle")
@login_required
def settle(game_id: int):
    """The teacher counts a disputed game: the stones marked now are dead, and the result stands."""
    row = _row_or_404(game_id)
    viewer_of(row)
    if not _teacher_of(row):
        abort(403)
    data = json_body()
    if data.keys() != {"version"} or _version_of(data) is None:
        return refused()
    if row.state != "disputed" or data["version"] != row.version:
        return _on_record(row.id, None, _count_closed(row) if row.state != "disputed" else messages.board_changed())
    score = counting.count(_position(row), list(row.dead or [])).score
    return _changed_by(row, None, (LiveGame.state == "disputed", LiveGame.version == data["version"]),
                       {"state": "finished", "result": str(score), "winner": score.winner, "end_reason": "settled",
                        "finished_at": utcnow()})


@bp.post("/<int:game_id>/resume")
@login_required
def resume(game_id: int):
    """Play on in an adjourned game (a player, or the teacher). Two taps on "play on" at once resume it once; the
    second is told it is going on already."""
    row = _row_or_404(game_id)
    you, _watch = viewer_of(row)
    if you is None and not _teacher_of(row):
        abort(403)
    if not _empty_body():
        return refused()
    if row.state != "adjourned":
        return _on_record(row.id, you, _("This game is going on already.") if row.state in ACTIVE
                          else messages.game_over())
    if not _teacher_of(row) and stopped(row.group_id):  # the teacher said the games are over for now
        return _on_record(row.id, you, stopped_words())
    # claim the game first, in the transaction that seats the children and resumes it: a second tap waits here
    # for the first to commit and is told the game goes on. (Seating first let SQLite commit the seats at the end
    # of their savepoint, before the game said "playing", and the second tap then read a game still resting.)
    claimed = db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id, LiveGame.state == "adjourned")
                                 .values(updated_at=utcnow()).execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        return _on_record(row.id, you, _("This game is going on already."))
    try:
        take_seats([row])
    except SeatTaken:
        db.session.rollback()
        db.session.refresh(row)
        if row.state in ACTIVE:  # the other tap resumed it a moment ago
            return _on_record(row.id, you, _("This game is going on already."))
        return _on_record(row.id, you, _("Finish the game you are playing first.") if you else
                          _("One of the children is playing another game now."))
    now = utcnow()
    return _changed_by(row, you, (LiveGame.state == "adjourned",),
                       {"state": "playing", "black_seen_at": now, "white_seen_at": now})


# ---------------------------------------------------------------------- the end: each child's record
def _keep_records(row: LiveGame, game, you: str | None = None) -> list[dict]:
    """Each child's ``PlayedGame`` copy of the finished game (their games list, replay, review, and what their
    teacher and parents see) and their stickers; the stickers of ``you`` are returned for the banner."""
    players = _players(row)
    won_now: list[dict] = []
    ids = {}
    for color, kid_id in (("black", row.black_id), ("white", row.white_id)):
        record = PlayedGame(kid_id=kid_id, kind=row.kind, size=row.size, komi=row.komi, handicap=0,
                            capture_goal=row.capture_goal, kid_color=color, opponent="friend",
                            friend_name=players[_other(color)]["name"][:40] or None,
                            friend_id=row.white_id if color == "black" else row.black_id, seed=0, moves=list(row.moves),
                            ply=row.ply, state="finished", dead=list(row.dead or []), result=row.result,
                            winner=row.winner, finished_at=row.finished_at or utcnow())
        db.session.add(record)
        db.session.flush()
        ids[f"{color}_record_id"] = record.id
        earned = milestones.game_milestones(kind=row.kind, kid_won=row.winner == color, level_slug=None,
                                            counted=row.end_reason in ("count", "settled"))
        new = milestones.award_ids(kid_id, earned)
        if color == you:
            won_now = [{"id": m.id, "picture": m.picture, "glyph": glyph(m.picture), "name": m.get(g.lang)}
                       for m in new]
    db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id).values(**ids)
                       .execution_options(synchronize_session=False))
    return won_now


def new_live_game(group_id: int, black_id: int, white_id: int, kind: str, size: int, capture_goal: int | None,
                  away_seconds: int, away_outcome: str, round_id: int | None = None, seat: bool = True) -> LiveGame:
    """A new game, its children seated (``take_seats``; a round seats all its games at once: ``seat=False``)."""
    now = utcnow()
    row = LiveGame(group_id=group_id, round_id=round_id, black_id=black_id, white_id=white_id, kind=kind, size=size,
                   komi=KOMI, capture_goal=capture_goal if kind == "capture" else None, moves=[], ply=0, version=1,
                   state="playing", dead=[], agreed=[], away_seconds=away_seconds, away_outcome=away_outcome,
                   black_seen_at=now, white_seen_at=now)
    db.session.add(row)
    db.session.flush()
    if seat:
        take_seats([row])
    return row


class SeatTaken(Exception):
    """A child of the game is seated in another game going on (the database refused the second seat)."""


def take_seats(rows: list[LiveGame]) -> None:
    """The games' children sit down: raises ``SeatTaken`` (the transaction must be rolled back) when one of them
    is playing another game already — whichever instance, tab or round seated them first. The seats are taken in
    the order of the children's ids, so two transactions seating the same children wait for each other (and the
    second is refused) instead of deadlocking."""
    seats = sorted(({"kid_id": k, "game_id": r.id} for r in rows for k in (r.black_id, r.white_id)),
                   key=lambda seat: seat["kid_id"])
    try:
        with db.session.begin_nested():
            db.session.execute(sa.insert(LiveSeat), seats)
    except sa.exc.IntegrityError as e:
        raise SeatTaken from e


def release_seats(row: LiveGame) -> None:
    """A game that finished or rests gives its children's seats back (in the same transaction as the change)."""
    if row.state not in ACTIVE:
        db.session.execute(sa.delete(LiveSeat).where(LiveSeat.game_id == row.id)
                           .execution_options(synchronize_session=False))


def colours(a: int, b: int, rng: random.Random | None = None) -> tuple[int, int]:
    """Who takes Black: a coin toss."""
    rng = rng or random.SystemRandom()
    return (a, b) if rng.random() < 0.5 else (b, a)
