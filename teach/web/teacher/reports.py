"""What a class is doing: the dashboard (kids × assigned lessons, who is stuck or late, practice sets), the
mistake map of one puzzle or quiz, a kid's progress and the replay of an attempt, and a CSV of the class's progress.

Each page runs a fixed number of queries, whatever the size of the class."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import sqlalchemy as sa
from flask import Response, abort, g, render_template, request
from flask_babel import gettext as _
from flask_login import current_user

from teach.lessons.practice import drill_names
from teach.models import Assignment, Attempt, Group, PlayedGame, User, utcnow
from teach.web import classroom, content, games, links, messages, rank, timing
from teach.web.access import teacher_required
from teach.web.board import render_board, rows_after
from teach.web.extensions import db

from . import bp
from .scope import OwnTopic, class_kid_or_404, class_or_404, kid_lessons, puzzle_or_none


def _dashboard_data(group: Group) -> dict:
    """The whole class on the whole map: every kid × every lesson of the map (homework marked), each kid's
    lessons, stars, time on task (today, this week, in all) and games, who is stuck or late: a fixed number of
    queries whatever the size of the class or the map."""
    kids = classroom.class_kids(group.id)
    by_id = {k.id: k for k in kids}
    assignments = db.session.scalars(sa.select(Assignment).where(Assignment.group_id == group.id)
                                     .order_by(Assignment.due_on, Assignment.id)).all()
    cat = content.catalog()
    lessons = content.ordered_lessons()
    own = classroom.group_lessons(group.id)
    known = {**own, **cat.lessons}  # homework may be one of the class's own
    grid = classroom.progress_grid(classroom.kid_ids_of(group.id))
    due: dict[tuple[int, str], date] = {}
    for a in assignments:
        for k in (kids if a.kid_ids is None else [by_id[i] for i in a.kid_ids if i in by_id]):
            key = (k.id, a.lesson_id)
            due[key] = min(due.get(key, a.due_on), a.due_on)
    assigned = {lid for (_kid, lid) in due}
    today = date.today()
    class_day = timing.today()
    games = _games_played(group)
    ranks = _ranks(group, kids, grid)
    topics = [(t, [l for l in lessons if l.topic == t.id]) for t in cat.topics]
    topics = [(t, ls) for t, ls in topics if ls]
    map_topics = list(topics)  # the map's units: what "topics finished" counts
    map_lessons = list(lessons)
    if own:  # the class's own lessons, published to it, first: the teacher's own homework needs no scrolling
        topics.insert(0, (OwnTopic(_("Our own lessons")), list(own.values())))
        lessons = [*own.values(), *lessons]
    by_kid: dict[int, dict[str, classroom.Cell]] = {k.id: {} for k in kids}
    for (kid_id, lesson_id), cell in grid.cells.items():
        if kid_id in by_kid:
            by_kid[kid_id][lesson_id] = cell
    homework_of: dict[int, list[str]] = {k.id: [] for k in kids}
    for (kid_id, lesson_id) in due:
        if kid_id in homework_of and lesson_id in known:
            homework_of[kid_id].append(lesson_id)
    blank = classroom.Cell()
    rows, summary = [], []
    for k in kids:
        kid_id, mine = k.id, by_kid[k.id]
        cells = []
        for lesson in lessons:
            c, d = mine.get(lesson.id, blank), due.get((kid_id, lesson.id))
            late = d is not None and d < today and c.finished is None
            css = " ".join(name for name, on in (("done", c.finished), ("stuck", c.stuck), ("overdue", late),
                                                 ("not-assigned", d is None)) if on)
            # homework: "·" not started, "…" under way (tries beside it), its stars once finished
            mark = "★" * c.stars + "☆" * (3 - c.stars) if c.finished else ("…" if c.attempts else "·") if d else ""
            tries = f"{c.attempts}× {timing.minutes(c.seconds)}′" + (f" 💡{c.hints}" if c.hints else "") \
                if c.attempts else ""
            cells.append((css, mark, tries))
        rows.append((k, cells))
        on_map = [mine[l.id] for l in lessons if l.id in mine]
        finished = {lid for lid, c in mine.items() if c.finished}
        summary.append({
            "kid": k,
            # the map's lessons, as the column says; the class's own are counted apart ("own")
            "finished": sum(1 for l in map_lessons if l.id in finished),
            "own": (sum(1 for lid in own if lid in finished), len(own),
                    any(lid in mine and mine[lid].started for lid in own)),
            "stars": sum(c.stars for c in on_map),
            "homework_done": sum(1 for lid in homework_of[kid_id] if lid in finished),
            "homework": len(homework_of[kid_id]),
            "tries": sum(c.attempts for c in mine.values()),
            "today": grid.time.day(kid_id, class_day), "week": grid.time.week(kid_id, class_day),
            "total": grid.time.total(kid_id),
            **_topics_under_way(map_topics, mine, finished),
            "games": games.get(kid_id, (0, 0)), "game_time": grid.time.games(kid_id), "rank": ranks[kid_id],
        })
    overdue = sorted(((by_id[kid_id], known[lid], d) for (kid_id, lid), d in due.items()
                      if d < today and lid in known and grid.get(kid_id, lid).finished is None),
                     key=lambda x: (x[2], x[0].name))
    stuck = [(by_id[kid_id], known[lid], c) for (kid_id, lid), c in grid.cells.items()
             if c.stuck and kid_id in by_id and lid in known]
    stuck_at = _stuck_puzzles(stuck)
    stuck = [(k, l, c, stuck_at.get((k.id, l.id))) for k, l, c in stuck]
    started = {lid for (_kid, lid), c in grid.cells.items() if c.attempts}
    puzzles = {l.id: [i for i, s in enumerate(l.steps) if s.kind in MAPPED] if l.id in started else []
               for l in lessons}
    return {"kids": kids, "lessons": lessons, "map_lessons": map_lessons, "topics": topics, "rows": rows,
            "summary": summary,
            "overdue": overdue, "stuck": stuck, "assigned": assigned, "puzzles": puzzles,
            "practice": _practice_progress(group, kids, assignments), "minutes": timing.minutes}


def _stuck_puzzles(stuck: list) -> dict[tuple[int, str], int]:
    """(kid, lesson) -> the puzzle or quiz step of the kid's latest wrong try there, for the link from "stuck" to
    that step's mistake map (one query; the dashboard's grid, which holds the other links, is hidden on a phone)."""
    if not stuck:
        return {}
    pairs = {(k.id, l.id): l for k, l, _c in stuck}
    found: dict[tuple[int, str], int] = {}
    for kid_id, lesson_id, step in db.session.execute(sa.select(Attempt.kid_id, Attempt.lesson_id, Attempt.step).where(
            Attempt.kid_id.in_({k for k, _l in pairs}), Attempt.lesson_id.in_({l for _k, l in pairs}),
            Attempt.result == "failed").order_by(Attempt.id)):
        lesson = pairs.get((kid_id, lesson_id))
        if lesson is not None and 0 <= step < len(lesson.steps) and lesson.steps[step].kind in MAPPED:
            found[(kid_id, lesson_id)] = step
    return found


def _topics_under_way(topics, mine: dict, finished: set[str]) -> dict:
    """A kid's map by topic, as a teacher scans it: the topics under way (a lesson in them begun, not all of
    them finished) with lessons finished of all, and how many topics are finished. A row listing every topic of
    the map at 0/N says nothing a teacher can act on."""
    doing, done = [], 0
    for t, ls in topics:
        n = sum(1 for l in ls if l.id in finished)
        if n == len(ls):
            done += 1
        elif n or any(l.id in mine and mine[l.id].started for l in ls):
            doing.append((t, n, len(ls)))
    return {"topics_doing": doing, "topics_done": done, "topics_total": len(topics)}


def _games_played(group: Group) -> dict[int, tuple[int, int]]:
    """Games each kid of the class finished, and how many of them the kid won (one query)."""
    won = sa.func.sum(sa.case((PlayedGame.winner == PlayedGame.kid_color, 1), else_=0))
    return {kid_id: (int(n), int(w or 0)) for kid_id, n, w in db.session.execute(
        sa.select(PlayedGame.kid_id, sa.func.count(), won)
        .where(PlayedGame.kid_id.in_(classroom.kid_ids_of(group.id)), PlayedGame.state == "finished")
        .group_by(PlayedGame.kid_id))}


def _ranks(group: Group, kids: list[User], grid: classroom.Grid) -> dict[int, rank.Rank]:
    """Each kid's rank, counted as the kid's map counts it (``rank.rank_points`` over the same rows): finished
    lessons from the grid, and one query for the class's solved practice puzzles, games against the computer and
    placement tests."""
    records = rank.class_records([k.id for k in kids])
    finished: dict[int, list[tuple[str, int]]] = {k.id: [] for k in kids}
    for (kid_id, lesson_id), cell in grid.cells.items():
        if cell.finished and kid_id in finished:
            finished[kid_id].append((lesson_id, cell.stars))
    return {k.id: rank.rank_for_points(rank.rank_points(finished[k.id], records[k.id])) for k in kids}


def _practice_progress(group: Group, kids: list[User], assignments) -> list[dict]:
    """Each practice set given to the class, and how many of its puzzles each kid solved (one query)."""
    from teach.lessons.practice import SET_SIZE, drill_names

    sets = [a for a in assignments if a.is_practice]
    if not sets:
        return []
    solved: dict[tuple[int, str], int] = {}
    for kid_id, key, count in db.session.execute(
            sa.select(Attempt.kid_id, Attempt.lesson_id, sa.func.count(sa.distinct(Attempt.step)))
            .where(Attempt.kid_id.in_(classroom.kid_ids_of(group.id)),
                   Attempt.lesson_id.in_([a.lesson_id for a in sets]), Attempt.result == "solved")
            .group_by(Attempt.kid_id, Attempt.lesson_id)):
        solved[(kid_id, key)] = count
    today = date.today()
    names = drill_names(g.lang)
    return [{"assignment": a, "name": names[a.practice_topic], "total": SET_SIZE,
             "kids": [(k, solved.get((k.id, a.lesson_id), 0)) for k in kids if a.for_kid(k.id)],
             "late": a.due_on < today} for a in sets]


@bp.get("/classes/<int:class_id>/dashboard")
@teacher_required
def dashboard(class_id: int):
    group = class_or_404(class_id)
    return render_template("teacher/dashboard.html", group=group, **_dashboard_data(group))


@bp.get("/classes/<int:class_id>/progress.csv")
@teacher_required
def progress_csv(class_id: int):
    group = class_or_404(class_id)
    kids = classroom.class_kids(group.id)
    grid = classroom.progress_grid(classroom.kid_ids_of(group.id))
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["kid", "lesson", "title", "stars", "finished", "attempts", "wrong", "hints", "minutes"])
    for k in kids:
        for lesson in content.ordered_lessons():
            c = grid.get(k.id, lesson.id)
            if c.started:
                w.writerow([_cell(k.name), lesson.id, _cell(lesson.title.get(g.lang)), c.stars,
                            c.finished.date().isoformat() if c.finished else "", c.attempts, c.failed, c.hints,
                            timing.csv_minutes(c.seconds)])
    name = f"class-{group.id}-progress.csv"
    return Response("\ufeff" + out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


def _cell(text: str) -> str:
    """Spreadsheets run cells that start with = + - @ as formulas: a kid's name must stay a name."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


