"""What teachers' and parents' pages share: who may see a kid, new kid accounts, progress summaries in a constant
number of queries, and a kid's whole data (export and delete). The parents who follow a kid are ``links``."""

from __future__ import annotations

import hashlib
import secrets
import threading
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import abort
from flask_login import current_user
from flask_babel import gettext as _

from teach.models import (AVATARS, PASSWORD_PICTURES, Assignment, Attempt, Group, LessonProgress, LinkInvitation,
                          Membership, MissedCapture, ParentLink, PlayedGame, RankPlacement, StepShown, StickerAward,
                          TeacherLesson, TeacherLessonClass, User, utcnow)
from teach.web import milestones, timing
from teach.web.extensions import db

NAME_MAX = 40
BULK_MAX = 100  # kids added in one go (a list of 10,000 lines is refused whole, with a message)
PICTURE_COUNT = 3
NAME_PUNCTUATION = set(" -'.·")


# ---------------------------------------------------------------------- new kids
def name_problem(name: str) -> str | None:
    """Why a kid's first name cannot be used (letters of any script, spaces, - ' . ·), or None."""
    if len(name) > NAME_MAX:
        return _("“%(name)s” is too long (at most %(n)d letters).", name=name[:NAME_MAX] + "…", n=NAME_MAX)
    for ch in name:
        # digits too: two Bens in a class are "Ben 2" and "Ben 3" (a name is still never only pictures or signs)
        if ch in NAME_PUNCTUATION or unicodedata.category(ch)[0] in ("L", "M") or unicodedata.category(ch) == "Nd":
            continue
        return _("“%(name)s” may only have letters, not pictures or signs.", name=name)
    if not any(unicodedata.category(ch)[0] == "L" for ch in name):
        return _("“%(name)s” may only have letters, not pictures or signs.", name=name)
    return None


def parse_names(text: str, taken: set[str]) -> tuple[list[str], list[str]]:
    """Names from a pasted list, one per line (blank lines skipped), and every problem found (empty when all
    is well). ``taken``: names already in the group, compared without case, since kids find themselves by name."""
    lines = [" ".join(line.split()) for line in (text or "").splitlines()]
    names = [line for line in lines if line]
    if not names:
        return [], [_("Write the kids' first names, one on each line.")]
    if len(names) > BULK_MAX:
        return [], [_("That list has %(n)d names; add at most %(max)d kids at a time.", n=len(names), max=BULK_MAX)]
    problems = []
    seen: set[str] = set()
    for name in names:
        problem = name_problem(name)
        key = name.casefold()
        if problem:
            problems.append(problem)
        elif key in taken:
            problems.append(_("“%(name)s” is already in this group; add a letter to tell them apart.", name=name))
        elif key in seen:
            problems.append(_("“%(name)s” is in the list twice.", name=name))
        seen.add(key)
    return names, problems


def new_pictures() -> list[str]:
    return [secrets.choice(PASSWORD_PICTURES) for _ in range(PICTURE_COUNT)]


def hold(row_class, row_id: int) -> None:
    """Hold one row (a class, a family, a teacher) for the rest of this transaction: an UPDATE that changes nothing,
    which PostgreSQL answers with a row lock and SQLite with its write lock. A second request doing the same
    waits here until the first has committed, and then reads what it wrote — two "add Ben" sent at once check
    the name one after the other, not both before either writes."""
    db.session.execute(sa.update(row_class).where(row_class.id == row_id).values(id=row_class.id)
                       .execution_options(synchronize_session=False))


def new_kid(name: str, group: Group, avatars_taken: set[str]) -> tuple[User, list[str]]:
    """A kid account in ``group`` with an avatar no classmate has (while any is left) and a fresh picture password."""
    free = [a for a in AVATARS if a not in avatars_taken] or list(AVATARS)
    kid = User(role="kid", name=name, avatar=secrets.choice(free))
    avatars_taken.add(kid.avatar)
    pictures = new_pictures()
    kid.set_pictures(pictures)
    group.members.append(Membership(user=kid, role="kid"))
    return kid, pictures


