"""How the pages of a live game learn that something changed, on any number of app instances.

The page asks with conditional requests (see the README's "Live games" for why not Server-Sent Events or
WebSockets). Every change to a ``LiveGame`` raises its ``version`` in the database; after the commit the new
version is published in Redis (``teach:live:<id>``), kept as the highest version any instance has seen, with
what changed for each player's page (``live.snapshot_of``). A page's question carries the ETag of what it shows;
when Redis still holds that version, the answer is a 304 from Redis alone: no database query, not even the
account's; when it holds a newer one and its snapshot names this session as a player, what changed is answered
from the snapshot, in front of Flask as well.

The ETag is bound to the session's account and the game (an HMAC with the app's secret), so it is worth nothing
for another game or another account: a page only ever holds one it was given after the full check of who may see
the game. Without Redis (one SQLite process, ``make run``) the version is read from the database row instead.
A version lost on its way to Redis (Redis restarting) is put right by the next full answer, which publishes the
row's version again; the pages ask for one without a condition every few seconds.

With ``TEACH_LIVE_HOLD`` set (gunicorn's threaded workers: see the README's "Live games"), a page may ask the
middleware to hold its unchanged question (``?wait=<seconds>``) until the game changes: each raise of a version is
also published on a Redis channel, one thread per process listens, and wakes the held questions of that game. So
a waiting page costs one question per hold, not one every 0.75 s, and the opponent's move reaches it at once.
Without threaded workers or ``TEACH_LIVE_HOLD`` nothing is held and the pages poll.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import threading
import time

from flask import current_app, session
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from teach.web.i18n import LOCALES
from teach.web.security import HEADERS, plain_int

log = logging.getLogger(__name__)
_clients: dict[str, object] = {}  # one Redis connection pool per URL and process
# keep the highest version: two instances publishing v and v+1 at the same moment may arrive in either order
# ... with what changed for the players' pages at that version (or none: the pages ask Flask), and say so on the
# channel (game, version and the account whose request made the change)
_RAISE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > now then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  if ARGV[5] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[2]) end
  redis.call('PUBLISH', ARGV[3], ARGV[4])
  return 1
end
return 0
"""
CHANNEL = "teach:live:changes"
KEEP_SECONDS = 7 * 24 * 3600  # an adjourned game may be resumed days later; after that the database answers


def _url(config) -> str:
    """The Redis of the live games' versions: its own, or the rate limits' when that is a Redis."""
    url = config.get("LIVE_REDIS_URL")
    if url is None:
        limits = config.get("RATELIMIT_STORAGE_URI", "")
        url = limits if limits.startswith(("redis://", "rediss://")) else ""
    return url


def _redis(config=None):
    config = current_app.config if config is None else config
    url = _url(config)
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


def _snapshot_key(game_id: int) -> str:
    return f"teach:live:{game_id}:players"


def published(game_id: int, version: int, snapshot: dict | None = None) -> None:
    """Tell every instance's pages that the game is at ``version`` now (call after the commit), with what changed
    for each player's page when the game is being played (``live.snapshot_of``)."""
    client = _redis()
    if client is None:
        return
    try:
        account = session_account()
        news = f"{int(game_id)} {int(version)} {player_key(account) if account else '-'}"
        kept = json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False) if snapshot else ""
        client.eval(_RAISE, 2, _key(game_id), _snapshot_key(game_id), int(version), KEEP_SECONDS, CHANNEL, news,
                    kept)
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


def player_key(session_id: str, secret=None) -> str:
    """What a snapshot keeps of a player's session (``<id>:<session secret>``, as the signed cookie names it): an
    HMAC under the app's secret, so Redis never holds a session secret."""
    secret = current_app.secret_key if secret is None else secret
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, f"player:{session_id}".encode(), hashlib.sha256).hexdigest()[:32]


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
    version = plain_int(version_text, 12)
    if version is None:
        return None
    return tag, version


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


# ---------------------------------------------------------------------- held questions
HOLD_MAX_SECONDS = 20  # the longest a question is held (a page asks for less: its "still here" is due sooner)
RECHECK_SECONDS = 10.0  # a held question also reads the version again this often (a backstop: see Holder)


