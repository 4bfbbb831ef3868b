"""The placeholder computer player behind GTP ``genmove``: legal, never silly with its own eyes, and no stronger.

It stands in until the real player with levels arrives; it answers through ``choose_move`` only, so that player
can take its place without touching the GTP front end.
"""

from __future__ import annotations

import random

from dataclasses import dataclass

from .coords import diagonals, neighbours
from .game import BLACK, WHITE, Game

_COLOR_WORDS = {BLACK: "black", WHITE: "white"}


@dataclass(frozen=True)
class Level:
    """A computer level: its number (1 the weakest), the story character it is drawn as (the web gives the names
    and promises in both languages), who plays it and how long it may think for one move."""

    number: int
    slug: str
    engine: str = "builtin"  # builtin | gnugo (falls back to the strongest built-in level)
    budget_seconds: float = 0.3


LEVELS = (Level(1, "mouse"), Level(2, "rabbit"), Level(3, "monkey"), Level(4, "panda"), Level(5, "tiger"),
          Level(6, "chief"), Level(7, "owl", "gnugo", 2.0), Level(8, "dragon", "gnugo", 2.0))


def reply(game: Game, level: int, seed: int) -> str:
    """The computer's move for the side to move, as GTP text (``pass`` included): the same position, level and
    seed give the same move."""
    rng = random.Random(seed * 100_003 + len(game.moves))
    return game.name(choose_move(game, game.to_move, rng))


def choose_move(game: Game, color: int, rng: random.Random) -> int | None:
    """A simple legal move for ``color`` (None = pass).

    In order: the biggest capture; a move that takes an own chain in atari out of atari (the biggest chain
    first); a random move that fills none of its own eyes and is not a self-atari; a random self-atari.
    It passes only when every legal move would fill one of its own single-point eyes. Random choices come
    from ``rng``, so a session with a seeded generator replays identically.
    """
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
        return rng.choice(sorted(p for p, k in capture_size.items() if k == best))
    for ch in sorted(in_atari, key=lambda c: (-len(c.stones), min(c.stones))):
        (lib,) = ch.libs
        if lib in legal_set and _liberties_after(game, lib, color) >= 2:
            return lib
    candidates = [p for p in legal if not _own_eye(game, p, color)]
    if not candidates:
        return None
    rng.shuffle(candidates)
    for p in candidates:
        if _liberties_after(game, p, color) >= 2:
            return p
    return candidates[0]


def _liberties_after(game: Game, p: int, color: int) -> int:
    name = game.name(p)
    game.play(name, _COLOR_WORDS[color])
    try:
        return len(game.liberties(name))
    finally:
        game.undo()


def _own_eye(game: Game, p: int, color: int) -> bool:
    """An empty point whose neighbours are all ``color``'s stones and that is no false eye.

    A false eye has two or more enemy stones on its diagonals (one, on the edge)."""
    board = game.board
    n = game.size
    if any(board[q] != color for q in neighbours(n)[p]):
        return False
    diag = diagonals(n)[p]
    enemies = sum(1 for q in diag if board[q] == 3 - color)
    return enemies < (2 if len(diag) == 4 else 1)
