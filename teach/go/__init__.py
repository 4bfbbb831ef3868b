"""The shared rules engine: pure Python, no web or database imports (see DESIGN.md, "Layers")."""

from .coords import BadCoordinate
from .game import BLACK, EMPTY, WHITE, CHINESE_RULES, Game, IllegalMove, Rules

__all__ = ["BLACK", "EMPTY", "WHITE", "CHINESE_RULES", "BadCoordinate", "Game", "IllegalMove", "Rules"]
