"""What every response and every request gets, whatever the route: security headers, cookies that are
``Secure`` over HTTPS, the real client address behind a proxy, bounded ids in URLs, and JSON bodies that answer
400 when they cannot be read.

Each is a general mechanism registered once from ``create_app``, so a new route is covered without a line of
its own.
"""

from __future__ import annotations

import os
import sys

from flask import Flask, abort, has_request_context, request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from flask_wtf import FlaskForm
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

# every asset is served from here (no CDN); the one <script type="application/json"> data block is never run
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
])
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # the full address only to ourselves: CSRF checking over HTTPS needs a same-site Referer
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
}
ID_MAX = 2**63 - 1  # ids are signed 64-bit integers in SQLite and PostgreSQL alike


def plain_int(text: str | None, digits: int = 18) -> int | None:
    """The number a form, query or header field spells in ASCII digits (at most ``digits`` of them), else None.
    ``str.isdigit`` alone lets through "²" (which ``int`` refuses: a 500), "٣" and "３" (other scripts' digits, no
    number anyone typed here), and 5,000 nines (past ``int``'s limit on long strings)."""
    if text is None or not (0 < len(text) <= digits and text.isascii() and text.isdigit()):
        return None
    return int(text)


class DatabaseId(IntegerConverter):
    """``<int:...>`` in every route: ASCII digits only ("/play/１" is no page), and a number past what a database
    id can hold is no page (404), instead of an integer overflow deep in the database driver."""

    regex = r"[0-9]+"

    def __init__(self, map, fixed_digits=0, min=None, max=ID_MAX, signed=False):
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


class BodyJSON(DefaultJSONProvider):
    """The app's JSON, which every request body is read with. A body nested deeper than the parser's stack
    raises RecursionError, which is no ValueError; called a ValueError here, it takes the path of every other
    unreadable body: ``get_json`` answers 400 Bad Request (or None when the caller asked for ``silent``)."""

    def loads(self, s, **kwargs):
        try:
            return super().loads(s, **kwargs)
        except RecursionError as e:
            raise ValueError("JSON nested too deeply") from e


class SessionCookies(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` whenever the page came over HTTPS (behind the proxy fix, as the proxy
    says), and always when ``SESSION_COOKIE_SECURE`` is set; HttpOnly and SameSite stay as configured."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


def add_headers(response):
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def trust_proxies(app: Flask) -> None:
    """Behind ``PROXY_FIX`` reverse proxies (nginx, a load balancer) the client's address and scheme are the
    ones the proxies forward; without it the forwarded headers are anyone's to write, and ignored."""
    count = int(app.config.get("PROXY_FIX") or 0)
    if count > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)


def gunicorn_workers() -> int | None:
    """How many worker processes gunicorn runs this app in, as gunicorn itself reads its command line,
    ``GUNICORN_CMD_ARGS``, config file and ``WEB_CONCURRENCY``; None when not under gunicorn."""
    if not os.environ.get("SERVER_SOFTWARE", "").startswith("gunicorn/"):
        return None
    # gunicorn's reading changes the working folder and the import path to its --chdir: put both back
    argv, cwd, path = sys.argv, os.getcwd(), list(sys.path)
    try:
        from gunicorn.app.wsgiapp import WSGIApplication

        sys.argv = [argv[0] if argv else "gunicorn", *argv[1:]]
        return int(WSGIApplication("%(prog)s [OPTIONS] [APP_MODULE]").cfg.workers)
    except (Exception, SystemExit):  # an unusual launcher: fall back to gunicorn's own environment default
        return int(os.environ.get("WEB_CONCURRENCY", "1") or 1)
    finally:
        sys.argv, sys.path[:] = argv, path
        os.chdir(cwd)


def check_shared_state(app: Flask) -> None:
    """Warn at start about settings that quietly break once the app runs in several processes or on several
    hosts. Logged, not raised: the app still serves."""
    workers = gunicorn_workers()
    if app.config["RATELIMIT_STORAGE_URI"].startswith("memory://") and workers and workers > 1:
        app.logger.warning(
            "rate limits are kept per process (memory://) while gunicorn runs %d workers: each worker counts on "
            "its own, so the limits allow %d times as many tries and reset on restart. Set REDIS_URL=redis://... "
            "to share them.", workers, workers)


def head_has_no_body() -> None:
    """A HEAD request is a GET without the page (Flask routes it to the GET view), and CSRF is checked on POST,
    PUT, PATCH and DELETE only: a body on a HEAD could reach a view that takes "not GET" for a submit without its
    token. Such a request is refused before any view runs."""
    if request.method == "HEAD" and (request.content_length or request.headers.get("Transfer-Encoding")):
        abort(400)


def register(app: Flask) -> None:
    """Before the blueprints: their routes take the bounded ``int`` as they are added."""
    app.url_map.converters["int"] = DatabaseId
    app.before_request(head_has_no_body)
    app.json = BodyJSON(app)
    app.session_interface = SessionCookies()
    app.after_request(add_headers)
    trust_proxies(app)
    check_shared_state(app)


class PageForm(FlaskForm):
    """The base of every form a page posts: its fields are read from the form body only. Flask-WTF would read a
    JSON body as the form too, where a field's value can be a number, a list or null and the views expect text;
    a JSON body posted to a form page is read as an empty form, refused as such."""

    class Meta(FlaskForm.Meta):
        def wrap_formdata(self, form, formdata):
            if request.is_json and not request.form and not request.files:
                # empty (an immutable MultiDict) when the request is a submission; nothing to read otherwise
                return request.form if request.method in ("POST", "PUT", "PATCH", "DELETE") else None
            return super().wrap_formdata(form, formdata)
