"""The kid's rank (级位), from 25级 up to 1级, climbed with rank points earned in lessons, practice and games.

Chinese parents judge progress by 级 and 段, so the map and the parent's page show one. Rank points:

- a lesson finished: 10, and 2 more for each star of its best run (up to 16);
- a practice puzzle solved: its level (1, 2 or 3), once per puzzle of a set (solving it again adds nothing);
- a game against the computer played to the end: 3, and 3 more when the kid won (games with a friend at the
  same tablet do not count: nobody can tell who played);
- the placement test, taken once before the first lesson is finished, for a child who already knows some Go: up
  to ``PLACEMENT_MAX`` points.

Going from 25级 to 24级 takes 10 points, and each rank after that 5 more than the one before (24级 → 23级: 15,
…, 2级 → 1级: 125), 1,620 points in all. Everything is counted from the rows already kept (progress, attempts,
games), so a rank is never out of step with what the child did; two queries, whatever the history.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime

import sqlalchemy as sa
from flask import Blueprint, abort, g, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.lessons.practice import PracticeKey
from teach.models import Attempt, LessonProgress, PlayedGame, RankPlacement
from teach.web.access import kid_required
from teach.web.extensions import db

LOWEST, HIGHEST = 25, 1  # 25级 … 1级
LESSON_POINTS, STAR_POINTS = 10, 2
GAME_POINTS, WIN_POINTS = 3, 3
FIRST_STEP, STEP_GROWTH = 10, 5


def _thresholds() -> list[int]:
    """Points needed for each rank, 25级 first."""
    needed, total = [0], 0
    for i in range(LOWEST - HIGHEST):
        total += FIRST_STEP + STEP_GROWTH * i
        needed.append(total)
    return needed


THRESHOLDS = _thresholds()


@dataclass(frozen=True)
class Rank:
    kyu: int  # 25 … 1
    points: int
    floor: int  # the points this rank starts at
    next_at: int | None  # the points of the next rank (None at 1级)

    @property
    def to_next(self) -> int:
        return 0 if self.next_at is None else self.next_at - self.points

    @property
    def percent(self) -> int:
        """How far to the next rank, 0–100 (100 at the top)."""
        if self.next_at is None:
            return 100
        return int(100 * (self.points - self.floor) / (self.next_at - self.floor))

    def name(self) -> str:
        return _("%(n)d kyu", n=self.kyu)


def rank_for_points(points: int) -> Rank:
    points = max(0, int(points))
    index = max(i for i, need in enumerate(THRESHOLDS) if points >= need)
    next_at = THRESHOLDS[index + 1] if index + 1 < len(THRESHOLDS) else None
    return Rank(kyu=LOWEST - index, points=points, floor=THRESHOLDS[index], next_at=next_at)


@dataclass
class Record:
    """What rank and the daily goal are counted from, read in one query (``record``)."""

    solved: list[tuple[str, int, datetime]]  # solved attempts: practice ones of all time, the others since ``since``
    games: list[tuple[datetime, bool]]  # games against the computer played to the end, and whether the kid won
    placement: int | None  # the placement test's points (None: not taken)
    placed_through: str | None = None  # the topic the placement test opens the map up to (``placed_topic``)
    # practice only: the attempt id of each entry of ``solved`` (None for the others), and the ids of the tries
    # on which the kid watched the answer ("show me" keeps it as ``Attempt.hints`` on the latest try)
    solved_ids: list[int | None] = field(default_factory=list)
    shown_ids: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def add_solved(self, key: str, step: int, at: datetime | None, attempt_id: int | None = None) -> None:
        self.solved.append((key, step, at))
        self.solved_ids.append(attempt_id)

    def add_shown(self, key: str, step: int, attempt_id: int) -> None:
        self.shown_ids.setdefault((key, step), []).append(attempt_id)

    def take(self, kind: str, key: str, step: int, at: datetime, value) -> None:
        """One row of the record's query: a solved attempt ("a", ``value`` its id), a try with the answer shown
        ("s", a practice one: ``value`` its id), a game ("g") or the placement ("p", its answers as JSON text in
        ``key``)."""
        if kind == "a":
            self.add_solved(key, step, at, int(value))
        elif kind == "s":
            self.add_shown(key, step, int(value))
        elif kind == "g":
            self.games.append((at, bool(value)))
        else:
            self.placement = int(value)
            try:
                answers = json.loads(key) if key else []
            except ValueError:
                answers = []
            self.placed_through = placed_topic(answers if isinstance(answers, list) else [])

    def practice_points(self) -> int:
        """Each practice puzzle solved counts once, by its level — not a solve that copied a watched answer (the
        answer shown since the kid last solved that puzzle): the summary says "try it again another day"."""
        ids = self.solved_ids + [None] * (len(self.solved) - len(self.solved_ids))  # None: no id known
        last_solve: dict[tuple[str, int], int] = {}
        seen: set[tuple[str, int]] = set()
        points = 0
        for i in sorted(range(len(self.solved)), key=lambda i: (ids[i] or 0, i)):
            key, step, _when = self.solved[i]
            attempt_id = ids[i]
            if not key.startswith(PracticeKey.PREFIX):
                continue
            if attempt_id is not None:
                since = last_solve.get((key, step), 0)
                last_solve[(key, step)] = attempt_id
                if any(since < s <= attempt_id for s in self.shown_ids.get((key, step), ())):
                    continue
            if (key, step) in seen:
                continue
            seen.add((key, step))
            parsed = PracticeKey.parse(key)
            points += parsed.level if parsed is not None else 0
        return points


def record(kid_id: int, since: datetime) -> Record:
    """One UNION ALL over the kid's solved attempts (practice ones of all time, the rest since ``since``), finished
    games and placement: the map and the parent's page each read rank, goal and streak with one statement."""
    attempts = sa.select(sa.literal("a").label("kind"), Attempt.lesson_id.label("key"), Attempt.step.label("step"),
                         Attempt.finished_at.label("at"), Attempt.id.label("value")).where(
        Attempt.kid_id == kid_id, Attempt.result == "solved", Attempt.finished_at.is_not(None),
        sa.or_(Attempt.lesson_id.like(PracticeKey.PREFIX + "%"), Attempt.finished_at >= since))
    shown = sa.select(sa.literal("s"), Attempt.lesson_id, Attempt.step, Attempt.started_at, Attempt.id).where(
        Attempt.kid_id == kid_id, Attempt.hints > 0, Attempt.lesson_id.like(PracticeKey.PREFIX + "%"))
    games = sa.select(sa.literal("g"), sa.literal(""), sa.literal(0), PlayedGame.finished_at,
                      sa.case((PlayedGame.winner == PlayedGame.kid_color, 1), else_=0)).where(
        PlayedGame.kid_id == kid_id, PlayedGame.state == "finished", PlayedGame.opponent != "friend",
        PlayedGame.finished_at.is_not(None))
    placed = sa.select(sa.literal("p"), sa.cast(RankPlacement.answers, sa.String), sa.literal(0),
                       RankPlacement.taken_at, RankPlacement.points).where(RankPlacement.kid_id == kid_id)
    found = Record(solved=[], games=[], placement=None)
    for row in db.session.execute(sa.union_all(attempts, shown, games, placed)):
        found.take(*row)
    return found


