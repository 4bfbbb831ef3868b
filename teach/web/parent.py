"""The parent's side: ask to follow a kid with a code (typed or scanned), families and kids made at home, the
kid's week and last weeks in charts, what to practise next, the kid's data to read, take away or delete, and who
else follows the kid.

A parent sees only kids they follow with an approved link; any other kid, or one whose link still waits for
approval, is a 404. Whatever changes a kid's sign-in or data (a new picture password, letting one more parent see
everything, deleting) asks first and is done only by a second, explicit post.
"""

from __future__ import annotations

import json
from datetime import timedelta

import sqlalchemy as sa
from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from flask_login import current_user

from teach.lessons.practice import drill_names
from teach.models import Attempt, Group, Membership, ParentLink, PlayedGame, StickerAward, User, utcnow
from teach.web import (classroom, content, daily, games, kid_report, links, milestones, picture_lock, rank, timing,
                       weeks)
from teach.web.access import parent_required
from teach.web.extensions import db, limiter
from teach.web.safety import one_line

bp = Blueprint("parent", __name__, url_prefix="/family")
LINK_LIMIT = "10 per minute;50 per day"  # codes typed by one address: guessing 31**10 codes gets nowhere
ACCOUNT_LINK_LIMIT = "30 per day"  # and by one parent account, from however many addresses
FOLLOW_CODE = "follow_code"  # the session key of a code scanned before signing in
TYPED_CODE = "typed_follow_code"  # a code that did not work, shown again once so a typo can be put right


def _parent_or_address() -> str:
    return f"parent:{current_user.id}" if current_user.is_authenticated else get_remote_address()


def _followed():
    return sa.select(User).join(ParentLink, ParentLink.kid_id == User.id).where(
        ParentLink.parent_id == current_user.id, ParentLink.status == "approved")


def _linked_kids() -> list[User]:
    return list(db.session.scalars(_followed().order_by(User.name, User.id)))


def _kid_or_404(kid_id: int) -> User:
    kid = db.session.scalar(_followed().where(User.id == kid_id))
    if kid is None:
        abort(404)
    return kid


def _family_or_404(family_id: int) -> Group:
    return classroom.own_group_or_404(family_id, "family", "parent")


@bp.get("/")
@parent_required
def home():
    kids = _linked_kids()
    grid = classroom.progress_grid([k.id for k in kids])
    cat = content.catalog()
    families = db.session.scalars(sa.select(Group).join(Membership).where(
        Group.kind == "family", Membership.user_id == current_user.id, Membership.role == "parent")
        .order_by(Group.name)).all()
    summaries = [_family_summary(k, grid, cat) for k in kids]
    waiting = db.session.scalar(sa.select(sa.func.count()).select_from(ParentLink).where(
        ParentLink.parent_id == current_user.id, ParentLink.status == "pending"))
    return render_template("parent/home.html", summaries=summaries, families=families, waiting=waiting,
                           scanned=links.carried_code(session.get(FOLLOW_CODE)), shown_code=links.shown_code,
                           typed=session.pop(TYPED_CODE, ""))


def _summary(kid: User, grid, cat) -> dict:
    cells = [c for (kid_id, _lid), c in grid.cells.items() if kid_id == kid.id]
    stickers = db.session.scalar(sa.select(sa.func.count()).select_from(StickerAward)
                                 .where(StickerAward.kid_id == kid.id))
    return {"kid": kid, "week": classroom.this_week(kid, grid, cat), "stars": sum(c.stars for c in cells),
            "stickers": stickers, "minutes": timing.minutes(grid.time.total(kid.id)),
            # the teacher's "7 days" figure: the card is about this week, so its time is too
            "week_minutes": timing.minutes(grid.time.week(kid.id, timing.today())),
            "next": classroom.next_to_practise(kid, content.ordered_lessons(), grid, rank.placed_of(kid.id))}


