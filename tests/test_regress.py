"""The GNU Go regression runner: parsing .tst files, counting, timeouts, the report."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from teach.go import regress
from teach.go.regress import answer_text, main, matches, parse_tst, run_file
from conftest import PEER


# The real engine plus one command that never answers in time, to exercise the timeout and the restart.
SLOW_ENGINE = [
    sys.executable, "-c",
    "import sys, time\n"
    "from teach.go.gtp import GtpEngine\n"
    "e = GtpEngine()\n"
    "e.commands['sleep'] = lambda args: time.sleep(float(args[0])) or ''\n"
    "e.serve(sys.stdin, sys.stdout)\n",
]

TST = """\
# a comment
boardsize 9
komi 5.5
play b e5   # a comment after a command

1 countlib e5
#? [4]

2 countlib E5
#? [3]

# GNU Go fails this one too
3 countlib e5
#? [3]*

4 color e5
#? [!white]

5 findlib e5
#? [E6 D5 F5 E4]

6 sleep 60
#? [.*]

7 countlib e5
#? [4]

8 no_such_command e5
#? [!1 .*]

9 get_komi
#? [5\\.5]

10 findlib e5
#? [(E4|D4) .*]*

11 list_stones black
"""


def test_parse_tst():
    steps = parse_tst(TST)
    assert [s.name for s in steps][:4] == ["boardsize", "komi", "play", "countlib"]
    assert steps[2].command == "play b e5"
    tests = [s for s in steps if s.is_test]
    assert [s.number for s in tests] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert tests[2].gnugo_fails and not tests[1].gnugo_fails
    assert tests[3].negate and tests[3].pattern == "white"
    assert tests[3].expected == "[!white]" and tests[2].expected == "[3]*"
    assert not steps[-1].is_test  # a numbered command without '#?' is no test
    # unconditional.tst has '#? [undecided' without the bracket: GNU Go's scripts count no test there
    broken = parse_tst("1 unconditional_status D19\n#? [undecided\n2 name\n#? [teach]\n")
    assert [s.is_test for s in broken] == [False, True]


def test_matching_rules():
    step = parse_tst("1 countlib a1\n#? [1 (G1|H2)]\n")[0]
    assert matches(step, "=1 1 G1") and matches(step, "= 1 H2")
    assert not matches(step, "=1 1 G12")  # the whole answer must match
    assert not matches(step, "=1 11 G1")
    negated = parse_tst("1 reg_genmove b\n#? [!PASS]\n")[0]
    assert matches(negated, "=1 D4") and not matches(negated, "=1 PASS")
    assert not matches(negated, "?1 unknown command")  # an error never passes, negated or not
    broken = parse_tst("1 name\n#? [(]\n")[0]
    assert not matches(broken, "= (")
    assert answer_text("=3 B2 C2\nA1") == "B2 C2 A1"
    assert answer_text("= ") == ""


def test_run_file_counts_failures_and_timeouts(tmp_path):
    tst = tmp_path / "mini.tst"
    tst.write_text(TST, encoding="utf-8")
    result = run_file(tst, timeout=1.0, engine=SLOW_ENGINE)
    assert result.total == 10
    failed = {f.test: f for f in result.failures}
    assert sorted(failed, key=int) == ["2", "3", "6", "8", "10"]
    assert result.passed == 5 and result.failed == 5
    assert result.expected_failures == 2  # tests 3 and 10 are marked '*'
    assert failed["2"].got == "4" and failed["2"].expected == "[3]"
    assert failed["6"].got.startswith("?timeout after 1 s")
    assert failed["8"].got == "?8 unknown command"
    assert result.restarts == 1
    # after the restart the position (and komi) were rebuilt, so tests 7 and 9 pass
    assert "7" not in failed and "9" not in failed
    assert result.seconds >= 1.0


def test_main_prints_a_line_per_file_and_a_total(tmp_path, capsys):
    tst = tmp_path / "mini.tst"
    tst.write_text(TST, encoding="utf-8")
    easy = tmp_path / "easy.tst"
    easy.write_text("boardsize 5\nplay w c3\n1 countlib c3\n#? [4]\n2 color c3\n#? [white]\n", encoding="utf-8")
    code = main([str(tst), str(easy)], verbose=True, timeout=1.0, engine=SLOW_ENGINE)
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{tst}  5/10  (failed 5, of which expected by GNU Go 2)  ")
    assert out[0].endswith(" s")
    assert out[1] == f"{tst}:2  got '4'  expected [3]"
    assert out[2] == f"{tst}:3  got '4'  expected [3]*  (GNU Go fails it too)"
    assert out[3].startswith(f"{tst}:6  got '?timeout after 1 s'")
    assert out[-2].startswith(f"{easy}  2/2  (failed 0, of which expected by GNU Go 0)  ")
    assert out[-1].startswith("total  7/12  (failed 5, of which expected by GNU Go 2)  ")


def test_main_returns_2_when_a_file_cannot_be_read(tmp_path, capsys):
    easy = tmp_path / "easy.tst"
    easy.write_text("boardsize 5\n1 query_boardsize\n#? [5]\n", encoding="utf-8")
    code = main([str(tmp_path / "missing.tst"), str(easy)], engine=SLOW_ENGINE)
    captured = capsys.readouterr()
    assert code == 2
    assert "missing.tst: cannot read" in captured.err
    assert captured.out.splitlines()[-1].startswith("total  1/1  (failed 0")


def test_default_engine_is_teach_gtp(tmp_path):
    assert regress.ENGINE[-1] == "from teach.cli import cli; cli(['gtp'])"
    tst = tmp_path / "t.tst"
    tst.write_text("1 name\n#? [teach]\n2 protocol_version\n#? [2]\n", encoding="utf-8")
    result = run_file(tst, timeout=30)
    assert (result.passed, result.total) == (2, 2)


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_peer_records_through_the_runner(tmp_path):
    """Positions GNU Go's regression files load (move numbers, a vertex); answers checked with GNU Go 3.8."""
    pytest.importorskip("teach.go.record")
    tst = tmp_path / "peer.tst"
    tst.write_text(
        f"loadsgf {PEER / 'games' / 'incident2.sgf'} 212\n"
        "1 countlib E3\n#? [3]\n"
        "2 findlib E3\n#? [D3 D2 D1]\n"
        "3 color E3\n#? [black]\n"
        "4 countlib S5\n#? [2]\n"
        "5 captures white\n#? [9]\n"
        f"loadsgf {PEER / 'golois' / 'test.sgf'}\n"
        "6 findlib G7\n#? [G6]\n"
        "7 query_boardsize\n#? [13]\n"
        f"loadsgf {PEER / 'games' / 'incident2.sgf'} D16\n"
        "8 list_stones black\n#? [C4]\n",
        encoding="utf-8",
    )
    result = run_file(tst, timeout=30)
    assert result.failures == [] and result.total == 8


@pytest.mark.skipif(not PEER.is_dir(), reason="no peer regression data (../shared/peer/gnugo-regression)")
def test_runner_reproduces_gnugo_own_counts():
    """With GNU Go itself as the engine the runner must give the counts the peer README lists for GNU Go 3.8."""
    gnugo = "/usr/games/gnugo"
    if not Path(gnugo).exists():
        pytest.skip("GNU Go is not installed (/usr/games/gnugo)")
    result = run_file(PEER / "capture.tst", timeout=30, engine=[gnugo, "--mode", "gtp"])
    assert (result.passed, result.total) == (13, 18)
    assert result.expected_failures == 5  # every failure is one the file marks '*'
