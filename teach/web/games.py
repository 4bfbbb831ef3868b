"""A kid's games kept: the list, the replay move by move, the SGF download, and the review after a game — the
captures the kid missed, as retry puzzles judged like lesson puzzles — with the missed captures of every game
kept for later practice.

Who sees a game: the kid who played it, the teachers of a class the kid is in, and the parents who follow the kid
with an approved link; for everyone else a game is a 404, the same as a game that does not exist. Only the kid
plays the retry puzzles; the adults see the review read-only.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from types import SimpleNamespace

import sqlalchemy as sa
from flask import Blueprint, Response, abort, g, jsonify, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from sqlalchemy.orm import aliased

from teach.go import Game, IllegalMove
from teach.go.judge import SERVER_LIMITS, Goal, GoalError, Judge
from teach.go.proof import Proof, ProvenJudge, puzzle_key
from teach.go.reading import LOSE, BudgetExceeded
from teach.go.record import capture_win, played_game_sgf
from teach.go.scoring import stones_text
from teach.models import Attempt, Group, Membership, MissedCapture, ParentLink, PlayedGame, User, utcnow
from teach.web import errors, reviews
from teach.web.access import kid_required
from teach.web.board import render_board
from teach.web.characters import character
from teach.web.daily import local
from teach.web.extensions import db
from teach.web.moves import json_body, judge_move, line_of
from teach.web.pictures import glyph
from teach.web.played import BrokenRecord, new_game, rules_of
from teach.web.security import ID_MAX

bp = Blueprint("games", __name__, url_prefix="/games")

LIST_MAX = 100  # games on the kid's list
RECENT = 10  # games on a teacher's or parent's kid page
PRACTICE_MAX = 60  # missed captures on the practice page
SHOWN = "review_shown"  # the session's list of missed captures whose answer was shown
SHOWN_MAX = 20


# ---------------------------------------------------------------------- who sees a game
def may_see(kid_id: int) -> bool:
    """The kid, a teacher of a class the kid is in, an approved parent: one query (none for the kid)."""
    user = current_user
    if user.role == "kid":
        return user.id == kid_id
    if user.role == "teacher":
        return _class_taught_with(kid_id) is not None
    q = sa.select(ParentLink.id).where(ParentLink.parent_id == user.id, ParentLink.kid_id == kid_id,
                                       ParentLink.status == "approved").limit(1)
    return db.session.scalar(q) is not None


def _class_taught_with(kid_id: int) -> int | None:
    """The first class the signed-in teacher teaches that the kid is in (None: none)."""
    teacher, kid = aliased(Membership), aliased(Membership)
    return db.session.scalar(
        sa.select(Group.id).join(teacher, teacher.group_id == Group.id).join(kid, kid.group_id == Group.id)
        .where(Group.kind == "class", teacher.user_id == current_user.id, teacher.role == "teacher",
               kid.user_id == kid_id, kid.role == "kid").order_by(Group.id).limit(1))


def back_link(kid: User | None) -> dict | None:
    """Where the replay and the review lead back to, for whoever is looking: the kid's games, the parent's page of
    the kid, or the kid's page in the teacher's class."""
    user = current_user
    if kid is None:
        return None
    if user.id == kid.id:
        return {"url": url_for("games.mine"), "text": _("My games")}
    if user.role == "teacher":
        class_id = _class_taught_with(kid.id)
        if class_id is None:
            return None
        return {"url": url_for("teacher.kid_detail", class_id=class_id, kid_id=kid.id), "text": kid.name}
    if user.role == "parent":
        return {"url": url_for("parent.kid_page", kid_id=kid.id), "text": kid.name}
    return None


def _game_or_404(game_id: int) -> PlayedGame:
    row = db.session.get(PlayedGame, game_id)
    if row is None or not may_see(row.kid_id):
        abort(404)
    return row


def _own_missed_or_404(missed_id: int) -> MissedCapture:
    row = db.session.get(MissedCapture, missed_id)
    if row is None or row.kid_id != current_user.id:
        abort(404)
    return row


def _broken():
    return errors.render_error(409, _("This game's record cannot be read any more, so it cannot be shown."))


# ---------------------------------------------------------------------- names and results in kid words
def first_name(name: str | None) -> str:
    """The first word of a name, never an address: what a record or a page says about a person."""
    word = (name or "").split()
    word = word[0][:40] if word else ""
    return "" if "@" in word else word


def opponent(row: PlayedGame, avatars: dict[int, str | None] | None = None) -> dict:
    """Who the kid played: a character of the computer, a classmate (their picture and first name), or the
    friend at the same tablet (first name). ``avatars``: the classmates' pictures by account id, when a list
    looked them up at once (``classmate_avatars``); otherwise the one classmate is looked up here."""
    if row.opponent == "friend":
        name = first_name(row.friend_name) or (_("Classmate") if row.friend_id else _("Friend"))
        if row.friend_id is None:
            return {"glyph": "🙂", "name": name}
        if avatars is None:
            avatars = classmate_avatars([row])
        picture = avatars.get(row.friend_id)
        return {"glyph": glyph(picture or "star") if row.friend_id in avatars else "🙂", "name": name}
    c = character(row.level)
    return {"glyph": c.glyph, "name": str(c.name)}


def kind_words(row: PlayedGame) -> str:
    if row.kind == "capture":
        # the rule, not a score: "capture 3" read as "captured three stones" on a parent's page
        return _("Capture game, first to %(n)d", n=row.capture_goal or 1)
    return _("Whole game %(n)d×%(n)d", n=row.size)  # the same words as the start page and the game


def _winner(row: PlayedGame) -> str | None:
    if row.winner in ("black", "white"):
        return row.winner
    head = (row.result or "")[:2].upper()
    return {"B+": "black", "W+": "white"}.get(head)


def outcome(row: PlayedGame, name: str | None = None) -> dict:
    """The result from the kid's side: ``key`` won | lost | draw | playing, the words, and how (``how``). Said
    to the kid, or with ``name`` about the kid (to a teacher or parent)."""
    if row.state != "finished":
        return {"key": "playing", "text": _("Not finished yet"), "how": ""}
    winner = _winner(row)
    key = "draw" if winner is None else "won" if winner == row.kid_color else "lost"
    if name is None:
        text = {"won": _("You won!"), "lost": _("You lost this time."), "draw": _("A draw!")}[key]
    else:
        text = {"won": _("%(name)s won", name=name), "lost": _("%(name)s lost", name=name),
                "draw": _("A draw!")}[key]
    how = ""
    margin = (row.result or "").partition("+")[2].strip().upper()
    if margin in ("R", "RESIGN"):
        if key == "won":
            how = _("the other side resigned")
        else:
            how = _("you resigned") if name is None else _("%(name)s resigned", name=name)
    elif row.kind == "capture":
        how = _("a capture game to %(n)d", n=row.capture_goal or 1)  # the rule, not who captured first
    elif margin:
        try:
            points = Fraction(margin)
        except ValueError:
            points = None
        if points is not None:
            how = margin_words(points, ahead=key == "won")
    return {"key": key, "text": text, "how": how}


def margin_words(points: Fraction, ahead: bool = True) -> str:
    """A counted margin (in points, as the record keeps it) in stones (子, half a point each), in both languages,
    as the count screen and the lessons say it: "1¾ stones ahead" / "多 1¾ 子", or behind / "差"."""
    stones = points / 2
    n, many = stones_text(stones), 1 if stones <= 1 else 2
    if ahead:
        return ngettext("%(n)s stone ahead", "%(n)s stones ahead", many, n=n)
    return ngettext("%(n)s stone behind", "%(n)s stones behind", many, n=n)


def _day(row: PlayedGame) -> str:
    return local(row.finished_at or row.created_at).strftime("%Y-%m-%d")  # the classroom's day


def classmate_avatars(rows) -> dict[int, str | None]:
    """The pictures of the classmates these games were played against, by account id (one query; a classmate
    whose account is gone is not in it)."""
    ids = {r.friend_id for r in rows if r.opponent == "friend" and r.friend_id is not None}
    if not ids:
        return {}
    return dict(db.session.execute(sa.select(User.id, User.avatar).where(User.id.in_(ids))).all())


def summary(row: PlayedGame, open_counts: dict[int, int] | None = None, name: str | None = None,
            avatars: dict[int, str | None] | None = None) -> dict:
    """A game as the pages list it; ``name``: the kid's name, for pages an adult reads; ``avatars``: the
    classmates' pictures of a whole list (``classmate_avatars``)."""
    return {"row": row, "opponent": opponent(row, avatars), "kind": kind_words(row), "outcome": outcome(row, name),
            "day": _day(row), "open": (open_counts or {}).get(row.id, 0)}


