"""The proof queue: a teacher's upload waits in a ``ProofJob`` for the reader to prove it, outside the request.

The upload page runs the quick checks only, stores the job and shows its page. Runners claim queued jobs with
one ``UPDATE ... WHERE status = 'queued'`` whose row count says who won, so however many threads, workers and
instances look, a job runs once; the database's partial unique indexes keep one job running per teacher and one
pending job per content. The proof runs in a child process killed at ``PROOF_DEADLINE_SECONDS`` (see
``teach.lessons.prover``); a proof that cannot finish in time is refused with a message the page words.

A runner is a daemon thread of the app process, started when a job is submitted or its page is looked at (never
in ``create_app``: gunicorn ``--preload`` forks after it, and threads do not survive a fork), that stops when
nothing is left to claim. ``PROOF_WORKERS`` of them at most per process. ``teach proofs run`` works the queue
once from the command line. A job whose runner died is taken again, or failed after ``MAX_TRIES`` claims.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import threading
from datetime import timedelta

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.exc import IntegrityError

from teach.lessons import prover
from teach.models import ProofJob, TeacherLesson, User, utcnow
from teach.web import content
from teach.web.extensions import db

DEFAULTS = {
    "PROOF_DEADLINE_SECONDS": 60,  # wall-clock seconds one proof may take, all in
    "PROOF_WORKERS": 1,  # proofs running at once in one app process
    "PROOF_QUEUE_PER_TEACHER": 3,  # a teacher's uploads waiting (besides the one being proven)
    "PROOF_GRACE_SECONDS": 30,  # past its deadline, a running job without a live runner is taken again
    "PROOF_RUNNER": True,  # start runner threads in the app; False: only `teach proofs run` works the queue
}
MAX_TRIES = 2
KEEP_DAYS = 30  # days a finished job stays listed


def setting(name: str):
    return current_app.config.get(name, DEFAULTS[name])


def content_hash(kind: str, source: str, fields: dict) -> str:
    """What makes two uploads the same: the kind, the text, the form (not the lesson id made up for it)."""
    same = {k: v for k, v in fields.items() if k != "lesson_id"}
    return hashlib.sha256(json.dumps([kind, source, same], sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _pending_same(owner_id: int, digest: str) -> ProofJob | None:
    return db.session.scalar(sa.select(ProofJob).where(ProofJob.owner_id == owner_id,
                                                       ProofJob.content_hash == digest,
                                                       ProofJob.status.in_(("queued", "running"))))


def submit(owner_id: int, kind: str, filename: str, source: str, fields: dict | None = None) -> ProofJob | None:
    """Queue an upload that passed the quick checks: the job (an earlier one when the same upload is still
    pending), or None when the teacher's queue is full (nothing is stored then)."""
    fields = fields or {}
    digest = content_hash(kind, source, fields)
    for _ in range(3):
        found = _pending_same(owner_id, digest)
        if found is not None:
            return found
        # one teacher's submissions one at a time: PostgreSQL locks the teacher's row; SQLite holds its write
        # lock from the insert on, so the count below sees every other submission's job
        db.session.execute(sa.select(User.id).where(User.id == owner_id).with_for_update())
        job = ProofJob(owner_id=owner_id, kind=kind, filename=filename, source=source, fields=fields,
                       content_hash=digest, status="queued")
        db.session.add(job)
        try:
            db.session.flush()
        except IntegrityError:  # the same upload went in an instant ago: answer with that one
            db.session.rollback()
            continue
        waiting = db.session.scalar(sa.select(sa.func.count()).select_from(ProofJob).where(
            ProofJob.owner_id == owner_id, ProofJob.status == "queued"))
        if waiting > setting("PROOF_QUEUE_PER_TEACHER"):
            db.session.rollback()
            return None
        db.session.commit()
        ensure_runner()
        return job
    return _pending_same(owner_id, digest)


def queue_position(job: ProofJob) -> int:
    """Jobs ahead of this one, of every teacher (runners take the oldest first)."""
    return db.session.scalar(sa.select(sa.func.count()).select_from(ProofJob).where(
        ProofJob.status == "queued", ProofJob.id < job.id))