MAPPED = ("puzzle", "quiz")  # the steps with a mistake map
LETTERS = "abcdefghjkmnpqrstuvwxyz"  # a map's marks: small letters, as Go diagrams mark points (capitals name columns)


class _Tally:
    """Every kid who tried, counted once, by their first try: right at once, right after a wrong one, or not yet,
    so a kid listed under a wrong answer is never also counted as right at the first try."""

    def __init__(self) -> None:
        self.first_try: dict[int, bool] = {}
        self.found_later: set[int] = set()

    def add(self, kid_id: int, right: bool) -> None:
        if kid_id not in self.first_try:
            self.first_try[kid_id] = right
        elif right:
            self.found_later.add(kid_id)

    def counts(self) -> dict[str, int]:
        first, later = self.first_try, self.found_later
        return {"right_first": sum(first.values()), "right_later": len({k for k in later if not first[k]}),
                "not_yet": sum(1 for k, right in first.items() if not right and k not in later)}


def _first_entries(group: Group, lesson_id: str, step: int, *where):
    """(kid, the try's first entry, the try's result) of every try of this class's kids at the step, oldest
    first, whose first entry was judged: right, wrong, or (a puzzle of several moves) a right move the line went
    on from (a move the reader could not settle is no answer)."""
    rows = db.session.execute(sa.select(Attempt.kid_id, Attempt.moves, Attempt.result).where(
        Attempt.kid_id.in_(classroom.kid_ids_of(group.id)), Attempt.lesson_id == lesson_id, Attempt.step == step,
        *where).order_by(Attempt.id))
    return [(kid_id, moves[0], result) for kid_id, moves, result in rows
            if moves and isinstance(moves[0], dict) and moves[0].get("verdict") in ("correct", "wrong", "continue")]


