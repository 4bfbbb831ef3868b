"""Bar charts drawn on the server as SVG: no script, no library, no CDN, and they print as they show.

A chart is a ``<svg role="img">`` with a title and a description that says every figure in words (what a screen
reader reads, and what a printed page keeps when the bars are too small to read), one bar per week with its figure
above it and its week below. Colours are presentation attributes, which the Content-Security-Policy allows (it
allows no inline style).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

from markupsafe import Markup, escape

WIDTH, HEIGHT = 320, 150
TOP, BOTTOM, SIDE = 24, 28, 6  # room for the figures above the bars and the weeks below
_ids = count(1)


@dataclass(frozen=True)
class Bar:
    value: int
    label: str  # what is written under the bar (a week's first day, "this week")
    spoken: str  # the bar in words: "Nov 24 to Nov 30: 12 minutes"


def bar_chart(bars: list[Bar], title: str, empty: str, colour: str = "#2f7d4f", css_class: str = "") -> Markup:
    """One bar per entry, heights proportional to the largest; ``empty`` is written across a chart of zeros."""
    chart_id = f"chart-{next(_ids)}"
    top = max((b.value for b in bars), default=0)
    slot = (WIDTH - 2 * SIDE) / max(len(bars), 1)
    bar_width = slot * 0.62
    floor = HEIGHT - BOTTOM
    parts = [f'<svg class="chart {escape(css_class)}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-labelledby="{chart_id}-t {chart_id}-d" preserveAspectRatio="xMidYMid meet">',
             f'<title id="{chart_id}-t">{escape(title)}</title>',
             f'<desc id="{chart_id}-d">{escape("; ".join(b.spoken for b in bars))}</desc>',
             f'<line x1="{SIDE}" y1="{floor}" x2="{WIDTH - SIDE}" y2="{floor}" stroke="#8a7a5c" stroke-width="1"/>']
    for i, b in enumerate(bars):
        x = SIDE + i * slot + (slot - bar_width) / 2
        middle = x + bar_width / 2
        height = 0 if top == 0 else (floor - TOP) * b.value / top
        if b.value > 0:
            parts.append(f'<rect class="bar" x="{x:.1f}" y="{floor - height:.1f}" width="{bar_width:.1f}" '
                         f'height="{height:.1f}" rx="2" fill="{escape(colour)}"><title>{escape(b.spoken)}</title>'
                         f'</rect>')
            parts.append(f'<text class="figure" x="{middle:.1f}" y="{floor - height - 5:.1f}" text-anchor="middle" '
                         f'font-size="14" font-weight="bold" fill="#2b2b2b">{b.value}</text>')
        elif top > 0:  # a week without any, said as such (not a bar that failed to draw)
            parts.append(f'<text class="figure zero" x="{middle:.1f}" y="{floor - 5}" text-anchor="middle" '
                         f'font-size="12" fill="#999">0</text>')
        # the last week's name ends at the right edge (it may be longer than a date)
        anchor, where = ("end", WIDTH - 2) if i == len(bars) - 1 else ("middle", middle)
        parts.append(f'<text class="week" x="{where:.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" font-size="12" '
                     f'fill="#555">{escape(b.label)}</text>')
    if top == 0:
        parts.append(f'<text class="empty" x="{WIDTH / 2}" y="{(TOP + floor) / 2}" text-anchor="middle" '
                     f'font-size="14" fill="#777">{escape(empty)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