def _family_summary(kid: User, grid, cat) -> dict:
    """The summary with what the parent pages add: the lesson the kid's own map offers next (homework first) and
    the puzzles solved this week (each puzzle once, however many tries)."""
    s = _summary(kid, grid, cat)
    s["next"] = _practise_next(kid, grid, cat)
    s["solved"] = weeks.last_weeks(kid.id, 1)[0].solved
    # the games of the last seven days: named on the card, the way to them one tap (they are far down the kid page)
    s["games_week"] = db.session.scalar(sa.select(sa.func.count()).select_from(PlayedGame).where(
        PlayedGame.kid_id == kid.id, PlayedGame.created_at >= utcnow() - timedelta(days=7)))
    # another parent asking to follow the kid waits for this parent's answer: said here, not only on the kid's page
    pending = db.session.scalar(sa.select(sa.func.count()).select_from(ParentLink).where(
        ParentLink.kid_id == kid.id, ParentLink.status == "pending", ParentLink.parent_id != current_user.id))
    s["to_approve"] = pending if pending and current_user.id in links.link_managers(kid) else 0
    return s


def _practise_next(kid: User, grid, cat):
    """What the kid's map shows as next: the earliest homework lesson not finished, else the first lesson of the
    map not finished (always open: the one before it is finished); None once every lesson is."""
    homework = [a.lesson_id for a in classroom.assignments_for(kid) if not a.is_practice]
    known = classroom.lessons_for(kid.id) if homework else cat.lessons  # the class's own lessons too
    return next((known[i] for i in homework if i in known and grid.get(kid.id, i).finished is None),
                None) or classroom.next_to_practise(kid, content.ordered_lessons(), grid, rank.placed_of(kid.id))


def _sign_in_group(kid: User) -> Group | None:
    """The code the kid signs in with: the family's first, else the class's."""
    return db.session.scalar(sa.select(Group).join(Membership).where(Membership.user_id == kid.id)
                             .order_by(Group.kind.desc(), Group.id))


@bp.post("/link")
@limiter.limit(LINK_LIMIT)
@limiter.limit(ACCOUNT_LINK_LIMIT, key_func=_parent_or_address)
@parent_required
def link():
    """Ask to follow a kid. The answer names no kid: until the teacher or the kid's parent approves, the one who
    typed the code learns nothing about whom it was for."""
    session.pop(FOLLOW_CODE, None)
    if links.redeem_link_code(request.form.get("code", ""), current_user):
        flash(_("Thank you. The kid's teacher or parent will check and approve; then the kid appears here."), "ok")
    else:
        flash(_("That code does not work: it may be used, withdrawn or older than a week. Ask for a new one."),
              "error")
        session[TYPED_CODE] = request.form.get("code", "")[:40]  # back in the field, to check it for a typo
    return redirect(url_for("parent.home"))


@bp.get("/follow")
def follow():
    """Where a scanned code lands: the code filled in and one button to ask with it. Opening the page uses
    nothing and checks nothing (a link preview or a curious stranger spends no code and learns nothing). Someone
    not signed in is asked to sign in or make a parent account first; the code waits in their session meanwhile."""
    code = links.carried_code(request.args.get("code"))
    if current_user.is_authenticated and current_user.role != "parent":
        abort(403)
    if code and not current_user.is_authenticated:
        session[FOLLOW_CODE] = code
    response = Response(render_template("parent/follow.html", code=code, shown_code=links.shown_code,
                                        back=url_for("parent.home")))
    # the code is in the address: keep it out of caches and of any Referer
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.post("/families")
@parent_required
def create_family():
    name = one_line(request.form.get("name"))[:80]
    if not name:
        flash(_("Give the family a name."), "error")
        return redirect(url_for("parent.home"))
    classroom.hold(User, current_user.id)  # one "new family" at a time per parent: a double click makes one
    same = db.session.scalar(sa.select(Group.id).join(Membership, Membership.group_id == Group.id).where(
        Membership.user_id == current_user.id, Membership.role == "parent", Group.kind == "family",
        sa.func.lower(Group.name) == name.lower()))
    if same is not None:
        db.session.rollback()
        flash(_("You have a family called “%(name)s” already.", name=name), "error")
        return redirect(url_for("parent.home"))
    group = Group(kind="family", name=name)
    group.members.append(Membership(user=current_user, role="parent"))
    db.session.add(group)
    db.session.commit()
    return redirect(url_for("parent.home"))


def _password_card(group: Group, kid: User, pictures: list[str]):
    """Save the kid's new picture password and show it on a card to print: the only time anyone sees it."""
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=[(kid, pictures)], fresh=True)


