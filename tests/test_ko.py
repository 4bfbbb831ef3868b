"""Ko, superko and suicide edge cases, after KataGo's tests/testrules.cpp (plain ko, sending two returning one,
snapback, triple ko, superko with multi-stone captures and with suicide, positional versus situational).

Seeds: 第6条 禁止全局同形 "着子后不得使对方重复面临曾出现过的局面"; seed 001 规则(七): 打劫 — "白2不能马上再提回来,
白2这手棋必须在别处下子".
"""

from __future__ import annotations

import pytest

from teach.go import Game, IllegalMove, Rules
from undo_checks import play_undo_replay

SUPERKO_RULES = ["situational", "positional", "none"]


def refuse(game: Game, move: str, reason: str, color: str | None = None) -> None:
    """The move is illegal for ``reason``, every legality query agrees, and nothing changed."""
    before = (game.board_rows(), game.to_play, game.captures, game.hash, game.ko_point, len(game.moves))
    with pytest.raises(IllegalMove) as info:
        game.play(move, color)
    assert info.value.reason == reason
    assert (game.board_rows(), game.to_play, game.captures, game.hash, game.ko_point, len(game.moves)) == before
    assert not game.is_legal(move, color)
    assert move not in game.legal_moves(color)


# Black to move; white B3 sits in black's mouth with one liberty, C3.
KO = [
    ".....",
    ".XO..",
    "XO.O.",
    ".XO..",
    ".....",
]

# White to move. W A1 "sends two" (A1-B1 in atari at C1); B C1 takes two; W B1 "returns one" by taking C1.
SEND_TWO = [
    ".....",
    ".....",
    ".....",
    "XXO..",
    ".O.O.",
]

# Black to move. B A1 throws in; W B1 takes it, leaving A2-B2-B1 with the single liberty A1; B A1 takes three.
SNAPBACK = [
    ".....",
    ".....",
    "XX...",
    "OOX..",
    "..X..",
]

# Three kos at once between a black group (top) and a white group (bottom). Black to move can take at B5 and H5,
# white can take at E6: B B5, W E6, B H5, W B6, B E5, W H6 brings back this very position with black to move.
TRIPLE_KO = [
    ".........",
    ".........",
    "XXXXXXXXX",
    "XOXX.XXOX",
    "O.OOXOO.O",
    "OOOOOOOOO",
    ".........",
    ".........",
    ".........",
]
TRIPLE_KO_CYCLE = ["B5", "E6", "H5", "B6", "E5", "H6"]

# White to move; black C1 in atari. W B1 takes one, B passes, W A1 sends two; black C1 taking those two stones
# would bring back this very position with white to move.
TAKE_TWO_REPEATS = [
    ".....",
    ".....",
    ".....",
    "XXO..",
    "..XO.",
]

# Black to move, suicide allowed. B A2 (one liberty, A1); B A1 would remove A1-A2 together.
SUICIDE = [
    ".....",
    ".....",
    "O....",
    ".O...",
    ".O...",
]


# ---------------------------------------------------------------------------------------------- plain ko
@pytest.mark.parametrize("superko", SUPERKO_RULES)
def test_ko_take_then_immediate_retake_is_forbidden(position, superko):
    """打劫: 白2不能马上再提回来 — the plain ko rule holds under every superko option, with reason "ko"."""
    game = position(KO, rules=Rules(superko=superko))
    assert game.ko_point is None
    assert game.play("C3") == ["B3"]
    assert game.liberties("C3") == ["B3"]
    assert game.ko_point == "B3"
    refuse(game, "B3", "ko")


@pytest.mark.parametrize("superko", SUPERKO_RULES)
def test_ko_retake_is_allowed_after_a_move_elsewhere(position, superko):
    """打劫: 白2这手棋必须在别处下子, 如果黑棋也在别处下子, 白棋才能回来再提."""
    game = position(KO, rules=Rules(superko=superko))
    game.play("C3")
    game.play("E5")  # white elsewhere (a ko threat)
    assert game.ko_point is None  # it is black's turn; the ban was white's
    game.play("A1")  # black answers elsewhere
    assert game.ko_point is None
    assert game.is_legal("B3")
    assert game.play("B3") == ["C3"]
    assert game.ko_point == "C3"  # now black may not take straight back
    refuse(game, "C3", "ko")
    assert game.captures == {"black": 1, "white": 1}


