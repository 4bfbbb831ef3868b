"""Security, probed as an attacker would: headers on every answer, cookies over HTTPS, forwarded addresses that
are trusted only behind a proxy, bodies too big to read, numbers too big for the database, JSON too deep to
parse, and the secret key file."""

from __future__ import annotations

import io
import os
import re
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from werkzeug.datastructures import FileStorage
from werkzeug.routing import IntegerConverter
from werkzeug.serving import make_server

from teach.models import Group, User
from teach.web.extensions import db
from teach.web import classroom

ROOT = Path(__file__).resolve().parent.parent
EN = {"Accept-Language": "en"}
ZH = {"Accept-Language": "zh-CN"}
JSON = {"Accept": "application/json"}
HUGE = 10**30
MIB = 1024 * 1024


def kid_login(app, client, name="明明", pictures="cat,fish,moon", code="CAT234") -> int:
    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == name))
    assert client.post(f"/kids/{code}/{kid_id}", data={"pictures": pictures}).status_code == 302
    return kid_id


def adult_login(client, email: str, password: str) -> None:
    assert client.post("/login", data={"email": email, "password": password}).status_code == 302


def sign_in_as(app, client, role: str | None) -> None:
    if role == "kid":
        kid_login(app, client)
    elif role == "teacher":
        adult_login(client, "teacher@example.com", "black-cat-42")
    elif role == "parent":
        adult_login(client, "parent@example.com", "little-mouse-42")


# ---------------------------------------------------------------------- headers (finding 9)
def _assert_security_headers(r) -> None:
    csp = r.headers.get("Content-Security-Policy", "")
    directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in csp.split(";"))
    assert directives["default-src"] == "'self'" and directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert directives["base-uri"] == "'self'" and directives["form-action"] == "'self'"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "*" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("role, path, method", [
    (None, "/", "GET"), (None, "/login", "GET"), (None, "/no-such-page", "GET"), (None, "/static/board.js", "GET"),
    (None, "/learn/", "GET"),  # a redirect to sign-in
    (None, "/language", "POST"),  # refused: no CSRF token
    ("kid", "/learn/web-first/1", "GET"), ("kid", "/learn/web-first/1/move", "POST"),
    ("teacher", "/teach/", "GET"), ("parent", "/family/", "GET"),
])
def test_every_kind_of_answer_carries_the_security_headers(demo, client, role, path, method):
    sign_in_as(demo, client, role)
    if method == "GET":
        r = client.get(path)
    elif path == "/language":
        r = client.post(path, data={"lang": "en"}, csrf=False)
    else:
        r = client.post(path, json={"move": "D4", "attempt": None, "ply": 0}, headers=JSON)
    assert r.status_code < 500
    _assert_security_headers(r)
    r.close()  # a static file is sent from an open file


