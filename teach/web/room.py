"""The class play room: who is here (first name and avatar only), invitations a child answers with a tap, and the
teacher's side — the room's settings, a round for the whole class with one click (pairs at random or by level)
and the live view of every game of the class.

No text passes between children here or anywhere: an invitation is a game choice, an answer is a tap, and the
games have preset reactions only. An invitation is answered once: accept, decline and withdraw are each one
conditional ``UPDATE ... WHERE state = 'pending'``, so an accept and a withdrawal arriving together on two app
instances end one way, and the loser is told so.
"""

from __future__ import annotations

import hashlib
import random
from datetime import timedelta
from fractions import Fraction

import sqlalchemy as sa
from flask import Blueprint, abort, flash, g, jsonify, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user

from teach.models import (Group, LessonProgress, LiveGame, LiveInvitation, LiveRound, Membership, PlayRoom,
                          RoomPresence, User, utcnow)
from teach.web import classroom, games, live, notify, rank
from teach.web.access import kid_required, teacher_required
from teach.web.board import render_board
from teach.web.extensions import db
from teach.web.moves import json_body, refused
from teach.web.pictures import glyph
from teach.web.played import BrokenRecord, game_of
from teach.web.security import ID_MAX
from teach.web.teacher.scope import class_or_404

bp = Blueprint("room", __name__, url_prefix="/room")

GAME_CHOICES = {"capture-7": ("capture", 7), "capture-9": ("capture", 9), "full-9": ("full", 9),
                "full-13": ("full", 13)}
DEFAULT_CHOICES = ["capture-7", "capture-9", "full-9"]
CAPTURE_GOALS = (1, 3, 5)
AWAY_CHOICES = (1, 2, 5, 10, 30)  # minutes the teacher may choose
PRESENT = timedelta(seconds=40)  # a room page asks every few seconds; gone longer than this: left the room
PRESENCE_EVERY = timedelta(seconds=10)
INVITATION_OPEN = timedelta(minutes=2)
DECLINED_TOLD = timedelta(minutes=1)  # how long after a "no thanks" the room still tells the child who asked
SENT_MAX = 3  # pending invitations a child may have out at once
ROOM_POLL_MS = 2500
LIVE_GAMES_MAX = 60  # games on the teacher's live view (a big class has 20)


def game_words(kind: str, size: int, goal: int | None) -> str:
    if kind == "capture":
        return ngettext("Capture game %(size)s×%(size)s: catch %(num)d stone first",
                        "Capture game %(size)s×%(size)s: catch %(num)d stones first", goal or 1, size=size)
    return _("Whole game %(size)s×%(size)s", size=size)


def choice_words(choice: str) -> str:
    """A game choice as the teacher's forms name it (the capture goal is chosen beside it)."""
    kind, size = GAME_CHOICES[choice]
    if kind == "capture":
        return _("Capture game %(size)s×%(size)s", size=size)
    return _("Whole game %(size)s×%(size)s", size=size)


def room_settings(group_id: int) -> PlayRoom:
    """The class's room as its teacher set it (the defaults until then; not stored until changed)."""
    room = db.session.scalar(sa.select(PlayRoom).where(PlayRoom.group_id == group_id))
    return room or PlayRoom(group_id=group_id, invitations_open=True, kinds=list(DEFAULT_CHOICES), capture_goal=3,
                            away_seconds=120, away_outcome="adjourn")


# ---------------------------------------------------------------------- the kid's room
def _kid_classes() -> list[Group]:
    return list(db.session.scalars(sa.select(Group).join(Membership).where(
        Membership.user_id == current_user.id, Membership.role == "kid", Group.kind == "class",
        Group.archived.is_(False)).order_by(Group.id)))


def _kid_class_or_404(class_id: int) -> Group:
    if not 1 <= class_id <= ID_MAX:
        abort(404)
    group = db.session.scalar(sa.select(Group).join(Membership).where(
        Group.id == class_id, Group.kind == "class", Membership.user_id == current_user.id,
        Membership.role == "kid"))
    if group is None:
        abort(404)
    return group


