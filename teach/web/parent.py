"""The parent's side: link to a kid with a code, families and kids made at home, the kid's week, and the kid's
data to take away or delete.

A parent sees only kids they are linked to; any other kid is a 404.
"""

from __future__ import annotations

import json
from datetime import timedelta

import sqlalchemy as sa
from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.lessons.practice import drill_names
from teach.models import Attempt, Group, Membership, ParentLink, StickerAward, User, utcnow
from teach.web import classroom, content, picture_lock
from teach.web.access import parent_required
from teach.web.extensions import db

bp = Blueprint("parent", __name__, url_prefix="/family")



def _linked_kids() -> list[User]:
    return list(db.session.scalars(sa.select(User).join(ParentLink, ParentLink.kid_id == User.id)
                                   .where(ParentLink.parent_id == current_user.id).order_by(User.name, User.id)))


def _kid_or_404(kid_id: int) -> User:
    kid = db.session.scalar(sa.select(User).join(ParentLink, ParentLink.kid_id == User.id)
                            .where(ParentLink.parent_id == current_user.id, User.id == kid_id))
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
    summaries = [_summary(k, grid, cat) for k in kids]
    return render_template("parent/home.html", summaries=summaries, families=families)


def _summary(kid: User, grid, cat) -> dict:
    cells = [c for (kid_id, _lid), c in grid.cells.items() if kid_id == kid.id]
    stickers = db.session.scalar(sa.select(sa.func.count()).select_from(StickerAward)
                                 .where(StickerAward.kid_id == kid.id))
    return {"kid": kid, "week": classroom.this_week(kid, grid, cat), "stars": sum(c.stars for c in cells),
            "stickers": stickers, "minutes": round(sum(c.seconds for c in cells) / 60),
            "next": classroom.next_to_practise(kid, content.ordered_lessons(), grid)}


@bp.post("/link")
@parent_required
def link():
    kid = classroom.kid_from_link_code(request.form.get("code", ""))
    if kid is None:
        flash(_("That code does not work. Ask the teacher for a new one; a code lasts two weeks."), "error")
    else:
        if db.session.scalar(sa.select(ParentLink.id).where(ParentLink.parent_id == current_user.id,
                                                            ParentLink.kid_id == kid.id)) is None:
            db.session.add(ParentLink(parent_id=current_user.id, kid_id=kid.id))
            db.session.commit()
        flash(_("You now follow %(name)s.", name=kid.name), "ok")
    return redirect(url_for("parent.home"))


@bp.post("/families")
@parent_required
def create_family():
    name = " ".join((request.form.get("name") or "").split())[:80]
    if not name:
        flash(_("Give the family a name."), "error")
        return redirect(url_for("parent.home"))
    group = Group(kind="family", name=name)
    group.members.append(Membership(user=current_user, role="parent"))
    db.session.add(group)
    db.session.commit()
    return redirect(url_for("parent.home"))


@bp.post("/families/<int:family_id>/kids")
@parent_required
def add_kid(family_id: int):
    """A kid made at home: signs in with the family code, followed by every parent of the family."""
    group = _family_or_404(family_id)
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
            db.session.add(ParentLink(parent_id=m.user_id, kid_id=kid.id))
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=[(kid, pictures)], fresh=True)


@bp.get("/kids/<int:kid_id>")
@parent_required
def kid_page(kid_id: int):
    kid = _kid_or_404(kid_id)
    cat = content.catalog()
    grid = classroom.progress_grid([kid.id])
    assignments = [a for a in classroom.assignments_for(kid) if a.lesson_id in cat.lessons
                   and grid.get(kid.id, a.lesson_id).finished is None]
    return render_template("parent/kid.html", kid=kid, s=_summary(kid, grid, cat), catalog=cat,
                           assignments=assignments, timeline=classroom.timeline(kid, cat)[:20],
                           weak=classroom.weak_topics(kid, cat), link_code=classroom.link_code(kid), now=utcnow())


@bp.get("/kids/<int:kid_id>/week")
@parent_required
def week(kid_id: int):
    """A printable page of the kid's last seven days: lessons finished (with stars), stickers won, time spent,
    homework due and what to practise next."""
    kid = _kid_or_404(kid_id)
    cat = content.catalog()
    grid = classroom.progress_grid([kid.id])
    now = utcnow()
    since = now - timedelta(days=7)
    s = _summary(kid, grid, cat)
    finished = sorted(((l, grid.get(kid.id, l.id)) for l in s["week"]), key=lambda x: x[1].finished)
    stickers_by_id = {l.sticker.id: l.sticker for l in cat.lessons.values()}
    new_stickers = [stickers_by_id.get(a.sticker_id) or a.sticker_id for a in db.session.scalars(
        sa.select(StickerAward).where(StickerAward.kid_id == kid.id, StickerAward.awarded_at >= since)
        .order_by(StickerAward.awarded_at))]
    seconds, puzzles = db.session.execute(
        sa.select(sa.func.sum(classroom.attempt_seconds()), sa.func.count())
        .where(Attempt.kid_id == kid.id, Attempt.started_at >= since)).one()
    due = [a for a in classroom.assignments_for(kid) if a.is_practice or (
        a.lesson_id in cat.lessons and grid.get(kid.id, a.lesson_id).finished is None)]
    return render_template("parent/week.html", kid=kid, s=s, since=since.date(), until=now.date(),
                           finished=finished, new_stickers=new_stickers, minutes=round(float(seconds or 0) / 60),
                           tries=puzzles, assignments=due, catalog=cat, practice_names=drill_names(g.lang),
                           weak=classroom.weak_topics(kid, cat)[:3], today=now.date())


@bp.get("/kids/<int:kid_id>/export")
@parent_required
def export(kid_id: int):
    kid = _kid_or_404(kid_id)
    body = json.dumps(classroom.kid_export(kid), ensure_ascii=False, indent=2)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=kid-{kid.id}.json"})


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
    """A new picture password (and the lock lifted) for a kid who forgot theirs; the card shows it once."""
    kid = _kid_or_404(kid_id)
    group = db.session.scalar(sa.select(Group).join(Membership).where(Membership.user_id == kid.id)
                              .order_by(Group.kind.desc(), Group.id))  # the family's code first, else the class's
    if group is None:
        flash(_("%(name)s is in no class or family, so there is no code to sign in with.", name=kid.name), "error")
        return redirect(url_for("parent.kid_page", kid_id=kid.id))
    pictures = classroom.new_pictures()
    kid.set_pictures(pictures)
    picture_lock.unlock(kid)
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=[(kid, pictures)], fresh=True)