def test_an_error_on_our_side_still_carries_the_security_headers(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("a bug")

    r = client.get("/boom")
    assert r.status_code == 500
    _assert_security_headers(r)


TEMPLATE_FILES = sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("template", TEMPLATE_FILES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_has_inline_script_or_style(template):
    """What the policy would block: event-handler attributes, javascript: links, script elements with code in
    them, style attributes and <style> blocks. A <script type="application/json"> data block is never run."""
    text = template.read_text()
    assert not re.search(r"\son[a-z]+\s*=", text, re.IGNORECASE), "an inline event handler"
    assert "javascript:" not in text.lower()
    assert not re.search(r"\sstyle\s*=", text, re.IGNORECASE) and "<style" not in text.lower()
    for attrs, body in re.findall(r"<script([^>]*)>(.*?)</script>", text, re.DOTALL | re.IGNORECASE):
        assert "src=" in attrs and not body.strip() or 'type="application/json"' in attrs, attrs


def test_print_buttons_work_through_the_static_script(demo, client):
    sign_in_as(demo, client, "teacher")
    page = client.get("/teach/worksheet?p=web-first:1").get_data(as_text=True)
    assert "data-print" in page and "/static/print.js" in page and "onclick" not in page
    with client.get("/static/print.js") as script:
        assert script.status_code == 200 and "[data-print]" in script.get_data(as_text=True)
        assert script.mimetype in ("text/javascript", "application/javascript")


# ---------------------------------------------------------------------- cookies (finding 9)
def _session_cookie(r) -> str:
    return next(c for c in r.headers.getlist("Set-Cookie") if c.startswith("session="))


def _app_with(tmp_path, **config):
    from teach.web import create_app

    return create_app({"TESTING": True, "SECRET_KEY": "test",
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}", **config})


def test_the_session_cookie_is_secure_over_https_and_stays_httponly_and_lax(tmp_path):
    app = _app_with(tmp_path)
    plain = _session_cookie(app.test_client().get("/"))
    assert "Secure" not in plain and "HttpOnly" in plain and "SameSite=Lax" in plain
    over_https = _session_cookie(app.test_client().get("/", base_url="https://school.example"))
    assert "Secure" in over_https and "HttpOnly" in over_https and "SameSite=Lax" in over_https


def test_a_forged_forwarded_proto_does_not_make_the_cookie_secure_without_a_proxy(tmp_path):
    """Without a proxy the forwarded headers are the client's own words: the app must not act on them."""
    r = _app_with(tmp_path).test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" not in _session_cookie(r)


def test_behind_a_proxy_the_cookie_follows_the_forwarded_https(tmp_path):
    client = _app_with(tmp_path, PROXY_FIX=1).test_client()
    assert "Secure" in _session_cookie(client.get("/", headers={"X-Forwarded-Proto": "https"}))
    assert "Secure" not in _session_cookie(client.get("/", headers={"X-Forwarded-Proto": "http"}))


def test_secure_cookies_can_be_forced(tmp_path):
    assert "Secure" in _session_cookie(_app_with(tmp_path, SESSION_COOKIE_SECURE=True).test_client().get("/"))


def test_the_proxy_fix_is_read_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TEACH_PROXY_FIX", "1")
    client = _app_with(tmp_path).test_client()
    assert "Secure" in _session_cookie(client.get("/", headers={"X-Forwarded-Proto": "https"}))


# ---------------------------------------------------------------------- proxies and rate limits (finding 11)
def _bad_login(client, address: str | None = None, remote: str = "127.0.0.1"):
    headers = {"X-Forwarded-For": address} if address else {}
    return client.post("/login", data={"email": "nobody@example.com", "password": "wrong-password"},
                       headers=headers, environ_base={"REMOTE_ADDR": remote})


def test_without_a_proxy_a_forged_forwarded_address_does_not_escape_the_login_limit(app):
    client = app.test_client()
    answers = [_bad_login(client, f"10.0.0.{i}").status_code for i in range(12)]
    assert answers[:10] == [200] * 10 and answers[10:] == [429, 429]


def test_behind_a_proxy_each_client_has_its_own_login_limit(tmp_path):
    """Every request comes from the proxy's address; the limit keys on the address the proxy forwards, so one
    family's wrong passwords do not block the whole school, and a forged first address does not help."""
    from flask_migrate import upgrade

    app = _app_with(tmp_path, PROXY_FIX=1)
    from conftest import CSRFClient

    app.test_client_class = CSRFClient
    with app.app_context():
        upgrade()
    client = app.test_client()
    proxy = "192.0.2.1"
    attacker = [_bad_login(client, f"{i}.1.1.1, 198.51.100.7", remote=proxy).status_code for i in range(11)]
    assert attacker[:10] == [200] * 10 and attacker[10] == 429
    assert _bad_login(client, "203.0.113.9", remote=proxy).status_code == 200  # another family, same proxy
    with app.app_context():
        db.engine.dispose()


def _start_app_logs(env: dict, monkeypatch, caplog, argv: list[str]) -> list[str]:
    import logging

    from teach.web import create_app

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(sys, "argv", argv)
    with caplog.at_level(logging.WARNING):
        create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_several_gunicorn_workers_on_per_process_limits_are_warned_about(monkeypatch, caplog, tmp_path):
    monkeypatch.chdir(tmp_path)  # no gunicorn.conf.py here
    logs = _start_app_logs({"SERVER_SOFTWARE": "gunicorn/27.0.1"}, monkeypatch, caplog,
                           ["gunicorn", "-w", "4", "teach.web:create_app()"])
    assert any("memory://" in m and "4 workers" in m and "REDIS_URL" in m for m in logs), logs


def test_the_gunicorn_config_file_counts_too(monkeypatch, caplog, tmp_path):
    (tmp_path / "school.conf.py").write_text("workers = 3\n")
    monkeypatch.chdir(tmp_path)
    logs = _start_app_logs({"SERVER_SOFTWARE": "gunicorn/27.0.1"}, monkeypatch, caplog,
                           ["gunicorn", "-c", str(tmp_path / "school.conf.py"), "teach.web:create_app()"])
    assert any("3 workers" in m for m in logs), logs


@pytest.mark.parametrize("env, argv", [
    ({}, ["teach", "run"]),  # make run: one process
    ({"SERVER_SOFTWARE": "gunicorn/27.0.1"}, ["gunicorn", "-w", "1", "teach.web:create_app()"]),
    ({"SERVER_SOFTWARE": "gunicorn/27.0.1"}, ["gunicorn", "teach.web:create_app()"]),  # gunicorn's default: 1
])
def test_one_process_is_not_warned_about(monkeypatch, caplog, tmp_path, env, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.delenv("GUNICORN_CMD_ARGS", raising=False)
    assert _start_app_logs(env, monkeypatch, caplog, argv) == []


def test_shared_limits_are_not_warned_about(monkeypatch, caplog, tmp_path):
    import logging

    from teach.web import security

    app = _app_with(tmp_path)
    app.config["RATELIMIT_STORAGE_URI"] = "redis://localhost:6379"
    monkeypatch.setenv("SERVER_SOFTWARE", "gunicorn/27.0.1")
    monkeypatch.setattr(sys, "argv", ["gunicorn", "-w", "4", "teach.web:create_app()"])
    with caplog.at_level(logging.WARNING):
        security.check_shared_state(app)
    assert caplog.records == []


def test_a_real_gunicorn_with_two_workers_warns_at_start(tmp_path):
    pytest.importorskip("gunicorn")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TEACH_SECRET_KEY": "test",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite'}"}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "--preload", "-b", "127.0.0.1:0",
                             "teach.web:create_app()"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)
    with proc, proc.stderr:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            lines.append(line)
            if "Booting worker" in line or not line:
                break
        proc.terminate()
        proc.wait(timeout=30)
    assert any("memory://" in line and "2 workers" in line for line in lines), "".join(lines)


# ---------------------------------------------------------------------- request size (finding 6)
class CountingStream(io.RawIOBase):
    """A body of ``size`` bytes, made up as it is read, that counts what the server reads of it."""

    def __init__(self, size: int, head: bytes = b""):
        self.size, self.head, self.pos, self.read_bytes = size, head, 0, 0

    def readable(self):
        return True

    def seekable(self):  # the test client seeks to the end to learn the length
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        self.pos = offset + (self.size if whence == io.SEEK_END else self.pos if whence == io.SEEK_CUR else 0)
        return self.pos

    def tell(self):
        return self.pos

    def readinto(self, buffer):
        n = min(len(buffer), self.size - self.pos)
        buffer[:n] = (self.head[self.pos:self.pos + n] + b"x" * n)[:n]
        self.pos += n
        self.read_bytes += n
        return n


def test_an_anonymous_300_mb_sign_in_is_refused_before_it_is_read(app, client):
    body = CountingStream(300 * MIB, b"--x\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\n")
    r = client.post("/login", input_stream=body, csrf=False,
                    content_type="multipart/form-data; boundary=x", headers=EN)
    assert r.status_code == 413 and "too much to send at once" in r.get_data(as_text=True)
    assert body.read_bytes < MIB


def test_a_body_without_a_length_is_cut_off_at_the_limit(app, client):
    """Chunked, with no length announced: reading stops at the limit (a form is answered 413, a urlencoded body
    is cut there and refused as it stands)."""
    chunked = {"environ_overrides": {"wsgi.input_terminated": True}, "csrf": False}
    body = CountingStream(300 * MIB, b"--x\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\n")
    r = client.post("/login", input_stream=body, content_type="multipart/form-data; boundary=x",
                    headers={**ZH, "Transfer-Encoding": "chunked"}, **chunked)
    assert r.status_code == 413 and "一次发送的内容太多了" in r.get_data(as_text=True)
    assert body.read_bytes <= MIB + 64 * 1024
    body = CountingStream(300 * MIB)
    r = client.post("/login", input_stream=body, content_type="application/x-www-form-urlencoded",
                    headers={"Transfer-Encoding": "chunked"}, **chunked)
    assert r.status_code in (400, 413) and body.read_bytes <= MIB + 64 * 1024


def _multipart(fields: dict) -> dict:
    """A real multipart body, built in memory as a browser would send it."""
    from werkzeug.test import encode_multipart

    boundary, body = encode_multipart(fields)
    return {"data": body, "content_type": f"multipart/form-data; boundary={boundary}"}


def test_a_real_oversized_upload_gets_a_kid_friendly_413_in_both_languages(app, client):
    upload = _multipart({"email": "a@example.com", "file": FileStorage(io.BytesIO(b"x" * (2 * MIB)), "big.bin")})
    en = client.post("/login", **upload, headers=EN, csrf=False)
    assert en.status_code == 413 and "too much to send at once" in en.get_data(as_text=True)
    zh = client.post("/login", **upload, headers=ZH, csrf=False).get_data(as_text=True)
    assert "一次发送的内容太多了" in zh and 'lang="zh-Hans"' in zh


def test_a_huge_move_gets_a_413_the_board_can_show(demo, client):
    kid_login(demo, client)
    big = b'{"move": "' + b"D" * (2 * MIB) + b'"}'
    r = client.post("/learn/web-first/1/move", data=big, content_type="application/json", headers={**JSON, **EN})
    assert r.status_code == 413 and r.is_json
    assert r.json["result"] == "error" and "too much to send" in r.json["message"]


def test_a_json_request_without_accept_gets_json_errors_too(demo, client):
    kid_login(demo, client)
    r = client.post("/learn/web-first/1/move", data=b"[" + b"1," * MIB + b"1]", content_type="application/json")
    assert r.status_code == 413 and r.is_json


def test_honest_uploads_still_fit(demo, client):
    """A lesson file at the upload limit (64 KiB) is read and judged by the lesson checker, not refused at the
    door."""
    from teach.web.teacher.forms import UPLOAD_MAX

    sign_in_as(demo, client, "teacher")
    data = b"id: big\n" + b"# " + b"x" * (UPLOAD_MAX - 20) + b"\n"
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(data), "big.yaml")}, headers=EN)
    assert r.status_code in (200, 302, 422)


