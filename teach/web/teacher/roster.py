"""The kids of a class: adding a list of them, login cards, picture passwords and locks, archiving, moving a kid
to another class of the teacher's, taking a kid out, and the parents who follow a kid (codes, approval,
removal)."""

from __future__ import annotations

import sqlalchemy as sa
from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user

from teach.models import Group, Membership, ParentLink
from teach.web import classroom, links, picture_lock
from teach.web.access import teacher_required
from teach.web.extensions import db

from . import bp
from .forms import ArchiveForm, KidNamesForm, MoveKidForm
from .classes import render_class_page
from .scope import ask_first, class_kid_or_404, class_or_404, confirmed, to_class_page


@bp.post("/classes/<int:class_id>/kids")
@teacher_required
def add_kids(class_id: int):
    """Add kids from a list of names: all of them in one transaction, or none with every problem listed."""
    group = class_or_404(class_id)
    classroom.hold(Group, group.id)  # the names below are checked against every kid added before this list
    kids = classroom.class_kids(group.id) + classroom.class_kids(group.id, archived=True)
    names, problems = classroom.parse_names(KidNamesForm().names.data, {k.name.casefold() for k in kids})
    if problems:
        shown = problems[:20]
        if len(problems) > 20:
            shown.append(_("… and %(n)d more problems.", n=len(problems) - 20))
        shown.append(_("Nobody was added. Fix the list and send it again."))
        # the list stays in the box, with its problems beside it, so the teacher fixes one line instead of
        # typing every name again
        return render_class_page(group, 400, names=KidNamesForm().names.data or "", name_problems=shown)
    taken = {k.avatar for k in kids}
    cards = [classroom.new_kid(name, group, taken) for name in names]
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=cards)


@bp.get("/classes/<int:class_id>/cards")
@teacher_required
def cards(class_id: int):
    """Printing the cards again: picture passwords are not kept readable, so a reprinted card without one would
    be no use; this page offers new picture passwords for everyone (or one kid, on the class page) instead."""
    group = class_or_404(class_id)
    kids = classroom.class_kids(group.id)
    if not kids:
        flash(_("No kids yet."), "error")
        return to_class_page(group)
    return render_template("teacher/confirm.html", title=_("Print the login cards again"),
                           text=_("Picture passwords are kept secret, so a card can only be printed when the "
                                  "password is new. Printing all %(n)d cards again gives every kid a new picture "
                                  "password: the old ones stop working now. To reprint one kid's card, use “New "
                                  "picture password” beside that kid on the class page.", n=len(kids)),
                           button=_("Reset all and print new cards"),
                           back=url_for("teacher.class_page", class_id=group.id),
                           action=url_for("teacher.reset_all_pictures", class_id=group.id),
                           fields={"nonce": picture_lock.form_nonce()})


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/pictures")
@teacher_required
def reset_pictures(class_id: int, kid_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    if not confirmed():
        return ask_first(_("New picture password"),
                         _("%(name)s's old picture password stops working now, and %(name)s is signed out. "
                           "Print the new card and give it to %(name)s.", name=kid.name),
                         _("Make a new picture password"), url_for("teacher.class_page", class_id=group.id),
                         nonce=picture_lock.form_nonce())
    pictures = picture_lock.new_password(kid, picture_lock.page_nonce())
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=[(kid, pictures)])


@bp.post("/classes/<int:class_id>/pictures")
@teacher_required
def reset_all_pictures(class_id: int):
    """A new picture password for every kid of the class, and their cards to print (after asking first)."""
    group = class_or_404(class_id)
    kids = classroom.class_kids(group.id)
    if not kids:
        flash(_("No kids yet."), "error")
        return to_class_page(group)
    if not confirmed():
        return ask_first(_("Reset all picture passwords"),
                         ngettext("Every kid of %(group)s (%(num)d kid) gets a new picture password: the old one "
                                  "stops working now and they are signed out. Print the new card straight away.",
                                  "Every kid of %(group)s (%(num)d kids) gets a new picture password: the old ones "
                                  "stop working now and everyone is signed out. Print the new cards straight away.",
                                  len(kids), group=group.name),
                         _("Reset all and print new cards"), url_for("teacher.class_page", class_id=group.id),
                         nonce=picture_lock.form_nonce())
    nonce = picture_lock.page_nonce()
    cards = [(kid, picture_lock.new_password(kid, nonce)) for kid in kids]
    db.session.commit()
    return render_template("teacher/cards.html", group=group, cards=cards)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/unlock")
