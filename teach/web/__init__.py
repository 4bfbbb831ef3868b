"""The web application: the kid's lessons, and the teachers' and parents' pages.

``create_app`` follows the Flask tutorial's factory: configuration from defaults, the instance folder, the
environment and the test's mapping, then extensions, blueprints, error pages and commands.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from flask import Flask, g, request

from teach.web.extensions import babel, csrf, db, limiter, login_manager, migrate
from teach.web.i18n import select_locale

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGE = Path(__file__).resolve().parent.parent


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=None,
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'teach.sqlite'}",
        LESSONS_DIR=str(ROOT / "lessons"),
        # a CSRF token lives as long as the session: a kid who leaves a puzzle open for an hour can still play
        WTF_CSRF_TIME_LIMIT=None,
        RATELIMIT_STORAGE_URI="memory://",
        # said for every app: the limiter is one object, and would otherwise keep the last app's setting
        RATELIMIT_ENABLED=True,
        RATELIMIT_HEADERS_ENABLED=True,
        BABEL_DEFAULT_LOCALE="zh_Hans_CN",
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE / "translations"),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=False,  # True: Secure even over plain HTTP; otherwise Secure whenever served over HTTPS
        PROXY_FIX=0,  # reverse proxies in front of the app whose X-Forwarded-For/-Proto are trusted
        # the largest honest body is a teacher's lesson or SGF file (64 KiB); anything past this is refused
        # with 413 before it is read
        MAX_CONTENT_LENGTH=1024 * 1024,
        MAX_FORM_MEMORY_SIZE=256 * 1024,  # one text field (a pasted class list is a few KiB)
        MAX_FORM_PARTS=500,  # fields and files in one form (the homework form has one box per kid)
        KID_LOCK_AFTER=5,  # picture tries from one device (address) before it rests for KID_LOCK_MINUTES
        KID_LOCK_MINUTES=15,
        KID_LOCK_CEILING=20,  # wrong tries from all devices together before the kid's login rests everywhere
        KID_CEILING_HOURS=24,  # ... for this long, or until a teacher or parent unlocks it
        PREWARM_JUDGES=False,  # solve every lesson puzzle at start (with gunicorn --preload: once for all workers)
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("TEACH")
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(os.environ["DATABASE_URL"])
    if os.environ.get("REDIS_URL"):
        app.config["RATELIMIT_STORAGE_URI"] = os.environ["REDIS_URL"]
    if test_config:
        app.config.update(test_config)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql") \
            and not app.config.get("SQLALCHEMY_ENGINE_OPTIONS"):
        # connections kept open and never more than these per process: a threaded worker (live games' held
        # questions) has several requests at once, and a connection opened and closed for each costs PostgreSQL
        # a process each time; ten per worker × the workers of every host must stay under max_connections
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_size": 10, "max_overflow": 0}
    if not app.config["SECRET_KEY"]:
        if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
            app.logger.warning(
                "no TEACH_SECRET_KEY is set: the secret key is kept in %s, which other hosts sharing this "
                "database do not see, so each host would refuse the others' sessions. Set TEACH_SECRET_KEY to "
                "the same secret on every host.", instance / "secret_key")
        app.config["SECRET_KEY"] = _instance_secret(instance)

    register_security(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_commands(app)
    register_middleware(app)
    if app.config.get("PREWARM_JUDGES"):
        import gc

        from teach.web import content

        with app.app_context():
            content.prewarm()
        # the solved puzzles stay for the life of the process: out of the garbage collector's sight, a full
        # collection in a worker no longer walks them (over 100 ms each time, a kid's move waiting behind it),
        # and the workers forked from here keep sharing their memory pages
        gc.collect()
        gc.freeze()
    return app


def _database_url(url: str) -> str:
    """PostgreSQL URLs as hosting services write them, driven by psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _instance_secret(instance: Path) -> str:
    """A secret key made once per installation and kept in the instance folder, so sessions survive restarts.

    The file is created readable by its owner only from the first byte, and never overwritten: when several
    workers start at once, the first to create it writes the key and the others read that one."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
            f.flush()
            os.fsync(f.fileno())
    # another worker may have created the file an instant ago and not yet written its key
    for _ in range(50):
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"the secret key file {path} is empty; delete it (or set TEACH_SECRET_KEY) and start again")


def _sqlite_for_many_writers(dbapi_connection, connection_record) -> None:
    """SQLite serving a school: write-ahead logging (readers never wait for the writer, one fsync per commit
    instead of four), and a writer waits for the lock instead of failing at once."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def register_security(app: Flask) -> None:
    from teach.web import security

    security.register(app)


