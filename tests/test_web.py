"""The web foundation and the kid's app: sign-in, languages, the lesson map, judged moves, stars and stickers.

Everything runs against a real database built by the migrations (SQLite, or PostgreSQL when TEST_DATABASE_URL
names one), with CSRF protection on.
"""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from teach.models import Attempt, LessonProgress, StickerAward, User
from teach.web.extensions import db


def kid_login(client, name="明明", pictures=("cat", "fish", "moon"), code="CAT234"):
    with client.application.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == name))
        kid_id = kid.id
    return client.post(f"/kids/{code}/{kid_id}", data={"pictures": ",".join(pictures)}), kid_id


def test_home_page_speaks_chinese_by_default_and_english_when_asked(client):
    zh = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9"}).get_data(as_text=True)
    assert "欢迎来到围棋小课堂" in zh and 'lang="zh-Hans"' in zh
    en = client.get("/", headers={"Accept-Language": "en-US,en;q=0.8"}).get_data(as_text=True)
    assert "Welcome to Go Class" in en and "欢迎" not in en


def test_the_language_switch_wins_over_the_browser(client):
    client.post("/language", data={"lang": "zh", "next": "/"})
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "欢迎来到围棋小课堂" in page


def test_unknown_page_is_a_friendly_404(client):
    r = client.get("/no-such-page", headers={"Accept-Language": "en"})
    assert r.status_code == 404 and "this page is not here" in r.get_data(as_text=True)


def test_a_post_without_csrf_token_is_refused_kindly(client):
    r = client.post("/language", data={"lang": "en"}, csrf=False, headers={"Accept-Language": "en"})
    assert r.status_code == 400 and "reload it and try again" in r.get_data(as_text=True)


def test_teacher_signs_up_and_signs_in_with_a_hashed_password(app, client):
    r = client.post("/signup", data={"role": "teacher", "name": "Ms Li", "email": "Li@Example.com",
                                     "password": "a-long-secret", "confirm": "a-long-secret"})
    assert r.status_code == 302
    with app.app_context():
        user = db.session.scalar(sa.select(User).where(User.email == "li@example.com"))
        assert user.role == "teacher" and "a-long-secret" not in user.password_hash
    client.post("/logout")
    bad = client.post("/login", data={"email": "li@example.com", "password": "wrong-password"},
                      headers={"Accept-Language": "en"})
    assert "do not match" in bad.get_data(as_text=True)
    assert client.post("/login", data={"email": "li@example.com", "password": "a-long-secret"}).status_code == 302


def test_signing_up_twice_with_one_email_keeps_one_account(app, client):
    form = {"role": "parent", "name": "Mum", "email": "mum@example.com", "password": "12345678",
            "confirm": "12345678"}
    client.post("/signup", data=form)
    client.post("/logout")
    again = client.post("/signup", data=form, headers={"Accept-Language": "en"})
    assert "already an account" in again.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User)
                                 .where(User.email == "mum@example.com")) == 1


def test_next_address_to_another_site_is_ignored(demo, client):
    r = client.post("/login?next=//evil.example/x", data={"email": "teacher@example.com",
                                                          "password": "black-cat-42"})
    assert r.status_code == 302 and "evil" not in r.headers["Location"]


def test_kid_signs_in_with_code_avatar_and_pictures(demo, client):
    r = client.post("/kids", data={"code": "cat 234"})
    assert r.headers["Location"].endswith("/kids/CAT234")
    page = client.get("/kids/CAT234").get_data(as_text=True)
    assert "明明" in page and "Lily" in page
    r, _ = kid_login(client)
    assert r.status_code == 302 and r.headers["Location"].endswith("/learn/")


def test_unknown_class_code_gets_a_clear_answer(demo, client):
    r = client.post("/kids", data={"code": "NOPE99"}, headers={"Accept-Language": "en"})
    assert "do not know this code" in r.get_data(as_text=True)
    assert client.get("/kids/NOPE99").status_code == 404


