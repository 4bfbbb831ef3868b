"""How the pages of a live game learn that something changed, on any number of app instances.

The page asks again and again (polling with conditional requests: see the README's "Live games" for why not
Server-Sent Events or WebSockets under gunicorn's sync workers). Every change to a ``LiveGame`` raises its
``version`` in the database; after the commit the new version is published in Redis (``teach:live:<id>``), kept
as the highest version any instance has seen. A page's question carries the ETag of what it shows; when Redis
still holds that version, the answer is a 304 from Redis alone: no database query, not even the account's.

The ETag is bound to the session's account and the game (an HMAC with the app's secret), so it is worth nothing
for another game or another account: a page only ever holds one it was given after the full check of who may see
the game. Without Redis (one SQLite process, ``make run``) the version is read from the database row instead.
A version lost on its way to Redis (Redis restarting) is put right by the next full answer, which publishes the
row's version again; the pages ask for one without a condition every few seconds.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re

from flask import current_app, session
from werkzeug.http import parse_cookie

from teach.web.security import HEADERS

log = logging.getLogger(__name__)
_clients: dict[str, object] = {}  # one Redis connection pool per URL and process
# keep the highest version: two instances publishing v and v+1 at the same moment may arrive in either order
_RAISE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > now then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1 end
return 0
"""
KEEP_SECONDS = 7 * 24 * 3600  # an adjourned game may be resumed days later; after that the database answers


def _redis(config=None):
    config = current_app.config if config is None else config
    url = config.get("LIVE_REDIS_URL")
    if url is None:
        limits = config.get("RATELIMIT_STORAGE_URI", "")
        url = limits if limits.startswith(("redis://", "rediss://")) else ""
    if not url:
        return None
    client = _clients.get(url)
    if client is None:
        import redis

        # a slow Redis must not hold a kid's move: the version is a hint, the database has the truth
        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        _clients[url] = client
    return client


def _key(game_id: int) -> str:
    return f"teach:live:{game_id}"


def published(game_id: int, version: int) -> None:
    """Tell every instance's pages that the game is at ``version`` now (call after the commit)."""
    client = _redis()
    if client is None:
        return
    try:
        client.eval(_RAISE, 1, _key(game_id), int(version), KEEP_SECONDS)
    except Exception:  # noqa: BLE001 — a move stays played; the pages' next unconditional question catches up
        log.warning("could not publish live game %s version %s", game_id, version, exc_info=True)


def current_version(game_id: int, config=None) -> int | None:
    """The game's version as published, or None when Redis is not used, not reachable or has none."""
    client = _redis(config)
    if client is None:
        return None
    try:
        value = client.get(_key(game_id))
    except Exception:  # noqa: BLE001
        return None
    return int(value) if value is not None else None


def uses_redis() -> bool:
    return _redis() is not None


def session_account() -> str:
    """The account the signed session cookie names (read without the database)."""
    value = session.get("_user_id")
    return value if isinstance(value, str) else ""


def etag(game_id: int, version: int, account: str | None = None) -> str:
    account = session_account() if account is None else account
    return _etag(current_app.secret_key, account, game_id, version)


def _etag(secret, account: str, game_id: int, version: int) -> str:
    key = secret.encode() if isinstance(secret, str) else secret
    mac = hmac.new(key, f"live:{account}:{game_id}:{version}".encode(), hashlib.sha256).hexdigest()[:20]
    return f'"{version}-{mac}"'


def _tag_version(if_none_match: str) -> tuple[str, int] | None:
    """(the tag, its version) of an ETag this app could have made, or None."""
    tag = if_none_match.strip()
    if tag.startswith("W/"):
        tag = tag[2:]
    version_text = tag.strip('"').partition("-")[0]
    if not version_text.isdigit() or len(version_text) > 12:
        return None
    return tag, int(version_text)


