"""The dead-stone estimate of finished games and the count it gives."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from teach.go import Game
from teach.go.status import dragons, estimate
from conftest import PEER, build_position

# a finished 9x9 game: black's wall on column D, white's on E; a white stone lost in black's area
FINISHED = [
    "...XO....",
    "...XO....",
    "...XO....",
    ".O.XO....",
    "...XO....",
    "...XO..X.",
    "...XO....",
    "...XO....",
    "...XO....",
]


def position(rows: list[str], swap: bool = False) -> Game:
    return build_position([r.translate(str.maketrans("XO", "OX")) for r in rows] if swap else rows)


@pytest.mark.parametrize("swap", [False, True])
def test_lone_stones_in_territory_are_never_called_alive(swap):
    game = position(FINISHED, swap)
    est = estimate(game)
    lone = {game.point("B6"), game.point("H4")}
    assert lone <= est.dead | est.unsure
    walls = {game.name(p) for p in est.alive}
    assert {"D1", "D9", "E1", "E9"} <= walls
    assert est.score() == game.score([game.name(p) for p in sorted(est.dead)])


def test_estimate_is_deterministic():
    game = position(FINISHED)
    a, b = estimate(game), estimate(game)
    assert (a.dead, a.alive, a.unsure, a.seki) == (b.dead, b.alive, b.unsure, b.seki)


def test_dragons_join_chains_sharing_two_liberties():
    game = position(["....", ".X..", "..X.", "...."])
    assert len(dragons(game)) == 1
    game = position(["....", ".X..", "....", "...X"])
    assert len(dragons(game)) == 2


GAMES = PEER / "games"
GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed")
@pytest.mark.skipif(not GAMES.exists(), reason="peer game records are not available")
@pytest.mark.parametrize("record", ["9x9-1.sgf", "9x9-4.sgf", "arb/dumonteil-5.sgf"])
def test_certain_statuses_agree_with_gnugo(record):
    """What the estimate calls certain (unconditional, or proven by reading) GNU Go must not contradict."""
    path = GAMES / record
    run = subprocess.run([GNUGO, "--mode", "gtp", "--chinese-rules"],
                         input=f"loadsgf {path}\nfinal_status_list dead\n", capture_output=True, text=True,
                         timeout=120)
    answer = [a for a in run.stdout.split("\n\n") if a.strip()][1]
    theirs = set(answer[1:].split())
    game = Game.from_sgf(path.read_bytes())
    est = estimate(game)
    certain_dead = {game.name(p) for p in est.dead & est.certain}
    certain_alive = {game.name(p) for p in est.alive & est.certain}
    assert certain_dead <= theirs
    assert not (certain_alive & theirs)
