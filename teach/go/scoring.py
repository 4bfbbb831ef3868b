"""Area counting (数子法, art. 9) and a result that speaks both points ("B+3.5") and stones (黑185子，胜1¾子)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable

from .game import BLACK, EMPTY, WHITE

if TYPE_CHECKING:
    from .game import Game

_FRACTIONS = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}


def stones_text(value: Fraction) -> str:
    """1.75 -> '1¾', 0.5 -> '½', 185 -> '185' (counts are in quarter stones at the finest)."""
    whole = int(value)
    frac = _FRACTIONS.get(value - whole)
    if frac is None:
        return str(float(value))
    return (str(whole) if whole or not frac else "") + frac


@dataclass(frozen=True)
class Score:
    size: int
    black: Fraction  # black's stones plus surrounded points (half of every shared point)
    white: Fraction
    komi: Fraction  # in points; 7.5 points = 贴3¾子
    handicap: int  # black gives back half a stone per handicap stone (让子要贴还让子数的一半)
    dead: tuple[str, ...] = ()

    @property
    def half_count(self) -> Fraction:
        """归本数: half the points on the board (180½ on 19x19, 84½ on 13x13, 40½ on 9x9)."""
        return Fraction(self.size * self.size, 2)

    @property
    def black_needs(self) -> Fraction:
        """Black's count that draws: 归本数 plus half the komi plus the handicap give-back, in stones."""
        give_back = Fraction(self.handicap, 2) if self.handicap >= 2 else Fraction(0)
        return self.half_count + self.komi / 2 + give_back

    @property
    def margin_stones(self) -> Fraction:
        """Black's count minus what Black needs; negative when White wins."""
        return self.black - self.black_needs

    @property
    def margin_points(self) -> Fraction:
        return self.margin_stones * 2

    @property
    def winner(self) -> str | None:
        m = self.margin_stones
        return "black" if m > 0 else "white" if m < 0 else None

    def __str__(self) -> str:
        m = self.margin_points
        if m == 0:
            return "0"
        return f"{'B' if m > 0 else 'W'}+{_number(abs(m))}"

    def chinese(self) -> str:
        """How a Chinese referee says it: 黑185子，胜1¾子 (always counted from Black's side)."""
        m = self.margin_stones
        head = f"黑{stones_text(self.black)}子"
        if m == 0:
            return head + "，和棋"
        return head + ("，胜" if m > 0 else "，负") + stones_text(abs(m)) + "子"

    def english(self) -> str:
        m = self.margin_stones
        head = f"Black {stones_text(self.black)} stones"
        if m == 0:
            return head + ", a draw"
        word = "wins" if m > 0 else "loses"
        return f"{head}, {word} by {stones_text(abs(m))} stone{'s' if abs(m) > 1 else ''}"


def _number(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else str(float(x))


def owners(board: list[int], size: int, nb) -> list[int]:
    """Who each point belongs to in the count: a stone to its colour, an empty point to the one colour that
    surrounds its empty region, EMPTY when the region touches both colours (or none)."""
    owner = board[:]
    seen = [False] * len(board)
    for start, c in enumerate(board):
        if c != EMPTY or seen[start]:
            continue
        region, borders, stack = [], set(), [start]
        seen[start] = True
        while stack:
            p = stack.pop()
            region.append(p)
            for q in nb[p]:
                cq = board[q]
                if cq == EMPTY:
                    if not seen[q]:
                        seen[q] = True
                        stack.append(q)
                else:
                    borders.add(cq)
        if len(borders) == 1:
            (side,) = borders
            for p in region:
                owner[p] = side
    return owner


def area(board: list[int], size: int, nb) -> tuple[Fraction, Fraction]:
    """Stones plus the empty points each side surrounds; points that belong to neither (dame, the regions
    touching both colours) are split in half, so the two counts always add up to the whole board."""
    owner = owners(board, size, nb)
    shared = Fraction(owner.count(EMPTY), 2)
    return owner.count(BLACK) + shared, owner.count(WHITE) + shared


def score(game: "Game", dead: Iterable[str] = ()) -> Score:
    """Count the game after removing the dead stones (art. 9). A dead point takes its whole chain with it."""
    board = game.board[:]
    removed = set()
    for name in dead:
        p = game.require_point(name)
        if board[p] == EMPTY and p not in removed:
            raise ValueError(f"{name} is marked dead but has no stone")
        c = game.chain_of[p]
        if c is not None:
            removed.update(c.stones)
    for p in removed:
        board[p] = EMPTY
    black, white = area(board, game.size, game.adjacent)
    names = tuple(sorted((game.name(p) for p in removed), key=game.sort_key))
    return Score(game.size, black, white, Fraction(game.komi).limit_denominator(4), game.handicap, names)
