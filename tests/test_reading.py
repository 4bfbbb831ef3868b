"""The tactical reader and the move judge on hand-made positions (and GNU Go as an oracle for ladders)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from teach.go import EMPTY, Game
from teach.go.judge import Goal, GoalError, Judge
from teach.go.reading import KO_A, KO_B, LOSE, WIN, BudgetExceeded, Limits, Reader, ladder_attack
from conftest import PEER, build_position

GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)


LADDER = ["C4", "D3", "E5"]  # black stones; white D4 has two liberties (D5, E4) and runs in a ladder


def ladder_game(*extra_white: str) -> Game:
    game = Game(9)
    game.setup(black=LADDER, white=["D4", *extra_white])
    game.to_play = "black"
    return game


def test_a_stone_in_atari_is_captured_on_its_last_liberty():
    game = build_position([
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
    game = build_position([
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
    game = build_position([
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
    game = build_position([
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
    game = build_position([
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


def replay(moves: str, size: int = 9) -> Game:
    """A position from a record: B/W and the point, e.g. ``"BD4 WE5"``."""
    game = Game(size)
    for move in moves.split():
        game.play(move[1:], "black" if move[0] == "B" else "white")
    return game


# Positions from random games where GNU Go 3.8 (the oracle) and this reader used to disagree.
MISSED_DEFENCE = ("BF5 WF3 BB4 WE3 BE9 WE8 BH4 WH2 BD4 WF1 BC9 WF6 BC5 WH7 BH8 WG5 BA4 WG2 BC1 WH1 BD1 WJ3 "
                  "BD6 WG1 BD2 WG7 BG4")
FALSE_ATTACKS = [
    # a white stone on the first line, a black stone on the edge, a white stone in the middle
    ("BJ1 WJ2 BD5 WB7 BB6 WE4 BD1 WJ3 BA9 WJ6 BJ5 WH5 BF7 WC8 BB9 WC2 BD4 WE8 BG9 WA3 BF6 WC1 BA7", "A3"),
    ("BE2 WE6 BC5 WF8 BF6 WG5 BF3 WF7 BF9 WG4 BJ3 WA2 BH4 WC2 BE5 WD8 BJ4 WJ9 BA7 WB3 BB9 WC1 BF4 WC4 BB5 WA6 "
     "BF5 WJ2 BE1 WA4 BE3", "J3"),
    ("BF5 WD3 BG7 WH6 BF9 WD9 BH2 WG8 BB2 WB7 BA5 WD7 BA9 WE1 BH5 WG3 BE5 WJ7 BC3 WJ1 BE3 WA1 BC2 WC9", "G8"),
]


def test_a_black_chain_next_to_the_edge_is_saved_by_the_defence_gnugo_finds():
    game = replay(MISSED_DEFENCE)
    reader = Reader(game)
    result, move = reader.defend(game.point("H8"))
    assert result == WIN
    assert Reader(game).does_defend(move, game.point("H8")) == WIN
    assert Reader(game).attack(game.point("H8"))[0] == WIN  # it is in danger: the defence is needed


@pytest.mark.parametrize("moves, target", FALSE_ATTACKS, ids=[t for _, t in FALSE_ATTACKS])
def test_no_false_attack_where_the_defender_breaks_the_net(moves, target):
    game = replay(moves)
    result, move = Reader(game).attack(game.point(target))
    assert result == LOSE
    assert Reader(game).defend(game.point(target))[0] == WIN


@pytest.mark.parametrize("color", ["black", "white"])
def test_a_three_liberty_stone_in_open_space_is_read_well_inside_the_budget(color):
    """Open-board fights around three liberties used to exhaust the node budget (an honest but useless
    'unknown'); the stone that has run out into the open cannot be captured."""
    mine, theirs = ("O", "X") if color == "black" else ("X", "O")
    rows = [
        ".........",
        ".........",
        ".........",
        ".........",
        f"....{theirs}....",
        f"...{theirs}{mine}{theirs}...",
        f"....{mine}....",
        ".........",
        ".........",
    ]
    game = build_position(rows, to_play=color)
    reader = Reader(game, Limits(nodes=60_000, seconds=60))
    assert reader.attack(game.point("E4"))[0] == LOSE


THREE_LIBERTY_DEFENCES = [
    # a white stone on the top edge, a black stone on the right edge, a black stone on the first line
    ("BJ5 WH9 BF4 WC3 BH5 WB5 BA8 WA3 BJ4 WA9 BG8 WB4 BD5 WE9 BH4 WF6 BE7 WE1 BE2 WD2 BE4 WC2", "E9"),
    ("BJ7 WJ5 BC1 WD8 BD2 WA4 BF8 WC5 BG5 WG9 BE2 WC4 BC3 WA9 BF5 WJ4 BE6 WF1 BF6 WH6 BJ1 WA1 BE4 WA3 BG2 WA8 "
     "BD4 WG1 BD3", "J7"),
    ("BD9 WE8 BC1 WE1 BF2 WG9 BF9 WD2 BJ2 WH6 BJ4 WG7 BH9 WE6 BB7 WF7 BC8 WH3 BH7 WG6 BF5 WE9", "C1"),
]


@pytest.mark.parametrize("moves, target", THREE_LIBERTY_DEFENCES, ids=[t for _, t in THREE_LIBERTY_DEFENCES])
def test_a_three_liberty_chain_on_the_edge_finds_its_defence(moves, target):
    """Three liberties, attacked first it dies; the defence (GNU Go finds it too) used to be missed."""
    game = replay(moves)
    p = game.point(target)
    assert len(game.liberties(target)) == 3
    assert Reader(game).attack(p)[0] == WIN
    result, move = Reader(game).defend(p)
    assert result == WIN
    assert Reader(game).does_defend(move, p) == WIN


def test_a_chain_saved_only_by_retaking_a_ko_needs_a_threat_first():
    """White has just taken the ko at C9, putting A9-B9 in atari; black may not retake at D9 at once, but
    retaking after a ko threat saves the stones: a ko black must win (GNU Go answers ``3 D9`` here)."""
    game = build_position([
        "XX.XO....",
        ".OXO.....",
        "OOX......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ], "white")
    game.play("C9")  # takes black D9: the ko
    reader = Reader(game)
    assert reader.defend(game.point("A9")) == (KO_B, game.point("D9"))
    assert reader.attack(game.point("A9")) == (WIN, game.point("A8"))


def _either_colour(rows: list[str], swap: bool, to_play: str = "black"):
    """The position with ``to_play`` to move, or with the colours swapped and the other side to move: the same
    reading."""
    if swap:
        other = "white" if to_play == "black" else "black"
        return build_position([r.translate(str.maketrans("XO", "OX")) for r in rows], other)
    return build_position(rows, to_play)


def _working_moves(reader: Reader, target: int, attack: bool, points=None) -> list[str]:
    """The names of the points (every empty point unless given) where playing first attacks (or defends) the
    target, each read out fully."""
    game = reader.g
    if points is None:
        points = [game.name(p) for p, c in enumerate(game.board) if c == EMPTY]
    check = reader.does_attack if attack else reader.does_defend
    return [name for name in points if check(game.point(name), target)]


@pytest.mark.parametrize("swap", [False, True])
def test_the_attacker_first_saves_its_own_short_chain_next_to_the_target(swap):
    """White H2 and the black chain around it share their two liberties (G2, H3): whoever fills one first is
    captured first. Black wins the race by taking the white stones in atari at F5, which gives the black chain
    its liberties back, or by the atari at H7 on the white stones that press it; filling a shared liberty
    loses. Moving first, white cannot save H2 either (GNU Go: attack 1 F5, and defend 0 after a black pass)."""
    rows = [
        ".........",
        ".........",
        ".........",
        "......XOO",
        "......OXO",
        ".....XOXX",
        "....OOX.X",
        "....OX.OX",
        "....OXXXX",
    ]
    game = _either_colour(rows, swap)
    reader = Reader(game)
    target = game.point("H2")
    assert reader.attack(target)[0] == WIN
    assert reader.does_attack(game.point("F5"), target) == WIN
    assert reader.does_attack(game.point("H7"), target) == WIN
    assert reader.does_attack(game.point("G2"), target) == LOSE
    assert reader.does_attack(game.point("H3"), target) == LOSE
    game.to_play = "white" if game.to_play == "black" else "black"
    assert Reader(game).defend(target) == (LOSE, None)


def test_a_chain_with_four_liberties_lives_at_the_point_next_to_three_of_them():
    """The black stones inside the white wall have four liberties; J4, touching three of them, makes the eyes
    (GNU Go agrees). It is no liberty of the chain: the defence reads the liberties' neighbours too."""
    game = build_position([
        ".........",
        ".........",
        "..OOOOOOO",
        ".....OOXX",
        ".....OXX.",
        ".....OX..",
        ".....OXX.",
        ".....OOXX",
        ".....OOO.",
    ])
    assert Reader(game).defend(game.point("H6")) == (WIN, game.point("J4"))


