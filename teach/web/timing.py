"""Time on task: the one measure of how long a kid practised, the same on the teacher's and the parent's pages.

A kid's moments are the steps put in front of them (``StepShown``) and their answers (``Attempt``: its first move
and its end). Between two moments in a row the kid was busy with what the earlier one showed, so that gap counts
for the earlier moment's lesson and day, bounded: a gap counts at most ``IDLE_CAP`` seconds (a kid staring out of
the window, or thinking long, counts as two minutes), and a gap longer than ``BREAK`` is not practice at all (the
tablet was put away). A one-move puzzle so counts the time from the puzzle appearing to the tap, not the zero
seconds from its first move to its end.

Games count too (against the computer, with a friend at the same tablet, and live games with a classmate), under
the key ``GAMES``: a game's start and its last move are two moments, and the time between them counts bounded by
the moves played, at most ``GAME_MOVE_SECONDS`` a move (games keep no time of each move; a game left open for a
day after three moves counts three minutes, not a day). A live game counts for both children, from its own row
(the records each child gets when it ends are copies, not counted again).

One query gives every kid × lesson × day, from which the pages read per lesson, per day and per week.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

import sqlalchemy as sa
from flask import current_app

from teach.models import Attempt, LiveGame, PlayedGame, StepShown, utcnow
from teach.web.extensions import db

IDLE_CAP = 120  # seconds one gap between two moments may count for
BREAK = 30 * 60  # seconds without a moment after which the kid had stopped
DEFAULT_UTC_OFFSET = 8  # hours: a class's day starts at midnight Beijing time unless TIMING_UTC_OFFSET_HOURS says


GAMES = "@games"  # the key of game time among the lesson ids (no lesson id has an @)
GAME_MOVE_SECONDS = 60  # a move of a game (the kid's or the other side's) accounts for at most this long
NO_BREAK = 10.0 ** 9  # the gap from a game's start to its end is bounded by its moves, never cut as a break


RESHOWN = 60  # seconds within which the same step shown again (a reload, a second tab) is not a new moment


def step_shown(kid_id: int, lesson_id: str, step: int) -> None:
    """Note that a step is on the kid's screen now (the caller commits). One statement: a step shown again within
    ``RESHOWN`` seconds adds no row, so reloading a page cannot pile rows up (and changes no figure: the gap
    between two such moments counts for the same step either way)."""
    now = utcnow()
    again = sa.select(StepShown.id).where(StepShown.kid_id == kid_id, StepShown.lesson_id == lesson_id,
                                         StepShown.step == step,
                                         StepShown.shown_at >= now - timedelta(seconds=RESHOWN))
    row = sa.select(sa.literal(kid_id), sa.literal(lesson_id), sa.literal(step), sa.literal(now)).where(
        ~sa.exists(again))
    db.session.execute(sa.insert(StepShown).from_select(["kid_id", "lesson_id", "step", "shown_at"], row))


def _utc_offset() -> int:
    return int(current_app.config.get("TIMING_UTC_OFFSET_HOURS", DEFAULT_UTC_OFFSET))


def _seconds_between(earlier, later):
    if db.engine.dialect.name == "sqlite":
        return (sa.func.julianday(later) - sa.func.julianday(earlier)) * 86400.0
    return sa.func.extract("epoch", later - earlier)


def _local_day(moment):
    hours = _utc_offset()
    if db.engine.dialect.name == "sqlite":
        return sa.func.date(moment, f"{hours:+d} hours")
    return sa.cast(moment + sa.text(f"interval '{hours:d} hours'"), sa.Date)


@dataclass
class TimeOnTask:
    """Seconds of practice per kid, lesson and local day."""

    cells: dict[tuple[int, str, date], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lesson: dict[tuple[int, str], float] = defaultdict(float)
        self._day: dict[tuple[int, date], float] = defaultdict(float)
        self._kid: dict[int, float] = defaultdict(float)
        for (kid_id, lesson_id, day), seconds in self.cells.items():
            self._lesson[(kid_id, lesson_id)] += seconds
            self._day[(kid_id, day)] += seconds
            self._kid[kid_id] += seconds

    def lesson(self, kid_id: int, lesson_id: str) -> float:
        return self._lesson.get((kid_id, lesson_id), 0.0)

    def day(self, kid_id: int, day: date) -> float:
        return self._day.get((kid_id, day), 0.0)

    def days(self, kid_id: int, first: date, last: date) -> float:
        """Seconds from the local day ``first`` to ``last``, both included."""
        return sum(s for (k, d), s in self._day.items() if k == kid_id and first <= d <= last)

    def week(self, kid_id: int, today: date) -> float:
        """The last seven local days, today included."""
        return self.days(kid_id, today - timedelta(days=6), today)

    def total(self, kid_id: int) -> float:
        return self._kid.get(kid_id, 0.0)

    def games(self, kid_id: int) -> float:
        """Seconds of games, in all (included in every other figure)."""
        return self.lesson(kid_id, GAMES)

    def games_days(self, kid_id: int, first: date, last: date) -> float:
        return sum(s for (k, lesson_id, d), s in self.cells.items()
                   if k == kid_id and lesson_id == GAMES and first <= d <= last)


def today() -> date:
    """Today in the class's time zone (the days time on task is counted in)."""
    return (utcnow() + timedelta(hours=_utc_offset())).date()