# ---------------------------------------------------------------------- progress in constant queries
@dataclass
class Cell:
    """One kid on one lesson."""

    stars: int = 0
    finished: datetime | None = None
    attempts: int = 0
    failed: int = 0
    hints: int = 0
    seconds: float = 0.0
    started: bool = False
    last_try: datetime | None = None  # when the kid's latest try at this lesson began
    moved_on: bool = False  # the kid finished another lesson after that try (set by ``progress_grid``)

    @property
    def stuck(self) -> bool:
        """Three wrong tries or more, still not finished, and no lesson finished since the last of them: a child
        who went on and finished other lessons is not stuck here (a teacher's list of who needs help kept names
        from weeks ago)."""
        return self.finished is None and self.failed >= 3 and not self.moved_on


@dataclass
class Grid:
    cells: dict[tuple[int, str], Cell] = field(default_factory=dict)
    time: timing.TimeOnTask = field(default_factory=timing.TimeOnTask)

    def get(self, kid_id: int, lesson_id: str) -> Cell:
        return self.cells.get((kid_id, lesson_id)) or Cell()


def progress_grid(kid_ids, lesson_ids=None) -> Grid:
    """Stars, attempts, wrong tries, hints and time for kids × lessons: two queries whatever the size.
    ``kid_ids`` may be a list or a subquery; ``lesson_ids`` None means every lesson."""
    grid = Grid()
    progress = sa.select(LessonProgress.kid_id, LessonProgress.lesson_id, LessonProgress.stars,
                         LessonProgress.finished_at, LessonProgress.hints).where(LessonProgress.kid_id.in_(kid_ids))
    attempts = (sa.select(Attempt.kid_id, Attempt.lesson_id, sa.func.count(),
                          sa.func.sum(sa.case((Attempt.result == "failed", 1), else_=0)), sa.func.max(Attempt.started_at))
                .where(Attempt.kid_id.in_(kid_ids)).group_by(Attempt.kid_id, Attempt.lesson_id))
    if lesson_ids is not None:
        progress = progress.where(LessonProgress.lesson_id.in_(lesson_ids))
        attempts = attempts.where(Attempt.lesson_id.in_(lesson_ids))
    for kid_id, lesson_id, stars, finished, hints in db.session.execute(progress):
        grid.cells[(kid_id, lesson_id)] = Cell(stars=stars or 0, finished=finished, hints=hints or 0, started=True)
    for kid_id, lesson_id, count, failed, last_try in db.session.execute(attempts):
        cell = grid.cells.setdefault((kid_id, lesson_id), Cell(started=True))
        cell.attempts, cell.failed, cell.last_try = count, int(failed or 0), last_try
    latest: dict[int, datetime] = {}  # each kid's latest finished lesson (of those read)
    for (kid_id, _lesson), cell in grid.cells.items():
        if cell.finished is not None and (kid_id not in latest or cell.finished > latest[kid_id]):
            latest[kid_id] = cell.finished
    for (kid_id, _lesson), cell in grid.cells.items():
        cell.moved_on = cell.last_try is not None and kid_id in latest and latest[kid_id] > cell.last_try
    grid.time = timing.time_on_task(kid_ids)  # the one measure of time, shared with the parents' pages
    for (kid_id, lesson_id), cell in grid.cells.items():
        cell.seconds = grid.time.lesson(kid_id, lesson_id)
    return grid


def own_group_or_404(group_id: int, kind: str, role: str) -> Group:
    """A class (``kind`` class, ``role`` teacher) or family (family, parent) the signed-in adult belongs to; any
    other id is a 404, so ids of other people's groups reveal nothing."""
    group = db.session.scalar(sa.select(Group).join(Membership).where(
        Group.id == group_id, Group.kind == kind, Membership.user_id == current_user.id, Membership.role == role))
    if group is None:
        abort(404)
    return group