def test_the_defender_strengthens_its_own_weak_stone_that_guards_a_liberty():
    """White A6 has two liberties; black cannot fill A7 while white B7 stands next to it. B7 itself has only
    two liberties, so white saves A6 by strengthening B7 at C7 (GNU Go agrees); A7 and A5 both fail."""
    game = build_position([
        ".X.......",
        "OXX......",
        ".O.......",
        "OXO......",
        ".X.......",
        "XX.......",
        ".........",
        ".........",
        ".........",
    ], "white")
    reader = Reader(game)
    target = game.point("A6")
    assert reader.defend(target) == (WIN, game.point("C7"))
    assert reader.does_defend(game.point("A7"), target) == LOSE
    assert reader.does_defend(game.point("A5"), target) == LOSE


@pytest.mark.parametrize("swap", [False, True])
def test_a_stone_whose_capture_is_a_ko_is_still_captured_outright_by_taking_away_its_connection(swap):
    """Taking white A3 at A2 is a ko. Black does better: C2 (or B1) first leaves white's connection at A2
    short of liberties, so A3 is captured whatever white does; GNU Go also answers C2 with result 1."""
    rows = [
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "XX.......",
        "OXX......",
        ".O.X.....",
        "O..X.....",
    ]
    game = _either_colour(rows, swap)
    reader = Reader(game)
    target = game.point("A3")
    result, move = reader.attack(target)
    assert result == WIN and game.name(move) in ("C2", "B1")
    assert reader.does_attack(game.point("C2"), target) == WIN
    assert reader.does_attack(game.point("A2"), target) == KO_A


