"""GTP coordinates: columns A-T without I, row 1 at the bottom, and ``pass``.

Inside the engine a point is an int index ``row * size + col`` with row 0 at the bottom,
so that GTP names map to indices without flipping.
"""

from __future__ import annotations

from functools import lru_cache

COLUMNS = "ABCDEFGHJKLMNOPQRST"  # GTP skips I
MIN_SIZE, MAX_SIZE = 2, 19


class BadCoordinate(ValueError):
    """A move or point that is not a valid GTP coordinate on this board."""

    def __init__(self, text: object, size: int, why: str = "") -> None:
        self.text = text
        self.size = size
        message = f"{text!r} is not a point on a {size}x{size} board"
        if why:
            message += f" ({why})"
        super().__init__(message)


def check_size(size: object) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {size!r}")
    return size


@lru_cache(maxsize=None)
def point_names(size: int) -> tuple[str, ...]:
    """GTP name of every point index on a board of this size."""
    return tuple(f"{COLUMNS[p % size]}{p // size + 1}" for p in range(size * size))


@lru_cache(maxsize=None)
def _name_index(size: int) -> dict[str, int]:
    return {name: p for p, name in enumerate(point_names(size))}


@lru_cache(maxsize=None)
def point_index(size: int) -> dict[str, int]:
    """Exact-text lookup for the common spellings ("D4", "d4"): the fast path before full parsing."""
    names = point_names(size)
    index = {name: p for p, name in enumerate(names)}
    index.update({name.lower(): p for p, name in enumerate(names)})
    return index


def parse_point(text: object, size: int) -> int | None:
    """GTP text -> point index, or None for ``pass``. Raises BadCoordinate naming the input."""
    if not isinstance(text, str):
        raise BadCoordinate(text, size, "expected text such as 'D4' or 'pass'")
    name = text.strip().upper()
    if name == "PASS":
        return None
    p = _name_index(size).get(name)
    if p is not None:
        return p
    if not name:
        raise BadCoordinate(text, size, "empty")
    if name[0] == "I":
        raise BadCoordinate(text, size, "GTP coordinates skip the letter I")
    if name[0] not in COLUMNS or not name[1:].isdigit():
        raise BadCoordinate(text, size, "expected a column letter then a row number, such as 'D4'")
    raise BadCoordinate(text, size, "off the board")


def point_name(p: int | None, size: int) -> str:
    return "pass" if p is None else point_names(size)[p]


def col_row(p: int, size: int) -> tuple[int, int]:
    """Zero-based (column, row) with row 0 at the bottom."""
    return p % size, p // size


def from_col_row(col: int, row: int, size: int) -> int:
    if not (0 <= col < size and 0 <= row < size):
        raise BadCoordinate(f"({col}, {row})", size, "off the board")
    return row * size + col


def turned(p: int, size: int, k: int) -> int:
    """The point ``p`` under the board symmetry ``k`` (0-7: bit 1 mirrors the columns, bit 2 the rows, bit 4
    swaps them), so a position and every point named in it can be turned the same way."""
    col, row = p % size, p // size
    if k & 1:
        col = size - 1 - col
    if k & 2:
        row = size - 1 - row
    if k & 4:
        col, row = row, col
    return row * size + col


@lru_cache(maxsize=None)
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every point, precomputed once per size (the hot loops index this)."""
    out = []
    for p in range(size * size):
        col, row = p % size, p // size
        nb = []
        if row > 0:
            nb.append(p - size)
        if col > 0:
            nb.append(p - 1)
        if col < size - 1:
            nb.append(p + 1)
        if row < size - 1:
            nb.append(p + size)
        out.append(tuple(nb))
    return tuple(out)


@lru_cache(maxsize=None)
def diagonals(size: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for p in range(size * size):
        col, row = p % size, p // size
        out.append(tuple(
            (row + dr) * size + col + dc
            for dc, dr in ((-1, -1), (1, -1), (-1, 1), (1, 1))
            if 0 <= col + dc < size and 0 <= row + dr < size
        ))
    return tuple(out)