def test_one_huge_form_field_and_too_many_fields_are_refused(app, client):
    """Under the body limit, but a text field larger than any honest one, or more fields than any form has."""
    r = client.post("/login", **_multipart({"email": "x" * (300 * 1024)}), csrf=False, headers=EN)
    assert r.status_code == 413
    r = client.post("/login", **_multipart({f"f{i}": "1" for i in range(600)}), csrf=False, headers=EN)
    assert r.status_code == 413


def test_a_real_server_answers_a_huge_claimed_body_at_once(app):
    """Over a socket, as an attacker would: headers announcing 300 MB, then a trickle; the answer comes before
    the body does."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as s:
            s.sendall(b"POST /login HTTP/1.1\r\nHost: localhost\r\nAccept-Language: en\r\n"
                      b"Content-Type: multipart/form-data; boundary=x\r\n"
                      + f"Content-Length: {300 * MIB}\r\n\r\n".encode() + b"x" * 65536)
            answer = s.recv(65536)
        assert answer.startswith(b"HTTP/1.1 413")
    finally:
        server.shutdown()
        thread.join()


# ---------------------------------------------------------------------- malformed numbers and bodies (finding 12)
def _int_rules():
    """Every route with a number in its path, from the app's own URL map (new routes are probed too)."""
    from teach.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/r"})
        rules = []
        for rule in app.url_map.iter_rules():
            ints = [name for name, conv in rule._converters.items() if isinstance(conv, IntegerConverter)]
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                if ints:
                    rules.append(pytest.param(rule.rule, method, id=f"{method} {rule.rule}"))
        with app.app_context():
            db.engine.dispose()
        return rules


