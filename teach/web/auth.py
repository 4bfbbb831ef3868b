"""Signing in: teachers and parents with email and password; kids with a code, their avatar and a picture password.

Every sign-in, sign-up and code route is rate limited (``signin_limits``). A kid's picture login rests after
repeated wrong tries (``picture_lock``); the rest is per kid, so one kid's mistakes never lock out the class, and
per device first, so a stranger's guesses do not lock a kid out of the class tablet.

Sign-in and sign-up do the same work whether or not an email has an account, and say the same to a stranger, so
neither the answer nor its time tells which emails are known.
"""

from __future__ import annotations

import re
from functools import cache

import sqlalchemy as sa
from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required, login_user, logout_user
from wtforms import EmailField, HiddenField, PasswordField, RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Email, EqualTo, Length, Regexp
from werkzeug.security import check_password_hash, generate_password_hash

from teach.models import AVATARS, PASSWORD_PICTURES, Group, Membership, User
from teach.web import classroom, picture_lock
from teach.web import signin_limits as limits
from teach.web.extensions import db
from teach.web.safety import one_line, safe_next
from teach.web.security import PageForm

bp = Blueprint("auth", __name__)
PICTURE_COUNT = 3  # pictures in a kid's password
# the class (or family) a device belongs to: a classroom tablet goes back to its avatars after each child
CLASS_COOKIE = "teach-class"
CLASS_COOKIE_DAYS = 365
# the account a session names: asked on every signed-in request, so built once (a statement kept keeps its
# compiled form and cache key; ``session.get`` makes both anew each time)
SESSION_ACCOUNT = sa.select(User).where(User.id == sa.bindparam("id"))


@cache
def _stand_in_hash() -> str:
    """A password hash made the way real ones are, checked when an email has no account: sign-in then costs the
    same hash either way."""
    return generate_password_hash("no account has this password")


def _trimmed(value):
    """An email as typed, without the spaces a phone keyboard or a paste leaves round it."""
    return value.strip() if isinstance(value, str) else value


class LoginForm(PageForm):
    email = EmailField(_l("Email"), filters=[_trimmed], validators=[DataRequired(), Email(), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])