@bp.get("/")
@kid_required
def home():
    classes = _kid_classes()
    if len(classes) == 1:
        return redirect(url_for("room.room", class_id=classes[0].id))
    return render_template("room/choose.html", classes=classes)


@bp.get("/<int:class_id>")
@kid_required
def room(class_id: int):
    group = _kid_class_or_404(class_id)
    _here(group.id)
    db.session.commit()
    settings = room_settings(group.id)
    choices = [(c, game_words(*GAME_CHOICES[c], settings.capture_goal), *GAME_CHOICES[c])
               for c in settings.kinds if c in GAME_CHOICES]
    return render_template("room/room.html", group=group, choices=choices, settings=settings,
                           state_url=url_for("room.state", class_id=group.id),
                           invite_url=url_for("room.invite", class_id=group.id), poll=ROOM_POLL_MS,
                           narrate=games.narrated())


def _here(group_id: int) -> None:
    """Note that the child is in the room (at most every few seconds: a write per question would cost more)."""
    now = utcnow()
    seen = db.session.scalar(sa.select(RoomPresence.seen_at).where(
        RoomPresence.group_id == group_id, RoomPresence.kid_id == current_user.id))
    if seen is not None and now - seen < PRESENCE_EVERY:
        return
    if seen is not None:
        db.session.execute(sa.update(RoomPresence).where(RoomPresence.group_id == group_id,
                                                         RoomPresence.kid_id == current_user.id)
                           .values(seen_at=now).execution_options(synchronize_session=False))
        return
    try:
        with db.session.begin_nested():
            db.session.add(RoomPresence(group_id=group_id, kid_id=current_user.id, seen_at=now))
    except sa.exc.IntegrityError:  # the other tab got there first: it is the same news
        pass


def _busy_ids(group_id: int) -> set[int]:
    rows = db.session.execute(sa.select(LiveGame.black_id, LiveGame.white_id).where(
        LiveGame.group_id == group_id, LiveGame.state.in_(live.ACTIVE))).all()
    return {k for pair in rows for k in pair}


def present_kids(group_id: int) -> list[User]:
    since = utcnow() - PRESENT
    return list(db.session.scalars(sa.select(User).join(RoomPresence, RoomPresence.kid_id == User.id).join(
        Membership, sa.and_(Membership.user_id == User.id, Membership.group_id == group_id,
                            Membership.role == "kid")).where(
        RoomPresence.group_id == group_id, RoomPresence.seen_at >= since, User.archived.is_(False))
        .order_by(User.name, User.id)))


def _kid_card(kid: User) -> dict:
    return {"id": kid.id, "name": games.first_name(kid.name), "glyph": glyph(kid.avatar or "star")}


