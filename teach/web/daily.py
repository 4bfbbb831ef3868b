"""A reason to come back: the daily goal, the streak and the daily puzzle.

- **Daily goal**: ``GOAL_PUZZLES`` puzzles solved today (lesson puzzles, quizzes, practice, the daily puzzle) or
  one game against the computer played to the end.
- **Streak**: the days in a row the daily goal was met, up to today; today still counts as kept until it ends,
  so a child who met yesterday's goal sees the streak waiting for today.
- **Daily puzzle**: one practice puzzle a day, the same for everyone at a level (its seed is the date), from a
  drill the child has opened.

Days are the classroom's (``KID_TIMEZONE``, default Asia/Shanghai), not the server's. Everything is counted
from the attempts and games already kept (``rank.record``: one query; the streak looks back ``STREAK_WINDOW`` days).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import current_app

GOAL_PUZZLES = 3
GOAL_GAMES = 1
STREAK_WINDOW = 100  # days looked back; a longer streak shows as "100+"
DEFAULT_TIMEZONE = "Asia/Shanghai"


def classroom_zone():
    try:
        return ZoneInfo(current_app.config.get("KID_TIMEZONE") or DEFAULT_TIMEZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIMEZONE)


def local(t: datetime | None) -> datetime | None:
    """A time the database keeps (naive UTC) as the classroom's clock shows it: the ``local`` template filter, so
    every time and day on a page is the classroom's, as the days of the daily goal and the charts are."""
    if t is None:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return t.astimezone(classroom_zone())


def local_minute(t: datetime | str | None) -> str:
    """A stored time (a datetime, or the ISO text the JSON export writes) on the classroom's clock, to the
    minute: the ``local_minute`` template filter of the parent's report; "–" for none."""
    if not t:
        return "–"
    if isinstance(t, str):
        try:
            t = datetime.fromisoformat(t)
        except ValueError:
            return t
    return local(t).strftime("%Y-%m-%d %H:%M")


def today(now: datetime | None = None) -> date:
    now = now or datetime.now(timezone.utc)
    return now.astimezone(classroom_zone()).date()


def _day_start_utc(day: date) -> datetime:
    """Midnight of ``day`` in the classroom, as the naive UTC time the database keeps."""
    local = datetime.combine(day, time(0), tzinfo=classroom_zone())
    return local.astimezone(timezone.utc).replace(tzinfo=None)


@dataclass(frozen=True)
class Daily:
    day: date
    puzzles: int  # solved today
    games: int  # finished today
    streak: int  # days in a row with the goal met, up to today
    window_full: bool  # the streak reaches back the whole window ("100+")

    @property
    def met(self) -> bool:
        return self.puzzles >= GOAL_PUZZLES or self.games >= GOAL_GAMES

    @property
    def goal_puzzles(self) -> int:
        return GOAL_PUZZLES

    @property
    def puzzles_shown(self) -> int:
        return min(self.puzzles, GOAL_PUZZLES)


def record_since(now: datetime | None = None) -> datetime:
    """The first moment the streak looks at (naive UTC, as the database keeps it)."""
    return _day_start_utc(today(now) - timedelta(days=STREAK_WINDOW - 1))


def daily_from(rec, now: datetime | None = None) -> Daily:
    """The day's goal and the streak from a kid's ``rank.Record`` (read since ``record_since(now)``)."""
    day = today(now)
    first = day - timedelta(days=STREAK_WINDOW - 1)
    since = _day_start_utc(first)
    zone = classroom_zone()

    def local_day(t: datetime) -> date:
        return t.replace(tzinfo=timezone.utc).astimezone(zone).date()

    puzzles: dict[date, int] = {}
    for _key, _step, t in rec.solved:
        if t >= since:
            d = local_day(t)
            puzzles[d] = puzzles.get(d, 0) + 1
    games: dict[date, int] = {}
    for t, _won in rec.games:
        if t >= since:
            d = local_day(t)
            games[d] = games.get(d, 0) + 1

    def met(d: date) -> bool:
        return puzzles.get(d, 0) >= GOAL_PUZZLES or games.get(d, 0) >= GOAL_GAMES

    streak = 0
    d = day if met(day) else day - timedelta(days=1)  # today is not lost before it ends
    while d >= first and met(d):
        streak += 1
        d -= timedelta(days=1)
    return Daily(day=day, puzzles=puzzles.get(day, 0), games=games.get(day, 0), streak=streak,
                 window_full=streak >= STREAK_WINDOW)


def daily(kid_id: int, now: datetime | None = None) -> Daily:
    from teach.web.rank import record

    return daily_from(record(kid_id, record_since(now)), now)


def daily_puzzle(day: date, open_drills: list[str], level: int) -> tuple[str, int, int] | None:
    """(drill, level, seed) of the day's puzzle: step 0 of that practice set; None when no drill is open."""
    if not open_drills:
        return None
    drill = open_drills[day.toordinal() % len(open_drills)]
    return drill, level, int(day.strftime("%Y%m%d"))


def level_for(kyu: int) -> int:
    """The practice level that suits a rank: 25–19级 level 1, 18–10级 level 2, 9–1级 level 3."""
    return 1 if kyu >= 19 else 2 if kyu >= 10 else 3


def for_map(kid_id: int, progress: dict, now: datetime | None = None) -> dict:
    """What the map's goal box shows (templates/kid/_goal.html): the day, the rank, the daily puzzle — one query
    on top of the progress rows the map has read."""
    from teach.lessons.practice import PracticeKey
    from teach.web import practice, rank

    finished = [(lesson_id, p.stars) for lesson_id, p in progress.items() if p.finished_at is not None]
    rec = rank.record(kid_id, record_since(now))
    kid_rank = rank.rank_for_points(rank.rank_points(finished, rec))
    day = daily_from(rec, now)
    opened = practice.open_drills(kid_id, {lesson_id for lesson_id, _stars in finished}, rec.placed_through)
    puzzle = daily_puzzle(day.day, opened, level_for(kid_rank.kyu))
    done = puzzle is not None and any(key == str(PracticeKey(*puzzle)) and step == 0 for key, step, _t in rec.solved)
    return {"daily": day, "rank": kid_rank, "daily_puzzle": puzzle, "daily_puzzle_done": done,
            "offer_placement": rec.placement is None and not finished, "placed_through": rec.placed_through}
