"""A GTP version 2 engine over the rules engine: the protocol of GNU Go, GoGui, Sabaki and KGS bots.

The protocol (https://www.lysator.liu.se/~gunnar/gtp/): one command a line, ``[id] name [args...]``; the answer is
``=[id] response`` or ``?[id] message`` followed by an empty line. Input lines are cleaned as the spec says
(control characters other than HT and LF dropped, ``#`` comments removed, HT turned into a space, blank lines
ignored). Colours (``b``, ``black``, ``w``, ``white``) and vertices (``d4``, ``D4``, ``pass``) are case-insensitive;
command names are not (GNU Go: ``NAME`` is an unknown command).

Where the spec is silent this engine does what GNU Go 3.8 does (``gnugo --mode gtp --chinese-rules
--situational-superko``): the GNU Go extensions ``trymove``/``popgo``, ``countlib``, ``findlib``, ``captures``,
``color``, ``list_stones``, ``all_legal``, ``is_legal``, ``reg_genmove``, ``loadsgf FILE [N|VERTEX]``; vertex lists
in board order (top row first, left to right); ``PASS`` in upper case; ``final_score`` as ``B+3.5``/``W+7.0``/``0``;
``showboard`` drawn like GNU Go's, star points and capture counts included.

Nothing crashes the engine: every failure, expected or not, becomes a ``?`` answer.
"""

from __future__ import annotations

import math
import random
import re
from typing import Callable, Iterable, Iterator, TextIO

from .coords import COLUMNS, MAX_SIZE, MIN_SIZE, BadCoordinate, diagonals, neighbours, parse_point
from .game import BLACK, WHITE, CHINESE_RULES, Game, IllegalMove, Rules
from .handicap import fixed_handicap_points, max_fixed_handicap, place_free_handicap

PROTOCOL_VERSION = "2"
ENGINE_NAME = "teach"

_COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
_COLOR_WORDS = {BLACK: "black", WHITE: "white"}
# Spec, "Preprocessing": drop every control character except HT (9) and LF (10); DEL counts as one too.
_DROP_CONTROLS = {c: None for c in [*range(32), 127] if c not in (9, 10)}
_ID = re.compile(r"[0-9]+")


class GtpError(Exception):
    """A failure answered as ``? message``."""


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("teach")
    except Exception:  # not installed (running from a source tree): still answer something
        return "0.1.0"


def _ascii(text: str) -> str:
    """Answers stay ASCII whatever the input echoed back in an error message contained."""
    return text.encode("ascii", "backslashreplace").decode("ascii")


def clean_line(line: str) -> str:
    """One command line after the spec's preprocessing; '' when nothing is left (the line is ignored)."""
    line = line.split("\n", 1)[0].translate(_DROP_CONTROLS)
    return line.split("#", 1)[0].replace("\t", " ").strip()


