"""The review of a finished game, outside the request: which captures the kid missed, which stones in atari they
left, which moves put their own stones in atari — each kept as a ``MissedCapture``, a retry puzzle.

The queue is the games themselves: a finished game with ``reviewed`` false waits; ``review_started_at`` says a
runner has it. A runner claims a game with one ``UPDATE ... WHERE reviewed is false and review_started_at is
null`` whose row count says who won, so however many threads, workers and instances look, a game is reviewed
once; the findings are written in the same transaction that sets ``reviewed``, and only by the runner whose claim
still stands (the unique constraint on game, move and kind guards the rest). A claim older than the deadline and
its grace (its runner died) is taken again.

The review itself (``teach.go.review.review_game``) is pure-Python reading: it runs in a niced child process given
``REVIEW_SECONDS`` to think and killed at ``REVIEW_DEADLINE_SECONDS`` all in, so a web worker never spends its
CPU or its time on it. A review that crashes or overruns leaves the game reviewed with no findings (and a line in
the log): the kid's page never waits for ever.

Runners are daemon threads of the app process, started when a kid's page finds a game waiting (or the play pages
call ``ensure_runner`` when a game ends), never in ``create_app`` (gunicorn ``--preload`` forks after it); each
stops when nothing is left to claim. ``run_queue`` works the queue in the calling thread (tests, the command line).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.exc import IntegrityError

from teach.go.review import review_game
from teach.models import REVIEW_KINDS, MissedCapture, PlayedGame, utcnow
from teach.web.extensions import db

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULTS = {
    # the review's own thinking budget (review_game's ``seconds``): every claim is read again one ply deeper, and
    # on an open 7x7 or 9x9 board that takes seconds per finding on this project's 2-core machine
    "REVIEW_SECONDS": 20.0,
    "REVIEW_DEADLINE_SECONDS": 45.0,  # wall-clock seconds for the child process, starting it included
    "REVIEW_GRACE_SECONDS": 30.0,  # past the deadline, a claim without an answer is taken again
    "REVIEW_RUNNER": True,  # start runner threads in the app; False: only run_queue works the queue
}
GOALS = ("capture", "save")
MAX_FINDINGS = 50  # kept per game: more is not a review a kid can use
# CPU seconds one retry puzzle's whole proof may take in the review's child (every move a kid can play, at every
# position the kid can reach, judged once): a bigger one (a long chase on an open board) is read live instead
PROOF_SECONDS = 3.0
PROOF_MARGIN = 3.0  # wall-clock seconds kept free before the child's deadline, to write its answer


def setting(name: str):
    return current_app.config.get(name, DEFAULTS[name])


def review(game, color: str, seconds: float) -> list:
    """The one call to the engine's review (in the child process)."""
    return review_game(game, color, seconds=seconds)


# ---------------------------------------------------------------------- the state a page shows
def status(row: PlayedGame) -> str:
    """``playing`` (not finished), ``waiting`` or ``running`` (the review is to come), ``done``."""
    if row.state != "finished":
        return "playing"
    if row.reviewed:
        return "done"
    return "waiting" if row.review_started_at is None else "running"


def pending_for(kid_id: int) -> bool:
    """Whether one of the kid's finished games waits for its review (one indexed query)."""
    return db.session.scalar(sa.select(PlayedGame.id).where(
        PlayedGame.kid_id == kid_id, PlayedGame.state == "finished", PlayedGame.reviewed.is_(False)).limit(1)) \
        is not None


# ---------------------------------------------------------------------- claiming
def _claimable(cutoff):
    return sa.and_(PlayedGame.state == "finished", PlayedGame.reviewed.is_(False),
                   sa.or_(PlayedGame.review_started_at.is_(None), PlayedGame.review_started_at < cutoff))


def _stale_cutoff():
    return utcnow() - timedelta(seconds=float(setting("REVIEW_DEADLINE_SECONDS"))
                                + float(setting("REVIEW_GRACE_SECONDS")))


def claim_game(game_id: int):
    """Claim one game for review: the claim's stamp if this caller won it, else None."""
    stamp = utcnow()
    won = db.session.execute(
        sa.update(PlayedGame).where(PlayedGame.id == game_id, _claimable(_stale_cutoff()))
        .values(review_started_at=stamp).execution_options(synchronize_session=False)).rowcount == 1
    db.session.commit()
    return stamp if won else None


def claim():
    """The oldest waiting game this runner won, as (game id, stamp); None when there is none."""
    for game_id in db.session.scalars(sa.select(PlayedGame.id).where(_claimable(_stale_cutoff()))
                                      .order_by(PlayedGame.finished_at, PlayedGame.id).limit(20)).all():
        stamp = claim_game(game_id)
        if stamp is not None:
            return game_id, stamp
    return None


