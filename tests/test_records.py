"""Game records: replaying SGF into the engine (strict and tolerant), writing it back, and the peer corpus."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from teach.go import Game
from teach.go.record import RecordError
from teach.go.sgf import SGFError
from conftest import PEER

GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)

def ko_position() -> str:
    """A ko on 5x5: black captures at D3, white's immediate retake at C3 is a ko violation."""
    return ("(;FF[4]GM[1]SZ[5]KM[0]"
            "AB[bc][cb][cd]AW[db][dd][ec][cc]"
            ";B[dc];W[cc])")


def test_replay_places_moves_and_captures():
    game = Game.from_sgf("(;FF[4]SZ[9]KM[7.5];B[ee];W[de];B[ce];W[];B[dd];W[aa];B[df])")
    assert game.size == 9 and game.komi == 7.5
    assert game.color_at("D5") is None  # the white stone at D5 was surrounded and taken
    assert game.captures == {"black": 1, "white": 0}
    assert game.color_at("E5") == "black"
    assert len(game.moves) == 7
    assert game.to_play == "white"


def test_strict_names_move_colour_point_and_reason():
    with pytest.raises(RecordError) as err:
        Game.from_sgf(ko_position(), strict=True)
    e = err.value
    assert (e.move_number, e.color, e.point, e.reason) == (2, "white", "C3", "ko")
    assert "move 2" in str(e) and "white C3" in str(e) and "ko" in str(e)


def test_tolerant_plays_the_ko_violation_with_its_captures():
    game = Game.from_sgf(ko_position())
    assert game.color_at("C3") == "white"
    assert game.color_at("D3") is None  # white's retake captured the black stone
    assert game.captures == {"black": 1, "white": 1}
    assert any("ko violation" in note for note in game.notes)


def test_occupied_point_is_noted_and_skipped():
    game = Game.from_sgf("(;SZ[9];B[ee];W[ee];B[dd])")
    assert game.color_at("E5") == "black" and game.color_at("D6") == "black"
    assert any("occupied" in note for note in game.notes)
    with pytest.raises(RecordError, match="occupied"):
        Game.from_sgf("(;SZ[9];B[ee];W[ee];B[dd])", strict=True)


def test_setup_after_the_root_is_accepted():
    game = Game.from_sgf("(;SZ[9];B[ee];AW[aa][bb]AB[cc];W[dd])", strict=True)
    assert game.color_at("A9") == "white" and game.color_at("B8") == "white" and game.color_at("C7") == "black"
    assert game.color_at("D6") == "white"


def test_move_number_stops_before_that_move_like_gnugo_loadsgf():
    record = "(;SZ[9];B[ee];W[dd];B[cc];W[ff])"
    assert len(Game.from_sgf(record, move_number=1).moves) == 0
    game = Game.from_sgf(record, move_number=3)
    assert len(game.moves) == 2 and game.to_play == "black"
    assert len(Game.from_sgf(record, until_point="F4").moves) == 3


def test_passes_after_the_end_are_accepted_but_stones_are_not_in_strict_mode():
    assert Game.from_sgf("(;SZ[9];B[ee];W[];B[];W[])", strict=True).over
    with pytest.raises(RecordError, match="game-over"):
        Game.from_sgf("(;SZ[9];B[ee];W[];B[];W[dd])", strict=True)
    game = Game.from_sgf("(;SZ[9];B[ee];W[];B[];W[dd])")
    assert game.color_at("D6") == "white" and game.notes


def test_handicap_and_info_properties():
    game = Game.from_sgf("(;SZ[19]HA[2]KM[0.5]PB[小明]PW[Cat]RE[W+R]AB[dp][pd];W[dd])")
    assert game.handicap == 2 and game.komi == 0.5
    assert game.info["PB"] == "小明" and game.info["RE"] == "W+R"


def test_bad_property_values_name_the_property():
    for record, prop in (("(;SZ[abc])", "SZ"), ("(;SZ[30])", "SZ"), ("(;SZ[9]KM[lots])", "KM"),
                         ("(;SZ[9];B[zz])", "B")):
        with pytest.raises(SGFError) as err:
            Game.from_sgf(record)
        assert prop in str(err.value)


def test_round_trip_through_sgf():
    game = Game(9, komi=5.5)
    for move in ("E5", "D5", "pass", "C5", "E4", "D4"):
        game.play(move)
    game.setup(white=["A1"])
    game.play("J9")
    again = Game.from_sgf(game.to_sgf(), strict=True)
    assert again.board_rows() == game.board_rows()
    assert again.moves == game.moves
    assert again.komi == 5.5 and again.to_play == game.to_play and again.captures == game.captures


def test_round_trip_keeps_handicap():
    game = Game(13, komi=0, handicap=4)
    game.play("G7")
    again = Game.from_sgf(game.to_sgf(), strict=True)
    assert again.board_rows() == game.board_rows() and again.handicap == 4 and again.to_play == "black"


# ------------------------------------------------------------------ the peer corpus
def peer_records() -> list[Path]:
    return sorted(PEER.glob("**/*.sgf"))


needs_peer = pytest.mark.skipif(not PEER.is_dir(), reason=f"peer corpus not found at {PEER}")


@needs_peer
@pytest.mark.slow
def test_every_peer_record_replays_in_tolerant_mode():
    records = peer_records()
    assert len(records) == 1761
    sizes = {}
    for path in records:
        game = Game.from_sgf(path.read_bytes())
        sizes[game.size] = sizes.get(game.size, 0) + 1
    assert sizes[19] >= 897 and sizes[9] >= 312 and sizes[13] >= 219


def _strict_failures() -> tuple[dict[Path, RecordError], dict[Path, SGFError]]:
    failures, malformed = {}, {}
    for path in peer_records():
        try:
            Game.from_sgf(path.read_bytes(), strict=True)
        except RecordError as e:
            failures[path] = e
        except SGFError as e:
            malformed[path] = e
    return failures, malformed


@needs_peer
@pytest.mark.slow
def test_strict_mode_rejects_exactly_the_records_that_break_the_rules():
    """A record fails strict replay exactly when tolerant replay had to forgive a move, and GNU Go (Chinese
    rules, situational superko) agrees that the rejected move is illegal in that position."""
    failures, malformed = _strict_failures()
    # a truncated or empty file is malformed, not a rule breach: strict refuses it, tolerant reads what is there
    assert len(malformed) <= 2 and all("never closed" in str(e) or "no game tree" in str(e)
                                       for e in malformed.values())
    forgiven = set()
    for path in peer_records():
        if any("skipped" in n or "violation" in n or "suicide" in n or "goes on" in n
               for n in Game.from_sgf(path.read_bytes()).notes):
            forgiven.add(path)
    assert set(failures) == forgiven
    assert failures, "the corpus contains records made under other rules"
    if GNUGO is None:
        pytest.skip("gnugo not installed: rule violations not confirmed by GNU Go")
    for path, err in failures.items():
        if err.reason == "game-over":
            continue  # GNU Go has no notion of a game ended by two passes
        script = (f"loadsgf {path} {err.move_number}\n"
                  f"is_legal {err.color} {err.point}\nquit\n")
        out = subprocess.run([GNUGO, "--mode", "gtp", "--chinese-rules", "--situational-superko"],
                             input=script, capture_output=True, text=True, timeout=60).stdout
        answers = [line for line in out.splitlines() if line.startswith("=")]
        assert answers[1] == "= 0", f"{path.name}: GNU Go thinks move {err.move_number} is legal"