class GtpEngine:
    """A GTP engine holding one game. ``handle`` answers one line; ``serve`` runs a whole session."""

    def __init__(self, size: int = 19, komi: float = 7.5, seed: int = 0, rules: Rules = CHINESE_RULES,
                 read_seconds: float = 2.0) -> None:
        self.rules = rules
        # a GTP controller waits on each answer: the tactical reader answers within this many seconds, and a
        # read cut short (by the clock or its node budget) answers 0 with ``unknown`` set for that command
        self.read_seconds = read_seconds
        self.unknown = False
        self.komi = float(komi)
        self.game = Game(size, self.komi, rules)
        self.seed = seed
        self.rng = random.Random(seed)
        self.quitting = False
        # GNU Go's move stack: len(game.moves) before each trymove; popgo takes the game back to it.
        self._stack: list[int] = []
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: ENGINE_NAME,
            "version": lambda args: _version(),
            "known_command": self.cmd_known_command,
            "list_commands": lambda args: "\n".join(self.commands),
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "query_boardsize": lambda args: str(self.game.size),
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "get_komi": lambda args: _number(self.game.komi),
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "undo": self.cmd_undo,
            "showboard": lambda args: self.showboard(),
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "get_handicap": lambda args: str(self.game.handicap),
            "loadsgf": self.cmd_loadsgf,
            "is_legal": self.cmd_is_legal,
            "all_legal": self.cmd_all_legal,
            "countlib": self.cmd_countlib,
            "findlib": self.cmd_findlib,
            "captures": self.cmd_captures,
            "trymove": self.cmd_trymove,
            "popgo": self.cmd_popgo,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "color": self.cmd_color,
            "list_stones": self.cmd_list_stones,
            "move_history": self.cmd_move_history,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "set_random_seed": self.cmd_set_random_seed,
            "get_random_seed": lambda args: str(self.seed),
            "echo": lambda args: " ".join(args),
        }
        # every cmd_NAME method is the command NAME
        for attr in sorted(dir(self)):
            if attr.startswith("cmd_"):
                self.commands.setdefault(attr[4:], getattr(self, attr))

    # ------------------------------------------------------------------ the protocol
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

    def _resume(self) -> None:
        """GTP play goes on after two passes.

        The rules engine ends a game after two passes in a row and then refuses moves (art. 7). Under GTP the
        controller decides when a game ends: GoGui and Sabaki keep sending moves after passes (analysis, a
        disputed end of game, GNU Go regression files), and GNU Go accepts them. So before every move or
        legality question this engine clears the finished state; passes only matter to the controller, and
        ``final_score`` counts whatever position is on the board.
        """
        if self.game.over and self.game.resigned is None:
            self.game.resume()

    def _new_game(self, size: int) -> None:
        self.game = Game(size, self.komi, self.rules)
        self._stack.clear()

    def _board_empty(self) -> bool:
        return not self.game.moves and not any(self.game.board)

    # ------------------------------------------------------------------ administrative commands
    def cmd_known_command(self, args: list[str]) -> str:
        self._need(args, 1, "known_command COMMAND")
        return "true" if args[0] in self.commands else "false"

    def cmd_quit(self, args: list[str]) -> str:
        self.quitting = True
        return ""

    def cmd_boardsize(self, args: list[str]) -> str:
        self._need(args, 1, "boardsize SIZE")
        size = self._int(args[0], "boardsize")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self._new_game(size)
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._new_game(self.game.size)
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        self._need(args, 1, "komi FLOAT")
        try:
            komi = float(args[0])
        except ValueError:
            komi = math.nan
        if not math.isfinite(komi):
            raise GtpError(f"syntax error: komi must be a number, not {args[0]!r}")
        self.komi = self.game.komi = komi
        return ""

    def cmd_time_settings(self, args: list[str]) -> str:
        self._need(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
        for a in args[:3]:
            self._int(a, "time_settings")
        return ""  # this engine answers at once; clocks do not change anything

    def cmd_time_left(self, args: list[str]) -> str:
        self._need(args, 3, "time_left COLOR TIME STONES")
        self._color(args[0])
        self._int(args[1], "time_left")
        self._int(args[2], "time_left")
        return ""

    def cmd_set_random_seed(self, args: list[str]) -> str:
        self._need(args, 1, "set_random_seed SEED")
        self.seed = self._int(args[0], "the seed")
        self.rng = random.Random(self.seed)
        return ""

    # ------------------------------------------------------------------ moves
    def cmd_play(self, args: list[str]) -> str:
        self._need(args, 2, "play COLOR VERTEX")
        color = self._color(args[0])
        p = self._vertex(args[1])
        self._play(p, color)
        return ""

    def _play(self, p: int | None, color: int) -> None:
        self._resume()
        self.game.play(self._name(p) if p is not None else "pass", _COLOR_WORDS[color])

    def cmd_undo(self, args: list[str]) -> str:
        game = self.game
        if not game.moves:
            raise GtpError("cannot undo")
        target = len(game.moves) - 1
        while len(game.moves) > target:  # also takes back a resume or setup logged after the move
            game.undo()
        while self._stack and self._stack[-1] >= target:  # that trymove's move is gone
            self._stack.pop()
        return ""

    def cmd_trymove(self, args: list[str]) -> str:
        """GNU Go's trymove: play the move and push it on a stack; an illegal move answers ``? illegal move``."""
        self._need(args, 2, "trymove COLOR VERTEX")
        color = self._color(args[0])
        p = self._vertex(args[1])
        mark = len(self.game.moves)
        self._play(p, color)
        self._stack.append(mark)
        return ""

    def cmd_popgo(self, args: list[str]) -> str:
        if not self._stack:
            raise GtpError("Stack empty.")  # GNU Go's words
        mark = self._stack.pop()
        while len(self.game.moves) > mark:
            self.game.undo()
        return ""

    def cmd_genmove(self, args: list[str]) -> str:
        self._need(args, 1, "genmove COLOR")
        color = self._color(args[0])
        p = self.choose_move(color)
        self._play(p, color)
        return self._name(p)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        self._need(args, 1, "reg_genmove COLOR")
        return self._name(self.choose_move(self._color(args[0])))

    # ------------------------------------------------------------------ handicap
    def cmd_fixed_handicap(self, args: list[str]) -> str:
        self._need(args, 1, "fixed_handicap NUMBER_OF_STONES")
        stones = self._int(args[0], "the number of stones")
        if not self._board_empty():
            raise GtpError("board not empty")
        try:
            points = fixed_handicap_points(self.game.size, stones)
        except ValueError:
            raise GtpError("invalid number of stones") from None
        self._place_handicap(points)
        return self._names(points)

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        self._need(args, 1, "place_free_handicap NUMBER_OF_STONES")
        stones = self._int(args[0], "the number of stones")
        if not self._board_empty():
            raise GtpError("board not empty")
        if stones < 2:
            raise GtpError("invalid number of stones")
        points = free_handicap_points(self.game.size, stones)
        self._place_handicap(points)
        return self._names(points)

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        if not self._board_empty():
            raise GtpError("board not empty")
        points = [self._vertex(a) for a in args]
        if len(points) < 2 or None in points or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        if len(points) >= self.game.size ** 2:
            raise GtpError("bad vertex list")
        self._place_handicap([p for p in points if p is not None])
        return ""

    def _place_handicap(self, points: list[int]) -> None:
        place_free_handicap(self.game, [self.game.name(p) for p in points])

    # ------------------------------------------------------------------ records
    def cmd_loadsgf(self, args: list[str]) -> str:
        """``loadsgf FILE [N|VERTEX]``: the position before move N, or before the first move on VERTEX (GNU Go).

        The path is relative to the current directory. N <= 0 loads the whole record, as GNU Go does.
        Answers the colour to play."""
        self._need(args, 1, "loadsgf FILENAME [MOVE_NUMBER|VERTEX]")
        path = args[0]
        move_number: int | None = None
        until: str | None = None
        if len(args) > 1:
            if re.fullmatch(r"[+-]?[0-9]+", args[1]):
                move_number = int(args[1])
                if move_number <= 0:
                    move_number = None
            elif re.fullmatch(r"[A-HJ-Ta-hj-t][0-9]{1,2}", args[1]):
                until = args[1].upper()
            else:
                raise GtpError(f"syntax error: {args[1]!r} is neither a move number nor a vertex")
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise GtpError(f"cannot load file {path!r}: {e.strerror or e}") from None
        try:
            from . import record  # noqa: F401  (SGF support may be missing in a partial install)
        except ImportError:
            raise GtpError(f"cannot load file {path!r}: SGF support is not available") from None
        try:
            game = Game.from_sgf(data, move_number=move_number, until_point=until)
        except BadCoordinate as e:
            raise GtpError(f"cannot load file {path!r}: {e}") from None
        except (ValueError, IndexError, KeyError, UnicodeError) as e:
            raise GtpError(f"cannot load file {path!r}: {e}") from None
        if not game.moves and not any(game.board) and not _has_game_tree(data):
            # the tolerant replay reads a file without any game tree as an empty board; GNU Go refuses it
            raise GtpError(f"cannot load file {path!r}: no SGF game tree in it")
        if game.rules != self.rules:
            game.rules = self.rules
        self.game = game
        self.komi = game.komi
        self._stack.clear()
        return game.to_play

    # ------------------------------------------------------------------ questions about the position
    def cmd_is_legal(self, args: list[str]) -> str:
        self._need(args, 2, "is_legal COLOR VERTEX")
        color = self._color(args[0])
        p = self._vertex(args[1])
        if p is None:
            return "1"
        self._resume()
        return "1" if self.game.is_legal(self.game.name(p), _COLOR_WORDS[color]) else "0"

    def cmd_all_legal(self, args: list[str]) -> str:
        self._need(args, 1, "all_legal COLOR")
        color = self._color(args[0])
        self._resume()
        return self._names(self.game.legal_points(color))

    def cmd_countlib(self, args: list[str]) -> str:
        self._need(args, 1, "countlib VERTEX")
        p = self._stone(args[0])
        return str(len(self.game.liberties(self.game.name(p))))

    def cmd_findlib(self, args: list[str]) -> str:
        self._need(args, 1, "findlib VERTEX")
        p = self._stone(args[0])
        game = self.game
        return self._names(game.point(name) for name in game.liberties(game.name(p)))

    def cmd_captures(self, args: list[str]) -> str:
        """GNU Go: the number of stones this colour has captured."""
        self._need(args, 1, "captures COLOR")
        return str(self.game.captures[_COLOR_WORDS[self._color(args[0])]])

    def cmd_color(self, args: list[str]) -> str:
        self._need(args, 1, "color VERTEX")
        p = self._vertex(args[0], allow_pass=False)
        return _COLOR_WORDS.get(self.game.board[p], "empty")

    def cmd_list_stones(self, args: list[str]) -> str:
        self._need(args, 1, "list_stones COLOR")
        color = self._color(args[0])
        return self._names(p for p, c in enumerate(self.game.board) if c == color)

    def cmd_move_history(self, args: list[str]) -> str:
        """GNU Go: one ``color vertex`` line a move, the most recent first."""
        return "\n".join(f"{_COLOR_WORDS[c]} {self._name(p)}" for c, p in reversed(self.game.moves))

    # ------------------------------------------------------------------ tactical reading (GNU Go's result codes)
    def _reader(self):
        from .reading import Limits, Reader

        key = (self.game.hash, self.game._to_move, self.game._ko, self.game._ko_color)
        if getattr(self, "_reader_key", None) != key:
            self._reader_cache = Reader(self.game, Limits(seconds=self.read_seconds))
            self._reader_key = key
        return self._reader_cache

    def _read(self, method: str, target: int, *extra: int) -> str:
        from .reading import GTP_CODE, BudgetExceeded

        try:
            answer = getattr(self._reader(), method)(*extra, target)
        except BudgetExceeded:
            self.unknown = True
            return "0"
        if isinstance(answer, tuple):
            code, move = answer
            return "0" if code == 0 else f"{GTP_CODE[code]} {self._name(move)}"
        return str(GTP_CODE[answer])

    def cmd_attack(self, args: list[str]) -> str:
        self._need(args, 1, "attack VERTEX")
        return self._read("attack", self._stone(args[0]))

    def cmd_defend(self, args: list[str]) -> str:
        self._need(args, 1, "defend VERTEX")
        return self._read("defend", self._stone(args[0]))

    def cmd_does_attack(self, args: list[str]) -> str:
        self._need(args, 2, "does_attack MOVE VERTEX")
        move = self._vertex(args[0], allow_pass=False)
        return self._read("does_attack", self._stone(args[1]), move)

    def cmd_does_defend(self, args: list[str]) -> str:
        self._need(args, 2, "does_defend MOVE VERTEX")
        move = self._vertex(args[0], allow_pass=False)
        return self._read("does_defend", self._stone(args[1]), move)

    def cmd_ladder_attack(self, args: list[str]) -> str:
        """GNU Go: can the string (with exactly two liberties) be captured in a ladder."""
        self._need(args, 1, "ladder_attack VERTEX")
        p = self._stone(args[0])
        if len(self.game._chain[p].libs) != 2:
            raise GtpError("string must have exactly 2 liberties")
        from .reading import GTP_CODE, BudgetExceeded, ladder_attack

        try:
            code, move = ladder_attack(self.game, p)
        except BudgetExceeded:
            self.unknown = True
            return "0"
        return "0" if code == 0 else f"{GTP_CODE[code]} {self._name(move)}"

    def _estimate(self):
        """The dead-stone estimate of the current position (teach/go/status.py), computed once per position."""
        from .status import estimate

        key = (self.game.hash, self.game.size, tuple(self.game.board))
        cached = getattr(self, "_estimate_cache", None)
        if cached is None or cached[0] != key:
            cached = (key, estimate(self.game))
            self._estimate_cache = cached
        return cached[1]

    def cmd_final_score(self, args: list[str]) -> str:
        """Area count (数子) after removing the stones the estimate calls dead; unsure groups count as alive."""
        margin = self._estimate().score().margin_points
        if margin == 0:
            return "0"
        points = abs(margin)
        text = f"{float(points):.1f}" if (points * 2).denominator == 1 else f"{float(points):g}"
        return f"{'B' if margin > 0 else 'W'}+{text}"

    def cmd_final_status_list(self, args: list[str]) -> str:
        """The chains the estimate calls ``alive``, ``dead`` or ``seki``: one line a chain, like GNU Go. Groups
        the estimate is unsure of count as alive (they stay on the board for the count)."""
        self._need(args, 1, "final_status_list STATUS")
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError(f"syntax error: invalid status {args[0]!r} (alive, dead or seki)")
        est = self._estimate()
        wanted = est.dead if status == "dead" else est.seki if status == "seki" else est.alive | est.unsure
        n = self.game.size
        chains = [self._board_order(ch.stones) for ch in self.game.chains() if ch.stones[0] in wanted]
        chains.sort(key=lambda stones: (-(stones[0] // n), stones[0] % n))
        return "\n".join(" ".join(self.game.name(p) for p in stones) for stones in chains)

    def cmd_unconditional_status(self, args: list[str]) -> str:
        """GNU Go: ``alive``/``dead``/``undecided`` for a stone, ``black_territory``/``white_territory``/
        ``undecided`` for an empty point (unconditional life: see teach/go/life.py)."""
        from .life import unconditional_status

        self._need(args, 1, "unconditional_status VERTEX")
        p = self._vertex(args[0], allow_pass=False)
        return unconditional_status(self.game, p)

    def showboard(self) -> str:
        """The board as GNU Go draws it: coordinates on all sides, ``+`` on empty star points, capture counts."""
        game = self.game
        n = game.size
        caps = game.captures
        stars = star_points(n)
        header = "   " + " ".join(COLUMNS[:n])
        white_line = min(8, n - 2)  # GNU Go prints the counts beside these rows (counted from the top)
        lines = ["", header]
        for i, row in enumerate(game.board_rows()):
            number = n - i
            cells = [
                "+" if ch == "." and (number - 1) * n + col in stars else ch
                for col, ch in enumerate(row)
            ]
            line = f"{number:2d} {' '.join(cells)} {number}"
            if i == white_line:
                line += f"     WHITE (O) has captured {caps['white']} stones"
            elif i == white_line + 1:
                line += f"     BLACK (X) has captured {caps['black']} stones"
            lines.append(line)
        lines.append(header)
        return "\n".join(lines)

    # ------------------------------------------------------------------ the placeholder bot
    def choose_move(self, color: int) -> int | None:
        """A simple legal move for ``color`` (None = pass); the real player comes later.

        In order: the biggest capture; a move that takes an own chain in atari out of atari (the biggest chain
        first); a random move that fills none of its own eyes and is not a self-atari; a random self-atari.
        It passes only when every legal move would fill one of its own single-point eyes. Random choices come
        from the engine's seeded generator, so a session replays identically.
        """
        self._resume()
        game = self.game
        legal = game.legal_points(color)
        if not legal:
            return None
        legal_set = set(legal)
        opp = 3 - color
        capture_size: dict[int, int] = {}
        in_atari = []
        for ch in game.chains():
            if len(ch.libs) == 1:
                if ch.color == opp:
                    (lib,) = ch.libs
                    if lib in legal_set:
                        capture_size[lib] = capture_size.get(lib, 0) + len(ch.stones)
                else:
                    in_atari.append(ch)
        if capture_size:
            best = max(capture_size.values())
            return self.rng.choice(sorted(p for p, k in capture_size.items() if k == best))
        for ch in sorted(in_atari, key=lambda c: (-len(c.stones), min(c.stones))):
            (lib,) = ch.libs
            if lib in legal_set and self._liberties_after(lib, color) >= 2:
                return lib
        candidates = [p for p in legal if not self._own_eye(p, color)]
        if not candidates:
            return None
        self.rng.shuffle(candidates)
        for p in candidates:
            if self._liberties_after(p, color) >= 2:
                return p
        return candidates[0]

    def _liberties_after(self, p: int, color: int) -> int:
        game = self.game
        name = game.name(p)
        game.play(name, _COLOR_WORDS[color])
        try:
            return len(game.liberties(name))
        finally:
            game.undo()

    def _own_eye(self, p: int, color: int) -> bool:
        """An empty point whose neighbours are all ``color``'s stones and that is no false eye.

        A false eye has two or more enemy stones on its diagonals (one, on the edge)."""
        board = self.game.board
        n = self.game.size
        if any(board[q] != color for q in neighbours(n)[p]):
            return False
        diag = diagonals(n)[p]
        enemies = sum(1 for q in diag if board[q] == 3 - color)
        return enemies < (2 if len(diag) == 4 else 1)

    # ------------------------------------------------------------------ life and death (teach/go/lifedeath.py)
    def cmd_owl_attack(self, args: list[str]) -> str:
        """GNU Go: can the group at VERTEX be killed, the other colour moving first? ``1 MOVE`` (unconditionally),
        ``2 MOVE`` (a ko the attacker takes first), ``3 MOVE`` (a ko the attacker must win), ``0`` (no kill
        found, or the search ran out of budget)."""
        from .lifedeath import owl

        self._need(args, 1, "owl_attack VERTEX")
        code, move = owl(self.game, self._stone(args[0]), "attack")
        return "0" if code == 0 else f"{code} {self._name(move)}"

    def cmd_owl_defend(self, args: list[str]) -> str:
        """GNU Go: can the group at VERTEX live, its owner moving first? Codes as for owl_attack; ``1 PASS`` when
        no move is needed."""
        from .lifedeath import owl

        self._need(args, 1, "owl_defend VERTEX")
        code, move = owl(self.game, self._stone(args[0]), "defend")
        return "0" if code == 0 else f"{code} {self._name(move)}"


    # ------------------------------------------------------------------ connections (teach/go/connection.py)
    def cmd_connect(self, args: list[str]) -> str:
        """GNU Go: can the chains at A and B be connected, their owner moving first? ``1 MOVE`` / ``2 MOVE`` /
        ``3 MOVE`` as for defend (``1`` alone when they are joined already), ``0`` when they cannot (or the search
        ran out of budget)."""
        return self._connection(args, "connect")

    def cmd_disconnect(self, args: list[str]) -> str:
        """GNU Go: can the chains at A and B be cut apart, the other colour moving first? Codes as for attack."""
        return self._connection(args, "disconnect")

    def _connection(self, args: list[str], what: str) -> str:
        from .connection import gtp_connect
        from .reading import BudgetExceeded

        self._need(args, 2, f"{what} VERTEX VERTEX")
        a, b = self._stone(args[0]), self._stone(args[1])
        try:
            code, move = gtp_connect(self.game, a, b, what)
        except ValueError as e:
            raise GtpError(str(e)) from None
        except BudgetExceeded:
            return "0"
        if code == 0:
            return "0"
        return f"{code} {self._name(move)}" if move is not None else str(code)

    def cmd_dragon_status(self, args: list[str]) -> str:
        """GNU Go: ``alive``, ``critical ATTACK DEFENCE``, ``dead`` or ``unknown`` (the reader ran out of budget)
        for the group at VERTEX (teach/go/lifedeath.py)."""
        from .lifedeath import dragon_status

        self._need(args, 1, "dragon_status VERTEX")
        status, attack, defence = dragon_status(self.game, self._stone(args[0]))
        if status == "critical":
            return f"critical {self._name(attack)} {self._name(defence)}"
        return status


    def cmd_eval_eye(self, args: list[str]) -> str:
        """GNU Go: the eyes the eye space at VERTEX is worth, ``MIN MAX`` with ``ATTACK DEFENCE`` when they
        differ; ``-1`` when the point is in no eye space or reading could not settle it (teach/go/eyes.py)."""
        from .eyes import eye_value

        self._need(args, 1, "eval_eye VERTEX")
        value = eye_value(self.game, self._vertex(args[0], allow_pass=False))
        if value is None:
            return "-1"
        if value.min == value.max:
            return f"{value.min} {value.max}"
        return f"{value.min} {value.max} {self._name(value.attack)} {self._name(value.defence)}"


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


def _has_game_tree(data: bytes) -> bool:
    from . import sgf

    try:
        return bool(sgf.parse(data, lenient=True))
    except Exception:
        return False


def _number(x: float) -> str:
    return f"{x:g}"


def star_points(size: int) -> frozenset[int]:
    """The points GNU Go marks ``+`` on an empty board (as indices row * size + col, row 0 at the bottom)."""
    if size in (2, 4):
        return frozenset()
    mid = size // 2
    if size == 3:
        return frozenset({mid * size + mid})
    if size == 5:
        lines = [1, 3]
    else:
        edge = 2 if size < 12 else 3
        lines = [edge, size - 1 - edge]
    pts = {r * size + c for r in lines for c in lines}
    if size % 2:
        pts.add(mid * size + mid)
        if size >= 13:
            pts.update({mid * size + c for c in lines} | {r * size + mid for r in lines})
    return frozenset(pts)


def free_handicap_points(size: int, stones: int) -> list[int]:
    """Where this engine puts ``stones`` free handicap stones: the fixed placement first, then spread out.

    Extra stones go where they are furthest from the stones already placed, preferring points away from the
    edge; no two stones touch, so every stone keeps its liberties. Fewer stones come back when the board has
    no room left (the spec allows that)."""
    top = max_fixed_handicap(size)
    chosen = list(fixed_handicap_points(size, min(stones, top))) if top >= 2 else []
    nb = neighbours(size)
    while len(chosen) < stones:
        taken = set(chosen)
        best, best_key = None, None
        for p in range(size * size):
            if p in taken or any(q in taken for q in nb[p]):
                continue
            col, row = p % size, p // size
            edge = min(col, row, size - 1 - col, size - 1 - row)
            spread = min((abs(col - q % size) + abs(row - q // size) for q in chosen), default=2 * size)
            key = (min(edge, 2), spread, -row, -col)
            if best_key is None or key > best_key:
                best, best_key = p, key
        if best is None:
            break
        chosen.append(best)
    return chosen