def class_kids(group_id: int, archived: bool = False) -> list[User]:
    """The kids of a class or a family (the archived ones with ``archived``), in one query."""
    rows = db.session.scalars(sa.select(User).join(Membership).where(
        Membership.group_id == group_id, Membership.role == "kid", User.archived.is_(archived))
        .order_by(User.name, User.id))
    return list(rows)


def kid_ids_of(group_id: int):
    return sa.select(Membership.user_id).where(Membership.group_id == group_id, Membership.role == "kid")


def assignments_for(kid: User) -> list[Assignment]:
    rows = db.session.scalars(sa.select(Assignment).join(Membership, Membership.group_id == Assignment.group_id)
                              .where(Membership.user_id == kid.id, Membership.role == "kid")
                              .order_by(Assignment.due_on))
    return [a for a in rows if a.for_kid(kid.id)]


def weak_topics(kid: User, catalog) -> list[tuple[object, int, int]]:
    """Topics where at least half of this kid's tries were wrong: (topic, wrong, tries), worst first."""
    rows = db.session.execute(sa.select(Attempt.lesson_id, sa.func.count(),
                                        sa.func.sum(sa.case((Attempt.result == "failed", 1), else_=0)))
                              .where(Attempt.kid_id == kid.id).group_by(Attempt.lesson_id))
    by_topic: dict[str, list[int]] = {}
    for lesson_id, tries, failed in rows:
        lesson = catalog.lessons.get(lesson_id)
        if lesson is not None:
            t = by_topic.setdefault(lesson.topic, [0, 0])
            t[0] += int(failed or 0)
            t[1] += tries
    weak = [(catalog.topic(t), w, n) for t, (w, n) in by_topic.items() if n and w * 2 >= n and catalog.topic(t)]
    return sorted(weak, key=lambda x: (-x[1] / x[2], x[0].id))


def timeline(kid: User, catalog) -> list[dict]:
    """Lessons finished and stickers won, newest first."""
    items = []
    own = None  # the class's own lessons, looked up once a finished lesson is not the map's
    for p in db.session.scalars(sa.select(LessonProgress).where(LessonProgress.kid_id == kid.id,
                                                                LessonProgress.finished_at.is_not(None))):
        lesson = catalog.lessons.get(p.lesson_id)
        if lesson is None:
            own = {l.id: l for l in class_lessons(kid.id)} if own is None else own
            lesson = own.get(p.lesson_id)
        items.append({"when": p.finished_at, "kind": "lesson", "lesson": lesson, "lesson_id": p.lesson_id,
                      "stars": p.stars})
    sticker = sticker_lookup(kid.id, catalog)
    for s in db.session.scalars(sa.select(StickerAward).where(StickerAward.kid_id == kid.id)):
        items.append({"when": s.awarded_at, "kind": "sticker", "sticker": sticker(s.sticker_id)})
    return sorted(items, key=lambda i: i["when"], reverse=True)


def next_to_practise(kid: User, lessons, grid: Grid, placed: str | None = None):
    """The first lesson on the map this kid has not finished, as the kid's own map offers it: past the lessons the
    placement test opened (``placed``: the topic it placed the kid at) that the kid never started, unless nothing
    is left after them (a child who already plays is not sent back to the board's first lesson)."""
    through = max((i for i, l in enumerate(lessons) if l.topic == placed), default=-1) if placed else -1
    left = [(i, l) for i, l in enumerate(lessons) if grid.get(kid.id, l.id).finished is None]
    return next((l for i, l in left if i > through or grid.get(kid.id, l.id).started),
                left[0][1] if left else None)


def this_week(kid: User, grid: Grid, catalog, now: datetime | None = None) -> list:
    """The lessons this kid finished in the last seven days: the map's and the class's own."""
    since = (now or utcnow()) - timedelta(days=7)
    ids = [lid for (kid_id, lid), c in grid.cells.items() if kid_id == kid.id and c.finished and c.finished >= since]
    known = catalog.lessons if all(lid in catalog.lessons for lid in ids) else lessons_for(kid.id)
    return [known[lid] for lid in ids if lid in known]


