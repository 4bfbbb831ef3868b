"""A played game written as a record to download (``played_game_sgf``): who played, the result, the day, the
capture game's goal, handicap stones, and a record that replays strictly to the same position."""

from __future__ import annotations

from teach.go import Game
from teach.go.game import Rules
from teach.go.record import game_to_sgf, played_game_sgf


def _capture_game() -> Game:
    """The capture game to one stone: black surrounds D5 and takes it at move 7."""
    game = Game(9, rules=Rules(capture_goal=1))
    for move in ("E5", "D5", "C5", "E4", "D6", "pass", "D4"):
        game.play(move)
    assert game.over and game.winner == "black"
    return game


def test_the_record_names_the_players_result_day_and_game_and_replays_strictly():
    game = _capture_game()
    text = played_game_sgf(game, black="Ming", white="小老鼠", result="B+C1", date="2026-12-01",
                           name="Ming vs 小老鼠")
    again = Game.from_sgf(text, strict=True)
    assert again.board_rows() == game.board_rows() and again.captures == game.captures
    assert [again.info[k] for k in ("PB", "PW", "RE", "DT", "GN")] == ["Ming", "小老鼠", "B+", "2026-12-01",
                                                                      "Ming vs 小老鼠"]
    assert "FF[4]" in text and "GM[1]" in text and "SZ[9]" in text and "RU[Chinese]" in text


def test_the_capture_game_says_its_goal_and_a_full_game_does_not():
    text = played_game_sgf(_capture_game(), black="a", white="b")
    assert "GC[capture game: first to capture 1 stone wins]" in text
    assert Game.from_sgf(text).info["C"] == "capture game: first to capture 1 stone wins"
    assert "KM[" not in text  # komi counts for nothing when the first capture wins
    full = Game(9)
    full.play("E5")
    plain = played_game_sgf(full, black="a", white="b")
    assert "GC[" not in plain and "C[" not in plain.replace("CA[", "") and "KM[7.5]" in plain


def test_a_capture_game_won_by_captures_is_written_as_sgf_says_a_win_for_another_reason():
    game = Game(9, komi=7.5, rules=Rules(capture_goal=3))
    game.play("E5")
    text = played_game_sgf(game, black="a", white="b", result="W+C3")
    again = Game.from_sgf(text)
    assert again.info["RE"] == "W+" and "KM[" not in text
    assert "GC[capture game: first to capture 3 stones wins; White won with 3 stones captured]" in text
    resigned = played_game_sgf(game, black="a", white="b", result="B+R")
    assert Game.from_sgf(resigned).info["RE"] == "B+R" and "GC[capture game: first to capture 3 stones wins]" in resigned


def test_handicap_stones_are_written_as_setup_with_ha_and_white_moves_first():
    game = Game(9, handicap=3)
    game.play("E5")
    text = played_game_sgf(game, black="Ming", white="Anna")
    again = Game.from_sgf(text, strict=True)
    assert "HA[3]" in text and "KM[0]" in text and again.handicap == 3
    assert again.board_rows() == game.board_rows() and again.to_play == "black"


def test_names_with_sgf_brackets_are_escaped_and_the_game_itself_is_unchanged():
    game = Game(9)
    game.play("E5")
    game.info["PB"] = "kept"
    text = played_game_sgf(game, black="A]b\\c", white="b", result="B+R")
    assert Game.from_sgf(text, strict=True).info["PB"] == "A]b\\c"
    assert game.info == {"PB": "kept"}  # the caller's game keeps its own record properties
    assert game_to_sgf(game) == game_to_sgf(game, comment=None) and "RE[" not in game_to_sgf(game)