def _open_counts(kid_id: int) -> dict[int, int]:
    return dict(db.session.execute(
        sa.select(MissedCapture.game_id, sa.func.count()).where(MissedCapture.kid_id == kid_id,
                                                                MissedCapture.status == "open")
        .group_by(MissedCapture.game_id)).all())


def recent_for(kid_id: int, limit: int = RECENT) -> list[dict]:
    """The kid's latest games for a teacher's or parent's kid page (two queries)."""
    rows = db.session.scalars(sa.select(PlayedGame).where(PlayedGame.kid_id == kid_id)
                              .order_by(PlayedGame.created_at.desc(), PlayedGame.id.desc()).limit(limit)).all()
    counts = _open_counts(kid_id) if rows else {}
    kid = db.session.get(User, kid_id)
    avatars = classmate_avatars(rows)
    return [summary(r, counts, kid.name if kid else "", avatars) for r in rows]


# ---------------------------------------------------------------------- the record
def frames(row: PlayedGame) -> list[dict]:
    """The board after every move, from the start (frame 0): rows, the move, its colour and the captures so far.
    Raises BrokenRecord when a stored move cannot be played."""
    game = new_game(row.size, row.komi, row.handicap, rules_of(row))
    out = [{"rows": game.board_rows(), "move": None, "color": None, "captures": game.captures}]
    for number, move in enumerate(row.moves or [], 1):
        color = game.to_play
        try:
            game.play(move)
        except (IllegalMove, ValueError) as e:
            raise BrokenRecord(f"game {row.id}: move {number} ({move}) cannot be played: {e}") from None
        out.append({"rows": game.board_rows(), "move": move, "color": color, "captures": game.captures})
    return out