# ---------------------------------------------------------------------- a kid's whole data
def kid_export(kid: User) -> dict:
    def when(t):
        return t.isoformat() if t else None

    groups = db.session.scalars(sa.select(Group).join(Membership).where(Membership.user_id == kid.id)).all()
    return {
        "kid": {"id": kid.id, "name": kid.name, "avatar": kid.avatar, "created_at": when(kid.created_at),
                "archived": kid.archived, "locale": kid.locale},
        "groups": [{"kind": g.kind, "name": g.name} for g in groups],
        "lessons": [{"lesson": p.lesson_id, "stars": p.stars, "step": p.step, "mistakes": p.mistakes,
                     "hints": p.hints, "finished_at": when(p.finished_at), "updated_at": when(p.updated_at)}
                    for p in db.session.scalars(sa.select(LessonProgress).where(LessonProgress.kid_id == kid.id)
                                                .order_by(LessonProgress.id))],
        "attempts": [{"lesson": a.lesson_id, "step": a.step, "moves": a.moves, "result": a.result,
                      "hints": a.hints, "started_at": when(a.started_at), "finished_at": when(a.finished_at)}
                     for a in db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid.id)
                                                 .order_by(Attempt.id))],
        "steps_shown": [{"lesson": v.lesson_id, "step": v.step, "shown_at": when(v.shown_at)}
                        for v in db.session.scalars(sa.select(StepShown).where(StepShown.kid_id == kid.id)
                                                    .order_by(StepShown.id))],
        "stickers": [{"sticker": s.sticker_id, "awarded_at": when(s.awarded_at)}
                     for s in db.session.scalars(sa.select(StickerAward).where(StickerAward.kid_id == kid.id)
                                                 .order_by(StickerAward.id))],
        "games": [{"kind": r.kind, "size": r.size, "komi": r.komi, "handicap": r.handicap,
                   "capture_goal": r.capture_goal, "color": r.kid_color, "opponent": r.opponent, "level": r.level,
                   "friend": r.friend_name, "classmate": r.friend_id is not None, "moves": r.moves,
                   "state": r.state, "dead": r.dead, "result": r.result,
                   "created_at": when(r.created_at), "finished_at": when(r.finished_at)}
                  for r in db.session.scalars(sa.select(PlayedGame).where(PlayedGame.kid_id == kid.id)
                                              .order_by(PlayedGame.id))],
        "placement": [{"points": r.points, "answers": r.answers, "taken_at": when(r.taken_at)}
                      for r in db.session.scalars(sa.select(RankPlacement).where(RankPlacement.kid_id == kid.id))],
        "missed_captures": [{"kind": m.kind, "move_number": m.move_number, "goal": m.goal, "target": m.target,
                             "played": m.played, "answers": m.answers, "status": m.status,
                             "solved_at": when(m.solved_at)}
                            for m in db.session.scalars(sa.select(MissedCapture)
                                                        .where(MissedCapture.kid_id == kid.id)
                                                        .order_by(MissedCapture.id))],
    }


def delete_kid(kid: User) -> None:
    """Remove the kid and every row about them (explicitly: SQLite does not cascade without a pragma)."""
    for model, column in ((RankPlacement, RankPlacement.kid_id),
                          (MissedCapture, MissedCapture.kid_id), (PlayedGame, PlayedGame.kid_id),
                          (Attempt, Attempt.kid_id), (StepShown, StepShown.kid_id),
                          (LessonProgress, LessonProgress.kid_id),
                          (StickerAward, StickerAward.kid_id), (ParentLink, ParentLink.kid_id),
                          (LinkInvitation, LinkInvitation.kid_id),
                          (Membership, Membership.user_id)):
        db.session.execute(sa.delete(model).where(column == kid.id))
    db.session.execute(sa.delete(User).where(User.id == kid.id))