def test_wrong_pictures_lock_only_that_kid(demo, client):
    for _ in range(5):
        r, kid_id = kid_login(client, pictures=("sun", "sun", "sun"))
    assert "resting" in r.get_data(as_text=True) or "休息" in r.get_data(as_text=True)
    r, _ = kid_login(client)  # now even the right pictures wait
    assert r.status_code == 200
    r, _ = kid_login(client, name="Lily", pictures=("star", "apple", "sun"))
    assert r.status_code == 302


def test_a_kid_of_another_group_cannot_sign_in_through_this_code(demo, outsider, client):
    assert client.post(f"/kids/CAT234/{outsider}", data={"pictures": "cat,cat,cat"}).status_code == 404


def test_lesson_map_shows_the_first_lesson_open_and_the_next_locked(demo, client):
    kid_login(client)
    page = client.get("/learn/").get_data(as_text=True)
    assert 'href="/learn/web-first"' in page
    # locked until the first is finished: its card is marked so, and a tap on it says which lesson opens it
    second = page.split('data-lesson="web-second"', 1)[0].rsplit("<li", 1)[1]
    assert "locked" in second and "locked-link" in second
    locked = client.get("/learn/web-second")
    assert locked.status_code == 403
    text = locked.get_data(as_text=True)
    assert 'id="do-first" href="/learn/web-first"' in text and "学完《" in text and "不是给你看的" not in text
    assert client.get("/learn/web-second/0").status_code == 403 and "do-first" in \
        client.get("/learn/web-second/0").get_data(as_text=True)
    # a move or an answer on a locked lesson is refused plainly (JSON), nothing stored
    assert client.post("/learn/web-second/0/move", json={"move": "D4"}).status_code == 403
    assert client.get("/learn/no-such-lesson").status_code == 404


def test_adults_do_not_get_the_kid_pages(demo, client):
    client.post("/login", data={"email": "teacher@example.com", "password": "black-cat-42"})
    assert client.get("/learn/").status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client):
    r = client.get("/learn/")
    assert r.status_code == 302 and "/kids" in r.headers["Location"]


def test_a_move_after_the_session_expired_asks_to_sign_in_again(demo, client):
    r = client.post("/learn/web-first/1/move", json={"move": "E4"}, headers={"Accept-Language": "en"})
    assert r.status_code == 401 and r.get_json()["result"] == "signed-out"
    assert "sign in again" in r.get_json()["message"]


def _play_through_first_lesson(client, wrong_first=False):
    assert client.get("/learn/web-first").headers["Location"].endswith("/learn/web-first/0")
    page = client.get("/learn/web-first/0").get_data(as_text=True)
    assert "data-point=" in page
    client.post("/learn/web-first/0/next")
    if wrong_first:
        r = client.post("/learn/web-first/1/move", json={"move": "D4", "attempt": None, "ply": 0})
        body = r.get_json()
        assert body["result"] == "wrong" and body["reply"] == "E4"
        assert body["reply_rows"] is not None
    body = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()
    assert body["result"] == "correct" and body["next"].endswith("/learn/web-first/2")
    wrong = client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5"]}).get_json()
    assert wrong["result"] == "wrong"
    return client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()


def test_a_whole_lesson_gives_stars_and_exactly_one_sticker(demo, app, client):
    _, kid_id = kid_login(client)
    done = _play_through_first_lesson(client)
    assert done["result"] == "correct" and done["finished"] and done["sticker_new"]
    assert done["stars"] == 2  # one wrong answer on the liberties quiz
    # the second lesson opens, and a replay of the last step does not give the sticker twice
    assert 'href="/learn/web-second"' in client.get("/learn/").get_data(as_text=True)
    again = client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()
    assert again["finished"] and not again["sticker_new"]
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(StickerAward).where(
            StickerAward.kid_id == kid_id, StickerAward.sticker_id == "web-first-badge")) == 1
        progress = db.session.scalar(sa.select(LessonProgress).where(LessonProgress.kid_id == kid_id))
        assert progress.stars == 2 and progress.finished_at is not None
    assert "警长徽章" in client.get("/learn/stickers", headers={"Accept-Language": "zh"}).get_data(as_text=True)


