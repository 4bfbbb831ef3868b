"""The database: accounts, classes and families, and each kid's progress.

Kids never give an email: a teacher (class) or a parent (family) creates them, and they sign in with the group's
code, their avatar and a picture password. Every puzzle attempt is kept, so progress is the same on any device
and teachers can see which wrong moves a class plays.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import date, datetime, timezone

import sqlalchemy as sa
from flask_login import UserMixin
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from teach.db import db

ROLES = ("teacher", "parent", "kid")
# the pictures of picture passwords and the kids' avatars (drawn in static/pictures/<name>.svg)
PASSWORD_PICTURES = ("cat", "mouse", "fish", "apple", "star", "moon", "sun", "flower", "tree")
AVATARS = ("panda", "tiger", "rabbit", "turtle", "bird", "dragon", "fish", "butterfly", "cat", "mouse", "kite",
           "rocket")
# join codes avoid letters and digits that kids confuse (0/O, 1/I/L)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_session_secret() -> str:
    return secrets.token_hex(16)


# SQLite hands a deleted highest rowid out again unless the table says AUTOINCREMENT: every table whose ids a
# session, a code, a form or a stored list refers to never reuses one (PostgreSQL sequences never do)
NEVER_REUSE_IDS = {"sqlite_autoincrement": True}


class User(UserMixin, db.Model):
    """A teacher, a parent (email and password) or a kid (avatar and picture password).

    A session names the account by its id and its ``session_secret`` (``get_id``): signing out, a new password or
    picture password and archiving draw a new secret, which ends every session of the account, and no other
    account, even one given the same id, can ever present a secret it never had."""

    __tablename__ = "account"
    id: Mapped[int] = mapped_column(primary_key=True)
    role: Mapped[str] = mapped_column(sa.String(10))
    name: Mapped[str] = mapped_column(sa.String(80))  # a kid's first name, an adult's display name
    email: Mapped[str | None] = mapped_column(sa.String(254), unique=True)
    password_hash: Mapped[str | None] = mapped_column(sa.String(256))
    avatar: Mapped[str | None] = mapped_column(sa.String(20))
    picture_hash: Mapped[str | None] = mapped_column(sa.String(256))
    failed_logins: Mapped[int] = mapped_column(default=0)
    locked_until: Mapped[datetime | None]
    locale: Mapped[str | None] = mapped_column(sa.String(10))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    session_secret: Mapped[str] = mapped_column(sa.String(32), default=new_session_secret)
    # a kid's lesson player, chosen by a grown-up for this kid (a classroom tablet is shared by many kids);
    # None: not chosen, the lesson's level decides (read aloud, no coordinates for the first levels)
    narrate: Mapped[bool | None]
    coordinates: Mapped[bool | None]

    memberships: Mapped[list[Membership]] = relationship(back_populates="user", cascade="all, delete-orphan")

    __table_args__ = (sa.CheckConstraint("role in ('teacher', 'parent', 'kid')", name="role"), NEVER_REUSE_IDS)

    @property
    def is_kid(self) -> bool:
        return self.role == "kid"

    def get_id(self) -> str:
        if not self.session_secret:
            self.session_secret = new_session_secret()
        return f"{self.id}:{self.session_secret}"

    def session_matches(self, secret: str) -> bool:
        return bool(self.session_secret) and hmac.compare_digest(self.session_secret.encode(), secret.encode())

    def end_sessions(self) -> None:
        """Every signed cookie of this account stops working (the one being answered too)."""
        self.session_secret = new_session_secret()

    def set_password(self, password: str) -> None:
        self.password_hash = generate_password_hash(password)
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        return bool(self.password_hash) and check_password_hash(self.password_hash, password)

    def set_pictures(self, pictures: list[str]) -> None:
        # 9 pictures, 3 taps: 729 sequences, so no hash cost protects a stolen hash; what protects a kid is the
        # per-kid lock and the rate limit. A light hash keeps a whole class signing in at once fast.
        self.picture_hash = generate_password_hash("-".join(pictures), method="pbkdf2:sha256:20000")
        self.end_sessions()  # a new picture password signs out a session someone else may hold

    def check_pictures(self, pictures: list[str]) -> bool:
        return bool(self.picture_hash) and check_password_hash(self.picture_hash, "-".join(pictures))

    def locked(self, now: datetime | None = None) -> bool:
        return self.locked_until is not None and self.locked_until > (now or utcnow())


class Group(db.Model):
    """A class (run by teachers) or a family (run by parents); kids sign in with its code."""

    __tablename__ = "kid_group"
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(10))  # class | family
    name: Mapped[str] = mapped_column(sa.String(80))
    code: Mapped[str] = mapped_column(sa.String(12), unique=True, default=new_code)
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    members: Mapped[list[Membership]] = relationship(back_populates="group", cascade="all, delete-orphan")

    __table_args__ = (sa.CheckConstraint("kind in ('class', 'family')", name="kind"), NEVER_REUSE_IDS)


class Membership(db.Model):
    """Who belongs to a group and as what: teachers and kids in a class, parents and kids in a family."""

    __tablename__ = "membership"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(sa.String(10))  # teacher | parent | kid

    group: Mapped[Group] = relationship(back_populates="members")
    user: Mapped[User] = relationship(back_populates="memberships")

    __table_args__ = (sa.UniqueConstraint("group_id", "user_id", name="uq_membership_group_user"),)


LINK_STATUSES = ("pending", "approved")


class ParentLink(db.Model):
    """A parent who follows a kid. A link made with a code is ``pending`` and shows the parent nothing until the
    kid's teacher or the kid's first parent approves it; a parent who makes a kid at home follows it at once."""

    __tablename__ = "parent_link"
    id: Mapped[int] = mapped_column(primary_key=True)
    parent_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(sa.String(10), default="pending")
    created_at: Mapped[datetime | None] = mapped_column(default=utcnow)
    approved_by: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    approved_at: Mapped[datetime | None]

    parent: Mapped[User] = relationship(foreign_keys=[parent_id])

    __table_args__ = (sa.UniqueConstraint("parent_id", "kid_id", name="uq_parent_link_parent_kid"),
                      sa.CheckConstraint("status in ('pending', 'approved')", name="status"), NEVER_REUSE_IDS)

    @property
    def approved(self) -> bool:
        return self.status == "approved"


LINK_DAYS = 7  # a parent link code works for a week, once


class LinkInvitation(db.Model):
    """A code a teacher or a parent made so that one more parent may ask to follow a kid: single use, expires,
    can be withdrawn; redeeming it makes a pending ParentLink. The code is a stored random string, so it names
    this kid's row and nothing a later account could inherit."""

    __tablename__ = "link_invitation"
    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(sa.String(16), unique=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    created_by: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    used_by: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    withdrawn_at: Mapped[datetime | None]

    __table_args__ = (NEVER_REUSE_IDS,)

    def open(self, now: datetime | None = None) -> bool:
        return self.used_at is None and self.withdrawn_at is None and self.expires_at > (now or utcnow())


class TeacherInvitation(db.Model):
    """A teacher asked to teach a class too, by email: they become a teacher of it only when they accept on their
    classes page. Stored whether or not the email is a teacher's, so the one who asks learns nothing about it."""

    __tablename__ = "teacher_invitation"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(sa.String(254), index=True)
    # the teacher account that had this email when the invitation was made: only they may accept (an email
    # nobody had then cannot be claimed by signing up with it later; the inviter is not told either way)
    invitee_id: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    invited_by: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    group: Mapped[Group] = relationship()

    __table_args__ = (sa.UniqueConstraint("group_id", "email", name="uq_teacher_invitation_group_email"),
                      NEVER_REUSE_IDS)


class LessonProgress(db.Model):
    """A kid's best result on a lesson: stars 1-3 once finished."""

    __tablename__ = "lesson_progress"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    lesson_id: Mapped[str] = mapped_column(sa.String(80))
    step: Mapped[int] = mapped_column(default=0)  # the step to go on with
    stars: Mapped[int] = mapped_column(default=0)  # the best run's stars
    mistakes: Mapped[int] = mapped_column(default=0)  # wrong answers in the current run
    hints: Mapped[int] = mapped_column(default=0)  # hints asked for in the current run
    finished_at: Mapped[datetime | None]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __table_args__ = (sa.UniqueConstraint("kid_id", "lesson_id", name="uq_lesson_progress_kid_lesson"),)


class Attempt(db.Model):
    """One try at one puzzle or quiz step: every move, the judge's verdicts, hints and time."""

    __tablename__ = "attempt"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    lesson_id: Mapped[str] = mapped_column(sa.String(80), index=True)
    step: Mapped[int]
    moves: Mapped[list] = mapped_column(sa.JSON, default=list)  # [{"move": "D4", "verdict": ..., "reply": ...}]
    first_move: Mapped[str | None] = mapped_column(sa.String(8))  # for the teacher's mistake map
    result: Mapped[str] = mapped_column(sa.String(10), default="open")  # open | solved | failed
    hints: Mapped[int] = mapped_column(default=0)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]


