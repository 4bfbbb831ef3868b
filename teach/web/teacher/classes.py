"""A teacher's classes: making, naming, archiving and restoring one, a fresh join code, and a second teacher, who
is invited and becomes a teacher of the class only by accepting."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from flask import abort, flash, g, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.models import (Assignment, Group, Membership, ParentLink, TeacherInvitation, TeacherLesson,
                          TeacherLessonClass, User, new_code, utcnow)
from teach.web import classroom, content
from teach.web.access import teacher_required
from teach.web.extensions import db

from . import bp
from .forms import ArchiveForm, ClassNameForm, TeacherEmailForm, first_error
from .scope import ask_first, class_or_404, confirmed, my_classes, remove_from_class, to_class_page


@bp.get("/")
@teacher_required
def classes():
    invitations = db.session.scalars(sa.select(TeacherInvitation).join(Group).where(
        TeacherInvitation.invitee_id == current_user.id, Group.archived.is_(False))
        .order_by(TeacherInvitation.id)).all()
    return render_template("teacher/classes.html", active=my_classes(False), archived=my_classes(True),
                           invitations=invitations)


@bp.post("/classes")
@teacher_required
def create_class():
    form = ClassNameForm()
    if not form.validate():
        flash(first_error(form), "error")
        return redirect(url_for("teacher.classes"))
    classroom.hold(User, current_user.id)  # one "new class" at a time per teacher: a double click makes one
    same = db.session.scalar(sa.select(Group).join(Membership, Membership.group_id == Group.id).where(
        Membership.user_id == current_user.id, Membership.role == "teacher", Group.kind == "class",
        Group.archived.is_(False), sa.func.lower(Group.name) == form.name.data.lower()))
    if same is not None:
        db.session.rollback()
        flash(_("You have a class called “%(name)s” already: here it is.", name=same.name), "error")
        return to_class_page(same)
    group = Group(kind="class", name=form.name.data)
    group.members.append(Membership(user=current_user, role="teacher"))
    db.session.add(group)
    db.session.commit()
    return to_class_page(group)


@bp.get("/classes/<int:class_id>")
@teacher_required
def class_page(class_id: int):
    return render_class_page(class_or_404(class_id))


def render_class_page(group: Group, status: int = 200, **form_values):
    """The class's page; a refused form comes back on it with what the teacher typed (``form_values``)."""
    teachers = db.session.scalars(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "teacher").order_by(User.name)).all()
    assignments = db.session.scalars(sa.select(Assignment).where(Assignment.group_id == group.id)
                                     .order_by(Assignment.due_on, Assignment.id)).all()
    own = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id.in_([t.id for t in teachers]))
                             .order_by(TeacherLesson.created_at)).all()
    here = set(db.session.scalars(sa.select(TeacherLessonClass.lesson_pk).where(
        TeacherLessonClass.group_id == group.id, TeacherLessonClass.lesson_pk.in_([l.id for l in own]))))
    # each by its title, and whether this class's kids see it: a draft, published here, or to other classes only
    own = [(l, classroom.typed_lesson(l), "draft" if l.published_at is None else "here" if l.id in here else "other")
           for l in own]
    return render_template("teacher/class.html", group=group, kids=classroom.class_kids(group.id),
                           archived_kids=classroom.class_kids(group.id, archived=True), teachers=teachers,
                           assignments=assignments, catalog=content.catalog(), own_lessons=own,
                           class_lessons=classroom.group_lessons(group.id),
                           own_by_id={typed.id: typed for _l, typed, _shown in own if typed is not None},
                           other_classes=[c for c in my_classes(False) if c.id != group.id],
                           teacher_invitations=db.session.scalars(sa.select(TeacherInvitation).where(
                               TeacherInvitation.group_id == group.id).order_by(TeacherInvitation.id)).all(),
                           waiting_links=_waiting_links(group),
                           today=date.today(), now=utcnow(), form_values=form_values,
                           **_practice_choices()), status


def _practice_choices() -> dict:
    from teach.lessons.practice import DRILLS, LEVELS, drill_names

    return {"practice_topics": DRILLS, "practice_levels": LEVELS, "practice_names": drill_names(g.lang)}


