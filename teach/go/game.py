"""The rules of Go as the Chinese rules state them (articles 1-9), on square boards from 2x2 to 19x19.

Design: the board is incremental. Every stone points at its chain object, which keeps the chain's stones and
its liberty set, so legality is decided from the four neighbours of the move without walking chains; the
position hash is a Zobrist key updated by XOR; history is kept as hashes only. Every change is logged, so
``undo`` restores the previous state exactly without replaying the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from mypy_extensions import mypyc_attr

from .coords import BadCoordinate, check_size, neighbours, parse_point, point_index, point_name, point_names

EMPTY, BLACK, WHITE = 0, 1, 2
COLOR_NAMES = {BLACK: "black", WHITE: "white"}
_COLOR_WORDS = {"black": BLACK, "b": BLACK, "white": WHITE, "w": WHITE, "B": BLACK, "W": WHITE, BLACK: BLACK, WHITE: WHITE}

DEFAULT_KOMI = 7.5
ILLEGAL_REASONS = ("occupied", "suicide", "ko", "superko", "game-over")


class IllegalMove(ValueError):
    """A move the rules forbid. ``reason`` is one of ILLEGAL_REASONS."""

    def __init__(self, reason: str, move: str = "", color: str = "") -> None:
        self.reason = reason
        self.move = move
        self.color = color
        where = f"{color} {move}: " if move else ""
        super().__init__(f"{where}illegal move ({reason})")


def parse_color(color: object) -> int:
    if isinstance(color, int) and color in (BLACK, WHITE):
        return color
    if isinstance(color, str):
        c = _COLOR_WORDS.get(color.strip().lower())
        if c:
            return c
    raise ValueError(f"{color!r} is not a colour (use 'black' or 'white')")


CAPTURE_GOALS = (1, 3, 5)  # the capture games the product offers (吃一子 / 吃三子 / 吃五子); any N >= 1 is a rule


@mypyc_attr(native_class=False)  # compiled, its fields would refuse a wrong type with a TypeError first
@dataclass(frozen=True)
class Rules:
    """Rule options. The default is the Chinese rules: situational superko (art. 6), no suicide (art. 5).

    ``capture_goal`` N makes the game the capture game (吃子游戏): the first side to have captured N stones in
    all wins, and the game ends with that move. Everything else is the same rules (ko, superko, no suicide).
    When both sides pass in a row first (neither wants to, or the side to move has no legal move and must pass),
    the game ends too: the side with more captures wins, equal captures are a draw (``Game.winner``)."""

    superko: str = "situational"  # "situational" | "positional" | "none" (plain ko only)
    suicide: bool = False  # True allows multi-stone suicide; single-stone suicide is never legal
    capture_goal: int | None = None

    def __post_init__(self) -> None:
        if self.superko not in ("situational", "positional", "none"):
            raise ValueError(f"unknown superko rule {self.superko!r}")
        goal: object = getattr(self, "capture_goal")  # as given: the compiled build would check its type first
        if goal is not None and (type(goal) is not int or goal < 1):
            raise ValueError(f"a capture goal is a number of stones, 1 or more, not {goal!r}")


CHINESE_RULES = Rules()


class Chain:
    """A string of connected stones of one colour and its liberties."""

    __slots__ = ("color", "stones", "libs")

    def __init__(self, color: int, stones: list[int], libs: set[int]) -> None:
        self.color = color
        self.stones = stones
        self.libs = libs


_rng = random.Random(20261129)
_KEYS: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}
_WHITE_TO_MOVE = _rng.getrandbits(64)


@lru_cache(maxsize=None)
def _edge_masks(size: int) -> tuple[int, int, int]:
    """Bitmasks of the whole board, of the points not in the first column and not in the last column."""
    full = (1 << size * size) - 1
    first_col = sum(1 << (r * size) for r in range(size))
    last_col = first_col << (size - 1)
    return full, full & ~first_col, full & ~last_col


@lru_cache(maxsize=None)
def bits_table(size: int) -> tuple[int, ...]:
    return tuple(1 << p for p in range(size * size))


def zobrist_keys(size: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Per-size keys indexed [colour][point] (colour 0 unused, so the colour int indexes directly)."""
    keys = _KEYS.get(size)
    if keys is None:
        rng = random.Random(size * 7919 + 17)
        n = size * size
        keys = ((0,) * n, tuple(rng.getrandbits(64) for _ in range(n)), tuple(rng.getrandbits(64) for _ in range(n)))
        _KEYS[size] = keys
    return keys