class StepShown(db.Model):
    """A lesson or practice step put in front of a kid: time on task is measured from here (``teach.web.timing``),
    so a one-move puzzle counts the thinking before the move, not the zero seconds from its first move to its end."""

    __tablename__ = "step_shown"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    lesson_id: Mapped[str] = mapped_column(sa.String(80))  # a lesson id or a practice key, as attempts store it
    step: Mapped[int]
    shown_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (sa.Index("ix_step_shown_kid_shown_at", "kid_id", "shown_at"),)


class StickerAward(db.Model):
    """A sticker in a kid's sticker book; the unique constraint makes double clicks and two tabs harmless."""

    __tablename__ = "sticker_award"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    sticker_id: Mapped[str] = mapped_column(sa.String(80))
    awarded_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (sa.UniqueConstraint("kid_id", "sticker_id", name="uq_sticker_award_kid_sticker"),)


class Assignment(db.Model):
    """A lesson a teacher gives a class (every kid) or chosen kids of it, due on a day.

    A topic given as homework becomes one assignment per lesson of the topic, so the dashboard grid and the kid's
    map deal with lessons only."""

    __tablename__ = "assignment"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    lesson_id: Mapped[str] = mapped_column(sa.String(80))
    topic_id: Mapped[str | None] = mapped_column(sa.String(80))  # set when the lesson came with a whole topic
    kid_ids: Mapped[list | None] = mapped_column(sa.JSON)  # chosen kids; None: the whole class
    # a practice set given as homework: every kid of the class gets the same puzzles (one seed); its lesson_id is
    # the key practice attempts are stored under, practice:<topic>:<level>:<seed>
    practice_topic: Mapped[str | None] = mapped_column(sa.String(40))
    practice_level: Mapped[int | None]
    practice_seed: Mapped[int | None]
    due_on: Mapped[date]
    created_by: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    def for_kid(self, kid_id: int) -> bool:
        return self.kid_ids is None or kid_id in self.kid_ids

    @property
    def is_practice(self) -> bool:
        return self.practice_topic is not None


