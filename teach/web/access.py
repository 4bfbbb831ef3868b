"""Who may open a page: one decorator for the three roles (kid, teacher, parent).

A page for one role answers 403 to a signed-in account of another role, and sends a visitor who is not signed in
to the sign-in page (Flask-Login's ``login_required``).
"""

from __future__ import annotations

from functools import wraps

from flask import abort
from flask_login import current_user, login_required

from teach.models import ROLES


def role_required(role: str):
    """Decorate a view so that only a signed-in account of ``role`` reaches it."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")

    def decorate(view):
        @wraps(view)
        @login_required
        def wrapped(*args, **kwargs):
            if current_user.role != role:
                abort(403)
            return view(*args, **kwargs)

        return wrapped

    return decorate


kid_required = role_required("kid")
teacher_required = role_required("teacher")
parent_required = role_required("parent")
