"""The board editor: a teacher makes a puzzle by tapping stones onto a board (or starting from a lesson diagram),
picks the goal and the target stones, and the reader proves it outside the request (``teach.web.proofs``, the
same queue and deadline as an SGF upload). The proof's page shows every winning first move and the reader's
refutation of every other one, and the saved puzzle can be tried as a kid would play it.

The position travels as the engine's rows (top row first, ``X`` black, ``O`` white, ``.`` empty) joined by ``/``,
so the page needs no SGF and a tampered field is refused with the same words as a bad board."""

from __future__ import annotations

import sqlalchemy as sa
from flask import abort, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from teach.go import Game, IllegalMove
from teach.go.judge import ATTACKING, GOALS, PAIRS, GoalError
from teach.lessons import authoring
from teach.models import Membership, PlayedGame, ProofJob, TeacherLesson, TeacherLessonClass, utcnow
from teach.web import classroom, content, deep_read, messages, proofs
from teach.web.access import teacher_required
from teach.web.board import render_board, rows_after
from teach.web.extensions import db
from teach.web.moves import NOT_A_MOVE, json_body, refused
from teach.web.security import plain_int

from . import bp
from .authoring import _busy, _own_lesson_or_404
from .checker_words import proof_message
from .forms import GOAL_LABELS, TEXT_MAX, one_line
from .scope import my_classes

EDITOR_FILENAME = "board"  # what the teacher's list of uploads shows for a puzzle made here
MAX_LINE = 40  # moves of one try-it line a page may send back (a puzzle line is far shorter)


def empty_rows(size: int) -> list[str]:
    return ["." * size] * size


def _start_rows() -> tuple[list[str], str]:
    """The board the editor opens with: empty (``?size=9``), a lesson diagram (``?from=<lesson id>:<step>``), a
    position of a game a kid of the teacher's classes played (``?game=<id>&move=<n>``), or a board the demo board
    hands over (``?rows=...&to_play=...``)."""
    size = request.args.get("size", type=int)
    to_play = request.args.get("to_play") if request.args.get("to_play") in ("black", "white") else "black"
    rows = (request.args.get("rows") or "").split("/")
    if _square(rows):
        return rows, to_play
    lesson_id, _sep, step = (request.args.get("from") or "").partition(":")
    lesson = content.catalog().lessons.get(lesson_id)
    index = plain_int(step, 4)
    if lesson is not None and index is not None and index < len(lesson.steps):
        chosen = lesson.steps[index]
        if chosen.position is not None and chosen.position.size in authoring.BOARD_SIZES:
            to_play = getattr(chosen, "to_play", "black")
            return chosen.position.game(to_play).board_rows(), to_play
    played = kid_game_or_none(request.args.get("game", type=int))
    if played is not None and played.size in authoring.BOARD_SIZES:
        game = Game(played.size)
        for move in list(played.moves or [])[:max(0, request.args.get("move", len(played.moves or []), type=int))]:
            try:
                game.play(move)
            except (IllegalMove, ValueError):
                break
        return game.board_rows(), game.to_play
    return empty_rows(size if size in authoring.BOARD_SIZES else 9), "black"


def _copy_of(lesson_pk: int | None) -> EditorInput | None:
    """The editor filled in from a one-puzzle lesson of the teacher's (or of a colleague's, who shares a class):
    its stones, goal, targets, topic and words, to change and prove as a new puzzle (``?copy=<lesson>``). None for
    no such lesson, or one that is not a single puzzle on a board the editor has."""
    if not lesson_pk:
        return None
    lesson = classroom.typed_lesson(_own_lesson_or_404(lesson_pk))
    puzzles = [s for s in lesson.steps if s.kind == "puzzle"] if lesson is not None else []
    if len(puzzles) != 1 or puzzles[0].position is None or puzzles[0].position.size not in authoring.BOARD_SIZES:
        return None
    step = puzzles[0]
    title = authoring.as_written(lesson.title)
    # a lesson saved without a title is named by its instruction: no title the teacher wrote
    title = {lang: "" if words == (step.text.get(lang) or "")[:authoring.TITLE_MAX] else words
             for lang, words in title.items()}
    return _filled(step.start().board_rows(), step.to_play, step.goal, step.targets, lesson.topic, step.text, title,
                   step.hint)


