"""The capture game (吃子游戏) is a rule of the engine: the first side to capture N stones wins, and the game ends
with that move — whatever page, bot or GTP session plays it."""

import random

import pytest

from teach.go import Game, IllegalMove
from teach.go.game import CAPTURE_GOALS, Rules


def capture_game(goal: int, size: int = 7) -> Game:
    return Game(size, rules=Rules(capture_goal=goal))


def test_the_first_capture_wins_the_capture_one_game():
    game = capture_game(1)
    # White's stone on B2 is caught in the corner area: black takes its last liberty
    for move in ("A2", "B2", "B1", "pass", "C2", "pass", "B3"):
        assert not game.over
        game.play(move)
    assert game.over and game.end_reason == "captures"
    assert game.winner == "black"
    assert game.captures == {"black": 1, "white": 0}


def test_a_capture_short_of_the_goal_plays_on_and_the_goal_ends_it():
    game = capture_game(3)
    # black captures one stone (B2), then a two-stone chain (E2 F2): 1, then 3 captures in all
    for move in ("A2", "B2", "B1", "pass", "C2", "pass", "B3"):
        game.play(move)
    assert game.captures["black"] == 1 and not game.over and game.winner is None
    for move in ("E2", "D2", "F2", "E1", "pass", "F1", "pass", "G2", "pass", "E3", "pass"):
        game.play(move)
        assert not game.over
    game.play("F3")
    assert game.captures["black"] == 3
    assert game.over and game.winner == "black" and game.end_reason == "captures"


def test_no_move_after_the_goal_and_undo_takes_the_win_back():
    game = capture_game(1)
    for move in ("A2", "B2", "B1", "pass", "C2", "pass", "B3"):
        game.play(move)
    for move in ("D4", "pass"):
        with pytest.raises(IllegalMove) as e:
            game.play(move)
        assert e.value.reason == "game-over"
    with pytest.raises(IllegalMove):
        game.resign()
    assert game.legal_moves() == [] and not game.is_legal("D4")
    game.undo()
    assert not game.over and game.winner is None and game.captures["black"] == 0
    assert "B3" in game.legal_moves()


def test_white_can_win_the_capture_game_too():
    game = capture_game(1)
    for move in ("pass", "A2", "B2", "B1", "pass", "C2", "pass", "B3"):
        game.play(move)
    assert game.winner == "white"


def test_two_passes_end_it_and_more_captures_win():
    game = capture_game(5)
    for move in ("A2", "B2", "B1", "pass", "C2", "pass", "B3"):
        game.play(move)
    game.play("pass")
    assert not game.over
    game.play("pass")
    assert game.over and game.end_reason == "passes"
    assert game.winner == "black"  # one capture to none


def test_two_passes_with_equal_captures_are_a_draw():
    game = capture_game(3)
    game.play("D4")
    game.play("pass")
    game.play("pass")
    assert game.over and game.end_reason == "passes" and game.winner is None


def test_a_side_with_no_legal_move_must_pass_and_the_game_can_end():
    # Black has filled the board but for two single-point eyes of its own: filling one would be a
    # self-atari only, so each point stays legal for black; white may play neither (suicide)
    game = capture_game(5, size=5)
    black = [p for p in game.legal_moves() if p not in ("A1", "E5")]
    game.setup(black=black)
    game.to_play = "white"
    assert game.legal_moves() == []
    game.play("pass")
    game.play("pass")
    assert game.over and game.winner is None  # no captures either way: a draw


def test_resigning_the_capture_game_gives_it_to_the_other_side():
    game = capture_game(3)
    game.play("D4")
    game.resign()  # white gives up
    assert game.over and game.end_reason == "resign" and game.winner == "black"


def test_a_full_game_has_no_rules_winner_after_passes_only_after_a_resignation():
    game = Game(9)
    game.play("pass")
    game.play("pass")
    assert game.over and game.end_reason == "passes" and game.winner is None  # decided by counting
    game = Game(9)
    game.resign("black")
    assert game.winner == "white"


def test_the_goal_is_a_positive_number_of_stones():
    for bad in (0, -1, 2.5, "3", True):
        with pytest.raises(ValueError):
            Rules(capture_goal=bad)
    assert CAPTURE_GOALS == (1, 3, 5)


@pytest.mark.parametrize("goal", CAPTURE_GOALS)
def test_random_capture_games_end_exactly_when_a_side_reaches_the_goal(goal):
    rng = random.Random(goal)
    for size in (7, 9):
        for _ in range(15):
            game = capture_game(goal, size)
            while not game.over:
                legal = game.legal_moves()
                move = rng.choice(legal) if legal and rng.random() > 0.02 else "pass"
                before = dict(game.captures)
                game.play(move)
                caps = game.captures
                reached = max(caps.values()) >= goal
                assert game.over == (reached or game.end_reason == "passes")
                if reached:
                    assert max(before.values()) < goal  # it ends on the move that reaches the goal
                    assert game.winner == max(caps, key=caps.get)
            # undoing every move comes back to the empty board, the game open again
            while game.moves:
                game.undo()
            assert not game.over and not any(game.board)