def test_every_move_is_kept_with_its_verdict(demo, app, client):
    _, kid_id = kid_login(client)
    _play_through_first_lesson(client, wrong_first=True)
    with app.app_context():
        attempts = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid_id, Attempt.step == 1)
                                      .order_by(Attempt.id)).all()
        assert [a.first_move for a in attempts] == ["D4", "E4"]
        assert [a.result for a in attempts] == ["failed", "solved"]
        assert attempts[0].moves[0]["reply"] == "E4"


def test_bad_moves_get_friendly_answers_not_errors(demo, client):
    kid_login(client)
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    for bad in ({"move": "Z99"}, {"move": ""}, {"move": 5}, {}, {"move": "E5"}):
        r = client.post("/learn/web-first/1/move", json=bad)
        assert r.status_code in (200, 400), bad
        assert r.get_json()["result"] == "illegal" and r.get_json()["message"]
    assert client.post("/learn/web-first/1/move", data="not json").status_code == 400
    assert client.post("/learn/web-first/9/move", json={"move": "E4"}).status_code == 404
    assert client.post("/learn/web-first/0/move", json={"move": "E4"}).status_code == 404  # an explain step
    assert client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": 99999}).status_code == 404


def test_a_kid_cannot_continue_another_kids_attempt(demo, app, client):
    from teach.models import Attempt

    _, kid_id = kid_login(client)
    with app.app_context():
        lily = db.session.scalar(sa.select(User).where(User.name == "Lily"))
        theirs = Attempt(kid_id=lily.id, lesson_id="web-first", step=1, moves=[], result="open")
        db.session.add(theirs)
        db.session.commit()
        attempt_id = theirs.id
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    r = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": attempt_id, "ply": 0})
    assert r.status_code == 404


def test_progress_is_kept_on_the_server(demo, client, app):
    kid_login(client)
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    other_device = app.test_client()
    kid_login(other_device)
    assert other_device.get("/learn/web-first").headers["Location"].endswith("/learn/web-first/1")