@bp.get("/<int:class_id>/state")
@kid_required
def state(class_id: int):
    """The room now: who is here, invitations to the child and from them, and the child's game when one started
    (an accepted invitation, the teacher's round): the page opens it."""
    group = _kid_class_or_404(class_id)
    _here(group.id)
    db.session.commit()
    me = current_user.id
    busy = _busy_ids(group.id)
    here = [dict(_kid_card(k), busy=k.id in busy) for k in present_kids(group.id) if k.id != me]
    since = utcnow() - INVITATION_OPEN
    invitations = db.session.execute(sa.select(LiveInvitation, User).join(User, User.id == LiveInvitation.from_id)
                                     .where(LiveInvitation.group_id == group.id, LiveInvitation.to_id == me,
                                            LiveInvitation.state == "pending", LiveInvitation.created_at >= since)
                                     .order_by(LiveInvitation.id)).all()
    sent = db.session.execute(sa.select(LiveInvitation, User).join(User, User.id == LiveInvitation.to_id)
                              .where(LiveInvitation.group_id == group.id, LiveInvitation.from_id == me,
                                     LiveInvitation.state == "pending", LiveInvitation.created_at >= since)
                              .order_by(LiveInvitation.id)).all()
    # a "no thanks" is told to the child who asked (the sent card just went away, and a child waits on): for a
    # while after it came, and the page says each one once
    declined = db.session.execute(sa.select(LiveInvitation, User).join(User, User.id == LiveInvitation.to_id)
                                  .where(LiveInvitation.group_id == group.id, LiveInvitation.from_id == me,
                                         LiveInvitation.state == "declined",
                                         LiveInvitation.answered_at >= utcnow() - DECLINED_TOLD)
                                  .order_by(LiveInvitation.id)).all()
    mine = db.session.scalars(sa.select(LiveGame).where(
        LiveGame.group_id == group.id, sa.or_(LiveGame.black_id == me, LiveGame.white_id == me),
        LiveGame.state.in_((*live.ACTIVE, "adjourned"))).order_by(LiveGame.id.desc()).limit(10)).all()
    active = next((r for r in mine if r.state in live.ACTIVE), None)
    stopped = live.stopped(group.id)  # the teacher stopped the games: nothing is started or played on meanwhile
    return jsonify(
        result="ok", here=here, stopped=live.stopped_words() if stopped else None,
        sitting_out=None if active else _sat_out(group.id, me, any(not k["busy"] for k in here)),
        invitations=[dict(_kid_card(u), invitation=i.id, game=game_words(i.kind, i.size, i.capture_goal),
                          accept=url_for("room.answer", invitation_id=i.id, action="accept"),
                          decline=url_for("room.answer", invitation_id=i.id, action="decline"))
                     for i, u in invitations],
        sent=[dict(_kid_card(u), invitation=i.id, game=game_words(i.kind, i.size, i.capture_goal),
                   withdraw=url_for("room.answer", invitation_id=i.id, action="withdraw")) for i, u in sent],
        declined=[dict(_kid_card(u), invitation=i.id,
                       message=_("%(name)s said no thanks this time. Invite another classmate, or ask again later!",
                                 name=games.first_name(u.name))) for i, u in declined],
        game=url_for("live.page", game_id=active.id) if active else None,
        resting=[{"url": url_for("live.page", game_id=r.id), "game": game_words(r.kind, r.size, r.capture_goal)}
                 for r in mine if r.state == "adjourned" and not stopped])


def _sat_out(group_id: int, me: int, someone_free: bool) -> str | None:
    """What the child left out of the teacher's latest round (an odd number of children) is told while that
    round's games go on, or None: a child who sees everyone start playing and nothing happen thinks it is broken.
    Inviting a classmate is suggested only when one in the room is free to play and invitations are open."""
    latest = db.session.execute(sa.select(LiveRound.id, LiveRound.sitting_out).where(LiveRound.group_id == group_id)
                                .order_by(LiveRound.id.desc()).limit(1)).first()
    if latest is None or me not in (latest.sitting_out or []) or db.session.scalar(sa.select(LiveGame.id).where(
            LiveGame.round_id == latest.id, LiveGame.state.in_(live.ACTIVE)).limit(1)) is None:
        return None
    if someone_free and room_settings(group_id).invitations_open:
        return _("Everyone else got a partner this round, so you sit this one out. Invite a classmate who is "
                 "free, or wait for the next round!")
    return _("Everyone else got a partner this round, so you sit this one out. Wait for the next round!")