# ---------------------------------------------------------------------- claiming and running
def _runner_name() -> str:
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{threading.get_ident() % 100000}"


def sweep_stale() -> None:
    """Jobs left running by a runner that died: taken again, or failed once they have had ``MAX_TRIES``; finished
    jobs past ``KEEP_DAYS`` dropped."""
    cutoff = utcnow() - timedelta(seconds=setting("PROOF_DEADLINE_SECONDS") + setting("PROOF_GRACE_SECONDS"))
    stale = sa.and_(ProofJob.status == "running", ProofJob.started_at < cutoff)
    db.session.execute(sa.update(ProofJob).where(stale, ProofJob.tries >= MAX_TRIES).values(
        status="failed", result={"errors": [], "problem": "lost"}, finished_at=utcnow()))
    db.session.execute(sa.update(ProofJob).where(stale).values(status="queued", runner=None))
    # answers are kept a while for the teacher's list, not for ever
    db.session.execute(sa.delete(ProofJob).where(ProofJob.status.in_(("done", "refused", "failed")),
                                                 ProofJob.finished_at < utcnow() - timedelta(days=KEEP_DAYS)))
    db.session.commit()


def claim() -> ProofJob | None:
    """The oldest queued job this runner won, now ``running``; None when there is none it may take."""
    sweep_stale()
    name = _runner_name()
    for job_id in db.session.scalars(sa.select(ProofJob.id).where(ProofJob.status == "queued")
                                     .order_by(ProofJob.id).limit(50)).all():
        try:
            won = db.session.execute(
                sa.update(ProofJob).where(ProofJob.id == job_id, ProofJob.status == "queued")
                .values(status="running", started_at=utcnow(), runner=name, tries=ProofJob.tries + 1)
                .execution_options(synchronize_session=False)).rowcount == 1
            db.session.commit()
        except IntegrityError:  # its teacher has a proof running already
            db.session.rollback()
            continue
        if won:
            return db.session.get(ProofJob, job_id)
    return None


def _request(job: ProofJob) -> dict:
    if job.kind == "lesson":
        return {"kind": "lesson", "source": job.source, "filename": job.filename}
    return {"kind": "sgf", **{k: job.fields[k] for k in ("setup", "lesson_id", "topic", "goal", "targets", "text",
                                                          "title")}, "hint": job.fields.get("hint")}  # not in older jobs


def run(job: ProofJob) -> str:
    """Prove a claimed job and record the answer (the lesson saved when it checks out); its final status."""
    job_id, runner, request = job.id, job.runner, _request(job)
    db.session.commit()
    db.session.close()  # no connection is held while the proof runs
    deadline = float(setting("PROOF_DEADLINE_SECONDS"))

    def started(pid: int) -> None:
        db.session.execute(sa.update(ProofJob).where(ProofJob.id == job_id, ProofJob.runner == runner)
                           .values(result={"child": pid}).execution_options(synchronize_session=False))
        db.session.commit()
        db.session.close()

    try:
        answer = prover.run(request, deadline, on_start=started)
    except Exception as e:  # the child could not be started (no memory, no processes left)
        answer = {"status": "crashed", "detail": repr(e)}
    return finish(job_id, runner, answer, deadline)


