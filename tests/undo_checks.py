"""The undo check the engine's tests share: a move taken back and played again leaves no trace."""

from __future__ import annotations


def play_undo_replay(game, move: str, state, before):
    """Play ``move``, undo it and play it again: undo must restore ``before`` exactly and the replay must reach
    the same state as the first play. Returns that state (``state`` is the test's snapshot of a game)."""
    game.play(move)
    after = state(game)
    game.undo()
    assert state(game) == before, f"undo of {move}"
    game.play(move)
    assert state(game) == after, f"replay of {move}"
    return after