def _player_names(row: PlayedGame, kid: User | None) -> tuple[str, str]:
    mine = first_name(kid.name if kid else "") or _("Kid")
    theirs = opponent(row, {})["name"]  # the name only: no picture looked up
    return (mine, theirs) if row.kid_color == "black" else (theirs, mine)


def capture_comment(row: PlayedGame) -> str | None:
    """What a capture game's record says of its rule (SGF has none for it) and of how it was won, in the page's
    language; None for a whole game."""
    if row.kind != "capture":
        return None
    goal = row.capture_goal or 1
    rule = ngettext("Capture game: the first to capture %(num)d stone wins",
                    "Capture game: the first to capture %(num)d stones wins", goal)
    won = capture_win(row.result) if row.state == "finished" else None
    if won is not None:
        side, taken = won
        if side == "black":
            won = ngettext("Black won with %(num)d stone captured", "Black won with %(num)d stones captured", taken)
        else:
            won = ngettext("White won with %(num)d stone captured", "White won with %(num)d stones captured", taken)
        return _("%(rule)s; %(won)s", rule=rule, won=won)
    return rule


def sgf_text(row: PlayedGame) -> str:
    from teach.web.played import game_of

    game = game_of(row)
    black, white = _player_names(row, db.session.get(User, row.kid_id))
    return played_game_sgf(game, black=black, white=white, result=row.result if row.state == "finished" else None,
                           date=_day(row), name=f"{black} vs {white}", capture_comment=capture_comment(row))


# ---------------------------------------------------------------------- pages: the kid's list, replay, SGF

def board_coordinates() -> bool:
    """Letters and numbers round a board: a kid's own choice, as on the game's board (off for the youngest unless a
    grown-up chose them); a grown-up reading or watching a game sees them. The replay, the review and a live game
    (while playing and while counting) ask here."""
    from teach.web.kid import step_settings

    return step_settings(None)["coordinates"] if current_user.is_kid else True


def narrated() -> bool:
    """Whether a kid's page says its words aloud by itself: the kid's own choice, as on the lesson and game pages
    (on for the youngest unless a grown-up chose otherwise); a grown-up's page does not."""
    from teach.web.kid import step_settings

    return step_settings(None)["narrate"] if current_user.is_kid else False


@bp.get("/")
@kid_required
def mine():
    rows = db.session.scalars(sa.select(PlayedGame).where(PlayedGame.kid_id == current_user.id)
                              .order_by(PlayedGame.created_at.desc(), PlayedGame.id.desc()).limit(LIST_MAX)).all()
    counts = _open_counts(current_user.id) if rows else {}
    if any(r.state == "finished" and not r.reviewed for r in rows):
        reviews.ensure_runner()
    avatars = classmate_avatars(rows)
    return render_template("games/mine.html", games=[summary(r, counts, avatars=avatars) for r in rows],
                           practice=sum(counts.values()))