class _Held:
    __slots__ = ("event", "news")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.news: tuple[int, str] | None = None  # (version, player_key of the account) of the change that woke it


class Holder:
    """The unchanged questions one process holds until their game changes (at most ``limit`` at once, so the
    threads left over serve the moves). One thread per process listens on Redis's channel and wakes the
    questions of the game that changed; every held question also reads the version again every few seconds, so a
    message lost while the listener reconnects costs seconds, never a move. While the listener is not subscribed,
    nothing is held: the pages are answered at once and ask again as plain polling would."""

    def __init__(self, url: str, limit: int) -> None:
        self.url, self.limit = url, limit
        self._lock = threading.Lock()
        self._held: dict[int, set[_Held]] = {}
        self._count = 0
        self._pid: int | None = None
        self._started = 0.0
        self._subscribed = threading.Event()

    def _listening(self) -> bool:
        if self._pid != os.getpid():  # the first question in this process (workers are forked after start)
            with self._lock:
                if self._pid != os.getpid():
                    self._pid = os.getpid()
                    self._held, self._count = {}, 0
                    self._subscribed = threading.Event()
                    self._started = time.monotonic()
                    threading.Thread(target=self._listen, name="teach-live-listener", daemon=True).start()
        subscribed = self._subscribed
        if not subscribed.is_set():  # the listener is starting: the first questions wait for it (a second at most)
            subscribed.wait(max(0.0, self._started + 1.0 - time.monotonic()))
        return subscribed.is_set()

    def _listen(self) -> None:
        import redis

        subscribed = self._subscribed
        while True:
            try:
                client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_keepalive=True,
                                              health_check_interval=30)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                subscribed.set()
                self._wake_all()  # a change published while it was not subscribed: each held question reads again
                while True:
                    message = pubsub.get_message(timeout=5.0)
                    if message is not None and message.get("type") == "message":
                        self._wake(message["data"])
            except Exception:  # noqa: BLE001 — Redis went away: hold nothing until it is back
                subscribed.clear()
                log.warning("live games: not listening to Redis for changes, retrying", exc_info=True)
                self._wake_all()
                time.sleep(1.0)

    def _wake_all(self) -> None:
        with self._lock:
            everyone = [h for held in self._held.values() for h in held]
        for h in everyone:
            h.event.set()

    def _wake(self, data) -> None:
        try:
            game, version, account = (data.decode() if isinstance(data, bytes) else str(data)).split(" ", 2)
            found = (int(game), int(version), account)
        except ValueError:
            return
        with self._lock:
            held = list(self._held.get(found[0], ()))
        for h in held:
            h.news = found[1:]
            h.event.set()

    def hold(self, game_id: int, version: int, seconds: float, read_version, mine: str = ""
             ) -> int | None | bool:
        """Wait until the game is no longer at ``version``, for at most ``seconds``: the version it is at when the
        hold ends (None if Redis cannot say), and False when this process does not hold the question (at its
        limit, or not listening).

        A change made by ``mine`` (``player_key`` of the asking session: its own tap, whose answer brings the page
        the game) does not end the hold: it goes on waiting for the next change, so a move costs the mover's page
        no extra question."""
        if not self._listening():
            return False
        held = _Held()
        with self._lock:
            if self._count >= self.limit:
                return False
            self._held.setdefault(game_id, set()).add(held)
            self._count += 1
        try:
            deadline = time.monotonic() + seconds
            while True:
                now = read_version(game_id)  # after joining the game's list: a change from here on wakes us
                if now != version:
                    news = held.news
                    if now is None or not (mine and news == (now, mine) and now == version + 1):
                        return now
                    version = now  # its own change
                left = deadline - time.monotonic()
                if left <= 0:
                    return version
                held.event.wait(min(left, RECHECK_SECONDS))
                held.event.clear()
        finally:
            with self._lock:
                waiting = self._held.get(game_id)
                if waiting is not None:
                    waiting.discard(held)
                    if not waiting:
                        del self._held[game_id]
                self._count -= 1