def _role_of(path: str) -> str | None:
    for prefix, role in (("/learn", "kid"), ("/practice", "kid"), ("/placement", "kid"), ("/play", "kid"),
                         ("/games", "kid"), ("/room/class", "teacher"), ("/room", "kid"), ("/live", "kid"),
                         ("/teach", "teacher"),
                         ("/family", "parent")):
        if path.startswith(prefix):
            return role
    return None


def _fill(rule: str, number: int) -> str:
    values = {"lesson_id": "web-first", "topic": "capture", "code": "CAT234"}
    return re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: str(number) if m.group(1) == "int" else values.get(m.group(2), "x"),
                  rule)


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    """The demo school, built once for the route probe below (its requests change nothing), on SQLite."""
    from flask_migrate import upgrade

    from teach.web import create_app
    from teach.web.demo import create_demo
    from conftest import WEB_LESSONS, CSRFClient

    folder = tmp_path_factory.mktemp("school")
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/s",
                      "LESSONS_DIR": str(WEB_LESSONS), "RATELIMIT_ENABLED": False})
    app.test_client_class = CSRFClient
    with app.app_context():
        upgrade()
        create_demo()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("rule, method", _int_rules())
def test_no_number_in_a_path_answers_500(school, rule, method):
    """Each number route, signed in as the role it is for: past a 64-bit id it is no page; the largest id that
    routes reaches the database and finds nothing."""
    client = school.test_client()
    sign_in_as(school, client, _role_of(rule))
    # digits of other scripts ("３", "٣") are no number anyone typed into this app: no page either
    for number, allowed in ((HUGE, {404}), (2**63, {404}), (2**63 - 1, {302, 400, 403, 404}), ("３", {404}),
                            ("٣", {404})):
        path = _fill(rule, number)
        if method == "GET":
            r = client.get(path)
        else:
            r = client.post(path, json={"move": "D4", "attempt": None, "ply": 0}, headers=JSON)
        assert r.status_code in allowed, (path, r.status_code)


