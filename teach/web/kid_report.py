"""What the parent's kid page and report show beyond the classroom's figures: the last weeks as charts, and
everything we hold about a kid in words (lesson titles and sticker names, never ids), read from the very dict
the JSON export writes, so the readable report cannot leave out what the download holds."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import sqlalchemy as sa
from babel.dates import format_skeleton
from flask import g
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext

from teach.go.scoring import stones_text
from teach.lessons.practice import drill_names
from teach.models import MissedCapture, ParentLink, User, utcnow
from teach.web import classroom, content, daily, games, weeks
from teach.web.charts import Bar, bar_chart
from teach.web.extensions import db

CHART_COLOURS = {"minutes": "#2f6fb0", "solved": "#2f7d4f", "stickers": "#c9821b"}


def _day(when) -> str:
    return format_skeleton("Md", when, locale=get_locale())


def week_charts(last: list[weeks.Week]) -> list[tuple[str, str, object]]:
    """The three charts, (name, caption, SVG): minutes, puzzles solved, stickers, one bar a week. Every other
    week is named under its bar, counting back from this week, so the names never run into each other on a phone;
    each bar says its week in full to a screen reader and on hover."""
    def bars(value, spoken):
        n = len(last)
        return [Bar(value(w), ("" if (n - 1 - i) % 2 else _("this week") if i == n - 1 else _day(w.start)),
                    _("%(start)s to %(end)s: %(what)s", start=_day(w.start), end=_day(w.end), what=spoken(value(w))))
                for i, w in enumerate(last)]

    charts = [("minutes", _("Minutes of practice and games, week by week"), lambda w: w.minutes,
               lambda n: ngettext("%(num)d minute", "%(num)d minutes", n), _("No practice in these weeks yet.")),
              ("solved", _("Puzzles solved, week by week"), lambda w: w.solved,
               lambda n: ngettext("%(num)d puzzle solved", "%(num)d puzzles solved", n),
               _("No puzzle solved in these weeks yet.")),
              ("stickers", _("Stickers won, week by week"), lambda w: w.stickers,
               lambda n: ngettext("%(num)d sticker", "%(num)d stickers", n), _("No sticker won in these weeks yet."))]
    return [(name, caption, bar_chart(bars(value, spoken), caption, empty, CHART_COLOURS[name], f"chart-{name}"))
            for name, caption, value, spoken, empty in charts]


def sticker_names(cat, kid_id: int, held: list[dict]) -> dict:
    """The kid's stickers by id, as the kid's own page names them: the map's, the milestones' and those of the
    class's own lessons (``classroom.sticker_lookup``; a parent never reads an id, nor "a sticker" for one the
    kid's page names)."""
    find = classroom.sticker_lookup(kid_id, cat)
    return {row["sticker"]: find(row["sticker"]) for row in held}


def lesson_title(cat, kid_id: int | None = None):
    """A title in the page's language for any key tries are stored under: a lesson's id, a practice set's key
    (``practice:<drill>:<level>:<seed>``), and with ``kid_id`` a lesson of the kid's class's own and a retry
    puzzle from one of the kid's games (``review:<id>``), each looked up once, the first time one is met (a
    parent read "review:4" where a title belongs)."""
    names = drill_names(g.lang)
    own: dict | None = None
    reviews: dict | None = None

    def title(key: str) -> str:
        nonlocal own, reviews
        lesson = cat.lessons.get(key)
        if lesson is not None:
            return lesson.title.get(g.lang)
        parts = key.split(":")
        if len(parts) == 4 and parts[0] == "practice" and parts[1] in names and parts[2].isdigit():
            return _("Practice: %(topic)s, level %(level)d", topic=names[parts[1]], level=int(parts[2]))
        if kid_id is None:
            return key
        if len(parts) == 2 and parts[0] == "review" and parts[1].isdigit():
            if reviews is None:
                reviews = {r.id: r for r in db.session.execute(
                    sa.select(MissedCapture.id, MissedCapture.move_number, MissedCapture.goal)
                    .where(MissedCapture.kid_id == kid_id))}
            found = reviews.get(int(parts[1]))
            if found is None:
                return _("A puzzle from a game")
            if found.goal == "save":
                return _("From a game (move %(n)d): save the stones", n=found.move_number)
            return _("From a game (move %(n)d): catch the stones", n=found.move_number)
        if own is None:
            own = {lesson.id: lesson for lesson in classroom.class_lessons(kid_id)}
        lesson = own.get(key)
        return lesson.title.get(g.lang) if lesson is not None else key

    return title


def choice_words(cat):
    """The words of the choice a quiz answer picked (a lesson's "choice" quiz stores the choice's index), in the
    page's language; None when the key or step is no such quiz (a parent never reads a bare index)."""

    def words(key: str, step: int, index) -> str | None:
        lesson = cat.lessons.get(key)
        if lesson is None or not isinstance(index, int) or not 0 <= step < len(lesson.steps):
            return None
        s = lesson.steps[step]
        choices = getattr(s, "choices", None) if s.kind == "quiz" and getattr(s, "ask", None) == "choice" else None
        if not choices or not 0 <= index < len(choices):
            return None
        return choices[index].get(g.lang)

    return words


def game_outcome(kid: User, game: dict) -> dict:
    """A finished game of the export in words, as the kid's page says it ("明明 won · 1¾ stones ahead"), from
    the same fields the export holds."""
    row = SimpleNamespace(state=game["state"], result=game["result"], kid_color=game["color"], kind=game["kind"],
                          capture_goal=game["capture_goal"], winner=None)
    return games.outcome(row, kid.name)


def everything(kid: User) -> dict:
    """The report's page context: the export's data, who follows the kid, the charts and the counts."""
    cat = content.catalog()
    followers = db.session.execute(sa.select(ParentLink, User).join(User, User.id == ParentLink.parent_id)
                                   .where(ParentLink.kid_id == kid.id).order_by(ParentLink.id)).all()
    data = classroom.kid_export(kid)
    return {"data": data, "followers": followers, "stickers": sticker_names(cat, kid.id, data["stickers"]),
            "charts": week_charts(weeks.last_weeks(kid.id)), "solved": weeks.solved_ever(kid.id),
            "lesson_title": lesson_title(cat, kid.id), "choice_words": choice_words(cat), "made": utcnow(),
            "zone": daily.classroom_zone().key,
            "outcomes": [game_outcome(kid, r) for r in data["games"]],
            # komi as the game's page says it, in stones (the export keeps the record's points: 7.5 is 3¾)
            "komi_stones": lambda points: stones_text(Fraction(str(points)) / 2)}
