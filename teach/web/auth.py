"""Signing in: teachers and parents with email and password; kids with a code, their avatar and a picture password.

Every sign-in form is rate limited. A kid's picture login locks after repeated wrong tries (a teacher can unlock
it); the lock is per kid, so one kid's mistakes never lock out the class.
"""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import login_required, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import EmailField, HiddenField, PasswordField, RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Email, EqualTo, Length, Regexp

from teach.models import AVATARS, PASSWORD_PICTURES, Group, Membership, User, utcnow
from teach.web import classroom
from teach.web.extensions import db, limiter
from teach.web.safety import safe_next

bp = Blueprint("auth", __name__)
PICTURE_COUNT = 3  # pictures in a kid's password

LOGIN_LIMIT = "10 per minute;100 per hour"
# a whole class signs in from one school address: the code page allows a class's worth per minute, and the
# picture pad is limited per kid (the per-kid lock stops guessing; this stops hammering)
CODE_LIMIT = "120 per minute"


def _address_and_kid() -> str:
    return f"{request.remote_addr}/{request.view_args.get('kid_id') if request.view_args else ''}"


class LoginForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(), Email(), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])


class SignupForm(FlaskForm):
    role = RadioField(_l("I am a"), choices=[SelectChoice("teacher", _l("Teacher")), SelectChoice("parent", _l("Parent"))],
                      validators=[DataRequired()], default="teacher")
    name = StringField(_l("Your name"), validators=[DataRequired(), Length(max=80)])
    email = EmailField(_l("Email"), validators=[DataRequired(), Email(), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(_l("Password again"), validators=[EqualTo("password", _l("The passwords differ."))])


class CodeForm(FlaskForm):
    code = StringField(_l("Class or family code"), validators=[
        DataRequired(), Length(min=4, max=12), Regexp(r"^[A-Za-z0-9 -]+$", message=_l("Letters and numbers only."))])


class PicturesForm(FlaskForm):
    pictures = HiddenField(validators=[DataRequired()])


def normalise_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(LOGIN_LIMIT, methods=["POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = db.session.scalar(sa.select(User).where(User.email == form.email.data.strip().lower(),
                                                       User.role != "kid", User.archived.is_(False)))
        if user is None or not user.check_password(form.password.data):
            form.password.errors.append(_("That email and password do not match."))
        else:
            login_user(user)
            return redirect(safe_next(request.args.get("next")) or url_for("main.home"))
    return render_template("auth/login.html", form=form)


@bp.route("/signup", methods=["GET", "POST"])
@limiter.limit(LOGIN_LIMIT, methods=["POST"])
def signup():
    form = SignupForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        if db.session.scalar(sa.select(User.id).where(User.email == email)) is not None:
            form.email.errors.append(_("There is already an account with this email. Sign in instead."))
        else:
            user = User(role=form.role.data, name=form.name.data.strip(), email=email)
            user.set_password(form.password.data)
            db.session.add(user)
            try:
                db.session.commit()
            except sa.exc.IntegrityError:  # the same form sent twice at once
                db.session.rollback()
                form.email.errors.append(_("There is already an account with this email. Sign in instead."))
            else:
                login_user(user)
                return redirect(url_for("main.home"))
    return render_template("auth/signup.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    """Signing out ends every session of the account: a copied cookie stops working too."""
    from flask_login import current_user

    current_user.end_sessions()
    db.session.commit()
    logout_user()
    return redirect(url_for("main.home"))


# ---------------------------------------------------------------------- kids
@bp.route("/kids", methods=["GET", "POST"])
@limiter.limit(CODE_LIMIT, methods=["POST"])
def kid_code():
    form = CodeForm()
    if form.validate_on_submit():
        code = normalise_code(form.code.data)
        group = db.session.scalar(sa.select(Group).where(Group.code == code, Group.archived.is_(False)))
        if group is None:
            form.code.errors.append(_("We do not know this code. Ask your teacher or parent."))
        else:
            return redirect(url_for("auth.kid_avatars", code=group.code))
    return render_template("auth/kid_code.html", form=form)


def _group_or_404(code: str) -> Group:
    group = db.session.scalar(sa.select(Group).where(Group.code == normalise_code(code), Group.archived.is_(False)))
    if group is None:
        abort(404)
    return group


@bp.get("/kids/<code>")
def kid_avatars(code: str):
    group = _group_or_404(code)
    # one query whatever the class size; a kid looks for a name whatever its capitals
    kids = sorted(classroom.class_kids(group.id), key=lambda u: (u.name.lower(), u.id))
    return render_template("auth/kid_avatars.html", group=group, kids=kids)


@bp.route("/kids/<code>/<int:kid_id>", methods=["GET", "POST"])
@limiter.limit("20 per minute", methods=["POST"], key_func=_address_and_kid)
def kid_pictures(code: str, kid_id: int):
    group = _group_or_404(code)
    kid = db.session.scalar(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "kid", User.id == kid_id, User.archived.is_(False)))
    if kid is None:
        abort(404)
    form = PicturesForm()
    message = None
    if kid.locked():
        message = _("Your picture password is resting. Ask your teacher or parent to help you.")
    elif form.validate_on_submit():
        pictures = [p for p in form.pictures.data.split(",") if p]
        if len(pictures) == PICTURE_COUNT and all(p in PASSWORD_PICTURES for p in pictures) \
                and kid.check_pictures(pictures):
            kid.failed_logins = 0
            kid.locked_until = None
            db.session.commit()
            login_user(kid)
            return redirect(url_for("kid.lesson_map"))
        kid.failed_logins += 1
        if kid.failed_logins >= current_app.config["KID_LOCK_AFTER"]:
            kid.locked_until = utcnow() + timedelta(minutes=current_app.config["KID_LOCK_MINUTES"])
            kid.failed_logins = 0
            message = _("Your picture password is resting. Ask your teacher or parent to help you.")
        else:
            message = _("Not quite. Try again!")
        db.session.commit()
    return render_template("auth/kid_pictures.html", group=group, kid=kid, form=form, message=message,
                           pictures=PASSWORD_PICTURES, count=PICTURE_COUNT, avatars=AVATARS)