def version_of_tag(if_none_match: str | None, game_id: int) -> int | None:
    """The version a page's ETag names, if this session was given that ETag for this game (checked, not trusted):
    what the page shows, so an answer may send only what changed since."""
    if not if_none_match:
        return None
    found = _tag_version(if_none_match)
    if found is None or not session_account():
        return None
    tag, version = found
    return version if hmac.compare_digest(tag, etag(game_id, version)) else None


def unchanged(game_id: int, if_none_match: str | None, database_version=None, redis: bool = True) -> bool:
    """Whether the page's ETag is still the game's: a 304 needs neither the game row nor the account row."""
    if not if_none_match or not session_account():
        return False
    found = _tag_version(if_none_match)
    if found is None:
        return False
    tag = found[0]
    version = current_version(game_id) if redis else None
    if version is None and database_version is not None:
        version = database_version(game_id)
    if version is None:
        return False
    return hmac.compare_digest(tag, etag(game_id, version))


# ---------------------------------------------------------------------- in front of Flask
_STATE_PATH = re.compile(r"/live/([1-9][0-9]{0,17})/state")
CHANGED = "teach.live.changed"  # set in the WSGI environ when the middleware found the page's ETag out of date


class UnchangedPolls:
    """WSGI middleware in front of the whole app: a waiting page's ``GET /live/<id>/state`` whose ETag is still the
    game's is answered 304 here, before Flask builds a request, opens the session, picks the language or loads the
    account. What it needs: the session cookie, read with the serializer Flask's own session uses (signature and
    age checked, as Flask would), the version in Redis, and the HMAC that binds the ETag to that account and game.
    Anything it is unsure of — no cookie, a cookie Flask would refuse, no Redis, no version in Redis, a tag for
    another version, game or account — goes on to Flask, which answers it in full (``live._unchanged_first``
    still answers a 304 from the database when Redis is not used)."""

    def __init__(self, wsgi_app, flask_app) -> None:
        self.wsgi_app = wsgi_app
        self.flask_app = flask_app
        self._serializer = None
        self._serializer_for = None

    def __call__(self, environ, start_response):
        # the page's "still here" (?here=1) is Flask's to answer: it asks the database and notes the player
        if environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ \
                and "here" not in environ.get("QUERY_STRING", ""):
            match = _STATE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None:
                tag = self._unchanged(environ, int(match.group(1)))
                if tag is not None:
                    start_response("304 NOT MODIFIED", [("ETag", tag), ("Cache-Control", "no-cache, private"),
                                                        *HEADERS.items()])
                    return []
        return self.wsgi_app(environ, start_response)

    def _session(self):
        app = self.flask_app
        if self._serializer is None or self._serializer_for != app.secret_key:
            self._serializer = app.session_interface.get_signing_serializer(app)
            self._serializer_for = app.secret_key
        return self._serializer

    def _unchanged(self, environ, game_id: int) -> str | None:
        """The page's ETag when it is still the game's for this session's account; None when Flask should say."""
        try:
            found = _tag_version(environ["HTTP_IF_NONE_MATCH"])
            if found is None:
                return None
            app = self.flask_app
            cookie = parse_cookie(environ).get(app.config["SESSION_COOKIE_NAME"])
            serializer = self._session() if cookie else None
            if serializer is None:
                return None
            data = serializer.loads(cookie, max_age=int(app.permanent_session_lifetime.total_seconds()))
            account = data.get("_user_id") if isinstance(data, dict) else None
            if not isinstance(account, str) or not account:
                return None
            version = current_version(game_id, app.config)
            if version is None:
                return None
            tag = found[0]
            if hmac.compare_digest(tag, _etag(app.secret_key, account, game_id, version)):
                return tag
            environ[CHANGED] = True  # Redis has another version: Flask need not ask Redis again
            return None
        except Exception:  # noqa: BLE001 — a bad signature, an old cookie, anything odd: Flask answers it properly
            return None