@bp.post("/families/<int:family_id>/kids")
@parent_required
def add_kid(family_id: int):
    """A kid made at home: signs in with the family code, followed by every parent of the family."""
    group = _family_or_404(family_id)
    classroom.hold(Group, group.id)  # the name below is checked against every kid added before it
    members = db.session.scalars(sa.select(Membership).where(Membership.group_id == group.id)).all()
    kids = [m.user for m in members if m.role == "kid"]
    names, problems = classroom.parse_names(request.form.get("name", ""), {k.name.casefold() for k in kids})
    if not problems and len(names) != 1:
        problems = [_("Write one name.")]
    if problems:
        for p in problems[:5]:
            flash(p, "error")
        return redirect(url_for("parent.home"))
    kid, pictures = classroom.new_kid(names[0], group, {k.avatar for k in kids})
    db.session.flush()
    for m in members:
        if m.role == "parent":
            db.session.add(ParentLink(parent_id=m.user_id, kid_id=kid.id, status="approved",
                                      approved_by=current_user.id, approved_at=utcnow()))
    return _password_card(group, kid, pictures)


@bp.get("/kids/<int:kid_id>")
@parent_required
def kid_page(kid_id: int):
    kid = _kid_or_404(kid_id)
    cat = content.catalog()
    grid = classroom.progress_grid([kid.id])
    known = classroom.lessons_for(kid.id)
    assignments = [a for a in classroom.assignments_for(kid) if a.lesson_id in known
                   and grid.get(kid.id, a.lesson_id).finished is None]
    return render_template("parent/kid.html", kid=kid, s=_family_summary(kid, grid, cat), catalog=cat,
                           assignments=assignments, lessons=known, timeline=classroom.timeline(kid, cat)[:20],
                           weak=classroom.weak_topics(kid, cat), games=games.recent_for(kid.id), now=utcnow(),
                           charts=kid_report.week_charts(weeks.last_weeks(kid.id)),
                           **_rank_and_streak(kid.id),
                           **links.kid_links(kid, current_user))


def _rank_and_streak(kid_id: int) -> dict:
    rec = rank.record(kid_id, daily.record_since())
    return {"rank": rank.rank_for_points(rank.rank_points(rank.finished_lessons(kid_id), rec)),
            "daily": daily.daily_from(rec)}


@bp.get("/kids/<int:kid_id>/week")
@parent_required
def week(kid_id: int):
    """A printable page of the kid's last seven days: lessons finished (with stars), stickers won, time spent,
    homework due and what to practise next."""
    kid = _kid_or_404(kid_id)
    cat = content.catalog()
    grid = classroom.progress_grid([kid.id])
    now = utcnow()
    today = timing.today()
    first = today - timedelta(days=6)  # seven days with today, the days the minutes below are counted over
    since = timing.day_start_utc(first)
    s = _summary(kid, grid, cat)
    finished = sorted(((l, grid.get(kid.id, l.id)) for l in s["week"]), key=lambda x: x[1].finished)
    sticker = classroom.sticker_lookup(kid.id, cat)
    new_stickers = [sticker(a.sticker_id) for a in db.session.scalars(
        sa.select(StickerAward).where(StickerAward.kid_id == kid.id, StickerAward.awarded_at >= since)
        .order_by(StickerAward.awarded_at))]
    puzzles = db.session.scalar(sa.select(sa.func.count()).where(Attempt.kid_id == kid.id,
                                                                 Attempt.started_at >= since))
    seconds = grid.time.week(kid.id, today)  # the teacher's figure, over the last seven days, games included
    game_seconds = grid.time.games_days(kid.id, today - timedelta(days=6), today)
    known = classroom.lessons_for(kid.id)
    due = [a for a in classroom.assignments_for(kid) if a.is_practice or (
        a.lesson_id in known and grid.get(kid.id, a.lesson_id).finished is None)]
    s["next"] = _practise_next(kid, grid, cat)
    return render_template("parent/week.html", kid=kid, s=s, since=first, until=today,
                           finished=finished, new_stickers=new_stickers, minutes=timing.minutes(seconds),
                           game_minutes=timing.minutes(game_seconds),
                           tries=puzzles, solved=weeks.last_weeks(kid.id, 1, now)[0].solved, assignments=due,
                           catalog=cat, lessons=known, practice_names=drill_names(g.lang),
                           weak=classroom.weak_topics(kid, cat)[:3], today=today)


