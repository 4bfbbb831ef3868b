"""Milestone stickers: the first capture, the first ladder, five lessons, a week of practice...

They are checked after every right answer, with a handful of queries, and awarded exactly once (the same unique
constraint as lesson stickers).
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from teach.models import Attempt, LessonProgress, StickerAward
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
    Milestone("milestone-first-capture", "cheese", "第一次提子", "First capture"),
    Milestone("milestone-first-lesson", "medal", "学完第一课", "First lesson done"),
    Milestone("milestone-first-ladder", "ladder", "第一次征子", "First ladder"),
    Milestone("milestone-five-lessons", "trophy", "学完五课", "Five lessons done"),
    Milestone("milestone-ten-practice", "rocket", "练习十题", "Ten practice puzzles"),
    Milestone("milestone-week", "rainbow", "练了七天", "A week of practice"),
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


def reached(kid_id: int, catalog) -> set[str]:
    """The milestones this kid has reached, from what is stored (so they are never awarded by mistake)."""
    done = set(db.session.scalars(sa.select(LessonProgress.lesson_id).where(
        LessonProgress.kid_id == kid_id, LessonProgress.finished_at.is_not(None))))
    solved = db.session.execute(sa.select(Attempt.lesson_id, Attempt.step).where(
        Attempt.kid_id == kid_id, Attempt.result == "solved")).all()
    days = db.session.scalar(sa.select(sa.func.count(sa.distinct(sa.func.date(Attempt.started_at))))
                             .where(Attempt.kid_id == kid_id)) or 0
    out = set()
    lessons = catalog.lessons
    for lesson_id, step in solved:
        if lesson_id.startswith("practice:capture") or _is_capture(lessons.get(lesson_id), step):
            out.add("milestone-first-capture")
            break
    if done:
        out.add("milestone-first-lesson")
    if any(lessons.get(i) is not None and lessons[i].topic == "ladder" for i in done):
        out.add("milestone-first-ladder")
    if len(done) >= 5:
        out.add("milestone-five-lessons")
    if sum(1 for lesson_id, _ in solved if lesson_id.startswith("practice:")) >= 10:
        out.add("milestone-ten-practice")
    if days >= 7:
        out.add("milestone-week")
    return out


def _is_capture(lesson, step: int) -> bool:
    if lesson is None or not 0 <= step < len(lesson.steps):
        return False
    return getattr(lesson.steps[step], "goal", None) == "capture"


def award(kid_id: int, catalog) -> list[Milestone]:
    """Award every milestone reached and not yet held; returns the new ones."""
    held = set(db.session.scalars(sa.select(StickerAward.sticker_id).where(
        StickerAward.kid_id == kid_id, StickerAward.sticker_id.in_([m.id for m in MILESTONES]))))
    new = []
    for milestone_id in sorted(reached(kid_id, catalog) - held):
        try:
            with db.session.begin_nested():
                db.session.add(StickerAward(kid_id=kid_id, sticker_id=milestone_id))
        except sa.exc.IntegrityError:  # the same milestone from another tab at the same moment
            continue
        new.append(BY_ID[milestone_id])
    return new
