"""The parents who follow a kid: the codes they ask with, and the approval their link waits for.

A code is a stored invitation (a random string, a week long, single use, withdrawable), never a signature over a
kid's id, so it can only ever name the kid it was made for. It is ten letters (shown as two groups of five), or a QR
code of the follow page's address with the code in it, for a parent who would rather scan than type. Opening that
address spends nothing and tells nothing (not even whether the code is good): only the signed-in parent's "follow"
button uses the code, through the same rate-limited door as a typed one.

Redeeming a code makes a *pending* link that shows the parent nothing until a teacher of one of the kid's classes,
or a family kid's first parent, approves it. The kid's pages list every follower and open code, so nobody follows
a child unseen.
"""

from __future__ import annotations

from datetime import timedelta

import segno
import sqlalchemy as sa
from flask import abort, url_for
from markupsafe import Markup

from teach.models import CODE_ALPHABET, LINK_DAYS, Group, LinkInvitation, Membership, ParentLink, User, new_code, utcnow
from teach.web.extensions import db

LINK_CODE_LENGTH = 10  # 31**10 codes; a code is also single use, a week long and rate limited where typed


def normalise_link_code(code: str) -> str:
    return "".join((code or "").split()).replace("-", "").upper()[:40]


def carried_code(code: str | None) -> str | None:
    """A code from a scanned address, fit to fill in the form: ten letters of the code alphabet, or nothing
    (whatever else an address holds is dropped, never echoed)."""
    code = normalise_link_code(code or "")
    if len(code) == LINK_CODE_LENGTH and all(c in CODE_ALPHABET for c in code):
        return code
    return None


def shown_code(code: str) -> str:
    return f"{code[:5]}-{code[5:]}"


def follow_url(code: str) -> str:
    """The address a QR code of ``code`` opens: the follow page with the code filled in."""
    return url_for("parent.follow", code=shown_code(code), _external=True)


def qr_svg(text: str, title: str, css_class: str = "qr") -> Markup:
    """A QR code of ``text`` as inline SVG (medium error correction: a phone still reads it from a creased paper
    or a glossy screen), dark on white so it scans in a dark theme too."""
    code = segno.make(text, error="m", micro=False)
    # a viewBox, not a fixed width and height: the page sizes the square (with a fixed 140 px drawing in a box
    # the page made 240 px wide, the code sat in a corner with a gap beside and below it)
    return Markup(code.svg_inline(scale=4, border=3, dark="#000", light="#fff", title=title, svgclass=css_class,
                                  lineclass=None, omitsize=True))


def new_link_invitation(kid: User, by: User) -> LinkInvitation:
    """A code one more parent can use, once, within LINK_DAYS, to ask to follow ``kid``."""
    now = utcnow()
    invitation = LinkInvitation(code=new_code(LINK_CODE_LENGTH), kid_id=kid.id, created_by=by.id, created_at=now,
                                expires_at=now + timedelta(days=LINK_DAYS))
    db.session.add(invitation)
    return invitation


def redeem_link_code(code: str, parent: User) -> bool:
    """Use a code: a pending link from ``parent`` to the code's kid, for the kid's teacher or first parent to
    approve. False when the code is unknown, used, withdrawn or expired. The code is spent by one conditional
    UPDATE, so two parents sending it at once cannot both use it."""
    code = normalise_link_code(code)
    if len(code) != LINK_CODE_LENGTH:
        return False
    now = utcnow()
    invitation = db.session.scalar(sa.select(LinkInvitation).where(LinkInvitation.code == code))
    if invitation is None or not invitation.open(now):
        return False
    kid = db.session.get(User, invitation.kid_id)
    if kid is None or not kid.is_kid or kid.archived:
        return False
    spent = db.session.execute(
        sa.update(LinkInvitation).where(LinkInvitation.id == invitation.id, LinkInvitation.used_at.is_(None),
                                        LinkInvitation.withdrawn_at.is_(None), LinkInvitation.expires_at > now)
        .values(used_at=now, used_by=parent.id))
    if spent.rowcount != 1:
        db.session.rollback()
        return False
    if db.session.scalar(sa.select(ParentLink.id).where(ParentLink.parent_id == parent.id,
                                                        ParentLink.kid_id == kid.id)) is None:
        db.session.add(ParentLink(parent_id=parent.id, kid_id=kid.id, status="pending", created_at=now))
    db.session.commit()
    return True


def approved_link(kid_id: int, parent_id: int) -> bool:
    return db.session.scalar(sa.select(ParentLink.id).where(
        ParentLink.kid_id == kid_id, ParentLink.parent_id == parent_id, ParentLink.status == "approved")) is not None


def link_managers(kid: User) -> set[int]:
    """Who approves and removes the parents of a kid: the teachers of every class the kid is in and, for a kid of
    a family, the kid's first approved parent."""
    kid_groups = sa.select(Membership.group_id).where(Membership.user_id == kid.id, Membership.role == "kid")
    managers = set(db.session.scalars(sa.select(Membership.user_id).join(Group).where(
        Membership.group_id.in_(kid_groups), Membership.role == "teacher", Group.kind == "class")))
    in_family = db.session.scalar(sa.select(Group.id).where(Group.id.in_(kid_groups), Group.kind == "family")
                                  .limit(1))
    if in_family is not None:
        first = db.session.scalar(sa.select(ParentLink.parent_id).where(
            ParentLink.kid_id == kid.id, ParentLink.status == "approved").order_by(ParentLink.id).limit(1))
        if first is not None:
            managers.add(first)
    return managers


def kid_links(kid: User, viewer: User) -> dict:
    """What the kid pages show about a kid's parents: who follows (approved and pending), the open codes, and
    whether ``viewer`` may approve and remove."""
    now = utcnow()
    followers = db.session.execute(sa.select(ParentLink, User).join(User, User.id == ParentLink.parent_id)
                                   .where(ParentLink.kid_id == kid.id).order_by(ParentLink.id)).all()
    invitations = [i for i in db.session.scalars(sa.select(LinkInvitation).where(
        LinkInvitation.kid_id == kid.id, LinkInvitation.used_at.is_(None), LinkInvitation.withdrawn_at.is_(None),
        LinkInvitation.expires_at > now).order_by(LinkInvitation.id))]
    # a parent's page links each code to its card with the QR code (the teacher's pages show the code alone)
    card = (lambda i: url_for("parent.invitation", kid_id=kid.id, invitation_id=i.id)) \
        if viewer.role == "parent" else None
    return {"followers": followers, "invitations": invitations, "may_manage": viewer.id in link_managers(kid),
            "shown_code": shown_code, "link_days": LINK_DAYS, "invitation_card": card}


def link_of_kid_or_404(kid: User, link_id: int) -> ParentLink:
    link = db.session.scalar(sa.select(ParentLink).where(ParentLink.id == link_id, ParentLink.kid_id == kid.id))
    if link is None:
        abort(404)
    return link


def invitation_of_kid_or_404(kid: User, invitation_id: int) -> LinkInvitation:
    invitation = db.session.scalar(sa.select(LinkInvitation).where(LinkInvitation.id == invitation_id,
                                                                   LinkInvitation.kid_id == kid.id))
    if invitation is None:
        abort(404)
    return invitation


def approve_link(link: ParentLink, by: User) -> None:
    if link.status != "approved":
        link.status, link.approved_by, link.approved_at = "approved", by.id, utcnow()


def withdraw_invitation(invitation: LinkInvitation) -> None:
    if invitation.used_at is None and invitation.withdrawn_at is None:
        invitation.withdrawn_at = utcnow()