def class_records(kid_ids) -> dict[int, Record]:
    """Each kid's ``Record`` for the rank only (practice puzzles solved and answers watched, games against the
    computer, placement tests; no daily goal), for a whole class in one UNION ALL."""
    practice = Attempt.lesson_id.like(PracticeKey.PREFIX + "%")
    solved = sa.select(sa.literal("a"), Attempt.kid_id, Attempt.lesson_id, Attempt.step, Attempt.finished_at,
                       Attempt.id).where(Attempt.kid_id.in_(kid_ids), Attempt.result == "solved",
                                         Attempt.finished_at.is_not(None), practice)
    shown = sa.select(sa.literal("s"), Attempt.kid_id, Attempt.lesson_id, Attempt.step, Attempt.started_at,
                      Attempt.id).where(Attempt.kid_id.in_(kid_ids), Attempt.hints > 0, practice)
    played = sa.select(sa.literal("g"), PlayedGame.kid_id, sa.literal(""), sa.literal(0), PlayedGame.finished_at,
                       sa.case((PlayedGame.winner == PlayedGame.kid_color, 1), else_=0)).where(
        PlayedGame.kid_id.in_(kid_ids), PlayedGame.state == "finished", PlayedGame.opponent != "friend",
        PlayedGame.finished_at.is_not(None))
    placed = sa.select(sa.literal("p"), RankPlacement.kid_id, sa.literal(""), sa.literal(0), RankPlacement.taken_at,
                       RankPlacement.points).where(RankPlacement.kid_id.in_(kid_ids))
    records = {k: Record(solved=[], games=[], placement=None) for k in kid_ids}
    for kind, kid_id, key, step, at, value in db.session.execute(sa.union_all(solved, shown, played, placed)):
        if kid_id in records:
            records[kid_id].take(kind, key, step, at, value)
    return records