def _names_of(kid_sets) -> dict[int, str]:
    ids = {k for kids in kid_sets for k in kids}
    return dict(db.session.execute(sa.select(User.id, User.name).where(User.id.in_(ids))).all()) if ids else {}


@bp.get("/classes/<int:class_id>/mistakes/<lesson_id>/<int:step>")
@teacher_required
def mistakes(class_id: int, lesson_id: str, step: int):
    """The wrong first moves this class played on one puzzle, how many kids played each, and the refutation; or
    the wrong answers given to one quiz (``_quiz_mistakes``)."""
    group = class_or_404(class_id)
    lesson = content.catalog().lessons.get(lesson_id) or classroom.group_lessons(group.id).get(lesson_id)
    found_step = puzzle_or_none(lesson_id, step, lesson, MAPPED) if lesson is not None else None
    if found_step is None:
        abort(404)
    if found_step.kind == "quiz":
        return _quiz_mistakes(group, lesson, step, found_step)
    puzzle = found_step
    plays: dict[str, set[int]] = {}
    counted = _Tally()
    for kid_id, first, result in _first_entries(group, lesson_id, step, Attempt.first_move.is_not(None)):
        # right: the try found the whole line (a puzzle of several moves is not found by its first move alone;
        # a try still going, or lost further down the line, is "not yet")
        counted.add(kid_id, result == "solved")
        if first["verdict"] == "wrong" and isinstance(first.get("move"), str):
            plays.setdefault(first["move"], set()).add(kid_id)
    tally = counted.counts()
    judge = content.judge_for(lesson_id, step) if lesson_id in content.catalog().lessons else puzzle.judge()
    start = puzzle.start()
    names = _names_of(plays.values())
    found = []
    for i, (move, kids) in enumerate(sorted(plays.items(), key=lambda x: (-len(x[1]), x[0]))):
        verdict = judge.judge([], move)
        label = LETTERS[i] if i < len(LETTERS) else "?"
        found.append({"move": move, "label": label, "kids": len(kids), "reply": verdict.reply,
                      "names": sorted(names.get(k, "?") for k in kids),
                      "why": messages.wrong(puzzle, verdict.reason, g.lang) if verdict.result == "wrong" else "",
                      # the kid's point carries its letter, as on the big board: a stone the reply took leaves
                      # the point empty, and the picture still shows where the kids played
                      "board": render_board(rows_after(start, [move] + ([verdict.reply]
                                                                                  if verdict.reply else [])),
                                            lang=g.lang, last=verdict.reply or move, labels={move: label},
                                            small_labels=True)})
    board = render_board(start.board_rows(), lang=g.lang, marks=puzzle.marks,
                         labels={m["move"]: m["label"] for m in found}, small_labels=True)
    return render_template("teacher/mistakes.html", group=group, lesson=lesson,
                           puzzle=puzzle, step=step, board=board, found=found, tally=tally)


