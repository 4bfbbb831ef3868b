"""The move round-trip under load: a whole school playing at once, served the way the README deploys.

For each database (SQLite in a fresh folder, then a fresh PostgreSQL database), this script migrates it, adds the
demo school and bulk-inserts a thousand kids in classes of 25, serves ``teach.web:create_app()`` with gunicorn
(sync workers, several of them, Redis for the rate limits, as the README says), and starts the load generator in
a separate process. The generator signs every kid in as a kid does (class code page, picture password, the lesson
map; each kid from its own loopback address, like one tablet each, so the per-address login limits hold), then
taps puzzle moves with **open-loop arrivals** (Poisson, at the target rate whatever the server does; latency is
counted from the moment a tap was due, so a slow server cannot hide its queue). The moves are a realistic mix
from the demo lessons: right and wrong first moves of many puzzles, taps on occupied points, and multi-move lines
carried on with the ``attempt`` and ``ply`` the server gave when the judge said "continue".

``--scenario play`` puts every kid in a game against the computer instead (``PlayGenerator``): a tap is a game
move and the computer's reply, the target p99 300 ms.

Then a ramp finds the ceiling (the highest rate with p99 ≤ 100 ms and no error), and the same server setup runs
a bare Flask app (one trivial JSON view, made here) for the ratio.

    .venv/bin/python bench/web_load.py                       # both databases, 1,000 kids, 200 moves/s
    .venv/bin/python bench/web_load.py --scenario play --rate 100 --ramp 100,150,200   # games against the computer
    .venv/bin/python bench/web_load.py --db sqlite --kids 200 --duration 10 --ramp 200,300
    .venv/bin/python bench/web_load.py profile [--no-prewarm] [sqlite] [postgresql]   # one request taken apart

Why asyncio + aiohttp for the generator: open-loop arrivals need a request in flight for every due tap however
slow the server is, which threads would cap at the pool size; one event loop keeps a thousand kids' sessions
(their cookie jars) cheaply, and aiohttp's client costs a fraction of a millisecond of CPU per request, which
matters on a machine whose two cores also run the server.

Why the README's worker counts (``WORKERS``): a move is mostly Python CPU. On SQLite the waits are short, so one
worker per core is best: measured on this 2-core machine, 4 workers spent 7.0 ms of CPU per move against 5.1-6.0 ms
for 2 (they fight over the cores and over SQLite's write lock, whose busy handler sleeps), and 3 did worse still.
PostgreSQL's backends need CPU too and every statement is a round trip that leaves the worker waiting; there 2
workers queued for seconds and 4 (a second worker per core, running while the first waits) are better.
``--workers`` tries other counts.

Run it on a quiet machine. The table gives, per phase, the CPU per request of the workers, of the generator and of
the whole machine, and the hypervisor's steal; a line per phase sums the CPU by program, so other work sharing the
two cores shows by name. Lowering that work's priority does not make it quiet: with the kernel's autogroups each
terminal session gets an equal share of the cores whatever its processes' ``nice``. With a busy neighbour the
sustained p99 on PostgreSQL went from 30 ms to several seconds.

Taking a slow run apart: ``WEB_LOAD_TIMING=<folder>`` serves the app wrapped to log every request's wall time,
CPU time and run-queue wait; ``WEB_LOAD_SPY=<folder>`` samples every worker with py-spy through the sustained
phase (``web_load.py spy-report <folder>`` gives the share of each part); ``TEACH_BENCH_PG_HOST=/var/run/postgresql`` talks to PostgreSQL over its Unix socket.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

P99_LIMIT_MS = 100.0  # a puzzle move's target
PLAY_P99_LIMIT_MS = 300.0  # a game move's target: the kid's move and the computer's reply
WORKERS = {"sqlite": 2, "postgresql": 4, "bare": 2}  # gunicorn workers on 2 cores, as the README deploys
CLASS_SIZE = 25
# picture passwords handed out to the bench kids (hashing is slow on purpose: one hash per password, shared)
PASSWORDS = [("cat", "fish", "moon"), ("star", "apple", "sun"), ("flower", "tree", "cat"), ("moon", "moon", "star")]
AVATARS = ("panda", "tiger", "rabbit", "turtle", "bird", "dragon", "fish", "butterfly", "cat", "mouse", "kite")
MIX_TOPICS = ("capture", "escape", "ladder", "double-atari")
PG_ADMIN = "postgresql://127.0.0.1:5432/postgres"
PG_BENCH_DB = "teach_bench"
STARTUP_SECONDS = int(os.environ.get("WEB_LOAD_STARTUP", "1200"))  # a preloaded server's solving, busy machine


# ====================================================================== where a request's wall time goes
def timed_app():
    """``teach.web:create_app()`` wrapped to log, for every request a worker serves, its wall time inside the
    app, the CPU time of the worker thread, and the time the thread waited for a core (the scheduler's run-queue
    wait, from ``/proc/thread-self/schedstat``). Wall minus the two is time blocked: locks, disk, the database.
    Served instead of the plain app when ``WEB_LOAD_TIMING=<folder>`` is set; each worker writes
    ``<folder>/<pid>.tsv`` (start, path, wall, cpu, run-queue wait; seconds)."""
    from teach.web import create_app

    app = create_app()
    folder = Path(os.environ["WEB_LOAD_TIMING"])
    folder.mkdir(parents=True, exist_ok=True)
    inner = app.wsgi_app
    rows: list[str] = []

    def schedstat() -> tuple[float, float]:
        with open("/proc/thread-self/schedstat") as f:
            on_cpu, waiting, _ = f.read().split()
        return int(on_cpu) / 1e9, int(waiting) / 1e9

    def timed(environ, start_response):
        t0, (c0, w0) = time.perf_counter(), schedstat()
        try:
            return inner(environ, start_response)
        finally:
            c1, w1 = schedstat()
            rows.append(f"{time.time():.4f}\t{environ.get('PATH_INFO')}\t{time.perf_counter() - t0:.6f}\t"
                        f"{c1 - c0:.6f}\t{w1 - w0:.6f}\n")
            if len(rows) >= 200:
                with open(folder / f"{os.getpid()}.tsv", "a") as f:
                    f.writelines(rows)
                rows.clear()

    app.wsgi_app = timed
    return app


# ====================================================================== the bare endpoint
def bare_app():
    """The floor: Flask with one JSON view, nothing else (served by the same gunicorn setup)."""
    from flask import Flask, jsonify, request

    app = Flask("bare")

    @app.post("/move")
    def move():
        data = request.get_json(silent=True) or {}
        return jsonify(result="continue", move=data.get("move"), ply=data.get("ply"))

    @app.get("/")
    def home():
        return "ok"

    return app


# ====================================================================== the move mix
def puzzle_mix(lessons_dir: str, topics=MIX_TOPICS, max_depth: int = 6) -> list[dict]:
    """For each puzzle of the lessons of ``topics``: winning lines (each winning first move, then the judge's
    replies and the solution's moves, as a kid who has learnt the lesson plays them, ending in "correct"),
    refuted first moves, and occupied points. Read with the same judge as the app."""
    from teach.lessons import load_lessons

    catalog = load_lessons(lessons_dir)
    mix = []
    for topic_id in topics:
        topic = catalog.topic(topic_id)
        if topic is None:
            continue
        for lesson in sorted(topic.lessons, key=lambda l: (l.order, l.id)):
            for index, step in enumerate(lesson.steps):
                if step.kind != "puzzle":
                    continue
                judge = step.judge()
                start = step.start()
                solution = judge.solve()
                lines = []
                for first in sorted(solution.winning):
                    line, played, ok = [first], [], True
                    move = first
                    while ok:
                        v = judge.judge(played, move)
                        if v.result == "correct":
                            break
                        if v.result != "continue" or len(line) >= max_depth:
                            ok = False
                            break
                        played = played + [move] + ([v.reply] if v.reply else [])
                        game = judge._replay(played)
                        _, own = judge.best(game)  # the solution's next move
                        move = game.name(own) if own is not None else None
                        if move is None:
                            ok = False
                        else:
                            line.append(move)
                    if ok:
                        lines.append(line)
                wrong = sorted(solution.refutations)
                occupied = [f"{c}{r}" for c, r in _stones(start)]
                if lines:
                    mix.append({"lesson": lesson.id, "step": index, "lines": lines,
                                "wrong": random.Random(f"{lesson.id}/{index}").sample(wrong, min(6, len(wrong))),
                                "occupied": occupied[:4]})
    return mix


def cached_mix(lessons_dir: str) -> list[dict]:
    """The mix, read once per version of the lesson files (reading every puzzle takes a while on a busy machine)."""
    import hashlib
    import inspect

    digest = hashlib.sha256()
    for path in sorted(Path(lessons_dir).rglob("*.yaml")):
        digest.update(path.name.encode() + path.read_bytes())
    digest.update(inspect.getsource(puzzle_mix).encode())  # and of the way the mix is made
    cache = Path(tempfile.gettempdir()) / f"teach-web-load-mix-{digest.hexdigest()[:16]}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    mix = puzzle_mix(lessons_dir)
    cache.write_text(json.dumps(mix))
    return mix


def _stones(game):
    from teach.go.coords import COLUMNS

    for i, row in enumerate(game.board_rows()):
        for col, ch in enumerate(row):
            if ch in "XO":
                yield COLUMNS[col], game.size - i


# ====================================================================== databases
def fresh_database(kind: str, folder: Path) -> str:
    """A new, empty database: a SQLite file in ``folder``, or PostgreSQL's ``teach_bench`` dropped and made anew."""
    if kind == "sqlite":
        return f"sqlite:///{folder / 'teach.sqlite'}"
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_BENCH_DB}")
    # TEACH_BENCH_PG_HOST=/var/run/postgresql: the server's Unix socket instead of TCP on the loopback
    host = os.environ.get("TEACH_BENCH_PG_HOST")
    return f"postgresql:///{PG_BENCH_DB}?host={host}" if host else f"postgresql://127.0.0.1:5432/{PG_BENCH_DB}"