def test_in_a_race_the_defender_attacks_an_attacker_with_one_liberty_more():
    """Black J9-H7 (three liberties) is in a race with white G7-G9 (four): black lives only by taking a
    liberty from the white chain first, at F7 (GNU Go agrees); filling its own liberties loses."""
    game = build_position([
        "....X.O.X",
        "....XXO.X",
        "..XXX.OXX",
        "...OXXXO.",
        ".......OO",
        ".........",
        ".........",
        ".........",
        ".........",
    ])
    reader = Reader(game)
    target = game.point("J9")
    result, move = reader.defend(target)
    assert result == WIN and game.name(move) in ("F7", "F9")
    assert reader.does_defend(game.point("J6"), target) == LOSE


# The top edge with two white chains short of liberties, G9-H9-H8 and B9-C9-B8, and black E9 between them: the
# two tests below read it from each side.
TWO_RACES_ON_TOP = [
    "XOO.X.OO.",
    "XO.O.O.OX",
    "XXOOXOOXX",
    "XXXOXOXXX",
    "OOXXXXXOO",
    ".........",
    ".........",
    ".........",
    ".........",
]


def test_the_attacker_strengthens_its_stone_next_to_a_liberty_before_closing_in():
    """White G9-H9-H8 has three liberties; black E9, next to the liberty F9, would be captured in the race.
    Black first plays E8 (strengthening E9 and shortening white F8), then white cannot escape; GNU Go agrees."""
    game = build_position(TWO_RACES_ON_TOP)
    reader = Reader(game)
    target = game.point("G9")
    assert reader.attack(target) == (WIN, game.point("E8"))
    assert reader.does_attack(game.point("F9"), target) == LOSE