@pytest.mark.parametrize("body", [
    {"move": "E4", "attempt": HUGE, "ply": 0},
    {"move": "E4", "attempt": -HUGE, "ply": 0},
    {"move": "E4", "attempt": None, "ply": HUGE},
])
def test_huge_numbers_in_a_move_answer_4xx(demo, client, body):
    kid_login(demo, client)
    r = client.post("/learn/web-first/1/move", json=body, headers=JSON)
    assert 400 <= r.status_code < 500 or r.status_code == 200, r.status_code


def test_moving_a_kid_to_a_huge_class_number_answers_4xx(demo, client):
    sign_in_as(demo, client, "teacher")
    with demo.app_context():
        group = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        class_id, kid_id = group.id, classroom.class_kids(group.id)[0].id
    r = client.post(f"/teach/classes/{class_id}/kids/{kid_id}/move", data={"to": str(HUGE)})
    assert 400 <= r.status_code < 500


@pytest.mark.parametrize("body", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    b"\xff\xfe not json",
    b'{"move": "D4"',
    b"NaN" * 10,
])
def test_bodies_that_cannot_be_read_answer_400(app, client, body):
    """Through the app's own JSON reading, as any route that reads a body strictly would."""
    from flask import request

    @app.post("/strict")
    def strict():
        return {"got": request.get_json()}

    r = client.post("/strict", data=body, content_type="application/json", headers=JSON)
    assert r.status_code == 400 and r.is_json


@pytest.mark.parametrize("body", ["x", 1, [1], None, {"what": 5, "email": 5, "password": 5, "name": 5, "names": 5,
                                                  "code": 5, "pictures": 5, "kids": [1, "x", None], "target": 5}])
def test_a_json_body_posted_to_a_form_page_is_an_empty_form_never_a_500(demo, client, body):
    """Form pages read form bodies; a JSON one (any shape, any types) is refused as an empty form would be."""
    paths = ["/login", "/signup", "/kids", "/kids/CAT234/1"]
    for path in paths:
        assert client.post(path, json=body).status_code < 500, path
    assert client.post("/login", data={"email": "teacher@example.com", "password": "black-cat-42"}).status_code == 302
    for path in ("/teach/classes", "/teach/classes/1/assignments", "/teach/classes/1/kids", "/teach/classes/1/rename",
                 "/teach/classes/1/teachers", "/teach/sgf", "/teach/lessons"):
        assert client.post(path, json=body).status_code < 500, path


def test_a_move_nested_100k_deep_is_answered_not_crashed(demo, client):
    kid_login(demo, client)
    r = client.post("/learn/web-first/1/move", data=b"[" * 100_000 + b"]" * 100_000,
                    content_type="application/json", headers=JSON)
    assert 400 <= r.status_code < 500


