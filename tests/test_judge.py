"""The move judge's shortcuts and budgets: a move elsewhere is judged like a pass only where the reader never
looked (a ladder breaker is read, not skipped), every verdict matches a judge that reads every move, and the
answer does not depend on how fast the machine is."""

from __future__ import annotations

import itertools

import pytest

from teach.go import Game, judge as judge_module
from teach.go import search
from teach.go.judge import Goal, Judge, _Watch
from teach.go.reading import Limits


def position(size: int, black: list[str], white: list[str], to_play: str) -> Game:
    game = Game(size)
    game.setup(black=black, white=white)
    game.to_play = to_play
    return game


def swapped(size: int, black: list[str], white: list[str], to_play: str) -> Game:
    return position(size, white, black, "black" if to_play == "white" else "white")


def reading_every_move(game: Game, goal: Goal, limits: Limits = Limits()) -> Judge:
    """A judge that reads the position after every move (no move is taken for a pass)."""
    judge = Judge(game, goal, limits)
    judge._elsewhere = lambda before, p: None
    return judge


def verdicts(judge: Judge, game: Game, line: list[str] = (), moves: list[str] | None = None) -> dict:
    after = judge._replay(list(line))
    return {m: judge.judge(list(line), m) for m in (moves if moves is not None else after.legal_moves())}


