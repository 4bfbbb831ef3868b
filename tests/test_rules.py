"""One test (or a small family) per article of the Chinese rules of Go (中国围棋规则, seeds 000 and 003).

Each docstring quotes the article it checks.
"""

from __future__ import annotations

import pytest

from teach.go import CHINESE_RULES, Game, IllegalMove, Rules
from teach.go.handicap import fixed_handicap_points


def illegal(game: Game, move: str, color: str | None = None) -> str:
    """Play a move that must be refused; return the reason, and check that nothing changed."""
    before = (game.board_rows(), game.to_play, game.captures, game.hash, game.ko_point, len(game.moves))
    with pytest.raises(IllegalMove) as info:
        game.play(move, color)
    assert (game.board_rows(), game.to_play, game.captures, game.hash, game.ko_point, len(game.moves)) == before
    assert not game.is_legal(move, color)
    if move != "pass":
        assert move not in game.legal_moves(color)
    return info.value.reason


# ---------------------------------------------------------------------------------------------- art. 1
@pytest.mark.parametrize("size", range(2, 20))
def test_art1_board_of_every_size_has_size_squared_points(size):
    """第1条 1: 棋盘由纵横各十九条...平行线构成, 形成361个交叉点 (smaller boards for kids: 2x2 to 19x19)."""
    game = Game(size=size)
    assert game.board_rows() == ["." * size] * size
    assert len(game.legal_moves()) == size * size
    assert len(set(game.legal_moves())) == size * size


def test_art1_the_full_board_has_361_points():
    """第1条 1: 纵横各十九条 ... 形成361个交叉点."""
    game = Game()
    assert game.size == 19
    assert len(game.legal_moves()) == 361 == sum(len(r) for r in game.board_rows())


@pytest.mark.parametrize("size", [0, 1, 20, 25, -19, True, 9.0, "9", None])
def test_art1_no_board_outside_2_to_19(size):
    """第1条 1: a board is a square grid of lines; this engine serves 2x2 up to the full 19x19."""
    with pytest.raises(ValueError):
        Game(size=size)


def test_art1_nine_star_points_with_tengen_in_the_middle():
    """第1条 1: 在棋盘上标有九个小圆点, 称作"星". 中央的圆点又称"天元" (9-stone handicap uses them all)."""
    game = Game(size=19, komi=0, handicap=9)
    stars = {"D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"}
    assert {game.name(p) for p in fixed_handicap_points(19, 9)} == stars
    assert {p for p in stars if game.color_at(p) == "black"} == stars
    assert sum(row.count("X") for row in game.board_rows()) == 9
    assert game.board_rows()[9][9] == "X"  # 天元, the middle of the middle row


# ---------------------------------------------------------------------------------------------- art. 2
def test_art2_empty_board_black_first_then_alternating():
    """第2条 2/3: 空枰开局. 黑先白后, 交替着一子于棋盘的点上."""
    game = Game(size=9)
    assert game.board_rows() == ["." * 9] * 9
    assert game.to_play == "black"
    order = []
    for move in ["E5", "C3", "G7", "C7", "G3"]:
        color = game.to_play
        assert game.play(move) == []
        assert game.color_at(move) == color
        order.append(color)
    assert order == ["black", "white", "black", "white", "black"]
    assert game.to_play == "white"
    assert [c for c, _ in game.moves] == [1, 2, 1, 2, 1]


def test_art2_one_stone_per_move_on_an_empty_point():
    """第2条 3: 着一子于棋盘的点上 (an occupied point cannot take a second stone)."""
    game = Game(size=9)
    game.play("E5")
    assert illegal(game, "E5") == "occupied"
    game.play("D5")
    assert illegal(game, "D5") == "occupied"
    assert illegal(game, "E5", "white") == "occupied"
    assert sum(row.count("X") + row.count("O") for row in game.board_rows()) == 2


def test_art2_stones_never_move():
    """第2条 4: 棋子下定后, 不再向其他点移动."""
    game = Game(size=9)
    played = {}
    for move in ["A1", "J9", "E5", "D4", "F6", "B8", "H2", "C3", "G7", "A9"]:
        played[move] = game.to_play
        game.play(move)
        for point, color in played.items():
            assert game.color_at(point) == color
    stones = sum(row.count("X") + row.count("O") for row in game.board_rows())
    assert stones == len(played)


