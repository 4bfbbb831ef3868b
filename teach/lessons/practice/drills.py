"""The drills a kid practises: count the liberties, atari, capture, escape (here), ladder and net (``ladders``).

Each maker draws one candidate step from ``rng`` for a level and board size, or None when the candidate is unfit
(the set draws again). Black (the Black Cat Police) always moves; White stones are the little mice."""

from __future__ import annotations

import random

from teach.go.game import BLACK, WHITE, Game

from .positions import SPECS, Sketch, distractors, fight, grow, natural, natural_game, pick_spot, support
from .proofs import capture_answers, libs_after, save_answers
from .texts import say

def liberties(rng: random.Random, level: int, size: int) -> dict | None:
    spec = SPECS[level]
    color = WHITE if level == 1 or rng.random() < 0.7 else BLACK
    sk = Sketch(size)
    start = pick_spot(rng, sk, rng.choice(spec.placement))
    target = grow(rng, sk, start, color, rng.randint(1, 2) if level == 1 else rng.randint(*spec.chain) + 1)
    if target is None:
        return None
    _, libs = sk.chain(start)
    libs = sorted(libs)
    rng.shuffle(libs)
    for q in libs[:rng.randint(0, 1) if level == 1 else rng.randint(1, min(3, len(libs) - 1))]:
        sk.put(q, 3 - color)
    # diagonal neighbours of the same colour look connected but are not: the classic mistake at level 3
    if level >= 2:
        support(rng, sk, target, set(), rng.randint(*spec.support) - 1)
    distractors(rng, sk, rng.randint(*spec.distractors))
    stones, now = sk.chain(start)
    if stones != target or not now or not natural(sk, set()):
        return None
    game = sk.game()
    if game is None:
        return None
    point = game.name(start)
    return {"quiz": {
        "ask": "liberties",
        "board": sk.diagram(),
        "target": point,
        "answers": game.liberties(point),
        "question": say("liberties.question", color, len(stones)),
        "marks": {"triangle": [point]},
    }}


def _fight_game(rng: random.Random, size: int, level: int, color: int, libs_left: int, max_atari: int,
                target_in_atari_ok: bool = True, friends: bool = False) -> tuple[Sketch, set[int], Game] | None:
    """A ``fight`` around a chain of ``color`` and its position as a game, or None when the candidate is unfit:
    at most ``max_atari`` other chains in atari (besides the target, when it may be), a legal position."""
    made = fight(rng, size, level, color, libs_left, friends=friends)
    if made is None:
        return None
    sk, target = made
    game = natural_game(sk, target if target_in_atari_ok else set(), max_atari)
    return None if game is None else (sk, target, game)


def atari(rng: random.Random, level: int, size: int) -> dict | None:
    made = _fight_game(rng, size, level, WHITE, 2, 0 if level == 1 else 1, target_in_atari_ok=False)
    if made is None:
        return None
    sk, target, game = made
    start = min(target)
    answers = [m for m in game.legal_moves() if libs_after(game, m, start) == 1]
    if not 1 <= len(answers) <= 3:
        return None
    point = game.name(start)
    return {"quiz": {
        "ask": "atari",
        "board": sk.diagram(),
        "to_play": "black",
        "target": point,
        "answers": answers,
        "question": say("atari.question", WHITE, len(target)),
        "marks": {"triangle": [point]},
    }}


def capture_puzzle(sk: Sketch, target: set[int], answers: list[str], text, hint) -> dict:
    game = Game(sk.size)
    point = game.name(min(target))
    step = {
        "board": sk.diagram(),
        "to_play": "black",
        "goal": "capture",
        "target": [point],
        "answers": answers,
        "text": text,
        "hint": hint,
        "marks": {"triangle": [point]},
    }
    return {"puzzle": step}


def capture(rng: random.Random, level: int, size: int) -> dict | None:
    libs_left = 1 if level == 1 else 2 if level == 2 else rng.choice((2, 2, 3))
    made = _fight_game(rng, size, level, WHITE, libs_left, 0 if level == 1 else 1,
                       friends=level == 1 or rng.random() < 0.3)
    if made is None:
        return None
    sk, target, game = made
    answers = capture_answers(game, min(target), SPECS[level].most)
    if not answers:
        return None
    hint = say("capture.hint.last-liberty" if libs_left == 1 else "capture.hint.count-first")
    return capture_puzzle(sk, target, answers, say("capture.text", WHITE, len(target)), hint)


def escape(rng: random.Random, level: int, size: int) -> dict | None:
    made = _fight_game(rng, size, level, BLACK, 1, 0 if level == 1 else 2)
    if made is None:
        return None
    sk, target, game = made
    start = min(target)
    point = game.name(start)
    tempting: set[str] = set()
    if level >= 2:
        # a real choice: the extension and the captures of the attackers in atari are all tempting. Seen on the
        # board before anything is read: most candidates offer one move only, and reading them first cost a set
        # of ten several seconds (the candidates drawn, and so the set, are the same either way)
        ch = game.chain_of[start]
        tempting = {game.name(q) for q in ch.libs}
        for p in ch.stones:
            for q in game.adjacent[p]:
                a = game.chain_of[q]
                if a is not None and a.color == WHITE and len(a.libs) == 1:
                    tempting |= {game.name(lib) for lib in a.libs}
        if len(tempting) < 2:
            return None
    answers = save_answers(game, start, SPECS[level].most)
    if not answers:
        return None
    if level >= 2 and tempting <= set(answers):
        return None
    return {"puzzle": {
        "board": sk.diagram(),
        "to_play": "black",
        "goal": "save",
        "target": [point],
        "answers": answers,
        "text": say("escape.text", BLACK, len(target)),
        "hint": say("escape.hint"),
        "marks": {"triangle": [point]},
    }}