@bp.post("/<int:class_id>/invite")
@kid_required
def invite(class_id: int):
    """Invite a classmate who is in the room. Body: ``{"to": kid id, "game": one of the room's choices}``."""
    group = _kid_class_or_404(class_id)
    data = json_body()
    to, choice = data.get("to"), data.get("game")
    if data.keys() != {"to", "game"} or not isinstance(to, int) or isinstance(to, bool) or not 1 <= to <= ID_MAX \
            or not isinstance(choice, str):
        return refused()
    settings = room_settings(group.id)
    if live.stopped(group.id):
        return jsonify(result="closed", message=live.stopped_words()), 409
    if not settings.invitations_open:
        return jsonify(result="closed", message=_("The teacher has closed invitations for now.")), 409
    if choice not in settings.kinds or choice not in GAME_CHOICES:
        return jsonify(result="error", message=_("Pick one of the games the teacher allows.")), 400
    if to == current_user.id or to not in {k.id for k in present_kids(group.id)}:
        return jsonify(result="gone", message=_("That friend is not in the play room now.")), 409
    if to in _busy_ids(group.id):
        return jsonify(result="busy", message=_("That friend is playing a game now.")), 409
    since = utcnow() - INVITATION_OPEN
    classroom.hold(User, current_user.id)  # one invitation at a time per child: a double tap sends one
    pending = db.session.scalars(sa.select(LiveInvitation).where(
        LiveInvitation.from_id == current_user.id, LiveInvitation.state == "pending",
        LiveInvitation.created_at >= since)).all()
    if any(i.to_id == to for i in pending):
        return jsonify(result="ok", message=_("Your invitation is on its way.")), 200
    if len(pending) >= SENT_MAX:
        return jsonify(result="busy", message=_("Wait for an answer to the invitations you sent.")), 409
    kind, size = GAME_CHOICES[choice]
    db.session.add(LiveInvitation(group_id=group.id, from_id=current_user.id, to_id=to, kind=kind, size=size,
                                  capture_goal=settings.capture_goal if kind == "capture" else None))
    db.session.commit()
    return jsonify(result="ok", message=_("Your invitation is on its way."))