def test_the_defender_attacks_an_attacker_stone_that_sits_next_to_its_liberty():
    """White B9-C9-B8 has two liberties. Black E9 is not next to it but next to its liberty D9, with three
    liberties of its own: white lives by taking one of them at E8 (GNU Go agrees), which also shortens the
    big black chain; answering at D9 or C8 directly fails."""
    game = build_position(TWO_RACES_ON_TOP, "white")
    reader = Reader(game)
    target = game.point("B9")
    assert reader.defend(target) == (WIN, game.point("E8"))
    assert reader.does_defend(game.point("D9"), target) == LOSE
    assert reader.does_defend(game.point("C8"), target) == LOSE


def test_a_two_liberty_chain_in_a_race_at_the_root_may_attack_a_stronger_neighbour():
    """White E6-E3 has two liberties against black chains of four: it survives only by shortening one of
    them (J5 at the edge, or D3 / E2 below; GNU Go answers E2), not by extending on its own liberties."""
    game = build_position([
        ".....O...",
        "...XO..OO",
        "...XXOOXO",
        ".O.XOXXX.",
        "...XO..X.",
        "...XOO.O.",
        "....XOOX.",
        ".....XXX.",
        ".........",
    ], "white")
    result, move = Reader(game).defend(game.point("E6"))
    assert result == WIN and game.name(move) in ("J5", "D3", "E2")


@pytest.mark.parametrize("swap", [False, True])
def test_a_chain_left_with_two_eyes_lives_without_another_move(swap):
    """White G9-J7 has four liberties inside a solid wall. J9 is the vital point for both sides (GNU Go
    agrees): after white J9 and black F9 the two liberties left are eyes, and white lives by playing nothing
    more. Black J8 is answered by taking it at J9 with the same two eyes; a reader that makes the defender move
    fills its own eye there and calls the group dead."""
    rows = [
        "...XX.O..",
        "...XXXOO.",
        "....XXXOO",
        "....XXXXX",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]
    game = _either_colour(rows, swap)
    reader = Reader(game)
    target = game.point("G9")
    assert reader.attack(target) == (WIN, game.point("J9"))
    assert _working_moves(reader, target, True, ["J8", "H9", "F9"]) == []
    assert reader.does_defend(game.point("J9"), target) == WIN
    assert _working_moves(reader, target, False, ["J8", "H9", "F9"]) == []
    # after white J9 and black F9, white to move: every move there fills an eye, and none is needed
    rows[0] = "...XXXO.O"
    game = _either_colour(rows, swap, "white")
    target = game.point("G9")
    assert Reader(game).defend(target) == (WIN, None)
    assert Reader(game).attack(target) == (LOSE, None)


