"""The computer opponent: legal on any position, the same move for the same seed, the tactics a level promises,
its own eyes kept, a pass when the game is settled, and ``teach gtp --level N`` as a real subprocess."""

import gc
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from teach.go import Game, Rules
from teach.go import bot, gnugo
from teach.go.bot import LEVELS, reply

ROOT = Path(__file__).resolve().parent.parent
BUILTIN = [lv.number for lv in LEVELS if lv.engine == "builtin"]


@pytest.fixture(autouse=True)
def no_gnugo():
    """GNU Go off: levels 7 and 8 are the built-in chief here (tests/test_gnugo_opponent.py has the real one)."""
    gnugo.use_path(None)
    yield
    gnugo.use_path(gnugo.find_gnugo())


def random_position(size: int, moves: int, seed: int, goal: int | None = None) -> Game:
    """A seeded random game of ``moves`` moves (legal, not into its own single eyes), stopped early if over."""
    rng = random.Random(seed)
    game = Game(size, rules=Rules(capture_goal=goal))
    for _ in range(moves):
        if game.over:
            break
        legal = [p for p in game.legal_points() if not all(game.board[q] == game.to_move
                                                             for q in game.adjacent[p])]
        game.play(game.name(rng.choice(legal)) if legal else "pass")
    return game


def position(size: int, black: str, white: str, to_play: str = "black", goal: int | None = None) -> Game:
    game = Game(size, rules=Rules(capture_goal=goal))
    game.setup(black=black.split(), white=white.split())
    game.to_play = to_play
    return game


# ---------------------------------------------------------------------- legality and determinism
CASES = [(size, goal, seed) for size in (7, 9, 13) for goal in (None, 3) for seed in (1, 2)]


