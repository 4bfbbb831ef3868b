"""Proofs: a practice puzzle is handed out only when the judge proves it fair, with every winning first move
listed. Reading runs on a node budget only, so a verdict is the same on a fast and a slow machine."""

from __future__ import annotations

from collections import OrderedDict

from teach.go.coords import col_row
from teach.go.game import BLACK, WHITE, Game, IllegalMove
from teach.go.judge import Goal, GoalError, Judge
from teach.go.proof import position_key
from teach.go.reading import WIN, BudgetExceeded, Limits, Reader

# Reading runs on nodes only (no clock), so the verdict is the same on a fast and a slow machine. The linter
# reads with the default, larger budget: a search that finishes inside this one ends the same way there.
LIMITS = Limits(nodes=6_000, seconds=1e9)
# The judges of the last puzzles drawn, every first move already read: the whole proof of a puzzle handed out
# (``solved_judge``) starts from what they know instead of reading the first position again.
_SOLVED: OrderedDict[tuple, Judge] = OrderedDict()
SOLVED_KEPT = 32
# Before the whole solve (every legal first move read once), the position itself must read light.
PRECHECK = Limits(nodes=400, seconds=1e9)
CHASE = Limits(nodes=3_000, seconds=1e9)  # ladders and nets read longer lines


def read(game: Game, to_play: str, what: str, target: int, budget: Limits = None) -> int | None:
    """The reader's result for ``to_play`` moving first (attack or defend the chain on ``target``), or None when
    the reading is heavier than a practice puzzle should be: then solving every first move would be too slow."""
    g = Game(game.size)
    g.setup(black=[p for p, c in enumerate(game.board) if c == BLACK],
            white=[p for p, c in enumerate(game.board) if c == WHITE])
    g.to_play = to_play
    reader = Reader(g, budget or PRECHECK)
    try:
        result, _ = reader.attack(target) if what == "attack" else reader.defend(target)
    except BudgetExceeded:
        return None
    return result


def winning_moves(game: Game, goal: Goal, most: int, refuse=None) -> list[str] | None:
    """Every winning first move for Black, as the judge finds them, or None when the puzzle is unfit:
    not a win, won only by ko, over budget, more than ``most`` winning moves, or a winning move ``refuse`` (a
    predicate on its name) turns down — said as soon as it is found, not after every other move is read."""
    try:
        judge = Judge(game, goal, LIMITS)
        result, _ = judge.best(game)
    except (BudgetExceeded, GoalError):
        return None
    if result != WIN:
        return None
    # nearest moves first: the unfit puzzles (too many winners, a move over budget) are found out early
    size = game.size
    near = [col_row(game.require_point(t), size) for t in goal.targets]

    def distance(name: str) -> int:
        c, r = col_row(game.require_point(name), size)
        return min(max(abs(c - tc), abs(r - tr)) for tc, tr in near)

    wins = []
    for name in sorted(game.legal_moves(), key=distance):
        verdict = judge.judge([], name)
        if verdict.reason == "unknown":
            return None  # a move the reader could not settle inside the budget
        if verdict.result in ("correct", "continue"):
            if verdict.ko or (refuse is not None and refuse(name)):
                return None
            wins.append(name)
            if len(wins) > most:
                return None
    order = {name: i for i, name in enumerate(game.legal_moves())}
    _SOLVED[_solved_key(game, goal)] = judge
    while len(_SOLVED) > SOLVED_KEPT:
        _SOLVED.popitem(last=False)
    return sorted(wins, key=order.__getitem__)


def _solved_key(game: Game, goal: Goal) -> tuple:
    return position_key(game), goal.kind, tuple(goal.targets)


def solved_judge(game: Game, goal: Goal) -> Judge | None:
    """The judge that drew the puzzle at ``game`` with ``goal`` (its first moves read, on this module's node
    budget: a verdict it reached is the one a larger budget reaches), taken once; None when there is none."""
    return _SOLVED.pop(_solved_key(game, goal), None)


def tenuki_saves(game: Game, target: int, budget: Limits | None = None) -> bool:
    """If Black played elsewhere, could White save the target? (Otherwise any move 'wins': a trivial puzzle.)"""
    return read(game, "white", "defend", target, budget) == WIN


def tenuki_loses(game: Game, target: int) -> bool:
    """If Black played elsewhere, would White capture the target? (Otherwise nothing needs saving.)"""
    return read(game, "white", "attack", target) == WIN


def capture_answers(game: Game, target: int, most: int, budget: Limits | None = None,
                    refuse=None) -> list[str] | None:
    """The winning first moves of a capture puzzle on the chain at ``target``, when it is a fair one (and none
    of them is one ``refuse`` turns down)."""
    if not tenuki_saves(game, target, budget) or read(game, "black", "attack", target, budget) != WIN:
        return None
    return winning_moves(game, Goal("capture", (game.name(target),)), most, refuse)


def save_answers(game: Game, target: int, most: int) -> list[str] | None:
    """The winning first moves of a save puzzle for the chain at ``target``, when it is a fair one."""
    if not tenuki_loses(game, target) or read(game, "black", "defend", target) != WIN:
        return None
    return winning_moves(game, Goal("save", (game.name(target),)), most)


def libs_after(game: Game, move: str, target: int) -> int | None:
    try:
        game.play(move, "black")
    except IllegalMove:
        return None
    try:
        ch = game.chain_of[target]
        return len(ch.libs) if ch is not None else 0
    finally:
        game.undo()