def test_art2_either_side_may_pass():
    """第2条 5: 轮流下子是双方的权利, 但允许任何一方放弃下子权而使用虚着."""
    game = Game(size=9)
    assert game.is_legal("pass")
    assert game.play("pass") == []
    assert game.to_play == "white"
    assert game.board_rows() == ["." * 9] * 9
    game.play("E5")
    assert game.color_at("E5") == "white"
    game.play("pass")
    assert game.to_play == "white"
    assert not game.over
    assert game.moves == [(1, None), (2, 40), (1, None)]


# ---------------------------------------------------------------------------------------------- art. 3
@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ("K10", ["K9", "J10", "L10", "K11"]),  # centre: 4
        ("A10", ["A9", "B10", "A11"]),  # edge: 3
        ("K1", ["J1", "L1", "K2"]),
        ("T10", ["T9", "S10", "T11"]),
        ("K19", ["K18", "J19", "L19"]),
        ("A1", ["B1", "A2"]),  # corner: 2
        ("T1", ["S1", "T2"]),
        ("A19", ["A18", "B19"]),
        ("T19", ["T18", "S19"]),
    ],
)
def test_art3_liberties_of_a_single_stone(point, expected):
    """第3条: 一个棋子在棋盘上, 与它直线紧邻的空点是这个棋子的"气" (centre 4, edge 3, corner 2)."""
    game = Game()
    game.play(point)
    assert game.liberties(point) == expected
    assert game.chain_at(point) == [point]


def test_art3_same_colour_neighbours_make_one_chain_with_shared_liberties():
    """第3条: 直线紧邻的点上如果有同色棋子存在, 这些棋子就相互连接成一个不可分割的整体."""
    game = Game(size=9)
    for move in ["D4", "pass", "D5", "pass", "E5"]:
        game.play(move)
    assert game.chain_at("D4") == game.chain_at("E5") == ["D4", "D5", "E5"]
    # each liberty counted once: E4 touches both D4 and E5
    assert game.liberties("D5") == ["D3", "C4", "E4", "C5", "F5", "D6", "E6"]


def test_art3_diagonal_stones_are_not_connected():
    """第3条: only 直线紧邻 (orthogonally adjacent) stones connect; diagonal neighbours are separate chains."""
    game = Game(size=9)
    for move in ["D4", "pass", "E5"]:
        game.play(move)
    assert game.chain_at("D4") == ["D4"]
    assert game.chain_at("E5") == ["E5"]
    assert len(game.liberties("D4")) == len(game.liberties("E5")) == 4
    assert len(game.chains()) == 2


def test_art3_an_opponent_stone_takes_a_liberty_away():
    """第3条: 直线紧邻的点上如果有异色棋子存在, 此处的气便不存在."""
    game = Game(size=9)
    game.play("D4")
    game.play("E4")
    assert game.liberties("D4") == ["D3", "C4", "D5"]
    assert game.liberties("E4") == ["E3", "F4", "E5"]
    game.play("D5")
    assert game.liberties("D4") == ["D3", "C4", "C5", "E5", "D6"]
    assert game.liberties("E4") == ["E3", "F4", "E5"]


def test_art3_a_shared_liberty_belongs_to_both_chains(position):
    """第3条: an empty point next to two chains (of either colour) is a liberty of each of them."""
    game = position([
        ".....",
        ".....",
        ".X.X.",
        ".....",
        ".....",
    ])
    assert "C3" in game.liberties("B3") and "C3" in game.liberties("D3")
    game.play("C3", "white")
    assert game.liberties("B3") == ["B2", "A3", "B4"]
    assert game.liberties("D3") == ["D2", "E3", "D4"]
    assert game.liberties("C3") == ["C2", "C4"]


# ---------------------------------------------------------------------------------------------- art. 4
def test_art4_1_a_move_removes_opponent_stones_left_without_liberties():
    """第4条 1: 下子后, 对方棋子无气, 应立即提取对方无气之子."""
    game = Game(size=9)
    for move in ["C4", "D4", "E4", "pass", "D5"]:
        game.play(move)
    assert game.liberties("D4") == ["D3"]
    game.play("pass")
    assert game.play("D3") == ["D4"]
    assert game.color_at("D4") is None
    assert game.captures == {"black": 1, "white": 0}
    assert game.liberties("D3") == ["D2", "C3", "E3", "D4"]


