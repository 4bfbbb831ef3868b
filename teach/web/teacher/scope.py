"""What a teacher may reach: their own classes, the kids of a class, a puzzle step of a catalogue lesson. Anything
outside is a 404, the same as something that does not exist. And the way back to a class's page, where most of
the class's forms return."""

from __future__ import annotations

import sqlalchemy as sa
from flask import abort, redirect, render_template, request, url_for
from flask_login import current_user

from teach.models import Group, Membership, User
from teach.web import classroom, content
from teach.web.extensions import db


def class_or_404(class_id: int) -> Group:
    return classroom.own_group_or_404(class_id, "class", "teacher")


def kid_or_404(group: Group, kid_id: int) -> User:
    kid = db.session.scalar(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "kid", User.id == kid_id))
    if kid is None:
        abort(404)
    return kid


def class_kid_or_404(class_id: int, kid_id: int) -> tuple[Group, User]:
    """One of the teacher's classes and a kid in it."""
    group = class_or_404(class_id)
    return group, kid_or_404(group, kid_id)


def to_class_page(group: Group):
    return redirect(url_for("teacher.class_page", class_id=group.id))


def remove_from_class(model, row_id: int, class_id: int):
    """Take one row of a class away (an assignment, a teacher invitation) and go back to the class's page; a row of
    another class is a 404."""
    group = class_or_404(class_id)
    row = db.session.get(model, row_id)
    if row is None or row.group_id != group.id:
        abort(404)
    db.session.delete(row)
    db.session.commit()
    return to_class_page(group)


def my_classes(archived: bool | None = None) -> list[Group]:
    q = sa.select(Group).join(Membership).where(Group.kind == "class", Membership.user_id == current_user.id,
                                                Membership.role == "teacher").order_by(Group.name, Group.id)
    if archived is not None:
        q = q.where(Group.archived.is_(archived))
    return list(db.session.scalars(q))


class OwnTopic:
    """A heading over the teachers' own lessons, shaped as a topic of the map is (``id``, ``title.get(lang)``):
    the dashboard's columns and the worksheet picker's tab. No topic of the map has its id."""

    id = "own"

    def __init__(self, title: str) -> None:
        self.title = {"zh": title, "en": title}


def puzzle_or_none(lesson_id: str, step: int, lesson=None, kinds: tuple[str, ...] = ("puzzle",)):
    """Step ``step`` of the lesson when it is of one of ``kinds`` (a puzzle by default), else None."""
    lesson = lesson or content.catalog().lessons.get(lesson_id)
    if lesson is None or not 0 <= step < len(lesson.steps) or lesson.steps[step].kind not in kinds:
        return None
    return lesson.steps[step]


def kid_lessons(kid: User, lesson_ids) -> dict:
    """The lessons among ``lesson_ids`` this kid can have tried: the catalogue's, and the teachers' own lessons
    published to the kid's classes (typed from their files; one query for all of them)."""
    found = {lid: lesson for lid in lesson_ids if (lesson := content.catalog().lessons.get(lid)) is not None}
    if set(lesson_ids) - found.keys():
        for lesson in classroom.class_lessons(kid.id):
            if lesson.id in lesson_ids:
                found.setdefault(lesson.id, lesson)
    return found


def confirmed() -> bool:
    """Whether the teacher said yes on the page that asks first (``confirm=1``)."""
    return request.form.get("confirm") == "1"


def ask_first(title: str, text: str, button: str, back: str, **fields):
    """The page that asks before something that cannot be taken back or changes a kid's sign-in: it posts the
    same form again with ``confirm=1`` (and ``fields``); nothing has changed yet."""
    return render_template("teacher/confirm.html", title=title, text=text, button=button, back=back,
                           action=request.path, fields=fields)
