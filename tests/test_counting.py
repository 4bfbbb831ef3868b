"""The count screen's code (teach/go/counting.py) on the seeds' worked examples of the Chinese rules (数子法, art. 9,
贴3¾子, 让子棋还子) and on a board where a group is tapped dead and alive again."""

from teach.go import Game
from teach.go.counting import count, proposal, toggle

N = 19


def walls(black_count: int, komi: float = 7.5) -> Game:
    """A 19x19 board split by two touching walls, no dame: Black owns exactly ``black_count`` points.

    Black's wall stands on column index 9 for the bottom ``r`` rows and on column 8 above them, so Black owns
    10 points in each of those rows and 9 in the others: 171 + r."""
    r = black_count - 9 * N
    assert 0 < r < N
    black, white = [], []
    for row in range(N):
        col = 9 if row < r else 8
        black.append(row * N + col)
        white.append(row * N + col + 1)
    black.append((r - 1) * N + 8)  # the wall's corner, inside Black's area
    white.append(r * N + 10)  # and White's
    game = Game(N, komi=komi)
    game.setup(black=black, white=white)
    return game


def test_black_185_stones_wins_by_three_quarters_with_komi_three_and_three_quarters():
    # 001: "通俗来说为白棋177子为胜黑棋185子为胜"; 贴3¾子 against 归本数180½
    result = count(walls(185))
    assert result.score.black == 185 and result.score.white == 176
    assert result.referee_zh() == "黑185子，归本数180½，贴3¾子，黑胜¾子"
    assert result.points() == "B+1.5"
    assert result.referee_en() == ("Black 185 stones; half the board is 180½; komi 3¾ stones: "
                                   "Black wins by ¾ stone")


def test_white_177_stones_wins():
    result = count(walls(184))  # White has 361 - 184 = 177
    assert result.score.white == 177
    assert result.referee_zh() == "黑184子，归本数180½，贴3¾子，白胜¼子"
    assert result.points() == "W+0.5" and result.score.winner == "white"


def test_nine_handicap_stones_give_back_four_and_a_half_and_185_is_a_draw():
    # 001: "让子棋是白棋先走最后数子时，黑还要还子如让九子，须还四子半也就是数棋时，如果黑方185子就是和棋"
    game = walls(185, komi=0)
    game.handicap = 9
    result = count(game)
    assert result.referee_zh() == "黑185子，归本数180½，还让子4½子，和棋"
    assert result.points() == "0" and result.score.winner is None
    game = walls(186, komi=0)
    game.handicap = 9
    assert count(game).referee_zh() == "黑186子，归本数180½，还让子4½子，黑胜1子"


def test_without_komi_more_than_half_the_board_wins():
    # art. 9: 棋盘总点数的一半180.5点为归本数。一方总得点数超过此数为胜
    result = count(walls(181, komi=0))
    assert result.referee_zh() == "黑181子，归本数180½，黑胜½子"
    assert result.points() == "B+1"


POSITION = [  # 9x9, a finished game: Black's wall on D, White's on E with F5; a white stone dead at B7, E5 dame
    ". . . X O . . . .",
    "X X X X O . . . .",
    ". O . X O . . . .",
    "X X X X O . . . .",
    ". . . X . O . . .",
    "X X X X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
]


def finished_game() -> Game:
    game = Game(9)
    black, white = [], []
    for r, row in enumerate(POSITION):
        for c, ch in enumerate(row.split()):
            name = game.name((8 - r) * 9 + c)
            (black if ch == "X" else white if ch == "O" else []).append(name)
    game.setup(black=black, white=white)
    return game


def test_tapping_a_group_marks_it_dead_and_gives_its_points_to_the_other_side():
    game = finished_game()
    alive = count(game)
    # B7 sits in Black's three-point eye: while it counts as alive, the eye's two empty points are nobody's
    assert alive.owner[game.point("A7")] == "" and alive.owner[game.point("B7")] == "white"
    assert alive.owner[game.point("A9")] == "black"
    assert alive.score.black == 18 + 15 + 2 / 2 + 1 / 2  # stones, eyes, half the shared eye, half the dame
    dead = toggle(game, [], "B7")
    assert dead == ["B7"]
    after = count(game, dead)
    assert after.dead == ("B7",)
    assert after.owner[game.point("A7")] == "black" and after.owner[game.point("B7")] == "black"
    assert after.owner[game.point("E5")] == ""  # the dame touches both
    assert after.owner[game.point("J1")] == "white"
    # Black: columns A-D (36); White: E-J but the dame (44); the dame split in half
    assert (after.score.black, after.score.white) == (36.5, 44.5)
    assert after.referee_zh() == "黑36½子，归本数40½，贴3¾子，白胜7¾子"
    assert after.points() == "W+15.5"
    # tapping it again brings it back
    assert toggle(game, dead, "B7") == []


def test_tapping_one_chain_of_a_group_marks_the_whole_group():
    game = finished_game()
    # White's wall is three chains (E9-E6, F5, E4-E1) that share two liberties each: one group
    dead = toggle(game, [], "E1")
    assert dead == ["E1", "E2", "E3", "E4", "F5", "E6", "E7", "E8", "E9"]
    assert toggle(game, dead, "F5") == []


def test_the_computer_proposes_the_lone_stone_dead_and_nothing_else():
    game = finished_game()
    assert proposal(game) == ["B7"]


def test_an_empty_point_is_no_group():
    game = finished_game()
    try:
        toggle(game, [], "E5")
    except ValueError as e:
        assert "E5" in str(e)
    else:
        raise AssertionError("an empty point was marked")