def register_extensions(app: Flask) -> None:
    from teach import models  # noqa: F401  (the models must be known before migrations look)

    db.init_app(app)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        import sqlalchemy as sa

        with app.app_context():
            sa.event.listen(db.engine, "connect", _sqlite_for_many_writers)
    migrate.init_app(app, db, directory=str(PACKAGE / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    limiter.init_app(app)

    @login_manager.unauthorized_handler
    def sign_in_again():
        """A page goes to sign-in; a move sent after the session expired gets a message the page can show."""
        from flask import jsonify, redirect, url_for
        from flask_babel import gettext

        if request.is_json or request.accept_mimetypes.best == "application/json":
            return jsonify(result="signed-out", message=gettext("Please sign in again."),
                           login=url_for("main.home")), 401
        kids_page = request.path.startswith(("/learn", "/practice", "/placement", "/play", "/games", "/live", "/room")) \
            and not request.path.startswith("/room/class/")
        return redirect(url_for("auth.kid_code" if kids_page else "auth.login", next=request.full_path))

    from teach.web.auth import SESSION_ACCOUNT

    @login_manager.user_loader
    def load_user(session_id: str):
        """The account a session names by "<id>:<secret>" (User.get_id); a session from before sign-out, a new
        password or a deleted account that once had this id never matches the account's current secret."""
        user_id, _, secret = session_id.partition(":")
        if not (user_id.isdigit() and len(user_id) < 19 and secret):
            return None
        user = db.session.scalar(SESSION_ACCOUNT, {"id": int(user_id)})
        if user is None or user.archived or not user.session_matches(secret):
            return None
        return user

    @app.before_request
    def remember_language():
        g.lang = "zh" if select_locale().startswith("zh") else "en"

    @app.context_processor
    def language():
        return {"lang": getattr(g, "lang", "zh")}

    from teach.web.pictures import glyph, number_dots, spoken

    from teach.web.safety import this_page

    app.jinja_env.globals.update(glyph=glyph, spoken=spoken, number_dots=number_dots, this_page=this_page)
    from teach.web.daily import local, local_minute

    app.jinja_env.filters["local"] = local
    app.jinja_env.filters["local_minute"] = local_minute
    app.jinja_env.filters["aside"] = aside
    app.jinja_env.filters["label"] = label


def label(text: object) -> str:
    """A label before its value, with the page's language's colon: "结果：", "Result: " (the ``label`` template
    filter; Chinese takes the full-width colon and no space)."""
    return f"{text}：" if getattr(g, "lang", "zh") == "zh" else f"{text}: "


def aside(text: object) -> str:
    """An aside in brackets after a word, as the page's language writes it: "电脑（难度 1）", "computer (level 1)"
    (the ``aside`` template filter; the leading space is part of the English)."""
    return f"（{text}）" if getattr(g, "lang", "zh") == "zh" else f" ({text})"


def register_blueprints(app: Flask) -> None:
    from teach.web import auth, games, kid, live, main, parent, play, practice, rank, room, teacher

    app.register_blueprint(main.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(kid.bp)
    app.register_blueprint(practice.bp)
    app.register_blueprint(rank.bp)  # the placement test
    app.register_blueprint(play.bp)
    app.register_blueprint(teacher.bp)
    app.register_blueprint(parent.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(room.bp)
    app.register_blueprint(live.bp)


def register_middleware(app: Flask) -> None:
    from teach.web import notify

    # outermost: a waiting live-game page's unchanged poll is answered 304 before Flask builds a request
    app.wsgi_app = notify.UnchangedPolls(app.wsgi_app, app)


def register_errorhandlers(app: Flask) -> None:
    from teach.web import errors

    errors.register(app)


def register_commands(app: Flask) -> None:
    from teach.web import demo

    app.cli.add_command(demo.demo_command)