def test_ko_ban_ends_with_a_pass(position):
    """A pass is a move elsewhere too (第2条 5 虚着): after W passes and B plays on, white may retake."""
    game = position(KO)
    game.play("C3")
    game.play("pass")
    assert game.ko_point is None
    game.play("E1")
    assert game.play("B3") == ["C3"]


def test_ko_ban_is_only_for_the_side_to_move(position):
    """The plain ko ban binds the side whose stone was just taken, for one move only."""
    game = position(KO)
    game.play("C3")
    assert not game.is_legal("B3", "white")
    # black filling the ko is fine
    assert game.is_legal("B3", "black")
    assert "B3" in game.legal_moves("black")


def test_a_capture_of_one_stone_that_leaves_two_liberties_is_not_ko(position):
    """Ko needs a single stone that took a single stone and was left with that one liberty."""
    game = position([
        ".....",
        ".XO..",
        "XO...",
        ".XO..",
        ".....",
    ], to_play="black")
    assert game.play("C3") == ["B3"]
    assert game.liberties("C3") == ["B3", "D3"]
    assert game.ko_point is None
    refuse(game, "B3", "suicide")  # not "ko": white's stone there would capture nothing


# ---------------------------------------------------------------------------------------------- sending two, returning one
@pytest.mark.parametrize("superko", ["situational", "none"])
def test_sending_two_returning_one_is_not_ko(position, superko):
    """KataGo: taking two stones sets no ko; the opponent may take one back at once (board repeats, but with
    the other side to move, which situational superko allows)."""
    game = position(SEND_TWO, to_play="white", rules=Rules(superko=superko))
    game.play("A1")
    assert game.liberties("A1") == ["C1"]
    assert sorted(game.play("C1")) == ["A1", "B1"]
    assert game.ko_point is None
    assert game.liberties("C1") == ["B1"]
    assert game.is_legal("B1") and "B1" in game.legal_moves()
    assert game.play("B1") == ["C1"]
    assert game.board_rows() == SEND_TWO
    assert game.to_play == "black"
    assert game.captures == {"black": 2, "white": 1}


def test_sending_two_returning_one_under_positional_superko(position):
    """Positional superko: returning one recreates the start board (even with the other side to move): illegal."""
    game = position(SEND_TWO, to_play="white", rules=Rules(superko="positional"))
    game.play("A1")
    game.play("C1")
    assert game.ko_point is None
    refuse(game, "B1", "superko")


# ---------------------------------------------------------------------------------------------- snapback
@pytest.mark.parametrize("superko", SUPERKO_RULES)
def test_snapback_is_not_ko(position, superko):
    """倒扑 (snapback): the stone that captured joined a bigger chain, so black takes back at once."""
    game = position(SNAPBACK, rules=Rules(superko=superko))
    assert game.play("A1") == []
    assert game.liberties("A2") == ["B1"]
    assert game.play("B1") == ["A1"]
    assert game.ko_point is None
    assert game.liberties("B1") == ["A1"]
    assert game.is_legal("A1")
    assert sorted(game.play("A1")) == ["A2", "B1", "B2"]
    assert game.captures == {"black": 3, "white": 1}
    assert game.board_rows()[-2:] == ["..X..", "X.X.."]


# ---------------------------------------------------------------------------------------------- triple ko
def test_triple_ko_cycles_forever_without_superko(position):
    """三劫循环: with only the plain ko rule, the six captures bring the position back again and again."""
    game = position(TRIPLE_KO, rules=Rules(superko="none"))
    for cycle in range(1, 4):
        for move in TRIPLE_KO_CYCLE:
            assert game.ko_point != move
            assert len(game.play(move)) == 1
            assert game.ko_point is not None  # every move is a ko capture
        assert game.board_rows() == TRIPLE_KO
        assert game.to_play == "black"
        assert game.captures == {"black": 3 * cycle, "white": 3 * cycle}
    assert len(game.moves) == 18


