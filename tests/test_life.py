"""Unconditional life (teach.go.life): GNU Go's ``unconditional_status`` semantics.

Status grids below are drawn like the positions, top row first: ``A`` alive, ``D`` dead, ``.`` undecided,
``b`` black territory, ``w`` white territory. Every expected grid was checked against GNU Go 3.8.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from teach.go import Game
from teach.go.coords import BadCoordinate
from teach.go.gtp import GtpEngine
from teach.go.life import (
    STATUSES,
    unconditional_status,
    unconditional_statuses,
    unconditional_territory,
    unconditionally_alive,
)

from conftest import PEER, build_position

GNUGO = "/usr/games/gnugo"
ABBR = {"alive": "A", "dead": "D", "undecided": ".", "black_territory": "b", "white_territory": "w"}


def grid(game: Game) -> list[str]:
    status = unconditional_statuses(game)
    n = game.size
    return ["".join(ABBR[status[(n - 1 - i) * n + c]] for c in range(n)) for i in range(n)]


def swapped(rows: list[str]) -> list[str]:
    return [r.translate(str.maketrans("XObw", "OXwb")) for r in rows]


def check(rows: list[str], expected: list[str]) -> None:
    """The position gives the expected grid, and the colour-swapped position the colour-swapped grid."""
    assert grid(build_position(rows)) == [r.replace(" ", "") for r in expected]
    assert grid(build_position(swapped(rows))) == swapped([r.replace(" ", "") for r in expected])


# ---------------------------------------------------------------------- hand-made positions
def test_corner_group_with_two_eyes_is_alive():
    check(
        [
            ". X . X O . . . .",
            "X X X X O . . . .",
            ". . . X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        [
            "bAbA.....",
            "AAAA.....",
            "bbbA.....",
            "AAAA.....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ],
    )


def test_one_eye_is_undecided():
    check(
        [
            ". X X X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        ["........."] * 9,
    )


def test_two_chains_sharing_their_eyes_are_both_alive():
    rows = [
        "X X . X O . . . .",
        "X . X X O . . . .",
        ". X X O O . . . .",
        "X X O . O . . . .",
        "O O O O O . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ]
    check(
        rows,
        [
            "AAbA.....",
            "AbAA.....",
            "bAA......",
            "AA.......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ],
    )
    game = build_position(rows)
    left = {game.point(m) for m in ("A9", "B9", "A8")}
    right = {game.point(m) for m in ("D9", "C8", "D8", "B7", "C7", "A6", "B6")}
    assert game.chain_at("A9") != game.chain_at("D9")  # two chains
    assert unconditionally_alive(game, "black") == left | right
    assert unconditional_territory(game, "black") == {game.point(m) for m in ("C9", "B8", "A7")}
    assert unconditionally_alive(game, "white") == set() == unconditional_territory(game, "white")


def test_false_eye_does_not_count():
    # C9 looks like an eye, but white captures D9 there: the group has one real eye only.
    check(
        [
            ". X . X O . . . .",
            "X X X O . O . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        ["........."] * 9,
    )


def test_opponent_stone_in_an_eye_is_dead():
    check(
        [
            ". X . X O . . . .",
            "X X O X O . . . .",
            "O X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        [
            "bAbA.....",
            "AADA.....",
            ".AAA.....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ],
    )


def test_centre_and_edge_groups_13x13():
    check(
        [
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . O O O O O . . . .",
            ". . . . O . O X . O . . .",
            ". . . . O O O . . O . . .",
            ". . . . . . O O O O . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            "X X X X X . . . . . X X X",
            "X . X . X . . . . . X . X",
            ". X X X X . . . . . X X .",
        ],
        [
            ".............",
            ".............",
            ".............",
            "....AAAAA....",
            "....AwADwA...",
            "....AAAwwA...",
            "......AAAA...",
            ".............",
            ".............",
            ".............",
            "AAAAA.....AAA",
            "AbAbA.....AbA",
            "bAAAA.....AAb",
        ],
    )


def test_dead_stones_inside_both_colours_territory_13x13():
    check(
        [
            ". . . . . . . . X O . X .",
            ". . . . . . . . X X X X X",
            ". . . . . . . . X . O . X",
            ". . . . . . . . X X X X X",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            "X X X X X . . . . . . . .",
            "O O O O X . . . . . . . .",
            "O . X O X . . . . . . . .",
            "O O . O X . . . . . . . .",
            ". O O O X . . . . . . . .",
        ],
        [
            "........ADbAb",
            "........AAAAA",
            "........AbDbA",
            "........AAAAA",
            ".............",
            ".............",
            ".............",
            ".............",
            ".............",
            "AAAA.........",
            "AwDA.........",
            "AAwA.........",
            "wAAA.........",
        ],
    )


# GNU Go's own example (engine/unconditional.c): inside an invincible white group, black's shape with white's
# two-stone string is dead when the marked white stones are separate strings, and a seki when they are one.
DEAD_SHAPE = [
    ". O O O O O . O .",
    ". O X X X O . O .",
    "O O X . X O . O O",
    "O X . O X O O . O",
    "O X X O . X O O O",
    "O O X . X X O . O",
    ". O X X X O O O O",
    ". O O O O O . O .",
    ". . . . . O O O .",
]
SEKI_SHAPE = [
    ". . O O O O . O .",
    "O O O X X O . O .",
    "O X X . X O O O O",
    "O X . O X X O . O",
    "O X X O . X O O O",
    "O O X . X X O . O",
    ". O X X X O O O O",
    ". O O O O O . O .",
    ". . . . . O O O .",
]


def test_nakade_shape_inside_pass_alive_group_is_dead():
    check(
        DEAD_SHAPE,
        [
            "wAAAAAwAw",
            "wADDDAwAw",
            "AADwDAwAA",
            "ADwADAAwA",
            "ADDAwDAAA",
            "AADwDDAwA",
            "wADDDAAAA",
            "wAAAAAwAw",
            "wwwwwAAAw",
        ],
    )


def test_seki_shape_inside_pass_alive_group_is_undecided():
    check(
        SEKI_SHAPE,
        [
            "wwAAAAwAw",
            "AAA..AwAw",
            "A....AAAA",
            "A.....AwA",
            "A.....AAA",
            "AA....AwA",
            "wA...AAAA",
            "wAAAAAwAw",
            "wwwwwAAAw",
        ],
    )
    game = build_position(SEKI_SHAPE)
    assert unconditional_status(game, "D6") == "undecided"  # white's own two stones in the seki
    assert game.point("D6") not in unconditionally_alive(game, "white")


def test_plain_seki_is_undecided():
    check(
        [
            ". O X . X O . . .",
            ". O X X X O . . .",
            "O O X O O O . . .",
            "X X X O . . . . .",
            "O O O O . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ],
        ["........."] * 9,
    )


def test_empty_board_and_lone_stones_are_undecided():
    game = Game(9)
    assert set(unconditional_statuses(game)) == {"undecided"}
    game.play("E5")
    game.play("C3")
    assert set(unconditional_statuses(game)) == {"undecided"}


def test_tiny_board_from_the_regression_file():
    game = Game(2)
    game.play("A1")
    game.play("B2")
    assert set(unconditional_statuses(game)) == {"undecided"}


# ---------------------------------------------------------------------- API
def test_api_points_and_errors():
    game = build_position(DEAD_SHAPE)
    assert unconditional_status(game, "D6") == "alive"
    assert unconditional_status(game, "d6") == "alive"
    assert unconditional_status(game, game.point("C8")) == "dead"
    assert unconditional_status(game, "A9") == "white_territory"
    assert all(s in STATUSES for s in unconditional_statuses(game))
    for bad in ("Z9", "A10", "I5", "pass", "", 81, -1):
        with pytest.raises(BadCoordinate):
            unconditional_status(game, bad)
    with pytest.raises(ValueError):
        unconditionally_alive(game, "red")
    dead = {p for p, s in enumerate(unconditional_statuses(game)) if s == "dead"}
    assert dead <= unconditional_territory(game, "white")
    assert unconditional_territory(game, 2) == unconditional_territory(game, "white")
    assert not unconditional_territory(game, "black")


def test_answers_follow_the_game():
    game = build_position([
        ". X X X O . . . .",
        "X X X X O . . . .",
        "O O O O O . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ])
    assert unconditional_status(game, "B9") == "undecided"
    before = game.board_rows()
    game.play("pass")
    game.play("F5")  # a white move far away changes nothing
    assert unconditional_status(game, "B9") == "undecided"
    game.undo()
    game.undo()
    assert game.board_rows() == before
    game.setup(empty=["C9"])  # now two eyes: A9 and C9
    assert unconditional_status(game, "B9") == "alive"
    assert unconditional_status(game, "C9") == "black_territory"
    assert unconditional_status(game, "A7") == "undecided"


def test_gtp_command():
    engine = GtpEngine(9)
    for line in ("play black A8", "play black B8", "play black B9", "play black C8", "play black D8",
                 "play black D9", "play white E9", "play white E8", "play white A7"):
        assert engine.handle(line).startswith("=")
    assert engine.handle("1 unconditional_status B9") == "=1 alive\n\n"
    assert engine.handle("unconditional_status C9") == "= black_territory\n\n"
    assert engine.handle("unconditional_status E9") == "= undecided\n\n"
    assert engine.handle("unconditional_status E5") == "= undecided\n\n"
    assert engine.handle("2 unconditional_status Z9").startswith("?2 syntax error: invalid vertex")
    assert engine.handle("unconditional_status pass").startswith("? ")
    assert engine.handle("unconditional_status").startswith("? syntax error")
    assert engine.handle("known_command unconditional_status") == "= true\n\n"


# ---------------------------------------------------------------------- GNU Go as the oracle
CROSS_CHECK = [
    *(f"games/unconditional/{name}" for name in (
        "benson_safe1.sgf", "benson_safe2.sgf", "benson_safe3.sgf", "benson_unsafe.sgf",
        *(f"unconditional{k}.sgf" for k in range(1, 9)))),
    "games/olympiad2006/9x9/gnu-aya.sgf",
    "games/mertin13x13/katsunari-gnugo1.W+45.sgf",
    "games/kgs/tournament11/GNU-CrazyStone.sgf",
    "games/kgs/tournament9/indigoBot-GNU.sgf",
]


@pytest.mark.skipif(not PEER.is_dir(), reason="peer data (../shared/peer) is not present")
@pytest.mark.skipif(shutil.which(GNUGO) is None, reason="GNU Go (/usr/games/gnugo) is not installed")
def test_every_point_agrees_with_gnugo():
    games = [(name, Game.from_sgf((PEER / name).read_bytes())) for name in CROSS_CHECK]
    script = []
    for name, game in games:
        script += [f"loadsgf {name}", "list_stones black", "list_stones white"]
        script += [f"unconditional_status {game.name(p)}" for p in range(game.size ** 2)]
    out = subprocess.run([GNUGO, "--mode", "gtp"], input="\n".join(script) + "\nquit\n", cwd=PEER,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    answers = [block.strip() for block in out.split("\n\n") if block.strip()]
    assert all(a.startswith("=") for a in answers)
    answers = [a[1:].strip() for a in answers]
    kinds = set()
    for name, game in games:
        answers.pop(0)
        black, white = answers.pop(0).split(), answers.pop(0).split()
        assert sorted(black) == sorted(game.name(p) for p, c in enumerate(game.board) if c == 1), name
        assert sorted(white) == sorted(game.name(p) for p, c in enumerate(game.board) if c == 2), name
        theirs = [answers.pop(0) for _ in range(game.size ** 2)]
        mine = unconditional_statuses(game)
        diff = [(game.name(p), theirs[p], mine[p]) for p in range(game.size ** 2) if theirs[p] != mine[p]]
        assert not diff, f"{name}: (point, GNU Go, ours) {diff[:10]}"
        kinds.update(theirs)
    assert answers == [""]  # quit
    assert kinds == set(STATUSES)  # the positions exercise every answer


@pytest.mark.skipif(not PEER.is_dir(), reason="peer data (../shared/peer) is not present")
def test_unconditional_tst_passes_completely():
    from teach.go.regress import run_file

    result = run_file(PEER / "unconditional.tst", timeout=2.0)
    assert result.restarts == 0
    assert (result.passed, result.total) == (664, 664), [(f.test, f.got, f.expected) for f in result.failures]
