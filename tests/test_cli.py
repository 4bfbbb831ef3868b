"""The `teach` command line: solve, and clear errors for bad input."""

import json

from click.testing import CliRunner

from teach.cli import cli

DOUBLE_ATARI = "(;SZ[9]AB[ce][dd][fd][ge]AW[de][fe]PL[B])"


def test_solve_prints_every_winning_move_and_refutations(tmp_path):
    record = tmp_path / "puzzle.sgf"
    record.write_text(DOUBLE_ATARI)
    result = CliRunner().invoke(cli, ["go", "solve", str(record), "--goal", "capture",
                                      "--target", "D5", "--target", "F5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "win" and set(data["winning"]) == {"E5", "D4", "F4"}
    assert data["refutations"]["E4"] == "E5"


def test_solve_names_the_problem_with_a_bad_target_or_file(tmp_path):
    record = tmp_path / "puzzle.sgf"
    record.write_text(DOUBLE_ATARI)
    result = CliRunner().invoke(cli, ["go", "solve", str(record), "--goal", "capture", "--target", "E5"])
    assert result.exit_code != 0 and "no stone there" in result.output
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;SZ[9];B[ee")
    result = CliRunner().invoke(cli, ["go", "solve", str(broken), "--goal", "capture", "--target", "E5"])
    assert result.exit_code != 0 and "Traceback" not in result.output
