"""One step checked on its own: for generators (practice puzzles) that build steps in code."""

from __future__ import annotations

from . import schema
from .check import Checker
from .errors import LessonError, Source
from .model import Step


def check_step(step: dict, size: int, prove: bool = True) -> list[LessonError]:
    """Every error of one step such as ``{"puzzle": {...}}`` on a ``size`` board, as in a lesson file
    (positions are data paths like ``puzzle.answers[0]`` instead of lines). Empty when the step is good."""
    return build_step(step, size, prove)[1]


def build_step(step: dict, size: int, prove: bool = True) -> tuple[Step | None, list[LessonError]]:
    """The typed step (a ``Puzzle`` proven, with its ``winning`` moves) and its errors."""
    source = Source()
    errors = schema.validate(step, source, schema.STEP)
    if errors:
        return None, errors
    checker = Checker(source, prove=prove)
    built = checker.step(step, (), size)
    return (built if not checker.errors else None), checker.errors