def test_art4_1_capture_of_a_six_stone_chain(position):
    """第4条 1: 应立即提取对方无气之子 — every stone of the chain, counted in captures."""
    game = position([
        ".XXX.",
        "XOOOX",
        "XOOOX",
        ".XX..",
        ".....",
    ], to_play="black")
    assert game.liberties("B4") == ["D2"]
    captured = game.play("D2")
    assert sorted(captured) == sorted(["B3", "C3", "D3", "B4", "C4", "D4"])
    assert game.captures == {"black": 6, "white": 0}
    assert game.board_rows() == [
        ".XXX.",
        "X...X",
        "X...X",
        ".XXX.",
        ".....",
    ]


def test_art4_2_when_both_sides_are_without_liberties_the_opponent_is_removed(position):
    """第4条 2: 下子后, 双方棋子都呈无气状态, 应立即提取对方无气之子 (seed 001, 图7: 黑1 吃掉白棋4子)."""
    game = position([
        ".....",
        ".....",
        "XX...",
        "OOX..",
        ".OOX.",
    ], to_play="black")
    # A1 has no empty neighbour: black's own stone there would have no liberty, but white's 4 stones have none either
    assert game.liberties("A2") == ["A1"]
    assert sorted(game.play("A1")) == ["A2", "B1", "B2", "C1"]
    assert game.color_at("A1") == "black"  # the mover's stone stays
    assert game.liberties("A1") == ["B1", "A2"]
    assert game.captures["black"] == 4
    assert game.board_rows() == [
        ".....",
        ".....",
        "XX...",
        "..X..",
        "X..X.",
    ]


def test_art4_2_mutual_atari_whoever_plays_the_shared_liberty_captures(position):
    """第4条 2: black A2 and white B1-B2 both have A1 as their last liberty; the mover's chain survives."""
    rows = [
        ".....",
        ".....",
        "OX...",
        "XOX..",
        ".OX..",
    ]
    for mover, captured, chain, libs in [
        ("black", ["B1", "B2"], ["A1", "A2"], ["B1", "B2"]),
        ("white", ["A2"], ["A1", "B1", "B2"], ["A2"]),
    ]:
        game = position(rows, to_play=mover)
        assert game.liberties("A2") == ["A1"]
        assert game.liberties("B1") == ["A1"]
        assert sorted(game.play("A1")) == captured
        assert game.chain_at("A1") == chain
        assert game.liberties("A1") == libs
        assert game.captures[mover] == len(captured)


# ---------------------------------------------------------------------------------------------- art. 5
def test_art5_a_stone_without_liberties_that_captures_nothing_is_forbidden(position):
    """第5条: 如某方下子后, 该子立即呈无气状态, 同时又不能提取对方的棋子. 这个点叫做"禁着点"."""
    game = position([
        ".....",
        "..O..",
        ".O.O.",
        "..O..",
        ".O...",
    ], to_play="black")
    assert illegal(game, "C3") == "suicide"  # centre
    game = position([
        ".....",
        ".....",
        ".....",
        "O....",
        ".O...",
    ], to_play="black")
    assert illegal(game, "A1") == "suicide"  # corner
    assert game.is_legal("A1", "white")  # the same point is no 禁着点 for white
    assert "A1" in game.legal_moves("white")


def test_art5_filling_the_last_liberty_of_ones_own_chain_is_forbidden(position):
    """第5条: 该子立即呈无气状态 — also when the new stone joins a chain that is left without liberties."""
    game = position([
        ".....",
        ".....",
        "O....",
        "XO...",
        ".O...",
    ], to_play="black")
    assert game.liberties("A2") == ["A1"]
    assert illegal(game, "A1") == "suicide"
    assert game.color_at("A2") == "black"


def test_art5_a_point_without_liberties_is_playable_when_it_captures(position):
    """第5条: ...同时又不能提取对方的棋子 — a move that captures is never 禁着 (seed 001, 规则(六)说明, 图7)."""
    game = position([
        ".....",
        ".....",
        "XX...",
        "OOX..",
        ".OOX.",
    ], to_play="black")
    assert game.is_legal("A1")
    assert "A1" in game.legal_moves()
    assert len(game.play("A1")) == 4