@bp.post("/invitations/<int:invitation_id>/<any(accept, decline, withdraw):action>")
@kid_required
def answer(invitation_id: int, action: str):
    """Accept or decline (the invited child), withdraw (the one who invited): whichever comes first holds."""
    if not 1 <= invitation_id <= ID_MAX:
        abort(404)
    inv = db.session.get(LiveInvitation, invitation_id)
    me = current_user.id
    if inv is None or (action == "withdraw" and inv.from_id != me) or (action != "withdraw" and inv.to_id != me):
        abort(404)
    if json_body() or request.get_data() not in (b"", b"{}"):
        return refused()
    now = utcnow()
    if action == "accept" and inv.state == "pending" and live.stopped(inv.group_id):
        return jsonify(result="closed", state=inv.state, message=live.stopped_words()), 409
    if action == "accept" and inv.state == "pending":
        busy = _busy_ids(inv.group_id) & {inv.from_id, inv.to_id}
        if busy:  # one game at a time: the invitation stays open until the other game is over
            message = _("Finish the game you are playing first.") if me in busy else \
                _("Your friend is playing another game now. Try again when it is over.")
            return jsonify(result="busy", state=inv.state, message=message), 409
    new_state = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[action]
    conditions = [LiveInvitation.id == inv.id, LiveInvitation.state == "pending"]
    if action == "accept":
        conditions.append(LiveInvitation.created_at >= now - INVITATION_OPEN)
    done = db.session.execute(sa.update(LiveInvitation).where(*conditions)
                              .values(state=new_state, answered_at=now).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        db.session.rollback()
        db.session.refresh(inv)
        return jsonify(result="stale", state=inv.state, message=_closed_words(inv)), 409
    if action != "accept":
        db.session.commit()
        return jsonify(result="ok", state=new_state, message="")
    settings = room_settings(inv.group_id)
    black, white = live.colours(inv.from_id, inv.to_id)
    try:
        row = live.new_live_game(inv.group_id, black, white, inv.kind, inv.size, inv.capture_goal,
                                 settings.away_seconds, settings.away_outcome)
    except live.SeatTaken:  # a round (or another acceptance) seated one of them an instant ago
        db.session.rollback()
        return jsonify(result="busy", state="pending",
                       message=_("Your friend is playing another game now. Try again when it is over.")), 409
    inv.game_id = row.id
    db.session.commit()
    notify.published(row.id, row.version)
    return jsonify(result="ok", state="accepted", game=url_for("live.page", game_id=row.id), message="")


def _closed_words(inv: LiveInvitation) -> str:
    return {"withdrawn": _("Your friend took the invitation back."),
            "declined": _("This invitation was answered already."),
            "accepted": _("This invitation was answered already."),
            }.get(inv.state, _("This invitation is not open any more."))


# ---------------------------------------------------------------------- the teacher's live view
@bp.get("/class/<int:class_id>/live")
@teacher_required
def live_view(class_id: int):
    group = class_or_404(class_id)
    settings = room_settings(group.id)
    rows = _class_games(group.id)
    boards = {r.id: _small_board(r) for r in rows}
    last_round = db.session.scalar(sa.select(LiveRound).where(LiveRound.group_id == group.id)
                                   .order_by(LiveRound.id.desc()).limit(1))
    here = present_kids(group.id)
    busy = _busy_ids(group.id)  # in the room but in a game: not paired by the next round
    # in a game that rests (the teacher's stop, or a child who left): not waiting for a partner, though a round
    # pairs them too (their resting game waits for them still)
    resting = {k for r in rows if r.state == "adjourned" for k in (r.black_id, r.white_id)} - busy
    # the child left out of the latest round is named while that round's games go on (not after they ended)
    round_on = last_round is not None and any(r.round_id == last_round.id and r.state in live.ACTIVE for r in rows)
    return render_template("room/live.html", group=group, settings=settings, games=[_live_card(r) for r in rows],
                           boards=boards, choices=[(c, choice_words(c)) for c in GAME_CHOICES],
                           goals=CAPTURE_GOALS, away_choices=AWAY_CHOICES, last_round=last_round,
                           sitting_out=_names(last_round.sitting_out if round_on else []),
                           active=sum(1 for r in rows if r.state in live.ACTIVE), stopped=live.stopped(group.id),
                           waiting=[k for k in here if k.id not in busy and k.id not in resting],
                           playing=[k for k in here if k.id in busy], resting=[k for k in here if k.id in resting],
                           data_url=url_for("room.live_data", class_id=group.id))


def _names(ids: list[int]) -> list[str]:
    if not ids:
        return []
    return [games.first_name(u.name) for u in db.session.scalars(sa.select(User).where(User.id.in_(ids)))]


def _class_games(group_id: int) -> list[LiveGame]:
    """The class's games going on or resting, and those of its latest round (finished ones too): one query."""
    latest = sa.select(sa.func.max(LiveRound.id)).where(LiveRound.group_id == group_id).scalar_subquery()
    return list(db.session.scalars(sa.select(LiveGame).where(
        LiveGame.group_id == group_id,
        sa.or_(LiveGame.state != "finished", LiveGame.round_id == latest,
               LiveGame.finished_at >= utcnow() - timedelta(hours=1)))
        .order_by(LiveGame.id.desc()).limit(LIVE_GAMES_MAX)))


def _small_board(row: LiveGame):
    try:
        rows = game_of(row).board_rows()
    except BrokenRecord:
        rows = ["." * row.size] * row.size
    return render_board(rows, lang=g.lang, last=live._last(row))


def _live_card(row: LiveGame, kids: dict | None = None) -> dict:
    kids = kids if kids is not None else {u.id: u for u in db.session.scalars(
        sa.select(User).where(User.id.in_((row.black_id, row.white_id))))}
    try:
        game = game_of(row)
        rows, to_move = game.board_rows(), game.to_play
    except BrokenRecord:
        rows, to_move = ["." * row.size] * row.size, "black"
    names = {c: games.first_name(kids[k].name) if k in kids else "" for c, k in
             (("black", row.black_id), ("white", row.white_id))}
    reviews = {}
    for color in ("black", "white"):
        record = getattr(row, f"{color}_record_id")
        if record:
            reviews[color] = url_for("games.review", game_id=record)
    return {"id": row.id, "url": url_for("live.page", game_id=row.id), "state": row.state,
            "state_words": _state_words(row), "rows": rows, "last": live._last(row), "to_move": to_move,
            "names": names, "result": row.result, "result_words": _result_words(row, names),
            "game": game_words(row.kind, row.size, row.capture_goal), "reviews": reviews, "ply": row.ply,
            "version": row.version}


def _result_words(row: LiveGame, names: dict) -> str:
    """A finished game's result as the teacher reads it on the card: who won and how ("Lily won · 3 captured",
    "Ming won · 1¾ stones ahead"). The record's ``B+C3`` is this product's own spelling, and C3 reads like a point."""
    if row.state != "finished":
        return ""
    if row.winner not in ("black", "white"):
        return _("a draw")
    won = _("%(name)s won", name=names.get(row.winner) or (_("Black") if row.winner == "black" else _("White")))
    margin = (row.result or "").partition("+")[2]
    if margin.upper() == "R":
        return f"{won} · {_('by resignation')}"
    if margin[:1].upper() == "C" and margin[1:].isdigit():
        return f"{won} · " + ngettext("%(num)d captured", "%(num)d captured", int(margin[1:]))
    try:
        points = Fraction(margin)
    except (ValueError, ZeroDivisionError):
        return f"{won} · {row.result}" if margin else won
    return f"{won} · {games.margin_words(points)}"  # in stones, as the kids' pages and the count screen say it


def _state_words(row: LiveGame) -> str:
    return {"playing": _("playing"), "counting": _("counting"), "disputed": _("needs you: they disagree on the count"),
            "adjourned": _("resting (adjourned)"), "finished": _("finished")}[row.state]


@bp.get("/class/<int:class_id>/live.json")
@teacher_required
def live_data(class_id: int):
    """The live view's boards and states; 304 while no game of the class changed."""
    group = class_or_404(class_id)
    rows = _class_games(group.id)
    now = utcnow()
    for r in rows:  # both children gone: the game is adjourned (or abandoned) even with no player's page open
        live._away_check(r, now)
    db.session.commit()
    tag = '"' + hashlib.sha256(repr([(r.id, r.version) for r in rows]).encode()).hexdigest()[:24] + '"'
    if request.headers.get("If-None-Match") == tag:
        return make_response("", 304)
    kids = {u.id: u for u in db.session.scalars(sa.select(User).where(
        User.id.in_({k for r in rows for k in (r.black_id, r.white_id)})))}
    response = jsonify(result="ok", games=[_live_card(r, kids) for r in rows])
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.post("/class/<int:class_id>/settings")
@teacher_required
def save_settings(class_id: int):
    group = class_or_404(class_id)
    form = request.form
    kinds = [c for c in form.getlist("kinds") if c in GAME_CHOICES]
    goal = form.get("goal", "")
    away = form.get("away", "")
    outcome = form.get("outcome", "")
    if not kinds or goal not in {str(n) for n in CAPTURE_GOALS} or away not in {str(n) for n in AWAY_CHOICES} \
            or outcome not in ("adjourn", "abandon"):
        flash(_("Pick at least one game, the capture goal, the waiting time and what happens after it."), "error")
        return redirect(url_for("room.live_view", class_id=group.id))
    room = db.session.scalar(sa.select(PlayRoom).where(PlayRoom.group_id == group.id))
    if room is None:
        room = PlayRoom(group_id=group.id)
        db.session.add(room)
    room.kinds, room.capture_goal = kinds, int(goal)
    room.away_seconds, room.away_outcome = int(away) * 60, outcome
    room.invitations_open = form.get("invitations") == "open"
    db.session.commit()
    flash(_("Saved."), "ok")
    return redirect(url_for("room.live_view", class_id=group.id))


def kid_levels(kid_ids: list[int]) -> dict[int, tuple[int, int]]:
    """A child's level for pairing, weaker first: (their rank's place from 25级 up, the stars of their lessons).
    The rank (teach/web/rank.py: lessons, practice, games against the computer, the placement test) where the
    child has one; a child with no rank points yet sits at 25级, and the stars tell such children apart. A fixed
    number of queries for the whole class."""
    stars = {k: 0 for k in kid_ids}
    stars.update({k: int(s) for k, s in db.session.execute(
        sa.select(LessonProgress.kid_id, sa.func.coalesce(sa.func.sum(LessonProgress.stars), 0))
        .where(LessonProgress.kid_id.in_(kid_ids)).group_by(LessonProgress.kid_id))})
    points = class_rank_points(kid_ids)
    return {k: (rank.LOWEST - rank.rank_for_points(points.get(k, 0)).kyu, stars[k]) for k in kid_ids}


def class_rank_points(kid_ids: list[int]) -> dict[int, int]:
    """Each child's rank points as ``rank.rank_of`` counts them, read for the whole class in two queries (not
    three per child): finished lessons, and ``rank.class_records`` (practice, games, placement tests)."""
    finished: dict[int, list] = {k: [] for k in kid_ids}
    for kid, lesson, stars in db.session.execute(sa.select(
            LessonProgress.kid_id, LessonProgress.lesson_id, LessonProgress.stars).where(
            LessonProgress.kid_id.in_(kid_ids), LessonProgress.finished_at.is_not(None))):
        finished[kid].append((lesson, stars))
    records = rank.class_records(kid_ids)
    return {k: rank.rank_points(finished[k], records[k]) for k in kid_ids}


def pairs_for(kid_ids: list[int], pairing: str, rng: random.Random) -> tuple[list[tuple[int, int]], list[int]]:
    """(black, white) pairs and the child left out of an odd number. By level: neighbours in level play each
    other (by rank, then stars: ``kid_levels``), the weaker one takes Black (plays first)."""
    kids = list(kid_ids)
    if pairing == "level":
        levels = kid_levels(kids)
        kids.sort(key=lambda k: (levels[k], rng.random()))
        out = [(kids[i], kids[i + 1]) for i in range(0, len(kids) - 1, 2)]
    else:
        rng.shuffle(kids)
        out = [live.colours(kids[i], kids[i + 1], rng) for i in range(0, len(kids) - 1, 2)]
    return out, kids[len(out) * 2:]


@bp.post("/class/<int:class_id>/stop")
@teacher_required
def stop_games(class_id: int):
    """The lesson is over: every game of the class going on rests (adjourned, as when a child leaves), and the
    children can play on later; nothing is decided for them. Each game is stopped by one conditional update, so
    a move arriving at the same moment is either played before or told the game rests."""
    group = class_or_404(class_id)
    rows = db.session.scalars(sa.select(LiveGame).where(LiveGame.group_id == group.id,
                                                        LiveGame.state.in_(live.ACTIVE))).all()
    stopped = []
    now = utcnow()
    _stored_room(group.id).stopped_at = now  # and they stay stopped: "play on" waits for the teacher's word
    for row in rows:
        done = db.session.execute(sa.update(LiveGame).where(LiveGame.id == row.id, LiveGame.version == row.version,
                                                            LiveGame.state.in_(live.ACTIVE))
                                  .values(state="adjourned", draw_offer=None, agreed=[], version=LiveGame.version + 1,
                                          updated_at=now).execution_options(synchronize_session=False))
        if done.rowcount == 1:
            db.session.refresh(row)
            live.release_seats(row)
            stopped.append(row)
    db.session.commit()
    for row in stopped:
        notify.published(row.id, row.version)
    if len(stopped) < len(rows):
        flash(_("A game changed just as you stopped them; look at the games below and stop again if you need to."),
              "error")
    else:
        flash(ngettext("%(num)d game stopped: it rests until you let the children play again.",
                       "%(num)d games stopped: they rest until you let the children play again.", len(stopped)),
              "ok")
    return redirect(url_for("room.live_view", class_id=group.id))


@bp.post("/class/<int:class_id>/play-again")
@teacher_required
def play_again(class_id: int):
    """The teacher's word after a stop: the children may play on in their resting games, and start new ones."""
    group = class_or_404(class_id)
    _stored_room(group.id).stopped_at = None
    woken = _wake_resting(group.id)
    db.session.commit()
    _published(woken)
    flash(_("The children can play again: their resting games wait for them to tap “play on”."), "ok")
    return redirect(url_for("room.live_view", class_id=group.id))


def _wake_resting(group_id: int) -> list[tuple[int, int]]:
    """The class's resting games as new versions, (id, version) each: the pages open on them learn that the
    teacher's stop is over and show "play on" (their version had not changed, so they were never told and sat
    on the stop's words until a child reloaded). Published once the caller has committed (``_published``)."""
    ids = db.session.scalars(sa.select(LiveGame.id).where(LiveGame.group_id == group_id,
                                                          LiveGame.state == "adjourned")).all()
    if not ids:
        return []
    db.session.execute(sa.update(LiveGame).where(LiveGame.id.in_(ids), LiveGame.state == "adjourned")
                       .values(version=LiveGame.version + 1, updated_at=utcnow())
                       .execution_options(synchronize_session=False))
    return list(db.session.execute(sa.select(LiveGame.id, LiveGame.version).where(LiveGame.id.in_(ids))).all())


def _published(games: list[tuple[int, int]]) -> None:
    for game_id, version in games:
        notify.published(game_id, version)


def _stored_room(group_id: int) -> PlayRoom:
    """The class's room row, stored (with the defaults) if its teacher never changed them."""
    room = room_settings(group_id)
    if room.id is None:
        db.session.add(room)
    return room


@bp.post("/class/<int:class_id>/round")
@teacher_required
def start_round(class_id: int):
    """One click: every child in the room who is not in a game gets a partner and a game; their pages open it."""
    group = class_or_404(class_id)
    form = request.form
    choice, pairing = form.get("game", ""), form.get("pairing", "")
    goal, away, outcome = form.get("goal", ""), form.get("away", ""), form.get("outcome", "")
    if choice not in GAME_CHOICES or pairing not in ("random", "level") \
            or goal not in {str(n) for n in CAPTURE_GOALS} or away not in {str(n) for n in AWAY_CHOICES} \
            or outcome not in ("adjourn", "abandon"):
        flash(_("Pick the game, how to pair the children, the waiting time and what happens after it."), "error")
        return redirect(url_for("room.live_view", class_id=group.id))
    busy = _busy_ids(group.id)
    kids = [k.id for k in present_kids(group.id) if k.id not in busy]
    if len(kids) < 2:
        flash(_("At least two children must be in the play room (and not in a game)."), "error")
        return redirect(url_for("room.live_view", class_id=group.id))
    kind, size = GAME_CHOICES[choice]
    pairs, left = pairs_for(kids, pairing, random.SystemRandom())
    round_row = LiveRound(group_id=group.id, teacher_id=current_user.id, pairing=pairing, kind=kind, size=size,
                          capture_goal=int(goal) if kind == "capture" else None, away_seconds=int(away) * 60,
                          away_outcome=outcome, sitting_out=left)
    db.session.add(round_row)
    db.session.flush()
    try:
        made = [live.new_live_game(group.id, b, w, kind, size, round_row.capture_goal, round_row.away_seconds,
                                   outcome, round_row.id, seat=False) for b, w in pairs]
        live.take_seats(made)
    except live.SeatTaken:  # another round (a second tab) or an invitation seated a child an instant ago
        db.session.rollback()
        flash(_("Some children started a game just now (another round, or an invitation), so no round was started. "
                "Look at the games below, then start the round again for the others."), "error")
        return redirect(url_for("room.live_view", class_id=group.id))
    woken = []
    if live.stopped(group.id):  # a round is the teacher's word that the class plays again
        _stored_room(group.id).stopped_at = None
        woken = _wake_resting(group.id)
    db.session.commit()
    for row in made:
        notify.published(row.id, row.version)
    _published(woken)
    flash(ngettext("%(num)d game started.", "%(num)d games started.", len(made)), "ok")
    return redirect(url_for("room.live_view", class_id=group.id))