class TeacherLesson(db.Model):
    """A lesson file a teacher uploaded for their classes; only files the lesson checker accepted are kept."""

    __tablename__ = "teacher_lesson"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    lesson_id: Mapped[str] = mapped_column(sa.String(80))
    filename: Mapped[str] = mapped_column(sa.String(200))
    source: Mapped[str] = mapped_column(sa.Text)  # the YAML as uploaded
    # each puzzle's whole proof, by its key (``teach.go.proof``), made with the upload's proof: kids' moves are
    # answered with lookups. None for a lesson saved before proofs were kept (its moves are read live)
    proofs: Mapped[dict | None] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # a draft (None) until its teacher publishes it to the classes they choose (TeacherLessonClass)
    published_at: Mapped[datetime | None]

    __table_args__ = (sa.UniqueConstraint("owner_id", "lesson_id", name="uq_teacher_lesson_owner_lesson"),)


class TeacherLessonClass(db.Model):
    """A class a teacher's own lesson is published to: its kids see it once the lesson is published."""

    __tablename__ = "teacher_lesson_class"
    lesson_pk: Mapped[int] = mapped_column(sa.ForeignKey("teacher_lesson.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), primary_key=True,
                                          index=True)


PROOF_KINDS = ("lesson", "sgf")  # a lesson file upload | a puzzle made from an SGF and a form
PROOF_STATUSES = ("queued", "running", "done", "refused", "failed")
PENDING = ("queued", "running")


class ProofJob(db.Model):
    """A teacher's upload waiting for (or past) its proof. The reader's proof of a puzzle can take long, so it runs
    outside the request, in a child process with one overall deadline; the upload page follows this row.

    Two partial unique indexes let the database itself keep the queue's promises under any number of workers: at
    most one running job per teacher, and one pending job per content (the same upload twice is one job)."""

    __tablename__ = "proof_job"
    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(sa.String(10))
    filename: Mapped[str] = mapped_column(sa.String(200))
    source: Mapped[str] = mapped_column(sa.Text)  # the lesson YAML as uploaded; for an SGF puzzle its clean position
    fields: Mapped[dict] = mapped_column(sa.JSON, default=dict)  # the form of an SGF puzzle (goal, targets, texts...)
    content_hash: Mapped[str] = mapped_column(sa.String(64))
    status: Mapped[str] = mapped_column(sa.String(10), default="queued", index=True)
    # errors [{file, line, column, message}], problem (a code the page words), puzzles, title, lesson_pk
    result: Mapped[dict | None] = mapped_column(sa.JSON)
    seconds: Mapped[float | None]
    tries: Mapped[int] = mapped_column(default=0)  # claims so far: a job that took its runner down is not retried
    runner: Mapped[str | None] = mapped_column(sa.String(80))  # who claimed it (host, process, thread)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        sa.CheckConstraint("kind in ('lesson', 'sgf')", name="kind"),
        sa.CheckConstraint("status in ('queued', 'running', 'done', 'refused', 'failed')", name="status"),
        sa.Index("ix_proof_job_one_running", "owner_id", unique=True,
                 sqlite_where=sa.text("status = 'running'"), postgresql_where=sa.text("status = 'running'")),
        sa.Index("ix_proof_job_one_pending", "owner_id", "content_hash", unique=True,
                 sqlite_where=sa.text("status in ('queued', 'running')"),
                 postgresql_where=sa.text("status in ('queued', 'running')")),
    )

    @property
    def pending(self) -> bool:
        return self.status in PENDING


