"""Class dashboard render time: a class of 40 kids × 80 lessons on the map (60 of them homework), with progress,
steps shown, attempts and games everywhere.

Usage: python bench/dashboard.py [RUNS] [POSTGRES_URL]
  (PostgreSQL also from BENCH_DATABASE_URL; default postgresql://postgres@127.0.0.1:5432/test when reachable)

Reports the SQL statements per render and p50/p95 wall time per request through the Flask test client, on SQLite
and on PostgreSQL. The machine is shared: compare runs, not absolute numbers.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

WEB_LESSONS = ROOT / "tests" / "web_lessons"


def many_lessons(folder: Path, n: int) -> Path:
    """A lessons folder with ``n`` small lessons (copies of a test lesson under new ids)."""
    root = folder / "lessons"
    shutil.copytree(WEB_LESSONS, root)
    source = (root / "capture" / "web-second.yaml").read_text()
    for i in range(n - 2):
        text = source.replace("id: web-second", f"id: many-{i}").replace("order: 2", f"order: {i + 3}")
        (root / "capture" / f"many-{i}.yaml").write_text(text.replace("web-second-star", f"many-{i}-star"))
    return root


def fill_class(kids: int, lessons: int, seed: int = 1, assigned: int | None = None) -> int:
    """A teacher (bench@example.com / bench-password), a class of ``kids`` kids, the first ``assigned`` catalogue
    lessons (all of the first ``lessons`` when None) assigned, progress plus a few attempts (each after its step
    was shown) for most cells, and a few finished games per kid. Returns the class id."""
    from teach.models import (Assignment, Attempt, Group, LessonProgress, Membership, PlayedGame, StepShown, User,
                              utcnow)
    from teach.web import content
    from teach.web.extensions import db

    rnd = random.Random(seed)
    teacher = User(role="teacher", name="Bench", email="bench@example.com")
    teacher.set_password("bench-password")
    group = Group(kind="class", name="Bench class")
    group.members.append(Membership(user=teacher, role="teacher"))
    db.session.add(group)
    members = []
    for i in range(kids):
        kid = User(role="kid", name=f"Kid {i:02d}", avatar="cat", picture_hash="x")
        group.members.append(Membership(user=kid, role="kid"))
        members.append(kid)
    db.session.flush()
    lesson_ids = [l.id for l in content.ordered_lessons()][:lessons]
    today = date.today()
    now = utcnow()
    for n, lesson_id in enumerate(lesson_ids[:assigned]):
        db.session.add(Assignment(group_id=group.id, lesson_id=lesson_id, due_on=today + timedelta(n % 7 - 3)))
    for kid in members:
        for lesson_id in lesson_ids:
            if rnd.random() < 0.8:
                done = rnd.random() < 0.6
                db.session.add(LessonProgress(kid_id=kid.id, lesson_id=lesson_id, stars=rnd.randint(1, 3) if done
                                              else 0, hints=rnd.randint(0, 2), finished_at=now if done else None))
                for _ in range(rnd.randint(1, 4)):
                    start = now - timedelta(seconds=rnd.randint(30, 900), days=rnd.randint(0, 9))
                    db.session.add(StepShown(kid_id=kid.id, lesson_id=lesson_id, step=0,
                                             shown_at=start - timedelta(seconds=rnd.randint(3, 90))))
                    db.session.add(Attempt(kid_id=kid.id, lesson_id=lesson_id, step=0, first_move="A1",
                                           moves=[{"move": "A1", "verdict": "wrong"}],
                                           result=rnd.choice(["solved", "failed"]), started_at=start,
                                           finished_at=start + timedelta(seconds=rnd.randint(5, 200))))
        for _ in range(rnd.randint(0, 3)):
            db.session.add(PlayedGame(kid_id=kid.id, kind="capture", size=9, komi=0.0, capture_goal=1,
                                      kid_color="black", opponent="computer", level=1, moves=["E5", "D5"], ply=2,
                                      state="finished", result="B+C1", winner=rnd.choice(["black", "white"]),
                                      finished_at=now))
    db.session.commit()
    return group.id


def run(url: str, lessons_dir: Path, runs: int) -> tuple[int, list[float]]:
    from flask_migrate import downgrade, upgrade

    from teach.web import create_app
    from teach.web.extensions import db

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url,
                      "LESSONS_DIR": str(lessons_dir), "WTF_CSRF_ENABLED": False})
    with app.app_context():
        downgrade(revision="base")
        upgrade()
        class_id = fill_class(40, 80, assigned=60)
    client = app.test_client()
    client.post("/login", data={"email": "bench@example.com", "password": "bench-password"})
    statements: list[str] = []
    def count(conn, cursor, statement, *args):
        statements.append(statement)

    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", count)
    times = []
    client.get(f"/teach/classes/{class_id}/dashboard")  # warm the lesson catalogue
    statements.clear()
    for _ in range(runs):
        t = time.perf_counter()
        assert client.get(f"/teach/classes/{class_id}/dashboard").status_code == 200
        times.append(time.perf_counter() - t)
    per_render = len(statements) // runs  # counted before the schema is taken down (its DDL is no render's)
    with app.app_context():
        sa.event.remove(db.engine, "before_cursor_execute", count)
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()
    return per_render, times


def main(argv: list[str]) -> None:
    from teach.web import _database_url

    runs = int(argv[0]) if argv else 30
    pg = argv[1] if len(argv) > 1 else os.environ.get("BENCH_DATABASE_URL",
                                                       "postgresql://postgres@127.0.0.1:5432/test")
    with tempfile.TemporaryDirectory() as tmp:
        lessons_dir = many_lessons(Path(tmp), 80)
        targets = [("SQLite", f"sqlite:///{tmp}/bench.sqlite"), ("PostgreSQL", _database_url(pg))]
        print(f"class dashboard, 40 kids x 80 lessons (60 assigned), {runs} renders")
        for name, url in targets:
            try:
                queries, times = run(url, lessons_dir, runs)
            except sa.exc.OperationalError as e:
                print(f"{name:10} skipped: {e.orig}")
                continue
            q = statistics.quantiles(times, n=20)
            print(f"{name:10} {queries} queries/render  p50 {statistics.median(times) * 1000:6.1f} ms  "
                  f"p95 {q[18] * 1000:6.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