def test_a_database_overflow_anywhere_is_a_400(app, client):
    @app.get("/overflow")
    def overflow():
        return str(db.session.get(User, HUGE))

    r = client.get("/overflow", headers=EN)
    assert r.status_code == 400 and "not right" in r.get_data(as_text=True)
    assert client.get("/").status_code == 200  # the session was rolled back and serves on


# ---------------------------------------------------------------------- the secret key (finding 13)
RACER = """
import os, sys, time
from pathlib import Path
from teach.web import _instance_secret
folder, me = Path(sys.argv[1]), sys.argv[2]
os.umask(0)  # even a careless umask must not make the key readable by others
(folder / f"ready-{me}").touch()
while not (folder / "go").exists():
    time.sleep(0.001)
print(_instance_secret(folder / "instance"))
"""


def test_racing_workers_create_one_key_that_all_of_them_use(tmp_path):
    """Two processes start at the same instant on an empty instance folder, as gunicorn's workers do."""
    (tmp_path / "instance").mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(tmp_path), str(i)], stdout=subprocess.PIPE,
                               text=True, env=env) for i in range(2)]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("ready-*"))) < len(racers) and time.monotonic() < deadline:
        time.sleep(0.01)
    (tmp_path / "go").touch()
    keys = [r.communicate(timeout=120)[0].strip() for r in racers]
    assert [r.returncode for r in racers] == [0, 0]
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    path = tmp_path / "instance" / "secret_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().strip() == keys[0]


def test_the_key_file_is_never_readable_by_others_nor_overwritten(tmp_path, monkeypatch):
    from teach.web import _instance_secret

    modes = []
    real_open = os.open

    def watching_open(path, flags, mode=0o777, **kw):
        modes.append(mode)
        return real_open(path, flags, mode, **kw)

    monkeypatch.setattr(os, "open", watching_open)
    key = _instance_secret(tmp_path)
    assert modes and all(m & 0o077 == 0 for m in modes)  # created private, not chmod-ed afterwards
    assert _instance_secret(tmp_path) == key  # a second start reads it


def test_an_existing_key_is_kept(tmp_path):
    from teach.web import _instance_secret

    (tmp_path / "secret_key").write_text("kept-from-last-year\n")
    assert _instance_secret(tmp_path) == "kept-from-last-year"


def test_a_shared_database_without_a_shared_secret_is_warned_about(monkeypatch, caplog):
    import logging

    import teach.web
    from teach.web import create_app

    monkeypatch.delenv("TEACH_SECRET_KEY", raising=False)
    monkeypatch.setattr(teach.web, "_instance_secret", lambda instance: "k")
    with caplog.at_level(logging.WARNING):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u@127.0.0.1:1/none"})
    assert any("TEACH_SECRET_KEY" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
        create_app({"TESTING": True, "SECRET_KEY": "set", "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u@h/n"})
    assert caplog.records == []


def test_a_head_request_with_a_form_does_nothing(demo, client):
    """HEAD is routed to a page's GET view and CSRF is checked on POST only: a HEAD with the editor's form and no
    token used to save a puzzle and queue its proof. A body on a HEAD is refused; a plain HEAD is the page's."""
    from teach.models import TeacherLesson

    adult_login(client, "teacher@example.com", "black-cat-42")
    rows = "/".join(["........."] * 4 + ["....X...."] + ["........."] * 4)
    form = {"rows": rows, "to_play": "black", "goal": "capture", "target": "E5", "topic": "capture",
            "text_en": "Catch it"}
    r = client.open("/teach/editor", method="HEAD", data=form)
    assert r.status_code == 400
    assert client.open("/teach/editor", method="HEAD").status_code == 200
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(TeacherLesson)) == 0
    assert client.open("/learn/", method="HEAD", data=b"x" * 10).status_code == 400


@pytest.mark.parametrize("step", ["²", "9" * 5000, "٣"])
def test_a_board_opened_from_a_lesson_step_no_page_names_is_the_empty_board(demo, client, step):
    adult_login(client, "teacher@example.com", "black-cat-42")
    assert client.get(f"/teach/editor?from=web-first:{step}").status_code == 200
