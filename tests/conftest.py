"""Shared helpers for the rules-engine tests: positions from diagrams, and full snapshots of a game's state."""

from __future__ import annotations

import pytest

from teach.go import Game
from teach.go.coords import COLUMNS


def build_position(rows: list[str], to_play: str = "black", game: Game | None = None, **game_args) -> Game:
    """A game whose board is the diagram: top row first, ``X`` black, ``O`` white, ``.`` empty, spaces ignored.

    The side to move is set before the stones go down, so the position is remembered (for superko) as the one
    ``to_play`` faces. Pass ``game`` to lay the diagram over an existing game (e.g. one with handicap stones).
    """
    rows = [r.replace(" ", "") for r in rows]
    size = len(rows)
    assert all(len(r) == size for r in rows), "a diagram is square"
    if game is None:
        game = Game(size=size, **game_args)
    assert game.size == size
    game.to_play = to_play
    stones: dict[str, list[str]] = {"X": [], "O": [], ".": []}
    for i, row in enumerate(rows):
        for col, ch in enumerate(row):
            stones[ch].append(f"{COLUMNS[col]}{size - i}")
    game.setup(black=stones["X"], white=stones["O"], empty=stones["."])
    return game


def chain_set(game: Game) -> frozenset:
    """Every chain as (colour, stones, liberties), in GTP names, so two states compare as plain values."""
    return frozenset(
        (c.color, frozenset(game.name(s) for s in c.stones), frozenset(game.name(s) for s in c.libs))
        for c in game.chains()
    )


def state(game: Game) -> dict:
    """Everything undo promises to restore, read through the public API."""
    other = "white" if game.to_play == "black" else "black"
    return {
        "board": game.board_rows(),
        "to_play": game.to_play,
        "captures": game.captures,
        "hash": game.hash,
        "ko_point": game.ko_point,
        "over": game.over,
        "moves": len(game.moves),
        "chains": chain_set(game),
        "legal": game.legal_moves(),
        "legal_other": game.legal_moves(other),
    }


@pytest.fixture(scope="session")
def position():
    return build_position


@pytest.fixture(scope="session")
def snapshot():
    return state