@pytest.mark.parametrize("superko", ["situational", "positional"])
def test_triple_ko_superko_forbids_the_move_that_repeats_the_position(position, superko):
    """第6条 禁止全局同形: the sixth capture would make black face the start position again, so it is illegal,
    although the plain ko rule allows it (the last move was at another ko)."""
    game = position(TRIPLE_KO, rules=Rules(superko=superko))
    for move in TRIPLE_KO_CYCLE[:5]:
        game.play(move)
    assert game.ko_point == "E6"  # the plain ko ban is elsewhere
    refuse(game, "H6", "superko")
    game.play("A1")  # white plays elsewhere
    game.play("J1")
    assert game.play("H6") == ["H5"]  # the board differs now (A1, J1), so the capture is fine


@pytest.mark.parametrize("superko", ["situational", "positional"])
def test_superko_forbids_a_capture_of_two_stones_that_repeats(position, superko):
    """第6条: superko is not only about single-stone kos — here the forbidden move captures two stones."""
    game = position(TAKE_TWO_REPEATS, to_play="white", rules=Rules(superko=superko))
    assert game.play("B1") == ["C1"]
    game.play("pass")
    game.play("A1")
    assert game.liberties("B1") == ["C1"]
    refuse(game, "C1", "superko")
    legal = game.legal_moves()
    assert "C1" not in legal and "D2" in legal


def test_the_same_capture_of_two_stones_is_fine_without_history(position):
    """Control for the test above: from a fresh start the capture at C1 is legal."""
    game = position([
        ".....",
        ".....",
        ".....",
        "XXO..",
        "OO.O.",
    ])
    assert sorted(game.play("C1")) == ["A1", "B1"]


# ---------------------------------------------------------------------------------------------- positional vs situational
def test_the_side_to_move_set_after_setup_is_part_of_the_remembered_position():
    """第6条 (situational): a position counts as faced by the side actually to move. Setting up stones and then
    choosing white to move must not leave "black to move" in the history, or sending two returning one (legal
    under situational superko, as above) is refused."""
    game = Game(size=5)
    game.setup(black=["A2", "B2"], white=["B1", "C2", "D1"])
    game.to_play = "white"
    game.play("A1")
    game.play("C1")
    assert game.is_legal("B1")
    assert game.play("B1") == ["C1"]


def test_positional_and_situational_differ_after_a_pass_and_a_suicide(position):
    """KataGo's superko-with-suicide case: B A2, W pass, B A1 (suicide of A1-A2) gives back the start board with
    white to move. Positional: that board was seen, illegal. Situational: white never faced it, legal."""
    positional = position(SUICIDE, rules=Rules(superko="positional", suicide=True))
    situational = position(SUICIDE, rules=Rules(superko="situational", suicide=True))
    for game in (positional, situational):
        game.play("A2")
        game.play("pass")
        assert game.liberties("A2") == ["A1"]
    refuse(positional, "A1", "superko")
    assert situational.is_legal("A1")
    situational.play("A1")
    assert situational.board_rows() == SUICIDE
    assert situational.to_play == "white"


def test_switching_to_positional_superko_mid_game_keeps_the_history(position):
    """Game.rules can be changed (GTP loadsgf, records): positions already played still count under the new rule.
    Here the start board comes back (other side to move) — illegal once the rule is positional."""
    game = position(SEND_TWO, to_play="white")
    game.rules = Rules(superko="positional")
    game.play("A1")
    game.play("C1")
    refuse(game, "B1", "superko")


# ---------------------------------------------------------------------------------------------- suicide option
def test_multi_stone_suicide_is_allowed_with_the_suicide_option(position):
    """Rules(suicide=True): filling the last liberty of one's own chain removes that chain."""
    game = position(SUICIDE, rules=Rules(suicide=True))
    game.play("A2")
    game.play("pass")
    assert game.is_legal("A1")
    assert "A1" in game.legal_moves()
    assert game.play("A1") == []  # nothing of white's is captured
    assert game.board_rows() == SUICIDE
    assert game.to_play == "white"
    assert game.ko_point is None
    assert game.moves[-1] == (1, 0)
    assert game.hash == game.recompute_hash()


def test_multi_stone_suicide_counts_every_removed_stone_as_captured(position):
    """Rules(suicide=True): the suicided chain — A2 and the new stone A1 — goes to white as prisoners
    (SGF FF[4]: the group the newest stone belongs to is removed "and the prisoner count increased accordingly")."""
    game = position(SUICIDE, rules=Rules(suicide=True))
    game.play("A2")
    game.play("pass")
    game.play("A1")
    assert game.captures == {"black": 0, "white": 2}


