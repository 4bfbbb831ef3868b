"""A kid's last weeks in figures, for the parent's pages, charts and report: time, puzzles solved and stickers won.

A *puzzle solved* is one puzzle or quiz step (a lesson step, a practice step) answered right at least once in the
week, however many wrong tries came before: a kid who taps ten wrong points and then the right one has solved one
puzzle, not eleven. The tries are kept beside it, since a parent may want to know how hard the week was.

Weeks end now (the last 7 days, the 7 before...), the same window as the weekly summary, so no midnight of any
time zone cuts a week in two (time is counted in the class's local days, as time on task is). Three queries whatever the number of weeks or tries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from teach.models import Attempt, StickerAward, utcnow
from teach.web import timing
from teach.web.extensions import db

WEEKS = 8  # two months: enough to see a habit, few enough bars for a phone


@dataclass
class Week:
    start: datetime
    end: datetime
    seconds: float = 0.0  # games included
    game_seconds: float = 0.0
    tries: int = 0
    solved: int = 0
    stickers: int = 0

    @property
    def minutes(self) -> int:  # as the page's "minutes in the last 7 days" says it: a little practice is a minute
        return timing.minutes(self.seconds)

    @property
    def game_minutes(self) -> int:
        return timing.minutes(self.game_seconds)


def last_weeks(kid_id: int, weeks: int = WEEKS, now: datetime | None = None) -> list[Week]:
    """The kid's last ``weeks`` weeks, oldest first; the last one is the 7 days up to ``now``."""
    now = now or utcnow()
    found = [Week(start=now - timedelta(days=7 * (weeks - i)), end=now - timedelta(days=7 * (weeks - 1 - i)))
             for i in range(weeks)]
    since = found[0].start

    def week_of(when: datetime | None) -> Week | None:
        if when is None or not since <= when < now + timedelta(seconds=1):
            return None
        return found[min(int((when - since) / timedelta(days=7)), weeks - 1)]

    # time is the classroom's measure, time on task (one definition for the teacher's and the parent's figures),
    # counted in the class's local days: the last week is the seven days up to today, as on the teacher's page
    spent = timing.time_on_task([kid_id], since - timedelta(days=1))
    today = timing.today()
    for i, week in enumerate(found):
        last = today - timedelta(days=7 * (weeks - 1 - i))
        week.seconds = spent.days(kid_id, last - timedelta(days=6), last)
        week.game_seconds = spent.games_days(kid_id, last - timedelta(days=6), last)
    solved: dict[int, set[tuple[str, int]]] = {}
    for lesson_id, step, result, started in db.session.execute(
            sa.select(Attempt.lesson_id, Attempt.step, Attempt.result, Attempt.started_at)
            .where(Attempt.kid_id == kid_id, Attempt.started_at >= since)):
        week = week_of(started)
        if week is None:
            continue
        week.tries += 1
        if result == "solved":
            solved.setdefault(id(week), set()).add((lesson_id, step))
    for week in found:
        week.solved = len(solved.get(id(week), ()))
    for (awarded,) in db.session.execute(sa.select(StickerAward.awarded_at).where(
            StickerAward.kid_id == kid_id, StickerAward.awarded_at >= since)):
        week = week_of(awarded)
        if week is not None:
            week.stickers += 1
    return found


def solved_ever(kid_id: int) -> int:
    """Every puzzle the kid has solved at least once, each counted once."""
    solved = sa.select(Attempt.lesson_id, Attempt.step).where(
        Attempt.kid_id == kid_id, Attempt.result == "solved").distinct().subquery()
    return db.session.scalar(sa.select(sa.func.count()).select_from(solved)) or 0
