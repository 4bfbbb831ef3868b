"""Shared helpers: positions from diagrams, full snapshots of a game's state, where the GNU Go peer data is, and the web
app on a test database."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from teach.go import Game
from teach.go.coords import COLUMNS

ROOT = Path(__file__).resolve().parent.parent
# GNU Go's regression files and their game records, kept beside the checkout; tests that need them skip without
PEER = ROOT.parent / "shared" / "peer" / "gnugo-regression"


def build_position(rows: list[str], to_play: str = "black", game: Game | None = None, **game_args) -> Game:
    """A game whose board is the diagram: top row first, ``X`` black, ``O`` white, ``.`` empty, spaces ignored.

    The side to move is set before the stones go down, so the position is remembered (for superko) as the one
    ``to_play`` faces. Pass ``game`` to lay the diagram over an existing game (e.g. one with handicap stones).
    """
    rows = [r.replace(" ", "") for r in rows]
    size = len(rows)
    assert all(len(r) == size for r in rows), "a diagram is square"
    if game is None:
        game = Game(size=size, **game_args)
    assert game.size == size
    game.to_play = to_play
    stones: dict[str, list[str]] = {"X": [], "O": [], ".": []}
    for i, row in enumerate(rows):
        for col, ch in enumerate(row):
            stones[ch].append(f"{COLUMNS[col]}{size - i}")
    game.setup(black=stones["X"], white=stones["O"], empty=stones["."])
    return game


def chain_set(game: Game) -> frozenset:
    """Every chain as (colour, stones, liberties), in GTP names, so two states compare as plain values."""
    return frozenset(
        (c.color, frozenset(game.name(s) for s in c.stones), frozenset(game.name(s) for s in c.libs))
        for c in game.chains()
    )


def state(game: Game) -> dict:
    """Everything undo promises to restore, read through the public API."""
    other = "white" if game.to_play == "black" else "black"
    return {
        "board": game.board_rows(),
        "to_play": game.to_play,
        "captures": game.captures,
        "hash": game.hash,
        "ko_point": game.ko_point,
        "over": game.over,
        "moves": len(game.moves),
        "chains": chain_set(game),
        "legal": game.legal_moves(),
        "legal_other": game.legal_moves(other),
    }


@pytest.fixture(scope="session")
def position():
    return build_position


@pytest.fixture(scope="session")
def snapshot():
    return state


# ---------------------------------------------------------------------- the web app
from flask.testing import FlaskClient  # noqa: E402

WEB_LESSONS = ROOT / "tests" / "web_lessons"
_CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


class CSRFClient(FlaskClient):
    """A test client that sends the page's CSRF token with every state-changing request, as the browser does;
    CSRF protection stays on in tests. ``csrf=False`` sends a request without it."""

    def open(self, *args, **kwargs):
        method = (kwargs.get("method") or "GET").upper()
        send_token = kwargs.pop("csrf", True)
        if method not in ("GET", "HEAD", "OPTIONS") and send_token:
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault("X-CSRFToken", self.csrf_token())
            kwargs["headers"] = headers
        return super().open(*args, **kwargs)

    def csrf_token(self) -> str:
        page = super().open("/", method="GET", follow_redirects=True).get_data(as_text=True)
        return _CSRF.search(page).group(1)


def pytest_configure(config):
    _compile_catalogue()


def _compile_catalogue() -> None:
    """Compile the Chinese catalogue when its .mo is missing or older than the .po (as ``make`` does), so a bare
    ``pytest`` on a fresh checkout shows Chinese pages too."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in (ROOT / "teach" / "translations").glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f)
        with mo.open("wb") as f:
            write_mo(f, catalog)


# The browser journeys run again on PostgreSQL too: a kid's whole lesson, a live game between two browsers and a
# long wrong line. The other browser tests drive the same routes the web tests already run on PostgreSQL, and on a
# 2-core machine they would double CI's time for no database behaviour of their own.
PG_BROWSER_FILES = {"test_browser.py", "test_browser_room.py", "test_browser_long_line.py"}


