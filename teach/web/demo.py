"""`teach demo`: the demo school from the README — a teacher, a class with kids, and a parent."""

from __future__ import annotations

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from datetime import date, timedelta

from teach.models import Assignment, Group, Membership, ParentLink, User, utcnow
from teach.web.extensions import db

TEACHER = ("teacher@example.com", "black-cat-42", "王老师 Ms Wang")
PARENT = ("parent@example.com", "little-mouse-42", "明明妈妈 Mingming's mum")
CLASS = ("小老鼠班 Little Mice", "CAT234")
FAMILY = ("明明家 Mingming's family", "HOME56")
# first name, avatar, picture password
KIDS = [("明明", "panda", ["cat", "fish", "moon"]), ("Lily", "rabbit", ["star", "apple", "sun"]),
        ("小红", "butterfly", ["flower", "tree", "cat"]), ("Tom", "rocket", ["moon", "moon", "star"])]


def create_demo() -> bool:
    """Create the demo accounts unless they exist; True when something was created."""
    if db.session.scalar(sa.select(User.id).where(User.email == TEACHER[0])) is not None:
        return False
    teacher = User(role="teacher", email=TEACHER[0], name=TEACHER[2], locale=None)
    teacher.set_password(TEACHER[1])
    parent = User(role="parent", email=PARENT[0], name=PARENT[2])
    parent.set_password(PARENT[1])
    klass = Group(kind="class", name=CLASS[0], code=CLASS[1])
    family = Group(kind="family", name=FAMILY[0], code=FAMILY[1])
    db.session.add_all([teacher, parent, klass, family])
    klass.members.append(Membership(user=teacher, role="teacher"))
    family.members.append(Membership(user=parent, role="parent"))
    kids = []
    for name, avatar, pictures in KIDS:
        kid = User(role="kid", name=name, avatar=avatar)
        kid.set_pictures(pictures)
        klass.members.append(Membership(user=kid, role="kid"))
        kids.append(kid)
    family.members.append(Membership(user=kids[0], role="kid"))
    db.session.flush()
    # the demo parent follows 明明 already: the link a teacher would have approved
    db.session.add(ParentLink(parent_id=parent.id, kid_id=kids[0].id, status="approved", approved_by=teacher.id,
                              approved_at=utcnow()))
    _demo_assignment(klass, kids[3])
    db.session.commit()
    return True


def _demo_assignment(klass: Group, kid: User) -> None:
    """Homework for Tom: the second lesson on the map, due in a week, so the map and dashboard show one."""
    from teach.web import content

    lessons = content.ordered_lessons()
    if len(lessons) > 1:
        db.session.add(Assignment(group_id=klass.id, lesson_id=lessons[1].id, kid_ids=[kid.id],
                                  due_on=date.today() + timedelta(days=7)))


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Add the demo school (idempotent): logins in the README."""
    click.echo("demo data created" if create_demo() else "demo data already there")