@pytest.mark.parametrize("swap", [False, True])
def test_the_defender_attacks_the_stones_that_guard_a_short_attackers_liberty(swap):
    """White B5-E5 has three liberties; the black chain C1-E4 next to it has two (D1, D3), and black E1-F1 keeps
    D1 out of white's reach. White D1 takes E1-F1 and starts a ko for the black chain, the only way to live
    (GNU Go: 2 D1); the target's own liberties and ataris fail."""
    rows = [
        ".........",
        ".........",
        "...XXX...",
        "XXXX.X...",
        "XOOOOX...",
        "XOXXXOOO.",
        ".OX.XO.OO",
        "OOXXOOO.O",
        ".OX.XXOO.",
    ]
    game = _either_colour(rows, swap, "white")
    reader = Reader(game)
    target = game.point("B5")
    assert reader.defend(target) == (KO_A, game.point("D1"))
    assert _working_moves(reader, target, False, ["E6", "A3", "A1", "D3"]) == []


@pytest.mark.parametrize("swap", [False, True])
def test_the_defender_takes_a_stone_that_weakens_its_other_chain_in_the_race(swap):
    """Black G9-J9 lives in seki with the white chain F9-J7 around it, as long as the black chain G6-J4 below
    holds. White J3 ataris that chain; black answers E6, taking F6 (not next to the target, next to the chain
    in the race), and everything holds; every other answer loses. So white has no attack (GNU Go: attack 0,
    and after J3 defend 1 E6)."""
    rows = [
        "..X.XOXXX",
        "..X.XOO..",
        "..XXXXOOO",
        "...X.OXXX",
        "...XXXOX.",
        "...XOOOXX",
        "...XO.OO.",
        "...XOO.OO",
        "...XO....",
    ]
    game = _either_colour(rows, swap, "white")
    target = game.point("G9")
    assert Reader(game).attack(target) == (LOSE, None)
    game.play("J3")
    reader = Reader(game)
    assert reader.defend(target) == (WIN, game.point("E6"))
    assert _working_moves(reader, target, False) == ["E6"]


@pytest.mark.parametrize("swap", [False, True])
def test_a_capture_that_is_taken_straight_back_does_not_count(swap):
    """Black C1 is in atari, but white D1 takes it by filling white's own last liberty: black plays C1 again
    and takes eight white stones (倒扑, a snapback against the capturer). White first takes A2-B2 at A1 and
    C1 stays caught (GNU Go: attack 1 A1)."""
    rows = [
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "XXXX.....",
        "OOOXXX...",
        "XXOOOX...",
        ".OX.OX...",
    ]
    game = _either_colour(rows, swap, "white")
    reader = Reader(game)
    target = game.point("C1")
    assert reader.does_attack(game.point("D1"), target) == LOSE
    assert reader.attack(target) == (WIN, game.point("A1"))
    assert _working_moves(reader, target, True) == ["A1"]


@pytest.mark.parametrize("swap", [False, True])
def test_the_attacker_first_shortens_the_stone_that_guards_a_liberty(swap):
    """Black H9-G8 has three liberties; G9 is one white cannot fill while black F9 has two liberties. White E9
    shortens F9 first, and black can no longer hold G9. Black's answer to any other white move is to connect
    F9 out at E9 (GNU Go: attack 1 E9; after white D9, defend 1 E9)."""
    rows = [
        "O.O..X.XX",
        ".OOXXOXX.",
        "OOXXOOO.O",
        "XX.XO.OOO",
        "X.XOO....",
        ".XXOO....",
        "XXOO.....",
        "OOO......",
        ".........",
    ]
    game = _either_colour(rows, swap, "white")
    reader = Reader(game)
    target = game.point("H9")
    assert reader.attack(target) == (WIN, game.point("E9"))
    assert _working_moves(reader, target, True) == ["E9"]
    game.play("D9")
    assert Reader(game).defend(target) == (WIN, game.point("E9"))


