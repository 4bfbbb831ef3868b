"""Lessons a teacher authors in a form instead of a file: a puzzle from an SGF position, a goal, its target stones
and an instruction in both languages, made into a one-puzzle lesson.

Pure (no Flask, no database): what the teacher handed in becomes lesson data, then lesson-file YAML that goes
through ``check_text`` like any uploaded file, so an authored lesson is stored and read back exactly as a written
one. What is wrong with an SGF comes back as a ``Problem`` code with its detail, for the page to word in the
teacher's language.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

import yaml

from teach.go.sgf import Node, SGFError, decode_point_list, encode_point, parse_one, serialize

from .errors import LessonError
from .loader import check_text
from .model import Lesson
from .schema import POINT_PATTERN
from .step import build_step

SGF_SIZES = (9, 13)  # the boards kids' puzzles use
LANGUAGES = ("zh", "en")
TITLE_MAX = 80
_POINT = re.compile(POINT_PATTERN)


def both_languages(texts: dict[str, str]) -> dict[str, str]:
    """A teacher's words in each language: one written is enough, and stands in for the other (a class taught in
    Chinese reads its teacher's Chinese on an English page rather than the teacher being made to write English)."""
    given = next((texts[lang] for lang in LANGUAGES if texts.get(lang)), "")
    return {lang: texts.get(lang) or given for lang in LANGUAGES}


def as_written(texts: dict[str, str] | None) -> dict[str, str]:
    """``both_languages`` undone, for a form filled in again: words that stand alike in every language were
    written in one of them, the language of their script (Chinese characters are Chinese), and only that field
    holds them; words that differ by language stay as they are. A copy changed in the one language written in
    then says the new words in both, not the old ones in the other."""
    texts = {lang: (texts or {}).get(lang) or "" for lang in LANGUAGES}
    alike = set(texts.values())
    if len(alike) != 1 or not texts[LANGUAGES[0]]:
        return texts
    words = texts[LANGUAGES[0]]
    written = "zh" if any("\u3400" <= ch <= "\u9fff" for ch in words) else "en"
    return {lang: words if lang == written else "" for lang in LANGUAGES}


@dataclass(frozen=True)
class Problem:
    """Why an SGF cannot give a puzzle position. ``code`` is one of ``not-sgf`` (binary or blank), ``unreadable``
    (``detail``: the parser's reason), ``size`` (``detail``: the SZ found), ``no-stones``, ``to-play`` (PL is
    neither B nor W)."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class Setup:
    """The position an SGF sets up: a clean record of its stones alone (nothing else of the upload is kept), the
    board size and the side to move."""

    sgf: str
    size: int
    to_play: str


def read_sgf(data: bytes) -> tuple[Node | None, Problem | None]:
    """The root node of an SGF record, or why it cannot be read."""
    if b"\x00" in data or not data.strip():
        return None, Problem("not-sgf")
    try:
        return parse_one(data), None
    except (SGFError, UnicodeDecodeError, ValueError) as e:
        return None, Problem("unreadable", str(e))


def setup_of(root: Node) -> tuple[Setup | None, list[Problem]]:
    """The puzzle position of an SGF's first node (SZ, AB, AW, PL), or every problem with it."""
    size_raw = root.get("SZ", "19")
    digits = size_raw.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 3) or int(digits) not in SGF_SIZES:
        return None, [Problem("size", size_raw)]
    size = int(size_raw)
    try:
        black = decode_point_list(root.get_all("AB"), size)
        white = decode_point_list(root.get_all("AW"), size)
    except SGFError as e:
        return None, [Problem("unreadable", str(e))]
    problems = []
    if not black and not white:
        problems.append(Problem("no-stones"))
    to_play = {"B": "black", "W": "white"}.get((root.get("PL") or "B").strip().upper())
    if to_play is None:
        problems.append(Problem("to-play"))
    if problems:
        return None, problems
    stones = {**({"AB": [encode_point(p, size) for p in black]} if black else {}),
              **({"AW": [encode_point(p, size) for p in white]} if white else {})}
    return Setup(serialize(Node({"SZ": str(size), **stones})).strip(), size, to_play), []


def parse_points(raw: str) -> list[str] | None:
    """Points written as ``E5`` or ``e5, E6`` (spaces or commas between), upper-cased; None unless every one is a
    point."""
    points = [p.upper() for p in re.split(r"[\s,]+", raw.strip()) if p]
    return points if points and all(_POINT.match(p) for p in points) else None


def not_points(raw: str) -> list[str]:
    """The words of a target field that are not points (``Z99``, ``E55``, ``5E``), as written, for the error."""
    return [w for w in re.split(r"[\s,]+", raw.strip()) if w and not _POINT.match(w.upper())]