def _sent_again(job_id: int | None) -> EditorInput | None:
    """The editor filled in with what the teacher sent for proving (``?job=<proof job>``), to change it: a puzzle
    the reader refused, whose board and words would otherwise be lost. None for no job of hers, or one not on a
    board the editor has."""
    if not job_id:
        return None
    job = _my_job_or_404(job_id)
    fields = job.fields or {}
    setup = fields.get("setup") or {}
    try:
        game = Game.from_sgf(setup.get("sgf") or job.source)
    except ValueError:
        return None
    if game.size not in authoring.BOARD_SIZES:
        return None
    return _filled(game.board_rows(), setup.get("to_play", "black"), fields.get("goal", ""),
                   fields.get("targets") or (), fields.get("topic", ""), fields.get("text"), fields.get("title"),
                   fields.get("hint"))


def _filled(rows: list[str], to_play: str, goal: str, targets, topic: str, text, title, hint) -> EditorInput:
    """The editor's form as a puzzle fills it. Words written in one language stand in for the other in a lesson;
    the form gets them back in the language written only (``authoring.as_written``)."""
    data = {"rows": "/".join(rows), "to_play": to_play, "goal": goal, "target": " ".join(targets), "topic": topic}
    text, title, hint = (authoring.as_written(words) for words in (text, title, hint))
    for lang in authoring.LANGUAGES:
        data.update({f"text_{lang}": text[lang], f"title_{lang}": title[lang], f"hint_{lang}": hint[lang]})
    return EditorInput(data)


def kid_game_or_none(game_id: int | None) -> PlayedGame | None:
    """A game a kid of one of this teacher's classes played; None otherwise (nothing tells whose it is)."""
    if not game_id:
        return None
    mine = sa.select(Membership.group_id).where(Membership.user_id == current_user.id, Membership.role == "teacher")
    kids = sa.select(Membership.user_id).where(Membership.group_id.in_(mine), Membership.role == "kid")
    return db.session.scalar(sa.select(PlayedGame).where(PlayedGame.id == game_id, PlayedGame.kid_id.in_(kids)))


def _diagrams() -> list[dict]:
    """Every lesson diagram a puzzle can start from, by lesson (for the picker)."""
    out = []
    for lesson in content.ordered_lessons():
        steps = [i for i, s in enumerate(lesson.steps) if s.position is not None and s.position.size in
                 authoring.BOARD_SIZES]
        if steps:
            out.append({"lesson": lesson, "steps": steps})
    return out


class EditorInput:
    """What the editor posts, read and checked: every problem in the teacher's language, in the page's order."""

    def __init__(self, data) -> None:
        raw_rows = (data.get("rows") or "").strip()
        self.rows = raw_rows.split("/") if raw_rows else []
        self.to_play = data.get("to_play") or "black"
        self.goal = data.get("goal") or ""
        self.targets = authoring.parse_points(data.get("target") or "") or []
        self.raw_target = (data.get("target") or "")[:200]
        self.topic = data.get("topic") or ""
        self.text = {lang: one_line(data.get(f"text_{lang}"))[:TEXT_MAX] for lang in authoring.LANGUAGES}
        self.title = {lang: one_line(data.get(f"title_{lang}"))[:authoring.TITLE_MAX] for lang in authoring.LANGUAGES}
        self.hint = {lang: one_line(data.get(f"hint_{lang}"))[:TEXT_MAX] for lang in authoring.LANGUAGES}
        self.setup = None

    def problems(self) -> list[str]:
        found = []
        self.setup, board_problems = authoring.board_setup(self.rows, self.to_play)
        for p in board_problems:
            if p.code == "no-stones":
                found.append(_("Put some stones on the board first."))
            elif p.code == "to-play":
                found.append(_("Choose who plays first: black or white."))
            else:
                found.append(_("The board could not be read. Reload the page and set up the stones again."))
        if self.goal not in GOALS:
            found.append(_("Choose what the kids must do (the goal)."))
        if not self.targets:
            wrong = authoring.not_points(self.raw_target)
            found.append(_("“%(word)s” is not a point: tap the target stones (in “target” mode), or write them as "
                           "points such as E5.", word=wrong[0][:20]) if wrong else
                         _("Tap the target stones (in “target” mode), or write them as points such as E5."))
        elif self.setup is not None:
            found += self._target_problems()
        if not any(self.text.values()):
            found.append(_("Write the instruction, in Chinese or in English (or both)."))
        if content.catalog().topic(self.topic) is None:
            found.append(_("Choose the topic the puzzle belongs to."))
        return found

    def _target_problems(self) -> list[str]:
        game = Game.from_sgf(self.setup.sgf)
        colours = set()
        for t in self.targets:
            try:
                game.require_point(t)
            except ValueError:
                return [_("%(point)s is not a point of this board.", point=t)]
            colour = game.board_rows()[game.size - int(t[1:])][_column(t)]
            if colour == ".":
                return [_("There is no stone on %(point)s: a target is a stone of the group.", point=t)]
            colours.add(colour)
        if len(colours) > 1:
            return [_("The target stones must all be the same colour.")]
        if self.goal in ("connect", "cut") and len(self.targets) != 2:
            return [_("This goal needs exactly two target stones, one on each group.")]
        mover = {"black": "X", "white": "O"}.get(self.to_play)
        if mover is not None and self.goal in GOALS:
            # the judge's rule (teach.go.judge.Judge): catch, kill, cut or win a race against the other side's
            # stones; save, make alive or connect the stones of the side that plays first
            if self.goal in ATTACKING and colours == {mover}:
                return [_("The target stones belong to the side that plays first. To catch, kill, cut or win a "
                          "race, tap the other side's stones (or change who plays first).")]
            if self.goal not in ATTACKING and colours != {mover}:
                return [_("The target stones belong to the other side. To save, make alive or connect, tap the "
                          "stones of the side that plays first (or change who plays first).")]
        if self.goal in PAIRS and game.chain_of[game.require_point(self.targets[0])] is \
                game.chain_of[game.require_point(self.targets[1])]:
            return [_("These two target stones are one group already: tap one stone of each group.")]
        return []


