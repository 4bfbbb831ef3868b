"""Homework for a class or some of its kids: a lesson, every lesson of a topic, or a practice set with one seed
for everyone; and taking an assignment back."""

from __future__ import annotations

import secrets
from datetime import date

import sqlalchemy as sa
from flask import abort, flash, g, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.models import Assignment, Group, Membership, TeacherLesson
from teach.web import classroom, content
from teach.web.access import teacher_required
from teach.web.extensions import db
from teach.web.security import plain_int

from . import bp
from .forms import AssignForm
from .scope import ask_first, class_or_404, confirmed, remove_from_class, to_class_page


@bp.post("/classes/<int:class_id>/assignments")
@teacher_required
def assign(class_id: int):
    group = class_or_404(class_id)
    cat = content.catalog()
    form = AssignForm()
    kind, _sep, ident = form.what.data.partition(":")
    practice = None
    if kind == "lesson" and ident in cat.lessons:
        lesson_ids, topic_id = [ident], None
    elif kind == "own" and ident in classroom.group_lessons(group.id):  # a teacher's own, published to the class
        lesson_ids, topic_id = [ident], None
    elif kind == "topic" and cat.topic(ident) is not None and cat.topic(ident).lessons:
        lesson_ids, topic_id = [l.id for l in sorted(cat.topic(ident).lessons, key=lambda l: (l.order, l.id))], ident
    elif kind == "practice":
        practice = _practice_choice(form.what.data, form.seed.data)
        if practice is None:
            flash(_("Choose a practice topic and level (and a puzzle set number of digits only, or none)."), "error")
            return to_class_page(group)
        lesson_ids, topic_id = [str(practice)], None
    else:
        flash(_("Choose a lesson or a topic."), "error")
        return to_class_page(group)
    due = form.due.data
    if due is None:
        flash(_("Choose the day it is due."), "error")
        return to_class_page(group)
    if due < date.today():
        flash(_("That day has passed already; choose today or a later day."), "error")
        return to_class_page(group)
    chosen = form.kids.data
    if chosen:
        in_class = {k.id for k in classroom.class_kids(group.id)}
        if not set(chosen) <= in_class:
            abort(404)
    drill, level, seed = (practice.drill, practice.level, practice.seed) if practice else (None, None, None)
    # the class's row is written first: two sends of the same form (a double tap, two tabs) queue here, and the
    # second one sees what the first one assigned
    db.session.execute(sa.update(Group).where(Group.id == group.id).values(name=Group.name))
    given = db.session.execute(sa.select(Assignment.lesson_id, Assignment.kid_ids).where(
        Assignment.group_id == group.id, Assignment.lesson_id.in_(lesson_ids))).all()
    new = [i for i in lesson_ids if not any(already_covers(kids, chosen) for lid, kids in given if lid == i)]
    if not new:
        db.session.rollback()
        flash(_("That is assigned already (to these kids); delete the old assignment to change its day."), "error")
        return to_class_page(group)
    for lesson_id in new:
        db.session.add(Assignment(group_id=group.id, lesson_id=lesson_id, topic_id=topic_id,
                                  kid_ids=chosen or None, due_on=due, created_by=current_user.id,
                                  practice_topic=drill, practice_level=level, practice_seed=seed))
    db.session.commit()
    if len(new) < len(lesson_ids):
        flash(_("Assigned %(n)d lessons; %(m)d of the topic were assigned already.", n=len(new),
                m=len(lesson_ids) - len(new)), "ok")
    else:
        flash(_("Assigned."), "ok")
    return to_class_page(group)


def already_covers(given_kids: list | None, chosen: list[int]) -> bool:
    """Whether an assignment given to ``given_kids`` (None: the whole class) already reaches every chosen kid
    (none chosen: the whole class)."""
    if given_kids is None:
        return True
    return bool(chosen) and set(chosen) <= set(given_kids)


def _practice_choice(what: str, raw_seed: str):
    """The practice set from the form's ``practice:<drill>:<level>`` and an optional seed; one seed for the whole
    class, so every kid gets the same puzzles. None when any part is not a real practice set."""
    from teach.lessons.practice import MAX_SEED, PracticeKey

    chosen = PracticeKey.parse(what)
    raw_seed = raw_seed.strip()
    if chosen is None or chosen.seed is not None:
        return None
    if raw_seed:
        seed = plain_int(raw_seed)
        if seed is None or seed >= MAX_SEED:
            return None
        return chosen.with_seed(seed)
    return chosen.with_seed(secrets.randbelow(MAX_SEED))


@bp.post("/classes/<int:class_id>/assignments/<int:assignment_id>/delete")
@teacher_required
def unassign(class_id: int, assignment_id: int):
    group = class_or_404(class_id)
    row = db.session.get(Assignment, assignment_id)
    if row is None or row.group_id != group.id:
        abort(404)
    if not confirmed():
        lesson = content.catalog().lessons.get(row.lesson_id) or _own_lesson_of_class(group.id, row.lesson_id)
        what = lesson.title.get(g.lang) if lesson else _("the practice set") if row.is_practice \
            else _("A lesson that is no longer there")
        return ask_first(_("Delete an assignment"),
                         _("“%(what)s”, due %(day)s, disappears from the kids' maps. What they already did is kept.",
                           what=what, day=row.due_on.isoformat()),
                         _("Delete"), url_for("teacher.class_page", class_id=group.id))
    return remove_from_class(Assignment, assignment_id, class_id)


def _own_lesson_of_class(group_id: int, lesson_id: str):
    """A teacher's own lesson given to the class by this id, typed: published to it, or a draft again (of a
    teacher of the class); None once deleted."""
    found = classroom.group_lessons(group_id).get(lesson_id)
    if found is None:
        teachers = sa.select(Membership.user_id).where(Membership.group_id == group_id, Membership.role == "teacher")
        stored = db.session.scalar(sa.select(TeacherLesson).where(TeacherLesson.owner_id.in_(teachers),
                                                                  TeacherLesson.lesson_id == lesson_id))
        found = classroom.typed_lesson(stored) if stored is not None else None
    return found