def new_lesson_id(owner_id: int) -> str:
    """A lesson id for a teacher's SGF puzzle: never one of the catalogue's, hard to guess, the owner's own."""
    return f"sgf-{owner_id}-{secrets.token_hex(3)}"


def puzzle_step(setup: Setup, goal: str, targets: list[str], text: dict[str, str],
                hint: dict[str, str] | None = None) -> dict:
    """The ``{"puzzle": ...}`` step, as a lesson file spells it; ``hint`` (the kid's 💡, in one language or both)
    only when the teacher wrote one."""
    step = {"sgf": setup.sgf, "to_play": setup.to_play, "goal": goal,
            "target": targets if len(targets) > 1 else targets[0], "text": dict(text)}
    if hint and any(hint.values()):
        step["hint"] = both_languages(hint)
    return {"puzzle": step}


def puzzle_lesson(lesson_id: str, topic: str, size: int, step: dict, text: dict[str, str],
                  title: dict[str, str]) -> dict:
    """A one-puzzle lesson around ``step``: its instruction is the intro and the recap too. A title written in one
    language names it in both (as an instruction written in one language is said in both); with no title at all,
    the instruction stands in for it."""
    given = {lang: (title.get(lang) or "").strip()[:TITLE_MAX] for lang in LANGUAGES}
    either = next((given[lang] for lang in LANGUAGES if given[lang]), "")
    title = {lang: given[lang] or either or text[lang][:TITLE_MAX] for lang in LANGUAGES}
    return {"id": lesson_id, "topic": topic, "order": 1, "level": 1, "size": size,
            "sticker": {"id": f"{lesson_id}-star", "picture": "star", "name": dict(title)},
            "title": title, "intro": dict(text), "recap": dict(text), "steps": [step]}


def lesson_yaml(lesson: dict) -> str:
    return yaml.safe_dump(lesson, allow_unicode=True, sort_keys=False)


def sgf_puzzle(setup: Setup, lesson_id: str, topic: str, goal: str, targets: list[str], text: dict[str, str],
               title: dict[str, str], prove: bool = True,
               hint: dict[str, str] | None = None) -> tuple[Lesson | None, str, list[LessonError]]:
    """(lesson, its YAML, errors) for a puzzle made from an SGF: the reader proves the puzzle first, then the whole
    lesson is checked as a file would be. The lesson is None on any error; the errors may be empty when the
    checker has nothing to say beyond that the puzzle could not be proven. ``prove=False`` runs only the quick
    checks (the web page's answer before the proof is queued)."""
    step = puzzle_step(setup, goal, targets, text, hint)
    built, errors = build_step(step, setup.size, prove)
    if built is None or errors:
        return None, "", errors
    source = lesson_yaml(puzzle_lesson(lesson_id, topic, setup.size, step, text, title))
    lesson, errors, _count = check_text(source, f"{lesson_id}.yaml", prove=False)  # the puzzle is proven above
    if lesson is None or errors:
        return None, "", errors
    return lesson, source, []


# ---------------------------------------------------------------------- a puzzle set up on a board
BOARD_SIZES = SGF_SIZES


def board_setup(rows: list[str], to_play: str) -> tuple[Setup | None, list[Problem]]:
    """The puzzle position a teacher set up on the board editor: ``rows`` as the engine writes them (top row
    first, X black, O white, . empty), ``to_play`` black or white. The problems are those of ``setup_of`` (a
    board editor's position is checked exactly as an SGF's is) plus ``rows`` (not a square board of X, O, .)."""
    size = len(rows)
    if size not in BOARD_SIZES or any(not isinstance(r, str) or len(r) != size or r.strip("XO.") for r in rows):
        return None, [Problem("rows")]
    if to_play not in ("black", "white"):
        return None, [Problem("to-play")]
    props: dict[str, list[str] | str] = {"SZ": str(size), "PL": "B" if to_play == "black" else "W"}
    for key, ch in (("AB", "X"), ("AW", "O")):
        points = [encode_point((c, size - 1 - r), size) for r, row in enumerate(rows) for c, cell in enumerate(row)
                  if cell == ch]
        if points:
            props[key] = points
    return setup_of(Node(props))


def solution_of(lesson: Lesson) -> dict | None:
    """Every winning first move of a one-puzzle lesson and the reader's refutation of every other first move, as
    the lesson checker proved them (its cache answers; nothing is read twice)."""
    from .check import solve

    puzzle = next((s for s in lesson.steps if s.kind == "puzzle"), None)
    if puzzle is None:
        return None
    found = solve(puzzle.position, puzzle.to_play, puzzle.goal_object())
    return {"status": found.status, "winning": dict(found.winning),
            "refutations": {m: r for m, r in found.refutations.items()}}
