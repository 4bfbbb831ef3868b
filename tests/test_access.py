"""Who may see what: every route of the app × every kind of visitor gets exactly the intended answer.

The visitors: nobody signed in, the kid, another kid (a classmate), the kid's teacher, another teacher (with a
class of their own), the kid's linked parent and another parent (with a family of their own). A route without an
expectation here fails the test, so a new page cannot ship without saying who may open it. Whenever the answer
is a refusal (sign in, 401, 403, 404), the database must be exactly as it was.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from teach.models import (Assignment, Attempt, Group, LessonProgress, LinkInvitation, Membership, MissedCapture,
                          ParentLink, PlayedGame, ProofJob, StepShown, StickerAward, TeacherInvitation, TeacherLesson,
                          User)
from teach.web.extensions import db

ANON, KID, OTHER_KID, TEACHER, OTHER_TEACHER, PARENT, OTHER_PARENT = (
    "anonymous", "kid", "other kid", "teacher", "other teacher", "parent", "other parent")
ROLES = (ANON, KID, OTHER_KID, TEACHER, OTHER_TEACHER, PARENT, OTHER_PARENT)
LOGIN = "login"  # a redirect to the adults' sign-in
KID_LOGIN = "kid login"  # a redirect to the kids' sign-in
REFUSED = {LOGIN, KID_LOGIN, 401, 403, 404}


def teacher_only(mine, other=404):
    return {ANON: LOGIN, KID: 403, OTHER_KID: 403, TEACHER: mine, OTHER_TEACHER: other, PARENT: 403,
            OTHER_PARENT: 403}


def parent_only(mine, other=404):
    return {ANON: LOGIN, KID: 403, OTHER_KID: 403, TEACHER: 403, OTHER_TEACHER: 403, PARENT: mine,
            OTHER_PARENT: other}


def kids_only(code, anonymous=KID_LOGIN):
    return {ANON: anonymous, KID: code, OTHER_KID: code, TEACHER: 403, OTHER_TEACHER: 403, PARENT: 403,
            OTHER_PARENT: 403}


def everyone(code, **override):
    answer = {role: code for role in ROLES}
    answer.update({k.replace("_", " "): v for k, v in override.items()})
    return answer


# (endpoint, method) -> (URL arguments, request body, {visitor: answer})
PUZZLE = {"lesson_id": "web-first", "step": 1}
PRACTICE = {"drill": "capture", "level": 1, "seed": 7, "step": 0}
EXPECT = {
    ("static", "GET"): ({"filename": "teach.css"}, None, everyone(200)),
    ("main.home", "GET"): ({}, None, everyone(200, kid=302, other_kid=302)),
    ("main.language", "POST"): ({}, {"lang": "en"}, everyone(302)),
    ("auth.login", "GET"): ({}, None, everyone(200)),
    ("auth.login", "POST"): ({}, {"email": "x"}, everyone(200)),
    ("auth.signup", "GET"): ({}, None, everyone(200)),
    ("auth.signup", "POST"): ({}, {"email": "x"}, everyone(200)),
    ("auth.logout", "POST"): ({}, None, everyone(302, anonymous=LOGIN, kid=KID_LOGIN, other_kid=KID_LOGIN)),
    ("auth.kid_code", "GET"): ({}, None, everyone(200)),
    ("auth.kid_code", "POST"): ({}, {"code": "!"}, everyone(200)),
    ("auth.kid_avatars", "GET"): ({"code": "{code}"}, None, everyone(200)),
    ("auth.kid_pictures", "GET"): ({"code": "{code}", "kid_id": "{kid}"}, None, everyone(200)),
    ("auth.kid_pictures", "POST"): ({"code": "{code}", "kid_id": "{kid}"}, {"pictures": "sun,sun,sun"},
                                    everyone(200)),
    ("kid.lesson_map", "GET"): ({}, None, kids_only(200)),
    ("kid.stickers", "GET"): ({}, None, kids_only(200)),
    ("kid.service_worker", "GET"): ({}, None, everyone(200)),  # the offline helper: a static script
    ("kid.lesson", "GET"): ({"lesson_id": "web-first"}, None, kids_only(302)),
    ("kid.step", "GET"): ({"lesson_id": "web-first", "step": 0}, None, kids_only(200)),
    ("kid.move", "POST"): (PUZZLE, {"json": {"move": "D4"}}, kids_only(200, anonymous=401)),
    ("kid.hint", "POST"): (PUZZLE, {"json": {}}, kids_only(200, anonymous=401)),
    ("kid.answer", "POST"): ({"lesson_id": "web-first", "step": 2}, {"json": {"points": ["D5"]}},
                             kids_only(200, anonymous=401)),
    ("kid.settings", "POST"): ({}, {"json": {"narrate": False}}, kids_only(200, anonymous=401)),
    ("kid.next_step", "POST"): ({"lesson_id": "web-first", "step": 0}, None, kids_only(302)),
    ("practice.choose", "GET"): ({}, None, kids_only(200)),
    ("practice.start", "GET"): ({"drill": "escape", "level": 1}, None, kids_only(302)),  # capture: its lesson first
    ("practice.step", "GET"): (PRACTICE, None, kids_only(200)),
    ("practice.move", "POST"): (PRACTICE, {"json": {"move": "A1"}}, kids_only(200, anonymous=401)),
    ("practice.answer", "POST"): (PRACTICE, {"json": {"points": ["A1"]}}, kids_only(404, anonymous=401)),
    ("practice.hint", "POST"): (PRACTICE, {"json": {}}, kids_only(200, anonymous=401)),
    ("teacher.classes", "GET"): ({}, None, teacher_only(200, 200)),
    ("teacher.create_class", "POST"): ({}, {"name": "New"}, teacher_only(302, 302)),
    ("teacher.worksheet", "GET"): ({}, None, teacher_only(200, 200)),
    ("teacher.own_lessons", "GET"): ({}, None, teacher_only(200, 200)),
    ("teacher.own_lessons", "POST"): ({}, {}, teacher_only(422, 422)),
    ("teacher.sgf_problem", "GET"): ({}, None, teacher_only(200, 200)),
    ("teacher.sgf_problem", "POST"): ({}, {}, teacher_only(422, 422)),
    ("teacher.own_lesson", "GET"): ({"lesson_pk": "{own_lesson}"}, None, teacher_only(200)),
    ("teacher.delete_own_lesson", "POST"): ({"lesson_pk": "{own_lesson}"}, {"confirm": "1"}, teacher_only(302)),
    ("teacher.class_page", "GET"): ({"class_id": "{class}"}, None, teacher_only(200)),
    ("teacher.rename_class", "POST"): ({"class_id": "{class}"}, {"name": "Renamed"}, teacher_only(302)),
    ("teacher.archive_class", "POST"): ({"class_id": "{class}"}, {"archived": "1", "confirm": "1"},
                                        teacher_only(302)),
    ("teacher.new_class_code", "POST"): ({"class_id": "{class}"}, None, teacher_only(302)),
    ("teacher.add_teacher", "POST"): ({"class_id": "{class}"}, {"email": "zhao@example.com"}, teacher_only(302)),
    ("teacher.add_kids", "POST"): ({"class_id": "{class}"}, {"names": "Newkid"}, teacher_only(200)),
    ("teacher.cards", "GET"): ({"class_id": "{class}"}, None, teacher_only(200)),
    ("teacher.dashboard", "GET"): ({"class_id": "{class}"}, None, teacher_only(200)),
    ("teacher.progress_csv", "GET"): ({"class_id": "{class}"}, None, teacher_only(200)),
    ("teacher.mistakes", "GET"): ({"class_id": "{class}", **PUZZLE}, None, teacher_only(200)),
    ("teacher.assign", "POST"): ({"class_id": "{class}"}, {"what": "lesson:web-first", "due": "{today}"},
                                 teacher_only(302)),
    ("teacher.unassign", "POST"): ({"class_id": "{class}", "assignment_id": "{assignment}"}, {"confirm": "1"},
                                   teacher_only(302)),
    ("teacher.kid_detail", "GET"): ({"class_id": "{class}", "kid_id": "{kid}"}, None, teacher_only(200)),
    ("teacher.replay", "GET"): ({"class_id": "{class}", "kid_id": "{kid}", "attempt_id": "{attempt}"}, None,
                                teacher_only(200)),
    ("teacher.reset_pictures", "POST"): ({"class_id": "{class}", "kid_id": "{kid}"}, {"confirm": "1"},
                                         teacher_only(200)),
    ("teacher.reset_all_pictures", "POST"): ({"class_id": "{class}"}, {"confirm": "1"}, teacher_only(200)),
    ("teacher.unlock_kid", "POST"): ({"class_id": "{class}", "kid_id": "{kid}"}, None, teacher_only(302)),
    ("teacher.archive_kid", "POST"): ({"class_id": "{class}", "kid_id": "{kid}"}, {"archived": "1", "confirm": "1"},
                                      teacher_only(302)),
    ("teacher.move_kid", "POST"): ({"class_id": "{class}", "kid_id": "{kid}"}, {"to": "{other_class}"},
                                   teacher_only(404)),  # the other class is not this teacher's
    ("teacher.remove_kid", "POST"): ({"class_id": "{class}", "kid_id": "{kid}"}, {"confirm": "1"},
                                     teacher_only(302)),
    ("parent.home", "GET"): ({}, None, parent_only(200, 200)),
    ("parent.link", "POST"): ({}, {"code": "not-a-code"}, parent_only(302, 302)),
    ("parent.create_family", "POST"): ({}, {"name": "Home"}, parent_only(302, 302)),
    ("parent.add_kid", "POST"): ({"family_id": "{family}"}, {"name": "Newkid"}, parent_only(200)),
    ("parent.kid_page", "GET"): ({"kid_id": "{kid}"}, None, parent_only(200)),
    ("parent.reset_pictures", "POST"): ({"kid_id": "{kid}"}, {"confirm": "1"}, parent_only(200)),
    ("parent.export", "GET"): ({"kid_id": "{kid}"}, None, parent_only(200)),
    ("parent.week", "GET"): ({"kid_id": "{kid}"}, None, parent_only(200)),
    ("parent.delete", "POST"): ({"kid_id": "{kid}"}, {"confirm": "明明"}, parent_only(302)),
    ("parent.report", "GET"): ({"kid_id": "{kid}"}, None, parent_only(200)),
    ("parent.practise", "GET"): ({"kid_id": "{kid}"}, None, parent_only(200)),
    # a scanned code's landing page: anybody but a kid or a teacher (it spends and tells nothing)
    ("parent.follow", "GET"): ({"code": "ABCDE-FGHJK"}, None,
                               everyone(200, kid=403, other_kid=403, teacher=403, other_teacher=403)),
    # ------------------------------------------------------------------ who follows a kid, teachers invited
    # (the world: the other parent's link to the kid is pending, so it shows them nothing; the other teacher is
    # invited to the kid's class and is not a member of it)
    ("teacher.new_invitation", "POST"): ({"class_id": "{class}", "kid_id": "{kid}"}, None, teacher_only(302)),
    ("teacher.withdraw_invitation", "POST"): ({"class_id": "{class}", "kid_id": "{kid}",
                                               "invitation_id": "{invitation}"}, None, teacher_only(302)),
    ("teacher.approve_link", "POST"): ({"class_id": "{class}", "kid_id": "{kid}", "link_id": "{pending_link}"},
                                       None, teacher_only(302)),
    ("teacher.remove_link", "POST"): ({"class_id": "{class}", "kid_id": "{kid}", "link_id": "{pending_link}"},
                                      {"confirm": "1"}, teacher_only(302)),
    ("teacher.withdraw_teacher_invitation", "POST"): ({"class_id": "{class}",
                                                       "invitation_id": "{teacher_invitation}"}, None,
                                                      teacher_only(302)),
    ("teacher.accept_invitation", "POST"): ({"invitation_id": "{teacher_invitation}"}, None,
                                            teacher_only(404, 302)),  # only the invited teacher
    ("teacher.decline_invitation", "POST"): ({"invitation_id": "{teacher_invitation}"}, None,
                                             teacher_only(404, 302)),
    ("parent.new_invitation", "POST"): ({"kid_id": "{kid}"}, None, parent_only(302)),
    ("parent.withdraw_invitation", "POST"): ({"kid_id": "{kid}", "invitation_id": "{invitation}"}, None,
                                             parent_only(302)),
    ("parent.invitation", "GET"): ({"kid_id": "{kid}", "invitation_id": "{invitation}"}, None, parent_only(200)),
    ("parent.approve_link", "POST"): ({"kid_id": "{kid}", "link_id": "{pending_link}"}, {"confirm": "1"},
                                      parent_only(302)),
    ("parent.remove_link", "POST"): ({"kid_id": "{kid}", "link_id": "{pending_link}"}, {"confirm": "1"},
                                     parent_only(302)),
}


def routes(app) -> set[tuple[str, str]]:
    return {(rule.endpoint, method) for rule in app.url_map.iter_rules()
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def test_every_route_has_an_expectation_for_every_visitor():
    from teach.web import create_app

    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert routes(app) - EXPECT.keys() == set(), "routes nobody said who may open"
    assert EXPECT.keys() - routes(app) == set(), "expectations for routes that are gone"
    assert all(set(answer) == set(ROLES) for _, _, answer in EXPECT.values())


# ---------------------------------------------------------------------- the world
OWN_LESSON = (Path(__file__).resolve().parent / "web_lessons" / "capture" / "web-second.yaml").read_text() \
    .replace("web-second", "my-own")


def _user(role, name, email=None, avatar=None):
    user = User(role=role, name=name, email=email, avatar=avatar, password_hash="-", picture_hash="-")
    db.session.add(user)
    return user


def build_world() -> dict:
    """Cheap accounts (visitors are signed in through the session, no password hashing)."""
    kid, other_kid = _user("kid", "明明", avatar="panda"), _user("kid", "Tom", avatar="rocket")
    teacher = _user("teacher", "Ms Wang", "teacher@example.com")
    other_teacher = _user("teacher", "Mr Zhao", "zhao@example.com")
    parent = _user("parent", "Mum", "parent@example.com")
    other_parent = _user("parent", "Dad", "dad@example.com")
    klass = Group(kind="class", name="Little Mice", code="CAT234")
    other_class = Group(kind="class", name="Tigers", code="TIG234")
    family = Group(kind="family", name="Home", code="HOME56")
    other_family = Group(kind="family", name="Other home", code="HOME78")
    klass.members += [Membership(user=teacher, role="teacher"), Membership(user=kid, role="kid"),
                      Membership(user=other_kid, role="kid")]
    other_class.members += [Membership(user=other_teacher, role="teacher")]
    family.members += [Membership(user=parent, role="parent"), Membership(user=kid, role="kid")]
    other_family.members += [Membership(user=other_parent, role="parent")]
    db.session.add_all([klass, other_class, family, other_family])
    db.session.flush()
    db.session.add(ParentLink(parent_id=parent.id, kid_id=kid.id, status="approved"))
    pending = ParentLink(parent_id=other_parent.id, kid_id=kid.id, status="pending")
    invitation = LinkInvitation(code="ABCDEFGHJK", kid_id=kid.id, created_by=teacher.id,
                                expires_at=datetime.now() + timedelta(days=7))
    db.session.flush()
    invited = TeacherInvitation(group_id=klass.id, email="zhao@example.com", invitee_id=other_teacher.id,
                                invited_by=teacher.id)
    db.session.add_all([pending, invitation, invited])
    attempt = Attempt(kid_id=kid.id, lesson_id="web-first", step=1, first_move="D4", result="failed",
                      moves=[{"move": "D4", "verdict": "wrong", "reason": "escapes", "reply": "E4"}])
    assignment = Assignment(group_id=klass.id, lesson_id="web-second", due_on=date.today())
    own = TeacherLesson(owner_id=teacher.id, lesson_id="my-own", filename="mine.yaml", source=OWN_LESSON)
    # a finished proof of the teacher's own upload
    job = ProofJob(owner_id=teacher.id, kind="lesson", filename="mine.yaml", source=OWN_LESSON,
                   content_hash="0" * 64, status="done", result={"errors": [], "puzzles": 1, "problem": None,
                                                                  "title": {"zh": "课", "en": "Lesson"}})
    db.session.add_all([own, job, attempt, assignment, LessonProgress(kid_id=kid.id, lesson_id="web-first", step=2),
                        # both kids have reached the lesson's puzzle and quiz (a step further on is refused, 409)
                        LessonProgress(kid_id=other_kid.id, lesson_id="web-first", step=2),
                        StickerAward(kid_id=kid.id, sticker_id="web-first-badge")])
    # games pages: a finished, reviewed game of the kid with one missed capture to retry
    game = PlayedGame(kid_id=kid.id, kind="full", size=9, komi=7.5, kid_color="black", opponent="computer", level=1,
                      moves=["E5", "D5", "C5", "A1", "D6", "J9", "H1", "D4", "pass", "pass"], ply=10,
                      state="finished", result="B+3.5", winner="black", reviewed=True)
    db.session.add(game)
    db.session.flush()
    missed = MissedCapture(game_id=game.id, kid_id=kid.id, move_number=7, kind="missed-capture", size=9,
                           black=["E5", "C5", "D6"], white=["D5", "A1", "J9"], to_play="black", goal="capture",
                           target="D5", played="H1", answers=["D4"])
    db.session.add(missed)
    db.session.commit()
    # a session names an account by id and its session secret (User.get_id)
    return {"users": {KID: kid.get_id(), OTHER_KID: other_kid.get_id(), TEACHER: teacher.get_id(),
                      OTHER_TEACHER: other_teacher.get_id(), PARENT: parent.get_id(),
                      OTHER_PARENT: other_parent.get_id()},
            "args": {"kid": kid.id, "class": klass.id, "other_class": other_class.id, "family": family.id,
                     "attempt": attempt.id, "own_lesson": own.id, "assignment": assignment.id, "code": "CAT234",
                     "today": date.today().isoformat(), "pending_link": pending.id, "invitation": invitation.id,
                     "teacher_invitation": invited.id, "proof_job": job.id, "game": game.id,
                     "missed": missed.id}}


def snapshot() -> dict:
    """Every row the pages could change."""
    tables = {}
    for model in (User, Group, Membership, ParentLink, Assignment, Attempt, LessonProgress, StickerAward,
                  TeacherLesson, LinkInvitation, TeacherInvitation, ProofJob, PlayedGame, MissedCapture, StepShown):
        rows = db.session.execute(sa.select(model.__table__)).all()
        tables[model.__tablename__] = sorted(tuple(str(v) for v in row) for row in rows)
    return tables


# ---------------------------------------------------------------------- uploads being proven (proof jobs)
# a teacher's own upload and its answer: only its owner sees it, every other teacher gets 404
EXPECT[("teacher.proof_job", "GET")] = ({"job_id": "{proof_job}"}, None, teacher_only(200))


# ---------------------------------------------------------------------- play pages
# the kid's games: one going on (with someone at home, so no computer move changes the answer) and one being
# counted (besides the world's finished game); only that kid plays them, another kid gets 404
PLAYING = {"game_id": "{play_game}"}
COUNTING = {"game_id": "{count_game}"}
EXPECT.update({
    ("play.start", "GET"): ({}, None, kids_only(200)),
    ("play.new", "POST"): ({}, {"kind": "capture", "size": "7", "goal": "1", "who": "friend", "color": "black"},
                           kids_only(302)),
    ("play.game", "GET"): (PLAYING, None, kids_only(200) | {OTHER_KID: 404}),
    ("play.move", "POST"): (PLAYING, {"json": {"move": "D4", "ply": 0}}, kids_only(200, anonymous=401)
                            | {OTHER_KID: 404}),
    ("play.count", "POST"): (COUNTING, {"json": {"point": "E7", "ply": 25}}, kids_only(200, anonymous=401)
                             | {OTHER_KID: 404}),
    ("play.count_done", "POST"): (COUNTING, {"json": {"ply": 25}}, kids_only(200, anonymous=401) | {OTHER_KID: 404}),
    ("play.resume", "POST"): (COUNTING, {"json": {"ply": 25}}, kids_only(200, anonymous=401) | {OTHER_KID: 404}),
})
_WALLS = [m for col in "ABCDEFGHJ" for m in (f"{col}5", f"{col}4")] + ["E8", "E7", "D7", "pass", "F7", "pass", "pass"]
_world_before_play = build_world


def build_world() -> dict:  # noqa: F811  (the world above, with the kid's games)
    world = _world_before_play()
    kid_id = world["args"]["kid"]
    common = {"kid_id": kid_id, "kind": "full", "size": 9, "komi": 7.5, "kid_color": "black", "opponent": "friend"}
    playing = PlayedGame(**common, moves=[], ply=0, state="playing", dead=[])
    counting = PlayedGame(**common, moves=_WALLS, ply=len(_WALLS), state="counting", dead=["E7"])
    db.session.add_all([playing, counting])
    db.session.commit()
    world["args"].update(play_game=playing.id, count_game=counting.id)
    return world



# ---------------------------------------------------------------------- games pages
# the kid's own list and practice; a game (replay, SGF, review) for the kid, the kid's teacher and approved parent,
# a 404 for everyone else; the retry puzzles for the kid alone
GAME_SEEN = {ANON: KID_LOGIN, KID: 200, OTHER_KID: 404, TEACHER: 200, OTHER_TEACHER: 404, PARENT: 200,
             OTHER_PARENT: 404}
RETRY = dict(kids_only(200, anonymous=401), **{OTHER_KID: 404})
EXPECT.update({
    ("games.mine", "GET"): ({}, None, kids_only(200)),
    ("games.practice", "GET"): ({}, None, kids_only(200)),
    ("games.replay", "GET"): ({"game_id": "{game}"}, None, GAME_SEEN),
    ("games.sgf", "GET"): ({"game_id": "{game}"}, None, GAME_SEEN),
    ("games.review", "GET"): ({"game_id": "{game}"}, None, GAME_SEEN),
    ("games.review_status", "GET"): ({"game_id": "{game}"}, None, GAME_SEEN),
    ("games.retry_move", "POST"): ({"missed_id": "{missed}"}, {"json": {"move": "D4"}}, RETRY),
    ("games.show_answer", "POST"): ({"missed_id": "{missed}"}, {"json": {}}, RETRY),
    ("games.skip", "POST"): ({"missed_id": "{missed}"}, {"json": {}}, RETRY),
})


# ---------------------------------------------------------------------- the play room and live games
# a game between the kid (Black) and Lily, a classmate; the other kid is a classmate not in it (404 on the game);
# the kid's teacher and approved parent watch (the teacher also settles and resumes); children's actions are
# for the two players alone
from teach.models import LiveGame, LiveInvitation, LiveRound, PlayRoom, RoomPresence  # noqa: E402

LIVE_PLAYING, LIVE_COUNTING = {"game_id": "{live_playing}"}, {"game_id": "{live_counting}"}
LIVE_DISPUTED, LIVE_ADJOURNED = {"game_id": "{live_disputed}"}, {"game_id": "{live_adjourned}"}
LIVE_SEEN = {ANON: KID_LOGIN, KID: 200, OTHER_KID: 404, TEACHER: 200, OTHER_TEACHER: 404, PARENT: 200,
             OTHER_PARENT: 404}
PLAYER = kids_only(200, anonymous=401) | {OTHER_KID: 404}
WATCHER_OR_PLAYER = {ANON: 401, KID: 200, OTHER_KID: 404, TEACHER: 409, OTHER_TEACHER: 404, PARENT: 403,
                     OTHER_PARENT: 404}
CLASS = {"class_id": "{class}"}
EXPECT.update({
    ("room.home", "GET"): ({}, None, kids_only(302)),
    ("room.room", "GET"): (CLASS, None, kids_only(200)),
    ("room.state", "GET"): (CLASS, None, kids_only(200)),
    ("room.invite", "POST"): (CLASS, {"json": {"to": "{lily}", "game": "capture-7"}}, kids_only(409, anonymous=401)),
    # the invited kid is in games already: accepting reaches the invitation and is told to finish them first
    ("room.answer", "POST"): ({"invitation_id": "{live_invitation}", "action": "accept"}, {"json": {}},
                              kids_only(409, anonymous=401) | {OTHER_KID: 404}),
    ("room.live_view", "GET"): (CLASS, None, teacher_only(200)),
    ("room.live_data", "GET"): (CLASS, None, teacher_only(200)),
    ("room.save_settings", "POST"): (CLASS, {"kinds": "capture-7", "goal": "3", "away": "2", "outcome": "adjourn"},
                                     teacher_only(302)),
    ("room.stop_games", "POST"): (CLASS, {}, teacher_only(302)),
    ("room.play_again", "POST"): (CLASS, {}, teacher_only(302)),
    ("room.start_round", "POST"): (CLASS, {"game": "capture-7", "pairing": "random", "goal": "3", "away": "2",
                                           "outcome": "adjourn"}, teacher_only(302)),
    ("live.page", "GET"): (LIVE_PLAYING, None, LIVE_SEEN),
    ("live.state", "GET"): (LIVE_PLAYING, None, LIVE_SEEN | {ANON: 401}),
    ("live.move", "POST"): (LIVE_PLAYING, {"json": {"move": "D4", "ply": 0}}, PLAYER),
    ("live.resign", "POST"): (LIVE_PLAYING, {"json": {}}, PLAYER),
    ("live.draw", "POST"): (LIVE_PLAYING, {"json": {"action": "offer"}}, PLAYER),
    ("live.react", "POST"): (LIVE_PLAYING, {"json": {"reaction": "thumbs"}}, PLAYER),
    ("live.count", "POST"): (LIVE_COUNTING, {"json": {"point": "A4", "version": 1}}, WATCHER_OR_PLAYER),
    ("live.agree", "POST"): (LIVE_COUNTING, {"json": {"dead": []}}, PLAYER),
    ("live.dispute", "POST"): (LIVE_COUNTING, {"json": {}}, PLAYER),
    ("live.settle", "POST"): (LIVE_DISPUTED, {"json": {"version": 1}}, {ANON: 401, KID: 403, OTHER_KID: 404,
                                                                         TEACHER: 200, OTHER_TEACHER: 404,
                                                                         PARENT: 403, OTHER_PARENT: 404}),
    ("live.resume", "POST"): (LIVE_ADJOURNED, {"json": {}}, WATCHER_OR_PLAYER),
})
_LIVE_WALLS = [m for col in "ABCDEFGHJ" for m in (f"{col}4", f"{col}6")] + ["pass", "pass"]
_world_before_live = build_world


def build_world() -> dict:  # noqa: F811  (the world above, with a classmate and live games)
    world = _world_before_live()
    args = world["args"]
    lily = _user("kid", "Lily", avatar="rabbit")
    db.session.flush()
    db.session.add(Membership(group_id=args["class"], user_id=lily.id, role="kid"))
    common = {"group_id": args["class"], "black_id": args["kid"], "white_id": lily.id, "size": 9, "komi": 7.5,
              "version": 1, "dead": [], "agreed": []}
    playing = LiveGame(**common, kind="capture", capture_goal=3, moves=[], ply=0, state="playing")
    counting = LiveGame(**common | {"kind": "full"}, moves=_LIVE_WALLS, ply=len(_LIVE_WALLS), state="counting")
    disputed = LiveGame(**common | {"kind": "full"}, moves=_LIVE_WALLS, ply=len(_LIVE_WALLS), state="disputed")
    adjourned = LiveGame(**common, kind="capture", capture_goal=3, moves=["E5"], ply=1, state="adjourned")
    db.session.add_all([playing, counting, disputed, adjourned, RoomPresence(group_id=args["class"], kid_id=lily.id)])
    db.session.flush()
    invitation = LiveInvitation(group_id=args["class"], from_id=lily.id, to_id=args["kid"], kind="capture", size=7,
                                capture_goal=3)
    db.session.add(invitation)
    db.session.commit()
    args.update(lily=lily.id, live_playing=playing.id, live_counting=counting.id, live_disputed=disputed.id,
                live_adjourned=adjourned.id, live_invitation=invitation.id)
    return world


_snapshot_before_live = snapshot


def snapshot() -> dict:  # noqa: F811  (every row, the live tables too)
    tables = _snapshot_before_live()
    for model in (PlayRoom, RoomPresence, LiveRound, LiveGame, LiveInvitation):
        rows = db.session.execute(sa.select(model.__table__)).all()
        # a page's "still here" is no change of anything the visitor may not touch
        rows = [tuple(str(v) for k, v in r._mapping.items() if not k.endswith("seen_at")) for r in rows]
        tables[model.__tablename__] = sorted(rows)
    return tables


# ---------------------------------------------------------------------- puzzles made on a board, the demo board
# the editor and the demo board are every teacher's; a puzzle's proof page is its owner's alone, and trying a saved
# puzzle as a kid is for its owner (and teachers sharing a class with them, as the lesson's own page)
EDITOR_ROWS = ["." * 9] * 4 + ["X" + "." * 8, "OX" + "." * 7] + ["." * 9] * 3
EXPECT.update({
    ("teacher.board_editor", "GET"): ({}, None, teacher_only(200, 200)),
    ("teacher.board_editor", "POST"): ({}, {"rows": "/".join(EDITOR_ROWS)}, teacher_only(422, 422)),
    ("teacher.editor_proof", "GET"): ({"job_id": "{editor_job}"}, None, teacher_only(200)),
    ("teacher.try_as_kid", "GET"): ({"lesson_pk": "{own_lesson}"}, None, teacher_only(200)),
    ("teacher.try_move", "POST"): ({"lesson_pk": "{own_lesson}"}, {"json": {"line": [], "move": "A4"}},
                                   teacher_only(200) | {ANON: 401}),
    ("teacher.demo_board", "GET"): ({}, None, teacher_only(200, 200)),
    ("teacher.demo_play", "POST"): ({}, {"json": {"rows": EDITOR_ROWS, "to_play": "black", "moves": ["A4"]}},
                                    teacher_only(200, 200) | {ANON: 401}),
    ("teacher.demo_ask", "POST"): ({}, {"json": {"rows": EDITOR_ROWS, "to_play": "black", "point": "A5"}},
                                   teacher_only(200, 200) | {ANON: 401}),
})
_world_before_editor = build_world


def build_world() -> dict:  # noqa: F811  (the world above, with a puzzle the teacher made on the board)
    world = _world_before_editor()
    sgf = "(;SZ[9]AB[ad][be]AW[ae])"
    teacher_id = int(world["users"][TEACHER].split(":")[0])  # a session's id is "<account id>:<secret>"
    job = ProofJob(owner_id=teacher_id, kind="sgf", filename="board", source=sgf, content_hash="1" * 64,
                   status="done", fields={"setup": {"sgf": sgf, "size": 9, "to_play": "black"}, "goal": "capture",
                                          "text": {"zh": "抓住它", "en": "Catch it"}},
                   result={"errors": [], "puzzles": 1, "problem": None,
                           "solution": {"status": "win", "winning": {"A4": "win"}, "refutations": {"B4": "A4"}}})
    db.session.add(job)
    db.session.commit()
    world["args"]["editor_job"] = job.id
    return world


# publishing a teacher's own lesson to their classes: its owner's alone (a colleague may look at it, not publish it)
EXPECT.update({
    ("teacher.publish_lesson", "GET"): ({"lesson_pk": "{own_lesson}"}, None, teacher_only(200)),
    ("teacher.publish_lesson", "POST"): ({"lesson_pk": "{own_lesson}"}, {"class": "{class}", "action": "publish"},
                                         teacher_only(302)),
})
_snapshot_before_classes = snapshot


def snapshot() -> dict:  # noqa: F811  (the rows above, and the classes an own lesson is published to)
    from teach.models import TeacherLessonClass

    tables = _snapshot_before_classes()
    rows = db.session.execute(sa.select(TeacherLessonClass.__table__)).all()
    tables[TeacherLessonClass.__tablename__] = sorted(tuple(str(v) for v in row) for row in rows)
    return tables


# ---------------------------------------------------------------------- help on puzzles, practice summaries, placement
# "show me" waits for three misses (409 before); the placement test is each kid's own
EXPECT.update({
    ("kid.board_hint", "POST"): (PUZZLE, {"json": {}}, kids_only(200, anonymous=401)),
    ("kid.show_me", "POST"): (PUZZLE, {"json": {}}, kids_only(409, anonymous=401)),
    ("practice.board_hint", "POST"): (PRACTICE, {"json": {}}, kids_only(200, anonymous=401)),
    ("practice.show_me", "POST"): (PRACTICE, {"json": {}}, kids_only(409, anonymous=401)),
    ("practice.summary", "GET"): ({"drill": "capture", "level": 1, "seed": 7}, None, kids_only(200)),
    ("placement.intro", "GET"): ({}, None, kids_only(200)),
    ("placement.step", "GET"): ({"index": 0}, None, kids_only(200)),
    ("placement.move", "POST"): ({"index": 0}, {"json": {"move": "A1"}}, kids_only(200, anonymous=401)),
    ("placement.hint", "POST"): ({"index": 0}, {"json": {}}, kids_only(200, anonymous=401)),
    ("placement.done", "GET"): ({}, None, kids_only(200)),
})


def _fill(value, args):
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        return args[value[1:-1]]
    return value


def _answer(response) -> object:
    if response.status_code == 302:
        where = response.headers["Location"]
        if "/login" in where:
            return LOGIN
        if where.split("?")[0].rstrip("/").endswith("/kids"):
            return KID_LOGIN
    return response.status_code


def _order(answers: dict) -> list[str]:
    """Refused visitors first, so what an allowed visitor does (delete, move, archive) cannot hide a leak."""
    return sorted(ROLES, key=lambda role: answers[role] not in REFUSED)


@pytest.mark.parametrize("endpoint, method", sorted(EXPECT), ids=lambda v: str(v))
def test_each_visitor_gets_exactly_the_intended_answer(app, endpoint, method):
    from flask import url_for

    with app.app_context():
        world = build_world()
    url_args, body, answers = EXPECT[(endpoint, method)]
    args = world["args"]
    with app.test_request_context():
        url = url_for(endpoint, **{k: _fill(v, args) for k, v in url_args.items()})
    got = {}
    for role in _order(answers):
        client = app.test_client()
        if role != ANON:
            with client.session_transaction() as session:
                session["_user_id"] = str(world["users"][role])
                session["_fresh"] = True
        with app.app_context():
            before = snapshot()
        kwargs = {}
        if body and "json" in body:
            kwargs["json"] = {k: _fill(v, args) for k, v in body["json"].items()}
        elif body:
            kwargs["data"] = {k: _fill(v, args) for k, v in body.items()}
        response = client.open(url, method=method, **kwargs)
        got[role] = _answer(response)
        response.close()
        # signing out ends the kid's sessions (a change) and sends the kid to the kids' sign-in, which is no refusal
        if answers[role] in REFUSED and not (endpoint == "auth.logout" and role in (KID, OTHER_KID)):
            with app.app_context():
                assert snapshot() == before, f"{role} changed data through {endpoint} with {got[role]}"
    assert got == answers


CROSSING = sorted(key for key, (url_args, _, _) in EXPECT.items()
                  if key[0].startswith("teacher.") and "class_id" in url_args and len(url_args) > 1
                  and "lesson_id" not in url_args)


@pytest.mark.parametrize("endpoint, method", CROSSING, ids=lambda v: str(v))
def test_a_teacher_reaching_through_their_own_class_for_another_class_s_things_gets_404(app, endpoint, method):
    """The other teacher names their own class and the kid, attempt or assignment of the kid's class."""
    from flask import url_for

    with app.app_context():
        world = build_world()
    url_args, body, _answers = EXPECT[(endpoint, method)]
    args = dict(world["args"], **{"class": world["args"]["other_class"], "other_class": world["args"]["class"]})
    with app.test_request_context():
        url = url_for(endpoint, **{k: _fill(v, args) for k, v in url_args.items()})
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = str(world["users"][OTHER_TEACHER])
    with app.app_context():
        before = snapshot()
    data = {k: _fill(v, args) for k, v in body.items()} if body else None
    response = client.open(url, method=method, data=data)
    assert response.status_code == 404
    with app.app_context():
        assert snapshot() == before


# ---------------------------------------------------------------------- asking first
# what cannot be taken back, or changes a kid's sign-in, asks first: the kid's own teacher gets the question
# (200) and nothing changes until the same form comes back with confirm=1
ASK_FIRST = ["teacher.archive_class", "teacher.unassign", "teacher.reset_pictures", "teacher.reset_all_pictures",
             "teacher.archive_kid", "teacher.remove_kid"]


@pytest.mark.parametrize("endpoint", ASK_FIRST)
def test_the_teacher_is_asked_first_and_the_question_changes_nothing(app, endpoint):
    from flask import url_for

    with app.app_context():
        world = build_world()
    url_args, body, _answers = EXPECT[(endpoint, "POST")]
    args = world["args"]
    with app.test_request_context():
        url = url_for(endpoint, **{k: _fill(v, args) for k, v in url_args.items()})
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = str(world["users"][TEACHER])
    with app.app_context():
        before = snapshot()
    data = {k: _fill(v, args) for k, v in body.items() if k != "confirm"}
    response = client.post(url, data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'name="confirm" value="1"' in page and f'action="{url}"' in page
    with app.app_context():
        assert snapshot() == before