def _column(point: str) -> int:
    return "ABCDEFGHJKLMNOPQRST".index(point[0])


def _editor_page(rows: list[str], to_play: str, entry: EditorInput | None, errors: list[str], status: int = 200):
    return render_template(
        "teacher/editor.html", board=render_board(rows, lang=g.lang, playable=True), rows="/".join(rows),
        size=len(rows), to_play=to_play, entry=entry, errors=errors, goals=GOALS, goal_labels=GOAL_LABELS,
        topics=content.catalog().topics, sizes=authoring.BOARD_SIZES, diagrams=_diagrams()), status


@bp.route("/editor", methods=["GET", "POST"])
@teacher_required
def board_editor():
    """Set up a puzzle on a board: the quick checks answer at once, the reader's proof is queued."""
    if request.method != "POST":  # GET or HEAD: HEAD is no submit (CSRF is checked on POST only)
        copied = _copy_of(request.args.get("copy", type=int)) or _sent_again(request.args.get("job", type=int))
        if copied is not None:
            return _editor_page(copied.rows, copied.to_play, copied, [])
        rows, to_play = _start_rows()
        return _editor_page(rows, to_play, None, [])
    entry = EditorInput(request.form)
    errors = entry.problems()
    if not errors:
        lesson_id = authoring.new_lesson_id(current_user.id)
        lesson, _source, lesson_errors = authoring.sgf_puzzle(
            entry.setup, lesson_id, entry.topic, entry.goal, entry.targets, authoring.both_languages(entry.text),
            entry.title, prove=False, hint=entry.hint)
        if lesson is None:
            errors = [_("This puzzle cannot be checked: look at the goal and the target stones.")]
        else:
            fields = {"setup": {"sgf": entry.setup.sgf, "size": entry.setup.size, "to_play": entry.setup.to_play},
                      "lesson_id": lesson_id, "topic": entry.topic, "goal": entry.goal, "targets": entry.targets,
                      "text": authoring.both_languages(entry.text), "title": entry.title, "hint": entry.hint,
                      "made": "editor"}
            job = proofs.submit(current_user.id, "sgf", EDITOR_FILENAME, entry.setup.sgf, fields)
            if job is not None:
                return redirect(url_for("teacher.editor_proof", job_id=job.id))
            errors = [_busy()]
    rows = entry.rows if _square(entry.rows) else empty_rows(9)
    return _editor_page(rows, entry.to_play if entry.to_play in ("black", "white") else "black", entry, errors,
                        429 if errors == [_busy()] else 422)


