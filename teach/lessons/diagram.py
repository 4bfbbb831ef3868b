"""Board positions as lessons write them: ASCII diagrams (full or partial) and SGF snippets."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from teach.go import Game
from teach.go.coords import COLUMNS

ANCHORS = ("bottom-left", "bottom-right", "top-left", "top-right")
LABELS = "abcdefghijklmnopqrstuvwxyz"
_ROW_NUMBER = re.compile(r"(\d+)(\s*)")


@dataclass(frozen=True)
class Position:
    """Stones and labels on a board of ``size``; points are GTP names."""

    size: int
    black: tuple[str, ...] = ()
    white: tuple[str, ...] = ()
    labels: tuple[tuple[str, str], ...] = ()  # (point, letter)

    def game(self, to_play: str = "black", komi: float | None = None) -> Game:
        """A fresh game in this position with ``to_play`` to move (raises ValueError for stones without
        liberties, which the checker reports first)."""
        game = Game(self.size, komi=komi)
        if self.black or self.white:
            game.setup(black=list(self.black), white=list(self.white))
        game.to_play = to_play
        return game

    def color_at(self, point: str) -> str | None:
        if point in self.black:
            return "black"
        if point in self.white:
            return "white"
        return None

    @property
    def label_points(self) -> dict[str, str]:
        return dict(self.labels)


@dataclass
class Diagram:
    position: Position | None
    errors: list[tuple[int, int, str]] = field(default_factory=list)  # (row, column) in the text, message
    cells: dict[str, tuple[int, int]] = field(default_factory=dict)  # point -> (row, column) in the text


def _is_header(content: str) -> bool:
    letters = content.replace(" ", "")
    return bool(letters) and letters.isascii() and letters.isupper() and letters.isalpha() and set(letters) - {"X", "O"} != set()


def _cells(content: str, offset: int) -> tuple[list[tuple[int, str]], str | None, int]:
    """Cells of one row as (column in the text, character); or an error message and its column."""
    if " " not in content:
        return [(offset + i, ch) for i, ch in enumerate(content)], None, 0
    for i, ch in enumerate(content):
        if (i % 2 == 1) != (ch == " "):
            return [], "cells are separated by single spaces (or written without spaces)", offset + i
    return [(offset + i, ch) for i, ch in enumerate(content) if i % 2 == 0], None, 0


def parse_diagram(text: str, size: int, anchor: str | None = None) -> Diagram:
    out = Diagram(None)
    errors = out.errors
    lines = [(r, line.rstrip()) for r, line in enumerate(text.split("\n")) if line.strip()]
    if not lines:
        errors.append((0, 0, "the diagram is empty"))
        return out
    for r, line in lines:
        if "\t" in line:
            errors.append((r, line.index("\t"), "a tab in the diagram (use spaces)"))
            return out
    indent = min(len(line) - len(line.lstrip(" ")) for _, line in lines)
    header: tuple[int, list[str]] | None = None
    rows: list[tuple[int, int | None, list[tuple[int, str]]]] = []  # (text row, row number, cells)
    for i, (r, line) in enumerate(lines):
        content = line[indent:]
        start = indent + len(content) - len(content.lstrip(" "))
        content = content.strip(" ")
        if _is_header(content) and (i == 0 or i == len(lines) - 1):
            letters = list(content.replace(" ", ""))
            if "I" in letters:
                errors.append((r, start + content.index("I"), "column letters skip I (A B C D E F G H J ...)"))
                return out
            first = COLUMNS.find(letters[0])
            if first < 0 or "".join(letters) != COLUMNS[first:first + len(letters)]:
                errors.append((r, start, f"`{content}` is not a run of column letters such as A B C D"))
                return out
            if header is not None and header[1] != letters:
                errors.append((r, start, "the column letters below the diagram differ from those above it"))
                return out
            header = (first, letters)
            continue
        number = None
        m = _ROW_NUMBER.match(content)
        if m and (m.group(2) or len(content) == len(m.group(1))):
            number = int(m.group(1))
            start += m.end()
            content = content[m.end():]
        cells, problem, col = _cells(content, start)
        if problem:
            errors.append((r, col, problem))
            return out
        rows.append((r, number, cells))
    if not rows:
        errors.append((lines[0][0], indent, "the diagram has no rows of points"))
        return out
    for r, _, cells in rows:
        for col, ch in cells:
            if ch not in "XO.+" and ch not in LABELS:
                errors.append((r, col, f"unknown character `{ch}` in the diagram (use X, O, ., + or a label a-z)"))
    width = len(rows[0][2])
    for r, _, cells in rows[1:]:
        if len(cells) != width:
            col = cells[-1][0] if cells else indent
            errors.append((r, col, f"this row has {len(cells)} points, the first row has {width}"))
    numbered = [n is not None for _, n, _ in rows]
    if any(numbered) and not all(numbered):
        r = rows[numbered.index(False)][0]
        errors.append((r, indent, "every row needs a row number when some rows have one"))
    if errors:
        return out
    height = len(rows)
    first_row = rows[0][0]
    if height > size or width > size:
        errors.append((first_row, indent, f"the diagram has {height} rows of {width} points, more than a "
                                          f"{size}x{size} board"))
        return out
    if anchor is not None and anchor not in ANCHORS:
        errors.append((first_row, indent, f"unknown anchor `{anchor}`"))
        return out
    # rows: from numbers, else the anchor, else a full-height diagram
    if all(numbered):
        numbers = [n for _, n, _ in rows]
        for (r, n, cells), expected in zip(rows, range(numbers[0], numbers[0] - height, -1)):
            if n != expected:
                errors.append((r, indent, f"row number {n} should be {expected} (rows count down to 1 at the bottom)"))
                return out
        if numbers[0] > size or numbers[-1] < 1:
            errors.append((first_row, indent, f"row numbers {numbers[0]}..{numbers[-1]} are off a {size}x{size} board"))
            return out
        top = numbers[0] - 1
    elif anchor and anchor.startswith("top"):
        top = size - 1
    elif anchor and anchor.startswith("bottom"):
        top = height - 1
    elif height == size:
        top = size - 1
    else:
        top = None
    if header is not None:
        if len(header[1]) != width:
            errors.append((first_row, indent, f"{len(header[1])} column letters over rows of {width} points"))
            return out
        left = header[0]
        if left + width > size:
            errors.append((first_row, indent, f"columns {header[1][0]}..{header[1][-1]} are off a {size}x{size} board"))
            return out
    elif anchor and anchor.endswith("left"):
        left = 0
    elif anchor and anchor.endswith("right"):
        left = size - width
    elif width == size:
        left = 0
    else:
        left = None
    if top is None or left is None:
        errors.append((first_row, indent,
                       f"the diagram has {height} rows of {width} points: a full {size}x{size} diagram has {size} rows "
                       f"of {size}; place a partial one with `anchor` (bottom-left, ...) or coordinates"))
        return out
    black, white, labels = [], [], []
    for i, (r, _, cells) in enumerate(rows):
        row = top - i  # 0-based from the bottom
        for j, (col, ch) in enumerate(cells):
            point = f"{COLUMNS[left + j]}{row + 1}"
            out.cells[point] = (r, col)
            if ch == "X":
                black.append(point)
            elif ch == "O":
                white.append(point)
            elif ch in LABELS:
                labels.append((point, ch))
    out.position = Position(size, tuple(black), tuple(white), tuple(labels))
    return out


def position_from_sgf(text: str, size: int) -> tuple[Position | None, str | None]:
    """The position an SGF snippet sets up (its AB/AW, and any moves played); SZ wins over ``size``."""
    from teach.go.record import RecordError
    from teach.go.sgf import SGFError

    data = text if "SZ[" in text else _with_size(text, size)
    try:
        game = Game.from_sgf(data, strict=True)
    except (SGFError, RecordError, ValueError) as e:
        return None, f"SGF: {e}"
    rows = game.board_rows()
    black, white = [], []
    for i, line in enumerate(rows):
        for j, ch in enumerate(line):
            point = f"{COLUMNS[j]}{game.size - i}"
            if ch == "X":
                black.append(point)
            elif ch == "O":
                white.append(point)
    return Position(game.size, tuple(black), tuple(white)), None


def _with_size(text: str, size: int) -> str:
    at = text.find(";")
    if at < 0:
        return text
    return text[:at + 1] + f"SZ[{size}]" + text[at + 1:]
