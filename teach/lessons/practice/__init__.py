"""Endless practice: fresh puzzles made by the computer, in the lesson-file step format.

``generate(drill, level, seed, count, size)`` returns ``count`` steps (``{"puzzle": {...}}`` or
``{"quiz": {...}}`` mappings, exactly as a lesson file's YAML loads; ``drawn`` gives them one at a time) of one drill (``DRILLS``: liberties, atari,
capture, escape, ladder, net) and level. Every puzzle is proven by the judge before it is handed out: its
``answers`` are the complete set of winning first moves, and candidates that are trivial (the stones are lost
whatever Black does), unsolvable, ambiguous (too many winning moves), won only through a ko or over the reading
budget are thrown away and drawn again.

The same call gives the same puzzles everywhere (``sets``). Level 1 keeps the fight in the open, level 2 moves it
to the edges, level 3 uses corners, bigger chains and distractors (``positions``). The words a kid reads are data
(``texts.yaml``).

Modules: ``texts`` (kid texts), ``positions``, ``proofs``, ``drills`` and ``ladders`` (the drills), ``sets`` (the
set and its ``PracticeKey``), ``output``.
"""

from .output import to_yaml
from .proofs import capture_answers, save_answers, winning_moves
from .sets import DRILLS, LEVELS, MAX_SEED, SET_SIZE, SIZES, PracticeError, PracticeKey, drawn, generate
from .texts import drill_names, drill_pictures

__all__ = ["DRILLS", "LEVELS", "MAX_SEED", "SET_SIZE", "SIZES", "PracticeError", "PracticeKey",
           "capture_answers", "drawn", "drill_names", "drill_pictures",
           "generate", "save_answers", "to_yaml", "winning_moves"]