TAPS = ("liberties", "forbidden", "tap", "atari")  # the quizzes answered by tapping points


def _quiz_mistakes(group: Group, lesson, step: int, quiz):
    """A quiz's mistake map: for a tap quiz, the points tapped that are not answers (lettered on the board) and
    the answers left out, each with the kids; for any other, each wrong answer given, in words, with the kids."""
    counted = _Tally()
    tapped: dict[str, set[int]] = {}  # a point tapped that is not an answer -> the kids who tapped it
    left_out: dict[str, set[int]] = {}  # an answer a wrong tap answer left out -> the kids
    given: dict[str, set[int]] = {}  # another quiz's wrong answer, in words -> the kids
    right_points = set(quiz.answers)
    for kid_id, first, _result in _first_entries(group, lesson.id, step):
        right = first["verdict"] == "correct"
        counted.add(kid_id, right)
        answer = first.get("answer")
        if right or not isinstance(answer, dict):
            continue
        if quiz.ask in TAPS:
            chosen = {p for p in answer.get("points") or () if isinstance(p, str)}
            for point in chosen - right_points:
                tapped.setdefault(point, set()).add(kid_id)
            if quiz.ask != "atari":  # one of the answers is enough there
                for point in right_points - chosen:
                    left_out.setdefault(point, set()).add(kid_id)
        else:
            words = _quiz_answer_words(quiz, answer)
            if words:
                given.setdefault(words, set()).add(kid_id)
    names = _names_of([*tapped.values(), *left_out.values(), *given.values()])

    def listed(found: dict[str, set[int]]) -> list[dict]:
        return [{"what": what, "kids": len(kids), "names": sorted(names.get(k, "?") for k in kids)}
                for what, kids in sorted(found.items(), key=lambda x: (-len(x[1]), x[0]))]

    wrong_taps = listed(tapped)
    for i, m in enumerate(wrong_taps):
        m["label"] = LETTERS[i] if i < len(LETTERS) else "?"
    board = None
    if quiz.position is not None:
        board = render_board(quiz.position.game(quiz.to_play).board_rows(), lang=g.lang, marks=quiz.marks,
                             labels={m["what"]: m["label"] for m in wrong_taps}, small_labels=True,
                             point_classes={p: ["right-answer"] for p in quiz.answers})  # drawn green
    return render_template("teacher/mistakes.html", group=group, lesson=lesson, quiz=quiz, step=step, board=board,
                           wrong_taps=wrong_taps, left_out=listed(left_out), given=listed(given),
                           right=_quiz_right_words(quiz), tally=counted.counts())