def test_every_interface_string_has_a_chinese_translation(tmp_path):
    """Extracted afresh from the code and templates, so a new string without Chinese fails here."""
    import subprocess
    import sys
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parent.parent
    pot = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "_l",
                    "-o", str(pot), "."], cwd=root, check=True, capture_output=True)
    with open(root / "teach" / "translations" / "zh_Hans_CN" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    with open(pot, "rb") as f:
        template = read_po(f)
    missing = [m.id for m in template if m.id and (catalog.get(m.id) is None or not catalog.get(m.id).string
                                                   or catalog.get(m.id).fuzzy)]
    assert missing == []


def test_practice_sets_are_the_same_for_the_same_seed_and_judged_like_lessons(demo, app, client):
    from teach.web.practice import practice_set

    _, kid_id = kid_login(client)
    assert client.get("/practice/").status_code == 200
    r = client.get("/practice/capture/1?seed=42")
    assert r.headers["Location"].endswith("/practice/capture/1/42/0")
    def page() -> str:  # the same puzzle on the same board; the CSRF token carries the second it was signed
        html = client.get("/practice/capture/1/42/0").get_data(as_text=True)
        return re.sub(r'name="csrf-token" content="[^"]*"|name="csrf_token" value="[^"]*"', "", html)

    assert page() == page()
    puzzle = practice_set("capture", 1, 42)[0]
    right = sorted(puzzle.judge().solve().winning)[0]
    body = client.post("/practice/capture/1/42/0/move", json={"move": right, "attempt": None, "ply": 0}).get_json()
    assert body["result"] in ("correct", "continue")
    with app.app_context():
        assert db.session.scalar(sa.select(Attempt.lesson_id).where(Attempt.kid_id == kid_id)) \
            == "practice:capture:1:42"
    assert client.get("/practice/nope/1/42/0").status_code == 404
    assert client.get("/practice/capture/7/42/0").status_code == 404
    assert client.get("/practice/capture/1/42/99").status_code == 404


def test_a_practice_page_draws_only_the_puzzles_shown_so_far(demo, client):
    """The first puzzle of a fresh set shows once it is drawn, not after all ten; the steps drawn one at a time
    are the whole set's, and the page counts the set's ten."""
    from teach.lessons.practice import SET_SIZE
    from teach.web import practice

    kid_login(client)
    key = ("escape", 1, 4242, 9)
    practice._SETS.pop(key, None)
    page = client.get("/practice/escape/1/4242/0")
    assert page.status_code == 200
    assert len(practice._SETS[key].steps) == 1
    assert client.get("/practice/escape/1/4242/2").status_code == 200
    assert len(practice._SETS[key].steps) == 3
    one_by_one = [practice._SETS[key].steps[i].position for i in range(3)]
    practice._SETS.pop(key)
    whole = practice.practice_set("escape", 1, 4242)
    assert len(whole) == SET_SIZE
    assert [s.position for s in whole[:3]] == one_by_one
    assert client.get(f"/practice/escape/1/4242/{SET_SIZE}").status_code == 404


def test_milestone_stickers_come_once_with_the_first_capture_and_the_first_lesson(demo, app, client):
    _, kid_id = kid_login(client)
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    body = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()
    assert [m["id"] for m in body["milestones"]] == ["milestone-first-capture"]
    done = client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()
    assert [m["id"] for m in done["milestones"]] == ["milestone-first-lesson"]
    again = client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()
    assert again["milestones"] == []
    with app.app_context():
        held = db.session.scalars(sa.select(StickerAward.sticker_id).where(StickerAward.kid_id == kid_id)).all()
    assert sorted(held) == ["milestone-first-capture", "milestone-first-lesson", "web-first-badge"]
    book = client.get("/learn/stickers", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "First capture" in book and "First lesson done" in book


def _store_attempts(app, kid_id, rows):
    with app.app_context():
        db.session.add_all(Attempt(kid_id=kid_id, step=0, moves=[], **row) for row in rows)
        db.session.commit()


def _milestones(body) -> list[str]:
    return [m["id"] for m in body["milestones"]]


@pytest.mark.parametrize("days_before, expected", [(5, []), (6, ["milestone-week"])])
def test_the_week_milestone_comes_on_the_seventh_day_played(demo, app, client, days_before, expected):
    from datetime import timedelta

    from teach.models import utcnow

    _, kid_id = kid_login(client)
    _store_attempts(app, kid_id, [{"lesson_id": "web-first", "result": "failed",
                                   "started_at": utcnow() - timedelta(days=d)}
                                  for d in range(1, days_before + 1) for _ in range(3)])
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    body = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()
    assert _milestones(body) == ["milestone-first-capture"] + expected
    again = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()
    assert again["milestones"] == []


@pytest.mark.parametrize("solved_before, expected", [(8, []), (9, ["milestone-ten-practice"])])
def test_ten_practice_puzzles_give_their_milestone_once(demo, app, client, solved_before, expected):
    from teach.web.practice import practice_set

    _, kid_id = kid_login(client)
    # solved practice puzzles on record, and lesson puzzles that do not count
    _store_attempts(app, kid_id, [{"lesson_id": f"practice:capture:1:{i}", "result": "solved"}
                                  for i in range(solved_before)]
                    + [{"lesson_id": "web-first", "result": "solved"} for _ in range(5)])
    puzzle = practice_set("escape", 1, 7)[0]
    assert puzzle.goal == "save"  # not a capture: the first-capture milestone stays out of this test
    right = sorted(puzzle.judge().solve().winning)[0]
    body = client.post("/practice/escape/1/7/0/move", json={"move": right, "attempt": None, "ply": 0}).get_json()
    assert body["result"] == "correct" and _milestones(body) == expected
    again = client.post("/practice/escape/1/7/0/move", json={"move": right, "attempt": None, "ply": 0}).get_json()
    assert again["result"] == "correct" and _milestones(again) == (["milestone-ten-practice"] if not expected else [])


def test_the_database_refuses_a_second_copy_of_a_sticker(demo, app):
    with app.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "Lily"))
        db.session.add(StickerAward(kid_id=kid.id, sticker_id="web-first-badge"))
        db.session.commit()
        db.session.add(StickerAward(kid_id=kid.id, sticker_id="web-first-badge"))
        try:
            db.session.commit()
        except sa.exc.IntegrityError:
            db.session.rollback()
        else:
            raise AssertionError("a second copy of a sticker was stored")
        assert db.session.scalar(sa.select(sa.func.count()).select_from(StickerAward)
                                 .where(StickerAward.kid_id == kid.id)) == 1


