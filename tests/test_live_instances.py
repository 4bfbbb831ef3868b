"""Two app instances, one PostgreSQL and one Redis, no sticky sessions: the teacher starts a round on one instance,
each child plays from another, and every move arrives on the other side through the other instance.

The instances are real gunicorn processes (sync workers, polling; and threaded workers holding questions, as the
README deploys for a district) on the test database; the
children are plain HTTP clients with their own cookies. Runs where TEST_DATABASE_URL names PostgreSQL (CI's
second pass) and Redis answers at redis://127.0.0.1:6379/5.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
REDIS = os.environ.get("TEST_LIVE_REDIS_URL", "redis://127.0.0.1:6379/5")
pytestmark = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL", "").startswith(("postgres://", "postgresql")),
                                reason="two instances share one PostgreSQL database (TEST_DATABASE_URL)")


def _redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS, socket_timeout=1).ping())
    except Exception:  # noqa: BLE001
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Instance:
    """``gunicorn -w 2 'teach.web:create_app()'`` on its own port."""

    def __init__(self, database_url: str, log: Path, hold: int = 0) -> None:
        self.log = log.open("wb")
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL=REDIS, TEACH_SECRET_KEY="two-instances",
                   TEACH_LIVE_REDIS_URL=REDIS, TEACH_REVIEW_RUNNER="false", TEACH_PROOF_RUNNER="false",
                   PYTHONPATH=str(ROOT))
        # held questions: threaded workers, as the README deploys them for live games (one worker: its limit is
        # the instance's)
        workers = ["-w", "2"] if not hold else ["-w", "1", "-k", "gthread", "--threads", "8"]
        if hold:
            env["TEACH_LIVE_HOLD"] = str(hold)
        self.proc = subprocess.Popen([sys.executable, "-m", "gunicorn", *workers, "-b", f"127.0.0.1:{self.port}",
                                      "--control-socket", str(log.with_suffix(".ctl")),
                                      "teach.web:create_app()"], cwd=ROOT, env=env, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=self.log)

    def wait(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(Path(self.log.name).read_text()[-2000:])
            try:
                urllib.request.urlopen(self.base + "/", timeout=30).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the instance did not start")

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


class Device:
    """One child's (or the teacher's) browser, talking to one instance."""

    def __init__(self, instance: Instance) -> None:
        self.base = instance.base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  _NoRedirect())
        self.csrf = ""
        self.etag = None

    def request(self, method: str, path: str, body=None, form=None, headers=None):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if method == "POST":
            headers["X-CSRFToken"] = self.csrf
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def fresh_token(self) -> None:
        status, headers, page = self.request("GET", "/")
        if status == 302:  # a signed-in visitor is sent on to their own start page
            status, headers, page = self.request("GET", urllib.parse.urlsplit(headers["Location"]).path)
        self.csrf = re.search(rb'<meta name="csrf-token" content="([^"]+)"', page).group(1).decode()

    def json(self, method: str, path: str, body=None):
        status, headers, raw = self.request(method, path, body=body, headers={"Accept": "application/json"})
        if headers.get("ETag") and "/live/" in path:  # a move's answer is the game's state, as the page keeps it
            self.etag = headers["ETag"]
        return status, json.loads(raw) if raw else None

    def poll(self, game_id: int, query: str = "") -> tuple[int, dict | None]:
        headers = {"Accept": "application/json"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        status, h, raw = self.request("GET", f"/live/{game_id}/state{query}", headers=headers)
        if status == 200:
            self.etag = h["ETag"]
            return status, json.loads(raw)
        return status, None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _pair(tmp_path, hold: int = 0):
    if not _redis_answers():
        pytest.skip(f"no Redis at {REDIS}")
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    url = os.environ["TEST_DATABASE_URL"]
    pair = [Instance(url, tmp_path / "a.log", hold), Instance(url, tmp_path / "b.log", hold)]
    try:
        for i in pair:
            i.wait()
        yield pair
    finally:
        for i in pair:
            i.stop()
        redis.Redis.from_url(REDIS).flushdb()


@pytest.fixture
def instances(demo, tmp_path):
    yield from _pair(tmp_path)


@pytest.fixture
def holding_instances(demo, tmp_path):
    yield from _pair(tmp_path, hold=2)


def _sign_in_kid(device: Device, app, name: str, pictures: str) -> int:
    from teach.models import User
    from teach.web.extensions import db

    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == name))
    device.fresh_token()
    status, _h, _b = device.request("POST", f"/kids/CAT234/{kid_id}", form={"pictures": pictures})
    assert status == 302
    device.fresh_token()  # the session is new: so is its token
    return kid_id


def _round(app, a, b) -> tuple[int, Device, Device, Device, int, int]:
    """明明 on instance a, Lily and the teacher on b; the teacher starts a capture-3 round on 7x7: the game's id,
    the two children's devices (Black's first), the teacher's, and the children's ids."""
    ming, lily, teacher = Device(a), Device(b), Device(b)
    ming_id = _sign_in_kid(ming, app, "明明", "cat,fish,moon")
    lily_id = _sign_in_kid(lily, app, "Lily", "star,apple,sun")
    teacher.fresh_token()
    assert teacher.request("POST", "/login", form={"email": "teacher@example.com", "password": "black-cat-42"})[0] == 302
    teacher.fresh_token()
    from teach.models import Group
    from teach.web.extensions import db

    with app.app_context():
        gid = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
    for kid in (ming, lily):
        assert kid.json("GET", f"/room/{gid}/state")[0] == 200
    status, _h, _b = teacher.request("POST", f"/room/class/{gid}/round",
                                     form={"game": "capture-7", "pairing": "random", "goal": "3", "away": "5",
                                           "outcome": "adjourn"})
    assert status == 302
    url = ming.json("GET", f"/room/{gid}/state")[1]["game"]
    assert url and lily.json("GET", f"/room/{gid}/state")[1]["game"] == url
    game_id = int(url.rsplit("/", 1)[1])
    first = ming.poll(game_id)[1]
    lily.poll(game_id)
    black, white = (ming, lily) if first["players"]["black"]["name"] == "明明" else (lily, ming)
    return game_id, black, white, teacher, ming_id, lily_id


def test_a_whole_game_between_two_children_on_two_instances(demo, instances):
    app = demo
    game_id, black, white, teacher, ming_id, lily_id = _round(app, *instances)
    from teach.models import Group
    from teach.web.extensions import db

    with app.app_context():
        gid = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
    # Black catches three single white stones on the edge, one after another
    moves = ["A6", "A7", "B7", "G1", "B6", "A5", "A4", "G2", "B5", "E4", "C5", "D4", "B4", "A3", "A2", "F1", "B3"]
    for ply, point in enumerate(moves):
        mover, other = (black, white) if ply % 2 == 0 else (white, black)
        status, answer = mover.json("POST", f"/live/{game_id}/move", {"move": point, "ply": ply})
        assert status == 200, answer
        deadline = time.monotonic() + 5
        while True:  # the other child's page asks its own instance until the move shows
            status, seen = other.poll(game_id)
            if status == 200 and seen["ply"] == ply + 1:
                assert seen["last"] == point and seen["rows"] == answer["rows"]
                break
            assert status in (200, 304) and time.monotonic() < deadline, (status, seen)
            time.sleep(0.05)
        if answer["state"] == "finished":
            break
    assert answer["state"] == "finished" and answer["winner"] == "black", answer
    assert answer["game_result"] == "B+C3"
    # nothing changed since: both pages are answered 304 by their instances
    assert white.poll(game_id)[0] == 304 and black.poll(game_id)[0] == 304
    with app.app_context():
        from teach.models import LiveGame, PlayedGame

        row = db.session.get(LiveGame, game_id)
        assert row.moves == moves[:len(row.moves)] and row.ply == len(row.moves)
        winner = "明明" if row.black_id == ming_id else "Lily"  # Black won
        assert {p.kid_id for p in db.session.scalars(sa.select(PlayedGame))} == {ming_id, lily_id}
    status, cards = teacher.json("GET", f"/room/class/{gid}/live.json")
    assert status == 200 and cards["games"][0]["result"] == "B+C3"
    assert cards["games"][0]["result_words"] == f"{winner} 赢了 · 吃了3个子"


def _held(device: Device, game_id: int, seconds: int, out: dict) -> threading.Thread:
    """The page asking to be held until the game changes (``?wait=``), in the background."""
    etag = device.etag

    def ask():
        headers = {"Accept": "application/json", "If-None-Match": etag}
        status, h, raw = device.request("GET", f"/live/{game_id}/state?ply=0&wait={seconds}", headers=headers)
        out.update(status=status, body=json.loads(raw) if raw else None, at=time.monotonic())

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


def test_a_held_question_is_answered_by_the_move_made_on_the_other_instance(demo, holding_instances):
    a, b = holding_instances
    game_id, black, white, _teacher, _m, _l = _round(demo, a, b)
    assert white.poll(game_id)[0] == 304  # the page holds the game's ETag
    full = black.json("GET", f"/live/{game_id}/state")[1]
    assert full["hold"] > 0  # the page is told it may ask to be held
    # nothing changes: a held question is answered 304 when its time is up, not before
    start = time.monotonic()
    assert white.poll(game_id, "?ply=0&wait=2")[0] == 304
    assert time.monotonic() - start >= 1.9
    # the opponent's page and Black's own page both wait; Black moves through the other instance
    theirs, mine = {}, {}
    waiting = [_held(white, game_id, 15, theirs), _held(black, game_id, 15, mine)]
    time.sleep(1.0)
    assert all(t.is_alive() for t in waiting)  # held, not answered
    moved_at = time.monotonic()
    status, answer = black.json("POST", f"/live/{game_id}/move", {"move": "D4", "ply": 0})
    assert status == 200 and answer["ply"] == 1
    for t in waiting:
        t.join(20)
    # the opponent's page gets what changed, with the move; the mover's own page (its tap's answer brought it the
    # game) is held on until the time is up, then sent what changed
    assert theirs["status"] == 200 and theirs["at"] > moved_at, theirs
    assert theirs["body"]["ply"] == 1 and theirs["body"]["last"] == "D4" and theirs["body"]["delta"] is True
    assert mine["status"] == 200 and mine["at"] - moved_at > 5 and mine["body"]["moves"] == ["D4"], mine


def test_an_instance_holds_no_more_questions_than_its_limit(demo, holding_instances):
    a, b = holding_instances
    game_id, black, white, _teacher, _m, _l = _round(demo, a, b)
    device = white if white.base == b.base else black  # the child on instance b
    device.poll(game_id)
    outs = [{}, {}]
    waiting = [_held(device, game_id, 15, out) for out in outs]  # the limit is 2 held questions per instance
    time.sleep(1.0)
    assert all(t.is_alive() for t in waiting)
    # a third is answered at once, as a plain poll would be
    status, _body = device.poll(game_id, "?ply=0&wait=15")
    assert status == 304 and all(t.is_alive() for t in waiting)
    status, _answer = black.json("POST", f"/live/{game_id}/move", {"move": "D4", "ply": 0})
    assert status == 200
    for t in waiting:
        t.join(20)
    assert [o["status"] for o in outs] == [200, 200], outs
