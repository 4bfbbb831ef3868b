"""Milestone stickers: the first capture, the first ladder, five lessons, a week of practice...

They are checked after every right answer, each only where that answer can reach it (see ``candidates``), and
awarded exactly once (the same unique constraint as lesson stickers).
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from teach.lessons.practice import PracticeKey
from teach.models import Attempt, LessonProgress, StickerAward, utcnow
from teach.web.extensions import db


@dataclass(frozen=True)
class Milestone:
    id: str
    picture: str
    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


MILESTONES = (
    Milestone("milestone-first-capture", "party", "第一次提子", "First capture"),
    Milestone("milestone-first-lesson", "schoolbag", "学完第一课", "First lesson done"),
    Milestone("milestone-first-ladder", "climber", "第一次征子", "First ladder"),
    Milestone("milestone-five-lessons", "graduation", "学完五课", "Five lessons done"),
    Milestone("milestone-ten-practice", "rocket", "练习十题", "Ten practice puzzles"),
    Milestone("milestone-week", "calendar", "练了七天", "A week of practice"),
    # the play pages: a capture game won, the first win over each computer level, the first counted game
    Milestone("milestone-capture-game", "finish-flag", "第一次赢吃子游戏", "First capture game won"),
    Milestone("milestone-counted-game", "abacus", "第一次数子", "First game counted"),
    Milestone("milestone-beat-mouse", "mouse", "赢了小老鼠", "Beat the Little Mouse"),
    Milestone("milestone-beat-rabbit", "rabbit", "赢了小白兔", "Beat the Little Rabbit"),
    Milestone("milestone-beat-monkey", "monkey", "赢了小猴子", "Beat the Little Monkey"),
    Milestone("milestone-beat-panda", "panda", "赢了熊猫", "Beat the Panda"),
    Milestone("milestone-beat-tiger", "tiger", "赢了老虎", "Beat the Tiger"),
    Milestone("milestone-beat-chief", "police-cat", "赢了黑猫警长", "Beat the Black Cat Police Chief"),
    Milestone("milestone-beat-owl", "owl", "赢了猫头鹰", "Beat the Wise Owl"),
    Milestone("milestone-beat-dragon", "dragon", "赢了小龙", "Beat the Dragon"),
)
BY_ID = {m.id: m for m in MILESTONES}


def as_sticker(m: Milestone):
    """A milestone in the sticker book, next to the lesson stickers (the same shape: id, picture, name)."""
    return _Sticker(m.id, m.picture, m)


@dataclass(frozen=True)
class _Sticker:
    id: str
    picture: str
    name: Milestone


# an award whose sticker is no longer in the catalogue (a class's own lesson, a lesson removed since): the page
# still shows a sticker with a name, never the stored id
UNKNOWN_STICKER = _Sticker("", "gift", Milestone("", "gift", "一枚贴纸", "A sticker"))
_TABLES: dict[int, tuple[object, dict]] = {}


def sticker_for(sticker_id: str, catalog) -> _Sticker:
    """The sticker an award names, as every page shows it (kid, parent, teacher): its picture and its name in
    both languages. Lesson stickers come from ``catalog``, milestones from ``MILESTONES``; an id neither knows
    gets ``UNKNOWN_STICKER``. Ids such as "milestone-first-capture" are for the database only."""
    held = _TABLES.get(id(catalog))
    if held is None or held[0] is not catalog:
        table = {l.sticker.id: l.sticker for l in catalog.lessons.values()}
        table.update({m.id: as_sticker(m) for m in MILESTONES})
        _TABLES.clear()  # one catalogue at a time (it is reloaded only when lessons change)
        _TABLES[id(catalog)] = held = (catalog, table)
    return held[1].get(sticker_id, UNKNOWN_STICKER)


def taken_sticker_ids(catalog) -> set[str]:
    """The sticker ids of the map's lessons and of the milestones: a teacher's own lesson may not give one of them
    (a kid finishing it would be shown, and would no longer win, that sticker)."""
    sticker_for("", catalog)
    return set(_TABLES[id(catalog)][1])


def all_stickers(catalog) -> list:
    """Every sticker a kid can win: the lessons' in map order of the catalogue, then the milestones."""
    sticker_for("", catalog)
    return [s for s in _TABLES[id(catalog)][1].values()]


LESSON_MILESTONES = ("milestone-first-lesson", "milestone-first-ladder", "milestone-five-lessons")
PRACTICE_GOAL = 10
WEEK_DAYS = 7


@dataclass(frozen=True)
class Answer:
    """A right answer, not yet written: the step solved, where it belongs (a lesson id or a practice key), and
    whether it finished the lesson."""
    step: object
    lesson_id: str
    finished: bool = False

    @property
    def practice(self) -> bool:
        return PracticeKey.holds(self.lesson_id)