def test_single_stone_suicide_stays_illegal_with_the_suicide_option(position):
    """Rules(suicide=True) allows only multi-stone suicide; a lone stone without liberties is still 禁着."""
    rows = [
        ".....",
        ".....",
        ".....",
        "O....",
        ".O...",
    ]
    game = position(rows, rules=Rules(suicide=True))
    refuse(game, "A1", "suicide")
    game.play("E5")
    refuse(game, "A1", "suicide", "black")
    assert game.is_legal("A1", "white")


def test_multi_stone_suicide_is_illegal_by_default(position):
    """第5条: without the option, filling one's own last liberty is a 禁着点."""
    game = position(SUICIDE)
    game.play("A2")
    game.play("pass")
    refuse(game, "A1", "suicide")


# ---------------------------------------------------------------------------------------------- undo
# (diagram, to_play, rules, moves): "!X:reason" is a move that must be refused.
UNDO_SCENARIOS = {
    "plain ko": (KO, "black", Rules(), ["C3", "!B3:ko", "E5", "A1", "B3", "!C3:ko", "pass", "C3"]),
    "send two return one": (SEND_TWO, "white", Rules(), ["A1", "C1", "B1", "pass"]),
    "send two positional": (SEND_TWO, "white", Rules(superko="positional"), ["A1", "C1", "!B1:superko", "E5"]),
    "snapback": (SNAPBACK, "black", Rules(), ["A1", "B1", "A1", "B1"]),
    "triple ko, no superko": (TRIPLE_KO, "black", Rules(superko="none"), TRIPLE_KO_CYCLE * 2),
    "triple ko, situational": (TRIPLE_KO, "black", Rules(), TRIPLE_KO_CYCLE[:5] + ["!H6:superko", "A1", "J1", "H6"]),
    "take two repeats": (TAKE_TWO_REPEATS, "white", Rules(), ["B1", "pass", "A1", "!C1:superko", "D2"]),
    "multi-stone suicide": (SUICIDE, "black", Rules(suicide=True), ["E5", "E4", "A2", "D4", "A1", "D5", "A1"]),
    "suicide positional": (SUICIDE, "black", Rules(superko="positional", suicide=True),
                           ["A2", "pass", "!A1:superko", "E5"]),
}


@pytest.mark.parametrize("name", UNDO_SCENARIOS)
def test_undo_restores_everything_exactly(position, snapshot, name):
    """undo takes back each move of these ko/superko/suicide sequences, one by one, restoring board, side to
    move, captures, ko point, hash, chains and legal moves exactly; replaying after undo gives the same state."""
    rows, to_play, rules, moves = UNDO_SCENARIOS[name]
    game = position(rows, to_play=to_play, rules=rules)
    states = [snapshot(game)]
    for move in moves:
        if move.startswith("!"):
            point, reason = move[1:].split(":")
            refuse(game, point, reason)
            assert snapshot(game) == states[-1]
            continue
        after = play_undo_replay(game, move, snapshot, states[-1])
        assert game.hash == game.recompute_hash()
        states.append(after)
    for i in range(len(states) - 1, 0, -1):
        game.undo()
        assert snapshot(game) == states[i - 1], f"undo back to state {i - 1}"
    assert game.board_rows() == [r.replace(" ", "") for r in rows]


def test_undo_back_through_a_setup_restores_chains():
    """undo of a setup (SGF AB/AW/AE, handicap) and then of the moves before it leaves no stale chain behind:
    the board, chains() and liberties() agree after every step."""
    game = Game(size=9)
    game.play("D4")
    game.play("E5")
    game.play("D5")  # D4-D5 is one chain now
    game.setup(white=["A1"])
    game.undo()  # the setup
    game.undo()  # D5
    assert [game.color_at(p) for p in ("D4", "E5", "D5", "A1")] == ["black", "white", None, None]
    assert game.chain_at("D4") == ["D4"]
    assert game.liberties("D4") == ["D3", "C4", "E4", "D5"]
    game.undo()  # E5
    game.undo()  # D4
    assert game.chains() == []
    assert game.legal_moves() == Game(size=9).legal_moves()