@pytest.mark.parametrize("swap", [False, True])
def test_the_attacker_takes_the_stones_in_atari_next_to_its_own_stone_at_a_liberty(swap):
    """White A5-A4 has two liberties (A3, B4). White's only defence is B2 (GNU Go: defend 1 B2): A1, which
    takes away a liberty of black A2 and looks natural, leaves A1-B1 in atari, and black B2 takes them; A2,
    with its liberties back, then holds A3."""
    rows = [
        "XOO.X.OO.",
        "XO.O.O.OX",
        "XXOOXOOXX",
        "XXXOXOXXX",
        "OOXXXXXOO",
        "O.OX.XO.O",
        ".OOX.XOO.",
        "X..X.X..X",
        ".OXX.XXOO",
    ]
    game = _either_colour(rows, swap, "white")
    reader = Reader(game)
    target = game.point("A5")
    assert reader.defend(target) == (WIN, game.point("B2"))
    assert reader.does_defend(game.point("A1"), target) == LOSE
    assert _working_moves(reader, target, False) == ["B2"]


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_chain_sharing_its_two_liberties_with_a_three_liberty_friend_connects_the_friend_out():
    """capture.tst 1, from a game record: black S10-P9 has two liberties, S9 and T9, which black S8-T8 shares
    and which white can fill only while S8-T8 is short. Black T7 joins S8-T8 to S6-T6, and white can no longer
    approach (GNU Go: defend 1 T7); the same answer through the GTP front end."""
    from teach.go.gtp import GtpEngine

    engine = GtpEngine()
    engine.handle(f"loadsgf {PEER / 'golois' / 'Goemate990902-15.sgf'}")
    assert engine.handle("defend S10").strip("= \n") == "1 T7"
    game = engine.game
    reader = Reader(game)
    target = game.point("S10")
    assert reader.does_defend(game.point("T7"), target) == WIN
    assert reader.does_defend(game.point("S9"), target) == LOSE
    assert reader.does_defend(game.point("T9"), target) == LOSE