def _quiz_answer_words(quiz, answer: dict) -> str:
    """A quiz answer (as stored) in the teacher's words: a choice's text, yes or no, a side, a number."""
    if "choice" in answer:
        choice = answer["choice"]
        if choice in ("black", "white"):
            return _("Black") if choice == "black" else _("White")
        if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(quiz.choices):
            return quiz.choices[choice].get(g.lang)
        return ""
    if "yes" in answer:
        return _("Yes") if answer["yes"] is True else _("No")  # the words of the kid's buttons
    if "number" in answer and isinstance(answer["number"], int | float) and not isinstance(answer["number"], bool):
        number = answer["number"]
        return str(int(number)) if float(number).is_integer() else str(number)
    return ""


def _quiz_right_words(quiz) -> str:
    """The quiz's right answer, as a teacher reads it."""
    if quiz.ask in TAPS:
        points = " ".join(sorted(quiz.answers, key=lambda p: (p[0], int(p[1:]))))
        return _("any one of %(points)s", points=points) if quiz.ask == "atari" else points
    if quiz.ask == "legal":
        return _quiz_answer_words(quiz, {"yes": bool(quiz.answer)})
    if quiz.ask == "count":
        return _quiz_answer_words(quiz, {"number": quiz.answer})
    return _quiz_answer_words(quiz, {"choice": quiz.answer})


