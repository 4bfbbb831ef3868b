"""GNU Go as an optional stronger opponent (levels 7 and 8), spoken to through GTP, never trusted.

One GNU Go process per app process, started on first use and kept (starting one costs more than a move), used
under a lock so threads take turns. Every exchange has one deadline for the whole move (the level's
``budget_seconds``): replies are read with ``select`` on the pipe, never with a blocking read. A process that
misses the deadline, dies, or answers anything but a legal move is killed and reaped at once, so no process is
ever left behind or piles up; the next call starts a fresh one. A process inherited through ``fork`` belongs to
the parent and is left alone (the child starts its own).

The position is sent as moves: ``clear_board`` and the moves again when the game is not the one GNU Go has,
only the new moves when it is. GNU Go plays by Chinese rules here but knows neither situational superko nor the
capture game, so every answer is checked against our rules (``Game.is_legal``); a pass in a capture game, a
resignation, or a move our rules refuse all give ``None``: the caller plays the built-in level instead.
"""

from __future__ import annotations

import atexit
import os
import select
import shutil
import signal
import subprocess
import threading
import time

from .game import BLACK, Game

# GNU Go's own level for our levels (0 the weakest and fastest, 10 the strongest), by the largest board size it
# is used for: a bigger board takes GNU Go longer per move, and the dragon must still answer within its budget
GNUGO_LEVELS = {7: ((19, 0),), 8: ((9, 8), (13, 5), (19, 3))}


def gnugo_level(level: int, size: int) -> int:
    """GNU Go's level playing our ``level`` on a ``size`` board."""
    for largest, value in GNUGO_LEVELS.get(level, ((19, 0),)):
        if size <= largest:
            return value
    return 0
ENV_PATH = "TEACH_GNUGO"  # an explicit GNU Go executable (an empty value turns GNU Go off)


def find_gnugo() -> str | None:
    """The GNU Go executable: $TEACH_GNUGO when set (empty: none), else ``/usr/games/gnugo`` or ``gnugo`` on PATH."""
    if ENV_PATH in os.environ:
        return os.environ[ENV_PATH] or None
    if os.access("/usr/games/gnugo", os.X_OK):
        return "/usr/games/gnugo"
    return shutil.which("gnugo")


class GnuGoError(Exception):
    """GNU Go did not answer in time, died, or answered something unusable."""


class GnuGo:
    """One GNU Go process behind a lock. ``reply`` answers a move or None (use the built-in bot)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        self._pid = 0  # the app process that started ``proc``
        self._buf = b""
        self._sent: list[tuple[int, int | None]] | None = None  # the moves on GNU Go's board
        self._size = 0
        self._komi: float | None = None
        self.failures = 0  # how many calls fell back (for tests and logs)

    # ------------------------------------------------------------------ public
    def reply(self, game: Game, level, seed: int) -> str | None:
        """GNU Go's move for the side to move at our ``level`` (a ``bot.Level``), as GTP text; None when GNU Go
        is missing, failed or gave no usable move."""
        if not self.path or game.over or any(n or empty for n, _, _, empty in game.setups):
            return None  # no GNU Go, or a setup in mid-game or one that removes stones (GNU Go cannot set up)
        deadline = time.monotonic() + level.budget_seconds
        with self.lock:
            try:
                return self._reply(game, gnugo_level(level.number, game.size), seed, deadline)
            except (GnuGoError, OSError, ValueError):
                self.failures += 1
                self._kill()
                return None

    def close(self) -> None:
        """Stop the process (if it is ours) and reap it."""
        with self.lock:
            self._kill()

    # ------------------------------------------------------------------ the exchange
    def _reply(self, game: Game, gnugo_level: int, seed: int, deadline: float) -> str | None:
        self._ensure(deadline)
        self._sync(game, gnugo_level, seed, deadline)
        color = "black" if game.to_move == BLACK else "white"
        answer = self._ask(f"reg_genmove {color}", deadline).strip().lower()
        if answer == "resign":
            return None
        if answer == "pass":
            return None if game.rules.capture_goal else "pass"
        move = answer.upper()
        p = game.point(move)  # raises ValueError (BadCoordinate) on garbage
        if p is None or not game.is_legal_point(p, game.to_move):
            raise GnuGoError(f"GNU Go answered an illegal move: {answer!r}")
        return game.name(p)

    def _ensure(self, deadline: float) -> None:
        if self.proc is not None and (self._pid != os.getpid()):
            self.proc = None  # inherited through fork: the parent's, not ours to stop
        if self.proc is not None and self.proc.poll() is not None:
            self._kill()
        if self.proc is None:
            self.proc = subprocess.Popen([self.path, "--mode", "gtp", "--chinese-rules"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0,
                                         close_fds=True)
            self._pid = os.getpid()
            self._buf = b""
            self._sent = None
            answer = self._ask("protocol_version", deadline)
            if answer.strip() != "2":
                raise GnuGoError(f"not a GTP version 2 engine: {answer!r}")

    def _sync(self, game: Game, gnugo_level: int, seed: int, deadline: float) -> None:
        moves = game.moves
        setup = [(c, p) for n, b, w, _ in game.setups for c, pts in ((1, b), (2, w)) for p in pts]
        wanted = setup + list(moves)
        sent = self._sent
        if sent is None or self._size != game.size or self._komi != game.komi or sent != wanted[:len(sent)]:
            self._ask(f"boardsize {game.size}", deadline)
            self._ask("clear_board", deadline)
            self._ask(f"komi {game.komi}", deadline)
            self._size, self._komi, sent = game.size, game.komi, []
            self._sent = sent
        self._ask(f"level {gnugo_level}", deadline)
        self._ask(f"set_random_seed {seed % 2**31}", deadline)
        for color, p in wanted[len(sent):]:
            word = "black" if color == BLACK else "white"
            self._ask(f"play {word} {game.name(p)}", deadline)
            sent.append((color, p))

    def _ask(self, command: str, deadline: float) -> str:
        """Send one command and read its answer before ``deadline``; an error answer or none is a failure."""
        proc = self.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(command.encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise GnuGoError(f"GNU Go is gone: {e}") from None
        fd = proc.stdout.fileno()
        while b"\n\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise GnuGoError(f"GNU Go took too long on {command!r}")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise GnuGoError("GNU Go closed its output")
            self._buf += chunk
            if len(self._buf) > 1_000_000:
                raise GnuGoError("GNU Go talks too much")
        answer, self._buf = self._buf.split(b"\n\n", 1)
        text = answer.decode("utf-8", "replace").replace("\r", "")
        if not text.startswith("="):
            raise GnuGoError(f"GNU Go refused {command!r}: {text!r}")
        return text[1:].strip()

    def _kill(self) -> None:
        proc, self.proc = self.proc, None
        self._sent = None
        self._buf = b""
        if proc is None or self._pid != os.getpid():
            return
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # a process that ignores SIGKILL is beyond us; do not block on it
            pass


_shared: GnuGo | None = None
_shared_lock = threading.Lock()


def shared() -> GnuGo:
    """The app process's one GNU Go (found by ``find_gnugo`` on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = GnuGo(find_gnugo())
        return _shared


def use_path(path: str | None) -> GnuGo:
    """Point the app's GNU Go at another executable (None: no GNU Go); the old process is stopped."""
    global _shared
    with _shared_lock:
        old, _shared = _shared, GnuGo(path)
    if old is not None:
        old.close()
    return _shared


@atexit.register
def _close_shared() -> None:
    if _shared is not None:
        _shared.close()