_holders: dict[tuple[str, int], Holder] = {}


def holder(config=None) -> Holder | None:
    """This app's holder of unchanged questions, when ``TEACH_LIVE_HOLD`` allows any and Redis is used."""
    config = current_app.config if config is None else config
    try:
        limit = int(config.get("LIVE_HOLD") or 0)
    except (TypeError, ValueError):
        limit = 0
    url = _url(config) if limit > 0 else ""
    if not url:
        return None
    key = (url, limit)
    found = _holders.get(key)
    if found is None:
        found = _holders[key] = Holder(url, limit)
    return found




def hold_seconds(config=None) -> int:
    """How long a page may ask to be held (0: not at all; the page polls)."""
    return HOLD_MAX_SECONDS if holder(config) is not None else 0


# ---------------------------------------------------------------------- in front of Flask
_STATE_PATH = re.compile(r"/live/([1-9][0-9]{0,17})/state")
CHANGED = "teach.live.changed"  # set in the WSGI environ when the middleware found the page's ETag out of date


class UnchangedPolls:
    """WSGI middleware in front of the whole app: a waiting page's ``GET /live/<id>/state`` whose ETag is still the
    game's is answered 304 here, before Flask builds a request, opens the session, picks the language or loads the
    account. What it needs: the session cookie, read with the serializer Flask's own session uses (signature and
    age checked, as Flask would), the version in Redis, and the HMAC that binds the ETag to that account and game.
    With ``TEACH_LIVE_HOLD`` it may hold the question until the game changes (``?wait=``). A player's page whose
    game changed while it is being played is answered what changed (``live.delta_of``'s answer) from the snapshot
    the change left in Redis, when that snapshot is the game's version now and names this very session as the
    player. Anything it is unsure of — no cookie, a cookie Flask would refuse, no Redis, no version in Redis, a
    tag for another version, game or account, no snapshot, a watcher, an opponent away — goes on to Flask, which
    answers it in full (``live._unchanged_first`` still answers a 304 from the database when Redis is not used)."""

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
                answered = self._answer(environ, int(match.group(1)))
                if answered is not None:
                    status, tag, body = answered
                    headers = [("ETag", tag), ("Cache-Control", "no-cache, private"), *HEADERS.items()]
                    if body:  # as Flask answers it (the answer depends on the session cookie)
                        headers += [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                    ("Vary", "Cookie")]
                    start_response(status, headers)
                    return [body] if body else []
        return self.wsgi_app(environ, start_response)

    def _answer(self, environ, game_id: int) -> tuple[str, str, bytes] | None:
        """(status, ETag, body) when the middleware can answer; None for Flask."""
        found = self._session_tag(environ, game_id)
        if found is None:
            return None
        tag, version, session_id = found
        config = self.flask_app.config
        now = current_version(game_id, config)
        if now is None:
            return None
        if now == version:
            seconds = _wait_seconds(environ.get("QUERY_STRING", ""))
            keeper = holder(config) if seconds else None
            if keeper is not None:
                now = keeper.hold(game_id, version, seconds, lambda g: current_version(g, config),
                                  player_key(session_id, config["SECRET_KEY"]))
                if now is False:
                    now = version
                if now is None:
                    return None
            if now == version:
                return "304 NOT MODIFIED", tag, b""
        changed = self._what_changed(environ, game_id, session_id, now)
        if changed is not None:
            return changed
        environ[CHANGED] = True  # Redis has another version: Flask need not ask Redis again
        return None

    def _session(self):
        app = self.flask_app
        if self._serializer is None or self._serializer_for != app.secret_key:
            self._serializer = app.session_interface.get_signing_serializer(app)
            self._serializer_for = app.secret_key
        return self._serializer

    def _session_tag(self, environ, game_id: int) -> tuple[str, int, str] | None:
        """(the page's ETag, the version it names, the session's account) when the ETag is one this app gave this
        session's account for this game; None when Flask should say."""
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
            environ[_SESSION] = data
            tag, version = found
            if hmac.compare_digest(tag, _etag(app.secret_key, account, game_id, version)):
                return tag, version, account
            return None
        except Exception:  # noqa: BLE001 — a bad signature, an old cookie, anything odd: Flask answers it properly
            return None

    def _what_changed(self, environ, game_id: int, session_id: str, version: int) -> tuple[str, str, bytes] | None:
        """``live.delta_of``'s answer for a player's page, from the snapshot of the game at ``version``; None when
        Flask should answer (no snapshot of that version, a watcher, a session the snapshot does not name, no
        ``ply`` or one the game never had, the opponent away)."""
        try:
            query = _query(environ.get("QUERY_STRING", ""))
            since = query.get("ply", "")
            if not since.isdigit() or len(since) > 4:
                return None
            client = _redis(self.flask_app.config)
            raw = client.get(_snapshot_key(game_id)) if client is not None else None
            if raw is None:
                return None
            snap = json.loads(raw)
            if snap.get("version") != version or snap.get("state") != "playing" or int(since) > snap["ply"]:
                return None
            if not time.time() - SNAPSHOT_SECONDS <= snap.get("at", 0) <= time.time() + 5:
                return None  # an old change (a page coming back): Flask answers, and checks the account again
            secret = self.flask_app.secret_key
            key = player_key(session_id, secret)
            you = next((c for c in ("black", "white") if snap["key"].get(c) and
                        hmac.compare_digest(snap["key"][c], key)), None)
            if you is None:
                return None
            other = "white" if you == "black" else "black"
            seen = snap["seen"].get(other)
            if seen is None or time.time() - seen > AWAY_NOTICE_SECONDS:
                return None  # Flask says who is away, and for how long the game still waits
            lang = _language(environ, snap["locale"].get(you))
            body = {"result": "ok", "message": "", "delta": True, "game": game_id, "version": version,
                    "ply": snap["ply"], "state": "playing", "moves": snap["moves"][int(since):],
                    "to_move": snap["to_move"], "rows": snap["rows"], "last": snap["last"],
                    "captures": snap["captures"], "turn": snap["turn"][lang][you], "draw_offer": snap["draw_offer"],
                    "reaction": snap["reaction"][lang], "away": None, "poll": snap["poll"][you]}
            data = json.dumps(body, separators=(",", ":")).encode()
            return "200 OK", _etag(secret, session_id, game_id, version), data
        except Exception:  # noqa: BLE001 — anything odd in Redis: Flask answers from the database
            log.warning("live game %s: the snapshot could not be answered", game_id, exc_info=True)
            return None