def rank_points(finished: list[tuple[str, int]], rec: Record) -> int:
    """The kid's rank points (see the module docstring): ``finished`` is (lesson id, stars) of finished lessons."""
    points = sum(LESSON_POINTS + STAR_POINTS * min(3, max(0, stars or 0)) for _lesson, stars in finished)
    points += rec.practice_points()
    points += sum(GAME_POINTS + (WIN_POINTS if won else 0) for _at, won in rec.games)
    return points + (rec.placement or 0)


def finished_lessons(kid_id: int) -> list[tuple[str, int]]:
    return [tuple(r) for r in db.session.execute(sa.select(LessonProgress.lesson_id, LessonProgress.stars).where(
        LessonProgress.kid_id == kid_id, LessonProgress.finished_at.is_not(None)))]


def rank_of(kid_id: int) -> Rank:
    """The rank of a kid, read on its own (the placement page; the map reads it with the daily goal)."""
    from teach.web.daily import record_since

    return rank_for_points(rank_points(finished_lessons(kid_id), record(kid_id, record_since())))


# ---------------------------------------------------------------------- the placement test
# Six practice puzzles, easier to harder, the same for every child (fixed seeds); each one answered right on the
# first try is worth its points. All right is 300 points: 16级, a fair start for a child who plays already.
PLACEMENT = (("capture", 1, 11, 20), ("escape", 1, 12, 30), ("capture", 2, 13, 40), ("escape", 2, 14, 50),
             ("ladder", 2, 15, 70), ("net", 2, 16, 90))
PLACEMENT_KEY = "placement"
PLACEMENT_MAX = sum(p[3] for p in PLACEMENT)


def placed_topic(answers: list, topics: list[str] | None = None) -> str | None:
    """The topic the placement test opens the lesson map up to: the hardest topic (latest in ``topics``, the
    map's order; the catalogue's by default) among the test's puzzles answered right at the first try one after
    another from the first (a drill is named after its topic: capture, escape, ladder, net). A child who already
    plays starts there, not at the board; None when the first was missed."""
    if topics is None:
        from teach.web import content

        topics = [t.id for t in content.catalog().topics]
    order = {topic: i for i, topic in enumerate(topics)}
    right = {a.get("puzzle"): bool(a.get("right")) for a in answers if isinstance(a, dict)}
    through = None
    for index, (drill, _level, _seed, _points) in enumerate(PLACEMENT):
        if not right.get(index):
            break
        if drill in order and (through is None or order[drill] > order[through]):
            through = drill
    return through

def placed_of(kid_id: int) -> str | None:
    """The topic this kid's placement test opened the map up to (None: not taken, or the first puzzle missed)."""
    answers = db.session.scalar(sa.select(RankPlacement.answers).where(RankPlacement.kid_id == kid_id))
    return placed_topic(answers or [])


bp = Blueprint("placement", __name__, url_prefix="/placement")