@bp.get("/classes/<int:class_id>/kids/<int:kid_id>")
@teacher_required
def kid_detail(class_id: int, kid_id: int):
    group, kid = class_kid_or_404(class_id, kid_id)
    cat = content.catalog()
    attempts = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid.id)
                                  .order_by(Attempt.id.desc()).limit(20)).all()
    spent = timing.time_on_task([kid.id])
    today = timing.today()
    days = [(today - timedelta(days=n), spent.day(kid.id, today - timedelta(days=n))) for n in range(14)]
    by_lesson = sorted({lid: spent.lesson(kid.id, lid) for (_k, lid, _d) in spent.cells}.items(),
                       key=lambda x: -x[1])
    return render_template("teacher/kid.html", group=group, kid=kid, catalog=cat,
                           tried=kid_lessons(kid, {a.lesson_id for a in attempts} | {lid for lid, _s in by_lesson}),
                           days=days, week=spent.week(kid.id, today), total=spent.total(kid.id),
                           by_lesson=by_lesson, minutes=timing.minutes, games_key=timing.GAMES,
                           timeline=classroom.timeline(kid, cat), weak=classroom.weak_topics(kid, cat),
                           attempts=attempts, games=games.recent_for(kid.id), now=utcnow(),
                           practice_names=drill_names(g.lang),
                           **links.kid_links(kid, current_user))


@bp.get("/classes/<int:class_id>/kids/<int:kid_id>/attempts/<int:attempt_id>")
@teacher_required
def replay(class_id: int, kid_id: int, attempt_id: int):
    """One attempt, move by move (``?ply=n``): the kid's move and the computer's answer."""
    group, kid = class_kid_or_404(class_id, kid_id)
    attempt = db.session.get(Attempt, attempt_id)
    if attempt is None or attempt.kid_id != kid.id:
        abort(404)
    lesson = kid_lessons(kid, {attempt.lesson_id}).get(attempt.lesson_id)  # a teacher's own lesson too
    puzzle = puzzle_or_none(attempt.lesson_id, attempt.step, lesson)
    if puzzle is None:
        abort(404)
    played, story = replay_story(puzzle, attempt.moves)
    ply = max(0, min(request.args.get("ply", len(played), type=int), len(played)))
    board = render_board(rows_after(puzzle.start(), played[:ply]), lang=g.lang,
                         last=played[ply - 1] if ply else None)
    return render_template("teacher/replay.html", group=group, kid=kid, attempt=attempt, puzzle=puzzle,
                           lesson=lesson, board=board, ply=ply,
                           played=played, story=story)


def replay_story(puzzle, entries: list[dict]) -> tuple[list[str], list[dict]]:
    """The moves of an attempt on the board, and what each one was: the kid's moves with the judge's verdict
    (and, for a wrong one, why), the computer's answers marked as such."""
    played, story = [], []
    for entry in entries:
        move, reply = entry.get("move"), entry.get("reply")
        if not move:
            continue
        played.append(move)
        verdict = entry.get("verdict")
        story.append({"ply": len(played), "who": "kid", "move": move, "verdict": verdict,
                      "why": messages.wrong(puzzle, entry.get("reason"), g.lang) if verdict == "wrong" else ""})
        if reply:
            played.append(reply)
            story.append({"ply": len(played), "who": "computer", "move": reply, "after": verdict})
    return played, story