def test_art5_the_default_rules_forbid_suicide():
    """第5条: the Chinese rules are the default; suicide is an option, not the rule."""
    assert Rules() == CHINESE_RULES
    assert CHINESE_RULES.suicide is False
    assert Game().rules == CHINESE_RULES
    with pytest.raises(ValueError):
        Rules(superko="japanese")


# ---------------------------------------------------------------------------------------------- art. 6
# White to move; black C1 is in atari. After W B1 (takes one), B pass, W A1 (sends two back), black C1 would take
# the two stones and make white face this very position again.
CYCLE = [
    ".....",
    ".....",
    ".....",
    "XXO..",
    "..XO.",
]


@pytest.mark.parametrize("superko", ["situational", "positional"])
def test_art6_no_move_may_make_the_opponent_face_a_position_again(position, superko):
    """第6条 禁止全局同形: 着子后不得使对方重复面临曾出现过的局面."""
    game = position(CYCLE, to_play="white", rules=Rules(superko=superko))
    assert game.play("B1") == ["C1"]
    game.play("pass")
    assert game.play("A1") == []
    assert game.liberties("A1") == ["C1"]
    assert illegal(game, "C1") == "superko"
    game.play("D2")  # black plays elsewhere; nothing repeats now
    game.play("E2")
    assert sorted(game.play("C1")) == ["A1", "B1"]


def test_art6_without_superko_the_position_may_repeat(position):
    """第6条 is the Chinese rule; Rules(superko="none") keeps only the plain ko rule and lets the cycle repeat."""
    game = position(CYCLE, to_play="white", rules=Rules(superko="none"))
    for _ in range(3):
        assert game.play("B1") == ["C1"]
        game.play("pass")
        game.play("A1")
        assert sorted(game.play("C1")) == ["A1", "B1"]
        assert game.board_rows() == CYCLE
        assert game.to_play == "white"


def test_art6_superko_is_situational_by_default(position):
    """第6条 "使对方重复面临": the position together with the side to move — it is situational superko."""
    assert CHINESE_RULES.superko == "situational"
    # sending two, returning one: the board repeats but now black, not white, is to move
    start = [
        ".....",
        ".....",
        ".....",
        "XXO..",
        ".O.O.",
    ]
    game = position(start, to_play="white")
    game.play("A1")
    assert sorted(game.play("C1")) == ["A1", "B1"]
    assert game.play("B1") == ["C1"]
    assert game.board_rows() == start
    assert game.to_play == "black"


# ---------------------------------------------------------------------------------------------- art. 7
def test_art7_two_passes_in_a_row_end_the_game():
    """第7条 3: 双方连续使用虚着, 为终局 (and then nothing more may be played)."""
    game = Game(size=9)
    game.play("E5")
    game.play("pass")
    assert not game.over
    game.play("pass")
    assert game.over
    assert game.legal_moves() == []
    assert game.legal_moves("white") == []
    for color in ["black", "white", None]:
        with pytest.raises(IllegalMove) as info:
            game.play("D4", color)
        assert info.value.reason == "game-over"
        assert not game.is_legal("D4", color)
    game.undo()
    assert not game.over
    assert game.to_play == "black"


def test_art7_no_pass_either_after_the_end():
    """第7条 3: after 双方连续使用虚着 the game is over; a third pass is refused like any move, and is_legal agrees."""
    game = Game(size=9)
    game.play("pass")
    game.play("pass")
    assert not game.is_legal("pass")
    with pytest.raises(IllegalMove) as info:
        game.play("pass")
    assert info.value.reason == "game-over"
    assert len(game.moves) == 2


def test_art7_passes_that_are_not_consecutive_do_not_end_the_game():
    """第7条 3: only 连续 (consecutive) passes end the game."""
    game = Game(size=9)
    for move in ["pass", "E5", "pass", "D4", "pass", "C3", "pass"]:
        game.play(move)
        assert not game.over


def test_art7_after_the_end_a_move_on_an_occupied_point_is_refused_as_game_over():
    """第7条: once the game has ended no move is allowed at all, so the reason is game-over, not occupied."""
    game = Game(size=9)
    game.play("E5")
    game.play("pass")
    game.play("pass")
    with pytest.raises(IllegalMove) as info:
        game.play("E5", "white")
    assert info.value.reason == "game-over"


