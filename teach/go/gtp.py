"""A GTP version 2 engine over the rules engine: the protocol of GNU Go, GoGui, Sabaki and KGS bots.

The wire format is ``gtp_protocol.py``; GNU Go's reading, life-and-death, connection and eye commands are
``gtp_analysis.py``; ``genmove`` asks the computer player in ``bot.py``; handicap placement is ``handicap.py``.
This module holds the engine's game: the standard commands and the GNU Go extensions about moves and the board.

Where the spec is silent this engine does what GNU Go 3.8 does (``gnugo --mode gtp --chinese-rules
--situational-superko``): the GNU Go extensions ``trymove``/``popgo``, ``countlib``, ``findlib``, ``captures``,
``color``, ``list_stones``, ``all_legal``, ``is_legal``, ``reg_genmove``, ``loadsgf FILE [N|VERTEX]``; vertex lists
in board order (top row first, left to right); ``PASS`` in upper case; ``final_score`` as ``B+3.5``/``W+7.0``/``0``;
``showboard`` drawn like GNU Go's, star points and capture counts included.
"""

from __future__ import annotations

import math
import random
import re
from typing import Callable

from . import bot
from .coords import COLUMNS, MAX_SIZE, MIN_SIZE, BadCoordinate
from .game import CHINESE_RULES, Game, Rules
from .gtp_analysis import AnalysisCommands
from .gtp_protocol import _COLOR_WORDS, GtpError, clean_line
from .handicap import fixed_handicap_points, free_handicap_points, place_free_handicap

__all__ = ["GtpEngine", "GtpError", "clean_line", "star_points"]

PROTOCOL_VERSION = "2"
ENGINE_NAME = "teach"


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("teach")
    except Exception:  # not installed (running from a source tree): still answer something
        return "0.1.0"


class GtpEngine(AnalysisCommands):
    """A GTP engine holding one game. ``handle`` answers one line; ``serve`` runs a whole session."""

    def __init__(self, size: int = 19, komi: float = 7.5, seed: int = 0, rules: Rules = CHINESE_RULES,
                 read_seconds: float = 2.0, level: int = bot.DEFAULT_LEVEL) -> None:
        self.rules = rules
        self.level = bot.level_info(level).number  # the computer level ``genmove`` plays (bot.LEVELS)
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

    # ------------------------------------------------------------------ the board as GNU Go draws it
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

    # ------------------------------------------------------------------ the computer player (teach/go/bot.py)
    def choose_move(self, color: int) -> int | None:
        """The computer player's move for ``color`` (None = pass) at the session's level: the built-in levels
        draw from the engine's seeded generator; the GNU Go levels ask GNU Go when it is the side to move's
        turn, and play the top built-in level when GNU Go is missing or fails."""
        self._resume()
        if self.game.over:
            return None
        if bot.level_info(self.level).engine == "gnugo" and color == self.game.to_move:
            return self.game.point(bot.reply(self.game, self.level, self.seed))
        return bot.choose_move(self.game, color, self.rng, level=self.level)


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
