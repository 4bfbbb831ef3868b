"""A move the judge could not settle within a request's budget, read again in the background on a larger one.

A puzzle without a whole proof (a practice puzzle too big for its proof's budget, a game's review puzzle) is read
live, on the server's budget (``teach.go.judge.SERVER_LIMITS``). A rare move needs more: a wrong move beside a
long ladder, where the escape is a three- or four-liberty fight to read out (measured on the ladder drill's sets:
8 moves of 2,000 along their lines, each settled within 3.5 s; the worst a walk met, 4.1 million nodes and 24 s).
Such a move is not a verdict a
child may hear ("the computer gave up"): the page shows the computer thinking and asks again (``RETRY_MS``), while
this module has the move read on ``DEEP_NODES`` and keeps the verdict for the next ask.

The reading runs in a child process (``python -m teach.go.deep``, niced, one reading each, one at a time per web
process), waited on by one thread here: the compiled reader holds the interpreter lock while it reads, so read on
a thread it stopped every other request of the process (a walk measured a page taking 25 s). Bounded so a stranger
cannot make the server read without end: at most ``QUEUE_MAX`` moves waiting per process (a move already waiting
is not queued twice; with the queue full the page is told to tap again, as it was before this module), each child
killed after ``DEEP_SECONDS``, and a move the deeper read could not settle either is not read a third time (the
page asks the child to tap again).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import weakref
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from weakref import WeakKeyDictionary

from teach.go.judge import Verdict

DEEP_NODES = 16_000_000  # eighty times the server's nodes
DEEP_SECONDS = 60.0  # a safety net (the page asks for a minute); the child is niced below the web workers
QUEUE_MAX = 8  # moves read or waiting, per process
RETRY_MS = 1500  # how soon the page asks again
KEPT = 512  # verdicts kept per puzzle (a kid's moves; a stranger's made-up lines cannot grow it further)

_lock = threading.Lock()
_idle = threading.Condition(_lock)  # told when a reading's verdict is kept
_pool: ThreadPoolExecutor | None = None  # one thread, waiting on one child at a time
_pending: dict[tuple, Future] = {}
# per puzzle judge: (line, move) -> the deeper verdict, or None when the deeper read could not settle it either
_settled: WeakKeyDictionary = WeakKeyDictionary()


def settled(judge, played: list[str], move: str) -> Verdict | None:
    """The deeper read's verdict on ``move`` after ``played``, once it has one."""
    try:
        with _lock:
            found = _settled.get(judge, {}).get((tuple(played), move))
    except TypeError:  # a judge that cannot be a weak key is never read deeper (see ``later``)
        return None
    return replace(found) if found is not None else None


def later(judge, played: list[str], move: str) -> bool:
    """Have ``move`` read again on the larger budget, in the background. True while that read is waiting or under
    way (the page asks again); False when it cannot be had: the queue is full, or the deeper read gave up."""
    global _pool
    line = tuple(played)
    key = (id(judge), line, move)
    try:
        owner = weakref.ref(judge)
    except TypeError:  # its verdict could not be kept with it
        return False
    with _lock:
        if key in _pending:
            return True
        if (line, move) in _settled.get(judge, {}) or len(_pending) >= QUEUE_MAX:
            return False
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deep-read")
        request = {"rows": judge.start.board_rows(), "to_play": judge.start.to_play, "goal": judge.goal.kind,
                   "targets": list(judge.goal.targets), "played": list(line), "move": move, "nodes": DEEP_NODES,
                   "seconds": DEEP_SECONDS}
        future = _pool.submit(_read, request)
        _pending[key] = future
    future.add_done_callback(lambda f: _keep(owner, key, line, move, f))
    return True


def _read(request: dict) -> Verdict | None:
    """One child process, one reading: its verdict, or None (unknown on the budget, killed, or broken)."""
    try:
        done = subprocess.run([sys.executable, "-m", "teach.go.deep"], input=json.dumps(request), text=True,
                              capture_output=True, timeout=DEEP_SECONDS + 15)
        found = json.loads(done.stdout) if done.returncode == 0 and done.stdout else None
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return None
    return Verdict(**found) if isinstance(found, dict) else None


def _keep(owner, key: tuple, line: tuple, move: str, future: Future) -> None:
    try:
        verdict = future.result()
    except Exception:  # whatever stopped the waiting thread is no verdict: the page asks the child to tap again
        verdict = None
    judge = owner()
    with _lock:
        _pending.pop(key, None)
        _idle.notify_all()
        if judge is None:
            return
        kept = _settled.get(judge)
        if kept is None:
            kept = _settled[judge] = OrderedDict()
        kept[(line, move)] = verdict
        while len(kept) > KEPT:
            kept.popitem(last=False)


def under_way() -> int:
    """How many deeper reads are waiting or running in this process."""
    with _lock:
        return sum(1 for f in _pending.values() if not f.done())


def wait_idle(timeout: float | None = None) -> bool:
    """Wait until no reading is waiting or under way, its verdict kept (tests, and a server shutting down); False
    if some are still running after ``timeout`` seconds."""
    with _idle:
        return _idle.wait_for(lambda: not _pending, timeout)