def test_art7_resignation_ends_the_game():
    """第7条 2: 对局中有一方中途认输时, 为终局."""
    game = Game(size=9)
    game.play("E5")
    game.resign()
    assert game.over
    assert game.resigned == "white"
    with pytest.raises(IllegalMove) as info:
        game.play("D4")
    assert info.value.reason == "game-over"
    with pytest.raises(IllegalMove) as info:
        game.resign("black")
    assert info.value.reason == "game-over"
    game.undo()
    assert not game.over and game.resigned is None
    game.resign("black")  # either side may resign, also when it is not their turn
    assert game.resigned == "black"


# ---------------------------------------------------------------------------------------------- art. 8
DEAD_STONES = [
    ".X.O.",
    ".X.O.",
    "OX.O.",  # white A3 is dead inside black's area
    ".X.OX",  # black E1-E2 is dead inside white's area
    ".X.OX",
]


def test_art8_stones_both_sides_agree_are_dead_are_removed_before_counting(position):
    """第8条 2: 终局时, 经双方确认, 能被提取的棋都是死棋 (and 第9条: 将双方死子清理出盘外后 ... 计数)."""
    game = position(DEAD_STONES, komi=0)
    as_is = game.score()
    assert (as_is.black, as_is.white) == (13, 12)  # A-column and E-column points are shared while A3/E1 stand
    white_dead = game.score(dead=["A3"])
    assert white_dead.dead == ("A3",)
    assert (white_dead.black, white_dead.white) == (16, 9)
    both_dead = game.score(dead=["A3", "E1"])
    assert both_dead.dead == ("E1", "E2", "A3")
    assert (both_dead.black, both_dead.white) == (12.5, 12.5)
    assert game.board_rows() == DEAD_STONES  # counting never changes the game itself


def test_art8_marking_one_stone_marks_its_whole_chain(position):
    """第8条: life and death is a property of a chain (第3条 不可分割的整体): one marked stone takes its chain."""
    game = position(DEAD_STONES, komi=0)
    result = game.score(dead=["E2"])
    assert result.dead == ("E1", "E2")
    assert (result.black, result.white) == (9.5, 15.5)
    with pytest.raises(ValueError):
        game.score(dead=["C3"])  # nothing there to be dead


# ---------------------------------------------------------------------------------------------- art. 9
def test_art9_area_counting_with_shared_points_halved_and_the_half_count(position):
    """第9条: 对任意一方的活棋和活棋围住的点以子为单位进行计数. 双方活棋之间的空点各得一半.
    棋盘总点数的一半为归本数. 一方总得点数超过此数为胜, 等于此数为和, 小于此数为负."""
    game = position([
        ".X.O.",
        ".X.O.",
        ".X.O.",
        ".X.O.",
        ".X.O.",
    ], komi=0)
    result = game.score()
    assert (result.black, result.white) == (12.5, 12.5)  # 5 stones + 5 points + half of the 5 shared points
    assert result.half_count == 12.5
    assert result.winner is None and str(result) == "0"
    game.play("C3", "black")  # one more stone on a shared point: the rest are still shared
    result = game.score()
    assert (result.black, result.white) == (13, 12)
    assert result.winner == "black" and str(result) == "B+1"
    game.undo()
    game.play("C3", "white")
    result = game.score()
    assert (result.black, result.white) == (12, 13)
    assert result.winner == "white" and str(result) == "W+1"


def test_a_copy_that_keeps_no_history_plays_and_takes_back_the_same_and_refuses_superko():
    """The readers' private copies skip the record of positions; everything else about a move and its undo is
    the same, and superko (which needs that record) cannot be switched on for them."""
    plain = Game(9, rules=Rules(superko="none"))
    lean = Game(9, rules=Rules(superko="none"))
    lean.keep_no_history()
    line = ["E5", "D5", "D4", "E4", "F4", "E3", "D3", "E6", "F5", "F3", "E2"]
    for game in (plain, lean):
        for move in line:
            game.play(move)
    assert lean.board == plain.board and lean.hash == plain.hash and lean.captures == plain.captures
    for game in (plain, lean):
        for _ in range(5):
            game.undo()
    assert lean.board == plain.board and lean.hash == plain.hash == plain.recompute_hash()
    with pytest.raises(ValueError):
        lean.rules = Rules(superko="situational")
    with pytest.raises(ValueError):
        Game(9).keep_no_history()  # Chinese rules use superko