class Game:
    """A game of Go under the Chinese rules. Points and moves are GTP text (``"D4"``, ``"pass"``).

    The methods above the board interface (``play``, ``undo``, ``setup``, ``legal_moves``, ``chain_at`` ...)
    speak GTP names and check everything; they are what lessons, records and the web use.

    The board interface, for the readers (``reading``, ``lifedeath``, ``race``, ``connection``, ``status``,
    ``eyes``, ``judge``, ``scoring``): points are indexes 0 .. size*size-1 (row by row from A1; ``name`` and
    ``point`` convert), colours are the ints EMPTY, BLACK, WHITE. These are plain attributes, not properties,
    because a search reads them millions of times:

    - ``board``: list, point -> colour. Read-only: change it through moves, ``setup`` or ``set_board``.
    - ``chain_of``: list, point -> its ``Chain`` (colour, stones, liberty set) or None on an empty point.
      Read-only, chains included: the engine updates them in place.
    - ``adjacent``: tuple, point -> tuple of its orthogonal neighbour points. Read-only (shared by all games of
      one size).
    - ``all_chains``: set of every chain on the board; ``empty_points``: set of the empty points. Read-only.
    - ``hash``: the Zobrist key of the stones (without the side to move). Read-only.
    - ``to_move``: the colour to move (an int; ``to_play`` is the same as a name, and checks what it is given).
    - ``ko``, ``ko_color``: ``ko_color`` may not retake at point ``ko`` on its next move; ``ko`` is -1 when
      there is no such point.
    - ``to_move``, ``ko`` and ``ko_color`` may be written by a reader on its own copy (see
      ``reading.reading_copy``), to hand the turn to one side for a read and to drop a ban that the turn
      passing lifted; it puts back what it wrote when the read is done. Nothing is checked when they are
      written and the history of positions is not told: the rules' own turn changes go through ``play``,
      ``pass_move`` and ``to_play``. Every other attribute is read-only for callers.
    - ``play_point``, ``pass_move``, ``undo``, ``is_legal_point``, ``legal_points``, ``liberties_after``: moves
      and legality by point index.
    - ``require_point`` (a GTP name that must be a point, not a pass, to its index) and ``sort_key`` (orders GTP
      names as the board does).
    - ``set_board``: the unchecked setup, for checking a position that may break the rules (chains without
      liberties); ``clear_undo`` and ``can_undo`` for a copy that starts its own history.

    A setup, ``set_board`` or a multi-stone suicide replace the ``chain_of``, ``all_chains`` and ``empty_points``
    objects: read them from the game again after one, never keep an old reference.
    """

    def __init__(self, size: object = 19, komi: float | None = None, rules: Rules = CHINESE_RULES,
                 handicap: int = 0) -> None:
        # ``object``: a wrong size is answered by check_size's ValueError in both builds (a compiled int
        # parameter would refuse a float with a TypeError first)
        self.size = size = check_size(size)
        # komi 7.5 points (贴3¾子); a handicap game has none: Black gives back half a stone per handicap stone
        self.komi = float(komi) if komi is not None else (0.0 if handicap >= 2 else DEFAULT_KOMI)
        self.rules = rules
        self._bits = bits_table(size)
        n = size * size
        self.adjacent = neighbours(size)
        self._names = point_names(size)
        self._index = point_index(size)
        self._keys = zobrist_keys(size)
        self.board: list[int] = [EMPTY] * n
        self.chain_of: list[Chain | None] = [None] * n
        self.hash = 0
        self.empty_points: set[int] = set(range(n))
        self._empty_bits = (1 << n) - 1
        self.all_chains: set[Chain] = set()  # every chain on the board
        self._masks = _edge_masks(size)
        self.ko = -1  # the point the side in ko_color may not retake next move
        self.ko_color = 0
        self.to_move = BLACK
        self._captures = [0, 0, 0]
        self._passes = 0
        self.resigned: str | None = None  # colour that resigned
        self.handicap = 0
        self.moves: list[tuple[int, int | None]] = []  # (colour, point or None for pass), in order played
        self.notes: list[str] = []  # what a tolerant SGF replay had to forgive
        self.info: dict[str, str] = {}  # record properties such as PB, PW, RE, DT (from SGF)
        self.setups: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []  # (moves before, B, W, empty)
        self._log: list[tuple] = []
        self._seen: set[int] = {self._position_key()}  # every position so far (art. 6), as hash keys
        self._repeats: dict[int, int] = {}  # keys reached more than once (only records with repetition)
        # the readers' private copies (no superko, rules fixed) skip the history of stone moves: see keep_no_history
        self._history = True
        if handicap:
            from .handicap import place_fixed_handicap

            place_fixed_handicap(self, handicap)

    @property
    def rules(self) -> Rules:
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        if rules.superko != "none" and not getattr(self, "_history", True):
            raise ValueError("this position keeps no history of its moves: superko cannot be checked")
        self._rules = rules
        self._goal = rules.capture_goal or 0  # 0: no capture goal (read on every move, so a plain int)
        self._superko = rules.superko != "none"
        self._positional = rules.superko == "positional"

    # ------------------------------------------------------------------ reading the position
    @property
    def to_play(self) -> str:
        return COLOR_NAMES[self.to_move]

    @to_play.setter
    def to_play(self, color: str) -> None:
        self._set_to_move(parse_color(color))

    @property
    def captures(self) -> dict[str, int]:
        return {"black": self._captures[BLACK], "white": self._captures[WHITE]}

    @property
    def over(self) -> bool:
        """Art. 7: the game ends by two passes in a row or by resignation; the capture game also when a side
        reaches the capture goal."""
        return self._passes >= 2 or self.resigned is not None or self._goal_reached()

    def _goal_reached(self) -> bool:
        goal = self._goal
        return bool(goal) and (self._captures[BLACK] >= goal or self._captures[WHITE] >= goal)

    @property
    def end_reason(self) -> str | None:
        """Why the game is over: ``resign``, ``captures`` (the capture goal reached), ``passes``; None while it
        goes on."""
        if self.resigned is not None:
            return "resign"
        if self._goal_reached():
            return "captures"
        if self._passes >= 2:
            return "passes"
        return None

    @property
    def winner(self) -> str | None:
        """The winner decided by the rules alone: the other side after a resignation; in the capture game the
        side that reached the goal, or after two passes the side with more captures. None for a draw, a game
        still going on, or a full game ended by passes (that one is decided by counting: ``score``)."""
        reason = self.end_reason
        if reason == "resign":
            return COLOR_NAMES[3 - parse_color(self.resigned)]
        if reason is None or not self._goal:
            return None
        black, white = self._captures[BLACK], self._captures[WHITE]
        return "black" if black > white else "white" if white > black else None

    @property
    def ko_point(self) -> str | None:
        """The point the side to move may not retake this turn (plain ko), if any."""
        if self.ko >= 0 and self.ko_color == self.to_move:
            return self._names[self.ko]
        return None

    def point(self, move: str) -> int | None:
        return parse_point(move, self.size)

    def name(self, p: int | None) -> str:
        return point_name(p, self.size)

    def color_at(self, move: str) -> str | None:
        p = self.require_point(move)
        return COLOR_NAMES.get(self.board[p])

    def board_rows(self) -> list[str]:
        """Rows as text, top row first: X black, O white, . empty."""
        chars = ".XO"
        n, b = self.size, self.board
        return ["".join(chars[b[r * n + c]] for c in range(n)) for r in range(n - 1, -1, -1)]

    def chain_at(self, move: str) -> list[str]:
        """Stones of the chain on this point, in GTP names (sorted); [] when empty."""
        c = self.chain_of[self.require_point(move)]
        return sorted((self._names[s] for s in c.stones), key=self.sort_key) if c else []

    def liberties(self, move: str) -> list[str]:
        """Liberties of the chain on this point (sorted GTP names); [] when empty."""
        c = self.chain_of[self.require_point(move)]
        return sorted((self._names[s] for s in c.libs), key=self.sort_key) if c else []

    def chains(self) -> list[Chain]:
        """Every chain on the board (internal objects: read, never modify), ordered by their lowest point."""
        return sorted(self.all_chains, key=lambda c: min(c.stones))

    def sort_key(self, name: str) -> int:
        return self._names.index(name)

    def require_point(self, move: str) -> int:
        p = parse_point(move, self.size)
        if p is None:
            raise BadCoordinate(move, self.size, "a point is needed here, not a pass")
        return p

    # ------------------------------------------------------------------ hashes and history
    def _position_key(self, h: int | None = None, to_move: int | None = None) -> int:
        """History keys always include the side to move, so the superko rule can change mid-game:
        positional superko looks a position up with either side to move."""
        h = self.hash if h is None else h
        return h ^ _WHITE_TO_MOVE if (self.to_move if to_move is None else to_move) == WHITE else h

    def _repeats_position(self, key: int) -> bool:
        seen = self._seen
        return key in seen or (self._positional and key ^ _WHITE_TO_MOVE in seen)

    def recompute_hash(self) -> int:
        """The Zobrist hash computed from scratch (tests compare it with the incremental one)."""
        keys = self._keys
        h = 0
        for p, c in enumerate(self.board):
            if c:
                h ^= keys[c][p]
        return h

    def _set_to_move(self, color: int) -> None:
        """Hand the turn to ``color`` by fiat (after setup, a record's PL): the position now remembered as faced
        is the one with ``color`` to move, not the one that was never played from."""
        if color != self.to_move:
            self._forget()
            self._log.append(("turn", self.to_move))
            self.to_move = color
            self._remember()

    # ------------------------------------------------------------------ moves
    def play(self, move: str, color: str | None = None, *, allow_repeat: bool = False) -> list[str]:
        """Play a move (GTP text or ``pass``) for ``color`` (default: the side to move).

        Returns the names of the captured stones. Raises IllegalMove (state unchanged) or BadCoordinate.
        ``allow_repeat`` skips the ko and superko checks: records made under other rules must still replay.
        """
        c = self.to_move if color is None else (_COLOR_WORDS.get(color) or parse_color(color))
        p = self._index.get(move)
        if p is None:
            p = parse_point(move, self.size)
            if p is None:
                self.pass_move(c)
                return []
        captured = self.play_point(p, c, allow_repeat)
        if captured:
            names = self._names
            return [names[s] for s in captured]
        return []

    def pass_move(self, color: int | None = None) -> None:
        c = self.to_move if color is None else color
        if self.over:
            raise IllegalMove("game-over", "pass", COLOR_NAMES[c])
        self._log.append(("pass", self.ko, self.ko_color, self.to_move, self._passes))
        self.ko = -1
        self._passes += 1
        self.to_move = 3 - c
        self.moves.append((c, None))
        self._remember()

    def _remember(self) -> None:
        key = self._position_key()
        if key in self._seen:
            self._repeats[key] = self._repeats.get(key, 0) + 1
        else:
            self._seen.add(key)

    def keep_no_history(self) -> None:
        """For a private copy that a reader plays thousands of moves on, under rules without superko: stone
        moves no longer record the positions they reach (a set update per move and per undo saved). Superko can
        then no longer be switched on for this game."""
        if self._superko:
            raise ValueError("superko needs the history of positions")
        self._history = False

    def _forget(self) -> None:
        """Drop the current position from the history (undo); a position reached twice stays once."""
        key = self._position_key()
        extra = self._repeats.get(key)
        if extra:
            if extra == 1:
                del self._repeats[key]
            else:
                self._repeats[key] = extra - 1
        else:
            self._seen.discard(key)

    def play_point(self, p: int, color: int, allow_repeat: bool = False) -> list[int]:
        """Play at point index ``p``; returns the captured point indices. The hot path of the engine."""
        board = self.board
        if board[p] or self._passes >= 2 or self.resigned is not None or (
                p == self.ko and color == self.ko_color and not allow_repeat) or (self._goal and self._goal_reached()):
            self._refuse(p, color)
        chain = self.chain_of
        empties = []
        own = []
        opp_adj = []
        captured = []
        for q in self.adjacent[p]:
            ch = chain[q]
            if ch is None:
                empties.append(q)
            elif ch.color == color:
                if ch not in own:
                    own.append(ch)
            elif ch not in opp_adj:
                opp_adj.append(ch)
                if len(ch.libs) == 1:
                    captured.append(ch)
        if not empties and not captured:
            for ch in own:
                if len(ch.libs) > 1:
                    break
            else:
                return self._suicide(p, color, own, allow_repeat)

        opp = 3 - color
        h = self.hash ^ self._keys[color][p]
        if captured:
            okeys = self._keys[opp]
            for ch in captured:
                for s in ch.stones:
                    h ^= okeys[s]
        key = h ^ _WHITE_TO_MOVE if opp == WHITE else h
        if self._superko and not allow_repeat and (key in self._seen or (
                self._positional and key ^ _WHITE_TO_MOVE in self._seen)):
            raise IllegalMove("superko", self._names[p], COLOR_NAMES[color])

        # -- the move is legal: change the position and log how to take it back
        board[p] = color
        self.empty_points.discard(p)
        self._empty_bits ^= self._bits[p]
        for ch in opp_adj:
            ch.libs.discard(p)
        if not own:
            base = Chain(color, [p], set(empties))
            chain[p] = base
            self.all_chains.add(base)
            old_len = old_libs = absorbed = None
        else:
            # grow the first neighbouring chain in place; the log keeps only what was added, so a long
            # chain's liberty set is never copied
            base = own[0]
            old_len = len(base.stones)
            libs = base.libs
            old_libs = []
            for q in empties:
                if q not in libs:
                    old_libs.append(q)
                    libs.add(q)
            base.stones.append(p)
            chain[p] = base
            if len(own) > 1:
                absorbed = own[1:]
                stones = base.stones
                live = self.all_chains
                for ch in absorbed:
                    gained = ch.libs - libs
                    libs |= gained
                    old_libs += gained
                    stones += ch.stones
                    for s in ch.stones:
                        chain[s] = base
                    live.discard(ch)
            else:
                absorbed = None
            libs.discard(p)
        removed = self._capture(captured, color) if captured else []
        self._log.append((p, color, self.hash, self.ko, self.ko_color, self.to_move, self._passes,
                          base, old_len, old_libs, absorbed, opp_adj, captured))
        self.hash = h
        # plain ko: one stone took one stone and is left with that single liberty
        if len(removed) == 1 and old_len is None and len(base.libs) == 1:
            self.ko = removed[0]
            self.ko_color = opp
        else:
            self.ko = -1
        self.to_move = opp
        self._passes = 0
        self.moves.append((color, p))
        if self._history:
            if key in self._seen:
                self._repeats[key] = self._repeats.get(key, 0) + 1
            else:
                self._seen.add(key)
        return removed

    def _capture(self, captured: list[Chain], color: int) -> list[int]:
        board, chain, nb, live = self.board, self.chain_of, self.adjacent, self.all_chains
        removed: list[int] = []
        for ch in captured:
            for s in ch.stones:
                board[s] = EMPTY
                chain[s] = None
            removed += ch.stones
            live.discard(ch)
        self.empty_points.update(removed)
        bits = self._bits
        e = self._empty_bits
        for s in removed:
            e ^= bits[s]
            for q in nb[s]:
                nc = chain[q]
                if nc is not None:
                    nc.libs.add(s)
        self._empty_bits = e
        self._captures[color] += len(removed)
        return removed

    def _refuse(self, p: int, color: int) -> None:
        if self.over:
            raise IllegalMove("game-over", self._names[p], COLOR_NAMES[color])
        if self.board[p]:
            raise IllegalMove("occupied", self._names[p], COLOR_NAMES[color])
        raise IllegalMove("ko", self._names[p], COLOR_NAMES[color])

    def _suicide(self, p: int, color: int, own: list[Chain], allow_repeat: bool) -> list[int]:
        """Art. 5: a move that leaves its own stones without liberties and captures nothing is forbidden.

        Under the suicide-allowed option a multi-stone suicide removes the mover's own chain."""
        if not (own and self.rules.suicide):
            raise IllegalMove("suicide", self._names[p], COLOR_NAMES[color])
        removed = sorted({s for ch in own for s in ch.stones})
        h = self.hash
        for s in removed:
            h ^= self._keys[color][s]
        key = self._position_key(h, 3 - color)
        if self._superko and not allow_repeat and self._repeats_position(key):
            raise IllegalMove("superko", self._names[p], COLOR_NAMES[color])
        snap = self._snapshot()
        for s in removed:
            self.board[s] = EMPTY
        self._captures[3 - color] += len(removed) + 1  # the stone just played goes with its chain
        self._rebuild()
        self.ko = -1
        self.to_move = 3 - color
        self._passes = 0
        self.moves.append((color, p))
        self._log.append(("snapshot", snap))
        self._remember()
        return []

    def resign(self, color: str | None = None) -> None:
        c = self.to_move if color is None else parse_color(color)
        if self.over:
            raise IllegalMove("game-over", "resign", COLOR_NAMES[c])
        self._log.append(("resign",))
        self.resigned = COLOR_NAMES[c]

    def undo(self) -> None:
        """Take back the last action (move, pass, resignation, setup), restoring everything exactly."""
        if not self._log:
            raise IndexError("nothing to undo")
        entry = self._log.pop()
        kind = entry[0]
        if type(kind) is int:  # a stone move (see play_point)
            if self._history:
                self._forget()
            self._undo_move(*entry)
            self.moves.pop()
        elif kind == "pass":
            self._forget()
            self.ko, self.ko_color, self.to_move, self._passes = entry[1:]
            self.moves.pop()
        elif kind == "snapshot":
            self._forget()
            self._restore(entry[1])
        elif kind == "setup":
            self._forget()
            self.setups.pop()
            self._restore(entry[1])
        elif kind == "resume":
            self._passes = entry[1]
        elif kind == "resign":
            self.resigned = None
        elif kind == "turn":
            self._forget()
            self.to_move = entry[1]
            self._remember()

    def _undo_move(self, p, color, h, ko, ko_color, to_move, passes, base, old_len, old_libs, absorbed, opp_adj,
                   captured) -> None:
        board, chain, nb = self.board, self.chain_of, self.adjacent
        opp = 3 - color
        empties, bits, live = self.empty_points, self._bits, self.all_chains
        if captured:
            n = 0
            for ch in captured:
                live.add(ch)
                for s in ch.stones:
                    board[s] = opp
                    chain[s] = ch
                    empties.discard(s)
                    self._empty_bits ^= bits[s]
                    n += 1
                    for q in nb[s]:
                        d = chain[q]
                        if d is not None and d.color == color:
                            d.libs.discard(s)
            self._captures[color] -= n
        for ch in opp_adj:
            ch.libs.add(p)
        board[p] = EMPTY
        chain[p] = None
        empties.add(p)
        self._empty_bits ^= bits[p]
        if old_libs is None:
            live.discard(base)
        else:
            del base.stones[old_len:]
            libs = base.libs
            libs.difference_update(old_libs)  # here: the liberties the move added
            libs.add(p)
            if absorbed:
                for ch in absorbed:
                    live.add(ch)
                    for s in ch.stones:
                        chain[s] = ch
        self.hash, self.ko, self.ko_color, self.to_move, self._passes = h, ko, ko_color, to_move, passes

    # ------------------------------------------------------------------ setup (handicap, SGF AB/AW/AE)
    def setup(self, black=(), white=(), empty=()) -> None:
        """Place or remove stones without playing moves (handicap stones, SGF AB/AW/AE).

        A setup that would leave a chain without liberties is refused (ValueError) and changes nothing."""
        points = {}
        for color, moves in ((EMPTY, empty), (BLACK, black), (WHITE, white)):
            for m in moves:
                points[self.require_point(m) if isinstance(m, str) else m] = color
        snap = self._snapshot()
        if EMPTY not in points.values() and not any(self.board[p] for p in points):
            # only stones on empty points (handicap, most AB/AW): place them one by one, no rebuild
            for p, color in points.items():
                self._place_stone(p, color)
            dead = list({id(c): c for c in self.all_chains if not c.libs}.values())
        else:
            for p, color in points.items():
                self.board[p] = color
            self._rebuild()
            dead = [c for c in self.chains() if not c.libs]
        if dead:
            names = sorted(self._names[s] for c in dead for s in c.stones)
            self._restore(snap)
            raise ValueError(f"setup leaves stones without liberties: {', '.join(names)}")
        self.ko = -1
        self._log.append(("setup", snap))
        placed = [tuple(sorted(p for p, c in points.items() if c == color)) for color in (BLACK, WHITE, EMPTY)]
        self.setups.append((len(self.moves), placed[0], placed[1], placed[2]))
        self._remember()

    def _place_stone(self, p: int, color: int) -> None:
        """Put a stone on an empty point for a setup: chains merge, neighbours lose a liberty, nothing is
        captured (a setup that leaves a chain without liberties is refused by the caller)."""
        chain, live = self.chain_of, self.all_chains
        self.board[p] = color
        self.empty_points.discard(p)
        self._empty_bits ^= self._bits[p]
        self.hash ^= self._keys[color][p]
        libs: set[int] = set()
        own: list[Chain] = []
        for q in self.adjacent[p]:
            c = chain[q]
            if c is None:
                libs.add(q)
            elif c.color == color:
                if c not in own:
                    own.append(c)
            else:
                c.libs.discard(p)
        if not own:
            base = Chain(color, [p], libs)
            live.add(base)
        else:
            base = own[0]
            base.stones.append(p)
            base.libs |= libs
            for other in own[1:]:
                base.stones += other.stones
                base.libs |= other.libs
                for s in other.stones:
                    chain[s] = base
                live.discard(other)
            base.libs.discard(p)
        chain[p] = base

    def set_board(self, board: list[int]) -> None:
        """The unchecked setup: put these colours (point -> EMPTY, BLACK or WHITE) on the board and rebuild the
        chains, liberties and hash from them. Nothing is refused (a chain may be left without liberties, which
        is what a position checker wants to find) and nothing is logged: undo cannot take it back, and the
        history of positions, the turn and the ko stay as they were. For positions that are only looked at;
        play uses ``setup``."""
        self.board[:] = board
        self._rebuild()

    def can_undo(self) -> bool:
        """Is there an action to take back?"""
        return bool(self._log)

    def clear_undo(self) -> None:
        """Forget how to take back what was done so far: a reader's private copy starts from its position and
        never undoes past it."""
        self._log.clear()

    def resume(self) -> None:
        """Clear a finished game's passes so play goes on (records and GTP sessions keep playing after passes)."""
        if self._passes:
            self._log.append(("resume", self._passes))
            self._passes = 0

    def _snapshot(self) -> tuple:
        """Everything a setup or a suicide changes. Chain objects are kept by identity (with copies of their
        contents), because the undo records of earlier moves point at them."""
        chains = tuple((c, c.stones[:], set(c.libs)) for c in self.all_chains)
        return (self.board[:], self.chain_of[:], chains, self.hash, self.ko, self.ko_color, self.to_move,
                self._passes, self._captures[:], len(self.moves), self.handicap)

    def _restore(self, snap: tuple) -> None:
        (board, chain, chains, self.hash, self.ko, self.ko_color, self.to_move, self._passes, caps, nmoves,
         self.handicap) = snap
        self.board[:] = board
        self.chain_of = chain[:]
        for c, stones, libs in chains:
            c.stones = stones[:]
            c.libs = set(libs)
        self.all_chains = {c for c, _, _ in chains}
        self.empty_points = {p for p, c in enumerate(board) if c == EMPTY}
        self._empty_bits = sum(self._bits[p] for p in self.empty_points)
        self._captures = caps[:]
        del self.moves[nmoves:]

    def _rebuild(self) -> None:
        """Recompute chains, liberties and the hash from the board (after setup or a snapshot restore)."""
        board, nb = self.board, self.adjacent
        chain: list[Chain | None] = [None] * len(board)
        for p, color in enumerate(board):
            if color and chain[p] is None:
                ch = Chain(color, [], set())
                stack = [p]
                chain[p] = ch
                while stack:
                    s = stack.pop()
                    ch.stones.append(s)
                    for q in nb[s]:
                        c = board[q]
                        if c == EMPTY:
                            ch.libs.add(q)
                        elif c == color and chain[q] is None:
                            chain[q] = ch
                            stack.append(q)
        self.chain_of = chain
        self.all_chains = {c for c in chain if c is not None}
        self.empty_points = {p for p, c in enumerate(board) if c == EMPTY}
        self._empty_bits = sum(1 << p for p in self.empty_points)
        self.hash = self.recompute_hash()

    # ------------------------------------------------------------------ legality
    def is_legal(self, move: str, color: str | None = None) -> bool:
        c = self.to_move if color is None else parse_color(color)
        p = parse_point(move, self.size)
        if p is None:
            return not self.over
        return self.is_legal_point(p, c)

    def why_illegal(self, move: str, color: str | None = None) -> str | None:
        """The reason a move is illegal, or None when it is legal (tries the move and takes it back)."""
        try:
            self.play(move, color)
        except IllegalMove as e:
            return e.reason
        self.undo()
        return None

    def is_legal_point(self, p: int, color: int) -> bool:
        if self.board[p] or self.over:
            return False
        if p == self.ko and color == self.ko_color:
            return False
        chain = self.chain_of
        captured: list[Chain] = []
        liberty = False
        for q in self.adjacent[p]:
            ch = chain[q]
            if ch is None:
                liberty = True
            elif ch.color == color:
                if len(ch.libs) > 1:
                    liberty = True
            elif len(ch.libs) == 1 and ch not in captured:
                captured.append(ch)
        if not liberty and not captured:
            if not self.rules.suicide:
                return False
            return self.why_illegal(self._names[p], COLOR_NAMES[color]) is None
        if not self._superko:
            return True
        keys = self._keys
        h = self.hash ^ keys[color][p]
        for ch in captured:
            okeys = keys[3 - color]
            for s in ch.stones:
                h ^= okeys[s]
        return not self._repeats_position(h ^ _WHITE_TO_MOVE if color == BLACK else h)

    def liberties_after(self, p: int, color: int) -> set[int]:
        """The liberties the chain made by ``color`` playing on empty ``p`` would have, before any capture (the
        readers' self-atari test)."""
        board, chain = self.board, self.chain_of
        libs = set()
        for q in self.adjacent[p]:
            if board[q] == EMPTY:
                libs.add(q)
            elif board[q] == color:
                libs |= cast(Chain, chain[q]).libs
        libs.discard(p)
        return libs

    def legal_points(self, color: int | None = None) -> list[int]:
        """Every legal point (index) for ``color`` (default: the side to move), in index order.

        Most empty points have an empty neighbour and capture nothing, so they are legal unless they repeat a
        position: those are taken as a set at once. Only the few crowded points (no empty neighbour), the
        liberties of opponent chains in atari (captures change the hash) and the ko point are checked one by one.
        """
        c = self.to_move if color is None else color
        if self.over:
            return []
        e = self._empty_bits
        n = self.size
        full, not_left, not_right = self._masks
        crowded = e & ~(((e >> 1) & not_right) | ((e << 1) & not_left) | (e >> n) | ((e << n) & full))
        special: set[int] = set()
        while crowded:
            low = crowded & -crowded
            special.add(low.bit_length() - 1)
            crowded ^= low
        opp = 3 - c
        for ch in self.all_chains:
            if ch.color == opp and len(ch.libs) == 1:
                special |= ch.libs
        if self.ko >= 0 and self.ko_color == c:
            special.add(self.ko)
        free = self.empty_points - special
        plain: list[int]
        if self._superko:
            seen = self._seen
            keys = self._keys[c]
            base = self.hash ^ _WHITE_TO_MOVE if c == BLACK else self.hash
            if self._positional:
                other = base ^ _WHITE_TO_MOVE
                plain = [p for p in free if base ^ keys[p] not in seen and other ^ keys[p] not in seen]
            else:
                plain = [p for p in free if base ^ keys[p] not in seen]
        else:
            plain = list(free)
        is_legal = self.is_legal_point
        plain.extend(p for p in special if is_legal(p, c))
        plain.sort()
        return plain

    def legal_moves(self, color: str | None = None) -> list[str]:
        """Every legal point for ``color`` (default: the side to move) as GTP names; pass is not listed."""
        c = self.to_move if color is None else parse_color(color)
        names = self._names
        return [names[p] for p in self.legal_points(c)]

    # ------------------------------------------------------------------ SGF and scoring live in their modules
    @classmethod
    def from_sgf(cls, data, strict: bool = False, move_number: int | None = None,
                 until_point: str | None = None) -> "Game":
        """Replay an SGF record (bytes or text); see ``teach.go.record.game_from_sgf``."""
        from .record import game_from_sgf

        return game_from_sgf(data, strict=strict, move_number=move_number, until_point=until_point)

    def to_sgf(self) -> str:
        from .record import game_to_sgf

        return game_to_sgf(self)

    def score(self, dead=()):
        from .scoring import score

        return score(self, dead)

    def __repr__(self) -> str:
        return f"<Game {self.size}x{self.size} {len(self.moves)} moves, {self.to_play} to play>"

    def __str__(self) -> str:
        return "\n".join(self.board_rows())
