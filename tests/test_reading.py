"""The tactical reader and the move judge on hand-made positions (and GNU Go as an oracle for ladders)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from teach.go import Game
from teach.go.judge import Goal, GoalError, Judge
from teach.go.reading import KO_A, LOSE, WIN, BudgetExceeded, Limits, Reader, ladder_attack

GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)


def board(rows: list[str], to_play: str = "black") -> Game:
    """A position from rows of X (black), O (white) and . (empty), top row first."""
    size = len(rows)
    game = Game(size)
    black, white = [], []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.replace(" ", "")):
            p = (size - 1 - r) * size + c
            if ch == "X":
                black.append(p)
            elif ch == "O":
                white.append(p)
    game.setup(black=black, white=white)
    game.to_play = to_play
    return game


LADDER = ["C4", "D3", "E5"]  # black stones; white D4 has two liberties (D5, E4) and runs in a ladder


def ladder_game(*extra_white: str) -> Game:
    game = Game(9)
    game.setup(black=LADDER, white=["D4", *extra_white])
    game.to_play = "black"
    return game


def test_a_stone_in_atari_is_captured_on_its_last_liberty():
    game = board([
        ".........",
        ".........",
        ".........",
        ".........",
        "....X....",
        "...XOX...",
        ".........",
        ".........",
        ".........",
    ])
    result, move = Reader(game).attack(game.point("E4"))
    assert result == WIN
    judge = Judge(game, Goal("capture", ("E4",)))
    assert judge.judge([], "E3").result == "correct"
    wrong = judge.judge([], "A1")
    assert wrong.result == "wrong" and wrong.reason == "escapes" and wrong.reply == "E3"


def test_the_ladder_works_and_the_reader_shows_the_chase():
    game = ladder_game()
    result, move = Reader(game).attack(game.point("D4"))
    assert result == WIN
    assert ladder_attack(game, game.point("D4"))[0] == WIN
    judge = Judge(game, Goal("capture", ("D4",)))
    verdict = judge.judge([], game.name(move))
    assert verdict.result == "continue" and verdict.reply is not None


@pytest.mark.parametrize("breaker", ["F3", "E2", "G2"])
def test_a_ladder_breaker_on_the_path_saves_the_stone_from_the_ladder_towards_it(breaker):
    """With a white stone on the ladder's path, black's atari from above (D5) no longer works."""
    game = ladder_game(breaker)
    reader = Reader(game)
    assert reader.does_attack(game.point("D5"), game.point("D4")) == LOSE
    assert Reader(ladder_game()).does_attack(game.point("D5"), game.point("D4")) == WIN


def test_double_atari_every_winning_first_move_is_found():
    game = board([
        ".........",
        ".........",
        ".........",
        "...X.X...",
        "..XO.OX..",
        ".........",
        ".........",
        ".........",
        ".........",
    ])
    judge = Judge(game, Goal("capture", ("D5", "F5")))
    solution = judge.solve()
    assert solution.status == "win"
    assert set(solution.winning) == {"E5", "D4", "F4"}
    verdict = judge.judge([], "E5")
    assert verdict.result == "continue"
    # whichever stone the computer saves, capturing the other one finishes the puzzle
    other = "F4" if verdict.reply in ("D4", "D3", "C4") else "D4"
    assert judge.judge(["E5", verdict.reply], other).result == "correct"


def test_taking_a_ko_is_reported_as_ko():
    game = board([
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "..XO.....",
        ".XO.O....",
        "..XO.....",
    ])
    # white C2 has one liberty, D2; black takes it, and the single black stone is left in atari: a ko
    result, move = Reader(game).attack(game.point("C2"))
    assert (result, game.name(move)) == (KO_A, "D2")


def test_illegal_moves_and_bad_goals_get_clear_answers():
    game = board([
        ".....",
        ".....",
        "..X..",
        ".XOX.",
        ".....",
    ], to_play="white")
    with pytest.raises(GoalError):
        Judge(game, Goal("capture", ("A1",)))  # no stone there
    with pytest.raises(GoalError):
        Goal("conquer", ("C2",))
    judge = Judge(game, Goal("save", ("C2",)))
    assert judge.judge([], "C3").result == "illegal" and judge.judge([], "C3").reason == "occupied"


def test_a_position_too_big_for_the_budget_is_unknown_not_a_guess():
    game = ladder_game()
    reader = Reader(game, Limits(nodes=3))
    with pytest.raises(BudgetExceeded):
        reader.attack(game.point("D4"))
    assert Judge(game, Goal("capture", ("D4",)), Limits(nodes=3)).solve().status == "unknown"


@pytest.mark.skipif(GNUGO is None, reason="gnugo not installed")
def test_ladders_agree_with_gnugo_with_a_white_stone_anywhere():
    """GNU Go's ladder_attack as an oracle: the ladder above, with one more white stone on every free point."""
    names = [Game(9).name(p) for p in range(81)]
    names = [n for n in names if n not in LADDER + ["D4", "D5", "E4"]]
    script = ["boardsize 9"]
    for n in names:
        script += ["clear_board", *(f"play b {b}" for b in LADDER), "play w D4", f"play w {n}", "ladder_attack D4"]
    out = subprocess.run([GNUGO, "--mode", "gtp"], input="\n".join(script) + "\n", capture_output=True,
                         text=True, timeout=120).stdout
    answers = [line for line in out.splitlines() if line.startswith(("=", "?"))][1:]
    theirs = [answers[7 * i + 6].split()[1] for i in range(len(names))]
    codes = {WIN: "1", KO_A: "2", 1: "3", LOSE: "0"}
    ours = [codes[ladder_attack(ladder_game(n), ladder_game(n).point("D4"))[0]] for n in names]
    assert ours == theirs


def test_judge_kill_and_live_goals_use_the_vital_point():
    """Straight three (直三) in the corner: the middle point kills, and the middle point lives."""
    game = board([
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "XXXXX....",
        "OOOOX....",
        "...OX....",
    ])
    assert set(Judge(game, Goal("kill", ("A2",))).solve().winning) == {"B1"}
    game.to_play = "white"
    assert set(Judge(game, Goal("live", ("A2",))).solve().winning) == {"B1"}
    wrong = Judge(game, Goal("live", ("A2",))).judge([], "A1")
    assert wrong.result == "wrong" and wrong.reply == "B1"