# ---------------------------------------------------------------------- running and recording
def _request(row: PlayedGame) -> dict:
    return {"id": row.id, "kind": row.kind, "size": row.size, "komi": row.komi, "handicap": row.handicap,
            "capture_goal": row.capture_goal, "moves": list(row.moves or []), "color": row.kid_color}


def run(game_id: int, stamp) -> str:
    """Review a claimed game in a child process and record what it found: ``done``, ``empty`` (the review could
    not answer: crashed, overran, the record is broken), or ``lost`` (the claim is no longer this runner's)."""
    row = db.session.get(PlayedGame, game_id)
    if row is None:
        return "lost"
    request = _request(row)
    db.session.commit()
    db.session.close()  # no connection is held while the review runs
    answer = run_child(request, float(setting("REVIEW_SECONDS")), float(setting("REVIEW_DEADLINE_SECONDS")))
    if answer.get("status") != "done":
        current_app.logger.warning("the review of game %s gave no answer: %s", game_id, answer)
    return finish(game_id, stamp, answer.get("findings", []))


def run_child(request: dict, seconds: float, deadline: float) -> dict:
    """``python -m teach.web.reviews`` on one game: ``{"status": "done", "findings": [...]}``, or ``deadline``,
    ``crashed`` (with a ``detail``), each with ``seconds``."""
    start = time.monotonic()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    body = json.dumps({**request, "seconds": seconds, "deadline": deadline}).encode()
    proc = subprocess.Popen([sys.executable, "-m", "teach.web.reviews"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=str(ROOT))
    try:
        out, err = proc.communicate(body, timeout=max(0.0, deadline - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"status": "deadline", "seconds": time.monotonic() - start}
    except BaseException:  # whatever stops this runner, the child does not go on reading
        proc.kill()
        proc.wait()
        raise
    seconds_taken = time.monotonic() - start
    try:
        answer = json.loads(out) if proc.returncode == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return {"status": "crashed", "seconds": seconds_taken,
                "detail": f"exit {proc.returncode}: " + err.decode("utf-8", "replace")[-2000:]}
    answer["seconds"] = seconds_taken
    return answer


def _points(value, size: int) -> list[str] | None:
    from teach.go.coords import point_names

    names = set(point_names(size))
    if not isinstance(value, list) or not all(isinstance(p, str) and p in names for p in value):
        return None
    return list(value)


def finding_row(game: PlayedGame, f: dict) -> MissedCapture | None:
    """A finding as the row it is kept in, or None when it is not one (a field missing or out of shape: the
    child's answer is checked like any input before it is stored)."""
    size = game.size
    try:
        black, white = _points(f["black"], size), _points(f["white"], size)
        answers = _points(f["answers"], size)
        number = f["move_number"]
        proof = f.get("proof")
        if proof is not None and not (isinstance(proof, dict) and isinstance(proof.get("positions"), dict)):
            return None
        ok = (black is not None and white is not None and answers and f["kind"] in REVIEW_KINDS
              and f["goal"] in GOALS and f["to_play"] in ("black", "white") and isinstance(number, int)
              and 1 <= number <= len(game.moves or []) and f["size"] == size
              and _points([f["target"]], size) and isinstance(f["played"], str) and len(f["played"]) <= 4)
    except (KeyError, TypeError):
        return None
    if not ok:
        return None
    return MissedCapture(game_id=game.id, kid_id=game.kid_id, move_number=number, kind=f["kind"], size=size,
                         black=black, white=white, to_play=f["to_play"], goal=f["goal"], target=f["target"],
                         played=f["played"], answers=answers[:10], proof=proof, status="open")


def finish(game_id: int, stamp, findings: list) -> str:
    """Record the findings of the review claimed at ``stamp`` and mark the game reviewed, in one transaction,
    only while the claim is still this runner's."""
    mine = db.session.execute(
        sa.update(PlayedGame).where(PlayedGame.id == game_id, PlayedGame.reviewed.is_(False),
                                    PlayedGame.review_started_at == stamp)
        .values(reviewed=True).execution_options(synchronize_session=False)).rowcount == 1
    if not mine:
        db.session.rollback()
        return "lost"
    game = db.session.get(PlayedGame, game_id)
    seen = set()
    for f in findings[:MAX_FINDINGS] if isinstance(findings, list) else []:
        row = finding_row(game, f) if isinstance(f, dict) else None
        if row is None or (row.move_number, row.kind) in seen:
            continue
        seen.add((row.move_number, row.kind))
        try:
            with db.session.begin_nested():
                db.session.add(row)
        except IntegrityError:  # already kept (a record written outside this runner)
            continue
    db.session.commit()
    return "done" if seen else "empty"


def run_next() -> str | None:
    claimed = claim()
    return run(*claimed) if claimed is not None else None


def run_queue() -> int:
    """Review every waiting game, one after the other, here: the number reviewed."""
    ran = 0
    while run_next() is not None:
        ran += 1
    return ran


# ---------------------------------------------------------------------- runner threads
_lock = threading.Lock()


class _Runner:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.wake = False


def ensure_runner(app: Flask | None = None) -> bool:
    """A runner thread in this process for the review queue (one per process: each review is a child process
    of its own, and the machine's cores serve kids first); an idle runner is told to look again. False when the
    runner is turned off or this installation has no review."""
    app = app or current_app._get_current_object()
    if not app.config.get("REVIEW_RUNNER", DEFAULTS["REVIEW_RUNNER"]):
        return False
    with _lock:
        runner = app.extensions.setdefault("teach.reviews", _Runner())
    with runner.lock:
        runner.wake = True
        if runner.thread is None:
            runner.thread = threading.Thread(target=_loop, args=(app, runner), name="teach-reviews", daemon=True)
            runner.thread.start()
    return True


def _loop(app: Flask, runner: _Runner) -> None:
    try:
        while True:
            with app.app_context():
                try:
                    ran = run_next() is not None
                except Exception:  # a broken database or game must not end the runner silently
                    app.logger.exception("the review runner failed")
                    ran = False
                finally:
                    db.session.remove()
            if ran:
                continue
            with runner.lock:  # leaving and being told to look again change together, so no wake-up is lost
                if not runner.wake:
                    runner.thread = None
                    return
                runner.wake = False
    except BaseException:
        with runner.lock:
            runner.thread = None
        raise


def join_runner(app: Flask, timeout: float = 60.0) -> bool:
    """Wait for this process's runner to stop (tests, shutdown); False if it is still running."""
    runner = app.extensions.get("teach.reviews")
    thread = runner.thread if runner is not None else None
    if thread is not None:
        thread.join(timeout)
        return not thread.is_alive()
    return True


# ---------------------------------------------------------------------- the child process
def _review_request(request: dict, until: float | None = None) -> list[dict]:
    """The child's work: rebuild the game as the play pages do, review the kid's moves, and prove each retry
    puzzle whole (``prove_findings``) while the clock allows (``until``, a ``time.monotonic()``)."""
    from dataclasses import asdict

    from teach.web.played import game_of

    row = SimpleNamespace(**{k: request[k] for k in ("id", "kind", "size", "komi", "handicap", "capture_goal",
                                                     "moves")})
    game = game_of(row)
    found = [{k: v for k, v in asdict(f).items()} for f in review(game, request["color"], float(request["seconds"]))]
    found = found[:MAX_FINDINGS]
    prove_findings(found, until)
    return [f for f in found if not f.pop("unwinnable", False)]


def prove_findings(findings: list[dict], until: float | None = None) -> int:
    """Give each finding the whole proof of its retry puzzle (``proof``, as ``teach.go.proof.Proof.to_json``), as
    lesson puzzles have theirs, so the kid's moves are answered with lookups; a finding too big to prove within
    ``PROOF_SECONDS`` keeps the positions its proof reached (the rest is read live), one left when the clock
    reaches ``until`` keeps none; one that, read to the end of its lines, has no winning first move is marked
    ``unwinnable`` (the review's claim was not true, and it is not kept). How many were proven whole."""
    from teach.go.judge import Goal, GoalError, Judge
    from teach.go.proof import ProofError, Unwinnable, prove
    from teach.lessons.check import PROVE_LIMITS, WHOLE_PROOF_POSITIONS
    from teach.web.games import position_of

    proven = 0
    for f in findings:
        left = PROOF_SECONDS if until is None else min(PROOF_SECONDS, until - time.monotonic())
        if left <= 0:
            break
        try:
            judge = Judge(position_of(SimpleNamespace(**f)), Goal(f["goal"], (f["target"],)), PROVE_LIMITS)
            f["proof"] = prove(judge, max_positions=WHOLE_PROOF_POSITIONS, cpu_seconds=left, until=until).to_json()
            proven += 1
        except Unwinnable:  # read to the end of its lines, nothing wins: the finding was not true
            f["unwinnable"] = True
        except ProofError as e:
            if e.partial is not None:  # the positions it reached are lookups all the same
                f["proof"] = e.partial.to_json()
        except (GoalError, ValueError, KeyError):
            continue
    return proven


def main() -> None:
    from teach.lessons.prover import _bound_self

    started = time.monotonic()
    request = json.loads(sys.stdin.buffer.read())
    deadline = float(request.get("deadline", DEFAULTS["REVIEW_DEADLINE_SECONDS"]))
    _bound_self(deadline)
    out, sys.stdout = sys.stdout, sys.stderr  # only the answer goes to stdout
    findings = _review_request(request, until=started + deadline - PROOF_MARGIN)
    out.write(json.dumps({"status": "done", "findings": findings}, ensure_ascii=False))
    out.flush()


if __name__ == "__main__":
    main()