def _square(rows: list[str]) -> bool:
    return len(rows) in authoring.BOARD_SIZES and all(len(r) == len(rows) and not r.strip("XO.") for r in rows)


def _by_reply(refutations: dict) -> list[tuple[str | None, list[str]]]:
    """The refuted first moves grouped by the computer's answer, the answer refuting most first: most wrong moves
    of a capture puzzle meet the same escape, and one line says so."""
    groups: dict = {}
    for move, reply in refutations.items():
        groups.setdefault(reply, []).append(move)
    order = "ABCDEFGHJKLMNOPQRST"
    for moves in groups.values():
        moves.sort(key=lambda m: (order.index(m[0]), int(m[1:])))
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0] or ""))


def _my_job_or_404(job_id: int) -> ProofJob:
    job = db.session.get(ProofJob, job_id)
    if job is None or job.owner_id != current_user.id or job.kind != "sgf":
        abort(404)
    return job


@bp.get("/editor/proofs/<int:job_id>")
@teacher_required
def editor_proof(job_id: int):
    """The reader's answer on a puzzle made on the board: waiting, proving, or every winning first move marked on
    the board with the refutation of every other first move beside it."""
    job = _my_job_or_404(job_id)
    if job.pending:
        proofs.ensure_runner()
    setup = job.fields.get("setup") or {}
    game = Game.from_sgf(setup.get("sgf") or job.source)
    result = job.result or {}
    solution = result.get("solution") or {}
    winning = solution.get("winning") or {}
    refutations = solution.get("refutations") or {}
    unknown = [m for m in solution.get("unknown") or [] if isinstance(m, str)]
    point_classes = {m: ["winning"] for m in winning}
    board = render_board(game.board_rows(), lang=g.lang, labels={**{m: "?" for m in unknown},
                                                                 **{m: "✓" for m in winning}},
                         point_classes=point_classes)
    again = url_for("teacher.board_editor", size=game.size)
    return render_template("teacher/editor_proof.html", job=job, result=result, board=board, winning=winning,
                           change=url_for("teacher.board_editor", job=job.id),
                           messages=[proof_message(e.get("message", "")) for e in result.get("errors") or []],
                           refutations=_by_reply(refutations), unknown=unknown, solution=bool(solution),
                           to_play=setup.get("to_play", "black"),
                           goal_label=GOAL_LABELS.get(job.fields.get("goal"), ""), again=again,
                           text=(job.fields.get("text") or {}).get(g.lang, ""),
                           deadline=int(proofs.setting("PROOF_DEADLINE_SECONDS")))


# ---------------------------------------------------------------------- try it as a kid
def _puzzle_of(lesson_pk: int):
    stored = _own_lesson_or_404(lesson_pk)
    lesson = classroom.typed_lesson(stored)
    puzzle = next((s for s in lesson.steps if s.kind == "puzzle"), None) if lesson is not None else None
    if puzzle is None:
        abort(404)
    return lesson, puzzle


@bp.get("/editor/try/<int:lesson_pk>")
@teacher_required
def try_as_kid(lesson_pk: int):
    """The puzzle as a kid meets it: tap a move, the reader answers with kid words and its reply. Nothing is
    recorded (the teacher is not a kid of any class)."""
    lesson, puzzle = _puzzle_of(lesson_pk)
    board = render_board(puzzle.start().board_rows(), lang=g.lang, marks=puzzle.marks,
                         labels=puzzle.position.label_points, playable=True)
    return render_template("teacher/editor_try.html", lesson=lesson, puzzle=puzzle, board=board,
                           lesson_pk=lesson_pk)