class SignupForm(PageForm):
    role = RadioField(_l("I am a"), choices=[SelectChoice("teacher", _l("Teacher")), SelectChoice("parent", _l("Parent"))],
                      validators=[DataRequired()], default="teacher")
    name = StringField(_l("Your name"), filters=[one_line], validators=[DataRequired(), Length(max=80)])
    email = EmailField(_l("Email"), filters=[_trimmed], validators=[DataRequired(), Email(), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField(_l("Password again"), validators=[EqualTo("password", _l("The passwords differ."))])


class CodeForm(PageForm):
    code = StringField(_l("Class or family code"), validators=[
        DataRequired(), Length(min=4, max=12), Regexp(r"^[A-Za-z0-9 -]+$", message=_l("Letters and numbers only."))])


class PicturesForm(PageForm):
    pictures = HiddenField(validators=[DataRequired()])


def normalise_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


@bp.route("/login", methods=["GET", "POST"])
@limits.pages
@limits.login_posts
@limits.login_failures
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = db.session.scalar(sa.select(User).where(User.email == form.email.data.strip().lower(),
                                                       User.role != "kid", User.archived.is_(False)))
        if user is None or not user.password_hash:
            check_password_hash(_stand_in_hash(), form.password.data)  # the same work as a known email
            right = False
        else:
            right = user.check_password(form.password.data)
        if not right:
            form.password.errors.append(_("That email and password do not match."))
        else:
            login_user(user)
            return redirect(safe_next(request.args.get("next")) or landing(user))
    return render_template("auth/login.html", form=form)


def landing(user: User) -> str:
    """Where an adult arrives after signing in or up: a teacher on their classes, a parent on their kids."""
    return url_for("teacher.classes") if user.role == "teacher" else url_for("parent.home")


def _signup_refused(form: SignupForm) -> None:
    """The one answer for an email that already has an account, or a sign-up that cannot be made: it neither
    says nor hints that the email is known (it names no field, and the work done is the same)."""
    form.form_errors.append(_("We could not make this account. If there is already an account with this email, "
                              "sign in instead; if not, check the details and try again."))


@bp.route("/signup", methods=["GET", "POST"])
@limits.pages
@limits.signups
def signup():
    form = SignupForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        user = User(role=form.role.data, name=one_line(form.name.data), email=email)
        user.set_password(form.password.data)  # before the look-up: a taken email costs the same hash
        if db.session.scalar(sa.select(User.id).where(User.email == email)) is not None:
            _signup_refused(form)
        else:
            db.session.add(user)
            try:
                db.session.commit()
            except sa.exc.IntegrityError:  # the same form sent twice at once
                db.session.rollback()
                _signup_refused(form)
            else:
                login_user(user)
                return redirect(landing(user))
    return render_template("auth/signup.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    """Signing out ends every session of the account: a copied cookie stops working too."""
    from flask_login import current_user

    was_kid = current_user.is_kid
    current_user.end_sessions()
    db.session.commit()
    logout_user()
    # a kid's device goes back to its class's avatars (kid_code follows the remembered class)
    return redirect(url_for("auth.kid_code") if was_kid else url_for("main.home"))


# ---------------------------------------------------------------------- kids
@bp.route("/kids", methods=["GET", "POST"])
@limits.code_form
@limits.code_misses
def kid_code():
    form = CodeForm()
    remembered = request.cookies.get(CLASS_COOKIE)
    if request.method == "GET" and remembered and not request.args.get("other"):
        group = db.session.scalar(sa.select(Group).where(Group.code == normalise_code(remembered)[:12],
                                                         Group.archived.is_(False)))
        if group is not None:
            return redirect(url_for("auth.kid_avatars", code=group.code))
        response = make_response(render_template("auth/kid_code.html", form=form))
        response.delete_cookie(CLASS_COOKIE)  # a class archived since, or a code changed: ask again
        return response
    if form.validate_on_submit():
        code = normalise_code(form.code.data)
        group = db.session.scalar(sa.select(Group).where(Group.code == code, Group.archived.is_(False)))
        if group is None:
            limits.note_code_miss()
            form.code.errors.append(_("We do not know this code. Ask your teacher or parent."))
        else:
            return redirect(url_for("auth.kid_avatars", code=group.code))
    elif request.method == "POST":
        limits.note_code_miss()  # not even a code: it costs a miss like a wrong one
    return render_template("auth/kid_code.html", form=form)


def _group_or_404(code: str) -> Group:
    group = db.session.scalar(sa.select(Group).where(Group.code == normalise_code(code)[:12],
                                                     Group.archived.is_(False)))
    if group is None:
        abort(404)  # a 404 on a code route costs the address one miss
    return group


@bp.get("/kids/<code>")
@limits.class_pages
@limits.code_misses
def kid_avatars(code: str):
    group = _group_or_404(code)
    # one query whatever the class size; a kid looks for a name whatever its capitals
    kids = sorted(classroom.class_kids(group.id), key=lambda u: (u.name.lower(), u.id))
    response = make_response(render_template("auth/kid_avatars.html", group=group, kids=kids))
    if request.cookies.get(CLASS_COOKIE) != group.code:
        remember_class(response, group.code)
    return response


def remember_class(response, code: str) -> None:
    """This device belongs to the class (or family) ``code`` now: its sign-in starts at the avatars. The code
    is what the teacher pinned up for the class; the cookie is kept from scripts and other sites."""
    response.set_cookie(CLASS_COOKIE, code, max_age=CLASS_COOKIE_DAYS * 86400, httponly=True, samesite="Lax",
                        secure=request.is_secure)


# a lesson or practice page of this site, in plain path letters (no "..", no other host, no encoded tricks)
KID_PAGE = re.compile(r"/(learn|practice)/[A-Za-z0-9_:/-]*(\?[A-Za-z0-9=&_-]*)?")


def _kid_page(target: str | None) -> str:
    """Where a kid lands after the pictures: the kid page a link asked for (a parent's "practise next"), else the
    map. Only kid pages of this site: a ``next`` elsewhere is dropped."""
    target = safe_next(target)
    if target and KID_PAGE.fullmatch(target) and "//" not in target:
        return target
    return url_for("kid.lesson_map")


@bp.route("/kids/<code>/<int:kid_id>", methods=["GET", "POST"])
@limits.class_pages
@limits.code_misses
@limits.picture_tries
def kid_pictures(code: str, kid_id: int):
    group = _group_or_404(code)
    kid = db.session.scalar(sa.select(User).join(Membership).where(
        Membership.group_id == group.id, Membership.role == "kid", User.id == kid_id, User.archived.is_(False)))
    if kid is None:
        abort(404)
    wanted = request.args.get("next")
    if wanted and current_user.is_authenticated and current_user.id == kid.id:  # a parent's QR on the kid's tablet
        return redirect(_kid_page(wanted))
    form = PicturesForm()
    message = None
    resting = _("Your picture password is resting. Ask your teacher or parent to help you.")
    if form.validate_on_submit():
        pictures = [p for p in form.pictures.data.split(",") if p]
        # the try is reserved (and counted) before the pictures are looked at: a burst gets no extra checks
        if not picture_lock.reserve(kid):
            message = resting
        elif len(pictures) == PICTURE_COUNT and all(p in PASSWORD_PICTURES for p in pictures) \
                and kid.check_pictures(pictures):
            picture_lock.signed_in(kid)
            login_user(kid)
            return redirect(_kid_page(wanted))
        else:
            message = resting if picture_lock.resting(kid) else _("Not quite. Try again!")
    elif picture_lock.resting(kid):
        message = resting
    return render_template("auth/kid_pictures.html", group=group, kid=kid, form=form, message=message,
                           pictures=PASSWORD_PICTURES, count=PICTURE_COUNT, avatars=AVATARS)