def test_a_move_sent_twice_is_answered_with_the_board_on_record(demo, app, client):
    """A double tap or a second tab: the second copy of a move must not be judged or stored again."""
    with app.app_context():
        from teach.models import Attempt as A

        kid_login(client)
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    # a line that continues: open an attempt by hand whose first move is on record
    with app.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        attempt = A(kid_id=kid.id, lesson_id="web-first", step=1, result="open",
                    moves=[{"move": "F4", "verdict": "continue", "reason": None, "reply": "F3"}])
        db.session.add(attempt)
        db.session.commit()
        attempt_id = attempt.id
    stale = client.post("/learn/web-first/1/move", json={"move": "F4", "attempt": attempt_id, "ply": 0})
    assert stale.status_code == 409 and stale.get_json()["ply"] == 2
    with app.app_context():
        assert len(db.session.get(A, attempt_id).moves) == 1


def test_a_first_move_sent_again_after_its_answer_was_lost_is_stored_and_counted_once(demo, app, client):
    """School wifi drops the answer to a first wrong move; the page sends the same tap again (its tap id with it).
    One attempt and one mistake are on record (two cost the kid a star), and the page starts the puzzle again
    from the record: the attempt is over. A new tap is a new move."""
    from teach.models import Attempt as A
    from teach.models import LessonProgress

    with app.app_context():
        kid_login(client)
    client.post("/learn/web-first/0/next")
    tap = {"move": "A1", "attempt": None, "ply": 0, "tap": "k3x9q2m7ab"}
    first = client.post("/learn/web-first/1/move", json=tap)
    assert first.status_code == 200 and first.get_json()["result"] == "wrong"
    again = client.post("/learn/web-first/1/move", json=tap)
    assert again.status_code == 409 and again.get_json()["result"] == "stale"
    assert again.get_json()["attempt"] is None and again.get_json()["ply"] == 0
    with app.app_context():
        kid = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        stored = db.session.scalar(sa.select(sa.func.count()).select_from(A).where(A.kid_id == kid))
        assert stored == 1 and db.session.scalar(sa.select(LessonProgress.mistakes).where(
            LessonProgress.kid_id == kid, LessonProgress.lesson_id == "web-first")) == 1
    assert again.get_json()["rows"][-1][0] == "."  # the start again: no stone of the kid's on A1
    new = client.post("/learn/web-first/1/move", json={**tap, "tap": "p0w8e7r6t5"})
    assert new.status_code == 200 and new.get_json()["result"] == "wrong"  # another tap: judged and counted
    for bad in ("short", "UPPERCASE1", "x" * 33, 12345678, ["k3x9q2m7ab"]):
        assert client.post("/learn/web-first/1/move", json={**tap, "tap": bad}).status_code == 400