def drop_database(kind: str) -> None:
    if kind == "postgresql":
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")


def populate(url: str, kids: int, lessons: list[str]) -> list[dict]:
    """Migrate, add the demo school, and bulk-insert ``kids`` kids in classes of 25 with the mix's lessons
    started (so they are open to them). Returns [{id, code, pictures}] for the load generator."""
    import sqlalchemy as sa
    from flask_migrate import upgrade
    from werkzeug.security import generate_password_hash

    from teach.models import Group, LessonProgress, Membership, User, new_code, utcnow
    from teach.web import _database_url, create_app
    from teach.web.demo import create_demo
    from teach.web.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": _database_url(url), "SECRET_KEY": "bench-populate"})
    with app.app_context():
        upgrade()
        create_demo()
        hashes = [generate_password_hash("-".join(p)) for p in PASSWORDS]
        n_classes = (kids + CLASS_SIZE - 1) // CLASS_SIZE
        codes = []
        while len(codes) < n_classes:
            code = new_code()
            if code not in codes:
                codes.append(code)
        db.session.execute(sa.insert(Group), [{"kind": "class", "name": f"Bench class {i + 1}", "code": c}
                                              for i, c in enumerate(codes)])
        group_ids = dict(db.session.execute(sa.select(Group.code, Group.id).where(Group.code.in_(codes))).all())
        db.session.execute(sa.insert(User), [
            {"role": "kid", "name": f"kid{i:04d}", "avatar": AVATARS[i % len(AVATARS)],
             "picture_hash": hashes[i % len(hashes)]} for i in range(kids)])
        ids = dict(db.session.execute(sa.select(User.name, User.id).where(User.name.like("kid%"))).all())
        db.session.execute(sa.insert(Membership), [
            {"group_id": group_ids[codes[i // CLASS_SIZE]], "user_id": ids[f"kid{i:04d}"], "role": "kid"}
            for i in range(kids)])
        if lessons:  # the play scenario opens no lesson
            # learned already: a kid may play any step of a finished lesson again (a lesson not finished is done
            # in order, and the mix taps puzzles all through each lesson)
            done = utcnow()
            db.session.execute(sa.insert(LessonProgress), [
                {"kid_id": ids[f"kid{i:04d}"], "lesson_id": lesson_id, "step": 0, "stars": 0, "finished_at": done}
                for i in range(kids) for lesson_id in lessons])
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return [{"id": ids[f"kid{i:04d}"], "code": codes[i // CLASS_SIZE], "pictures": list(PASSWORDS[i % 4])}
            for i in range(kids)]


# ====================================================================== the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn as the README runs it: ``gunicorn -w N 'teach.web:create_app()'`` (sync workers)."""

    def __init__(self, app_spec: str, workers: int, env: dict, chdir: Path = ROOT, preload: bool = False,
                 threads: int = 0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        kind = ["-k", "gthread", "--threads", str(threads)] if threads else []  # the README's district deployment
        self.cmd = [str(ROOT / ".venv/bin/gunicorn"), "-w", str(workers), *kind, "-b", f"127.0.0.1:{self.port}",
                    "--chdir", str(chdir), "--log-level", "warning", "--timeout", "60",
                    *(["--preload"] if preload else []), app_spec]
        self.env = {**os.environ, **env}
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        self.proc = subprocess.Popen(self.cmd, env=self.env, cwd=ROOT, start_new_session=True)
        # a preloaded app solves every lesson puzzle before it listens: minutes on a machine shared with others
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            self.__exit__()  # the server that never listened must not stay behind, still solving
            raise RuntimeError(f"gunicorn did not start listening within {STARTUP_SECONDS} s")
        return self

    def workers(self) -> list[int]:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def cpu_seconds(self) -> float:
        """User + system CPU of the master's worker processes so far."""
        total = 0
        for pid in self.workers():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


# ====================================================================== the load generator (its own process)
def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(q / 100 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def summarise(name: str, rate: float, duration: float, samples: list[tuple[float, int, str]],
              elapsed: float) -> dict:
    lat = sorted(s[0] for s in samples if s[1] == 0)
    served = sum(1 for s in samples if s[2] != "no-idle-kid")
    errors = sum(1 for s in samples if s[1] != 0)
    kinds: dict[str, int] = {}
    for _, _, kind in samples:
        kinds[kind] = kinds.get(kind, 0) + 1
    return {"phase": name, "rate": rate, "duration": duration, "sent": len(samples), "ok": len(lat),
            "errors": errors, "achieved": len(samples) / elapsed if elapsed else 0.0,
            "p50": percentile(lat, 50), "p90": percentile(lat, 90), "p99": percentile(lat, 99),
            "max": lat[-1] if lat else float("nan"), "kinds": kinds, "served": served,
            "load": os.getloadavg()[0]}


class Kid:
    def __init__(self, spec: dict, index: int) -> None:
        self.spec = spec
        self.address = f"127.{1 + index // 62500}.{(index // 250) % 250 + 1}.{index % 250 + 1}"
        self.session = None
        self.token = None
        self.line: dict | None = None  # the line being played: puzzle, moves left, attempt, ply


class Generator:
    """Signs the kids in, then taps moves at a fixed arrival rate (Poisson), whatever the server answers."""

    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.url = plan["url"]
        self.rng = random.Random(plan.get("seed", 7))
        self.everyone = [Kid(k, i) for i, k in enumerate(plan.get("kids", []))]
        self.kids = list(self.everyone)
        self.continuing: list[Kid] = []  # kids whose last move was answered "continue"
        self.busy: set[int] = set()
        self.surprises = 0

    async def session_for(self, kid: Kid):
        import aiohttp

        # a browser resends a request whose reused connection the server had just closed; aiohttp does not, so
        # the kid's tablet lets an idle connection go before a threaded server's keep-alive (gunicorn: 2 s) does
        connector = aiohttp.TCPConnector(local_addr=(kid.address, 0), limit=4, keepalive_timeout=1.0)
        return aiohttp.ClientSession(self.url, connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     timeout=aiohttp.ClientTimeout(total=30))

    async def sign_in(self, kid: Kid) -> bool:
        kid.session = await self.session_for(kid)
        code, kid_id = kid.spec["code"], kid.spec["id"]
        async with kid.session.get(f"/kids/{code}/{kid_id}") as r:
            page = await r.text()
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        if token is None:
            return False
        form = {"csrf_token": token.group(1), "pictures": ",".join(kid.spec["pictures"])}
        async with kid.session.post(f"/kids/{code}/{kid_id}", data=form, allow_redirects=False) as r:
            if r.status != 302 or not r.headers.get("Location", "").endswith("/learn/"):
                return False
        async with kid.session.get("/learn/") as r:
            page = await r.text()
        meta = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        kid.token = meta.group(1) if meta else None
        return kid.token is not None

    async def sign_in_all(self, concurrency: int = 8) -> dict:
        sem = asyncio.Semaphore(concurrency)
        latencies, failed = [], 0

        async def one(kid):
            nonlocal failed
            async with sem:
                t = time.perf_counter()
                try:
                    ok = await self.sign_in(kid)
                except Exception:  # noqa: BLE001  (counted, reported)
                    ok = False
                latencies.append((time.perf_counter() - t) * 1000)
                failed += not ok

        t0 = time.perf_counter()
        await asyncio.gather(*(one(k) for k in self.kids))
        elapsed = time.perf_counter() - t0
        lat = sorted(latencies)
        self.kids = [k for k in self.kids if k.token]
        return {"kids": len(latencies), "signed_in": len(self.kids), "failed": failed, "seconds": elapsed,
                "per_second": len(latencies) / elapsed, "p50": percentile(lat, 50), "p99": percentile(lat, 99)}

    # -------------------------------------------------------------- one tap
    def next_tap(self) -> tuple[Kid, dict, dict] | None:
        """Who taps now and what: a kid carrying on a line the judge said "continue" to, else a new first move."""
        while self.continuing:
            kid = self.continuing.pop(0)
            if kid.line and kid.spec["id"] not in self.busy:
                line = kid.line
                return kid, line, {"move": line["moves"][0], "attempt": line["attempt"], "ply": line["ply"]}
        for _ in range(20):
            kid = self.rng.choice(self.kids)
            if kid.spec["id"] not in self.busy and kid.line is None:
                break
        else:
            return None
        puzzle = self.rng.choice(self.plan["mix"])
        roll = self.rng.random()
        if roll < 0.55:
            moves, expect = list(self.rng.choice(puzzle["lines"])), "right"
        elif roll < 0.95 or not puzzle["occupied"]:
            moves, expect = [self.rng.choice(puzzle["wrong"])], "wrong"
        else:
            moves, expect = [self.rng.choice(puzzle["occupied"])], "occupied"
        kid.line = {"puzzle": puzzle, "moves": moves, "attempt": None, "ply": 0, "expect": expect}
        return kid, kid.line, {"move": moves[0], "attempt": None, "ply": 0}

    async def tap(self, kid: Kid, line: dict, body: dict, due: float, samples: list) -> None:
        puzzle = line["puzzle"]
        self.busy.add(kid.spec["id"])
        kind = "first" if body["attempt"] is None else "continue"
        try:
            async with kid.session.post(f"/learn/{puzzle['lesson']}/{puzzle['step']}/move", json=body,
                                        headers={"X-CSRFToken": kid.token}) as r:
                answer = await r.json(content_type=None) if r.status in (200, 400, 409) else None
                status = r.status
        except Exception as e:  # noqa: BLE001  (a refused or timed-out request is an error)
            samples.append(((time.perf_counter() - due) * 1000, 1, f"exception:{type(e).__name__}"))
            kid.line = None
            self.busy.discard(kid.spec["id"])
            return
        latency = (time.perf_counter() - due) * 1000
        self.busy.discard(kid.spec["id"])
        if status != 200 or answer is None:
            samples.append((latency, 1, f"http-{status}"))
            kid.line = None
            return
        result = answer.get("result")
        samples.append((latency, 0, f"{kind}:{result}"))
        line["moves"].pop(0)
        if result == "continue" and line["moves"]:
            line["attempt"], line["ply"] = answer.get("attempt"), answer.get("ply")
            self.continuing.append(kid)
        else:
            expected = {"right": ("correct",), "wrong": ("wrong",), "occupied": ("illegal",)}[line["expect"]]
            if result not in expected:
                self.surprises += 1
            kid.line = None

    async def tap_bare(self, kid: Kid, body: dict, due: float, samples: list) -> None:
        try:
            async with self.bare_session.post("/move", json=body) as r:
                await r.read()
                status = r.status
        except Exception as e:  # noqa: BLE001
            samples.append(((time.perf_counter() - due) * 1000, 1, f"exception:{type(e).__name__}"))
            return
        samples.append(((time.perf_counter() - due) * 1000, 0 if status == 200 else 1, f"http-{status}"))

    # -------------------------------------------------------------- a phase at a fixed rate
    async def phase(self, name: str, rate: float, duration: float, bare: bool = False) -> dict:
        samples: list[tuple[float, int, str]] = []
        tasks = set()
        loop = asyncio.get_running_loop()
        start = loop.time() + 0.05
        t0 = time.perf_counter() + 0.05
        due = 0.0
        while True:
            due += self.rng.expovariate(rate)
            if due >= duration:
                break
            delay = start + due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            due_perf = t0 + due
            if bare:
                coro = self.tap_bare(None, {"move": "D4", "attempt": None, "ply": 0}, due_perf, samples)
            else:
                pick = self.next_tap()
                if pick is None:  # every kid is waiting for an answer: the tap is due and counts as an error
                    samples.append((0.0, 1, "no-idle-kid"))
                    continue
                coro = self.tap(*pick, due_perf, samples)
            task = asyncio.ensure_future(coro)
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.wait(tasks, timeout=60)
        elapsed = time.perf_counter() - t0
        return summarise(name, rate, duration, samples, elapsed)

    async def run(self) -> dict:
        import aiohttp

        out: dict = {"phases": []}
        bare = self.plan.get("bare", False)
        if bare:
            self.bare_session = aiohttp.ClientSession(self.url, connector=aiohttp.TCPConnector(limit=0),
                                                      timeout=aiohttp.ClientTimeout(total=30))
        else:
            out["sign_in"] = await self.sign_in_all()
            if not self.kids:
                return out
        try:
            for ph in self.plan["phases"]:
                report_cpu(ph["name"], "start")
                own, machine = time.process_time(), machine_cpu()
                res = await self.phase(ph["name"], ph["rate"], ph["duration"], bare=bare)
                res["server_cpu"] = report_cpu(ph["name"], "end")
                res["generator_cpu"] = time.process_time() - own
                res["machine_cpu"], res["steal"] = (b - a for a, b in zip(machine, machine_cpu()))
                out["phases"].append(res)
                print(json.dumps({"progress": res["phase"], "rate": res["rate"], "p99": res["p99"],
                                  "errors": res["errors"]}), file=sys.stderr, flush=True)
                if ph.get("ramp") and (res["p99"] > self.plan.get("p99_limit", P99_LIMIT_MS) or res["errors"]):
                    break
        finally:
            if bare:
                await self.bare_session.close()
            for kid in self.everyone:
                if kid.session:
                    await kid.session.close()
        out["surprises"] = self.surprises
        return out



class PlayGenerator(Generator):
    """The play scenario: every kid signed in starts a game against the computer (a level from the plan's mix,
    capture games on 7x7 and 9x9 and whole games on 9x9), then taps moves in it at the arrival rate. A tap is a
    kid's move and the computer's reply, in one request, as the game page sends it. The kid's moves come from
    the board the server answered with: a random empty point next to a stone most of the time (so groups touch
    and get captured), anywhere now and then; a pass once the computer has passed or the game is long. A game
    that ends (captures, resignation, two passes and counting) is replaced by a new one before the kid taps
    again; starting games is part of the load but not of the move latencies."""

    GAMES = ({"kind": "capture", "size": "7", "goal": "3"}, {"kind": "capture", "size": "9", "goal": "5"},
             {"kind": "full", "size": "9"})
    LONG_GAME = 110  # plies: a kid who has played this long passes

    async def sign_in(self, kid: Kid) -> bool:
        return await super().sign_in(kid) and await self.new_game(kid)

    async def new_game(self, kid: Kid) -> bool:
        async with kid.session.get("/play/") as r:
            page = await r.text()
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        if token is None:
            return False
        settings = self.rng.choice(self.GAMES)
        form = {"csrf_token": token.group(1), **settings, "color": "black",
                "who": str(self.rng.choice(self.plan["levels"]))}
        async with kid.session.post("/play/new", data=form, allow_redirects=False) as r:
            where = r.headers.get("Location", "")
            found = re.search(r"/play/(\d+)$", where)
            if r.status != 302 or not found:
                return False
        kid.line = {"game": int(found.group(1)), "ply": 0, "rows": None, "passed": False}
        async with kid.session.get(where) as r:
            page = await r.text()
        ply = re.search(r'data-ply="(\d+)"', page)
        kid.line["ply"] = int(ply.group(1)) if ply else 0
        return True

    def kid_move(self, kid: Kid) -> str:
        line = kid.line
        rows = line["rows"]
        if line["passed"] or line["ply"] >= self.LONG_GAME:
            return "pass"
        if rows is None:
            return "E5" if self.rng.random() < 0.5 else "D4"
        from teach.go.coords import COLUMNS

        size = len(rows)
        empty, near = [], []
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != ".":
                    continue
                name = f"{COLUMNS[c]}{size - r}"
                empty.append(name)
                if any(0 <= r + dr < size and 0 <= c + dc < size and rows[r + dr][c + dc] != "."
                       for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                    near.append(name)
        if not empty:
            return "pass"
        return self.rng.choice(near if near and self.rng.random() < 0.8 else empty)

    def next_tap(self):
        for _ in range(20):
            kid = self.rng.choice(self.kids)
            if kid.spec["id"] not in self.busy and kid.line is not None:
                return kid, kid.line, {"move": self.kid_move(kid), "ply": kid.line["ply"]}
        return None

    async def tap(self, kid: Kid, line: dict, body: dict, due: float, samples: list) -> None:
        self.busy.add(kid.spec["id"])
        try:
            try:
                async with kid.session.post(f"/play/{line['game']}/move", json=body,
                                            headers={"X-CSRFToken": kid.token}) as r:
                    answer = await r.json(content_type=None) if r.status in (200, 400, 409) else None
                    status = r.status
            except Exception as e:  # noqa: BLE001  (a refused or timed-out request is an error)
                samples.append(((time.perf_counter() - due) * 1000, 1, f"exception:{type(e).__name__}"))
                return
            latency = (time.perf_counter() - due) * 1000
            if answer is None or status not in (200, 409):
                samples.append((latency, 1, f"http-{status}"))
                return
            result = answer.get("result")
            kind = "pass" if body["move"] == "pass" else "move"
            samples.append((latency, 0, f"{kind}:{result}"))
            if result in ("ok", "stale"):
                line["ply"] = answer.get("ply", line["ply"])
                line["rows"] = answer.get("rows") or line["rows"]
                line["passed"] = answer.get("reply") == "pass"
            if answer.get("state") != "playing":
                try:
                    if not await self.new_game(kid):
                        self.surprises += 1
                except Exception:  # noqa: BLE001
                    self.surprises += 1
        finally:
            self.busy.discard(kid.spec["id"])


def machine_cpu() -> tuple[float, float]:
    """CPU seconds the whole machine has been busy (every process at normal priority and the kernel: the
    server, the database, the generator; not ``nice``d work) and stolen by the hypervisor, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, _nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + system + irq + softirq) / tick, steal / tick


def report_cpu(phase: str, when: str) -> float | None:
    """Ask the orchestrator (on our stdin/stdout) for the server's CPU seconds at a phase boundary."""
    print(json.dumps({"cpu": phase, "when": when}), flush=True)
    line = sys.stdin.readline()
    return json.loads(line)["cpu"] if line else None


def drive(plan_path: str, out_path: str) -> None:
    plan = json.loads(Path(plan_path).read_text())
    generator = PlayGenerator if plan.get("scenario") == "play" else Generator
    result = asyncio.run(generator(plan).run())
    Path(out_path).write_text(json.dumps(result))


def spy(server: Server, phase_name: str, plan: dict, folder: Path) -> None:
    """With ``WEB_LOAD_SPY=<folder>`` (and py-spy on the PATH or in ``PY_SPY``), sample every worker through the
    sustained phase: where the server's CPU goes under the real load, which the in-process profile cannot show."""
    out = os.environ.get("WEB_LOAD_SPY")
    if not out or phase_name != "sustained":
        return
    duration = next(p["duration"] for p in plan["phases"] if p["name"] == phase_name)
    Path(out).mkdir(parents=True, exist_ok=True)
    for pid in server.workers():
        subprocess.Popen([os.environ.get("PY_SPY", "py-spy"), "record", "--nonblocking", "-r", "200", "-d",
                          str(int(duration)), "-p", str(pid), "-f", "raw", "-o", f"{out}/{pid}.txt"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


SPY_SERVER_PARTS = [  # gunicorn's own work on a request, beside the app's (PARTS)
    ("gunicorn: read and parse the request", "gunicorn/http/message.py", "Request.__init__"),
    ("gunicorn: write the response", "gunicorn/http/wsgi.py", "Response.write"),
    ("gunicorn: close the connection", "gunicorn/util.py", "close_graceful"),
]


def spy_report(folder: Path) -> None:
    """The py-spy samples of a ``WEB_LOAD_SPY`` run, by part: the share of the workers' samples in which each
    part (``PARTS``, and gunicorn's own) is on the stack. Under the real load, unlike ``profile``: a thousand kids'
    rows, gunicorn's sockets, the machine's two cores shared with the generator and the database."""
    counts: dict[str, int] = {}
    total = 0
    # a frame reads "Class.function (package/file.py:line)"; a part names its function, with or without the class
    parts = [(label.strip(), fragment, {f.rpartition(".")[2] for f in (func if isinstance(func, tuple) else (func,))})
             for label, fragment, func in PARTS + SPY_SERVER_PARTS]
    for path in sorted(folder.glob("*.txt")):
        for line in path.read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            if not n.isdigit():
                continue
            total += int(n)
            frames = [(f.rpartition(" (")[0], f.rpartition(" (")[2].split(":")[0]) for f in stack.split(";")]
            for label, fragment, funcs in parts:
                if any(file.endswith(fragment) and name.rpartition(".")[2] in funcs for name, file in frames):
                    counts[label] = counts.get(label, 0) + int(n)
    print(f"py-spy samples of the workers: {total} (each part: its share of the samples with it on the stack)")
    for label, _, _ in parts:
        print(f"  {label:<40}{100 * counts.get(label, 0) / max(total, 1):>6.1f} %")


def run_generator(server: Server, plan: dict, folder: Path) -> dict:
    """The load generator in its own process; it asks for the server's CPU time at every phase boundary."""
    plan_path, out_path = folder / "plan.json", folder / "result.json"
    plan_path.write_text(json.dumps({**plan, "url": server.url}))
    proc = subprocess.Popen([sys.executable, __file__, "drive", str(plan_path), str(out_path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    cpu_at, by_program = {}, {}
    for line in proc.stdout:
        ask = json.loads(line)
        now = server.cpu_seconds()
        if ask["when"] == "start":
            by_program[ask["cpu"]] = cpu_by_program()
            cpu_at[ask["cpu"]] = now
            spy(server, ask["cpu"], plan, folder)
            proc.stdin.write(json.dumps({"cpu": now}) + "\n")
        else:
            start = by_program.get(ask["cpu"], {})
            by_program[ask["cpu"]] = {k: v - start.get(k, 0.0) for k, v in cpu_by_program().items()
                                      if v - start.get(k, 0.0) > 0.005}
            proc.stdin.write(json.dumps({"cpu": now - cpu_at.get(ask["cpu"], now)}) + "\n")
        proc.stdin.flush()
    if proc.wait() != 0:
        raise RuntimeError("the load generator failed")
    result = json.loads(out_path.read_text())
    for ph in result["phases"]:
        ph["cpu_by_program"] = by_program.get(ph["phase"], {})
    return result


def cpu_by_program() -> dict[str, float]:
    """CPU seconds used so far by every live process, summed by program name (gunicorn, postgres, python...);
    niced processes apart, so other work on the machine shows as such."""
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        fields = rest.split()
        name = head.split("(", 1)[1] + (" (niced)" if int(fields[16]) > 0 else "")
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


# ====================================================================== one request, taken apart
PARTS = [  # (part, file fragment, function or functions): cumulative CPU of each, per move request
    ("whole request", "flask/app.py", "wsgi_app"),
    ("session cookie (open)", "flask/sessions.py", "open_session"),
    ("session cookie (save)", "flask/sessions.py", "save_session"),
    ("load the kid (Flask-Login)", "teach/web/__init__.py", "load_user"),
    ("language (select_locale)", "teach/web/i18n.py", "select_locale"),
    ("CSRF check", "flask_wtf/csrf.py", "protect"),
    ("rate-limit check", "flask_limiter/_extension.py", "_check_request_limit"),
    ("  Redis commands", "redis/client.py", "execute_command"),
    ("move view", "teach/web/kid.py", "move"),
    ("  lesson open? (progress query)", "teach/web/kid.py", "_open_lesson_or_404"),
    ("  puzzle start position", "teach/lessons/model.py", "start"),
    ("  request body (JSON)", "teach/web/moves.py", "json_body"),
    ("  open attempt (_open_attempt)", "teach/web/moves.py", "_open_attempt"),
    ("  judge (verdict)", "teach/go/judge.py", "judge"),
    ("  board rows (replay)", "teach/web/moves.py", ("_rows_after_move_and_reply", "boards_after", "rows_after")),
    ("  kid's words (gettext)", "flask_babel/__init__.py", "gettext"),
    ("  progress row (_progress_for)", "teach/web/kid.py", "_progress_for"),
    ("  stars, sticker (_advance)", "teach/web/kid.py", "_advance"),
    ("  milestones", "teach/web/moves.py", "new_milestones"),
    ("  DB flush (insert/update)", "sqlalchemy/orm/session.py", "flush"),
    ("  DB commit", "sqlalchemy/orm/session.py", "commit"),
    ("  jsonify", "flask/json/__init__.py", "jsonify"),
    ("SQL statements (all)", "sqlalchemy/engine/base.py", "_execute_context"),
    ("ORM rows to objects", "sqlalchemy/orm/loading.py", "instances"),
    ("column values (attempt.moves JSON..)", "sqlalchemy/sql/sqltypes.py", "process"),
    ("Jinja templates", "jinja2/environment.py", "render"),
]


def profile(kind: str, rounds: int = 3, prewarm: bool = True, redis: str = "redis://127.0.0.1:6379/7") -> None:
    """Play the mix through one kid in-process (Flask's test client, no HTTP): CPU per move request, and where
    it goes (cProfile, cumulative per part). The app solves the lesson puzzles first as the README's deployment
    does (``prewarm``; without it the first round warms the mix's lines); the first round shows what is still cold,
    the next rounds a warm worker. Rate limits are kept in Redis as the bench's server keeps them (``redis``,
    memory:// when it is not there); the SQL statements a move issues are counted."""
    import cProfile
    import pstats

    sys.path.insert(0, str(ROOT / "bench"))
    from flask_migrate import upgrade
    from page_weight import signed_in_client

    import sqlalchemy as sa

    from teach.models import LessonProgress, utcnow
    from teach.web import _database_url, create_app
    from teach.web.extensions import db

    mix = cached_mix(str(ROOT / "lessons"))
    with tempfile.TemporaryDirectory(prefix="teach-web-profile-") as tmp:
        url = fresh_database(kind, Path(tmp))
        try:
            app = create_app({"SQLALCHEMY_DATABASE_URI": _database_url(url), "SECRET_KEY": "bench",
                              "RATELIMIT_STORAGE_URI": _redis_or_memory(redis), "PREWARM_JUDGES": prewarm})
            statements = [0]
            with app.app_context():
                upgrade()
                sa.event.listen(db.engine, "before_cursor_execute", lambda *a: statements.__setitem__(0, statements[0] + 1))
            client = signed_in_client(app, mix[0]["lesson"], 0)
            with app.app_context():
                kid_id = db.session.scalar(sa.select(LessonProgress.kid_id))
                db.session.execute(sa.update(LessonProgress).values(finished_at=utcnow()))
                db.session.execute(sa.insert(LessonProgress), [  # learned: any step may be played again
                    {"kid_id": kid_id, "lesson_id": l, "step": 0, "finished_at": utcnow()}
                    for l in sorted({p["lesson"] for p in mix}) if l != mix[0]["lesson"]])
                db.session.commit()
            token = re.search(r'csrf-token" content="([^"]+)"', client.get("/learn/").get_data(as_text=True)).group(1)

            def play_mix() -> int:
                n = 0
                for p in mix:
                    path = f"/learn/{p['lesson']}/{p['step']}/move"
                    for moves in [[m] for m in p["wrong"][:2]] + p["lines"][:1] + [p["occupied"][:1]]:
                        attempt, ply = None, 0
                        for m in moves:
                            r = client.post(path, json={"move": m, "attempt": attempt, "ply": ply},
                                            headers={"X-CSRFToken": token})
                            n += 1
                            body = r.get_json()
                            if body.get("result") != "continue":
                                break
                            attempt, ply = body["attempt"], body["ply"]
                return n

            t, cpu = time.perf_counter(), time.process_time()
            n = play_mix()
            print(f"{kind}: first round (cold judges): {n} moves, {(time.process_time() - cpu) / n * 1000:.2f} ms "
                  f"CPU and {(time.perf_counter() - t) / n * 1000:.2f} ms wall per move")
            t, cpu, n, statements[0] = time.perf_counter(), time.process_time(), 0, 0
            for _ in range(rounds):
                n += play_mix()
            print(f"{kind}: warm: {n} moves, {(time.process_time() - cpu) / n * 1000:.2f} ms CPU and "
                  f"{(time.perf_counter() - t) / n * 1000:.2f} ms wall per move, {statements[0] / n:.2f} SQL "
                  f"statements per move (load average {os.getloadavg()[0]:.1f})")
            # CPU time, not wall: on a machine shared with others the wall clock counts their work too
            prof = cProfile.Profile(time.process_time)
            prof.enable()
            n = play_mix()
            prof.disable()
            stats = pstats.Stats(prof).stats
            print(f"  where a move request's CPU goes (cProfile, {n} moves; profiling inflates every call):")
            if os.environ.get("PROFILE_TOP"):
                order = os.environ.get("PROFILE_SORT", "tottime")  # or cumulative
                pstats.Stats(prof).sort_stats(order).print_stats(int(os.environ["PROFILE_TOP"]))
            for label, fragment, func in PARTS:
                names = func if isinstance(func, tuple) else (func,)
                # a function called inside another listed one under a second name is counted once: take the largest
                ct = max(sum(v[3] for (file, _, name), v in stats.items() if name == f and file.endswith(fragment))
                         for f in names)
                print(f"  {label:<34}{ct / n * 1000:>8.2f} ms")
            with app.app_context():
                db.session.remove()
                db.engine.dispose()
        finally:
            drop_database(kind)


def _redis_or_memory(url: str) -> str:
    try:
        import redis

        redis.Redis.from_url(url, socket_timeout=1).ping()
        return url
    except Exception:  # no Redis here: the limits in memory, as a single process keeps them
        return "memory://"


# ====================================================================== the orchestra
def phases(args, ramp: list[float]) -> list[dict]:
    out = [{"name": "warm-up", "rate": args.warmup_rate, "duration": args.warmup}] if args.warmup else []
    out.append({"name": "sustained", "rate": args.rate, "duration": args.duration})
    out += [{"name": f"ramp {r:g}/s", "rate": r, "duration": args.step_seconds, "ramp": True} for r in ramp]
    return out


def ceiling(phases_done: list[dict], limit: float = P99_LIMIT_MS) -> float | None:
    best = None
    for ph in phases_done:
        if ph["phase"].startswith("ramp"):
            if ph["p99"] <= limit and not ph["errors"]:
                best = ph["rate"]
            else:
                break
    return best


def bench_database(kind: str, args, mix: list[dict]) -> dict:
    with tempfile.TemporaryDirectory(prefix="teach-web-load-") as tmp:
        folder = Path(tmp)
        url = fresh_database(kind, folder)
        try:
            t = time.perf_counter()
            lessons = sorted({p["lesson"] for p in mix})
            kids = populate(url, args.kids, lessons)
            setup = time.perf_counter() - t
            env = {"DATABASE_URL": url, "REDIS_URL": args.redis, "TEACH_SECRET_KEY": "bench-" + os.urandom(8).hex(),
                   "TEACH_PREWARM_JUDGES": "true" if args.prewarm else "false"}
            spec, chdir = "teach.web:create_app()", ROOT
            if os.environ.get("WEB_LOAD_TIMING"):
                spec, chdir = "web_load:timed_app()", ROOT / "bench"
                env["PYTHONPATH"] = str(ROOT)
            with Server(spec, args.workers or WORKERS[kind], env, chdir=chdir, preload=args.prewarm,
                        threads=args.threads) as server:
                result = run_generator(server, {"kids": kids, "mix": mix, "phases": phases(args, args.ramp),
                                                "seed": args.seed, "scenario": args.scenario,
                                                "levels": args.levels, "p99_limit": args.limit}, folder)
        finally:
            drop_database(kind)
    result["setup_seconds"] = setup
    return result


def bench_bare(args) -> dict:
    with tempfile.TemporaryDirectory(prefix="teach-web-load-") as tmp:
        with Server("web_load:bare_app()", args.workers or WORKERS["bare"], {}, chdir=ROOT / "bench",
                    threads=args.threads) as server:
            return run_generator(server, {"bare": True, "phases": phases(args, args.bare_ramp), "seed": args.seed},
                                 Path(tmp))


def print_table(title: str, result: dict, limit: float = P99_LIMIT_MS) -> None:
    print(f"\n{title}")
    if "sign_in" in result:
        s = result["sign_in"]
        print(f"  sign-in: {s['signed_in']}/{s['kids']} kids in {s['seconds']:.1f} s ({s['per_second']:.1f}/s, "
              f"p50 {s['p50']:.0f} ms, p99 {s['p99']:.0f} ms per kid: code page, pictures, map)")
    print(f"  {'phase':<14}{'target/s':>9}{'done/s':>8}{'sent':>7}{'errors':>7}{'p50 ms':>8}{'p90 ms':>8}"
          f"{'p99 ms':>8}{'max ms':>8}{'server cpu':>11}{'gen cpu':>8}{'all cpu':>8}{'steal':>6}{'load':>6}")
    for ph in result["phases"]:
        cpu = ph.get("server_cpu")
        served = max(1, ph["served"])
        per = f"{cpu / served * 1000:.2f}" if cpu is not None else "-"
        print(f"  {ph['phase']:<14}{ph['rate']:>9g}{ph['achieved']:>8.0f}{ph['sent']:>7}{ph['errors']:>7}"
              f"{ph['p50']:>8.1f}{ph['p90']:>8.1f}{ph['p99']:>8.1f}{ph['max']:>8.0f}{per:>11}"
              f"{ph['generator_cpu'] / served * 1000:>8.2f}{ph.get('machine_cpu', 0) / served * 1000:>8.2f}"
              f"{ph.get('steal', 0) / ph['duration']:>6.0%}{ph['load']:>6.1f}")
    sustained = next((p for p in result["phases"] if p["phase"] == "sustained"), None)
    for ph in result["phases"]:
        if ph.get("cpu_by_program") and not ph["phase"].startswith("ramp"):
            served = max(1, ph["served"])
            top = sorted(ph["cpu_by_program"].items(), key=lambda kv: -kv[1])[:6]
            print(f"  {ph['phase']} CPU by program, ms per request: "
                  + ", ".join(f"{name} {cpu / served * 1000:.2f}" for name, cpu in top))
    if sustained and "sign_in" in result:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(sustained["kinds"].items()))
        print(f"  sustained mix: {kinds}; surprises (judge answered otherwise than read beforehand): "
              f"{result.get('surprises', 0)}")
    print("  (server cpu, gen cpu, all cpu: CPU milliseconds per request of the gunicorn workers, of the load "
          "generator, and of the whole machine (database and kernel included); steal: CPU the hypervisor took, "
          "per second of the phase; load: the machine's 1-minute load average, on 2 cores)")
    c = ceiling(result["phases"], limit)
    print(f"  ceiling (p99 ≤ {limit:g} ms, no error): {f'{c:g}/s' if c else 'below the first ramp step'}")


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "drive":
        drive(sys.argv[2], sys.argv[3])
        return 0
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "spy-report":
        spy_report(Path(sys.argv[2]))
        return 0
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "profile":
        # --no-prewarm: the mix's own first round warms its lines (minutes sooner on a busy machine)
        kinds = [a for a in sys.argv[2:] if a != "--no-prewarm"]
        for kind in kinds or ["sqlite", "postgresql"]:
            profile(kind, prewarm="--no-prewarm" not in sys.argv)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default="sqlite,postgresql", help="comma-separated: sqlite, postgresql")
    ap.add_argument("--kids", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: WORKERS per database)")
    ap.add_argument("--threads", type=int, default=0,
                    help="gunicorn gthread workers with this many threads each (the README's district deployment; "
                         "the bare endpoint too); 0: sync workers")
    ap.add_argument("--rate", type=float, default=200.0, help="moves per second, sustained")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of the sustained phase")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of warm-up before (reported, not judged)")
    ap.add_argument("--warmup-rate", type=float, default=50.0)
    ap.add_argument("--ramp", type=lambda s: [float(x) for x in s.split(",") if x],
                    default=[200, 250, 300, 350, 400, 500, 600, 800])
    ap.add_argument("--bare-ramp", type=lambda s: [float(x) for x in s.split(",") if x],
                    default=[200, 400, 600, 800, 1000, 1300, 1600, 2000])
    ap.add_argument("--step-seconds", type=float, default=10.0, help="seconds per ramp step")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/7", help="rate-limit storage (the README's Redis)")
    ap.add_argument("--no-bare", action="store_true")
    ap.add_argument("--no-prewarm", dest="prewarm", action="store_false",
                    help="serve without solving the lesson puzzles first (gunicorn --preload, as the README deploys)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scenario", choices=("lessons", "play"), default="lessons",
                    help="lessons: puzzle moves (the default); play: moves in games against the computer")
    ap.add_argument("--levels", type=lambda s: [int(x) for x in s.split(",") if x], default=[1, 2, 3, 4, 5, 6],
                    help="play: the computer levels the kids' games are against, drawn evenly")
    args = ap.parse_args(argv)
    args.limit = PLAY_P99_LIMIT_MS if args.scenario == "play" else P99_LIMIT_MS
    if args.scenario == "play":
        print(f"scenario: every kid in a game against the computer (levels {', '.join(map(str, args.levels))}; "
              f"capture games 7x7 and 9x9, whole games 9x9), one tap = the kid's move and the computer's reply")

    t = time.perf_counter()
    mix = cached_mix(str(ROOT / "lessons")) if args.scenario == "lessons" else []  # games need no puzzle mix
    if mix:
        n_lines = sum(len(p["lines"]) for p in mix)
        longest = max(len(l) for p in mix for l in p["lines"])
        print(f"move mix: {len(mix)} puzzles from {len({p['lesson'] for p in mix})} lessons "
              f"({', '.join(MIX_TOPICS)}), {n_lines} winning lines (up to {longest} kid moves), "
              f"read in {time.perf_counter() - t:.1f} s")
    workers = args.workers or ", ".join(f"{k} {v}" for k, v in WORKERS.items())
    served = f"gthread workers × {args.threads} threads" if args.threads else "sync workers"
    print(f"server: gunicorn -w {workers} ({served}{', --preload with every lesson puzzle solved first' if args.prewarm else ''}), "
          f"Redis rate limits; {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.1f}")
    results = {}
    for kind in [d.strip() for d in args.db.split(",") if d.strip()]:
        results[kind] = bench_database(kind, args, mix)
        print_table(f"{kind}: {args.kids} kids, setup (migrate + bulk insert) {results[kind]['setup_seconds']:.1f} s;"
                    f" load average now {os.getloadavg()[0]:.1f}", results[kind], args.limit)
    if not args.no_bare:
        results["bare"] = bench_bare(args)
        print_table("bare Flask endpoint (same gunicorn setup, one trivial JSON view)", results["bare"], args.limit)
    print("\nsummary")
    bare = results.get("bare")
    bare_sus = next((p for p in bare["phases"] if p["phase"] == "sustained"), None) if bare else None
    ok = True
    for kind, res in results.items():
        sus = next((p for p in res["phases"] if p["phase"] == "sustained"), None)
        if sus is None:
            print(f"  {kind}: no sustained phase (sign-in failed?)")
            ok = False
            continue
        c = ceiling(res["phases"], args.limit)
        line = (f"  {kind:<11} {sus['rate']:g}/s: p50 {sus['p50']:.1f} ms, p99 {sus['p99']:.1f} ms, "
                f"errors {sus['errors']}; ceiling {f'{c:g}/s' if c else '< first step'}")
        if kind != "bare" and bare_sus:
            bc = ceiling(bare["phases"], args.limit)
            line += f"; ×bare p50 {sus['p50'] / bare_sus['p50']:.1f}"
            if c and bc:
                line += f", bare ceiling / ceiling {bc / c:.1f}"
            met = sus["p99"] <= args.limit and not sus["errors"]
            ok &= met
            line += "  target " + ("met" if met else "MISSED")
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
