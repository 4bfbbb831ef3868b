"""Eye spaces and their values: dead shapes die at their vital point, live shapes live, false eyes are no eyes.

Each diagram is the lower-left corner of the board (left column = the edge), ``X`` the owner, ``O`` the
opponent, ``*`` the vital point (an empty point of the eye space). Every shape is checked for both colours and
on 9x9 and 13x13 boards.
"""

from __future__ import annotations

import pytest

from teach.go import Game
from teach.go.eyes import eye_space, eye_value
from conftest import build_position

SHAPES = {
    # name: (diagram, (min, max))
    "straight three on the edge": (["OOOOOO", "XXXXXO", "X.*.XO", "XXXXXO"], (1, 2)),
    "straight three in the corner": (["OOOOO", "XXXXO", ".*.XO"], (1, 2)),
    "bent three": (["OOOOOO", "XXXXXO", "X*.XXO", "X.XXXO", "XXXXXO"], (1, 2)),
    "T-four (pyramid four)": (["OOOOOO", "XXXXXO", "X.*.XO", "XX.XXO", "XXXXXO"], (1, 2)),
    "bulky five": (["OOOOOO", "XXXXXO", "X.*.XO", "X..XXO", "XXXXXO"], (1, 2)),
    "flower five": (["OOOOOO", "XXXXXO", "XX.XXO", "X.*.XO", "XX.XXO", "XXXXXO"], (1, 2)),
    "rabbity six": (["OOOOOO", "XXXXXO", "XX.XXO", "X.*.XO", "X..XXO", "XXXXXO"], (1, 2)),
    "square four": (["OOOOOO", "XXXXXO", "X..XXO", "X..XXO", "XXXXXO"], (1, 1)),
    "straight four": (["OOOOOOO", "XXXXXXO", "X....XO", "XXXXXXO"], (2, 2)),
    "bent four": (["OOOOOO", "XXXXXO", "X...XO", "X.XXXO", "XXXXXO"], (2, 2)),
    "one-point eye": (["OOOO", "XXXO", "X.XO", "XXXO"], (1, 1)),
}


def build(diagram: list[str], size: int, swap: bool) -> tuple[Game, int | None, int]:
    """The position, the vital point (if marked) and a point of the eye space."""
    rows = ["." * size] * (size - len(diagram)) + [row.ljust(size, ".") for row in diagram]
    if swap:
        rows = [row.translate(str.maketrans("XO", "OX")) for row in rows]
    game = build_position([row.replace("*", ".") for row in rows])
    empty = {(len(diagram) - 1 - i) * size + c: ch for i, row in enumerate(diagram) for c, ch in enumerate(row)
             if ch in ".*"}
    vital = next((p for p, ch in empty.items() if ch == "*"), None)
    return game, vital, next(iter(empty))


@pytest.mark.parametrize("size", [9, 13])
@pytest.mark.parametrize("swap", [False, True], ids=["black-owner", "white-owner"])
@pytest.mark.parametrize("name", list(SHAPES))
def test_shape_value_and_vital_point(name, swap, size):
    diagram, (lo, hi) = SHAPES[name]
    game, vital, inside = build(diagram, size, swap)
    value = eye_value(game, inside)
    assert value is not None
    assert (value.min, value.max) == (lo, hi)
    if lo < hi:
        assert value.attack == vital and value.defence == vital
    else:
        assert value.attack is None and value.defence is None


@pytest.mark.parametrize("swap", [False, True])
def test_eye_space_owner_and_points(swap):
    game, _, inside = build(SHAPES["bent three"][0], 9, swap)
    space = eye_space(game, inside)
    assert space.color == (2 if swap else 1)
    assert {game.name(p) for p in space.points} == {"B3", "C3", "B2"}
    assert not space.marginal


@pytest.mark.parametrize("diagram, value", [
    # one enemy diagonal in the middle of the board: still an eye
    (["OOOOOO", "XXXXXO", "XX.XXO", "XXXXXO", "XXXXXO"], (1, 1)),
], ids=["true-centre"])
def test_true_and_false_eyes(diagram, value):
    for swap in (False, True):
        game, _, empty = build(diagram, 9, swap)
        got = eye_value(game, empty)
        assert got is not None and (got.min, got.max) == value


@pytest.mark.parametrize("diagram, value", [
    (["...XXX...", "...X.X...", "...XXO..."], (1, 1)),
    # two enemy diagonals in the middle of the board: the stones around the point are two chains that meet
    # only there, and the point is no eye (the diagonal rule; the stones beyond the diagonals are read too)
    (["...OXX...", "...X.X...", "...XXO..."], (0, 0)),
], ids=["one-enemy-diagonal", "two-enemy-diagonals"])
def test_eye_in_the_open(diagram, value):
    """A one-point eye in the middle of an otherwise empty 9x9 board (its centre, E5)."""
    for swap in (False, True):
        rows = ["........."] * 3 + diagram + ["........."] * 3
        if swap:
            rows = [row.translate(str.maketrans("XO", "OX")) for row in rows]
        game = build_position(rows)
        got = eye_value(game, game.point("E5"))
        assert got is not None and (got.min, got.max) == value


@pytest.mark.parametrize("swap", [False, True])
def test_marginal_point_decides_the_eye(swap):
    """A two-point space on the edge, one of its points next to a living enemy wall: whoever plays that point
    first decides whether the other is an eye (the enemy's stone there is connected to its wall)."""
    game, _, _ = build(["....O....", "....OXXXX", "....OXXXX", "....O..XX"], 9, swap)
    space = eye_space(game, game.point("G1"))
    assert {game.name(p) for p in space.points} == {"F1", "G1"}
    assert {game.name(p) for p in space.marginal} == {"F1"}
    got = eye_value(game, game.point("G1"))
    assert (got.min, got.max) == (0, 1)
    assert game.name(got.attack) == game.name(got.defence) == "F1"


def test_no_eye_space_on_open_board():
    game = Game(9)
    game.play("E5")
    assert eye_space(game, game.point("A1")) is None
    assert eye_value(game, game.point("A1")) is None
