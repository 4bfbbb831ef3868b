"""Area counting (数子法, 第9条) on the worked examples of the seeds, and the result in points and in stones."""

from __future__ import annotations

from fractions import Fraction

import pytest

from teach.go import Game


def split_board(widths: list[int], dame_rows: tuple[int, ...] = ()) -> list[str]:
    """A finished 19x19 board split by two walls: in row r (0 = row 1, at the bottom) black owns the first
    widths[r] points (its wall stone last), white the rest (its wall stone first). In a dame row one empty point
    separates the walls. Neighbouring rows differ by at most one point, so every empty region touches one colour
    only (except the dame). Black's area is sum(widths) plus half a point per dame row."""
    size = len(widths)
    rows = []
    for r, w in enumerate(widths):
        assert r == 0 or abs(w - widths[r - 1]) <= 1
        row = "." * (w - 1) + "X" + ("." if r in dame_rows else "") + "O"
        rows.append(row + "." * (size - len(row)))
    return rows[::-1]


# seed 001, line 12 (13路小棋盘): 黑空40 + 黑子43 = 83; 归本数 84½; "黑负" by 1½ stones.
THIRTEEN = [
    ".............",  # 13  white's area: rows 8-13 and row 7 from F on
    ".............",
    ".............",
    ".............",
    ".............",
    "OOOOO........",  # 8
    "XXXXXOOOOOOOO",  # 7
    "XXXXXXXXXXXXX",  # 6
    "XXXXXXXXXXXXX",  # 5
    ".XXXXXXXXXXXX",  # 4  black's 40 empty points: rows 1-3 and A4
    ".............",
    ".............",
    ".............",  # 1
]


def test_seed_thirteen_by_thirteen_black_83_loses_by_one_and_a_half_stones(position):
    """Seed 001: 以十三路小棋盘为例: 黑空40 + 黑子43 = 83. 13 x 13 = 169, 半数为84½, 因黑子83子比半数差1½子即黑负
    (no komi) — in points, W+3."""
    game = position(THIRTEEN, komi=0)
    assert sum(row.count("X") for row in THIRTEEN) == 43
    result = game.score()
    assert result.black == 83
    assert result.black - 43 == 40  # 黑空
    assert result.white == 169 - 83
    assert result.half_count == Fraction(169, 2)
    assert result.margin_stones == Fraction(-3, 2)
    assert result.margin_points == -3
    assert result.winner == "white"
    assert str(result) == "W+3"
    assert result.chinese() == "黑83子，负1½子"
    assert result.english() == "Black 83 stones, loses by 1½ stones"


BLACK_185 = split_board([10] * 14 + [9] * 5)
BLACK_184 = split_board([10] * 13 + [9] * 6)


def test_the_wall_boards_have_the_areas_the_examples_need():
    for rows, black in [(BLACK_185, 185), (BLACK_184, 184)]:
        assert len(rows) == 19 and all(len(r) == 19 for r in rows)
        # count by hand: each row gives black everything up to and including its wall stone
        assert sum(r.index("O") for r in rows) == black


def test_seed_nineteen_by_nineteen_185_wins_by_one_and_three_quarters_with_the_old_komi(position):
    """Seed 004 (~line 326): 由执黑的一方贴出2¾子. 所以黑所占的地域必须超过183¼子 (180½ + 2¾) 才能取胜.
    比如黑棋数出来有185个子, 即黑棋胜1¾子. 2¾ stones of komi are 5.5 points."""
    game = position(BLACK_185, komi=5.5)
    result = game.score()
    assert (result.black, result.white) == (185, 176)
    assert result.half_count == Fraction(361, 2)
    assert result.black_needs == Fraction(733, 4)  # 183¼
    assert result.margin_stones == Fraction(7, 4)
    assert result.winner == "black"
    assert str(result) == "B+3.5"
    assert result.chinese() == "黑185子，胜1¾子"
    assert result.english() == "Black 185 stones, wins by 1¾ stones"


def test_nineteen_by_nineteen_185_wins_by_three_quarters_with_todays_komi(position):
    """Seed 000/003 (贴3又3/4子的规则): today's komi is 3¾ stones = 7.5 points; Black needs more than 184¼."""
    game = position(BLACK_185)  # the default komi
    assert game.komi == 7.5
    result = game.score()
    assert result.black_needs == Fraction(737, 4)  # 184¼
    assert result.margin_stones == Fraction(3, 4)
    assert str(result) == "B+1.5"
    assert result.chinese() == "黑185子，胜¾子"
    assert result.english() == "Black 185 stones, wins by ¾ stone"


def test_white_177_wins_with_todays_komi(position):
    """Seed 000: 通俗来说为白棋177子为胜黑棋185子为胜 — black 184 (white 177) loses by ¼ stone, W+0.5."""
    game = position(BLACK_184)
    result = game.score()
    assert (result.black, result.white) == (184, 177)
    assert result.margin_stones == Fraction(-1, 4)
    assert result.winner == "white"
    assert str(result) == "W+0.5"
    assert result.chinese() == "黑184子，负¼子"
    assert result.english() == "Black 184 stones, loses by ¼ stone"