_SESSION = "teach.live.session"
# what changed is answered from a snapshot this young at most: the pages it is for ask within seconds, and a
# session ended since the snapshot was made (its next change no longer names it) is answered by Flask after this
SNAPSHOT_SECONDS = 60
AWAY_NOTICE_SECONDS = 25  # a little under the page's "away" notice (live.AWAY_NOTICE): Flask says it


def _query(text: str) -> dict[str, str]:
    out = {}
    for part in text.split("&"):
        name, _eq, value = part.partition("=")
        out.setdefault(name, value)
    return out


def _language(environ, account_locale: str | None) -> str:
    """The language Flask would choose (``i18n.select_locale``): the account's, the switch in the session, the
    browser's Accept-Language, Chinese."""
    locale = account_locale if account_locale in LOCALES.values() else None
    if locale is None:
        session_locale = (environ.get(_SESSION) or {}).get("locale")
        if session_locale in LOCALES.values():
            locale = session_locale
    if locale is None:
        tag = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept).best_match(list(LOCALES))
        locale = LOCALES.get(tag or "zh", "zh_Hans_CN")
    return "zh" if locale.startswith("zh") else "en"


def _wait_seconds(query: str) -> int:
    """The ``wait`` a page asks for (whole seconds, at most ``HOLD_MAX_SECONDS``; 0 when it asks for none)."""
    for part in query.split("&"):
        name, _eq, value = part.partition("=")
        if name == "wait":
            return min(int(value), HOLD_MAX_SECONDS) if value.isdigit() and len(value) <= 3 else 0
    return 0