def test_a_whole_class_signs_in_from_one_school_address(demo, app, client):
    from teach.models import Group, Membership
    from teach.web.classroom import class_kids

    with app.app_context():
        klass = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        for i in range(30):
            kid = User(role="kid", name=f"Kid{i:02d}", avatar="panda")
            kid.set_pictures(["sun", "moon", "star"])
            klass.members.append(Membership(user=kid, role="kid"))
        db.session.commit()
        ids = [k.id for k in class_kids(klass.id) if k.name.startswith("Kid")]
    for kid_id in ids:
        other = app.test_client()
        assert other.post("/kids", data={"code": "CAT234"}).status_code == 302
        assert other.post(f"/kids/CAT234/{kid_id}", data={"pictures": "sun,moon,star"}).status_code == 302


def test_sqlite_runs_with_write_ahead_logging(app):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("a SQLite setting")
    with app.app_context():
        assert db.session.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1


def test_every_reason_the_judge_gives_has_kid_words_and_a_lesson_key():
    from teach.go.judge import REASONS
    from teach.lessons import schema
    from teach.web.messages import REASONS as WORDS

    assert set(REASONS) <= set(WORDS)
    assert set(REASONS) == set(schema.PUZZLE["properties"]["wrong"]["properties"])


def test_prewarm_solves_every_lesson_puzzle_before_kids_arrive(tmp_path):
    from pathlib import Path

    from teach.web import content, create_app

    lessons = Path(__file__).resolve().parent / "web_lessons"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "LESSONS_DIR": str(lessons),
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite'}"})
    with app.app_context():
        assert content.prewarm() == 2
        judge = content.judge_for("web-first", 1)
        first = judge.judge([], "D4")
        assert first.result == "wrong" and judge.judge([], "D4") == first


def test_a_prewarmed_app_hides_its_solved_puzzles_from_the_garbage_collector(tmp_path):
    """Before the workers fork: a full collection in a worker must not walk every solved puzzle again."""
    import gc
    from pathlib import Path

    from teach.web import create_app

    lessons = Path(__file__).resolve().parent / "web_lessons"
    gc.unfreeze()
    try:
        create_app({"TESTING": True, "SECRET_KEY": "t", "LESSONS_DIR": str(lessons), "PREWARM_JUDGES": True,
                    "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite'}"})
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


# ---------------------------------------------------------------------- a constant number of queries (DESIGN)
class _Queries:
    """The SQL statements the app runs while counting (every statement on the app's engine)."""

    def __init__(self, app):
        self.app, self.statements = app, []

    def _count(self, conn, cursor, statement, *args):
        self.statements.append(statement)

    def __call__(self, send, *args, **kwargs):
        """Send one request with ``send`` (a client method) and return it with the statements it ran."""
        with self.app.app_context():
            self.statements = []
            sa.event.listen(db.engine, "before_cursor_execute", self._count)
            try:
                response = send(*args, **kwargs)
            finally:
                sa.event.remove(db.engine, "before_cursor_execute", self._count)
        return response, list(self.statements)


@pytest.fixture
def queries(app):
    return _Queries(app)


