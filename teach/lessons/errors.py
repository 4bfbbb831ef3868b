"""Errors a lesson file can have, each pinned to a file, line and column, and where values sit in the file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Path = tuple  # a path into the loaded data: ("steps", 2, "puzzle", "answers", 0)


@dataclass(frozen=True, order=True)
class LessonError:
    file: str
    line: int  # 1-based; 0 when the data did not come from a file
    column: int  # 1-based; 0 when unknown
    message: str
    path: str = ""  # where in the data, e.g. steps[2].puzzle.answers[0]

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}: {self.message}"
        where = f" ({self.path})" if self.path else ""
        return f"{self.file}{where}: {self.message}" if self.file else f"{self.path or 'step'}: {self.message}"

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message,
                "path": self.path}


class LessonsError(Exception):
    """Raised by ``load_lessons`` when the lesson files do not check."""

    def __init__(self, errors: list[LessonError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors[:20]) + (
            f"\n... and {len(errors) - 20} more" if len(errors) > 20 else ""))


def path_text(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass
class ScalarInfo:
    style: str | None  # None plain, "|" literal, ">" folded, "'" or '"' quoted
    line: int  # 0-based line of the scalar's start (the indicator for block scalars)
    column: int  # 0-based


@dataclass
class Source:
    """Where every value and key of one loaded document sits in its file (empty for data built in code)."""

    name: str = ""
    lines: list[str] = field(default_factory=list)
    marks: dict[Path, tuple[int, int]] = field(default_factory=dict)  # value start, 0-based (line, column)
    key_marks: dict[Path, tuple[int, int]] = field(default_factory=dict)  # the key that names the value
    scalars: dict[Path, ScalarInfo] = field(default_factory=dict)

    def _find(self, table: dict, path: Path) -> tuple[int, int] | None:
        path = tuple(path)
        while True:
            if path in table:
                return table[path]
            if not path:
                return None
            path = path[:-1]

    def error(self, path: Path, message: str, key: bool = False) -> LessonError:
        """An error about the value at ``path`` (``key``: point at the key that names it instead)."""
        mark = self.key_marks.get(tuple(path)) if key else None
        mark = mark or self._find(self.marks, path)
        if mark is None:
            return LessonError(self.name, 0, 0, message, path_text(path))
        return LessonError(self.name, mark[0] + 1, mark[1] + 1, message, path_text(path))

    def error_in_text(self, path: Path, row: int, col: int, message: str) -> LessonError:
        """An error about the character at (row, col) of the text value at ``path`` (a diagram cell)."""
        info = self.scalars.get(tuple(path))
        if info is None:
            return self.error(path, message)
        if info.style in ("|", ">"):
            line = info.line + 1 + row
            if line < len(self.lines):
                return LessonError(self.name, line + 1, self._block_indent(info) + col + 1, message, path_text(path))
            return self.error(path, message)
        if row == 0 and info.style is None:
            return LessonError(self.name, info.line + 1, info.column + col + 1, message, path_text(path))
        if row == 0:
            return LessonError(self.name, info.line + 1, info.column + col + 2, message, path_text(path))
        return self.error(path, message)

    def _block_indent(self, info: ScalarInfo) -> int:
        """The indentation of a block scalar's content: that of its first non-blank line."""
        for raw in self.lines[info.line + 1:]:
            if raw.strip():
                return len(raw) - len(raw.lstrip(" "))
        return 0


# What the checker says most often, as it words it for authors of lesson files (in English, with the file's own
# words), and a code for each: a teacher's page words them again in the teacher's language, keeping the values.
_PROBLEMS = (
    ("no-winner", re.compile(r"no first move wins")),
    ("budget", re.compile(r"ran out of budget")),
    ("contradicts", re.compile(r"contradicts itself")),
    ("ko-only", re.compile(r"won only through a ko")),
    ("settled", re.compile(r"the group is (?P<state>dead|alive) already")),
    ("empty-target", re.compile(r"target (?P<point>[A-T]\d+) is an empty point")),
    ("answer-loses", re.compile(r"^answer (?P<point>[A-T]\d+) does not win")),
    ("also-win", re.compile(r"^(?P<points>.+?) also wins? but")),
    ("yaml-tab", re.compile(r"^not valid YAML: a tab character")),
    ("yaml", re.compile(r"^not valid YAML: (?P<detail>.*)")),
    ("empty-file", re.compile(r"^the file is empty")),
    ("unknown-key", re.compile(r"^unknown key `(?P<key>[^`]*)`")),
    ("missing-language", re.compile(r"^missing `(?P<key>zh|en)`: every text needs both")),
    ("missing-key", re.compile(r"^missing keys? (?P<keys>.*)")),
    ("not-a-point", re.compile(r"^(?P<value>.*) is not a point: write a column letter")),
    ("empty-text", re.compile(r"^empty text$")),
    ("one-kind", re.compile(r"^a step has exactly one kind")),
    ("expected", re.compile(r"^expected (?P<expected>.*), found (?P<found>.*)")),
    ("target-side", re.compile(r"stones of the side (not )?to move$|target must be a chain of the opponent|"
                               r"needs two chains of the (opponent|side to move)")),
)
PROOF_CODES = ("no-winner", "budget", "contradicts", "ko-only", "settled", "empty-target")


def problem_code(message: str) -> tuple[str, dict[str, str]] | None:
    """(code, values) of a checker message the pages word in the teacher's language, or None for any other."""
    for code, pattern in _PROBLEMS:
        found = pattern.search(message)
        if found:
            return code, found.groupdict()
    return None


def proof_problem(message: str) -> tuple[str, dict[str, str]] | None:
    """(code, values) of a checker message about a puzzle's proof, or None for any other message."""
    found = problem_code(message)
    return found if found and found[0] in PROOF_CODES else None
