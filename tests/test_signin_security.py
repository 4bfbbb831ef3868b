"""Signing in, probed as an attacker would: parallel picture guesses against a real threaded server, class codes
guessed from one address, sign-in and sign-up timed for known and unknown emails, and the limits held across two
real app processes sharing one Redis."""

from __future__ import annotations

import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener

import pytest
import sqlalchemy as sa
from werkzeug.middleware.proxy_fix import ProxyFix

from browser_support import serving as live_server

from teach.models import Group, Membership, User
from teach.web.extensions import db

ROOT = Path(__file__).resolve().parent.parent
RIGHT = "cat,fish,moon"  # 明明's pictures in the demo class CAT234
WRONG = ["sun,sun,sun", "star,star,star", "tree,tree,tree", "moon,moon,moon", "fish,fish,fish", "cat,cat,cat",
         "apple,apple,apple", "flower,flower,flower", "mouse,mouse,mouse", "sun,moon,star"]
_CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


# ---------------------------------------------------------------------- a browser against a real server
class _NoRedirect(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One device: its own cookies, its own address (as a trusted proxy forwards it)."""

    def __init__(self, base: str, address: str | None = None):
        self.base, self.address = base, address
        self.opener = build_opener(HTTPCookieProcessor(CookieJar()), _NoRedirect())
        self.token = None

    def open(self, method: str, path: str, data: dict | None = None, lang: str = "en") -> tuple[int, str]:
        headers = {"Accept-Language": lang}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        body = None
        if data is not None:
            body = urlencode({**data, "csrf_token": self.token or ""}).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            with self.opener.open(Request(self.base + path, data=body, headers=headers, method=method),
                                  timeout=60) as r:
                status, text = r.status, r.read().decode()
        except HTTPError as e:
            status, text = e.code, e.read().decode()
        found = _CSRF.search(text)
        if found:
            self.token = found.group(1)
        return status, text


@contextmanager
def serving(app):
    """The app behind one trusted proxy (so each Browser has its own address), on a real threaded server."""
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1)
    with live_server(app) as base:
        yield base


@pytest.fixture
def checks(monkeypatch):
    """Every time a picture password is actually compared."""
    seen = []
    lock = threading.Lock()
    original = User.check_pictures

    def counted(self, pictures):
        with lock:
            seen.append(",".join(pictures))
        return original(self, pictures)

    monkeypatch.setattr(User, "check_pictures", counted)
    return seen


def _kid(app, name: str = "明明") -> User:
    with app.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == name))
        db.session.expunge(kid)
        return kid


def _burst(base: str, kid_id: int, guesses: list[str], addresses: list[str | None]) -> list[int]:
    """Each guess from its own device, all sent at the same instant."""
    devices = [Browser(base, a) for a in addresses]
    for d in devices:
        assert d.open("GET", f"/kids/CAT234/{kid_id}")[0] == 200
    barrier = threading.Barrier(len(devices))
    answers: list[int] = [0] * len(devices)

    def guess(i: int) -> None:
        barrier.wait()
        answers[i] = devices[i].open("POST", f"/kids/CAT234/{kid_id}", {"pictures": guesses[i]})[0]

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(len(devices))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def _signs_in(base: str, kid_id: int, address: str | None, pictures: str = RIGHT) -> tuple[bool, str]:
    device = Browser(base, address)
    device.open("GET", f"/kids/CAT234/{kid_id}")
    status, page = device.open("POST", f"/kids/CAT234/{kid_id}", {"pictures": pictures})
    return status == 302, page


# ---------------------------------------------------------------------- finding 4: the picture lock
def test_twenty_parallel_guesses_from_one_device_get_at_most_the_lock_s_checks(demo, checks):
    after = demo.config["KID_LOCK_AFTER"]
    kid = _kid(demo)
    with serving(demo) as base:
        answers = _burst(base, kid.id, [WRONG[i % len(WRONG)] for i in range(20)], ["203.0.113.7"] * 20)
        assert all(a == 200 for a in answers), answers  # none signed in, none failed
        assert len(checks) <= after, checks
        signed_in, page = _signs_in(base, kid.id, "203.0.113.7")  # the right pictures, from that device
        assert not signed_in and ("resting" in page or "a lot of tries" in page)
    assert len(checks) <= after
    with demo.app_context():
        assert db.session.get(User, kid.id).locked()  # the teacher's page shows the rest (and offers Unlock)


def test_a_strangers_guesses_do_not_lock_the_kid_out_of_the_class_tablet(demo, checks):
    kid = _kid(demo)
    with serving(demo) as base:
        _burst(base, kid.id, WRONG[:8], ["203.0.113.7"] * 8)  # from the stranger's home
        assert not _signs_in(base, kid.id, "203.0.113.7")[0]
        assert _signs_in(base, kid.id, "198.51.100.20")[0]  # the class tablet


def test_many_devices_together_get_at_most_the_ceiling_and_a_teacher_unlocks(demo, checks):
    demo.config["KID_LOCK_CEILING"] = 8
    kid = _kid(demo)
    with serving(demo) as base:
        answers = _burst(base, kid.id, [WRONG[i % len(WRONG)] for i in range(30)],
                         [f"203.0.113.{i}" for i in range(1, 31)])
        assert all(a == 200 for a in answers), answers
        assert len(checks) <= 8, checks
        signed_in, page = _signs_in(base, kid.id, "198.51.100.20")  # even the class tablet waits now
        assert not signed_in and "resting" in page
        with demo.app_context():
            locked = db.session.get(User, kid.id)
            assert locked.locked() and locked.failed_logins == 8
        teacher = Browser(base, "198.51.100.99")
        teacher.open("GET", "/login")
        assert teacher.open("POST", "/login", {"email": "teacher@example.com", "password": "black-cat-42"})[0] == 302
        with demo.app_context():
            class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        teacher.open("GET", f"/teach/classes/{class_id}")
        assert teacher.open("POST", f"/teach/classes/{class_id}/kids/{kid.id}/unlock", {})[0] == 302
        assert _signs_in(base, kid.id, "203.0.113.1")[0]  # every device starts again after the unlock
    assert len(checks) <= 9


def test_the_device_rest_ends(demo, checks):
    demo.config["KID_LOCK_MINUTES"] = 3 / 60  # three seconds, so the test sees the end of the rest
    kid = _kid(demo)
    with serving(demo) as base:
        device = Browser(base, "203.0.113.7")
        device.open("GET", f"/kids/CAT234/{kid.id}")
        for wrong in WRONG[:5]:
            device.open("POST", f"/kids/CAT234/{kid.id}", {"pictures": wrong})
        status, page = device.open("POST", f"/kids/CAT234/{kid.id}", {"pictures": RIGHT})
        assert status == 200 and "resting" in page
        time.sleep(3.5)
        assert device.open("POST", f"/kids/CAT234/{kid.id}", {"pictures": RIGHT})[0] == 302


def test_the_right_pictures_start_the_count_again(demo, client):
    kid = _kid(demo)
    for wrong in WRONG[:4]:
        client.post(f"/kids/CAT234/{kid.id}", data={"pictures": wrong})
    assert client.post(f"/kids/CAT234/{kid.id}", data={"pictures": RIGHT}).status_code == 302
    client.post("/logout")
    for wrong in WRONG[:4]:
        assert "resting" not in client.post(f"/kids/CAT234/{kid.id}", data={"pictures": wrong},
                                            headers={"Accept-Language": "en"}).get_data(as_text=True)
    with demo.app_context():
        assert db.session.get(User, kid.id).failed_logins == 4


# ---------------------------------------------------------------------- finding 5: guessing class codes
def _from(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}, "headers": {"Accept-Language": "en"}}


def test_class_codes_cannot_be_guessed_without_a_limit(demo, client):
    answers = []
    for i in range(40):  # wrong codes, typed into the form and pasted into the address, as a guesser would
        if i % 2:
            answers.append(client.post("/kids", data={"code": f"NOPE{i:02d}"}, **_from("203.0.113.7")).status_code)
        else:
            answers.append(client.get(f"/kids/NOPE{i:02d}", **_from("203.0.113.7")).status_code)
    assert set(answers[:30]) <= {200, 404} and set(answers[30:]) == {429}, answers
    # the right code too: otherwise the limit itself would tell right codes from wrong ones
    assert client.get("/kids/CAT234", **_from("203.0.113.7")).status_code == 429
    assert client.post("/kids", data={"code": "CAT234"}, **_from("203.0.113.7")).status_code == 429
    kid = _kid(demo)
    assert client.get(f"/kids/CAT234/{kid.id}", **_from("203.0.113.7")).status_code == 429
    # another school is not touched
    assert client.post("/kids", data={"code": "CAT234"}, **_from("198.51.100.20")).status_code == 302


def test_the_429_page_speaks_to_a_kid_in_both_languages(demo, client):
    for i in range(31):
        r = client.get(f"/kids/NOPE{i:02d}", environ_base={"REMOTE_ADDR": "203.0.113.7"})
    assert r.status_code == 429 and r.headers.get("Retry-After")
    en = client.get("/kids/CAT234", **_from("203.0.113.7")).get_data(as_text=True)
    assert "a lot of tries" in en and "rest for a minute" in en
    zh = client.get("/kids/CAT234", environ_base={"REMOTE_ADDR": "203.0.113.7"},
                    headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "试了好多次" in zh and "休息" in zh


def test_a_whole_class_signs_in_at_once_from_one_school_address(demo, app):
    """30 kids on one NAT address: each types the code (a few mistype it), opens the grid and the pad, taps
    their pictures — nobody is turned away."""
    with app.app_context():
        group = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        kids = []
        for i in range(30):
            kid = User(role="kid", name=f"Kid{i}", avatar="panda")
            kid.set_pictures(["sun", "moon", "star"])
            group.members.append(Membership(user=kid, role="kid"))
            kids.append(kid)
        db.session.commit()
        ids = [k.id for k in kids]
    school = _from("198.51.100.1")
    for i, kid_id in enumerate(ids):
        tablet = app.test_client()
        if i % 6 == 0:
            assert tablet.post("/kids", data={"code": "CAT 23A"}, **school).status_code == 200  # a typo
        assert tablet.post("/kids", data={"code": "cat 234"}, **school).status_code == 302
        assert tablet.get("/kids/CAT234", **school).status_code == 200
        assert tablet.get(f"/kids/CAT234/{kid_id}", **school).status_code == 200
        if i % 5 == 0:
            assert tablet.post(f"/kids/CAT234/{kid_id}", data={"pictures": "sun,sun,sun"}, **school).status_code == 200
        assert tablet.post(f"/kids/CAT234/{kid_id}", data={"pictures": "sun,moon,star"}, **school).status_code == 302


def test_sign_in_and_sign_up_pages_are_rate_limited(demo, client):
    for path in ("/login", "/signup", "/kids"):
        answers = [client.get(path, environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code for _ in range(301)]
        assert answers[0] == 200 and answers[-1] == 429, path
    signups = [client.post("/signup", data={"role": "parent", "name": "X", "email": f"x{i}@example.com",
                                            "password": "short", "confirm": "short"},
                           environ_base={"REMOTE_ADDR": "203.0.113.10"}).status_code for i in range(11)]
    assert signups[:10] == [200] * 10 and signups[10] == 429


def test_right_passwords_do_not_use_up_a_schools_sign_ins(demo, client):
    """A staff room signing in together: only failures count against the address."""
    for _ in range(15):
        r = client.post("/login", data={"email": "teacher@example.com", "password": "black-cat-42"},
                        environ_base={"REMOTE_ADDR": "198.51.100.1"})
        assert r.status_code == 302
        client.post("/logout", environ_base={"REMOTE_ADDR": "198.51.100.1"})


# ---------------------------------------------------------------------- finding 10: account enumeration
def _median_times(client, posts: list[tuple[str, dict]]) -> dict[str, float]:
    times: dict[str, list[float]] = {}
    for i, (kind, form) in enumerate(posts):
        start = time.perf_counter()
        client.post(form.pop("path"), data=form, environ_base={"REMOTE_ADDR": f"10.9.{i // 200}.{i % 200}"})
        times.setdefault(kind, []).append(time.perf_counter() - start)
    return {k: statistics.median(v) for k, v in times.items()}


def test_sign_in_takes_as_long_for_an_unknown_email_as_for_a_known_one(demo, app, client):
    with app.app_context():  # 20 real accounts
        for i in range(20):
            u = User(role="teacher", name=f"T{i}", email=f"t{i}@example.com")
            u.set_password("a-real-password")
            db.session.add(u)
        db.session.commit()
    ratios = []
    for _round in range(3):  # the machine is shared: a round disturbed by other work is measured again
        posts = []
        for i in range(20):
            posts.append(("known", {"path": "/login", "email": f"t{i}@example.com", "password": "wrong-password"}))
            posts.append(("unknown", {"path": "/login", "email": f"nobody{i}@example.com",
                                      "password": "wrong-password"}))
        medians = _median_times(client, posts)
        ratios.append(medians["unknown"] / medians["known"])
        if 0.9 <= ratios[-1] <= 1.1:
            break
    assert any(0.9 <= r <= 1.1 for r in ratios), ratios


def test_sign_up_does_not_tell_a_stranger_an_email_has_an_account(demo, client):
    form = {"role": "parent", "name": "Stranger", "password": "12345678", "confirm": "12345678"}
    taken = client.post("/signup", data={**form, "email": "teacher@example.com"},
                        headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "sign in instead" in taken
    assert 'aria-invalid' not in taken  # no field is pointed at: the email is not named as the problem
    assert "teacher@example.com" not in taken.replace('value="teacher@example.com"', "")
    ratios = []
    for _round in range(3):
        posts = []
        for i in range(10):
            posts.append(("taken", {"path": "/signup", **form, "email": "teacher@example.com"}))
            posts.append(("new", {"path": "/signup", **form, "email": f"new{_round}-{i}@example.com"}))
        medians = _median_times(client, posts)
        client.post("/logout")
        ratios.append(medians["taken"] / medians["new"])
        if 0.8 <= ratios[-1] <= 1.25:
            break
    assert any(0.8 <= r <= 1.25 for r in ratios), ratios


# ---------------------------------------------------------------------- finding 11: limits shared by processes
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/7")


def _redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_timeout=2).ping())
    except Exception:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(base: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the app process ended: {proc.stderr.read() if proc.stderr else ''}")
        try:
            if Browser(base).open("GET", "/")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the app did not start")


@pytest.mark.slow
def test_two_app_processes_on_one_redis_share_every_limit(tmp_path):
    if not _redis_answers(REDIS):
        pytest.skip(f"Redis does not answer at {REDIS}")
    from teach.web import create_app
    from teach.web.demo import create_demo

    database = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database, "RATELIMIT_ENABLED": False})
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
        create_demo()
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        db.engine.dispose()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TEACH_SECRET_KEY": "test", "DATABASE_URL": database,
           "REDIS_URL": REDIS, "TEACH_RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    procs, bases = [], []
    try:
        for _ in range(2):
            port = _free_port()
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-w", "1", "-b", f"127.0.0.1:{port}", "teach.web:create_app()"],
                cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True))
            bases.append(f"http://127.0.0.1:{port}")
        for base, proc in zip(bases, procs):
            _wait_for(base, proc)
        # wrong passwords sent to the two processes in turn: the tenth failure is the last, wherever it lands
        devices = [Browser(b) for b in bases]
        for d in devices:
            d.open("GET", "/login")
        answers = [devices[i % 2].open("POST", "/login", {"email": "nobody@example.com", "password": "nope"})[0]
                   for i in range(12)]
        assert answers[:10] == [200] * 10 and answers[10:] == [429, 429], answers
        # the picture lock's device count too: five tries in all, then the right pictures rest on both
        pads = [Browser(b) for b in bases]
        for p in pads:
            p.open("GET", f"/kids/CAT234/{kid_id}")
        for i in range(5):
            assert pads[i % 2].open("POST", f"/kids/CAT234/{kid_id}", {"pictures": WRONG[i]})[0] == 200
        for p in pads:
            status, page = p.open("POST", f"/kids/CAT234/{kid_id}", {"pictures": RIGHT})
            assert status == 200 and "resting" in page
        # and the misses of code guessing
        guessers = [Browser(b) for b in bases]
        misses = [guessers[i % 2].open("GET", f"/kids/NOPE{i:02d}")[0] for i in range(31)]
        assert misses[:30] == [404] * 30 and misses[30] == 429, misses
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
            if proc.stderr:
                proc.stderr.close()
