"""Counting a finished game (数子) the way the count screen does it: the computer proposes the dead stones, the
players tap a group to mark it dead or alive, and the result is said both ways — as a Chinese teacher counts
("黑45子，归本数40½，贴3¾子，黑胜¾子") and as a score ("B+1.5").

The count itself is art. 9 (``scoring.score``): remove the dead stones, count each side's stones and the points
they surround; a side wins with more than half the board (归本数) plus what it gives: Black's komi (贴3¾子 for
7.5 points) and, in a handicap game, half a stone back per handicap stone (还让子数的一半).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

from .game import BLACK, COLOR_NAMES, WHITE, Game
from .scoring import Score, owners, stones_text
from .search import Budget
from .status import dragons, estimate

__all__ = ["Count", "count", "proposal", "toggle"]


PROPOSAL_NODES = 1_000  # per group: enough for the small groups a game between kids leaves dead
PROPOSAL_SECONDS = 2.0  # for the whole board, shared among its groups


def proposal(game: Game, nodes: int = PROPOSAL_NODES, seconds: float = PROPOSAL_SECONDS) -> list[str]:
    """The dead stones the status reader proposes (board order); stones it is unsure of stay alive, for the
    players to decide.

    Bounded for the whole board: ``nodes`` of reading per group and ``seconds`` shared among the groups (with
    a budget per group alone, a 13x13 or 19x19 game that kids end early — many small groups — took 15 to 70
    seconds). A group the reader cannot settle in its share stays alive for the players to mark."""
    groups = len(dragons(game)) or 1
    return _names(game, estimate(game, Budget(nodes=nodes, seconds=max(0.02, seconds / groups))).dead)


def toggle(game: Game, dead: Iterable[str], point: str) -> list[str]:
    """The dead stones after a tap on ``point``: the tapped stone's whole group (its chain and the chains of its
    colour it shares an eye space or two liberties with, as ``status.dragons`` groups them) turns alive if the
    tapped chain was marked dead, dead otherwise. ValueError for an empty point or a point off the board."""
    p = game.require_point(point)
    chain = game.chain_of[p]
    if chain is None:
        raise ValueError(f"{point} has no stone to mark")
    marked = {game.require_point(d) for d in dead}
    group = next(g for g in dragons(game) if any(c is chain for c in g))
    stones = {s for c in group for s in c.stones}
    marked = marked - stones if p in marked else marked | stones
    return _names(game, marked)


@dataclass(frozen=True)
class Count:
    """The count of a position with some stones marked dead."""

    score: Score
    owner: list[str]  # per point index: "black", "white" or "" (shared: dame, or nobody's)

    @property
    def dead(self) -> tuple[str, ...]:
        return self.score.dead

    def points(self) -> str:
        """The score as players write it: B+1.5, W+0.5, 0 for a draw."""
        return str(self.score)

    def referee_zh(self) -> str:
        """黑45子，归本数40½，贴3¾子，黑胜¾子 — Black's count, then what Black needs, then the result."""
        s = self.score
        parts = [f"黑{stones_text(s.black)}子", f"归本数{stones_text(s.half_count)}"]
        if s.komi:
            parts.append(f"贴{stones_text(s.komi / 2)}子")
        if _give_back(s):
            parts.append(f"还让子{stones_text(_give_back(s))}子")
        m = s.margin_stones
        parts.append("和棋" if m == 0 else f"{'黑' if m > 0 else '白'}胜{stones_text(abs(m))}子")
        return "，".join(parts)

    def referee_en(self) -> str:
        """Black 45 stones; half the board is 40½; komi 3¾ stones: Black wins by ¾ stone."""
        s = self.score
        parts = [f"Black {stones_text(s.black)} stones", f"half the board is {stones_text(s.half_count)}"]
        if s.komi:
            parts.append(f"komi {stones_text(s.komi / 2)} stones")
        if _give_back(s):
            parts.append(f"{stones_text(_give_back(s))} back for the handicap")
        m = s.margin_stones
        if m == 0:
            result = "a draw"
        else:
            n = abs(m)
            result = f"{'Black' if m > 0 else 'White'} wins by {stones_text(n)} stone{'s' if n > 1 else ''}"
        return "; ".join(parts[:-1]) + ("; " if len(parts) > 1 else "") + parts[-1] + ": " + result


def count(game: Game, dead: Iterable[str] = ()) -> Count:
    """The count with the chains of ``dead`` removed (a dead point takes its whole chain)."""
    score = game.score(list(dead))
    board = game.board[:]
    for name in score.dead:
        board[game.require_point(name)] = 0
    owner = owners(board, game.size, game.adjacent)
    return Count(score, [COLOR_NAMES.get(c, "") if c in (BLACK, WHITE) else "" for c in owner])


def _give_back(score: Score) -> Fraction:
    return Fraction(score.handicap, 2) if score.handicap >= 2 else Fraction(0)


def _names(game: Game, points: Iterable[int]) -> list[str]:
    return [game.name(p) for p in sorted(points)]
