"""The front door: who are you (kid, teacher, parent), and the language switch."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask_login import current_user

from teach.web.extensions import db
from teach.web.i18n import LOCALES
from teach.web.safety import safe_next

bp = Blueprint("main", __name__)


@bp.get("/")
def home():
    if current_user.is_authenticated:
        if current_user.is_kid:
            return redirect(url_for("kid.lesson_map"))
    return render_template("home.html")


@bp.post("/language")
def language():
    """The visible switch: remembered in the session, and on the account of whoever is signed in."""
    lang = request.form.get("lang", "")
    if lang in LOCALES:
        session["locale"] = LOCALES[lang]
        if current_user.is_authenticated:
            current_user.locale = LOCALES[lang]
            db.session.commit()
    return redirect(safe_next(request.form.get("next")) or url_for("main.home"))
