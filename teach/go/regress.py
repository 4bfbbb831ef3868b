"""Run GNU Go regression files (``.tst``) against ``teach gtp`` and count what passes.

A ``.tst`` file is a GTP script (see ``../shared/peer/README.md``). A numbered command is a test when a line
``#? [regex]`` follows it; the test passes when the answer (without ``=`` and the id) matches the regex as a
whole. As in GNU Go's own regress scripts:

- ``#? [!regex]`` passes when the answer does *not* match;
- ``#? [regex]*`` marks a test GNU Go itself fails: it counts like any other test, and its failures are
  reported apart ("of which expected by GNU Go");
- a ``#?`` line that cannot be read (``#? [undecided`` without its ``]``, nine times in unconditional.tst)
  makes no test, which is how GNU Go's own count (664 tests there) comes out.

Run with GNU Go itself as the engine (``main(files, engine=["gnugo", "--mode", "gtp"])``), this runner gives
the pass counts listed in ``../shared/peer/README.md`` (reading 191/235, capture 13/18, optics 84/90, ...).

Two choices of this runner:

- An error answer (``? unknown command``, ``? illegal move`` ...) always fails the test. GNU Go's scripts
  strip the ``?`` and match the message, which would let ``[!...]`` tests pass on commands not implemented.
- A command that takes longer than the timeout fails its test (a freshly started engine gets STARTUP_GRACE
  more seconds for its first answer); the engine is killed and restarted, then the
  commands that built the current position are replayed (everything since the last ``loadsgf``,
  ``boardsize`` or ``clear_board`` except numbered questions, plus earlier ``komi``-style settings) before the
  file goes on with the next command. A setup command that times out during the replay is given up: the
  following tests then run on whatever position the engine has, and fail honestly.

Each file runs in its own engine process whose working directory is the file's folder, so the relative paths of
``loadsgf games/x.sgf`` resolve as GNU Go expects.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

ENGINE = [sys.executable, "-c", "from teach.cli import cli; cli(['gtp'])"]

# Commands that rebuild the position from scratch, commands that change it, and settings that outlive a reset.
_RESETS = {"loadsgf", "boardsize", "clear_board"}
_CHANGES = {"play", "genmove", "trymove", "tryko", "popgo", "undo", "gg-undo", "fixed_handicap",
            "place_free_handicap", "set_free_handicap", "komi", "set_random_seed", "level"}
_SETTINGS = {"komi", "set_random_seed", "level", "time_settings"}

STARTUP_GRACE = 10.0  # seconds a fresh engine may take to start, on top of its first command's timeout

_EXPECT = re.compile(r"#\?\s*\[(.*)\](\*?)\s*")


@dataclass
class Step:
    """One command of a .tst file and, for a test, what its answer must look like."""

    line: int
    command: str
    name: str
    number: str | None = None
    pattern: str | None = None  # the regex inside the brackets, without a leading '!'
    negate: bool = False
    gnugo_fails: bool = False  # '#? [...]*': GNU Go is known to fail this test
    malformed: str | None = None  # a '#?' line without its closing bracket: no test (GNU Go's count agrees)

    @property
    def is_test(self) -> bool:
        return self.number is not None and self.pattern is not None

    @property
    def expected(self) -> str:
        return f"[{'!' if self.negate else ''}{self.pattern}]{'*' if self.gnugo_fails else ''}"


@dataclass
class Failure:
    test: str
    line: int
    command: str
    got: str
    expected: str
    gnugo_fails: bool  # a failure GNU Go shares ('#? [...]*')


@dataclass
class FileResult:
    path: str
    passed: int = 0
    total: int = 0
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    restarts: int = 0
    gnugo_failures_passed: int = 0  # tests marked '*' that this engine passes

    @property
    def failed(self) -> int:
        return self.total - self.passed

    @property
    def expected_failures(self) -> int:
        return sum(1 for f in self.failures if f.gnugo_fails)


def parse_tst(text: str) -> list[Step]:
    """The commands of a .tst file in order, each numbered one carrying the expectation that follows it."""
    steps: list[Step] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#?"):
            last = steps[-1] if steps else None
            if last is None or last.number is None or last.pattern is not None or last.malformed is not None:
                continue  # an expectation that belongs to no test
            m = _EXPECT.fullmatch(line)
            if m is None:
                last.malformed = line
                continue
            pattern = m.group(1)
            if pattern.startswith("!"):
                last.negate, pattern = True, pattern[1:]
            last.pattern = pattern
            last.gnugo_fails = m.group(2) == "*"
            continue
        command = line.split("#", 1)[0].strip()
        if not command:
            continue
        words = command.split()
        number = None
        if re.fullmatch(r"[0-9]+", words[0]) and len(words) > 1:
            number = words.pop(0)
        steps.append(Step(lineno, command, words[0], number))
    return steps


def answer_text(response: str) -> str:
    """``=12 1 G1`` -> ``1 G1``; the lines of a multi-line answer are joined with spaces."""
    first, *rest = response.split("\n")
    first = re.sub(r"^[=?][0-9]*\s?", "", first)
    return " ".join(part.strip() for part in [first, *rest] if part.strip())


def matches(step: Step, response: str) -> bool:
    if step.pattern is None or not response.startswith("="):
        return False
    try:
        hit = re.fullmatch(f"(?:{step.pattern})", answer_text(response)) is not None
    except re.error:
        return False
    return hit != step.negate


def run_in_process(steps: Sequence[Step], handle, answer=None, only: set[str] = frozenset()):
    """Run a parsed .tst file against ``handle`` (a GTP engine's handle method) in this process: set-up commands
    are handled, each test (optionally only the numbers in ``only``) is answered by ``answer(step)`` (default:
    ``handle``) and timed. Yields (step, response, seconds, passed) per test."""
    for step in steps:
        if step.number is None:
            handle(step.command)
            continue
        if step.pattern is None or (only and step.number not in only):
            continue
        start = time.perf_counter()
        response = (answer(step) if answer is not None else handle(step.command)) or ""
        took = time.perf_counter() - start
        yield step, response, took, matches(step, response)


def report_line(step: Step, response: str, took: float, passed: bool, slow: float | None = None) -> str:
    """One test's line in the in-process runners' reports."""
    flag = "ok  " if passed else "FAIL"
    note = f"  SLOW {took:.2f}s" if slow is not None and took > slow else f" {took:.2f}s"
    return (f"{flag} {step.number:>4} {step.command:28} got {answer_text(response)!r:18} "
            f"want [{step.pattern}]{'*' if step.gnugo_fails else ''}{note}")


class EngineGone(Exception):
    """The engine exited or closed its output."""


class _Engine:
    """A GTP engine subprocess; answers are read on a thread so that every question can time out."""

    def __init__(self, argv: Sequence[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, encoding="utf-8", errors="replace", bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.started = False  # the first answer also waits for the interpreter to start

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def ask(self, command: str, timeout: float) -> str:
        """The engine's answer (without the empty line that ends it); TimeoutError or EngineGone otherwise."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineGone(f"engine exited (code {self.proc.poll()})") from None
        deadline = time.monotonic() + timeout + (0 if self.started else STARTUP_GRACE)
        self.started = True
        lines: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise queue.Empty
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                raise TimeoutError(f"timeout after {timeout:g} s") from None
            if line is None:
                raise EngineGone(f"engine exited (code {self.proc.wait()})")
            line = line.rstrip("\r\n")
            if not lines:
                if line[:1] in ("=", "?"):
                    lines.append(line)
                continue  # blank lines or noise before an answer
            if not line.strip():
                return "\n".join(lines)
            lines.append(line)

    def close(self) -> None:
        proc = self.proc
        if proc.poll() is None:
            try:
                assert proc.stdin is not None
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self) -> None:
        proc = self.proc
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass
        self.reader.join(timeout=5)


