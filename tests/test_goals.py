"""The goals race (比气), connect (连) and cut (断) of the move judge, and the capture reason not-a-liberty."""

from __future__ import annotations

import pytest

from teach.go import Game
from teach.go.connection import ConnectionReader, gtp_connect
from teach.go.judge import Goal, GoalError, Judge
from teach.go.race import SEKI, WIN, RaceReader
from conftest import build_position


def swap(rows: list[str]) -> list[str]:
    return [row.translate(str.maketrans("XO", "OX")) for row in rows]


def local(game: Game, rows: int) -> list[str]:
    """The empty points of the bottom ``rows`` rows (where the puzzle is) and one point far away."""
    names = [game.name(p) for p in range(game.size * rows) if game.board[p] == 0]
    return names + [game.name(game.size * game.size - 1)]


# A race on the edge: white D2-F2 (three liberties D1 E1 F1) against black A2-C2 (three liberties A1 B1 C1).
RACE = [
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "OOOXXX...",
    "XXXOOOX..",
    ".........",
]


@pytest.mark.parametrize("colours", ["black", "white"])
def test_three_against_three_the_side_to_move_wins_by_filling_outside_liberties(colours):
    rows = RACE if colours == "black" else swap(RACE)
    game = build_position(rows, colours)
    judge = Judge(game, Goal("race", ("D2",)))
    solution = judge.solve(local(game, 2))
    assert solution.status == "win"
    # C1 works too: it fills no liberty of its own and takes D1 as a liberty shared with white
    assert set(solution.winning) == {"C1", "D1", "E1", "F1"}
    wrong = judge.judge([], "G1")
    assert wrong.result == "wrong" and wrong.reason == "loses-race" and wrong.reply == "B1"
    far = judge.judge([], "J9")
    assert far.result == "wrong" and far.reason == "loses-race"


def test_filling_ones_own_liberty_turns_the_race_into_a_seki():
    game = build_position(RACE)
    verdict = Judge(game, Goal("race", ("D2",))).judge([], "B1")
    assert verdict.result == "wrong" and verdict.reason == "seki"


def test_the_race_is_lost_when_the_opponent_moves_first():
    game = build_position(RACE, "white")
    reader = RaceReader(game, [game.point("A2")])
    value, move = reader.best()
    assert value == WIN and game.name(move) in {"A1", "B1", "C1", "D1"}


def test_a_race_is_played_out_move_by_move_until_the_capture():
    game = build_position(RACE)
    judge = Judge(game, Goal("race", ("D2",)))
    first = judge.judge([], "F1")
    assert first.result == "continue" and first.reply is not None
    second = judge.judge(["F1", first.reply], "E1")
    assert second.result in ("continue", "correct")


def test_a_seki_is_no_win_for_the_solver():
    # two chains sharing all three of their liberties (C3, D3, C1), neither can approach: 双活
    rows = [
        ".........",
        ".........",
        ".........",
        ".........",
        "XXXXXX...",
        "XOOOOX...",
        "XO..OX...",
        "XOXXOX...",
        "XO.XOX...",
    ]
    game = build_position(rows)
    value, _ = RaceReader(game, [game.point("B4")], [game.point("C2")]).best()
    assert value == SEKI


# ------------------------------------------------------------------ connect and cut
JUMP = [
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "...O.....",
    "..X.X....",
    "...O.....",
    ".........",
]


@pytest.mark.parametrize("colours", ["black", "white"])
def test_connect_through_the_only_link_point(colours):
    rows = JUMP if colours == "black" else swap(JUMP)
    game = build_position(rows, colours)
    judge = Judge(game, Goal("connect", ("C3", "E3")))
    solution = judge.solve(local(game, 5))
    assert set(solution.winning) == {"D3"}
    wrong = judge.judge([], "A9")
    assert wrong.result == "wrong" and wrong.reason == "cut" and wrong.reply == "D3"


def test_the_cut_that_works():
    game = build_position(JUMP, "white")
    judge = Judge(game, Goal("cut", ("C3", "E3")))
    solution = judge.solve(local(game, 5))
    assert set(solution.winning) == {"D3"}
    assert judge.judge([], "D3").result == "correct"
    wrong = judge.judge([], "A9")
    assert wrong.reason == "connected" and wrong.reply == "D3"


