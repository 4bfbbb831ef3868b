"""How soon a fresh server serves kids: gunicorn started as the README deploys it (``--preload``, sync workers), on a
migrated database with the demo school, and the clock running from the spawn until

- **listening**: the port accepts a connection;
- **page**: a kid (明明, class CAT234) has signed in with her pictures and her first lesson page is on screen;
- **moves**: one first move answered on every lesson puzzle of the curriculum, each request timed (the proofs in
  ``lessons/proofs.json`` answer them with lookups; a puzzle without a complete proof is read live, in the
  request, unless ``TEACH_PREWARM_JUDGES`` solved its first moves before the workers started).

Each database (SQLite, PostgreSQL) is measured without prewarming, and with it (``--prewarm``), in one run:

    .venv/bin/python bench/startup.py                      # SQLite and PostgreSQL, without prewarming
    .venv/bin/python bench/startup.py --prewarm both        # ... and with it, for the comparison
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from web_load import Server, drop_database, fresh_database  # noqa: E402

KID, CODE, PICTURES = "明明", "CAT234", "cat,fish,moon"  # the demo's first kid (README)


class Browser:
    """A kid's tablet: cookies kept, the CSRF token read from the pages as the pages send it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=120) as r:
            page = r.read().decode()
        found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page) or \
            re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        if found:
            self.token = found.group(1)
        return page

    def post(self, path: str, form: dict | None = None, json_body: bytes | None = None) -> tuple[int, bytes]:
        headers = {"X-CSRFToken": self.token}
        if json_body is not None:
            data, headers["Content-Type"] = json_body, "application/json"
        else:
            data = urllib.parse.urlencode({"csrf_token": self.token, **(form or {})}).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method="POST")
        try:
            with self.opener.open(request, timeout=120) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()


def kid_with_every_lesson_done(url: str) -> int:
    """Migrate, add the demo school, mark every lesson of the curriculum finished for its first kid (so any step
    may be opened), and return her id."""
    import sqlalchemy as sa
    from flask_migrate import upgrade

    from teach.lessons import load_lessons
    from teach.models import LessonProgress, User, utcnow
    from teach.web import _database_url, create_app
    from teach.web.demo import create_demo
    from teach.web.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": _database_url(url), "SECRET_KEY": "bench-startup"})
    with app.app_context():
        upgrade()
        create_demo()
        found = db.session.scalar(sa.select(User.id).where(User.name == KID))
        db.session.execute(sa.delete(LessonProgress).where(LessonProgress.kid_id == found))
        db.session.execute(sa.insert(LessonProgress), [
            {"kid_id": found, "lesson_id": lesson.id, "step": len(lesson.steps), "stars": 3, "finished_at": utcnow()}
            for lesson in load_lessons().lessons.values()])
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return found


def puzzle_steps() -> list[tuple[str, int, str]]:
    """(lesson id, step index, a first move) for every lesson puzzle: the first legal move of its position."""
    from teach.lessons import load_lessons

    found = []
    for lesson in load_lessons().lessons.values():
        for index, step in enumerate(lesson.steps):
            if step.kind == "puzzle":
                found.append((lesson.id, index, step.start().legal_moves()[0]))
    return found


def measure(kind: str, prewarm: bool, steps: list, folder: Path) -> dict:
    url = fresh_database(kind, folder)
    kid = kid_with_every_lesson_done(url)
    env = {"DATABASE_URL": url, "TEACH_SECRET_KEY": "bench-startup", "REDIS_URL": "redis://127.0.0.1:6379/7",
           "TEACH_PREWARM_JUDGES": "true" if prewarm else "false", "TEACH_RATELIMIT_ENABLED": "false"}
    started = time.monotonic()
    with Server("teach.web:create_app()", 2, env, preload=True) as server:
        listening = time.monotonic() - started
        browser = Browser(server.url)
        browser.get(f"/kids/{CODE}/{kid}")
        status, _ = browser.post(f"/kids/{CODE}/{kid}", {"pictures": PICTURES})
        assert status in (200, 302), status
        browser.get("/learn/")
        page = time.monotonic() - started
        times = []
        for lesson_id, index, move in steps:
            browser.get(f"/learn/{lesson_id}/{index}")
            t = time.monotonic()
            body = f'{{"move": "{move}", "ply": 0}}'.encode()
            status, _ = browser.post(f"/learn/{lesson_id}/{index}/move", json_body=body)
            times.append(time.monotonic() - t)
            assert status == 200, (lesson_id, index, status)
        moves = time.monotonic() - started
    drop_database(kind)
    times.sort()
    return {"listening": listening, "page": page, "moves": moves, "count": len(times),
            "p50": times[len(times) // 2], "p99": times[int(len(times) * 0.99)], "max": times[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--prewarm", choices=["no", "yes", "both"], default="no")
    args = ap.parse_args()
    steps = puzzle_steps()
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    warms = {"no": [False], "yes": [True], "both": [False, True]}[args.prewarm]
    print(f"gunicorn -w 2 --preload, {len(steps)} lesson puzzles, a first move on each\n")
    print(f"| database | prewarm | listening s | kid's first page s | every puzzle's first move done s | "
          f"move p50 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        for prewarm in warms:
            with tempfile.TemporaryDirectory() as folder:
                r = measure(kind, prewarm, steps, Path(folder))
            print(f"| {kind} | {'yes' if prewarm else 'no'} | {r['listening']:.1f} | {r['page']:.1f} | "
                  f"{r['moves']:.1f} | {r['p50'] * 1000:.0f} | {r['p99'] * 1000:.0f} | {r['max'] * 1000:.0f} |",
                  flush=True)


if __name__ == "__main__":
    main()