@lru_cache(maxsize=len(PLACEMENT))
def placement_puzzle(index: int):
    """The placement test's puzzle ``index`` (a typed step, generated once per process: one puzzle, not a set)."""
    from teach.lessons.practice import generate
    from teach.lessons.step import build_step

    drill, level, seed, _points = PLACEMENT[index]
    for raw in generate(drill, level, seed, count=1, size=9):
        built, errors = build_step(raw, 9, prove=False)
        if built is not None and not errors and built.kind == "puzzle":
            return built
    raise LookupError(f"placement puzzle {index} could not be made")


def _taken() -> RankPlacement | None:
    return db.session.scalar(sa.select(RankPlacement).where(RankPlacement.kid_id == current_user.id))


def _closed() -> bool:
    """The test is for a start: taken once, and only before the first lesson is finished (after it, the rank is
    climbed the ordinary way, and the test's points would only be added on top)."""
    if _taken() is not None:
        return True
    return db.session.scalar(sa.select(LessonProgress.id).where(
        LessonProgress.kid_id == current_user.id, LessonProgress.finished_at.is_not(None)).limit(1)) is not None


@bp.get("/")
@kid_required
def intro():
    if _closed():
        return redirect(url_for("kid.lesson_map"))
    return render_template("kid/placement.html", count=len(PLACEMENT))


@bp.get("/<int:index>")
@kid_required
def step(index: int):
    from teach.web.board import render_board

    if not 0 <= index < len(PLACEMENT):
        abort(404)
    if _closed():
        return redirect(url_for("kid.lesson_map"))
    s = placement_puzzle(index)
    board = render_board(s.start().board_rows(), lang=g.lang, marks=s.marks, labels=s.position.label_points,
                         playable=True)
    urls = {"move": url_for("placement.move", index=index), "answer": "",
            "hint": url_for("placement.hint", index=index)}
    return render_template("kid/step.html", lesson=None, step=s, kind="puzzle", board=board, urls=urls, frames=[],
                           index=index, total=len(PLACEMENT), level=index + 1, picture="🎯",
                           placement_next=_after(index))


def _after(index: int) -> str:
    return url_for("placement.step", index=index + 1) if index + 1 < len(PLACEMENT) else url_for("placement.done")


@bp.post("/<int:index>/move")
@kid_required
def move(index: int):
    from teach.web.moves import json_body, judge_move, refused

    if not 0 <= index < len(PLACEMENT):
        abort(404)
    if _closed():
        return refused()
    s = placement_puzzle(index)
    return judge_move(s, s.judge(), PLACEMENT_KEY, index, json_body(), lambda: {"next": _after(index)})


@bp.post("/<int:index>/hint")
@kid_required
def hint(index: int):
    from flask import jsonify

    if not 0 <= index < len(PLACEMENT):
        abort(404)
    return jsonify(hint=_("Take your time. If you do not know, tap “Next”."))


@bp.get("/done")
@kid_required
def done():
    """Score the test once: a puzzle counts when the kid's first finished try at it was right."""
    placed = _taken()
    if placed is None and _closed():
        return redirect(url_for("kid.lesson_map"))
    if placed is None:
        tries = db.session.execute(
            sa.select(Attempt.step, Attempt.result).where(
                Attempt.kid_id == current_user.id, Attempt.lesson_id == PLACEMENT_KEY,
                Attempt.result.in_(("solved", "failed"))).order_by(Attempt.id)).all()
        first: dict[int, bool] = {}
        for index, result in tries:
            first.setdefault(index, result == "solved")
        answers = [{"puzzle": i, "right": first.get(i, False)} for i in range(len(PLACEMENT))]
        points = sum(PLACEMENT[a["puzzle"]][3] for a in answers if a["right"])
        placed = RankPlacement(kid_id=current_user.id, points=points, answers=answers)
        try:
            with db.session.begin_nested():
                db.session.add(placed)
        except sa.exc.IntegrityError:  # the other tab scored it first
            placed = _taken()
        db.session.commit()
    right = sum(1 for a in placed.answers if a["right"])
    from teach.web import content

    through = placed_topic(placed.answers or [])
    return render_template("kid/placement_done.html", right=right, count=len(PLACEMENT),
                           rank=rank_of(current_user.id),
                           opened=content.catalog().topic(through) if through else None)