GAME_KINDS = ("capture", "full")  # the capture game (first to capture N stones) | a full game, counted at the end
OPPONENTS = ("computer", "gnugo", "friend")  # the built-in bot | GNU Go | someone at the same tablet
GAME_STATES = ("playing", "counting", "finished")


class PlayedGame(db.Model):
    """A game a kid played: against the computer (a level), or with a parent or sibling on the same tablet.

    ``moves`` is the whole record (GTP points and ``pass``), replayed through the engine to rebuild the position;
    ``ply`` is its length, and every change is written ``WHERE ply = <what the page saw>``, so the same tap from two
    tabs, or sent twice, plays once. ``result`` is SGF's RE (``B+R``, ``W+3.5``, ``0``; ``B+C3`` for a capture
    game won by three captures); ``dead`` the stones the players marked dead while counting."""

    __tablename__ = "played_game"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(sa.String(10))
    size: Mapped[int]
    komi: Mapped[float]  # in points: 7.5 is 贴3¾子
    handicap: Mapped[int] = mapped_column(default=0)
    capture_goal: Mapped[int | None]  # the capture game's N (1, 3 or 5); None for a full game
    kid_color: Mapped[str] = mapped_column(sa.String(5))  # black | white (pass and play: the kid's side)
    opponent: Mapped[str] = mapped_column(sa.String(10))
    level: Mapped[int | None]  # the computer's level
    friend_name: Mapped[str | None] = mapped_column(sa.String(40))  # pass and play: who sat with the kid
    # a live game against a classmate: the classmate's account (its id only: ids are never handed out again, so
    # a gone account's id names no one else, and ``friend_name`` keeps the name played with); None at one tablet
    friend_id: Mapped[int | None]
    seed: Mapped[int] = mapped_column(default=0)  # the computer's random choices replay from it
    moves: Mapped[list] = mapped_column(sa.JSON, default=list)
    ply: Mapped[int] = mapped_column(default=0)
    state: Mapped[str] = mapped_column(sa.String(10), default="playing", index=True)
    dead: Mapped[list] = mapped_column(sa.JSON, default=list)
    # the dead stones the computer proposed when counting began: against the computer the kid may mark more of
    # the kid's own stones dead, or the computer's alive, but not the other way round (play on to settle it)
    proposed: Mapped[list | None] = mapped_column(sa.JSON)
    result: Mapped[str | None] = mapped_column(sa.String(20))
    winner: Mapped[str | None] = mapped_column(sa.String(5))  # black | white | None (a draw, or not over)
    reviewed: Mapped[bool] = mapped_column(default=False)  # the review has looked for missed captures
    # when a review runner claimed the game (None: waiting); a claim older than the review's deadline is stale
    review_started_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        sa.CheckConstraint("kind in ('capture', 'full')", name="kind"),
        sa.CheckConstraint("opponent in ('computer', 'gnugo', 'friend')", name="opponent"),
        sa.CheckConstraint("state in ('playing', 'counting', 'finished')", name="state"),
        sa.CheckConstraint("kid_color in ('black', 'white')", name="kid_color"),
        NEVER_REUSE_IDS,
    )