@bp.post("/classes/<int:class_id>/rename")
@teacher_required
def rename_class(class_id: int):
    group = class_or_404(class_id)
    form = ClassNameForm()
    if form.validate():
        group.name = form.name.data
        db.session.commit()
    else:
        flash(first_error(form), "error")
    return to_class_page(group)


@bp.post("/classes/<int:class_id>/archive")
@teacher_required
def archive_class(class_id: int):
    group = class_or_404(class_id)
    archive = ArchiveForm().archived.data == "1"
    if archive and not group.archived and not confirmed():
        return ask_first(_("Archive %(name)s", name=group.name),
                         _("The class's code stops working, so its kids cannot sign in with it; everything is "
                           "kept, and you can restore the class at any time."),
                         _("Archive"), url_for("teacher.class_page", class_id=group.id), archived="1")
    group.archived = archive
    db.session.commit()
    return redirect(url_for("teacher.classes"))


@bp.post("/classes/<int:class_id>/code")
@teacher_required
def new_class_code(class_id: int):
    """A fresh join code, for when the old one got out."""
    group = class_or_404(class_id)
    group.code = new_code()
    db.session.commit()
    return to_class_page(group)


def _waiting_links(group: Group) -> list[tuple[User, int]]:
    """Kids of the class with parent links waiting for approval, and how many: one query."""
    kids = sa.select(Membership.user_id).where(Membership.group_id == group.id, Membership.role == "kid")
    return db.session.execute(sa.select(User, sa.func.count(ParentLink.id))
                              .join(ParentLink, ParentLink.kid_id == User.id)
                              .where(User.id.in_(kids), ParentLink.status == "pending")
                              .group_by(User.id).order_by(User.name, User.id)).all()


@bp.post("/classes/<int:class_id>/teachers")
@teacher_required
def add_teacher(class_id: int):
    """Invite a teacher by email. The answer is the same whether the email is a teacher's, someone else's or
    nobody's, and names nobody; the invitation waits on that teacher's classes page."""
    group = class_or_404(class_id)
    email = TeacherEmailForm().email.data or ""
    if "@" not in email or len(email) > 254:
        flash(_("Write the other teacher's email."), "error")
        return to_class_page(group)
    member = db.session.scalar(sa.select(Membership.id).join(User).where(Membership.group_id == group.id,
                                                                          User.email == email))
    invited = db.session.scalar(sa.select(TeacherInvitation.id).where(TeacherInvitation.group_id == group.id,
                                                                      TeacherInvitation.email == email))
    if member is None and invited is None:
        invitee = db.session.scalar(sa.select(User.id).where(User.email == email, User.role == "teacher"))
        db.session.add(TeacherInvitation(group_id=group.id, email=email, invitee_id=invitee,
                                         invited_by=current_user.id))
        try:
            db.session.commit()
        except sa.exc.IntegrityError:  # the same invitation sent twice at once
            db.session.rollback()
    flash(_("Invitation sent to %(email)s. When a teacher with this email accepts it on their classes page, they "
            "teach this class too.", email=email), "ok")
    return to_class_page(group)


@bp.post("/classes/<int:class_id>/teachers/invitations/<int:invitation_id>/withdraw")
@teacher_required
def withdraw_teacher_invitation(class_id: int, invitation_id: int):
    return remove_from_class(TeacherInvitation, invitation_id, class_id)


def _my_invitation_or_404(invitation_id: int) -> TeacherInvitation:
    invitation = db.session.get(TeacherInvitation, invitation_id)
    if invitation is None or invitation.invitee_id != current_user.id:
        abort(404)
    return invitation


@bp.post("/invitations/<int:invitation_id>/accept")
@teacher_required
def accept_invitation(invitation_id: int):
    invitation = _my_invitation_or_404(invitation_id)
    group = invitation.group
    if db.session.scalar(sa.select(Membership.id).where(Membership.group_id == group.id,
                                                        Membership.user_id == current_user.id)) is None:
        group.members.append(Membership(user=current_user, role="teacher"))
    db.session.delete(invitation)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # accepted twice at once: the first made the membership
        db.session.rollback()
    return to_class_page(group)


@bp.post("/invitations/<int:invitation_id>/decline")
@teacher_required
def decline_invitation(invitation_id: int):
    db.session.delete(_my_invitation_or_404(invitation_id))
    db.session.commit()
    flash(_("Invitation declined."), "ok")
    return redirect(url_for("teacher.classes"))