def pytest_collection_modifyitems(items):
    """Tests that use the database carry the ``db`` mark: CI runs them again on PostgreSQL (``pytest -m db``).
    Browser tests carry ``browser``; those of ``PG_BROWSER_FILES`` also ``pg_browser``, the ones CI runs again."""
    for item in items:
        if "app" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)
        name = Path(str(item.fspath)).name
        if name.startswith("test_browser"):
            item.add_marker(pytest.mark.browser)
            if name in PG_BROWSER_FILES:
                item.add_marker(pytest.mark.pg_browser)


def database_url(tmp_path: Path) -> str:
    """SQLite in the given folder, or the PostgreSQL database named by TEST_DATABASE_URL (CI runs both)."""
    from teach.web import _database_url

    url = os.environ.get("TEST_DATABASE_URL")
    return _database_url(url) if url else f"sqlite:///{tmp_path / 'test.sqlite'}"


def _test_app(url: str):
    from teach.web import create_app

    # no review runner threads unless a test asks for one: a review finishing after its test would write into
    # the next test's database
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url,
                      "LESSONS_DIR": str(WEB_LESSONS), "REVIEW_RUNNER": False})
    app.test_client_class = CSRFClient
    return app


def _migrate(app, fresh: bool) -> None:
    """Bring the schema to the newest migration; ``fresh`` first drops what an earlier run may have left
    (a PostgreSQL test database outlives the session, and a test may take its tables down to build its own)."""
    from flask_migrate import downgrade, upgrade

    with app.app_context():
        if fresh:
            downgrade(revision="base")
        upgrade()


@pytest.fixture(scope="session")
def database(tmp_path_factory) -> str:
    """The test database's URL, its schema migrated once for the whole session."""
    url = database_url(tmp_path_factory.mktemp("database"))
    app = _test_app(url)
    _migrate(app, fresh=True)
    from teach.web.extensions import db

    with app.app_context():
        db.engine.dispose()
    return url


def _empty_tables() -> None:
    """Delete every row, so the next test starts from an empty database as if it had just been migrated.
    PostgreSQL also restarts its id sequences (as a new schema would); SQLite tables without AUTOINCREMENT
    hand out ids from 1 again by themselves."""
    import sqlalchemy as sa

    from teach.web.extensions import db

    tables = list(reversed(db.metadata.sorted_tables))
    with db.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            names = ", ".join(connection.dialect.identifier_preparer.format_table(t) for t in tables)
            connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for table in tables:
                connection.execute(table.delete())


@pytest.fixture
def app(database):
    """A fresh app (its own config, rate limits and caches) on the session's database, empty for each test.

    Rows are deleted after the test rather than rolled back: the code under test commits, and the browser tests
    serve the app from other threads, which must see what the test wrote."""
    import sqlalchemy as sa

    from teach.web.extensions import db

    app = _test_app(database)
    with app.app_context():
        if not sa.inspect(db.engine).has_table(db.metadata.sorted_tables[0].name):  # a test took the schema down
            _migrate(app, fresh=False)
    yield app
    from teach.web import proofs, reviews

    # a runner thread a test started (an upload's proof, a game's review) ends before the tables are emptied: one
    # still working would write into the next test's database, and keep a connection past its pool's disposal
    assert proofs.join_runners(app, 300) and reviews.join_runner(app, 300), "a runner thread outlived its test"
    with app.app_context():
        db.session.remove()
        _empty_tables()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def demo(app):
    from teach.web.demo import create_demo

    with app.app_context():
        create_demo()
    return app


@pytest.fixture
def outsider(demo) -> int:
    """Zed, a kid of another class (code OTHER2, picture password cat, cat, cat); returns his id."""
    from teach.models import Group, Membership, User
    from teach.web.extensions import db

    with demo.app_context():
        other = Group(kind="class", name="Other", code="OTHER2")
        zed = User(role="kid", name="Zed", avatar="cat")
        zed.set_pictures(["cat", "cat", "cat"])
        other.members.append(Membership(user=zed, role="kid"))
        db.session.add(other)
        db.session.commit()
        return zed.id