@bp.get("/kids/<int:kid_id>/export")
@parent_required
def export(kid_id: int):
    kid = _kid_or_404(kid_id)
    body = json.dumps(classroom.kid_export(kid), ensure_ascii=False, indent=2)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=kid-{kid.id}.json"})


@bp.get("/kids/<int:kid_id>/report")
@parent_required
def report(kid_id: int):
    """Everything we hold about the kid, as the JSON export has it, in words a parent reads (and can print):
    lesson titles instead of ids, sticker names, moves and answers, games, who follows the kid."""
    kid = _kid_or_404(kid_id)
    return render_template("parent/report.html", kid=kid, **kid_report.everything(kid))


@bp.get("/kids/<int:kid_id>/practise")
@parent_required
def practise(kid_id: int):
    """Practise next, opened: the lesson the kid's map offers next, started on this device (the kid taps their
    pictures and the lesson opens) or on the kid's own tablet with a QR code."""
    kid = _kid_or_404(kid_id)
    cat = content.catalog()
    grid = classroom.progress_grid([kid.id])
    lesson = _practise_next(kid, grid, cat)
    target = url_for("kid.lesson", lesson_id=lesson.id) if lesson else url_for("practice.choose")
    group = _sign_in_group(kid)
    start = url_for("auth.kid_pictures", code=group.code, kid_id=kid.id, next=target) if group else None
    qr = links.qr_svg(url_for("auth.kid_pictures", code=group.code, kid_id=kid.id, next=target, _external=True),
                      _("QR code: %(kid)s practises", kid=kid.name)) if group else None
    homework = next((a for a in classroom.assignments_for(kid) if lesson and a.lesson_id == lesson.id), None)
    return render_template("parent/practise.html", kid=kid, lesson=lesson, topic=cat.topic(lesson.topic)
                           if lesson else None, start=start, qr=qr, homework=homework,
                           cell=grid.get(kid.id, lesson.id) if lesson else None)


@bp.post("/kids/<int:kid_id>/delete")
@parent_required
def delete(kid_id: int):
    """Delete the kid's account with everything about it; the kid's name typed again confirms."""
    kid = _kid_or_404(kid_id)
    if (request.form.get("confirm") or "").strip() != kid.name:
        flash(_("Type %(name)s's name to confirm.", name=kid.name), "error")
        return redirect(url_for("parent.kid_page", kid_id=kid.id))
    name = kid.name
    classroom.delete_kid(kid)
    db.session.commit()
    flash(_("%(name)s's account and all its data are deleted.", name=name), "ok")
    return redirect(url_for("parent.home"))


@bp.post("/kids/<int:kid_id>/pictures")
@parent_required
def reset_pictures(kid_id: int):
    """A new picture password (and the lock lifted) for a kid who forgot theirs; the card shows it once. The old
    one stops working at once, on every device, so without ``confirm`` the page asks first."""
    kid = _kid_or_404(kid_id)
    group = _sign_in_group(kid)
    if group is None:
        flash(_("%(name)s is in no class or family, so there is no code to sign in with.", name=kid.name), "error")
        return redirect(url_for("parent.kid_page", kid_id=kid.id))
    if request.form.get("confirm") != "1":
        return render_template("parent/confirm.html", kid=kid,
                               title=_("A new picture password for %(kid)s?", kid=kid.name),
                               lines=[_("%(kid)s's pictures change now: the old ones stop working on every tablet "
                                        "and phone, and %(kid)s is signed out there.", kid=kid.name),
                                      _("You get a card with the new pictures to print or show %(kid)s. It is shown "
                                        "only once.", kid=kid.name)],
                               action=url_for("parent.reset_pictures", kid_id=kid.id),
                               button=_("Yes, make new pictures"), nonce=picture_lock.form_nonce())
    pictures = picture_lock.new_password(kid, picture_lock.page_nonce())
    return _password_card(group, kid, pictures)