@teacher_required
def unlock_kid(class_id: int, kid_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    picture_lock.unlock(kid)
    db.session.commit()
    flash(_("%(name)s can sign in again.", name=kid.name), "ok")
    return to_class_page(group)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/archive")
@teacher_required
def archive_kid(class_id: int, kid_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    archive = ArchiveForm().archived.data == "1"
    if archive and not kid.archived and not confirmed():
        return ask_first(_("Archive %(name)s", name=kid.name),
                         _("%(name)s can no longer sign in and leaves the dashboard; everything %(name)s did is "
                           "kept, and you can restore %(name)s at any time.", name=kid.name),
                         _("Archive"), url_for("teacher.class_page", class_id=group.id), archived="1")
    kid.archived = archive
    if kid.archived:
        kid.end_sessions()  # restoring the kid later must not bring an old session back
    db.session.commit()
    return to_class_page(group)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/move")
@teacher_required
def move_kid(class_id: int, kid_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    target = class_or_404(MoveKidForm().to.data or 0)
    if target.id != group.id:
        if db.session.scalar(sa.select(Membership.id).where(Membership.group_id == target.id,
                                                            Membership.user_id == kid.id)) is not None:
            flash(_("%(name)s is already in that class.", name=kid.name), "error")
            return to_class_page(group)
        if any(k.name.casefold() == kid.name.casefold() for k in classroom.class_kids(target.id)):
            flash(_("“%(name)s” is already in this group; add a letter to tell them apart.", name=kid.name), "error")
            return to_class_page(group)
        membership = db.session.scalar(sa.select(Membership).where(Membership.group_id == group.id,
                                                                   Membership.user_id == kid.id))
        membership.group_id = target.id
        db.session.commit()
    return to_class_page(target)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/remove")
@teacher_required
def remove_kid(class_id: int, kid_id: int):
    """Take the kid out of the class; a kid then in no class, family or parent's care is deleted with their data."""
    group, kid = class_kid_or_404(class_id, kid_id)
    if not confirmed():
        return ask_first(_("Remove %(name)s from the class", name=kid.name),
                         _("%(name)s leaves this class. If %(name)s is in no other class or family and no parent "
                           "follows %(name)s, the account and everything %(name)s did are deleted for good.",
                           name=kid.name),
                         _("Remove"), url_for("teacher.class_page", class_id=group.id))
    db.session.execute(sa.delete(Membership).where(Membership.group_id == group.id, Membership.user_id == kid.id))
    db.session.flush()
    still = db.session.scalar(sa.select(Membership.id).where(Membership.user_id == kid.id).limit(1)) or \
        db.session.scalar(sa.select(ParentLink.id).where(ParentLink.kid_id == kid.id,
                                                     ParentLink.status == "approved").limit(1))
    if not still:
        classroom.delete_kid(kid)
    db.session.commit()
    flash(_("%(name)s left the class.", name=kid.name), "ok")
    return to_class_page(group)


# ---------------------------------------------------------------------- parents who follow a kid
def _to_followers(group, kid):
    return redirect(url_for("teacher.kid_detail", class_id=group.id, kid_id=kid.id) + "#followers")


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/invitations")
@teacher_required
def new_invitation(class_id: int, kid_id: int):
    """A code a parent types to ask to follow the kid; the teacher approves the link it makes."""
    group, kid = class_kid_or_404(class_id, kid_id)
    links.new_link_invitation(kid, current_user)
    db.session.commit()
    return _to_followers(group, kid)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/invitations/<int:invitation_id>/withdraw")
@teacher_required
def withdraw_invitation(class_id: int, kid_id: int, invitation_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    links.withdraw_invitation(links.invitation_of_kid_or_404(kid, invitation_id))
    db.session.commit()
    flash(_("The code is withdrawn; nobody can use it now."), "ok")
    return _to_followers(group, kid)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/links/<int:link_id>/approve")
@teacher_required
def approve_link(class_id: int, kid_id: int, link_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    link = links.link_of_kid_or_404(kid, link_id)
    links.approve_link(link, current_user)
    db.session.commit()
    flash(_("%(name)s now follows %(kid)s.", name=link.parent.name, kid=kid.name), "ok")
    return _to_followers(group, kid)


@bp.post("/classes/<int:class_id>/kids/<int:kid_id>/links/<int:link_id>/remove")
@teacher_required
def remove_link(class_id: int, kid_id: int, link_id: int):
    """Stop a parent following the kid, at once; without ``confirm`` the page asks first."""
    group, kid = class_kid_or_404(class_id, kid_id)
    link = links.link_of_kid_or_404(kid, link_id)
    if request.form.get("confirm") != "1":
        return render_template("teacher/remove_link.html", kid=kid, link=link,
                               action=url_for("teacher.remove_link", class_id=group.id, kid_id=kid.id,
                                              link_id=link.id),
                               back=url_for("teacher.kid_detail", class_id=group.id, kid_id=kid.id))
    name = link.parent.name
    db.session.delete(link)
    db.session.commit()
    flash(_("%(name)s no longer follows %(kid)s.", name=name, kid=kid.name), "ok")
    return _to_followers(group, kid)
