"""Ladders (征子) and nets (枷): the textbook ladder shape, sometimes with a stone on its road that breaks or helps
it, turned to any corner of the board."""

from __future__ import annotations

import random

from teach.go.coords import col_row, turned
from teach.go.game import BLACK, EMPTY, WHITE, Game, IllegalMove
from teach.go.judge import Goal, Judge
from teach.go.reading import WIN, BudgetExceeded, ladder_attack

from .drills import capture_puzzle
from .positions import SPECS, Sketch, distractors, grow, natural_game
from .proofs import CHASE, LIMITS, capture_answers, libs_after, read, tenuki_saves
from .texts import say

def ladder_start(rng: random.Random, level: int, size: int, net: bool = False
                  ) -> tuple[Sketch, int, list[int]] | None:
    """The textbook ladder shape, drawn running to the upper right (it is turned later): a white stone with two
    liberties and three black stones that make every atari drive it diagonally. With ``net`` a fourth black
    stone closes the other side, so a loose move (枷) captures too. Returns the sketch, the target and the
    diagonal road the chase runs along."""
    sk = Sketch(size)
    lo, hi = {1: (2, 4), 2: (3, 6), 3: (4, 9)}[level]
    room = rng.randint(lo, min(hi, size - 3))
    col = max(1, size - 1 - room - rng.randint(0, 1))
    row = max(1, size - 1 - room - rng.randint(0, 1))
    if rng.random() < 0.5:
        col, row = row, col
    t = sk.at(col, row)
    sk.put(t, WHITE)
    for dc, dr in ((-1, 0), (0, -1), (1, -1)) + (((-1, 1),) if net else ()):
        sk.put(sk.at(col + dc, row + dr), BLACK)
    path = []
    k = 0
    while True:
        k += 1
        a, b = sk.at(col + k, row + k - 1), sk.at(col + k - 1, row + k)
        if a is None and b is None:
            break
        path += [q for q in (a, b) if q is not None]
        q = sk.at(col + k, row + k)
        if q is not None:
            path.append(q)
    return sk, t, path


def behind(rng: random.Random, sk: Sketch, t: int, count: int) -> None:
    """Stones behind the ladder's start (below and left of it), where they do not touch the chase."""
    col, row = col_row(t, sk.size)
    spots = [q for q in (sk.at(col + dc, row + dr) for dc in range(-3, 2) for dr in range(-3, 2)
                         if (dc < -1 or dr < -1))
             if q is not None and sk.board[q] == EMPTY]
    for q in rng.sample(spots, min(count, len(spots))):
        sk.put(q, rng.choice((BLACK, WHITE)))


def chase_length(game: Game, target: int) -> int:
    """How many ataris the ladder takes before the stones are captured (its principal line)."""
    g = Game(game.size)
    g.setup(black=[p for p, c in enumerate(game.board) if c == BLACK],
            white=[p for p, c in enumerate(game.board) if c == WHITE])
    n = 0
    while g.chain_of[target] is not None and n < 60:
        try:
            result, move = ladder_attack(g, target, LIMITS)
        except BudgetExceeded:
            return 0
        if result != WIN or move is None:
            return 0
        g.play_point(move, BLACK)
        n += 1
        ch = g.chain_of[target]
        if ch is None:
            break
        try:
            g.play_point(next(iter(ch.libs)), WHITE)
        except IllegalMove:  # its last liberty is a suicide for it: it is caught
            break
    return n


def turn(rng: random.Random, sk: Sketch, t: int, points: list[int]) -> tuple[Sketch, int, list[int]]:
    k = rng.randrange(8)
    n = sk.size
    return sk.transformed(k), turned(t, n, k), [turned(p, n, k) for p in points]


