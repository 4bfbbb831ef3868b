"""The Flask extensions, created once and bound to the app in ``create_app``.

``db`` is the models' own handle (``teach.db``), re-exported here so the web modules find every extension in one
place."""

from __future__ import annotations

from functools import lru_cache

from babel import Locale
from flask_babel import Babel as FlaskBabel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_wtf import CSRFProtect

from teach.db import db

__all__ = ["babel", "csrf", "db", "limiter", "login_manager", "migrate"]


@lru_cache(maxsize=32)
def parsed_locale(tag: str) -> Locale:
    return Locale.parse(tag)


class Babel(FlaskBabel):
    """Flask-Babel, handed the request's locale already parsed: given the selector's tag, it parses it afresh on
    every request, and a site in two languages needs two Locale objects for the life of the process."""

    def init_app(self, app, *args, locale_selector=None, **kwargs):
        if locale_selector is not None:
            select = locale_selector

            def locale_selector():
                tag = select()
                return parsed_locale(tag) if isinstance(tag, str) else tag

        super().init_app(app, *args, locale_selector=locale_selector, **kwargs)


migrate = Migrate()
login_manager = LoginManager()
csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=get_remote_address)