@bp.get("/<int:game_id>")
@login_required
def replay(game_id: int):
    row = _game_or_404(game_id)
    try:
        shots = frames(row)
    except BrokenRecord:
        return _broken()
    at = request.args.get("move", len(shots) - 1, type=int)
    at = max(0, min(at, len(shots) - 1))
    shot = shots[at]
    board = render_board(shot["rows"], lang=g.lang, last=shot["move"] if shot["move"] != "pass" else None,
                         coordinates=board_coordinates())
    kid = db.session.get(User, row.kid_id)
    return render_template("games/replay.html", game=_summary_for_viewer(row, kid), board=board, frames=shots, at=at,
                           players=_player_names(row, kid), words=_replay_words(),
                           mine=current_user.id == row.kid_id, back=back_link(kid))


def _summary_for_viewer(row: PlayedGame, kid: User | None) -> dict:
    """Said to the kid on their own game, about the kid to a teacher or parent."""
    return summary(row, name=None if current_user.id == row.kid_id else (kid.name if kid else ""))


def _replay_words() -> dict:
    """What the replay script says, translated here with the placeholders left for it to fill."""
    return {"move": _("Move %(n)d of %(total)d"), "start": _("The start"), "captured": _("captured %(n)d"),
            "pass": _("pass"), "black": _("Black"), "white": _("White")}


@bp.get("/<int:game_id>.sgf")
@login_required
def sgf(game_id: int):
    row = _game_or_404(game_id)
    try:
        text = sgf_text(row)
    except BrokenRecord:
        return _broken()
    return Response(text, mimetype="application/x-go-sgf",
                    headers={"Content-Disposition": f'attachment; filename="game-{row.id}-{_day(row)}.sgf"'})


# ---------------------------------------------------------------------- the review: retry puzzles
class RetryPuzzle:
    """A missed capture as the puzzle the move contract judges (``teach.web.moves.judge_move``): its start
    position, its goal, and the default kid-language texts but one: the lessons' "the little mouse ran away" is
    no line for a game's stones, when the weakest computer opponent is the Little Mouse (小老鼠)."""

    success = None

    def __init__(self, row: MissedCapture) -> None:
        self.row = row
        self.goal = row.goal

    @property
    def wrong(self) -> dict:
        return {"escapes": {g.lang: ngettext("Oh no, that stone got away! Look where it ran, and try again.",
                                             "Oh no, those stones got away! Look where they ran, and try again.",
                                             _target_stones(self.row))}}

    @property
    def targets(self) -> tuple[str, ...]:
        """The stones the finding is about: when the computer's answer has taken them, the words say so (as the
        board shows) instead of "they can be caught now"."""
        return (self.row.target,) if self.row.target else ()

    def start(self) -> Game:
        return position_of(self.row)


def _target_stones(row: MissedCapture) -> int:
    """How many stones the finding is about (its target's chain), for "that stone" or "those stones"; a stored
    position that is no position counts as several."""
    try:
        return len(position_of(row).chain_at(row.target))
    except (ValueError, KeyError):
        return 2


def position_of(row: MissedCapture) -> Game:
    """The stored position, the kid to move. Raises ValueError for a stored position that is no position."""
    game = Game(row.size)
    game.to_play = row.to_play  # first, so the position is remembered as the one the kid faces
    game.setup(black=list(row.black), white=list(row.white))
    return game


@lru_cache(maxsize=512)
def _judge(size: int, black: tuple, white: tuple, to_play: str, goal: str, target: str) -> ProvenJudge:
    """One judge per stored position and goal, kept with its reading cache (rows never change once written);
    with no proof, it reads every move live (looking ahead: ``proof.look_ahead``)."""
    row = SimpleNamespace(size=size, black=black, white=white, to_play=to_play)
    return ProvenJudge(Judge(position_of(row), Goal(goal, (target,)), SERVER_LIMITS), None)


_proven: dict[int, ProvenJudge] = {}  # missed capture id -> its judge answering from the review's proof
PROVEN_MAX = 512


def judge_of(row: MissedCapture) -> ProvenJudge:
    """The retry puzzle's judge: answering from the whole proof the review made (a lookup per move), or reading
    live for a finding kept without one. Raises GoalError or ValueError for a finding whose goal does not fit its
    position."""
    live = _judge(row.size, tuple(row.black), tuple(row.white), row.to_play, row.goal, row.target)
    if not row.proof:
        return live
    found = _proven.get(row.id)  # ids are never handed out again, and a row's puzzle never changes
    if found is None:
        try:
            proof = Proof.from_json(puzzle_key(live.start, row.goal, (row.target,)), row.proof)
        except (KeyError, TypeError, ValueError):
            return live
        if len(_proven) >= PROVEN_MAX:
            _proven.clear()
        found = _proven[row.id] = ProvenJudge(live.reader, proof)
    return found


