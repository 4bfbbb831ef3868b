"""Invariants of the incremental engine on random games (hypothesis, derandomized so every run is the same).

After every move: no chain without liberties; chains and liberties equal a flood fill from scratch; stones on the
board plus stones captured equal stones played, per colour; the incremental hash equals the one recomputed; undo
restores the full state and replaying the move gives the same state again; legal_moves() equals trying every
empty point with play/undo. At the end, undoing the whole game walks back through every state.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teach.go import Game, IllegalMove, Rules
from teach.go.coords import COLUMNS
from undo_checks import play_undo_replay

SIZES = [5, 7, 9, 13, 19]
MAX_MOVES = {5: 120, 7: 150, 9: 150, 13: 70, 19: 40}  # small boards run long enough for captures and kos
COLOR = {"X": 1, "O": 2}


def flood_fill_chains(game: Game) -> frozenset:
    """Chains and their liberties computed from the text board alone, as (colour, stones, liberties)."""
    rows = game.board_rows()
    n = len(rows)
    at = {f"{COLUMNS[c]}{n - r}": ch for r, row in enumerate(rows) for c, ch in enumerate(row)}

    def neighbours(name: str) -> list[str]:
        c, r = COLUMNS.index(name[0]), int(name[1:])
        out = []
        for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            if 0 <= c + dc < n and 1 <= r + dr <= n:
                out.append(f"{COLUMNS[c + dc]}{r + dr}")
        return out

    seen: set[str] = set()
    chains = set()
    for name, ch in at.items():
        if ch == "." or name in seen:
            continue
        stones, libs, stack = {name}, set(), [name]
        while stack:
            for q in neighbours(stack.pop()):
                if at[q] == ".":
                    libs.add(q)
                elif at[q] == ch and q not in stones:
                    stones.add(q)
                    stack.append(q)
        seen |= stones
        chains.add((COLOR[ch], frozenset(stones), frozenset(libs)))
    return frozenset(chains)


def brute_force_legal(game: Game, color: str) -> set[str]:
    """Every empty point where play() succeeds for ``color`` (taken back at once)."""
    legal = set()
    rows = game.board_rows()
    n = len(rows)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                continue
            name = f"{COLUMNS[c]}{n - r}"
            try:
                game.play(name, color)
            except IllegalMove:
                continue
            game.undo()
            legal.add(name)
    return legal


def check_invariants(game: Game, state, thorough: bool) -> None:
    reference = flood_fill_chains(game)
    assert all(libs for _, _, libs in reference), "a chain without liberties is on the board"
    assert all(c.libs for c in game.chains()), "the engine keeps a chain without liberties"
    assert state(game)["chains"] == reference
    assert game.hash == game.recompute_hash()
    rows = game.board_rows()
    for letter, color, opponent in (("X", 1, "white"), ("O", 2, "black")):
        played = sum(1 for c, p in game.moves if c == color and p is not None)
        on_board = sum(row.count(letter) for row in rows)
        assert on_board + game.captures[opponent] == played, f"{letter} stones do not add up"
    if not game.over:
        before = state(game)
        assert set(game.legal_moves()) == brute_force_legal(game, game.to_play)
        if thorough:
            other = "white" if game.to_play == "black" else "black"
            assert set(game.legal_moves(other)) == brute_force_legal(game, other)
        assert state(game) == before, "trying moves and taking them back changed the game"


def play_random_game(size: int, rules: Rules, choices: list[int], state) -> None:
    """Play the chosen moves (each choice indexes legal_moves() + pass), checking everything after each one."""
    game = Game(size=size, rules=rules)
    history = [state(game)]
    thorough = size <= 9
    for choice in choices[: MAX_MOVES[size]]:
        if game.over:
            break
        options = game.legal_moves() + ["pass"]
        move = options[choice % len(options)]
        history.append(play_undo_replay(game, move, state, history[-1]))
        check_invariants(game, state, thorough)
    while len(history) > 1:
        history.pop()
        game.undo()
        assert state(game) == history[-1], f"undo back to move {len(history) - 1}"


MOVES = st.lists(st.integers(min_value=0, max_value=10**6), min_size=40, max_size=max(MAX_MOVES.values()))


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from(SIZES), superko=st.sampled_from(["situational", "positional", "none"]), choices=MOVES)
def test_random_games_keep_every_invariant(snapshot, size, superko, choices):
    play_random_game(size, Rules(superko=superko), choices, snapshot)


@settings(max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from([5, 7]), superko=st.sampled_from(["situational", "positional", "none"]), choices=MOVES)
def test_random_games_with_suicide_allowed_keep_every_invariant(snapshot, size, superko, choices):
    """The same invariants with Rules(suicide=True): multi-stone suicides happen on small crowded boards."""
    play_random_game(size, Rules(superko=superko, suicide=True), choices, snapshot)


@pytest.mark.parametrize("seed", range(40))
def test_setup_placed_stone_by_stone_equals_a_rebuilt_board(seed):
    """Setup adds stones incrementally when it only fills empty points; the result must be exactly the position a
    full rebuild gives (the rebuild path is taken when the setup also clears a point)."""
    import random

    rng = random.Random(seed)
    size = rng.choice([5, 9, 13, 19])
    quick, rebuilt = Game(size), Game(size)
    for _ in range(3):
        free = [p for p in range(size * size) if quick.board[p] == 0]
        stones = rng.sample(free, min(len(free) - 1, rng.randint(1, size * 2)))
        half = len(stones) // 2
        black, white = stones[:half], stones[half:]
        clear = [p for p in free if p not in stones][:1]
        outcomes = []
        for game, empty in ((quick, []), (rebuilt, clear)):
            try:
                game.setup(black=black, white=white, empty=empty)
                outcomes.append("ok")
            except ValueError as e:
                outcomes.append(str(e))
        assert outcomes[0] == outcomes[1]
        assert quick.board_rows() == rebuilt.board_rows() and quick.hash == rebuilt.hash == quick.recompute_hash()
        chains = lambda g: sorted((c.color, sorted(c.stones), sorted(c.libs)) for c in g.chains())
        assert chains(quick) == chains(rebuilt)
        assert quick.legal_moves() == rebuilt.legal_moves()
    while quick.can_undo():
        quick.undo()
    assert not any(quick.board) and quick.hash == 0 and quick.legal_moves() == Game(size).legal_moves()
