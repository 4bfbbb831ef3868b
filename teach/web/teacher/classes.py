"""A teacher's classes: making, naming, archiving and restoring one, a fresh join code, and a second teacher."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from flask import flash, g, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.models import Assignment, Group, Membership, TeacherLesson, User, new_code, utcnow
from teach.web import classroom, content
from teach.web.access import teacher_required
from teach.web.extensions import db

from . import bp
from .forms import ArchiveForm, ClassNameForm, TeacherEmailForm, first_error
from .scope import class_or_404, my_classes, to_class_page


@bp.get("/")
@teacher_required
def classes():
    return render_template("teacher/classes.html", active=my_classes(False), archived=my_classes(True))


@bp.post("/classes")
@teacher_required
def create_class():
    form = ClassNameForm()
    if not form.validate():
        flash(first_error(form), "error")
        return redirect(url_for("teacher.classes"))
    group = Group(kind="class", name=form.name.data)
    group.members.append(Membership(user=current_user, role="teacher"))
    db.session.add(group)
    db.session.commit()
    return to_class_page(group)


@bp.get("/classes/<int:class_id>")
@teacher_required
def class_page(class_id: int):
    group = class_or_404(class_id)
    teachers = db.session.scalars(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "teacher").order_by(User.name)).all()
    assignments = db.session.scalars(sa.select(Assignment).where(Assignment.group_id == group.id)
                                     .order_by(Assignment.due_on, Assignment.id)).all()
    own = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id.in_([t.id for t in teachers]))
                             .order_by(TeacherLesson.created_at)).all()
    return render_template("teacher/class.html", group=group, kids=classroom.class_kids(group.id),
                           archived_kids=classroom.class_kids(group.id, archived=True), teachers=teachers,
                           assignments=assignments, catalog=content.catalog(), own_lessons=own,
                           other_classes=[c for c in my_classes(False) if c.id != group.id],
                           today=date.today(), now=utcnow(), **_practice_choices())


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
    group.archived = ArchiveForm().archived.data == "1"
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


@bp.post("/classes/<int:class_id>/teachers")
@teacher_required
def add_teacher(class_id: int):
    group = class_or_404(class_id)
    email = TeacherEmailForm().email.data
    other = db.session.scalar(sa.select(User).where(User.email == email, User.role == "teacher"))
    if other is None:
        flash(_("There is no teacher with that email. Ask them to sign up first."), "error")
    elif db.session.scalar(sa.select(Membership.id).where(Membership.group_id == group.id,
                                                          Membership.user_id == other.id)) is None:
        group.members.append(Membership(user=other, role="teacher"))
        db.session.commit()
        flash(_("%(name)s teaches this class too now.", name=other.name), "ok")
    return to_class_page(group)