def _peer_position(record: str, move: int | None = None):
    from teach.go.gtp import GtpEngine

    engine = GtpEngine()
    assert engine.handle(f"loadsgf {PEER / 'games' / record} {move or ''}").startswith("=")
    return engine.game


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_ko_taken_on_a_liberty_of_the_surrounding_chain_is_retaken():
    """reading.tst 184, from a game record: white C19-C15 races black's big surrounding chain. Black E11 takes
    a ko on one of that chain's liberties; white retakes (after a threat), which also shortens the chain, and the
    race is a ko at best for black. The way in is A16 first, and that is a ko too (GNU Go: attack 2 A16)."""
    game = _peer_position("reading41.sgf", 130)
    reader = Reader(game)
    target = game.point("C19")
    assert reader.attack(target) == (KO_A, game.point("A16"))
    assert reader.does_attack(game.point("E11"), target) == KO_A


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_stone_fights_with_the_friend_that_shares_its_liberties():
    """reading.tst 185 and 187, the same position: white A19 touches no black stone at all, but both its
    liberties belong to white C19-C15 too, so it lives or dies in that chain's race. Black A16 (strengthening
    its own short chain next to a liberty) starts a ko; white E11 first, joining the stone in atari that keeps
    black's surrounding chain short, settles it (GNU Go: defend 1 E11)."""
    game = _peer_position("reading41.sgf", 130)
    reader = Reader(game)
    target = game.point("A19")
    assert reader.attack(target) == (KO_A, game.point("A16"))
    assert reader.defend(target) == (WIN, game.point("E11"))
    assert reader.does_defend(game.point("B19"), target) < WIN


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_the_attacker_approaches_a_guard_whose_liberty_would_be_a_self_atari():
    """reading.tst 123: white K18-J17 has two liberties, J18 and L18; white H18 and J19 guard J18 and share
    their other liberty H19, where a black stone would be in atari at once. Black G19 first takes that liberty
    from outside, and the guards and the chain fall together (GNU Go: attack 1 G19)."""
    game = _peer_position("reading19.sgf")
    reader = Reader(game)
    target = game.point("K18")
    assert reader.attack(target) == (WIN, game.point("G19"))
    assert reader.does_attack(game.point("H19"), target) == LOSE


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_the_attacker_shortens_a_three_liberty_friend_that_shares_a_liberty():
    """reading.tst 124, from a game record: black G3-H1 has two liberties, F1 and J1; black J2-J3 has three and
    shares J1. Filling F1 at once lets black connect at J1 with room to spare; white K3 first shortens J2-J3, and
    then the whole group is short of liberties (GNU Go: attack 1 K3)."""
    game = _peer_position("reading20.sgf")
    reader = Reader(game)
    target = game.point("G3")
    assert reader.attack(target) == (WIN, game.point("K3"))
    assert reader.does_attack(game.point("F1"), target) == LOSE


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_short_chain_of_the_attacker_wins_its_race_by_shortening_the_other_side_first():
    """reading.tst 52 and 53: white C3 (liberties C1, D2) races black E2-E1 (D2, F1), whose other neighbour,
    white F2-G2, has three liberties. Filling a shared liberty loses the race; black H2 first, shortening F2-G2
    from outside, wins it: now white F1 or G1 would be taken (GNU Go: attack 1 H2)."""
    game = _peer_position("reading02.sgf")
    assert Reader(game).attack(game.point("C3")) == (WIN, game.point("H2"))
    assert Reader(game).attack(game.point("D1")) == (WIN, game.point("H2"))
    for fill in ("D2", "C1", "F1"):
        assert Reader(game).does_attack(game.point(fill), game.point("C3")) == LOSE


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_capture_refuted_by_a_defence_found_only_at_root_width_is_withdrawn():
    """reading.tst 88: black F2 looks like it captures white G6 when the defence is read one ply down, where
    the move lists are narrower. Read as a root of its own, white D5 escapes it, and black then has nothing, so
    F2 is withdrawn and the reader answers with D5, reinforcing the surrounding chain first (GNU Go: 1 D5)."""
    game = _peer_position("reading11.sgf")
    target = game.point("G6")
    assert Reader(game, Limits(verify=0)).attack(target) == (WIN, game.point("F2"))
    assert Reader(game).attack(target) == (WIN, game.point("D5"))
    assert Reader(game).does_attack(game.point("F2"), target) == LOSE
    assert Reader(game).does_attack(game.point("D5"), target) == WIN


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_defender_attacks_a_three_liberty_stone_next_to_its_liberties_deep_in_the_line():
    """reading.tst 160, from a game record: black E1 ataris white D1 as a self-atari; white takes it, and the
    fight runs along the first line until white's chain is down to two liberties, one of them next to a lone
    black stone with three (K1). Eight plies down white must still shorten that stone (L1), not only extend,
    or the capture looks like it works (GNU Go: attack 0)."""
    game = _peer_position("ssstator.sgf", 133)
    game.play("C1", "black")
    target = game.point("D1")
    assert Reader(game).attack(target) == (LOSE, None)
    assert Reader(game).does_attack(game.point("E1"), target) == LOSE
    assert Reader(game, Limits(loose_attacker_depth=4)).does_attack(game.point("E1"), target) == WIN


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_shut_in_three_liberty_chain_is_still_attacked_thirteen_plies_down():
    """reading.tst 63: black A9-D10 cannot be saved; black A8 only looks like it lives when the line in which
    white keeps the chain on three shut-in liberties (at most two empty points beyond them) is cut off twelve
    plies down (GNU Go: defend 0). In open space the cut stays at twelve, or loose chases read as captures
    (tests/test_judge.py: the open-board stone in atari)."""
    game = _peer_position("reading05.sgf")
    target = game.point("A9")
    assert Reader(game).defend(target) == (LOSE, None)
    assert Reader(game).does_defend(game.point("A8"), target) == LOSE
    assert Reader(game, Limits(enclosed3_depth=12)).defend(target) == (WIN, game.point("A8"))