def _grow_the_class(app, kids=30, sets=12, tries=40):
    """More kids in the demo class, and for 明明 more history: homework of every kind, attempts, progress."""
    from datetime import date, timedelta

    from teach.models import Assignment, Group, Membership

    with app.app_context():
        klass = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        ming = db.session.scalar(sa.select(User).where(User.name == "明明"))
        for i in range(kids):
            kid = User(role="kid", name=f"kid{i:02d}" if i % 2 else f"Kid{i:02d}", avatar="panda")
            kid.set_pictures(["sun", "moon", "star"])
            klass.members.append(Membership(user=kid, role="kid"))
        due = date.today() + timedelta(days=3)
        start = db.session.scalar(sa.select(sa.func.count()).select_from(Assignment))
        for seed in range(start, start + sets):
            key = f"practice:capture:1:{seed}"
            db.session.add(Assignment(group_id=klass.id, lesson_id=key, due_on=due, practice_topic="capture",
                                      practice_level=1, practice_seed=seed))
            db.session.add_all(Attempt(kid_id=ming.id, lesson_id=key, step=s, moves=[], result="solved")
                               for s in range(3))
        db.session.add(Assignment(group_id=klass.id, lesson_id="web-second", due_on=due))
        db.session.add_all(LessonProgress(kid_id=ming.id, lesson_id=f"old-lesson-{start}-{i}", step=0)
                           for i in range(tries // 2))
        db.session.add_all(Attempt(kid_id=ming.id, lesson_id="web-first", step=1, moves=[], result="failed")
                           for _ in range(tries))
        db.session.commit()


def _kid_pages(app, client, queries) -> dict[str, int]:
    """The statements each kid page runs: the sign-in avatar grid (before signing in), the map, a lesson step,
    a practice puzzle and a wrong move on it."""
    from teach.web.practice import practice_set

    counts = {}
    r, sql = queries(app.test_client().get, "/kids/CAT234")
    assert r.status_code == 200
    counts["avatars"] = len(sql)
    for name, url in (("map", "/learn/"), ("step", "/learn/web-first/0"), ("practice", "/practice/capture/1/42/0")):
        r, sql = queries(client.get, url)
        assert r.status_code == 200
        counts[name] = len(sql)
    puzzle = practice_set("capture", 1, 42)[0]
    wrong = next(m for m in puzzle.start().legal_moves() if m not in puzzle.judge().solve().winning)
    token = {"X-CSRFToken": client.csrf_token()}  # read from a page before counting, as a browser has it
    r, sql = queries(client.post, "/practice/capture/1/42/0/move", json={"move": wrong, "attempt": None, "ply": 0},
                     headers=token, csrf=False)
    assert r.get_json()["result"] == "wrong"
    counts["practice move"] = len(sql)
    return counts


def test_the_kid_pages_run_a_constant_number_of_queries(demo, app, client, queries):
    """5 kids and one of each kind of homework, then 35 kids and plenty: the same statements, and few of them."""
    _grow_the_class(app, kids=1, sets=1, tries=2)
    kid_login(client)
    client.get("/learn/web-first")  # the progress row the step page reads
    small = _kid_pages(app, client, queries)
    _grow_the_class(app)
    big = _kid_pages(app, client, queries)
    assert big == small
    assert small["avatars"] <= 2, small  # the class, its kids
    # a step page and a practice page also note that the step was shown (time on task counts from it), and a
    # puzzle's page counts the kid's misses so far ("show me", once earned, is there after a reload); the map
    # has one more for the rank, the daily goal and the streak (teach/web/rank.py record: one UNION ALL)
    assert small["map"] <= 7 and small["step"] <= 4 and small["practice"] <= 3, small
    assert small["practice move"] <= 2, small  # the kid, the attempt


def test_the_avatar_grid_lists_the_class_in_name_order_whatever_the_capitals(demo, app, client):
    _grow_the_class(app, kids=4)
    page = client.get("/kids/CAT234").get_data(as_text=True)
    names = re.findall(r"\b([Kk]id0\d)\b", page)
    assert names == sorted(set(names), key=str.lower) and len(set(names)) == 4


# ---------------------------------------------------------------------- answers keep only what the judge reads
STUFFED = "x" * 400_000  # under the request size limit, far over anything an answer needs


def _attempts(app, step: int) -> list:
    with app.app_context():
        return db.session.scalars(sa.select(Attempt).where(Attempt.step == step).order_by(Attempt.id)).all()


def _to_the_quiz(client):
    kid_login(client)
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    assert client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).status_code == 200


@pytest.mark.parametrize("body", [
    {"points": ["D5", "F5", "E4"], "note": STUFFED},  # the right answer with a stowaway
    {"points": ["D5", "F5", STUFFED]},
    {"points": ["D5"] * 1000},
    {"points": [["D5"]]},
    {"points": "D5"},
    {"points": ["Z99"]},
    {"points": ["D5"], "yes": True},
    {"yes": True},  # another kind of quiz's field
    {"number": 1e308},
    {},
])
def test_a_quiz_answer_other_than_the_page_sends_is_refused_and_not_stored(demo, app, client, body):
    _to_the_quiz(client)
    r = client.post("/learn/web-first/2/answer", json=body, headers={"Accept-Language": "en"})
    assert r.status_code == 400 and r.get_json()["result"] == "error" and "reload" in r.get_json()["message"]
    assert _attempts(app, 2) == []


def test_a_quiz_answer_is_stored_as_the_judge_read_it(demo, app, client):
    _to_the_quiz(client)
    assert client.post("/learn/web-first/2/answer", json={"points": ["e4", " D5", "F5", "F5"]}).get_json()[
        "result"] == "correct"
    (attempt,) = _attempts(app, 2)
    assert attempt.moves == [{"answer": {"points": ["D5", "E4", "F5"]}, "verdict": "correct"}]


@pytest.mark.parametrize("body", [
    {"move": "E4", "attempt": None, "ply": 0, "note": STUFFED},
    {"move": "E4", "attempt": True, "ply": 0},
    {"move": "E4", "attempt": "1", "ply": 0},
    {"move": "E4", "attempt": 0, "ply": 0},
    {"move": "E4", "attempt": None, "ply": -1},
    {"move": "E4", "attempt": None, "ply": 10**6},
    {"move": "E4", "attempt": None, "ply": 1.5},
])
def test_a_move_other_than_the_page_sends_is_refused_and_not_stored(demo, app, client, body):
    kid_login(client)
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    r = client.post("/learn/web-first/1/move", json=body, headers={"Accept-Language": "en"})
    assert r.status_code == 400 and r.get_json()["result"] == "error" and r.get_json()["message"]
    assert _attempts(app, 1) == []


def test_practice_answers_keep_only_their_field_too(demo, app, client):
    kid_login(client)
    base = "/practice/liberties/1/5/0"
    assert client.get(base).status_code == 200
    r = client.post(f"{base}/answer", json={"points": ["G3"], "note": STUFFED})
    assert r.status_code == 400 and r.get_json()["result"] == "error"
    r = client.post(f"{base}/answer", json={"points": ["G3", "F4", "H4", "H5", "G6"]})
    assert r.get_json()["result"] == "correct"
    (attempt,) = _attempts(app, 0)
    assert attempt.moves == [{"answer": {"points": ["F4", "G3", "G6", "H4", "H5"]}, "verdict": "correct"}]


def test_a_ten_megabyte_answer_is_refused_at_the_door(demo, app, client):
    _to_the_quiz(client)
    r = client.post("/learn/web-first/2/answer", data=b'{"points": ["' + b"x" * 10_000_000 + b'"]}',
                    content_type="application/json", headers={"Accept": "application/json"})
    assert r.status_code == 413 and r.get_json()["message"]
    assert _attempts(app, 2) == []


def test_a_line_that_goes_on_only_through_a_ko_is_not_praised_as_a_good_move(app):
    """A retry puzzle praised a move that let the stones live by a ko ("下得好！接着来"): when the line goes on only
    through a ko, the words say so instead, in both languages."""
    from teach.web import messages

    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert messages.keep_going() == "Good move! Keep going."
        assert messages.keep_going(ko=True) == "Careful: now it is a ko fight. Keep going!"
    with app.test_request_context(headers={"Accept-Language": "zh-CN"}):
        assert messages.keep_going(ko=True) == "小心，现在变成打劫了。接着下！" and "好" not in messages.keep_going(ko=True)
