"""Proving an upload with one overall deadline: the lesson checker (``check_text``) or the SGF puzzle maker
(``authoring.sgf_puzzle``) runs in a child process that is killed when the deadline passes.

Pure-Python reading cannot be stopped from a thread, and the reader's time limits restart with every candidate
first move, so the one bound that holds is the operating system's: a process killed at the deadline. Should its
parent die first, the child still stops itself (an alarm, and a CPU limit). It runs niced, so kids' moves are
served before it.

``python -m teach.lessons.prover`` is the child: a JSON request on stdin, a JSON answer on stdout. A request is
``{"kind": "lesson", "source": <YAML>, "filename": <name>}`` or ``{"kind": "sgf", "setup": {sgf, size, to_play},
"lesson_id", "topic", "goal", "targets", "text", "title"}``.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent.parent  # the folder holding the ``teach`` package
GRACE = 5  # seconds past the deadline before an orphaned child stops itself
MEMORY_MAX = 2 * 1024 ** 3  # bytes a proof may use: more is a position no kid's puzzle needs
# CPU seconds one uploaded puzzle's whole proof may take (the curriculum store's budget): a bigger one is kept and
# read live as kids play, as the curriculum's are; and the wall-clock seconds kept free before the deadline
WHOLE_PROOF_SECONDS = 20.0
WHOLE_PROOF_MARGIN = 3.0
UNWINNABLE = ("read to the end of every line, this puzzle has no winning first move: the reader's first reading "
              "was too hopeful; change the position")


def _error(e) -> dict:
    return {"file": e.file, "line": e.line, "column": e.column, "message": e.message}


def _lesson(lesson) -> dict:
    return {"id": lesson.id, "topic": lesson.topic, "title": {"zh": lesson.title.zh, "en": lesson.title.en}}


def prove(request: dict, until: float | None = None) -> dict:
    """The whole proof of one request, here and now (the child's work): ``errors``, ``puzzles``, and for a lesson
    that checks out, ``lesson`` (id, topic, title), ``source`` (the YAML to keep), and ``proofs`` and ``unproven``
    (``prove_whole``, given until ``until``, a ``time.monotonic()``)."""
    from . import authoring, check_text

    if request["kind"] == "lesson":
        lesson, errors, count = check_text(request["source"], request["filename"])
        source = request["source"]
    else:
        setup = authoring.Setup(**request["setup"])
        lesson, source, errors = authoring.sgf_puzzle(setup, request["lesson_id"], request["topic"],
                                                      request["goal"], list(request["targets"]), request["text"],
                                                      request["title"], hint=request.get("hint"))
        count = 1 if lesson is not None else 0
    answer = {"errors": [_error(e) for e in errors], "puzzles": count}
    if lesson is not None and not errors:
        whole = prove_whole(lesson, until)
        if whole.pop("unwinnable"):  # a puzzle that would teach something false is not kept
            answer["errors"] = [{"file": request.get("filename", ""), "line": 0, "column": 0, "message": UNWINNABLE}]
        else:
            answer.update(lesson=_lesson(lesson), source=source, **whole)
        if request["kind"] == "sgf":  # the board editor shows every winning first move and each refutation
            answer["solution"] = authoring.solution_of(lesson)
    elif request["kind"] == "sgf":  # refused: what the reader found is why, and the editor's page shows it
        answer["solution"] = _refused_solution(setup, request)
    return answer


def prove_whole(lesson, until: float | None = None) -> dict:
    """Each puzzle of a lesson that checked out proven whole, as the curriculum's are (every move a kid can play,
    at every position a kid can reach): ``proofs``, each proof by its puzzle's key, for the web app to answer kids'
    moves with lookups, and ``unproven``, how many were too big for ``WHOLE_PROOF_SECONDS`` of CPU or for the time
    left before ``until`` (what their proofs reached is kept too; the rest is read live as kids play, like the
    curriculum's puzzles too big to prove), with ``unproven_steps``, their step numbers (from 1); ``unwinnable``
    when one puzzle, read to the end of its lines, has no winning first move."""
    from teach.go.proof import Unwinnable

    from .proofstore import key_of
    from .wholeproof import attach

    proofs, unproven, unwinnable = {}, 0, False
    steps = []  # the steps (numbered from 1, as the teacher's pages number them) of the puzzles too big
    for number, puzzle in ((i + 1, s) for i, s in enumerate(lesson.steps) if s.kind == "puzzle"):
        left = WHOLE_PROOF_SECONDS if until is None else min(WHOLE_PROOF_SECONDS, until - time.monotonic())
        try:
            whole = left > 0 and attach(puzzle, left, until)
        except Unwinnable:
            unwinnable = True
            continue
        if not whole:
            unproven += 1
            steps.append(number)
        proof = puzzle.__dict__.get("proof")  # a whole proof, or the positions a too-big one reached
        if proof is not None:
            proofs[key_of(puzzle)] = proof.to_json()
    return {"proofs": proofs, "unproven": unproven, "unproven_steps": steps, "unwinnable": unwinnable}


def _refused_solution(setup, request: dict) -> dict | None:
    """The reader's reading of a refused board-editor puzzle (the proof just made it, so its cache answers):
    the winning first moves, the refutation of every other one, and the moves it could not decide."""
    from . import authoring
    from .check import solve
    from .step import build_step

    built, _errors = build_step(authoring.puzzle_step(setup, request["goal"], list(request["targets"]),
                                                      request["text"]), setup.size, prove=False)
    if built is None or built.kind != "puzzle":
        return None
    found = solve(built.position, built.to_play, built.goal_object())
    return {"status": found.status, "winning": dict(found.winning), "refutations": dict(found.refutations),
            "unknown": list(found.unknown)}


def run(request: dict, deadline: float, on_start: Callable[[int], None] | None = None) -> dict:
    """Prove ``request`` in a child process given ``deadline`` seconds of wall-clock time in all (starting it
    included). The answer is ``prove``'s with ``status`` ``proven`` (no errors), ``errors``, ``deadline`` (the
    child was killed) or ``crashed`` (with a ``detail`` for the log), and ``seconds``. ``on_start`` gets the
    child's pid."""
    start = time.monotonic()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    body = json.dumps({**request, "deadline": deadline}).encode()
    proc = subprocess.Popen([sys.executable, "-m", "teach.lessons.prover"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=str(ROOT))
    try:
        if on_start is not None:
            on_start(proc.pid)
        out, err = proc.communicate(body, timeout=max(0.0, deadline - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"status": "deadline", "errors": [], "puzzles": 0, "seconds": time.monotonic() - start}
    except BaseException:  # whatever stops this runner, the child does not go on computing
        proc.kill()
        proc.wait()
        raise
    seconds = time.monotonic() - start
    try:
        answer = json.loads(out) if proc.returncode == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        detail = f"exit {proc.returncode}: " + err.decode("utf-8", "replace")[-2000:]
        return {"status": "crashed", "errors": [], "puzzles": 0, "seconds": seconds, "detail": detail}
    answer["status"] = "errors" if answer.get("errors") or "lesson" not in answer else "proven"
    answer["seconds"] = seconds
    return answer


def _bound_self(deadline: float) -> None:
    """Limits the child sets on itself, so it never outlives its deadline by much, whatever becomes of its
    parent."""
    import resource
    import signal

    seconds = math.ceil(deadline) + GRACE
    signal.alarm(seconds)  # SIGALRM's default action ends the process
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_MAX, MEMORY_MAX))
    except (ValueError, OSError):
        pass  # a lower hard limit is already in place
    try:
        os.nice(5)  # kids' requests first, yet a busy server still proves an honest upload in time
    except OSError:
        pass


def main() -> None:
    started = time.monotonic()
    request = json.loads(sys.stdin.buffer.read())
    deadline = float(request.get("deadline", 60))
    _bound_self(deadline)
    out, sys.stdout = sys.stdout, sys.stderr  # only the answer goes to stdout
    answer = prove(request, until=started + deadline - WHOLE_PROOF_MARGIN)
    out.write(json.dumps(answer, ensure_ascii=False))
    out.flush()


if __name__ == "__main__":
    main()