def kind_label(row: MissedCapture) -> str:
    """What the review found, in a teacher's or parent's words."""
    return {"missed-capture": _("A capture missed"), "unsaved-atari": _("Stones in atari not saved"),
            "self-atari": _("A self-atari")}.get(row.kind, row.kind)


def prompt(row: MissedCapture) -> str:
    if row.kind == "unsaved-atari":
        return _("Your stones were in atari. Save them!")
    if row.kind == "self-atari":
        return _("That move left your stones only one liberty. Find a safer move!")
    if _target_stones(row) == 1:  # one stone to take: "the white stone", as the board shows one
        their = _("the white stone") if row.to_play == "black" else _("the black stone")
    else:
        their = _("the white stones") if row.to_play == "black" else _("the black stones")
    return _("You could capture %(their)s here. Find it!", their=their)


def _marks(row: MissedCapture, answers: bool = False):
    """The target stone marked; for adults (``answers``) the answers glow and the kid's move has a cross."""
    return SimpleNamespace(triangle=(row.target,), highlight=tuple(row.answers) if answers else (),
                           cross=(row.played,) if answers and row.played != "pass" else ())


def _findings(game_id: int) -> list[MissedCapture]:
    return list(db.session.scalars(sa.select(MissedCapture).where(MissedCapture.game_id == game_id)
                                   .order_by(MissedCapture.move_number, MissedCapture.id)))


def _next_url(row: MissedCapture) -> str:
    """The game's next open missed capture after this one (then any open one), else the game's review page."""
    found = [f for f in _findings(row.game_id) if f.status == "open" and f.id != row.id]
    later = [f for f in found if f.move_number > row.move_number] or found
    if later:
        return url_for("games.review", game_id=row.game_id, at=later[0].id)
    return url_for("games.review", game_id=row.game_id)


@bp.get("/<int:game_id>/review")
@login_required
def review(game_id: int):
    row = _game_or_404(game_id)
    state = reviews.status(row)
    kid_view = current_user.id == row.kid_id
    if state in ("waiting", "running") and kid_view:
        reviews.ensure_runner()
    found = _findings(row.id) if state == "done" else []
    current = None
    if kid_view and found:
        at = request.args.get("at", type=int)
        shown = session.get(SHOWN, [])
        # the next one to do: open, and not one whose answer was just shown (that one waits for another day)
        current = next((f for f in found if f.id == at), None) if at is not None else \
            next((f for f in found if f.status == "open" and f.id not in shown), None)
        if current is not None and current.id in shown:  # a fresh try: found alone, it counts again
            session[SHOWN] = [i for i in shown if i != current.id]
    puzzle = board = None
    if current is not None:
        try:
            judge_of(current)
            board = render_board(position_of(current).board_rows(), lang=g.lang, marks=_marks(current),
                                 playable=True, coordinates=board_coordinates())
        except (GoalError, ValueError):
            board = None  # a finding that is no puzzle: said on the page, and it can be skipped
        puzzle = current
    boards = {}
    if not kid_view:
        for f in found:
            try:
                boards[f.id] = render_board(position_of(f).board_rows(), lang=g.lang, marks=_marks(f, True))
            except ValueError:
                boards[f.id] = None
    others = 0
    if kid_view and state == "done" and current is None:
        others = db.session.scalar(sa.select(sa.func.count()).select_from(MissedCapture).where(
            MissedCapture.kid_id == row.kid_id, MissedCapture.status == "open"))
    kid = db.session.get(User, row.kid_id)
    return render_template("games/review.html", game=_summary_for_viewer(row, kid), kid=kid, state=state,
                           found=found, puzzle=puzzle, board=board, boards=boards, kid_view=kid_view, prompt=prompt,
                           kind_label=kind_label, others=others, back=back_link(kid),
                           narrate=kid_view and narrated())


@bp.get("/<int:game_id>/review/status")
@login_required
def review_status(game_id: int):
    """What the waiting review page polls: the review's state (and a runner is made sure of for the kid)."""
    row = _game_or_404(game_id)
    state = reviews.status(row)
    if state in ("waiting", "running") and current_user.id == row.kid_id:
        reviews.ensure_runner()
    return jsonify(status=state)