@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_short_defence_refuted_by_a_capture_found_only_at_root_width_is_withdrawn():
    """reading.tst 177, 13x13: white K4-L2 has three liberties. White L3 leaves it two and looks like a defence
    when the attack is read one ply down; read as a root of its own, black captures it anyway, and white then
    has nothing, so L3 is withdrawn and the reader answers N1 (GNU Go: defend 1 N1, does_defend L3 0)."""
    game = _peer_position("mertin13x13/katsunari-gnugo2.W+4.sgf", 126)
    for move, colour in (("L4", "black"), ("N3", "white"), ("N2", "black")):
        game.play(move, colour)
    target = game.point("K4")
    assert Reader(game, Limits(verify=0)).defend(target) == (WIN, game.point("L3"))
    assert Reader(game).defend(target) == (WIN, game.point("N1"))
    assert Reader(game).does_defend(game.point("L3"), target) == LOSE
    assert Reader(game).does_defend(game.point("N1"), target) == WIN


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_check_cut_short_by_the_budget_leaves_the_answer_unknown():
    """reading.tst 159: black B15 reads as a capture of white B14 one ply down, and the root-width check
    refutes it (GNU Go: attack 0). With nodes enough for the first read but not for the check, the answer is
    unknown: the unchecked B15 must not come back as a certain capture."""
    game = _peer_position("trevor/auto/d12.sgf", 66)
    target = game.point("B14")
    first = Reader(game, Limits(verify=0))
    assert first.attack(target) == (WIN, game.point("B15"))
    assert Reader(game).attack(target) == (LOSE, None)
    with pytest.raises(BudgetExceeded):
        Reader(game, Limits(nodes=first.nodes + 1000)).attack(target)


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_capture_answered_by_a_snapback_is_no_ko():
    """reading.tst 175: white O3 is down to one liberty, N3, after white N2, black O2, white N1. Black N3 takes
    it, but joins eight black stones left with O3 as their only liberty, and white takes them all back. That
    capture simply fails: it is not a ko the attacker might win (GNU Go: defend 1 N2)."""
    game = _peer_position("reading39.sgf")
    target = game.point("O3")
    assert Reader(game).defend(target) == (WIN, game.point("N2"))
    for move, colour in (("N2", "white"), ("O2", "black"), ("N1", "white")):
        game.play(move, colour)
    assert Reader(game).attack(target) == (LOSE, None)
    assert Reader(game).does_attack(game.point("N3"), target) == LOSE


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_a_shut_in_chain_whose_three_liberty_defences_lose_the_race_has_no_defence():
    """capture.tst 3: black P15-R18 is shut in with three liberties, in a race with the white chains around it.
    Black T15 keeps three liberties and looks like a defence one ply down; checked as a root of its own (with
    white lengthening its short chains deeper, as it must in a race), white S16 captures whatever black tries.
    So do the other tries (P16, O18, L9), and the reader answers that nothing defends (GNU Go: defend 0).
    Unchecked, or with a node share too small for the check to finish, T15 stands as before."""
    from teach.go.gtp import GtpEngine

    engine = GtpEngine()
    engine.handle(f"loadsgf {PEER / 'golois' / 'Goemate990904-4.sgf'}")
    game = engine.game
    target = game.point("Q15")
    assert Reader(game, Limits(verify_shut3=False)).defend(target) == (WIN, game.point("T15"))
    assert Reader(game, Limits(verify_shut3_nodes=50)).defend(target) == (WIN, game.point("T15"))
    assert Reader(game, Limits(verify_weak_depth=4)).defend(target) == (WIN, game.point("T15"))
    assert Reader(game).defend(target) == (LOSE, None)
    for move in ("T15", "O18", "L9"):
        assert Reader(game, Limits(verify_shut3=False)).does_defend(game.point(move), target) == WIN
        assert Reader(game).does_defend(game.point(move), target) == LOSE
    assert engine.handle("defend Q15").strip("= \n") == "0"