REVIEW_KINDS = ("missed-capture", "unsaved-atari", "self-atari")


class MissedCapture(db.Model):
    """A moment of a kid's game the review found (a capture not taken, stones in atari not saved, a self-atari),
    kept as a retry puzzle on the game's position: ``black``/``white`` the stones, ``to_play`` the kid's colour,
    ``goal`` capture or save and ``target`` the stones it is about, judged by the lesson puzzles' judge."""

    __tablename__ = "missed_capture"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("played_game.id", ondelete="CASCADE"), index=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    move_number: Mapped[int]  # the kid's move that missed it (1 = the game's first move)
    kind: Mapped[str] = mapped_column(sa.String(16))
    size: Mapped[int]
    black: Mapped[list] = mapped_column(sa.JSON, default=list)
    white: Mapped[list] = mapped_column(sa.JSON, default=list)
    to_play: Mapped[str] = mapped_column(sa.String(5))
    goal: Mapped[str] = mapped_column(sa.String(10))  # capture | save
    target: Mapped[str] = mapped_column(sa.String(4))  # a stone of the chain to capture or to save
    played: Mapped[str] = mapped_column(sa.String(4))  # what the kid played instead
    answers: Mapped[list] = mapped_column(sa.JSON, default=list)  # moves that work (the review's "show me")
    # the retry puzzle's whole proof (``teach.go.proof.Proof.to_json``), made by the review: the kid's moves are
    # answered with lookups. None when it was too big to prove in the review's time (its moves are read live)
    proof: Mapped[dict | None] = mapped_column(sa.JSON)
    status: Mapped[str] = mapped_column(sa.String(10), default="open")  # open | solved | skipped
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    solved_at: Mapped[datetime | None]

    __table_args__ = (
        sa.CheckConstraint("kind in ('missed-capture', 'unsaved-atari', 'self-atari')", name="kind"),
        sa.CheckConstraint("status in ('open', 'solved', 'skipped')", name="status"),
        sa.UniqueConstraint("game_id", "move_number", "kind", name="uq_missed_capture_game_move_kind"),
        NEVER_REUSE_IDS,
    )