@bp.post("/missed/<int:missed_id>/move")
@kid_required
def retry_move(missed_id: int):
    """One move of a retry puzzle: the lesson puzzles' move contract, the attempt kept under
    ``review:<missed capture id>``; the first right answer marks the missed capture solved (once)."""
    row = _own_missed_or_404(missed_id)
    try:
        judge = judge_of(row)
    except (GoalError, ValueError):
        return jsonify(result="error", reason="broken",
                       message=_("This puzzle cannot be played. Skip it and try the next one!")), 409

    def solved() -> dict:
        if row.id in session.get(SHOWN, []):  # played after "show me": well done, and it stays for another day
            return {"next": _next_url(row), "message": _("That's it! Next time, try to find it on your own.")}
        db.session.execute(sa.update(MissedCapture).where(MissedCapture.id == row.id, MissedCapture.status == "open")
                           .values(status="solved", solved_at=utcnow()).execution_options(synchronize_session=False))
        return {"next": _next_url(row)}

    return judge_move(RetryPuzzle(row), judge, f"review:{row.id}", 0, json_body(), solved)


@bp.post("/missed/<int:missed_id>/show")
@kid_required
def show_answer(missed_id: int):
    """"Show me": a move that works, for the board to point at. The kid may then play it, but as on Lichess a
    puzzle solved after its answer was shown is not solved: it stays open for practice (the session remembers
    which were shown)."""
    row = _own_missed_or_404(missed_id)
    session[SHOWN] = ([i for i in session.get(SHOWN, []) if i != row.id] + [row.id])[-SHOWN_MAX:]
    message = _("Look at the glowing point. Now you try!")
    line = _line_of(row, json_body().get("attempt"))
    if line:  # the kid is on the way: the move that works from here (the first moves are stones on the board now)
        move = _next_move(row, line)
        if move is not None:
            return jsonify(answers=[move], message=message)
    # from the start (the page sets the board back when the kid was on the way and no move from there works)
    return jsonify(answers=list(row.answers), restart=bool(line), message=message)


def _line_of(row: MissedCapture, attempt_id) -> list[str]:
    """The moves and replies of the kid's open try at this retry puzzle (the page's ``attempt``), or [] for none:
    a made-up id, another kid's try or one that is over is no line."""
    if not isinstance(attempt_id, int) or isinstance(attempt_id, bool) or not 0 < attempt_id <= ID_MAX:
        return []
    attempt = db.session.get(Attempt, attempt_id)
    if attempt is None or attempt.kid_id != current_user.id or attempt.lesson_id != f"review:{row.id}" \
            or attempt.result != "open":
        return []
    return line_of(attempt)


def _next_move(row: MissedCapture, line: list[str]) -> str | None:
    """A move that still works after ``line`` (the judge says so), or None."""
    try:
        judge = judge_of(row)
        game = judge.reader._replay(line)
        if game.to_move != judge.reader.solver:
            return None
        result, best = judge.best(game)
        if best is None or result == LOSE:
            return None
        move = game.name(best)
        return move if judge.judge(line, move).result in ("continue", "correct") else None
    except (GoalError, ValueError, BudgetExceeded):
        return None


@bp.post("/missed/<int:missed_id>/skip")
@kid_required
def skip(missed_id: int):
    """Leave this one for now: an open missed capture becomes skipped (a solved one stays solved)."""
    row = _own_missed_or_404(missed_id)
    db.session.execute(sa.update(MissedCapture).where(MissedCapture.id == row.id, MissedCapture.status == "open")
                       .values(status="skipped").execution_options(synchronize_session=False))
    db.session.commit()
    return jsonify(result="skipped", next=_next_url(row))


@bp.get("/practice")
@kid_required
def practice():
    """Missed captures of every game still to practise, newest game first."""
    rows = db.session.scalars(sa.select(MissedCapture).where(MissedCapture.kid_id == current_user.id,
                                                             MissedCapture.status == "open")
                              .order_by(MissedCapture.game_id.desc(), MissedCapture.move_number)
                              .limit(PRACTICE_MAX)).all()
    items = []
    for f in rows:
        try:
            board = render_board(position_of(f).board_rows(), lang=g.lang, marks=_marks(f),
                                 coordinates=board_coordinates())
        except ValueError:
            continue
        items.append({"row": f, "board": board, "prompt": prompt(f)})
    return render_template("games/practice.html", items=items)