def day_start_utc(day: date) -> datetime:
    """Midnight at the start of ``day`` in the class's time zone, as the naive UTC time the database keeps."""
    return datetime.combine(day, time(0)) - timedelta(hours=_utc_offset())


def time_on_task(kid_ids, since: datetime | None = None) -> TimeOnTask:
    """Time on task of these kids (a list or a subquery of ids), from ``since`` (UTC) if given: one query."""
    def after(column):
        return [column >= since] if since else []

    cap, stop = sa.literal(float(IDLE_CAP)).label("cap"), sa.literal(float(BREAK)).label("stop")
    games = sa.literal(GAMES).label("lesson_id")
    # a game's start bounds the gap after it by the game's moves; its last move is a moment like an answer's end
    game_cap = (sa.cast(PlayedGame.ply, sa.Float) * GAME_MOVE_SECONDS).label("cap")
    live_cap = (sa.cast(LiveGame.ply, sa.Float) * GAME_MOVE_SECONDS).label("cap")
    no_break = sa.literal(NO_BREAK).label("stop")
    game_end = sa.func.coalesce(PlayedGame.finished_at, PlayedGame.updated_at)
    live_end = sa.func.coalesce(LiveGame.finished_at, LiveGame.updated_at)
    live_copy = sa.exists().where(sa.or_(LiveGame.black_record_id == PlayedGame.id,
                                         LiveGame.white_record_id == PlayedGame.id))
    own_games = [PlayedGame.kid_id.in_(kid_ids), ~live_copy, *after(PlayedGame.created_at)]
    branches = [
        sa.select(StepShown.kid_id, StepShown.lesson_id, StepShown.shown_at.label("at"), cap, stop)
        .where(StepShown.kid_id.in_(kid_ids), *after(StepShown.shown_at)),
        sa.select(Attempt.kid_id, Attempt.lesson_id, Attempt.started_at.label("at"), cap, stop)
        .where(Attempt.kid_id.in_(kid_ids), *after(Attempt.started_at)),
        sa.select(Attempt.kid_id, Attempt.lesson_id, Attempt.finished_at.label("at"), cap, stop)
        .where(Attempt.kid_id.in_(kid_ids), Attempt.finished_at.is_not(None), *after(Attempt.finished_at)),
        sa.select(PlayedGame.kid_id, games, PlayedGame.created_at.label("at"), game_cap, no_break)
        .where(*own_games),
        sa.select(PlayedGame.kid_id, games, game_end.label("at"), cap, stop)
        .where(*own_games, PlayedGame.ply > 0),
    ]
    for player in (LiveGame.black_id, LiveGame.white_id):
        live = [player.in_(kid_ids), *after(LiveGame.created_at)]
        branches.append(sa.select(player.label("kid_id"), games, LiveGame.created_at.label("at"), live_cap, no_break)
                        .where(*live))
        branches.append(sa.select(player.label("kid_id"), games, live_end.label("at"), cap, stop)
                        .where(*live, LiveGame.ply > 0))
    moments = sa.union_all(*branches).subquery("moments")
    order = {"partition_by": moments.c.kid_id, "order_by": moments.c.at}
    pairs = sa.select(moments.c.kid_id,
                      sa.func.lag(moments.c.lesson_id).over(**order).label("lesson_id"),
                      sa.func.lag(moments.c.at).over(**order).label("prev"),
                      sa.func.lag(moments.c.cap).over(**order).label("cap"),
                      sa.func.lag(moments.c.stop).over(**order).label("stop"),
                      moments.c.at).subquery("pairs")
    # the gap once per pair (the CASE below reads it three times: computed there, SQLite computes it thrice)
    gaps = sa.select(pairs.c.kid_id, pairs.c.lesson_id, pairs.c.prev, pairs.c.cap, pairs.c.stop,
                     _seconds_between(pairs.c.prev, pairs.c.at).label("gap")).subquery("gaps")
    pairs, gap = gaps, gaps.c.gap
    counted = sa.case((gap > pairs.c.stop, 0.0), (gap > pairs.c.cap, pairs.c.cap), (gap > 0, gap), else_=0.0)
    day = _local_day(pairs.c.prev)
    rows = db.session.execute(
        sa.select(pairs.c.kid_id, pairs.c.lesson_id, day.label("day"), sa.func.sum(counted))
        .where(pairs.c.prev.is_not(None)).group_by(pairs.c.kid_id, pairs.c.lesson_id, day))
    cells = {}
    for kid_id, lesson_id, on, seconds in rows:
        on = date.fromisoformat(on) if isinstance(on, str) else on
        seconds = round(float(seconds or 0), 2)  # SQLite's julianday arithmetic is off by microseconds
        if seconds > 0:
            cells[(kid_id, lesson_id, on)] = seconds
    return TimeOnTask(cells)


def minutes(seconds: float) -> int:
    """Whole minutes for a person to read (never negative; a little practice is at least one minute)."""
    if seconds <= 0:
        return 0
    return max(1, round(seconds / 60))


def csv_minutes(seconds: float) -> float:
    """Minutes with one decimal for a spreadsheet: 0.0, never -0.0."""
    return round(max(seconds, 0.0) / 60, 1) + 0.0