# ---------------------------------------------------------------------- who follows the kid
@bp.post("/kids/<int:kid_id>/invitations")
@parent_required
def new_invitation(kid_id: int):
    """A code for one more parent (the other parent, a grandparent); they still need approval."""
    kid = _kid_or_404(kid_id)
    invitation = links.new_link_invitation(kid, current_user)
    db.session.commit()
    return redirect(url_for("parent.invitation", kid_id=kid.id, invitation_id=invitation.id))


@bp.get("/kids/<int:kid_id>/invitations/<int:invitation_id>")
@parent_required
def invitation(kid_id: int, invitation_id: int):
    """One open code on a card to show or print: the code in two groups, and a QR code of the follow page."""
    kid = _kid_or_404(kid_id)
    found = links.invitation_of_kid_or_404(kid, invitation_id)
    if not found.open():
        flash(_("That code is used, withdrawn or too old. Make a new one."), "error")
        return redirect(url_for("parent.kid_page", kid_id=kid.id) + "#followers")
    response = Response(render_template(
        "parent/invitation.html", kid=kid, invitation=found, code=links.shown_code(found.code),
        qr=links.qr_svg(links.follow_url(found.code), _("QR code: follow %(kid)s", kid=kid.name)),
        link_days=links.LINK_DAYS))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/kids/<int:kid_id>/invitations/<int:invitation_id>/withdraw")
@parent_required
def withdraw_invitation(kid_id: int, invitation_id: int):
    kid = _kid_or_404(kid_id)
    links.withdraw_invitation(links.invitation_of_kid_or_404(kid, invitation_id))
    db.session.commit()
    flash(_("The code is withdrawn; nobody can use it now."), "ok")
    return redirect(url_for("parent.kid_page", kid_id=kid.id) + "#followers")


def _managed_link_or_404(kid: User, link_id: int) -> ParentLink:
    """A link of the kid that this parent may approve or remove: their own (to stop following), or any when they
    are the kid's managing parent; another parent's link is a 404 to anybody else."""
    link = links.link_of_kid_or_404(kid, link_id)
    if link.parent_id != current_user.id and current_user.id not in links.link_managers(kid):
        abort(404)
    return link


@bp.post("/kids/<int:kid_id>/links/<int:link_id>/approve")
@parent_required
def approve_link(kid_id: int, link_id: int):
    kid = _kid_or_404(kid_id)
    link = _managed_link_or_404(kid, link_id)
    if current_user.id not in links.link_managers(kid):
        abort(404)
    if request.form.get("confirm") != "1" and not link.approved:
        return render_template("parent/confirm.html", kid=kid,
                               title=_("Let %(name)s follow %(kid)s?", name=link.parent.name, kid=kid.name),
                               lines=[_("%(name)s will see everything about %(kid)s that you see: lessons, stickers, "
                                        "time, games, and the data to download.", name=link.parent.name,
                                        kid=kid.name),
                                      _("Approve only someone you know. You can remove them later.")],
                               action=url_for("parent.approve_link", kid_id=kid.id, link_id=link.id),
                               button=_("Yes, %(name)s may follow", name=link.parent.name))
    links.approve_link(link, current_user)
    db.session.commit()
    flash(_("%(name)s now follows %(kid)s.", name=link.parent.name, kid=kid.name), "ok")
    return redirect(url_for("parent.kid_page", kid_id=kid.id) + "#followers")


@bp.post("/kids/<int:kid_id>/links/<int:link_id>/remove")
@parent_required
def remove_link(kid_id: int, link_id: int):
    """Stop a parent following the kid, at once; without ``confirm`` the page asks first."""
    kid = _kid_or_404(kid_id)
    link = _managed_link_or_404(kid, link_id)
    if request.form.get("confirm") != "1":
        return render_template("teacher/remove_link.html", kid=kid, link=link,
                               action=url_for("parent.remove_link", kid_id=kid.id, link_id=link.id),
                               back=url_for("parent.kid_page", kid_id=kid.id))
    own = link.parent_id == current_user.id
    name = link.parent.name
    db.session.delete(link)
    db.session.commit()
    if own:
        flash(_("You no longer follow %(kid)s.", kid=kid.name), "ok")
        return redirect(url_for("parent.home"))
    flash(_("%(name)s no longer follows %(kid)s.", name=name, kid=kid.name), "ok")
    return redirect(url_for("parent.kid_page", kid_id=kid.id) + "#followers")
