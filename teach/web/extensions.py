"""The Flask extensions, created once and bound to the app in ``create_app``.

``db`` is the models' own handle (``teach.db``), re-exported here so the web modules find every extension in one
place."""

from __future__ import annotations

from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_wtf import CSRFProtect

from teach.db import db

__all__ = ["babel", "csrf", "db", "limiter", "login_manager", "migrate"]

migrate = Migrate()
login_manager = LoginManager()
csrf = CSRFProtect()
babel = Babel()
limiter = Limiter(key_func=get_remote_address)