def finish(job_id: int, runner: str, answer: dict, deadline: float) -> str:
    result = {"errors": answer.get("errors", []), "puzzles": answer.get("puzzles", 0), "problem": None}
    status, lesson = "refused", None
    if answer["status"] == "deadline":
        result.update(problem="deadline", deadline=deadline)
    elif answer["status"] == "crashed":
        status, result["problem"] = "failed", "crashed"
        current_app.logger.warning("proof job %s stopped: %s", job_id, answer.get("detail"))
    elif answer["status"] == "errors":
        result["problem"] = None if result["errors"] else "unproven"
        if answer.get("solution"):  # a refused board-editor puzzle: the reading that refused it, for its page
            result["solution"] = answer["solution"]
    else:
        job = db.session.get(ProofJob, job_id)
        if job is None:  # its teacher was deleted meanwhile
            return "gone"
        found = answer["lesson"]
        result.update(title=found["title"], unproven=answer.get("unproven", 0),
                      unproven_steps=answer.get("unproven_steps", []), puzzles=answer.get("puzzles", 0))
        if content.catalog().topic(found["topic"]) is None:
            result.update(problem="topic", topic=found["topic"])
        elif found["id"] in content.catalog().lessons or db.session.scalar(sa.select(TeacherLesson.id).where(
                TeacherLesson.lesson_id == found["id"])) is not None:  # any teacher's (see _queue_upload)
            result.update(problem="exists", lesson_id=found["id"])
        else:
            status = "done"
            if answer.get("solution"):  # a one-puzzle lesson: its winners and refutations, for the editor's page
                result["solution"] = answer["solution"]
            lesson = TeacherLesson(owner_id=job.owner_id, lesson_id=found["id"], filename=job.filename,
                                   source=answer["source"], proofs=answer.get("proofs") or None)
    if lesson is not None:
        db.session.add(lesson)
        try:
            db.session.flush()
            result["lesson_pk"] = lesson.id
        except IntegrityError:  # the same lesson id saved by another upload an instant ago
            db.session.rollback()
            status, lesson = "refused", None
            result.update(problem="exists", lesson_id=answer["lesson"]["id"])
    mine = db.session.execute(
        sa.update(ProofJob).where(ProofJob.id == job_id, ProofJob.status == "running", ProofJob.runner == runner)
        .values(status=status, result=result, seconds=round(answer.get("seconds", 0.0), 2), finished_at=utcnow())
        .execution_options(synchronize_session=False)).rowcount == 1
    if mine:
        db.session.commit()
    else:  # taken from this runner as stale (or its teacher deleted): the answer is no longer this runner's
        db.session.rollback()
    return status


def run_next() -> str | None:
    """Claim and run one job; its final status, or None when nothing could be claimed."""
    job = claim()
    return run(job) if job is not None else None


def run_queue() -> int:
    """Work the queue until nothing can be claimed (``teach proofs run``, tests): the jobs run."""
    ran = 0
    while run_next() is not None:
        ran += 1
    return ran


# ---------------------------------------------------------------------- runner threads
class _Runners:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.wake = False


def _runners(app: Flask) -> _Runners:
    with _lock:
        return app.extensions.setdefault("teach.proofs", _Runners())


_lock = threading.Lock()


def ensure_runner(app: Flask | None = None) -> None:
    """A runner in this process for the queue (up to ``PROOF_WORKERS``); an idle one is told to look again."""
    app = app or current_app._get_current_object()
    if not app.config.get("PROOF_RUNNER", DEFAULTS["PROOF_RUNNER"]):
        return
    runners = _runners(app)
    with runners.lock:
        runners.wake = True
        if len(runners.threads) < max(1, int(app.config.get("PROOF_WORKERS", DEFAULTS["PROOF_WORKERS"]))):
            thread = threading.Thread(target=_loop, args=(app, runners), name="teach-proofs", daemon=True)
            runners.threads.append(thread)
            thread.start()


def _loop(app: Flask, runners: _Runners) -> None:
    me = threading.current_thread()
    try:
        while True:
            with app.app_context():
                try:
                    ran = run_next() is not None
                except Exception:  # a broken database or job must not end the runner silently
                    app.logger.exception("the proof runner failed")
                    ran = False
                finally:
                    db.session.remove()
            if ran:
                continue
            with runners.lock:  # leaving and being counted change together, so no wake-up is lost
                if not runners.wake:
                    runners.threads.remove(me)
                    return
                runners.wake = False
    except BaseException:
        with runners.lock:
            if me in runners.threads:
                runners.threads.remove(me)
        raise


def join_runners(app: Flask, timeout: float = 60.0) -> bool:
    """Wait for this process's runners to stop (tests, shutdown); False if one is still running."""
    runners = _runners(app)
    with runners.lock:
        threads = list(runners.threads)
    for thread in threads:
        thread.join(timeout)
    return not any(t.is_alive() for t in threads)