def test_handicap_nine_black_gives_back_four_and_a_half_and_185_is_a_draw(position):
    """Seed 001, line 30: 让子棋是白棋先走. 最后数子时, 黑还要还子. 如让九子, 须还四子半, 也就是数棋时,
    如果黑方185子就是和棋, 超过185子, 才是赢棋 (no komi in a handicap game)."""
    game = Game(size=19, komi=0, handicap=9)
    assert game.to_play == "white"
    position(BLACK_185, game=game)
    result = game.score()
    assert result.handicap == 9
    assert result.black == 185
    assert result.black_needs == 185  # 180½ + 4½
    assert result.margin_stones == 0
    assert result.winner is None
    assert str(result) == "0"
    assert result.chinese() == "黑185子，和棋"
    assert result.english() == "Black 185 stones, a draw"


def test_handicap_nine_black_184_loses(position):
    """Seed 001: 超过185子, 才是赢棋 — 184 is one stone short of the draw: W+2."""
    game = Game(size=19, komi=0, handicap=9)
    position(BLACK_184, game=game)
    result = game.score()
    assert result.margin_stones == -1
    assert str(result) == "W+2"
    assert result.chinese() == "黑184子，负1子"
    assert result.english() == "Black 184 stones, loses by 1 stone"


@pytest.mark.parametrize(("stones", "give_back"), [(2, 1), (3, Fraction(3, 2)), (4, 2), (6, 3), (9, Fraction(9, 2))])
def test_handicap_give_back_is_half_a_stone_per_handicap_stone(position, stones, give_back):
    """Seed 000: 让子要贴还让子数的一半."""
    game = Game(size=19, komi=0, handicap=stones)
    position(BLACK_185, game=game)
    result = game.score()
    assert result.black_needs == Fraction(361, 2) + give_back
    assert result.margin_stones == 185 - Fraction(361, 2) - give_back


def test_no_handicap_no_komi_counts_against_the_half_count(position):
    """第9条: 棋盘总点数的一半180.5点为归本数. 一方总得点数超过此数为胜."""
    result = position(BLACK_185, komi=0).score()
    assert result.black_needs == Fraction(361, 2)
    assert result.margin_stones == Fraction(9, 2)
    assert str(result) == "B+9"
    assert result.chinese() == "黑185子，胜4½子"


def test_a_dame_point_is_shared_half_and_half(position):
    """第9条: 双方活棋之间的空点各得一半 — black 184 points plus half a dame: 184½, wins by ¼ stone."""
    rows = split_board([10] * 13 + [9] * 6, dame_rows=(18,))
    assert rows[0] == "........X.O........"  # row 19: the dame between the walls
    result = position(rows).score()
    assert (result.black, result.white) == (Fraction(369, 2), Fraction(353, 2))
    assert result.black + result.white == 361
    assert result.margin_stones == Fraction(1, 4)
    assert str(result) == "B+0.5"
    assert result.chinese() == "黑184½子，胜¼子"
    assert result.english() == "Black 184½ stones, wins by ¼ stone"


def test_a_shared_region_of_several_points_is_split_in_half(position):
    """第9条: 各得一半 applies to every empty point between the two sides, however many."""
    game = position([
        "X.O..",
        "X.O..",
        "X.O..",
        "X.O..",
        "X.O..",
    ], komi=0)
    result = game.score()
    assert (result.black, result.white) == (Fraction(15, 2), Fraction(35, 2))
    assert str(result) == "W+10"
    assert result.chinese() == "黑7½子，负5子"


def test_dead_stones_are_removed_before_counting(position):
    """第9条: 将双方死子清理出盘外后 ... 计数. White's dead A2-A3 inside black's corner would otherwise turn
    black's territory into shared points."""
    rows = split_board([10] * 14 + [9] * 5)
    rows[16] = "OO" + rows[16][2:]  # two white stones at A3 and B3, inside black's area
    game = position(rows)
    alive = game.score()
    assert alive.black < 185
    dead = game.score(dead=["A3"])
    assert dead.dead == ("A3", "B3")
    assert (dead.black, dead.white) == (185, 176)
    assert str(dead) == "B+1.5"
    assert game.color_at("A3") == "white"  # the game is unchanged


@pytest.mark.parametrize(("size", "half"), [(19, Fraction(361, 2)), (13, Fraction(169, 2)), (9, Fraction(81, 2)),
                                            (7, Fraction(49, 2))])
def test_half_count_is_half_the_points(size, half):
    """第9条: 棋盘总点数的一半为归本数 (180½ on 19x19)."""
    assert Game(size=size).score().half_count == half


@pytest.mark.parametrize(("komi", "text"), [(7.5, "W+7.5"), (0, "0"), (5.5, "W+5.5"), (6.5, "W+6.5")])
def test_an_empty_board_is_komi_to_white(komi, text):
    assert str(Game(size=19, komi=komi).score()) == text


def test_results_of_a_played_game(position):
    """A small game played to the end (two passes) and counted, result in points and in stones."""
    game = Game(size=5, komi=0)
    for move in ["B3", "D3", "B2", "D2", "B4", "D4", "B1", "D1", "B5", "D5", "pass", "pass"]:
        game.play(move)
    assert game.over
    result = game.score()
    # black: B column + A column = 10, white: D + E = 10, C column shared: 2½ each
    assert (result.black, result.white) == (Fraction(25, 2), Fraction(25, 2))
    assert str(result) == "0"
    assert result.chinese() == "黑12½子，和棋"
