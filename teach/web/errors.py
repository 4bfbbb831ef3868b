"""Friendly error pages in the kid's language: never a traceback, never a bare 500."""

from __future__ import annotations

from flask import Flask, g, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DataError, StatementError
from werkzeug.exceptions import HTTPException

from teach.web.extensions import db

MESSAGES = {
    400: lambda: _("Something in that request was not right. Please go back and try again."),
    403: lambda: _("This page is not for you."),
    404: lambda: _("We looked everywhere, but this page is not here."),
    405: lambda: _("That does not work here. Please go back and try again."),
    413: lambda: _("That was too much to send at once. Please go back and try again."),
    429: lambda: _("Too many tries. Take a little break and try again soon."),
    500: lambda: _("Oops, something went wrong on our side. Please try again."),
}


def _wants_json() -> bool:
    return (request.accept_mimetypes.best == "application/json" or request.is_json
            or request.path.startswith("/api/"))


def render_error(code: int, message: str | None = None):
    from teach.web import select_locale

    message = message or MESSAGES.get(code, MESSAGES[500])()
    if _wants_json():
        # result and message as a judged move has them, so the board shows the words to the kid
        return jsonify(error=message, status=code, result="error", message=message), code
    if "lang" not in g:  # refused before the page's language was settled (a body too big, say)
        g.lang = "zh" if select_locale().startswith("zh") else "en"
    return render_template("error.html", code=code, message=message), code


def too_many_tries():
    """A rate limit was reached: a page a kid understands (a resting turtle, a short sentence), in their
    language; the limiter adds Retry-After."""
    from teach.web import select_locale

    if "lang" not in g:
        g.lang = "zh" if select_locale().startswith("zh") else "en"
    return render_template("errors/429.html"), 429


def _number_too_big(e: Exception) -> bool:
    """An integer the database cannot hold, sent in a form, a query or a JSON body: the driver says so with
    OverflowError (SQLite) or a data error (PostgreSQL's numeric out of range)."""
    if isinstance(e, StatementError):
        return isinstance(e, DataError) or isinstance(e.orig, OverflowError)
    return isinstance(e, OverflowError)


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return render_error(400, _("This page was open too long or came from somewhere else. "
                                   "Please go back, reload it and try again."))

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if e.code == 429 and not _wants_json():
            return too_many_tries()
        return render_error(e.code or 500)

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        db.session.rollback()
        if _number_too_big(e):  # the last safety net: a route that let a huge number through is no 500
            app.logger.warning("a number too big for the database: %s", e)
            return render_error(400)
        app.logger.exception("unexpected error")
        return render_error(500)
