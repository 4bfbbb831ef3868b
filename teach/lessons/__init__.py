"""Lessons: the YAML lesson format (docs/lessons.md), its loader and linter, and the puzzle judges.

The web app calls ``load_lessons(path)``, and ``check_text`` on a teacher's own lesson (``authoring`` makes one
from an SGF position and a goal); ``teach lessons check`` calls ``check_paths``; generators of practice puzzles
run their steps through ``check_step``.
"""

from .diagram import Position, parse_diagram
from .errors import LessonError, LessonsError
from .loader import DEFAULT_DIR, Report, check_file, check_paths, check_text, load_lessons
from .model import Catalog, Demo, DemoMove, Explain, Lesson, Marks, Puzzle, Quiz, Sticker, Text, Topic
from .step import check_step

__all__ = ["Catalog", "DEFAULT_DIR", "Demo", "DemoMove", "Explain", "Lesson", "LessonError", "LessonsError", "Marks",
           "Position", "Puzzle", "Quiz", "Report", "Sticker", "Text", "Topic", "check_file", "check_paths",
           "check_step", "check_text", "load_lessons", "parse_diagram"]
