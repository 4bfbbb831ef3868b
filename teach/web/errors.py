"""Friendly error pages in the kid's language: never a traceback, never a bare 500."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from teach.web.extensions import db

MESSAGES = {
    400: lambda: _("Something in that request was not right. Please go back and try again."),
    403: lambda: _("This page is not for you."),
    404: lambda: _("We looked everywhere, but this page is not here."),
    405: lambda: _("That does not work here. Please go back and try again."),
    413: lambda: _("That file is too big."),
    429: lambda: _("Too many tries. Take a little break and try again soon."),
    500: lambda: _("Oops, something went wrong on our side. Please try again."),
}


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json" or request.path.startswith("/api/")


def render_error(code: int, message: str | None = None):
    message = message or MESSAGES.get(code, MESSAGES[500])()
    if _wants_json():
        return jsonify(error=message, status=code), code
    return render_template("error.html", code=code, message=message), code


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return render_error(400, _("This page was open too long or came from somewhere else. "
                                   "Please go back, reload it and try again."))

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        return render_error(e.code or 500)

    @app.errorhandler(Exception)
    def unexpected(e: Exception):
        db.session.rollback()
        app.logger.exception("unexpected error")
        return render_error(500)
