"""Live games between classmates under a whole school's load, served the way the README deploys them: two app
instances (gunicorn, gthread workers with held questions: ``TEACH_LIVE_HOLD``) on one PostgreSQL and one Redis,
no sticky sessions.

A thousand children in 500 live games (9x9): Black's page talks to instance A, White's to instance B. Every page
does what ``static/room.js`` does — asks ``/live/<id>/state?ply=<its ply>`` with the ETag it holds, asking to be
held until the game changes (``&wait=``, when the server says it holds questions; otherwise polling every 0.75 s
while it waits for the opponent's move, every 3 s when it is its own turn, less often after 20 s and 60 s without
any change), every 15 s with ``?here=1`` (its "still here", asked of the database), and takes a changed game as
what changed since its ply — and every
5 s each game's player to move taps a move (100 moves/s over the school), each game's taps spread evenly over
the 5 s. The first move of each game comes after the quiet of the idle phase, so its page asks less often: its
tap→seen is reported apart from the moves of a game going on.

Measured, per phase:
- **idle**: nobody moves; what the 1,000 waiting pages cost: requests/s (304s and 200s), the CPU of the app
  workers, PostgreSQL and Redis;
- **moves**: the time from a child's tap (the POST leaving the device) to the move showing on the opponent's
  page (the first answer of the opponent's page that has it), p50/p95/p99; requests/s and CPU as above;
- the CPU of one unchanged poll answered 304 in-process, by the middleware in front of Flask and by Flask;
- the same two phases against a **bare endpoint** (a Flask app with one conditional GET and one POST over Redis,
  no database, no sign-in) on the same gunicorn setup, for the floor.
At the end every game's record is read from the database and checked against the moves that were answered 200:
none lost, none doubled, ``ply`` equal to their number.

The pages sign in by a session cookie made here with the app's secret (as the sign-in would have made it), so
the run measures the live game, not a thousand picture-password hashes.

    .venv/bin/python bench/live_load.py                        # 1,000 children, 60 s of moves
    .venv/bin/python bench/live_load.py --kids 200 --moves 20 --idle 10
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from web_load import cpu_by_program, free_port, percentile  # noqa: E402

PG_ADMIN = "postgresql://127.0.0.1:5432/postgres"
PG_DB = "teach_bench_live"
SECRET = "bench-live-secret"
CLASS_SIZE = 25
POLL_WAITING, POLL_IDLE, HEARTBEAT = 0.75, 3.0, 15.0  # as the pages do (teach/web/live.py)
QUIET_STEPS = ((20.0, 1.5), (60.0, 3.0))  # ... and the longer nothing happens, the less often (the answer's "quiet")
# moves that never capture: Black fills rows 3 and 2, White rows 7 and 8 (36 moves)
COLUMNS = "ABCDEFGHJ"
SEQUENCE = [p for pair in zip([f"{c}3" for c in COLUMNS] + [f"{c}2" for c in COLUMNS],
                              [f"{c}7" for c in COLUMNS] + [f"{c}8" for c in COLUMNS]) for p in pair]

BARE_APP = textwrap.dedent('''
    """The floor: one conditional GET and one POST over Redis, no database, no sign-in."""
    import os
    import redis
    from flask import Flask, jsonify, make_response, request

    app = Flask(__name__)
    r = redis.Redis.from_url(os.environ["BARE_REDIS_URL"])

    @app.get("/live/<int:game_id>/state")
    def state(game_id):
        version = r.get(f"bare:{game_id}") or b"0"
        tag = '"' + version.decode() + '"'
        if request.headers.get("If-None-Match") == tag:
            return make_response("", 304)
        response = jsonify(ply=int(version), poll=750)
        response.headers["ETag"] = tag
        return response

    @app.post("/live/<int:game_id>/move")
    def move(game_id):
        version = r.incr(f"bare:{game_id}")
        response = jsonify(result="ok", ply=int(version), poll=750)
        response.headers["ETag"] = '"' + str(version) + '"'
        return response
''')


# ====================================================================== the school
def fresh_database() -> str:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_DB}")
    return f"postgresql://127.0.0.1:5432/{PG_DB}"


def populate(url: str, kids: int) -> tuple[list[dict], list[dict]]:
    """Migrate; insert the classes, the children and their games; make each child's session cookie and CSRF
    token as the app would. Returns (games, pages)."""
    import sqlalchemy as sa
    from flask_migrate import upgrade
    from itsdangerous import URLSafeTimedSerializer

    from teach.models import Group, LiveGame, Membership, User, new_code, utcnow
    from teach.web import _database_url, create_app
    from teach.web.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": _database_url(url), "SECRET_KEY": SECRET})
    with app.app_context():
        upgrade()
        classes = (kids + CLASS_SIZE - 1) // CLASS_SIZE
        codes = list({new_code() for _ in range(classes * 2)})[:classes]
        db.session.execute(sa.insert(Group), [{"kind": "class", "name": f"Live class {i + 1}", "code": c}
                                              for i, c in enumerate(codes)])
        group_of = dict(db.session.execute(sa.select(Group.code, Group.id)).all())
        db.session.execute(sa.insert(User), [{"role": "kid", "name": f"kid{i:04d}", "avatar": "panda"}
                                             for i in range(kids)])
        users = {name: (uid, secret) for name, uid, secret in db.session.execute(
            sa.select(User.name, User.id, User.session_secret).where(User.name.like("kid%")))}
        db.session.execute(sa.insert(Membership), [
            {"group_id": group_of[codes[i // CLASS_SIZE]], "user_id": users[f"kid{i:04d}"][0], "role": "kid"}
            for i in range(kids)])
        now = utcnow()
        db.session.execute(sa.insert(LiveGame), [
            {"group_id": group_of[codes[i // CLASS_SIZE]], "black_id": users[f"kid{i:04d}"][0],
             "white_id": users[f"kid{i + 1:04d}"][0], "kind": "full", "size": 9, "komi": 7.5, "moves": [], "ply": 0,
             "version": 1, "state": "playing", "dead": [], "agreed": [], "away_seconds": 3600,
             "away_outcome": "adjourn", "black_seen_at": now, "white_seen_at": now}
            for i in range(0, kids - 1, 2)])
        db.session.commit()
        rows = db.session.execute(sa.select(LiveGame.id, LiveGame.black_id, LiveGame.white_id)
                                  .order_by(LiveGame.id)).all()
        sessions = app.session_interface.get_signing_serializer(app)
        tokens = URLSafeTimedSerializer(app.secret_key, salt="wtf-csrf-token")
        by_id = {uid: secret for uid, secret in users.values()}
        games, pages = [], []
        for game_id, black, white in rows:
            games.append({"id": game_id, "black": len(pages), "white": len(pages) + 1})
            for color, kid_id in (("black", black), ("white", white)):
                raw = hashlib.sha1(os.urandom(32)).hexdigest()
                cookie = sessions.dumps({"_user_id": f"{kid_id}:{by_id[kid_id]}", "_fresh": True, "csrf_token": raw})
                pages.append({"game": game_id, "color": color, "cookie": cookie, "csrf": tokens.dumps(raw),
                              "instance": 0 if color == "black" else 1})
        db.session.remove()
        db.engine.dispose()
    return games, pages


def records(url: str) -> dict[int, tuple[list, int]]:
    import sqlalchemy as sa

    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        out = {gid: (moves, ply) for gid, moves, ply in conn.execute(sa.text("SELECT id, moves, ply FROM live_game"))}
    engine.dispose()
    return out


# ====================================================================== the servers
class Instance:
    def __init__(self, spec: str, workers: int, env: dict, cwd: Path = ROOT, threads: int = 0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        kind = ["-k", "gthread", "--threads", str(threads)] if threads else []
        self.proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", str(workers), *kind, "-b",
                                      f"127.0.0.1:{self.port}", "--log-level", "warning", "--chdir", str(cwd),
                                      "--control-socket", f"/tmp/live-bench-{self.port}.ctl", spec],
                                     env={**os.environ, "PYTHONPATH": str(ROOT), **env}, cwd=cwd,
                                     start_new_session=True)

    def wait(self) -> None:
        import urllib.error
        import urllib.request

        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("gunicorn exited")
            try:  # a worker has booted and answers (the socket listens long before); the others boot beside it
                with urllib.request.urlopen(f"{self.url}/healthz-bench", timeout=5):
                    pass
            except urllib.error.HTTPError:
                pass
            except OSError:
                time.sleep(0.2)
                continue
            time.sleep(3)
            return
        raise RuntimeError("gunicorn did not start")

    def cpu(self) -> float:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True)
        total = 0
        for pid in out.stdout.split():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


# ====================================================================== the pages and the taps
class School:
    def __init__(self, games, pages, urls, bare: bool) -> None:
        self.games, self.pages, self.urls, self.bare = games, pages, urls, bare
        self.counts = {"304": 0, "200": 0, "other": 0, "errors": 0}
        self.taps: dict[tuple[int, int], tuple[float, str]] = {}  # (game, ply after the move) -> (time, colour)
        self.latencies: list[float] = []
        self.moves_ok: dict[int, list[str]] = {g["id"]: [] for g in games}
        self.refused = 0
        self.tap_times: list[float] = []  # a tap's own answer (the POST's round trip)
        self.moved_unseen = 0
        self.stop = False
        self.first_latencies: list[float] = []  # the first move a page sees after a quiet time
        self.unheld = 0
        for p in pages:
            p.update(etag=None, heartbeat=0.0, seen=0, poll=POLL_IDLE, changed=time.monotonic(), quiet=(), hold=0)

    def headers(self, page, post=False) -> dict:
        h = {"Accept": "application/json"}
        if not self.bare:
            h["Cookie"] = f"session={page['cookie']}"
            if post:
                h["X-CSRFToken"] = page["csrf"]
        return h

    async def page_loop(self, session, page) -> None:
        url = f"{self.urls[page['instance']]}/live/{page['game']}/state"
        await asyncio.sleep(random.random() * 10)  # a school's pages open over some seconds, not at once
        while not self.stop:
            headers = self.headers(page)
            now = time.monotonic()
            ask = url
            if not page["etag"]:
                page["heartbeat"] = now  # the first question: the whole game
            elif self.bare:  # as before: the floor's pages ask without the ETag every 15 s
                if now - page["heartbeat"] < HEARTBEAT:
                    headers["If-None-Match"] = page["etag"]
                else:
                    page["heartbeat"] = now
            elif now - page["heartbeat"] >= HEARTBEAT - (2 if page["hold"] else 0):
                headers["If-None-Match"] = page["etag"]
                ask = f"{url}?here=1"  # as room.js: "still here", asked of the database
                page["heartbeat"] = now
            else:
                headers["If-None-Match"] = page["etag"]
                ask = f"{url}?ply={page['seen']}"  # as room.js: a changed game answers with what changed since
                if page["hold"]:  # as room.js: held until the game changes or "still here" is due
                    ask += f"&wait={min(page['hold'], int(HEARTBEAT - (now - page['heartbeat'])))}"
            delay = None
            try:
                async with session.get(ask, headers=headers) as r:
                    if page["hold"]:  # as room.js: at once after a change, "still here" or a held question;
                        # a question answered 304 without being held waits the usual rhythm
                        delay = 0.0 if r.status == 200 or "&wait=" not in ask \
                            else max(0.0, self.next_ask(page) - (time.monotonic() - now))
                    if r.status == 304:
                        self.counts["304"] += 1
                        if "&wait=" in ask and time.monotonic() - now < 0.5:
                            self.unheld += 1  # asked to be held, answered at once: the server held no more
                    elif r.status == 200:
                        data = await r.json()
                        self.counts["200"] += 1
                        page["etag"] = r.headers.get("ETag")
                        self.saw(page, data["ply"], time.monotonic())
                        page["poll"] = data.get("poll", 750) / 1000
                        if "quiet" in data:
                            page["quiet"] = [(a / 1000, b / 1000) for a, b in data["quiet"]]
                        if "hold" in data:
                            page["hold"] = data["hold"]
                    else:
                        self.counts["other"] += 1
            except Exception as e:  # noqa: BLE001 — counted: a page that lost its answer asks again
                self.counts["errors"] += 1
                delay = None
                if os.environ.get("LIVE_BENCH_DEBUG"):
                    print("page:", repr(e), file=sys.stderr)
            await asyncio.sleep(self.next_ask(page) if delay is None else delay)

    @staticmethod
    def next_ask(page) -> float:
        """room.js's ``next``: the answer's rhythm, slower after a quiet time."""
        still = time.monotonic() - page["changed"]
        return max([page["poll"], *(every for after, every in page["quiet"] if still >= after)])

    def saw(self, page, ply: int, when: float) -> None:
        for p in range(page["seen"] + 1, ply + 1):
            tap = self.taps.get((page["game"], p))
            if tap and tap[1] != page["color"]:
                self.latencies.append(when - tap[0])
                if tap[2]:
                    self.first_latencies.append(when - tap[0])
        if ply > page["seen"]:
            page["changed"] = when
        page["seen"] = max(page["seen"], ply)

    async def tap(self, session, game) -> None:
        ply = len(self.moves_ok[game["id"]])
        if ply >= len(SEQUENCE):
            return
        mover = self.pages[game["black"] if ply % 2 == 0 else game["white"]]
        if mover["seen"] < ply:
            self.moved_unseen += 1  # its page had not yet shown the opponent's last move (it knows the ply)
        point = SEQUENCE[ply]
        url = f"{self.urls[mover['instance']]}/live/{game['id']}/move"
        start = time.monotonic()
        opponent = self.pages[game["white"] if ply % 2 == 0 else game["black"]]
        self.taps[(game["id"], ply + 1)] = (start, mover["color"], start - opponent["changed"] > QUIET_STEPS[0][0])
        try:
            async with session.post(url, json={"move": point, "ply": ply}, headers=self.headers(mover, True)) as r:
                data = await r.json(content_type=None)
                self.tap_times.append(time.monotonic() - start)
                if r.status == 200:
                    self.moves_ok[game["id"]].append(point)
                    mover["etag"] = r.headers.get("ETag")
                    mover["seen"] = max(mover["seen"], data["ply"])
                    mover["changed"] = time.monotonic()
                    mover["poll"] = data.get("poll", 750) / 1000
                else:
                    self.refused += 1
                    del self.taps[(game["id"], ply + 1)]
        except Exception:  # noqa: BLE001
            self.counts["errors"] += 1
            self.taps.pop((game["id"], ply + 1), None)

    async def movers(self, session, seconds: float, interval: float) -> None:
        start = time.monotonic()
        offsets = {g["id"]: i * interval / len(self.games) for i, g in enumerate(self.games)}
        pending = set()
        rounds = int(seconds / interval)
        for k in range(rounds):
            for g in self.games:
                due = start + k * interval + offsets[g["id"]]
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                t = asyncio.ensure_future(self.tap(session, g))
                pending.add(t)
                t.add_done_callback(pending.discard)
        if pending:
            await asyncio.wait(pending)


async def run_school(games, pages, urls, instances, args, bare: bool) -> dict:
    import aiohttp

    school = School(games, pages, urls, bare)
    connector = aiohttp.TCPConnector(limit=0, force_close=True)  # every page may have a question held open
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                     cookie_jar=aiohttp.DummyCookieJar()) as session:
        loops = [asyncio.ensure_future(school.page_loop(session, p)) for p in pages]
        await asyncio.sleep(HEARTBEAT + 10)  # every page has its first answer and settles into its rhythm
        phases = {}
        for name, seconds in (("idle", args.idle), ("moves", args.moves)):
            before = measure(instances)
            counts = dict(school.counts)
            lat_from, first_from = len(school.latencies), len(school.first_latencies)
            t0 = time.monotonic()
            if name == "idle":
                await asyncio.sleep(seconds)
            else:
                await school.movers(session, seconds, args.interval)
                await asyncio.sleep(2.5)  # the last taps reach the other pages
            elapsed = time.monotonic() - t0
            after = measure(instances)
            done = {k: school.counts[k] - counts[k] for k in counts}
            phases[name] = {"seconds": elapsed, "requests": done,
                            "latencies": sorted(school.latencies[lat_from:]),
                            "after_quiet": sorted(school.first_latencies[first_from:]),
                            "cpu": {k: after[k] - before[k] for k in after}}
        school.stop = True
        await asyncio.gather(*loops, return_exceptions=True)
    taps_made = sum(len(v) for v in school.moves_ok.values())
    return {"phases": phases, "moves_ok": school.moves_ok, "taps": taps_made, "refused": school.refused,
            "moved_unseen": school.moved_unseen, "unheld": school.unheld, "tap_times": sorted(school.tap_times), "seen": len(school.latencies)}


def measure(instances) -> dict:
    programs = cpu_by_program()
    return {"app": sum(i.cpu() for i in instances), "postgres": programs.get("postgres", 0.0),
            "redis": programs.get("redis-server", 0.0), "generator": sum(os.times()[:2])}


# ====================================================================== the run
def table(results: dict, kids: int) -> str:
    lines = ["| endpoint | phase | req/s | 304 / 200 / other / errors | tap→seen p50 / p95 / p99 ms | moves seen | "
             "app CPU (cores) | app CPU ms/req | PostgreSQL CPU | Redis CPU | generator CPU |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for endpoint, res in results.items():
        for name, ph in res["phases"].items():
            req = ph["requests"]
            n = req["304"] + req["200"] + req["other"]
            secs = ph["seconds"]
            lat = ph["latencies"]
            lat_text = " / ".join(f"{percentile(lat, q) * 1000:.0f}" for q in (50, 95, 99)) if lat else "–"
            posts = res["taps"] if name == "moves" else 0
            cpu = ph["cpu"]
            per = cpu["app"] / max(1, n + posts) * 1000
            lines.append(f"| {endpoint} | {name} | {(n + posts) / secs:.0f} | {req['304']} / {req['200']} / "
                         f"{req['other']} / {req['errors']} | {lat_text} | {len(lat) if name == 'moves' else '–'} | "
                         f"{cpu['app'] / secs:.2f} | {per:.2f} | {cpu['postgres'] / secs:.2f} | "
                         f"{cpu['redis'] / secs:.2f} | {cpu['generator'] / secs:.2f} |")
    return "\n".join(lines)


def _cost_app(url: str, redis_url: str):
    from teach.web import _database_url, create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": _database_url(url), "SECRET_KEY": SECRET,
                       "LIVE_REDIS_URL": redis_url, "RATELIMIT_STORAGE_URI": redis_url})


def _cpu_per_call(wsgi, environ, n: int) -> tuple[float, set]:
    statuses: set = set()
    for _ in range(min(200, n)):  # warm
        b"".join(wsgi(dict(environ), lambda status, headers, exc=None: statuses.add(status)))
    start = time.process_time()
    for _ in range(n):
        b"".join(wsgi(dict(environ), lambda status, headers, exc=None: None))
    return (time.process_time() - start) / n * 1000, statuses


def unchanged_poll_cost(url: str, page: dict, redis_url: str, n: int = 3000) -> dict[str, float]:
    """CPU (ms, this process, Redis's share not counted) of one unchanged poll answered 304 by the middleware in
    front of Flask, and by Flask itself (the app behind the middleware: what answered before), on the bench's
    database and Redis — the same call a gunicorn worker makes, without gunicorn's own part."""
    from werkzeug.test import EnvironBuilder

    app = _cost_app(url, redis_url)
    client = app.test_client()
    client.set_cookie("session", page["cookie"])
    state = f"/live/{page['game']}/state"
    tag = client.get(state).headers["ETag"]
    environ = EnvironBuilder(path=state, query_string="ply=0", headers={
        "If-None-Match": tag, "Cookie": f"session={page['cookie']}", "Accept": "application/json"}).get_environ()
    out = {}
    for name, wsgi in (("middleware", app.wsgi_app), ("flask", app.wsgi_app.wsgi_app)):
        out[name], statuses = _cpu_per_call(wsgi, environ, n)
        assert statuses == {"304 NOT MODIFIED"}, statuses
    _dispose(app)
    return out


def _dispose(app) -> None:
    with app.app_context():
        from teach.web.extensions import db

        db.session.remove()
        db.engine.dispose()


def answer_costs(url: str, black: dict, white: dict, redis_url: str, n: int = 500) -> dict[str, float]:
    """CPU (ms, in-process) of each answer a page gets: the 304s, the "still here" 304, what changed since the
    page's ply (after one move), and the whole game (a reconnect)."""
    from werkzeug.test import EnvironBuilder

    app = _cost_app(url, redis_url)
    state = f"/live/{white['game']}/state"

    def env(page, query="", tag=None):
        headers = {"Cookie": f"session={page['cookie']}", "Accept": "application/json"}
        if tag:
            headers["If-None-Match"] = tag
        return EnvironBuilder(path=state, query_string=query, headers=headers).get_environ()

    client = app.test_client()
    client.set_cookie("session", white["cookie"])
    tag = client.get(state).headers["ETag"]
    out = {}
    out["304, middleware"], _s = _cpu_per_call(app.wsgi_app, env(white, "ply=0", tag), n * 4)
    out["304, Flask"], _s = _cpu_per_call(app.wsgi_app.wsgi_app, env(white, "ply=0", tag), n * 2)
    out["still here (304 from the database)"], _s = _cpu_per_call(app.wsgi_app, env(white, "here=1", tag), n)
    mover = app.test_client()
    mover.set_cookie("session", black["cookie"])
    moved = mover.post(f"/live/{black['game']}/move", json={"move": SEQUENCE[0], "ply": 0},
                       headers={"X-CSRFToken": black["csrf"]})
    assert moved.status_code == 200, moved.data
    out["what changed (200, one move), middleware"], statuses = _cpu_per_call(app.wsgi_app, env(white, "ply=0", tag),
                                                                           n)
    assert statuses == {"200 OK"}, statuses
    out["what changed (200, one move), Flask"], statuses = _cpu_per_call(app.wsgi_app.wsgi_app,
                                                                      env(white, "ply=0", tag), n)
    assert statuses == {"200 OK"}, statuses
    out["the whole game (200)"], _s = _cpu_per_call(app.wsgi_app, env(white), n)
    # a move (the POST and its answer), Black and White in turn
    white_mover = app.test_client()
    white_mover.set_cookie("session", white["cookie"])
    used = 0.0
    count = len(SEQUENCE) - 1
    for ply in range(1, len(SEQUENCE)):
        side, page = (mover, black) if ply % 2 == 0 else (white_mover, white)
        t0 = time.process_time()
        r = side.post(f"/live/{page['game']}/move", json={"move": SEQUENCE[ply], "ply": ply},
                      headers={"X-CSRFToken": page["csrf"]})
        used += time.process_time() - t0
        assert r.status_code == 200, r.data
    out["a move (POST)"] = used / count * 1000
    _dispose(app)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kids", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers per instance")
    parser.add_argument("--threads", type=int, default=160,
                        help="threads per worker (gunicorn's gthread workers, as the README deploys live games); "
                             "0: sync workers, the pages poll")
    parser.add_argument("--hold", type=int, default=150,
                        help="questions one worker holds until their game changes (TEACH_LIVE_HOLD; below --threads)")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of waiting pages, nobody moving")
    parser.add_argument("--moves", type=float, default=60.0, help="seconds of moves")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between two moves of one game")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5")
    parser.add_argument("--skip-bare", action="store_true")
    parser.add_argument("--costs-only", action="store_true",
                        help="only the CPU of each kind of answer, in-process (no servers, no load)")
    args = parser.parse_args()
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    url = fresh_database()
    games, pages = populate(url, args.kids)
    if args.costs_only:
        costs = answer_costs(url, pages[0], pages[1], args.redis)
        print("app CPU per answer, in-process (ms): " + "; ".join(f"{k} {v:.2f}" for k, v in costs.items()))
        return
    env = {"DATABASE_URL": url, "TEACH_SECRET_KEY": SECRET, "REDIS_URL": args.redis, "TEACH_LIVE_REDIS_URL": args.redis,
           "TEACH_REVIEW_RUNNER": "false", "TEACH_PROOF_RUNNER": "false"}
    results = {}
    poll_cost = unchanged_poll_cost(url, pages[1], args.redis)
    if args.threads:
        env["TEACH_LIVE_HOLD"] = str(args.hold)
    instances = [Instance("teach.web:create_app()", args.workers, env, threads=args.threads) for _ in range(2)]
    try:
        for i in instances:
            i.wait()
        results["live game (teach)"] = asyncio.run(run_school(games, pages, [i.url for i in instances], instances,
                                                              args, bare=False))
    finally:
        for i in instances:
            i.stop()
    stored = records(url)
    out_of_order = missing = unanswered = wrong_ply = 0
    for game_id, answered in results["live game (teach)"]["moves_ok"].items():
        moves, ply = stored[game_id]
        if moves != SEQUENCE[:len(moves)]:
            out_of_order += 1  # a move played twice, or out of its turn
        missing += len([m for m in answered if m not in moves])  # answered 200 but not in the record: lost
        unanswered += max(0, len(moves) - len(answered))  # in the record, but its answer never came (timeout)
        if ply != len(moves):
            wrong_ply += 1
    if not args.skip_bare:
        redis.Redis.from_url(args.redis).flushdb()
        folder = Path(tempfile.mkdtemp(prefix="live-bare-"))
        (folder / "bare_live.py").write_text(BARE_APP)
        bare = [Instance("bare_live:app", args.workers, {"BARE_REDIS_URL": args.redis}, cwd=folder) for _ in range(2)]
        try:
            for i in bare:
                i.wait()
            for p in pages:
                p["etag"] = None
            results["bare endpoint"] = asyncio.run(run_school(games, pages, [i.url for i in bare], bare, args,
                                                              bare=True))
        finally:
            for i in bare:
                i.stop()
        redis.Redis.from_url(args.redis).flushdb()
    kind = (f"gthread workers × {args.threads} threads, up to {args.hold} held questions each" if args.threads
            else "sync workers")
    print(f"{args.kids} children in {len(games)} games, two instances × {args.workers} gunicorn {kind} (the bare "
          f"endpoint: sync workers, polling), "
          f"PostgreSQL + Redis, one move per game every {args.interval:g} s")
    print(table(results, args.kids))
    res = results["live game (teach)"]
    moves = res["phases"]["moves"]
    quiet = moves["after_quiet"]
    steady = list((collections.Counter(moves["latencies"]) - collections.Counter(quiet)).elements())
    steady.sort()

    def pcts(values):
        return " / ".join(f"{percentile(values, q) * 1000:.0f}" for q in (50, 95, 99)) if values else "–"

    print(f"\nteach tap→seen p50 / p95 / p99 ms: moves in a game going on {pcts(steady)} ({len(steady)}); the first "
          f"move after {QUIET_STEPS[0][0]:g} s or more of quiet (its page asking less often) {pcts(quiet)} "
          f"({len(quiet)})")
    print(f"a tap's own answer (the POST's round trip) p50 / p95 / p99 ms: {pcts(res['tap_times'])}")
    print(f"an unchanged poll answered 304, app CPU in-process: {poll_cost['middleware']:.3f} ms by the middleware "
          f"in front of Flask, {poll_cost['flask']:.3f} ms by Flask")
    print(f"\nrecords: {len(stored)} games checked, {res['taps']} moves answered 200, {res['refused']} refused (409), "
          f"{missing} answered but lost, {out_of_order} games with a move doubled or out of turn, {wrong_ply} with a "
          f"wrong ply; {unanswered} moves played whose answer did not reach the device (client timeout); "
          f"{res['taps'] - res['seen']} answered moves never seen by the opponent's page; "
          f"{res['moved_unseen']} taps by a page that had not shown the last move yet; {res['unheld']} questions "
          f"that asked to be held answered at once (the worker held its limit)")


if __name__ == "__main__":
    main()