def corner(game: Game, rows: int = 6) -> list[str]:
    """The empty points of the lower left ``rows`` x ``rows`` corner (where the fights are), and a few far ones
    (a full reading of every move of the board is too slow for a test; the shortcut's own test is the board)."""
    near = [game.name(r * game.size + c) for r in range(rows) for c in range(rows)]
    n = game.size
    far = [game.name(p) for p in (n * n - 1, n * n - n, n - 1, (n // 2) * n + n - 2)]
    return [m for m in near + far if game.board[game.point(m)] == 0]


# White D4-E4 with two liberties (E3, F4): Black ladders it down to the first line unless a white stone on the
# ladder's path (E1, F1, G2, ...: not touching the chain) breaks the ladder first.
LADDER = (["C4", "D3", "D5", "E5"], ["D4", "E4"])
# Black's corner group with a straight three eye space (A1-C1): the vital point B1 kills or lives.
STRAIGHT_THREE = (["A2", "B2", "C2", "D2", "D1"], ["A3", "B3", "C3", "D3", "E3", "E2", "E1"])


@pytest.mark.parametrize("colours", ["white", "black"])
def test_a_ladder_breaker_away_from_the_chain_is_read_not_taken_for_a_pass(colours):
    black, white = LADDER
    game = position(9, black, white, "white") if colours == "white" else swapped(9, black, white, "white")
    goal = Goal("save", ("D4",))
    judge = Judge(game, goal)
    breakers = ["E1", "G2"]  # on the ladder's path, not next to the chain
    far = game.name(game.size * game.size - 1)  # the far corner: the ladder never goes there
    moves = breakers + ["B2", "H4", far]
    got = verdicts(judge, game, moves=moves)
    assert all(got[m].result == "correct" for m in breakers)
    assert got[far].result == "wrong" and got[far].reason == "dies" and got[far].reply is not None
    assert got == verdicts(reading_every_move(game, goal), game, moves=moves)


CASES = {
    "save in a ladder": (9, *LADDER, "white", Goal("save", ("D4",))),
    "capture in a ladder": (9, *LADDER, "black", Goal("capture", ("D4",))),
    "kill straight three": (9, *STRAIGHT_THREE, "white", Goal("kill", ("A2",))),
    "live straight three": (13, *STRAIGHT_THREE, "black", Goal("live", ("A2",))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_first_move_gets_the_verdict_of_a_judge_that_reads_it(name):
    size, black, white, to_play, goal = CASES[name]
    for game in (position(size, black, white, to_play), swapped(size, black, white, to_play)):
        fast, slow = Judge(game, goal), reading_every_move(game, goal)
        moves = corner(game, 5) if "ladder" not in name else corner(game, 3) + ["B4", "H4", "E1"]
        assert verdicts(fast, game, moves=moves) == verdicts(slow, game, moves=moves)


def test_moves_elsewhere_later_in_a_line_match_a_full_reading_too():
    size, black, white, to_play, goal = CASES["capture in a ladder"]
    game = position(size, black, white, to_play)
    fast, slow = Judge(game, goal), reading_every_move(game, goal)
    first = fast.judge([], "F4")
    assert first.result == "continue" and first.reply == "E3"
    line = ["F4", "E3"]
    moves = ["E2", "D2", "J9"]  # the ladder goes on, a move beside it, a move elsewhere
    got = verdicts(fast, game, line, moves)
    assert got == verdicts(slow, game, line, moves)
    assert got["E2"].result == "continue" and got["J9"].reason == "escapes"


def count_readings(monkeypatch) -> itertools.count:
    """A counter that goes up by one each time a judge reads a position (``next`` of it tells how many so far)."""
    reads = itertools.count()
    original = Judge._read

    def counting(self, *args):
        next(reads)
        return original(self, *args)

    monkeypatch.setattr(Judge, "_read", counting)
    return reads


def test_moves_elsewhere_are_read_once(monkeypatch):
    size, black, white, to_play, goal = CASES["kill straight three"]
    game = position(13, black, white, to_play)
    reads = count_readings(monkeypatch)
    solution = Judge(game, goal).solve()
    moves = len(game.legal_moves())
    assert set(solution.winning) == {"B1"}
    if _Watch.works:
        assert next(reads) < moves // 4  # about twenty readings for 157 first moves
    else:  # the compiled readers cannot be watched (judge._Watch): each move is read, none taken for a pass
        assert next(reads) > moves


class SlowClock:
    """A busy machine: each look at the clock (every 256 nodes) finds ``step`` seconds gone."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def test_a_busy_machine_gets_the_same_answers(monkeypatch):
    size, black, white, to_play, goal = CASES["capture in a ladder"]
    game = position(size, black, white, to_play)
    moves = ["G4", "E3", "F4", "J9"]  # G4 reads some 25,000 nodes
    expected = verdicts(Judge(game, goal), game, moves=moves)
    monkeypatch.setattr(search, "clock", SlowClock(0.03).perf_counter)  # 8,500 nodes a second: ten times slower than here
    assert verdicts(Judge(game, goal), game, moves=moves) == expected
    # a two-second clock on that machine runs out: only the default's safety net keeps it out of the answer
    short = verdicts(Judge(game, goal, Limits(seconds=2.0)), game, moves=moves)
    assert short["G4"].reason == "unknown"


def test_the_server_limits_keep_the_node_budget():
    assert judge_module.SERVER_LIMITS.nodes == Limits().nodes
    assert judge_module.SERVER_LIMITS.seconds < Limits().seconds


def test_first_moves_read_out_of_budget_are_unknown_not_refuted():
    """A move whose reading ran out of budget is neither a win nor a refuted move: the checker reports it."""
    from teach.go import Game
    from teach.go.judge import Goal, Judge
    from teach.go.reading import Limits

    game = Game(9)
    game.setup(black=["C5", "E5", "D4"], white=["D5"])
    tight = Judge(game, Goal("capture", ("D5",)), Limits(nodes=3000)).solve()
    assert tight.unknown and not set(tight.unknown) & (set(tight.winning) | set(tight.refutations))
    full = Judge(game, Goal("capture", ("D5",))).solve()
    assert full.unknown == [] and sorted(full.winning) == ["C6", "D6", "D7", "E6"]
    assert set(tight.unknown) <= set(full.refutations)


def test_warming_a_judge_answers_the_whole_solution_line_without_reading(monkeypatch):
    """A server warms each puzzle's judge before kids play: every first move, then the solution's line (the
    computer's replies and the reader's own winning moves) down to "correct" is answered by a lookup."""
    size, black, white, to_play, goal = CASES["capture in a ladder"]
    game = position(size, black, white, to_play)
    judge = Judge(game, goal)
    solution = judge.warm()
    assert solution.winning == Judge(game, goal).solve().winning == {"F4": "win"}
    reads = count_readings(monkeypatch)
    line, move, verdicts_seen = [], "F4", []
    while True:
        verdict = judge.judge(line, move)
        verdicts_seen.append(verdict.result)
        if verdict.result != "continue":
            break
        line += [move, verdict.reply]
        _, own = judge.best(judge._replay(line))
        move = game.name(own)
    assert verdicts_seen[-1] == "correct" and len(verdicts_seen) >= 3  # the ladder runs a few moves
    assert next(reads) == 0
