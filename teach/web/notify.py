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

from flask import current_app, session

log = logging.getLogger(__name__)
_clients: dict[str, object] = {}  # one Redis connection pool per URL and process
# keep the highest version: two instances publishing v and v+1 at the same moment may arrive in either order
_RAISE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > now then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1 end
return 0
"""
KEEP_SECONDS = 7 * 24 * 3600  # an adjourned game may be resumed days later; after that the database answers


def _redis():
    url = current_app.config.get("LIVE_REDIS_URL")
    if url is None:
        limits = current_app.config.get("RATELIMIT_STORAGE_URI", "")
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


def current_version(game_id: int) -> int | None:
    """The game's version as published, or None when Redis is not used, not reachable or has none."""
    client = _redis()
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
    mac = hmac.new(current_app.secret_key.encode() if isinstance(current_app.secret_key, str)
                   else current_app.secret_key, f"live:{account}:{game_id}:{version}".encode(),
                   hashlib.sha256).hexdigest()[:20]
    return f'"{version}-{mac}"'


def unchanged(game_id: int, if_none_match: str | None, database_version=None) -> bool:
    """Whether the page's ETag is still the game's: a 304 needs neither the game row nor the account row."""
    if not if_none_match or not session_account():
        return False
    tag = if_none_match.strip()
    if tag.startswith("W/"):
        tag = tag[2:]
    version_text = tag.strip('"').partition("-")[0]
    if not version_text.isdigit() or len(version_text) > 12:
        return False
    version = current_version(game_id)
    if version is None and database_version is not None:
        version = database_version(game_id)
    if version is None:
        return False
    return hmac.compare_digest(tag, etag(game_id, version))
