"""What the browser tests share: Debian's chromium through Playwright, and a live server for an app."""

from __future__ import annotations

import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                    reason="chromium is not installed (apt-get install chromium)")


class _Served:
    """The app as the test server runs it: each response body closed even when the browser hangs up in the middle
    of it, and the requests still being answered counted, so the server can wait for the last one to end.

    werkzeug's development server reads what is left of a request before it closes the body, and when the browser
    has already reset the connection (it does, cutting a ranged 206 short) that read raises and the body's file is
    never closed; the warning then fails whichever test is running. A generator's ``finally`` runs when the server
    drops it, so the file is closed either way.

    Shutting the server down stops it taking new connections but leaves the threads of requests already taken
    running (a page's last heartbeat, a question held until its game changes). One that ended after its test
    would hold a database connection past the test's teardown, whose pool is gone by then (the connection is left
    open and garbage-collected in a later test, which fails on the warning), or write into the next test's tables."""

    def __init__(self, app) -> None:
        self.app = app
        self.active = 0
        self.idle = threading.Condition()

    def __call__(self, environ, start_response):
        with self.idle:
            self.active += 1
        body = None
        try:
            body = self.app(environ, start_response)
            yield from body
        finally:
            if hasattr(body, "close"):
                body.close()
            with self.idle:
                self.active -= 1
                self.idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self.idle:
            return self.idle.wait_for(lambda: self.active == 0, timeout)


@contextmanager
def serving(app):
    """The app on a free local port, in a thread, for as long as the block lasts: yields its base URL. When the
    block ends, the requests still being answered are waited for (a held question ends within its hold)."""
    served = _Served(app)
    srv = make_server("127.0.0.1", 0, served, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join()
        srv.server_close()
        assert served.wait_idle(60), "a request was still being answered a minute after its test"


@pytest.fixture(scope="module")
def browser():
    """One headless chromium per test module (test modules import this fixture by name)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-quic", "--no-first-run"])
        yield b
        b.close()