def ladder(rng: random.Random, level: int, size: int) -> dict | None:
    made = ladder_start(rng, level, size)
    if made is None:
        return None
    sk, t, path = made
    shape = "ladder" if level == 1 else rng.choice(("ladder", "ladder", "choice", "breaker") if level == 2
                                                    else ("ladder", "choice", "choice", "breaker"))
    behind(rng, sk, t, rng.randint(0, 1) if level == 1 else rng.randint(1, 3))
    breaker = None
    if shape in ("choice", "breaker"):
        # a stone on the ladder's road: a white one breaks the ladder, a black one helps it
        far = path[3:] if len(path) > 4 else path[1:]
        if not far:
            return None
        breaker = rng.choice(far)
        if sk.board[breaker] != EMPTY:
            return None
        color = WHITE if shape == "breaker" or rng.random() < 0.6 else BLACK
        sk.put(breaker, color)
    if level == 3:
        distractors(rng, sk, rng.randint(1, 2))
    sk, t, (breaker,) = turn(rng, sk, t, [breaker if breaker is not None else t])
    game = natural_game(sk, set())
    if game is None or not tenuki_saves(game, t) or read(game, "black", "attack", t) is None:
        return None
    point = game.name(t)
    goal = Goal("capture", (point,))
    if shape == "ladder":
        answers = capture_answers(game, t, SPECS[level].most)
        if not answers:
            return None
        length = chase_length(game, t)
        if length < {1: 2, 2: 3, 3: 4}[level] or not any(libs_after(game, m, t) == 1 for m in answers):
            return None
        return capture_puzzle(sk, {t}, answers, say("ladder.text"), say("ladder.hint"))
    # where the ladder starts: the atari that works when the road is clear
    clear = Sketch(size)
    clear.board = list(sk.board)
    clear.board[breaker] = EMPTY
    clear_game = clear.game()
    try:
        works_clear, first = ladder_attack(clear_game, t, LIMITS)
        works, _ = ladder_attack(game, t, LIMITS)
    except BudgetExceeded:
        return None
    if works_clear != WIN or first is None:
        return None
    if shape == "breaker":
        if works == WIN:
            return None
        # the capture must not be one more atari: the lesson is that the ladder fails
        answers = capture_answers(game, t, SPECS[level].most, refuse=lambda m: libs_after(game, m, t) == 1)
        if not answers:
            return None
        return capture_puzzle(sk, {t}, answers, say("ladder.breaker.text"), say("ladder.breaker.hint"))
    # choice: will the ladder started at 'a' catch the stone? The judge must agree with the ladder reader.
    judge = Judge(game, goal, LIMITS)
    try:
        verdict = judge.judge([], game.name(first))
    except BudgetExceeded:
        return None
    if verdict.reason == "unknown" or verdict.ko:
        return None
    catches = verdict.result in ("correct", "continue")
    if catches != (works == WIN):
        return None
    if catches and chase_length(game, t) < 3:
        return None
    return {"quiz": {
        "ask": "choice",
        "board": sk.diagram({first: "a"}),
        "question": say("ladder.choice.question"),
        "choices": [say("ladder.choice.caught"), say("ladder.choice.escapes")],
        "answer": 0 if catches else 1,
        "marks": {"triangle": [point]},
    }}


def net(rng: random.Random, level: int, size: int) -> dict | None:
    made = ladder_start(rng, level, size, net=True)
    if made is None:
        return None
    sk, t, path = made
    # a white friend on the ladder's road, so the ladder fails and only the net works
    breaker = rng.choice(path[2:6] if len(path) > 3 else path[1:])
    if sk.board[breaker] != EMPTY:
        return None
    grow(rng, sk, breaker, WHITE, rng.randint(2, 3))
    behind(rng, sk, t, rng.randint(0, 1) if level == 1 else rng.randint(1, 3))
    if level == 3:
        distractors(rng, sk, rng.randint(1, 2))
    sk, t, _ = turn(rng, sk, t, [])
    game = natural_game(sk, set())
    if game is None:
        return None
    # a net, not one more atari
    answers = capture_answers(game, t, SPECS[level].most, CHASE, refuse=lambda m: (libs_after(game, m, t) or 0) <= 1)
    if not answers:
        return None
    return capture_puzzle(sk, {t}, answers, say("net.text"), say("net.hint"))