# ---------------------------------------------------------------------- live games between classmates
LIVE_STATES = ("playing", "counting", "disputed", "adjourned", "finished")
AWAY_OUTCOMES = ("adjourn", "abandon")  # what happens to a game a player left for longer than the teacher allows


class PlayRoom(db.Model):
    """A class's play room as its teacher set it: the games children may invite each other to, and how long a
    game waits for a child who left before it is adjourned (resumable later) or counted as abandoned."""

    __tablename__ = "play_room"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), unique=True)
    invitations_open: Mapped[bool] = mapped_column(default=True)
    kinds: Mapped[list] = mapped_column(sa.JSON, default=list)  # "capture-7", "capture-9", "full-9", ...
    capture_goal: Mapped[int] = mapped_column(default=3)
    away_seconds: Mapped[int] = mapped_column(default=120)
    away_outcome: Mapped[str] = mapped_column(sa.String(8), default="adjourn")
    # when the teacher stopped the class's games (the lesson is over): until the teacher lets them play again,
    # starts a round, or ``live.STOP_HOURS`` have passed, no game of the class is played on or started
    stopped_at: Mapped[datetime | None]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __table_args__ = (sa.CheckConstraint("away_outcome in ('adjourn', 'abandon')", name="away_outcome"),)


class RoomPresence(db.Model):
    """A child is in a class's play room while their room or game page keeps saying so (``seen_at``)."""

    __tablename__ = "room_presence"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (sa.UniqueConstraint("group_id", "kid_id", name="uq_room_presence_group_kid"),)


class LiveRound(db.Model):
    """A round the teacher started for the class with one click: every child present paired, one game each."""

    __tablename__ = "live_round"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    teacher_id: Mapped[int | None] = mapped_column(sa.ForeignKey("account.id", ondelete="SET NULL"))
    pairing: Mapped[str] = mapped_column(sa.String(8))  # random | level
    kind: Mapped[str] = mapped_column(sa.String(10))
    size: Mapped[int]
    capture_goal: Mapped[int | None]
    away_seconds: Mapped[int]
    away_outcome: Mapped[str] = mapped_column(sa.String(8))
    sitting_out: Mapped[list] = mapped_column(sa.JSON, default=list)  # an odd child out: their ids
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (sa.CheckConstraint("pairing in ('random', 'level')", name="pairing"), NEVER_REUSE_IDS)


