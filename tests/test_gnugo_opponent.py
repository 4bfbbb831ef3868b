"""GNU Go as levels 7 and 8: legal moves from the real program, and when it hangs, dies or talks nonsense the
built-in chief answers within the bound, with no GNU Go process left behind."""

import os
import subprocess
import threading
import time

import pytest

from teach.go import Game, Rules
from teach.go import bot, gnugo
from teach.go.bot import level_info, reply

REAL = gnugo.find_gnugo() if "TEACH_GNUGO" not in os.environ else None
needs_gnugo = pytest.mark.skipif(not REAL, reason="GNU Go is not installed (apt-get install gnugo)")


def children() -> list[int]:
    """The live or zombie child processes of this test process (from /proc)."""
    me = os.getpid()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == me:
            out.append(int(entry))
    return out


def fake(tmp_path, name: str, body: str) -> str:
    """A stand-in for the external GNU Go executable: a tiny shell script."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def restore():
    yield
    gnugo.use_path(gnugo.find_gnugo())


def some_game() -> Game:
    game = Game(9)
    for move in ("E5", "C4", "D3", "F4", "E3"):
        game.play(move)
    return game


FAKES = {
    "hangs": "sleep 30",
    "exits": "exit 3",
    "talks nonsense": 'while read line; do printf "= 2\\n\\n"; done',  # "2" is no move
    "plays an occupied point": 'while read line; do case "$line" in *genmove*) printf "= E5\\n\\n";; '
                               '*protocol*) printf "= 2\\n\\n";; *) printf "= \\n\\n";; esac; done',
    "refuses": 'while read line; do printf "? no\\n\\n"; done',
}


@pytest.mark.parametrize("kind", FAKES)
def test_a_broken_gnugo_falls_back_to_the_chief_within_the_bound(tmp_path, restore, kind, monkeypatch):
    player = gnugo.use_path(fake(tmp_path, "gnugo", FAKES[kind]))
    game = some_game()
    bound = level_info(7).budget_seconds + level_info(6).budget_seconds + 0.5
    start = time.monotonic()
    move = reply(game, 7, 9)
    assert time.monotonic() - start <= bound
    assert game.is_legal(move) and player.failures == 1
    assert [p for p in children() if p != os.getpid()] == []  # killed and reaped
    # the fallback is the built-in chief: compared unhurried (on a loaded machine the chief's clock cap can cut
    # one of two identical searches short), the same move as the chief's own
    monkeypatch.setattr(bot, "CAP_SCALE", 1000.0)
    assert reply(game, 7, 9) == reply(game, 6, 9)
    assert player.failures == 2 and [p for p in children() if p != os.getpid()] == []


def test_many_replies_against_a_hanging_gnugo_leave_no_process(tmp_path, restore):
    gnugo.use_path(fake(tmp_path, "gnugo", "echo $$ >> " + str(tmp_path / "pids") + "; sleep 30"))
    game = some_game()
    for seed in range(2):
        assert game.is_legal(reply(game, 8, seed))
        assert children() == []
    pids = (tmp_path / "pids").read_text().split()
    assert len(pids) == 2  # a fresh process each time, none of them still there (nor the sleep it started)
    time.sleep(0.1)
    listing = subprocess.run(["ps", "-eo", "pid,pgid"], capture_output=True, text=True).stdout
    for line in listing.split("\n")[1:]:
        assert not line.split() or line.split()[1] not in pids


def test_no_gnugo_at_all_plays_the_chief(restore, monkeypatch):
    # both sides of each comparison unhurried: a loaded machine's clock cap must not make the chief differ from itself
    monkeypatch.setattr(bot, "CAP_SCALE", 1000.0)
    gnugo.use_path(None)
    game = some_game()
    assert reply(game, 7, 1) == reply(game, 6, 1)
    assert reply(game, 8, 2) == reply(game, 6, 2)
    assert children() == []


@needs_gnugo
@pytest.mark.parametrize("level", [7, 8])
def test_the_real_gnugo_answers_legal_moves_and_keeps_one_process(restore, level):
    player = gnugo.use_path(REAL)
    game = Game(9)
    for _ in range(12):
        move = reply(game, level, 5)
        assert move == "pass" or game.is_legal(move)
        game.play(move)
    assert player.failures == 0
    assert len(children()) == 1  # one GNU Go, kept for the next move
    player.close()
    assert children() == []


@needs_gnugo
def test_threads_share_one_gnugo_safely(restore):
    player = gnugo.use_path(REAL)
    games = [Game(9), some_game(), Game(13)]
    games[2].play("D4")
    answers: dict[int, list[str]] = {i: [] for i in range(6)}

    def ask(i: int) -> None:
        game = games[i % 3]
        for seed in range(3):
            answers[i].append(reply(game, 7, seed))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for i, moves in answers.items():
        assert len(moves) == 3 and all(games[i % 3].is_legal(m) for m in moves)
    assert player.failures == 0 and len(children()) == 1


@needs_gnugo
def test_gnugo_in_the_capture_game_never_passes_and_is_checked(restore):
    gnugo.use_path(REAL)
    game = Game(7, rules=Rules(capture_goal=3))
    while not game.over and len(game.moves) < 40:
        move = reply(game, 7 if game.to_move == 1 else 3, 1)
        assert move == "pass" or game.is_legal(move)
        game.play(move)
    assert game.captures["black"] + game.captures["white"] > 0