def reached(kid_id: int, catalog, open_ids: set[str], answer: Answer) -> set[str]:
    """Which of ``open_ids`` this right answer reaches: the ``candidates`` it can reach that the kid does not hold.

    The first capture is reached by being a candidate; the others are looked up. Every query is bounded (it stops
    at the count it needs), so a right answer costs the same for a kid with years of history. The queries read
    what is stored and add this answer to it: they run without flushing the answer first, so the database's write
    lock is taken only by the commit that ends the request."""
    out = open_ids & {"milestone-first-capture"}
    with db.session.no_autoflush:
        if open_ids & set(LESSON_MILESTONES):
            done = set(db.session.scalars(sa.select(LessonProgress.lesson_id).where(
                LessonProgress.kid_id == kid_id, LessonProgress.finished_at.is_not(None))))
            done.add(answer.lesson_id)
            out.add("milestone-first-lesson")
            lessons = catalog.lessons
            if any(lessons.get(i) is not None and lessons[i].topic == "ladder" for i in done):
                out.add("milestone-first-ladder")
            if len(done) >= 5:
                out.add("milestone-five-lessons")
        if "milestone-ten-practice" in open_ids:
            solved = sa.select(Attempt.id).where(Attempt.kid_id == kid_id, Attempt.result == "solved",
                                                 Attempt.lesson_id.startswith(PracticeKey.PREFIX)).limit(PRACTICE_GOAL)
            if db.session.scalar(sa.select(sa.func.count()).select_from(solved.subquery())) + 1 >= PRACTICE_GOAL:
                out.add("milestone-ten-practice")
        if "milestone-week" in open_ids:
            days = sa.select(sa.func.date(Attempt.started_at)).where(Attempt.kid_id == kid_id).distinct() \
                .limit(WEEK_DAYS)
            played = {str(d) for d in db.session.scalars(days)} | {utcnow().date().isoformat()}
            if len(played) >= WEEK_DAYS:
                out.add("milestone-week")
    return out & open_ids


def candidates(answer: Answer, memo, today: str) -> set[str]:
    """The milestones this right answer could reach, before any query: the first capture with a capture puzzle,
    the lesson milestones with a finished lesson, ten practice puzzles with a practice puzzle, a week once a day;
    none of them for most answers."""
    out = set()
    if getattr(answer.step, "goal", None) == "capture":
        out.add("milestone-first-capture")
    if answer.finished:
        out.update(LESSON_MILESTONES)
    if answer.practice:
        out.add("milestone-ten-practice")
    if memo.get("week_checked") != today:  # the days played change once a day, with the first right answer
        out.add("milestone-week")
    return out - set(memo.get("milestones_held", ()))


def award(kid_id: int, catalog, answer: Answer, memo) -> list[Milestone]:
    """Award every milestone this right answer reaches and the kid does not hold yet; returns the new ones.

    ``memo`` (the kid's session) remembers the milestones seen held and the day the week was last looked up, so
    a right answer that cannot reach anything new costs no query. It only ever skips a lookup: the database
    decides what is held, and the unique constraint that nothing is awarded twice."""
    today = utcnow().date().isoformat()
    maybe = candidates(answer, memo, today)
    if not maybe:
        return []
    with db.session.no_autoflush:
        held = set(db.session.scalars(sa.select(StickerAward.sticker_id).where(
            StickerAward.kid_id == kid_id, StickerAward.sticker_id.in_([m.id for m in MILESTONES]))))
    open_ids = maybe - held
    new = []
    for milestone_id in sorted(reached(kid_id, catalog, open_ids, answer)):
        try:
            with db.session.begin_nested():
                db.session.add(StickerAward(kid_id=kid_id, sticker_id=milestone_id))
        except sa.exc.IntegrityError:  # the same milestone from another tab at the same moment
            held.add(milestone_id)
            continue
        held.add(milestone_id)
        new.append(BY_ID[milestone_id])
    if "milestone-week" in maybe:
        memo["week_checked"] = today
    if sorted(held) != list(memo.get("milestones_held", ())):
        memo["milestones_held"] = sorted(held)
    return new


# ---------------------------------------------------------------------- games (the play pages)
def game_milestones(*, kind: str, kid_won: bool, level_slug: str | None, counted: bool) -> set[str]:
    """The play milestones a finished game reaches: a capture game the kid won, a win over a computer level
    (``level_slug``, None for a game with someone at home), a game counted to the end (whoever won)."""
    out = set()
    if kid_won and kind == "capture":
        out.add("milestone-capture-game")
    if kid_won and level_slug is not None and f"milestone-beat-{level_slug}" in BY_ID:
        out.add(f"milestone-beat-{level_slug}")
    if counted:
        out.add("milestone-counted-game")
    return out


def award_ids(kid_id: int, ids: set[str]) -> list[Milestone]:
    """Award the milestones ``ids`` the kid does not hold yet (each once: the unique constraint decides between
    two tabs); returns the new ones."""
    if not ids:
        return []
    with db.session.no_autoflush:
        held = set(db.session.scalars(sa.select(StickerAward.sticker_id).where(
            StickerAward.kid_id == kid_id, StickerAward.sticker_id.in_(sorted(ids)))))
    new = []
    for milestone_id in sorted(ids - held):
        try:
            with db.session.begin_nested():
                db.session.add(StickerAward(kid_id=kid_id, sticker_id=milestone_id))
        except sa.exc.IntegrityError:  # the same sticker from another tab at the same moment
            continue
        new.append(BY_ID[milestone_id])
    return new