class LiveGame(db.Model):
    """A game between two children of a class, each on their own device, served by whichever app instance a
    request reaches: all of its state is this row. ``moves``/``ply`` as in ``PlayedGame`` (a move is written
    ``WHERE ply = <what the page saw>``); ``version`` grows with every change anyone can see (a move, an offer,
    a reaction, a tap while counting), so pages ask "anything new since version n?". When the game finishes, each
    child gets a ``PlayedGame`` copy (``black_record_id``/``white_record_id``): their games list, replay, review,
    stickers, and what their teacher and parents see, as for any other game."""

    __tablename__ = "live_game"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    round_id: Mapped[int | None] = mapped_column(sa.ForeignKey("live_round.id", ondelete="SET NULL"), index=True)
    black_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    white_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(sa.String(10))
    size: Mapped[int]
    komi: Mapped[float]
    capture_goal: Mapped[int | None]
    moves: Mapped[list] = mapped_column(sa.JSON, default=list)
    ply: Mapped[int] = mapped_column(default=0)
    version: Mapped[int] = mapped_column(default=1)
    state: Mapped[str] = mapped_column(sa.String(10), default="playing", index=True)
    dead: Mapped[list] = mapped_column(sa.JSON, default=list)
    agreed: Mapped[list] = mapped_column(sa.JSON, default=list)  # the colours that accept the count as marked
    draw_offer: Mapped[str | None] = mapped_column(sa.String(5))  # the colour offering a draw
    reaction: Mapped[dict | None] = mapped_column(sa.JSON)  # the last preset reaction: {"color", "id", "n"}
    reacted_at: Mapped[datetime | None]
    black_seen_at: Mapped[datetime | None]
    white_seen_at: Mapped[datetime | None]
    away_seconds: Mapped[int] = mapped_column(default=120)
    away_outcome: Mapped[str] = mapped_column(sa.String(8), default="adjourn")
    result: Mapped[str | None] = mapped_column(sa.String(20))
    winner: Mapped[str | None] = mapped_column(sa.String(5))
    end_reason: Mapped[str | None] = mapped_column(sa.String(12))  # captures | resign | count | settled | draw | abandoned | passes
    black_record_id: Mapped[int | None] = mapped_column(sa.ForeignKey("played_game.id", ondelete="SET NULL"))
    white_record_id: Mapped[int | None] = mapped_column(sa.ForeignKey("played_game.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        sa.CheckConstraint("kind in ('capture', 'full')", name="kind"),
        sa.CheckConstraint("state in ('playing', 'counting', 'disputed', 'adjourned', 'finished')", name="state"),
        sa.CheckConstraint("black_id <> white_id", name="two_players"),
        NEVER_REUSE_IDS,
    )

    handicap = 0  # classmates play even games (the record's replay asks)

    def color_of(self, kid_id: int) -> str | None:
        return "black" if kid_id == self.black_id else "white" if kid_id == self.white_id else None


class LiveSeat(db.Model):
    """A child's seat in the live game they are playing now. The child is the key, so the database itself refuses
    a second game going on at once — two rounds started in the same instant from two tabs, an invitation accepted
    while a round starts, on any instances. Taken when a game starts or is resumed, given back when it finishes or
    rests (teach/web/live.py)."""

    __tablename__ = "live_seat"
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), primary_key=True,
                                        autoincrement=False)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("live_game.id", ondelete="CASCADE"), index=True)


INVITATION_STATES = ("pending", "accepted", "declined", "withdrawn")


class LiveInvitation(db.Model):
    """A child's invitation to a classmate in the play room; answered once (a conditional update decides between an
    accept and a withdrawal arriving together)."""

    __tablename__ = "live_invitation"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(sa.ForeignKey("kid_group.id", ondelete="CASCADE"), index=True)
    from_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    to_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(sa.String(10))
    size: Mapped[int]
    capture_goal: Mapped[int | None]
    state: Mapped[str] = mapped_column(sa.String(10), default="pending", index=True)
    game_id: Mapped[int | None] = mapped_column(sa.ForeignKey("live_game.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    answered_at: Mapped[datetime | None]

    __table_args__ = (
        sa.CheckConstraint("state in ('pending', 'accepted', 'declined', 'withdrawn')", name="state"),
        NEVER_REUSE_IDS,
    )


class RankPlacement(db.Model):
    """A kid's placement test (teach/web/rank.py): the rank points a child who already knows some Go starts with.
    Taken once (the unique kid keeps a second tab or a replay from adding to it); ``answers`` are the test's
    puzzles as answered, for a teacher or parent who asks why."""

    __tablename__ = "rank_placement"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"), unique=True)
    points: Mapped[int] = mapped_column(default=0)
    answers: Mapped[list] = mapped_column(sa.JSON, default=list)  # [{"puzzle": i, "right": bool}]
    taken_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (sa.CheckConstraint("points >= 0", name="points"), NEVER_REUSE_IDS)
