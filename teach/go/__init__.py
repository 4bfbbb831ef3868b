"""The shared rules engine: pure Python, no web or database imports (see DESIGN.md, "Layers").

``game.Game`` is the facade: the rules, moves by GTP name, undo, setup. Its board interface (point indexes,
``chain_of``, ``adjacent``, ``ko``, ``to_move``: see the ``Game`` docstring) is what the readers build on:
``reading`` (tactics), ``lifedeath``, ``race`` and ``connection``, each a ``search.Search`` that owns its node
and time budget and answers ``unknown`` when it runs out; ``judge`` decides puzzle goals with them. Records are
``sgf`` and ``record``, counting is ``scoring``, GNU Go's protocol is ``gtp``. ``BUILD`` says whether the reading
modules run compiled by mypyc or as Python source (``_build``; the same source either way)."""

from ._build import BUILD  # first: it decides where the compiled modules load from
from .coords import BadCoordinate
from .game import BLACK, EMPTY, WHITE, CHINESE_RULES, Game, IllegalMove, Rules

__all__ = ["BUILD", "BLACK", "EMPTY", "WHITE", "CHINESE_RULES", "BadCoordinate", "Game", "IllegalMove", "Rules"]