@pytest.mark.parametrize("size,goal,seed", CASES)
def test_every_level_plays_a_legal_move_on_random_positions(size, goal, seed):
    moves = {7: 25, 9: 40, 13: 70}[size] + 7 * seed
    game = random_position(size, moves // 3 if goal else moves, seed, goal)
    assert not game.over
    legal = set(game.legal_moves())
    for level in range(1, 9):
        move = reply(game, level, seed)
        assert move == "pass" or move in legal, (level, move)
        before = len(game.moves)
        game.play(move)  # the engine accepts it
        game.undo()
        assert len(game.moves) == before


def test_a_whole_game_of_every_pair_of_low_levels_stays_legal_to_the_end():
    """Level against level on 7x7 to two passes or the goal: every move the referee accepts."""
    for goal, (a, b) in ((None, (1, 3)), (2, (2, 3)), (None, (3, 4))):
        game = Game(7, rules=Rules(capture_goal=goal))
        while not game.over and len(game.moves) < 150:
            move = reply(game, a if game.to_move == 1 else b, 11)
            assert move == "pass" or game.is_legal(move)
            game.play(move)
        assert game.over, "the game ends by passes or the capture goal"


@pytest.mark.parametrize("level", BUILTIN)
def test_a_level_gives_the_same_move_for_the_same_position_and_seed(level, monkeypatch):
    monkeypatch.setattr(bot, "CAP_SCALE", 1000.0)  # only the counts bound the move, however loaded the machine
    game = random_position(7, 16, 5)
    first = [reply(game, level, seed) for seed in range(6)]
    copy = random_position(7, 16, 5)  # the same moves, another Game object
    assert [reply(copy, level, seed) for seed in range(6)] == first


def test_low_levels_vary_with_the_seed():
    game = random_position(9, 10, 3)
    assert len({reply(game, 1, seed) for seed in range(12)}) > 2


# ---------------------------------------------------------------------- tactics the levels promise
@pytest.mark.parametrize("goal", [None, 3])
@pytest.mark.parametrize("level", [3, 4, 5, 6])
def test_levels_three_and_up_capture_a_stone_in_atari(level, goal):
    # white D5 between black C5 D6 E5: its last liberty is D4
    game = position(9, "C5 D6 E5 G5", "D5 F5", goal=goal)
    assert game.liberties("D5") == ["D4"]
    for seed in range(4):
        assert reply(game, level, seed) == "D4"


@pytest.mark.parametrize("goal", [None, 3])
@pytest.mark.parametrize("level", [3, 4, 5, 6])
def test_levels_three_and_up_save_their_own_stone_in_atari(level, goal):
    # black E5 in atari at E4; E4 gives it three liberties (D4 F4 E3) and no ladder
    game = position(9, "E5 C7", "D5 F5 E6 G3", goal=goal)
    assert game.liberties("E5") == ["E4"]
    for seed in range(4):
        assert reply(game, level, seed) == "E4"


def test_the_mouse_misses_captures_on_purpose_and_the_monkey_never():
    game = position(9, "C5 D6 E5 G5", "D5 F5")
    mouse = [reply(game, 1, seed) for seed in range(30)]
    assert 0 < mouse.count("D4") < 30
    assert all(reply(game, 3, seed) == "D4" for seed in range(10))


def test_the_capture_game_goes_for_the_winning_capture():
    game = position(7, "B4 C5 D4 F2", "C4 G6", goal=1)  # white C4's last liberty: C3
    assert game.liberties("C4") == ["C3"]
    for level in (3, 4, 5, 6):
        assert reply(game, level, 0) == "C3"


# ---------------------------------------------------------------------- eyes and the end of the game
def test_the_mouse_tires_on_a_full_board_but_plays_on_an_open_one_and_in_the_capture_game():
    # the same random stones: three quarters of the 9x9 board covered, then barely a third
    full = random_position(9, 75, 7)
    assert len(full.empty_points) <= 81 // 4 and not full.over
    assert all(reply(full, 1, seed) == "pass" for seed in range(4))
    assert any(reply(full, 3, seed) != "pass" for seed in range(4))  # there is still something to play
    opening = random_position(9, 25, 7)
    assert all(reply(opening, 1, seed) != "pass" for seed in range(4))
    crowded = random_position(9, 75, 7)
    crowded_capture = Game(9, rules=Rules(capture_goal=60))
    for _, p in crowded.moves:
        crowded_capture.play(crowded.name(p) if p is not None else "pass")
    assert not crowded_capture.over
    assert all(reply(crowded_capture, 1, seed) != "pass" for seed in range(4))


def test_the_mouse_ends_an_open_game_when_the_child_passes_twice_in_a_row():
    for seed in range(3):
        game = random_position(13, 30, seed)
        assert len(game.empty_points) > 169 // 2 and game.to_play == "black"
        game.play("pass")  # once: the mouse plays on (a child's pass may be a slip)
        first = reply(game, 1, seed)
        assert first != "pass"
        game.play(first)
        game.play("pass")  # twice in a row: the child is done
        assert reply(game, 1, seed) == "pass"
        assert reply(game, 3, seed) != "pass"  # a stronger level still plays out an open board


def test_no_level_fills_its_own_eye():
    # black lives in the lower left with single eyes at A1 and C1; plenty of other moves elsewhere
    game = position(9, "A2 B2 C2 D2 D1 B1", "E1 E2 E3 D3 C3 B3 A3 G7", to_play="black")
    assert game.liberties("B1") == ["A1", "C1"]
    for level in BUILTIN:
        for seed in range(6):
            assert reply(game, level, seed) not in ("A1", "C1"), (level, seed)


def test_only_eyes_left_means_pass():
    game = Game(3)
    for move in ("A2", "B2", "C2", "B3", "B1"):
        game.play(move, "black")
    game.to_play = "black"
    for level in BUILTIN:
        assert reply(game, level, 0) == "pass"


FINISHED_9 = dict(black=" ".join(f"{c}{r}" for c in "DE" for r in range(1, 10)),
                  white=" ".join(f"F{r}" for r in range(1, 10)))


@pytest.mark.parametrize("to_play", ["black", "white"])
def test_every_level_passes_in_a_finished_game(to_play):
    """Black's wall D-E with A-C behind it, White's wall F with G-J: no dame, nothing to take or save, no
    room to live on either side: the game is over, and after the opponent's pass every level passes too."""
    game = position(9, FINISHED_9["black"], FINISHED_9["white"], to_play="white" if to_play == "black" else "black")
    game.play("pass")
    assert game.to_play == to_play
    for level in range(1, 9):
        assert reply(game, level, 3) == "pass", level
    assert game.score().winner == "black"  # 45 to 36, komi 7.5


def test_a_game_between_levels_ends_with_two_passes():
    game = Game(9)
    while not game.over and len(game.moves) < 200:
        game.play(reply(game, 3 if game.to_move == 1 else 4, 2))
    assert game.end_reason == "passes", f"{len(game.moves)} moves"


# ---------------------------------------------------------------------- time
def test_the_budget_holds_on_a_big_board():
    game = random_position(19, 80, 4)
    for level in (3, 6):
        # the cap is a wall clock inside the search, so the work the bot does fits in it too; that work is counted in
        # this process's CPU time, which other processes on a busy machine do not stretch as they stretch the wall.
        # The move is the same every time (a seeded level), so the least of two tries is its cost: a hiccup of the
        # machine, or a full collection of the test process's own heap falling inside the move, is not the bot's
        took = float("inf")
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            move = reply(game, level, 1)
            took = min(took, time.process_time() - start)
        assert move == "pass" or game.is_legal(move)
        # the rest (legal moves, scores) is a few milliseconds more
        assert took <= bot.level_info(level).budget_seconds + 0.25, (level, took)


def test_levels_are_numbered_one_to_eight_with_their_characters():
    assert [(lv.number, lv.slug) for lv in LEVELS] == [
        (1, "mouse"), (2, "rabbit"), (3, "monkey"), (4, "panda"), (5, "tiger"), (6, "chief"), (7, "owl"),
        (8, "dragon")]
    with pytest.raises(ValueError):
        reply(Game(9), 9, 0)


# ---------------------------------------------------------------------- teach gtp --level
def test_teach_gtp_level_one_plays_genmove_over_the_real_command_line():
    commands = "boardsize 9\nplay b E5\ngenmove w\nall_legal b\ngenmove b\nquit\n"
    out = subprocess.run([sys.executable, "-c", "from teach.cli import cli; cli()", "gtp", "--level", "1",
                          "--seed", "4"], input=commands, capture_output=True, text=True, timeout=60, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    answers = [a for a in out.stdout.split("\n\n") if a.strip()]
    assert all(a.startswith("=") for a in answers), answers
    white, legal_for_black, black = answers[2][2:], answers[3][2:].split(), answers[4][2:]
    assert white not in ("E5", "pass", "PASS")
    assert black in legal_for_black
    again = subprocess.run([sys.executable, "-c", "from teach.cli import cli; cli()", "gtp", "--level", "1",
                            "--seed", "4"], input=commands, capture_output=True, text=True, timeout=60, cwd=ROOT,
                           env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert again.stdout == out.stdout  # the seed decides
    bad = subprocess.run([sys.executable, "-c", "from teach.cli import cli; cli()", "gtp", "--level", "0"],
                         input="quit\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert bad.returncode != 0 and "--level" in bad.stderr