@bp.post("/editor/try/<int:lesson_pk>/move")
@teacher_required
def try_move(lesson_pk: int):
    """Body: ``{"line": [moves so far, the kid's and the computer's], "move": "D4"}``."""
    _lesson, puzzle = _puzzle_of(lesson_pk)
    data = json_body()
    line, point = data.get("line", []), data.get("move")
    if not data.keys() <= {"line", "move"} or not isinstance(line, list) or len(line) > MAX_LINE \
            or not all(isinstance(m, str) and len(m) <= 4 for m in line) or not isinstance(point, str) \
            or len(point) > 4:
        return refused()
    start = puzzle.start()
    try:
        start.require_point(point.strip())
        for m in line:
            start.require_point(m)
    except ValueError:
        return jsonify(result="illegal", reason="off-board", message=messages.illegal("off-board")), 400
    point = point.strip().upper()
    played, judge = [m.upper() for m in line], puzzle.judge()
    try:
        verdict = deep_read.settled(judge, played, point) or judge.judge(played, point)
    except (GoalError, IllegalMove, ValueError):
        return refused()
    if verdict.result == "illegal":
        return jsonify(result="illegal", reason=verdict.reason, message=messages.illegal(verdict.reason))
    moves = played + [point]
    if verdict.reason == "unknown" and deep_read.later(judge, played, point):
        # read again on a larger budget, as for a kid: the stone stays, and the page asks again
        return jsonify(result="thinking", reply=None, rows=rows_after(start, moves), line=played,
                       retry=deep_read.RETRY_MS, message=NOT_A_MOVE["working"]())
    if verdict.result == "slow" or verdict.reason == "unknown":
        # no move of the line, as on a kid's page: the stone is shown, then taken back, and the line stays
        kind = "slow" if verdict.result == "slow" else "thinking"
        return jsonify(result=kind, reply=None, rows=rows_after(start, moves), back_rows=rows_after(start, moves[:-1]),
                       line=moves[:-1], message=NOT_A_MOVE[kind]())
    body = {"result": verdict.result, "reply": verdict.reply, "rows": rows_after(start, moves), "reply_rows": None,
            "line": moves}
    if verdict.reply:
        body["reply_rows"] = rows_after(start, moves + [verdict.reply])
        body["line"] = moves + [verdict.reply]
    if verdict.result == "correct":
        body["message"] = messages.success(puzzle, g.lang)
    elif verdict.result == "wrong":
        body["message"] = messages.wrong(puzzle, verdict.reason, g.lang)
    else:
        body["message"] = messages.keep_going()
    return jsonify(body)



# ---------------------------------------------------------------------- a draft until published
@bp.route("/lessons/<int:lesson_pk>/classes", methods=["GET", "POST"])
@teacher_required
def publish_lesson(lesson_pk: int):
    """Which of the teacher's classes get their own lesson, and whether it is out yet: a lesson stays a draft (no
    kid sees it) until its teacher publishes it to at least one class. A class that is not theirs is a 404."""
    stored = _own_lesson_or_404(lesson_pk, owner_only=True)
    classes = my_classes(False)
    chosen = set(db.session.scalars(sa.select(TeacherLessonClass.group_id).where(
        TeacherLessonClass.lesson_pk == stored.id)))
    errors: list[str] = []
    if request.method == "POST":
        picked = request.form.getlist("class")
        picked_ids = {plain_int(v) for v in picked}
        if not picked_ids <= {c.id for c in classes}:  # None (no number) is no class either
            abort(404)
        # one publishing of this lesson at a time: a double click waits here, then sees the classes the first added
        classroom.hold(TeacherLesson, stored.id)
        chosen = set(db.session.scalars(sa.select(TeacherLessonClass.group_id).where(
            TeacherLessonClass.lesson_pk == stored.id)))
        if request.form.get("action") == "draft":
            stored.published_at = None
        elif not picked_ids:
            errors.append(_("Choose at least one class to publish the lesson to."))
        else:
            db.session.execute(sa.delete(TeacherLessonClass).where(TeacherLessonClass.lesson_pk == stored.id,
                                                                   TeacherLessonClass.group_id.not_in(picked_ids)))
            db.session.add_all(TeacherLessonClass(lesson_pk=stored.id, group_id=c) for c in picked_ids - chosen)
            stored.published_at = stored.published_at or utcnow()
        if not errors:
            db.session.commit()
            if request.form.get("back") == "list":  # published or unpublished from the list of own lessons
                return redirect(url_for("teacher.own_lessons"))
            return redirect(url_for("teacher.publish_lesson", lesson_pk=stored.id))
        chosen = picked_ids
    lesson = classroom.typed_lesson(stored)
    puzzle = any(s.kind == "puzzle" for s in lesson.steps) if lesson is not None else False
    return render_template("teacher/editor_publish.html", stored=stored, lesson=lesson, classes=classes,
                           chosen=chosen, errors=errors, puzzle=puzzle), (422 if errors else 200)
