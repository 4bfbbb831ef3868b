"""The Go board as inline SVG, drawn by the server: no canvas, no script needed to see it.

Every intersection is a large touch target (`<g class="pt" data-point="D4">` with an invisible square the size of
a whole cell) with an accessible label, so a kid can tap anywhere near the point, and a screen reader can read the
board. The stone circle of each point is always there; a class (`black`, `white`, `empty`) decides what shows,
so the page script can replay moves by switching classes.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from markupsafe import Markup, escape

from teach.go import Game, IllegalMove
from teach.go.coords import COLUMNS

CELL = 40
MARGIN = 40  # room for the coordinates outside the edge stones
BARE_MARGIN = 22  # no coordinates: just the edge stones and their touch squares
STAR_POINTS = {9: (2, 4, 6), 13: (3, 6, 9), 19: (3, 9, 15)}


def star_points(size: int) -> list[tuple[int, int]]:
    """(row, column) of the star points drawn: nine on 19x19; on 9x9 and 13x13 the four corner stars and the
    centre (天元), as those boards are printed and as the lessons teach them (board-star-points: "four more
    star points sit near the corners")."""
    lines = STAR_POINTS.get(size, ())
    if size == 19:
        return [(r, c) for r in lines for c in lines]
    return [(r, c) for r in lines for c in lines if (r == c == lines[1]) or (r != lines[1] and c != lines[1])]


WORDS = {
    "zh": {"black": "黑子", "white": "白子", "empty": "空", "board": "{n}路棋盘"},
    "en": {"black": "black stone", "white": "white stone", "empty": "empty", "board": "{n} by {n} board"},
}


def render_board(rows: list[str], *, lang: str = "zh", marks=None, labels: dict[str, str] | None = None,
                 playable: bool = False, last: str | None = None,
                 point_classes: dict[str, list[str]] | None = None, coordinates: bool = True,
                 small_labels: bool = False) -> Markup:
    """``rows``: the engine's board rows (top row first, X/O/.). ``marks``: the lesson's Marks (or None).
    ``labels``: point -> letter, shown as a capital (lesson texts say "A and B") unless ``small_labels`` (a
    page whose marks must not read as the column letters round the edge). ``playable``: points are buttons the kid can tap. ``point_classes``: point ->
    extra classes of its ``g`` (the count screen's dead stones and owners). ``coordinates``: letters and numbers
    round the edge (young kids' boards go without them, and the board grows into the space)."""
    size = len(rows)
    words = WORDS.get(lang, WORDS["en"])
    margin = MARGIN if coordinates else BARE_MARGIN
    span = CELL * (size - 1)
    full = span + 2 * margin
    out = [f'<svg class="board size-{size}{" playable" if playable else ""}{"" if coordinates else " bare"}" viewBox="0 0 {full} {full}" '
           f'role="group" aria-label="{escape(words["board"].format(n=size))}" data-size="{size}">',
           f'<rect class="wood" x="0" y="0" width="{full}" height="{full}" rx="12"/>']
    lines = []
    for i in range(size):
        c = margin + i * CELL
        lines.append(f"M{margin} {c}H{margin + span}M{c} {margin}V{margin + span}")
    out.append(f'<path class="lines" d="{"".join(lines)}"/>')
    out.append(f'<rect class="edge" x="{margin}" y="{margin}" width="{span}" height="{span}"/>')
    for r, col in star_points(size):
        out.append(f'<circle class="star" cx="{margin + col * CELL}" cy="{margin + r * CELL}" r="4"/>')
    for i in range(size if coordinates else 0):
        x = margin + i * CELL
        out.append(f'<text class="coord" x="{x}" y="{margin - 25}">{COLUMNS[i]}</text>')
        out.append(f'<text class="coord" x="{x}" y="{full - margin + 34}">{COLUMNS[i]}</text>')
        y = margin + i * CELL
        out.append(f'<text class="coord" x="{margin - 29}" y="{y + 5}">{size - i}</text>')
        out.append(f'<text class="coord" x="{full - margin + 29}" y="{y + 5}">{size - i}</text>')
    mark_of = _marks_by_point(marks)
    labels = {point: text if small_labels else text.upper() for point, text in (labels or {}).items()}
    for r, row in enumerate(rows):
        for col, ch in enumerate(row):
            name = f"{COLUMNS[col]}{size - r}"
            state = {"X": "black", "O": "white"}.get(ch, "empty")
            x, y = margin + col * CELL, margin + r * CELL
            classes = ["pt", state] + [f"m-{m}" for m in mark_of.get(name, ())]
            if point_classes and name in point_classes:
                classes += point_classes[name]
            if name == last:
                classes.append("last")
            label = f"{name}, {words[state]}"
            if name in labels:
                label += f", {labels[name]}"
            attrs = f'class="{" ".join(classes)}" data-point="{name}" aria-label="{escape(label)}"'
            if playable:
                attrs += ' role="button" tabindex="0"'
            out.append(f"<g {attrs}>")
            out.append(f'<rect class="hit" x="{x - CELL / 2}" y="{y - CELL / 2}" width="{CELL}" height="{CELL}"/>')
            out.append(f'<circle class="glow" cx="{x}" cy="{y}" r="15"/>')
            out.append(f'<circle class="stone" cx="{x}" cy="{y}" r="18.5"/>')
            for m in mark_of.get(name, ()):
                out.append(_mark_shape(m, x, y))
            if name in labels:
                out.append(f'<text class="label" x="{x}" y="{y + 7}">{escape(labels[name])}</text>')
            out.append("</g>")
    for a, b in getattr(marks, "arrows", ()) or ():
        (x1, y1), (x2, y2) = _xy(a, size, margin), _xy(b, size, margin)
        out.append(f'<line class="arrow" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" marker-end="url(#arrowhead)"/>')
    out.append('<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
               'markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker></defs>')
    out.append("</svg>")
    return Markup("".join(out))


def _xy(point: str, size: int, margin: int = MARGIN) -> tuple[int, int]:
    col = COLUMNS.index(point[0].upper())
    row = int(point[1:])
    return margin + col * CELL, margin + (size - row) * CELL


def _marks_by_point(marks) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if marks is None:
        return out
    for kind in ("triangle", "circle", "square", "cross", "highlight"):
        for p in getattr(marks, kind, ()) or ():
            out.setdefault(p, []).append(kind)
    for p in getattr(marks, "liberty_points", ()) or ():
        out.setdefault(p, []).append("highlight")
    return out


def _mark_shape(kind: str, x: float, y: float) -> str:
    if kind == "triangle":
        return f'<path class="mark" d="M{x} {y - 10}L{x + 9} {y + 6}L{x - 9} {y + 6}Z"/>'
    if kind == "circle":
        return f'<circle class="mark" cx="{x}" cy="{y}" r="8"/>'
    if kind == "square":
        return f'<rect class="mark" x="{x - 7}" y="{y - 7}" width="14" height="14"/>'
    if kind == "cross":
        return f'<path class="mark" d="M{x - 7} {y - 7}L{x + 7} {y + 7}M{x + 7} {y - 7}L{x - 7} {y + 7}"/>'
    return ""  # highlight: the glow circle, shown by the m-highlight class


def replay(start: Game, moves: list[str]) -> tuple[Game, bool]:
    """A puzzle's board after ``moves`` from its start (stopping at the first that cannot be played), and whether
    all of them could be."""
    game = Game(start.size, komi=start.komi)
    game.setup(black=[p for p, c in enumerate(start.board) if c == 1],
               white=[p for p, c in enumerate(start.board) if c == 2])
    game.to_play = start.to_play
    for m in moves:
        try:
            game.play(m)
        except (IllegalMove, ValueError):
            return game, False
    return game, True


def rows_after(start: Game, moves: list[str]) -> list[str]:
    """The board rows after ``moves`` from a puzzle's start."""
    return replay(start, moves)[0].board_rows()


class LineBoards:
    """One puzzle's start position and the board rows after each line played in it, worked out once per process:
    a puzzle is static, so the rows after the same moves are the same for every kid, and a move's answer (the
    board after the kid's move, and after the computer's reply) costs a replay only the first time."""

    LINES = 2048  # lines kept per puzzle (a puzzle has a few dozen that kids play; a stranger's are bounded)

    def __init__(self, start: Game) -> None:
        self.start = start
        self._rows: OrderedDict[tuple[tuple[str, ...], str | None], tuple[list[str], ...]] = OrderedDict()
        self._lock = Lock()

    def after(self, moves: list[str]) -> list[str]:
        """The board rows after ``moves`` (as ``rows_after``)."""
        return self._line(tuple(moves), None)[0]

    def after_move_and_reply(self, moves: list[str], reply: str | None) -> tuple[list[str], list[str]]:
        """The board after ``moves`` (ending with the kid's) and after the computer's ``reply`` to them, from one
        replay of the line; the reply's board is the move's when there is no reply, or it cannot be played."""
        found = self._line(tuple(moves), reply)
        return found[0], found[-1]

    def _line(self, moves: tuple[str, ...], reply: str | None):
        key = (moves, reply or None)
        with self._lock:
            hit = self._rows.get(key)
            if hit is not None:
                self._rows.move_to_end(key)
                return hit
        game, whole = replay(self.start, list(moves))
        boards = [game.board_rows()]
        if reply and whole:
            try:
                game.play(reply)
            except (IllegalMove, ValueError):
                pass
            else:
                boards.append(game.board_rows())
        found = tuple(boards)  # handed to every request that plays this line: read, never changed
        with self._lock:
            self._rows[key] = found
            if len(self._rows) > self.LINES:
                self._rows.popitem(last=False)
        return found