# ---------------------------------------------------------------------- teachers' own lessons
_typed: dict[str, object] = {}  # source digest -> typed lesson, so each puzzle keeps one judge and its cache
_typed_lock = threading.Lock()
TYPED_MAX = 512


def typed_lesson(stored: TeacherLesson):
    """A stored lesson file read back into a typed lesson (it passed the checker when it was saved), each puzzle
    given the whole proof made with it, so kids' moves are answered with lookups."""
    from teach.lessons import check_text

    key = hashlib.sha256(f"{stored.lesson_id}\n{bool(stored.proofs)}\n{stored.source}".encode()).hexdigest()
    found = _typed.get(key)
    if found is None:
        found, _errors, _count = check_text(stored.source, f"{stored.lesson_id}.yaml", prove=False)
        if found is not None and stored.proofs:
            _attach(found, stored.proofs)
        with _typed_lock:
            if len(_typed) >= TYPED_MAX:
                _typed.clear()
            _typed[key] = found
    return found


def _attach(lesson, proofs: dict) -> None:
    """Give each puzzle its stored proof; one whose key is not there (proven by an older reader) is read live."""
    from teach.go.proof import Proof
    from teach.lessons.proofstore import key_of

    for step in lesson.puzzles:
        key = key_of(step)
        entry = proofs.get(key)
        if isinstance(entry, dict):
            try:
                step.__dict__["proof"] = Proof.from_json(key, entry)
            except (KeyError, TypeError, ValueError):
                continue


def class_lessons(kid_id: int) -> list:
    """The lessons the teachers of this kid's classes published to one of them, typed, oldest first (one query)."""
    classes = sa.select(Membership.group_id).where(Membership.user_id == kid_id, Membership.role == "kid")
    return list(_published(classes).values())


def sticker_lookup(kid_id: int, catalog):
    """A sticker by its id for this kid's pages: the map's and the milestones', then the stickers of the class's own
    lessons (looked up once, the first time an id is none of the map's)."""
    own: dict | None = None

    def find(sticker_id: str):
        nonlocal own
        found = milestones.sticker_for(sticker_id, catalog)
        if found is milestones.UNKNOWN_STICKER:
            if own is None:
                own = {l.sticker.id: l.sticker for l in class_lessons(kid_id)}
            found = own.get(sticker_id, found)
        return found

    return find


def lessons_for(kid_id: int) -> dict[str, object]:
    """Every lesson this kid can be given, by id: the map's and the class's own (what homework may name)."""
    from teach.web import content

    return {**{l.id: l for l in class_lessons(kid_id)}, **content.catalog().lessons}


def group_lessons(group_id: int) -> dict[str, object]:
    """The teachers' own lessons this class's kids see (published to it by a teacher of it), typed, by lesson id,
    oldest first (one query): what a teacher may give the class as homework."""
    return _published(sa.select(sa.literal(group_id)))


def _published(classes) -> dict[str, object]:
    """The lessons the teachers of ``classes`` (a select of class ids) published to one of them, by id."""
    teachers = sa.select(Membership.user_id).where(Membership.group_id.in_(classes), Membership.role == "teacher")
    published = sa.select(TeacherLessonClass.lesson_pk).where(TeacherLessonClass.group_id.in_(classes))
    rows = db.session.scalars(sa.select(TeacherLesson).where(TeacherLesson.owner_id.in_(teachers),
                                                             TeacherLesson.published_at.is_not(None),
                                                             TeacherLesson.id.in_(published))
                              .order_by(TeacherLesson.created_at, TeacherLesson.id))
    lessons: dict[str, object] = {}
    for row in rows:
        lesson = typed_lesson(row)
        if lesson is not None:
            lessons.setdefault(lesson.id, lesson)
    return lessons


def class_lesson(kid_id: int, lesson_id: str):
    return next((l for l in class_lessons(kid_id) if l.id == lesson_id), None)
