"""GTP coordinates (columns A-T without I, row 1 at the bottom, ``pass``) and handicap stone placement."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from teach.go import BadCoordinate, Game, IllegalMove
from teach.go.coords import parse_point, point_name
from teach.go.handicap import fixed_handicap_points, place_free_handicap

GNUGO = "/usr/games/gnugo"


def names(points: list[int], size: int) -> set[str]:
    return {point_name(p, size) for p in points}


# ---------------------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize(
    ("text", "size", "index"),
    [
        ("A1", 19, 0),
        ("B1", 19, 1),
        ("H1", 19, 7),
        ("J1", 19, 8),  # no I: J is the ninth column
        ("T1", 19, 18),
        ("A2", 19, 19),  # row 1 is the bottom row, row 2 the one above it
        ("A19", 19, 342),
        ("T19", 19, 360),
        ("K10", 19, 9 * 19 + 9),  # tengen: K is the tenth column because I is skipped
        ("E5", 9, 4 * 9 + 4),
        ("J9", 9, 80),
        ("B2", 2, 3),
    ],
)
def test_parse_point_columns_skip_i_and_row_one_is_at_the_bottom(text, size, index):
    assert parse_point(text, size) == index
    assert point_name(index, size) == text


@pytest.mark.parametrize("text", ["d4", "D4", " d4 ", "D4\n"])
def test_parse_point_is_case_insensitive(text):
    assert parse_point(text, 19) == parse_point("D4", 19) == 3 * 19 + 3


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass", " pass "])
def test_pass_in_any_case_is_none(text):
    assert parse_point(text, 19) is None
    assert point_name(None, 19) == "pass"


@pytest.mark.parametrize("size", range(2, 20))
def test_every_point_name_round_trips_and_never_uses_i(size):
    seen = set()
    for p in range(size * size):
        name = point_name(p, size)
        assert "I" not in name
        assert parse_point(name, size) == p
        assert parse_point(name.lower(), size) == p
        seen.add(name)
    assert len(seen) == size * size
    # row 1 at the bottom: the first `size` indices are row 1, left to right
    assert [point_name(p, size) for p in range(size)] == [f"{c}1" for c in "ABCDEFGHJKLMNOPQRST"[:size]]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("", 19),
        ("   ", 19),
        ("I5", 19),  # GTP has no column I
        ("i5", 19),
        ("Z1", 19),
        ("U1", 19),  # one column past T
        ("A0", 19),
        ("A20", 19),
        ("K10", 9),  # a 19x19 point, off a 9x9 board
        ("J10", 9),
        ("C1", 2),
        ("D4.5", 19),
        ("4D", 19),
        ("DD", 19),
        ("D-4", 19),
        ("D 4", 19),
        ("D04", 19),
        ("passs", 19),
        ("pass D4", 19),
        ("tt", 19),  # an SGF pass, not GTP
        ("dd", 19),  # an SGF point, not GTP (D-D is not a GTP name)
    ],
)
def test_malformed_text_raises_bad_coordinate_naming_the_input(text, size):
    with pytest.raises(BadCoordinate) as info:
        parse_point(text, size)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value) or text in str(info.value)


@pytest.mark.parametrize("value", [None, 44, ("D", 4), b"D4"])
def test_non_text_raises_bad_coordinate(value):
    with pytest.raises(BadCoordinate) as info:
        parse_point(value, 19)
    assert str(value) in str(info.value) or repr(value) in str(info.value)


def test_game_rejects_bad_coordinates_without_changing_anything():
    game = Game(size=9)
    game.play("E5")
    before = (game.board_rows(), game.to_play, game.hash, len(game.moves))
    for bad in ["I3", "K1", "E10", "", "xyz"]:
        with pytest.raises(BadCoordinate, match="is not a point"):
            game.play(bad)
        assert (game.board_rows(), game.to_play, game.hash, len(game.moves)) == before
    with pytest.raises(BadCoordinate):
        game.liberties("pass")  # a point is needed, not a pass


def test_board_rows_put_row_one_last():
    game = Game(size=5)
    game.play("A1")
    game.play("E5")
    game.play("B2")
    assert game.board_rows() == [
        "....O",
        ".....",
        ".....",
        ".X...",
        "X....",
    ]


# ---------------------------------------------------------------------------------------------- handicap
# Answers of `gnugo --mode gtp` (GNU Go 3.8) to `fixed_handicap N`, checked by hand against the binary.
GNUGO_FIXED_HANDICAP = {
    9: {
        2: "G7 C3",
        3: "C7 G7 C3",
        4: "C7 G7 C3 G3",
        5: "C7 G7 E5 C3 G3",
        6: "C7 G7 C5 G5 C3 G3",
        7: "C7 G7 C5 E5 G5 C3 G3",
        8: "C7 E7 G7 C5 G5 C3 E3 G3",
        9: "C7 E7 G7 C5 E5 G5 C3 E3 G3",
    },
    13: {
        2: "K10 D4",
        3: "D10 K10 D4",
        4: "D10 K10 D4 K4",
        5: "D10 K10 G7 D4 K4",
        6: "D10 K10 D7 K7 D4 K4",
        7: "D10 K10 D7 G7 K7 D4 K4",
        8: "D10 G10 K10 D7 K7 D4 G4 K4",
        9: "D10 G10 K10 D7 G7 K7 D4 G4 K4",
    },
    19: {
        2: "Q16 D4",
        3: "D16 Q16 D4",
        4: "D16 Q16 D4 Q4",
        5: "D16 Q16 K10 D4 Q4",
        6: "D16 Q16 D10 Q10 D4 Q4",
        7: "D16 Q16 D10 K10 Q10 D4 Q4",
        8: "D16 K16 Q16 D10 Q10 D4 K4 Q4",
        9: "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4",
    },
}


@pytest.mark.parametrize(
    ("size", "stones"), [(size, stones) for size in (9, 13, 19) for stones in range(2, 10)]
)
def test_fixed_handicap_matches_gnugo(size, stones):
    expected = set(GNUGO_FIXED_HANDICAP[size][stones].split())
    points = fixed_handicap_points(size, stones)
    assert len(points) == stones
    assert names(points, size) == expected


def test_five_stones_on_19x19_are_the_corners_and_tengen():
    assert names(fixed_handicap_points(19, 5), 19) == {"D16", "Q16", "K10", "D4", "Q4"}


@pytest.mark.skipif(not shutil.which(GNUGO), reason=f"GNU Go is not installed at {GNUGO}")
def test_fixed_handicap_table_above_is_what_gnugo_answers():
    commands = []
    for size in (9, 13, 19):
        commands.append(f"boardsize {size}")
        for stones in range(2, 10):
            commands += ["clear_board", f"fixed_handicap {stones}"]
    out = subprocess.run([GNUGO, "--mode", "gtp"], input="\n".join(commands) + "\nquit\n",
                         capture_output=True, text=True, timeout=60).stdout
    responses = [block.strip() for block in out.split("\n\n") if block.strip()]
    assert len(responses) == len(commands) + 1  # and one for quit
    answers = [r[1:].strip() for c, r in zip(commands, responses) if c.startswith("fixed_handicap")]
    expected = [GNUGO_FIXED_HANDICAP[size][stones] for size in (9, 13, 19) for stones in range(2, 10)]
    assert answers == expected


@pytest.mark.parametrize(
    ("size", "stones"),
    [(19, 1), (19, 10), (19, 0), (13, 10), (9, 10), (7, 5), (8, 5), (10, 5), (18, 5), (6, 2), (5, 2), (2, 2)],
)
def test_fixed_handicap_refuses_counts_gnugo_refuses(size, stones):
    with pytest.raises(ValueError):
        fixed_handicap_points(size, stones)


@pytest.mark.parametrize(("size", "stones", "expected"), [(7, 4, "C5 E5 C3 E3"), (8, 4, "C6 F6 C3 F3")])
def test_fixed_handicap_on_small_boards_matches_gnugo(size, stones, expected):
    assert names(fixed_handicap_points(size, stones), size) == set(expected.split())


@pytest.mark.parametrize("stones", range(2, 10))
def test_white_plays_first_after_handicap(stones):
    game = Game(size=19, komi=0, handicap=stones)
    assert game.to_play == "white"
    assert game.handicap == stones
    placed = {name for name in names(fixed_handicap_points(19, stones), 19)}
    black = {point_name(p, 19) for p, c in enumerate(game.board) if c == 1}
    assert black == placed
    assert not placed & set(game.legal_moves())
    assert len(game.legal_moves()) == 361 - stones
    game.play("C3")
    assert game.color_at("C3") == "white"
    assert game.to_play == "black"


def test_free_handicap_places_black_stones_and_white_moves_next():
    game = Game(size=9, komi=0)
    assert place_free_handicap(game, ["C3", "G7", "E5"]) == ["C3", "G7", "E5"]
    assert game.handicap == 3
    assert game.to_play == "white"
    assert [game.color_at(p) for p in ("C3", "G7", "E5", "D4")] == ["black", "black", "black", None]


@pytest.mark.parametrize("points", [["C3"], ["C3", "C3"], [], ["C3", "pass"]])
def test_free_handicap_refuses_bad_lists(points):
    game = Game(size=9)
    with pytest.raises(ValueError):
        place_free_handicap(game, points)
    assert game.board_rows() == ["." * 9] * 9


def test_free_handicap_only_on_an_empty_board():
    game = Game(size=9)
    game.play("E5")
    with pytest.raises(ValueError):
        place_free_handicap(game, ["C3", "G7"])


def test_handicap_stones_are_not_moves():
    game = Game(size=9, handicap=4)
    assert game.moves == []
    with pytest.raises(IllegalMove) as info:
        game.play("C3")
    assert info.value.reason == "occupied"
