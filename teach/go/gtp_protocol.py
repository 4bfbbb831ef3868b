"""The GTP version 2 wire format (https://www.lysator.liu.se/~gunnar/gtp/), apart from any command.

One command a line, ``[id] name [args...]``; the answer is ``=[id] response`` or ``?[id] message`` followed by an
empty line. Input lines are cleaned as the spec says (control characters other than HT and LF dropped, ``#``
comments removed, HT turned into a space, blank lines ignored). Colours (``b``, ``black``, ``w``, ``white``) and
vertices (``d4``, ``D4``, ``pass``) are case-insensitive; command names are not (GNU Go: ``NAME`` is an unknown
command). Nothing crashes the engine: every failure, expected or not, becomes a ``?`` answer.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Iterator, TextIO

from .coords import BadCoordinate, parse_point
from .game import BLACK, WHITE, Game, IllegalMove

_COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
_COLOR_WORDS = {BLACK: "black", WHITE: "white"}
# Spec, "Preprocessing": drop every control character except HT (9) and LF (10); DEL counts as one too.
_DROP_CONTROLS = {c: None for c in [*range(32), 127] if c not in (9, 10)}
_ID = re.compile(r"[0-9]+")


class GtpError(Exception):
    """A failure answered as ``? message``."""


def _ascii(text: str) -> str:
    """Answers stay ASCII whatever the input echoed back in an error message contained."""
    return text.encode("ascii", "backslashreplace").decode("ascii")


def clean_line(line: str) -> str:
    """One command line after the spec's preprocessing; '' when nothing is left (the line is ignored)."""
    line = line.split("\n", 1)[0].translate(_DROP_CONTROLS)
    return line.split("#", 1)[0].replace("\t", " ").strip()


class GtpProtocol:
    """Answers command lines for a subclass that holds ``game`` and fills ``commands`` (name -> handler of the
    argument words); the subclass sets ``quitting`` to end ``serve``. Handlers raise ``GtpError`` for a ``?``."""

    game: Game
    commands: dict[str, Callable[[list[str]], str]]
    quitting: bool = False
    unknown: bool = False  # set by a handler whose answer was cut short by a reading budget

    def handle(self, line: str) -> str | None:
        """The full answer to one command line (``=id ...\\n\\n`` or ``?id ...\\n\\n``); None for a blank line."""
        text = clean_line(line)
        if not text:
            return None
        words = text.split()
        ident = ""
        self.unknown = False
        if _ID.fullmatch(words[0]):
            ident = words.pop(0)
        try:
            if not words:
                raise GtpError("unknown command")
            handler = self.commands.get(words[0])
            if handler is None:
                raise GtpError("unknown command")
            response = handler(words[1:])
        except GtpError as e:
            return self._failure(ident, str(e))
        except IllegalMove:
            return self._failure(ident, "illegal move")
        except RecursionError:
            return self._failure(ident, "internal error: recursion too deep")
        except Exception as e:  # a bug must not end the session: report it as a failure and go on
            return self._failure(ident, f"internal error: {type(e).__name__}: {e}")
        # An empty line ends a response, so a multi-line response must not contain one.
        lines = response.rstrip().split("\n")
        body = "\n".join(part if part.strip() or i == 0 else " " for i, part in enumerate(lines))
        return _ascii(f"={ident} {body}\n\n")

    @staticmethod
    def _failure(ident: str, message: str) -> str:
        message = " ".join(message.split()) or "failed"
        return _ascii(f"?{ident} {message}\n\n")

    def serve(self, infile: TextIO, outfile: TextIO) -> None:
        """Answer commands from ``infile`` until ``quit`` or end of input, flushing after every answer."""
        for line in _input_lines(infile):
            response = self.handle(line)
            if response is None:
                continue
            try:
                outfile.write(response)
                outfile.flush()
            except (BrokenPipeError, ValueError):  # the controller went away (or closed our output)
                return
            if self.quitting:
                return

    # ------------------------------------------------------------------ argument parsing
    @staticmethod
    def _need(args: list[str], count: int, usage: str) -> None:
        if len(args) < count:
            raise GtpError(f"syntax error: usage: {usage}")

    @staticmethod
    def _color(text: str) -> int:
        c = _COLORS.get(text.lower())
        if c is None:
            raise GtpError(f"syntax error: invalid color {text!r} (use black or white)")
        return c

    def _vertex(self, text: str, allow_pass: bool = True) -> int | None:
        try:
            p = parse_point(text, self.game.size)
        except BadCoordinate as e:
            raise GtpError(f"syntax error: invalid vertex: {e}") from None
        if p is None and not allow_pass:
            raise GtpError(f"syntax error: a point is needed here, not {text!r}")
        return p

    def _stone(self, text: str) -> int:
        p = self._vertex(text, allow_pass=False)
        assert p is not None
        if not self.game.board[p]:
            raise GtpError("vertex must not be empty")
        return p

    @staticmethod
    def _int(text: str, what: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise GtpError(f"syntax error: {what} must be a whole number, not {text!r}")
        return int(text)

    # ------------------------------------------------------------------ output helpers
    def _name(self, p: int | None) -> str:
        return "PASS" if p is None else self.game.name(p)

    def _board_order(self, points: Iterable[int]) -> list[int]:
        """GNU Go lists vertices as it scans the board: top row first, left to right."""
        n = self.game.size
        return sorted(points, key=lambda p: (-(p // n), p % n))

    def _names(self, points: Iterable[int]) -> str:
        return " ".join(self.game.name(p) for p in self._board_order(points))


def _input_lines(infile: TextIO) -> Iterator[str]:
    """Lines of the input; bytes that are not UTF-8 become replacement characters instead of an exception."""
    raw = getattr(infile, "buffer", None)
    if raw is not None:
        while True:
            chunk = raw.readline()
            if not chunk:
                return
            yield chunk.decode("utf-8", "replace")
    else:
        while True:
            line = infile.readline()
            if not line:
                return
            yield line