def test_a_hanging_connection_cannot_be_cut():
    # black B2 and C3 with the tiger's mouth at B3/C2 closed by A... : white at C2 is captured at once
    rows = [
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".XX......",
        "X.X......",
        ".X.......",
    ]
    game = build_position(rows, "white")
    reader = ConnectionReader(game, game.point("A2"), game.point("B1"))
    assert reader.disconnect()[0] == 0  # LOSE for the cutter
    code, move = gtp_connect(game, game.point("A2"), game.point("B1"), "connect")
    assert code == 1


# Two corners of positions from GNU Go's connection tests (golois/Aya991113-1 and Goemate991106-2), cut to 9x9;
# GNU Go 3.8 gives the answers asserted below on these 9x9 boards themselves.
THROUGH_A_FRIEND = [
    ".........",
    "......X..",
    "....OX.O.",
    "....OXO..",
    "....O.XO.",
    "...O.OX..",
    "..O.XX.O.",
    "O.OX..O..",
    ".........",
    ".........",
][1:]
LINKED_TWICE = [
    ".........",
    "....X...X",
    "X.XXO.X.X",
    "OX.XO.OOO",
    "OX..XX.XO",
    "OOOO..X..",
    "O.X.OOOXX",
    ".X.O.XOX.",
    "..XOXXX.X",
]


def test_a_way_between_two_chains_may_go_through_another_chain_of_theirs():
    """Black F7 and F4, white F5 between them. F6 joins F7 to G6-G5 and leaves F5 one liberty: taking it at E5,
    or joining G5 to F4 at G4, cannot both be stopped. Neither chain touches a liberty of the other: the way runs
    through G6-G5."""
    game = build_position(THROUGH_A_FRIEND, "black")
    code, move = gtp_connect(game, game.point("F7"), game.point("F4"), "connect")
    assert (code, game.name(move)) == (1, "F6")  # GNU Go: = 1 F6


def test_chains_linked_through_a_third_cannot_be_cut():
    """White to cut black G4 from D6. G4 and E5-F5 share two liberties (F4, G5): White fills one, Black the other.
    E5 and D6 touch at a corner; a white stone at D5 cuts them only while the white E6-E7 beside them lives, and
    E6-E7 has two liberties: Black takes it. GNU Go: = 0."""
    game = build_position(LINKED_TWICE, "white")
    assert gtp_connect(game, game.point("G4"), game.point("D6"), "disconnect")[0] == 0


# ------------------------------------------------------------------ goal validation
@pytest.mark.parametrize("kind,targets,to_play,message", [
    ("race", ("D2",), "white", "race target"),
    ("connect", ("C3",), "black", "exactly two"),
    ("connect", ("C3", "E3"), "white", "two chains of the side to move"),
    ("cut", ("C3", "E3"), "black", "cut needs two chains"),
])
def test_goals_that_do_not_fit_are_refused_with_a_clear_message(kind, targets, to_play, message):
    game = build_position(JUMP if kind != "race" else RACE, to_play)
    with pytest.raises(GoalError, match=message):
        Judge(game, Goal(kind, targets))


def test_connect_refuses_one_chain_named_twice():
    game = build_position(JUMP)
    game.play("D3")
    game.to_play = "black"
    with pytest.raises(GoalError, match="same chain"):
        Judge(game, Goal("connect", ("C3", "E3")))


def test_a_capture_move_next_to_the_liberties_but_on_none_is_not_a_liberty():
    game = Game(9)
    game.setup(black=["C4", "D3", "E5"], white=["D4"])  # white D4 (liberties D5, E4) runs in a ladder
    game.to_play = "black"
    judge = Judge(game, Goal("capture", ("D4",)))
    wrong = judge.judge([], "C5")
    assert wrong.result == "wrong" and wrong.reason == "not-a-liberty" and wrong.reply == "E4"
    assert judge.judge([], "A1").reason == "escapes"  # far away: not aimed at the stone at all
