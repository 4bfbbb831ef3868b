"""A stored game (``PlayedGame``) as the engine's ``Game``: the one way the play pages, the records and the review
rebuild a position from the record, so they all apply the same rules to it."""

from __future__ import annotations

from teach.go import Game, IllegalMove
from teach.go.game import Rules
from teach.models import PlayedGame


class BrokenRecord(ValueError):
    """A stored record that no longer replays (it was changed outside the app): shown as an error, never played on."""


def rules_of(row: PlayedGame) -> Rules:
    """Chinese rules; the capture game adds its goal."""
    return Rules(capture_goal=row.capture_goal) if row.kind == "capture" else Rules()


def new_game(size: int, komi: float, handicap: int, rules: Rules) -> Game:
    """The start of a game: an empty board, or the handicap stones on their star points (White moves first)."""
    game = Game(size, komi=komi, rules=rules)
    if handicap >= 2:
        from teach.go.handicap import place_fixed_handicap

        place_fixed_handicap(game, handicap)
    return game


def game_of(row: PlayedGame, moves: list[str] | None = None) -> Game:
    """The game after its recorded moves (or the first ``moves``). Raises BrokenRecord if one cannot be played.

    A full game's moves after two passes are play that went on because the players did not agree on the count:
    the game is resumed (``Game.resume``) before them, as it was when they were played."""
    game = new_game(row.size, row.komi, row.handicap, rules_of(row))
    for number, move in enumerate(row.moves if moves is None else moves, 1):
        if row.kind == "full" and game.end_reason == "passes":
            game.resume()
        try:
            game.play(move)
        except (IllegalMove, ValueError) as e:
            raise BrokenRecord(f"game {row.id}: move {number} ({move}) cannot be played: {e}") from None
    return game