def run_file(path: str | Path, timeout: float = 10.0, engine: Sequence[str] | None = None) -> FileResult:
    """Run one .tst file against a fresh engine (``teach gtp`` unless ``engine`` names another command).

    Raises OSError when the file cannot be read."""
    path = Path(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    steps = parse_tst(text)
    argv = list(engine or ENGINE)
    cwd = path.resolve().parent
    result = FileResult(str(path))
    start = time.monotonic()
    eng = _Engine(argv, cwd)
    replay: list[Step] = []  # the commands that rebuild the current position after a restart
    try:
        for step in steps:
            if step.name in _RESETS:
                replay = [s for s in replay if s.name in _SETTINGS and s.number is None] + [step]
            elif step.number is None or step.name in _CHANGES:
                if step.name in _SETTINGS:
                    replay = [s for s in replay if s.name != step.name or s.number is not None]
                replay.append(step)
            try:
                response = eng.ask(step.command, timeout)
            except (TimeoutError, EngineGone) as e:
                response = f"?{e}"
                eng.kill()
                result.restarts += 1
                replay = [s for s in replay if s is not step]  # never replay what timed out
                eng = _restart(argv, cwd, replay, timeout)
            if not step.is_test:
                continue
            result.total += 1
            if matches(step, response):
                result.passed += 1
                if step.gnugo_fails:
                    result.gnugo_failures_passed += 1
            else:
                got = answer_text(response) if response.startswith("=") else response
                result.failures.append(Failure(step.number or "", step.line, step.command, got, step.expected,
                                               step.gnugo_fails))
    finally:
        eng.close()
        result.seconds = time.monotonic() - start
    return result


def _restart(argv: list[str], cwd: Path, replay: list[Step], timeout: float) -> _Engine:
    eng = _Engine(argv, cwd)
    for step in replay:
        try:
            eng.ask(step.command, timeout)
        except (TimeoutError, EngineGone):
            eng.kill()
            return _Engine(argv, cwd)  # give the replay up: later tests run on an empty board
    return eng


def _summary(name: str, passed: int, total: int, failed: int, expected: int, seconds: float) -> str:
    return f"{name}  {passed}/{total}  (failed {failed}, of which expected by GNU Go {expected})  {seconds:.1f} s"


def main(files: Sequence[str], verbose: bool = False, timeout: float = 10.0,
         engine: Sequence[str] | None = None) -> int:
    """Run every file, print one line per file and a total; 2 when a file cannot be read, else 0."""
    status = 0
    totals = [0, 0, 0, 0]
    seconds = 0.0
    for name in files:
        try:
            result = run_file(name, timeout, engine)
        except OSError as e:
            print(f"{name}: cannot read: {e.strerror or e}", file=sys.stderr, flush=True)
            status = 2
            continue
        print(_summary(name, result.passed, result.total, result.failed, result.expected_failures,
                       result.seconds), flush=True)
        if verbose:
            for f in result.failures:
                note = "  (GNU Go fails it too)" if f.gnugo_fails else ""
                print(f"{name}:{f.test}  got {f.got!r}  expected {f.expected}{note}", flush=True)
        for i, value in enumerate((result.passed, result.total, result.failed, result.expected_failures)):
            totals[i] += value
        seconds += result.seconds
    print(_summary("total", *totals, seconds), flush=True)
    return status
