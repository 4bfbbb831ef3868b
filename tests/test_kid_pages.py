"""The kid's side without a browser: stickers each with a picture and a name of their own and never an id on a
page, picture answers, the lesson player's settings, a device that remembers its class, the offline helper."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import sqlalchemy as sa

from teach.lessons import load_lessons
from teach.models import Group, StickerAward, User
from teach.web import milestones
from teach.web.extensions import db
from teach.web.pictures import PICTURES, choice_pictures, glyph, leading_number

EN = {"Accept-Language": "en"}
KID_PICTURES = ("cat", "fish", "moon")  # 明明's picture password in the demo


def kid_login(client, app, name="明明", pictures=KID_PICTURES, code="CAT234") -> int:
    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == name))
    assert client.post(f"/kids/{code}/{kid_id}", data={"pictures": ",".join(pictures)}).status_code == 302
    return kid_id


def duplicates(values) -> list:
    return [v for v, n in Counter(values).items() if n > 1]


# ---------------------------------------------------------------------- stickers
def test_every_sticker_of_the_curriculum_has_a_picture_and_a_name_of_its_own():
    catalog = load_lessons()
    stickers = milestones.all_stickers(catalog)
    assert len(stickers) == len(catalog.lessons) + len(milestones.MILESTONES)
    assert [s.picture for s in stickers if s.picture not in PICTURES] == []
    assert duplicates(glyph(s.picture) for s in stickers) == []
    for lang in ("zh", "en"):
        assert duplicates(s.name.get(lang) for s in stickers) == []


def test_an_award_is_named_by_its_sticker_and_an_unknown_one_still_reads_as_a_sticker():
    catalog = load_lessons()
    assert milestones.sticker_for("milestone-first-capture", catalog).name.get("en") == "First capture"
    lesson = next(iter(catalog.lessons.values()))
    assert milestones.sticker_for(lesson.sticker.id, catalog) is lesson.sticker
    unknown = milestones.sticker_for("class-lesson-long-gone", catalog)
    assert unknown.name.get("zh") == "一枚贴纸" and "class-lesson" not in unknown.name.get("en")


def test_no_sticker_id_reaches_the_kid_the_parent_or_the_teacher(demo, client):
    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        for sticker_id in ("milestone-first-capture", "web-first-badge", "a-class-lesson-gone"):
            db.session.add(StickerAward(kid_id=kid.id, sticker_id=sticker_id))
        db.session.commit()
        kid_id = kid.id
    parent = demo.test_client()
    assert parent.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"}).status_code == 302
    teacher = demo.test_client()
    assert teacher.post("/login", data={"email": "teacher@example.com", "password": "black-cat-42"}).status_code == 302
    kid = demo.test_client()
    kid_login(kid, demo)
    pages = {"parent kid": parent.get(f"/family/kids/{kid_id}", headers=EN),
             "parent week": parent.get(f"/family/kids/{kid_id}/week", headers=EN),
             "teacher kid": teacher.get(f"/teach/classes/{class_id}/kids/{kid_id}", headers=EN),
             "sticker book": kid.get("/learn/stickers", headers=EN)}
    for name, response in pages.items():
        body = response.get_data(as_text=True)
        assert response.status_code == 200, name
        assert not re.search(r">[^<]*(milestone-|web-first-badge|a-class-lesson-gone)", body), name
        assert "First capture" in body and "Police badge" in body, name
    assert "A sticker" in pages["parent week"].get_data(as_text=True)


# ---------------------------------------------------------------------- picture answers
@pytest.mark.parametrize("texts, pictures", [
    (["黑棋先下", "白棋先下"], ["⚫", "⚪"]),
    (["能，想放哪里就放哪里", "不能，棋子下好就不动"], ["👍", "👎"]),
    (["在A点打吃。", "在B点撒网。"], ["A", "B"]),
    (["真眼。", "假眼，白棋要接在A"], ["👁️", "🙈"]),
])
def test_a_quiz_choice_gets_the_picture_its_words_mean(texts, pictures):
    drawn = choice_pictures([{"zh": t, "en": t} for t in texts])
    assert [re.sub(r"<[^>]+>", "", str(d)) for d in drawn] == pictures


def test_numbers_are_drawn_as_dots_a_child_can_count():
    assert [leading_number(t) for t in ("两条", "三口", "十口", "四十五个", "8口", "还是黑棋")] == [2, 3, 10, 45, 8, None]
    three, forty_five = choice_pictures([{"zh": "三口"}, {"zh": "四十五个"}])
    assert re.sub(r"<[^>]+>", "", str(three)) == "●●●" and 'data-number="3"' in three
    assert "●" not in forty_five and "45" in forty_five


def test_two_choices_that_would_look_the_same_get_shapes_instead():
    drawn = choice_pictures([{"zh": "白棋活了"}, {"zh": "白棋死了"}])
    assert len(set(drawn)) == 2 and all("shape" in d for d in drawn)


# ---------------------------------------------------------------------- the lesson player's settings
def _open_puzzle(client) -> str:
    assert client.post("/learn/web-first/0/next").status_code == 302
    return client.get("/learn/web-first/1").get_data(as_text=True)


def test_a_first_level_step_narrates_by_itself_and_shows_no_coordinates(demo, client):
    kid_login(client, demo)
    page = _open_puzzle(client)
    assert 'data-narrate="1"' in page and 'class="coord"' not in page


def test_the_grown_ups_settings_are_the_kid_s_own_not_the_tablet_s(demo, client):
    kid_login(client, demo)
    _open_puzzle(client)
    assert client.post("/learn/settings", json={"narrate": False}).get_json()["result"] == "saved"
    assert client.post("/learn/settings", json={"coordinates": True}).status_code == 200
    page = client.get("/learn/web-first/1").get_data(as_text=True)
    assert 'data-narrate="0"' in page and page.count('class="coord"') == 4 * 9
    client.set_cookie("teach-coordinates", "0")  # what the tablet once kept decides nothing any more
    assert client.get("/learn/web-first/1").get_data(as_text=True).count('class="coord"') == 4 * 9

    # the next child on the same tablet (same cookies) has the level's settings: read aloud, no coordinates
    client.post("/logout")
    kid_login(client, demo, name="小红", pictures=("flower", "tree", "cat"))
    page = _open_puzzle(client)
    assert 'data-narrate="1"' in page and 'class="coord"' not in page

    # and the first child's choice is still theirs; null hands it back to the level
    client.post("/logout")
    kid_login(client, demo)
    assert 'data-narrate="0"' in client.get("/learn/web-first/1").get_data(as_text=True)
    assert client.post("/learn/settings", json={"narrate": None, "coordinates": None}).status_code == 200
    page = client.get("/learn/web-first/1").get_data(as_text=True)
    assert 'data-narrate="1"' in page and 'class="coord"' not in page


@pytest.mark.parametrize("body", [{}, {"narrate": "yes"}, {"narrate": 1}, {"volume": True}, [True],
                                  {"narrate": True, "name": "x"}])
def test_a_settings_body_that_is_no_setting_is_refused_and_changes_nothing(demo, client, body):
    kid_id = kid_login(client, demo)
    answer = client.post("/learn/settings", json=body)
    assert answer.status_code == 400 and answer.get_json()["message"]
    with demo.app_context():
        kid = db.session.get(User, kid_id)
        assert kid.narrate is None and kid.coordinates is None


# ---------------------------------------------------------------------- the judge needs another go
@pytest.fixture
def judge_out_of_budget(demo):
    """The first lesson's puzzle judged by a real judge with a tiny reading budget, so that every move that does
    not capture at once runs out of it (the budget a busy server could leave)."""
    from teach.go.judge import Judge
    from teach.go.reading import Limits
    from teach.web import content

    with demo.app_context():
        puzzle = content.catalog().lessons["web-first"].steps[1]
        content._judge.cache_clear()
        puzzle.__dict__["_judge"] = Judge(puzzle.start(), puzzle.goal_object(), Limits(nodes=1))
    yield puzzle
    puzzle.__dict__.pop("_judge", None)
    content._judge.cache_clear()


@pytest.mark.parametrize("lang, words, queue", [
    ("en", "Hmm, let me think about that…", "free"), ("zh", "嗯，让我想一想……", "free"),
    # no room for a deeper read (the background queue is full): the child is asked to tap again
    ("en", "Let me think about that… tap again.", "full"), ("zh", "让我想一想……再下一次试试", "full")])
def test_a_move_the_judge_cannot_finish_reading_is_no_miss_and_nothing_is_stored(
        demo, client, judge_out_of_budget, monkeypatch, lang, words, queue):
    from teach.models import Attempt, LessonProgress
    from teach.web import deep_read

    if queue == "full":
        monkeypatch.setattr(deep_read, "QUEUE_MAX", 0)
    assert judge_out_of_budget.judge().judge([], "A1").reason == "unknown"  # it really runs out
    kid_id = kid_login(client, demo)
    client.post("/learn/web-first/0/next")
    start = client.get("/learn/web-first/1")
    answer = client.post("/learn/web-first/1/move", json={"move": "A1", "attempt": None, "ply": 0},
                         headers={"Accept-Language": lang}).get_json()
    assert deep_read.wait_idle(timeout=60)
    assert answer["result"] == "thinking" and answer["message"] == words
    assert answer["retry"] == (deep_read.RETRY_MS if queue == "free" else None)  # the page asks again by itself
    assert "老师算不清" not in answer["message"] and "too hard" not in answer["message"]
    assert answer["rows"][-1][0] == "X"  # the stone the child tapped, to show
    assert answer["back_rows"] == judge_out_of_budget.start().board_rows()  # then taken back
    assert answer["attempt"] is None and answer["ply"] == 0
    with demo.app_context():
        assert db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid_id)).all() == []
        progress = db.session.scalar(sa.select(LessonProgress).where(LessonProgress.kid_id == kid_id))
        assert (progress.mistakes or 0) == 0
    # the board hint counts no miss either, and the child taps again: the right move is still right
    assert client.post("/learn/web-first/1/board-hint", json={}).get_json().get("show_me") is not True
    again = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()
    assert again["result"] == "correct"
    with demo.app_context():
        kept = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid_id)).all()
        assert [(a.result, [m["move"] for m in a.moves]) for a in kept] == [("solved", ["E4"])]
    assert start.status_code == 200


# ---------------------------------------------------------------------- a classroom tablet
def test_a_device_remembers_its_class_and_a_kid_signing_out_comes_back_to_the_avatars(demo, client):
    assert client.get("/kids").status_code == 200  # a new device: the code first
    assert client.get("/kids/cat234").status_code == 200
    cookie = client.get_cookie("teach-class")
    assert cookie.value == "CAT234" and cookie.http_only
    assert client.get("/kids").headers["Location"].endswith("/kids/CAT234")
    assert client.get("/kids?other=1").status_code == 200  # a grown-up can type another code
    kid_login(client, demo)
    out = client.post("/logout")
    assert out.headers["Location"].endswith("/kids")
    assert client.get("/kids").headers["Location"].endswith("/kids/CAT234")


def test_a_remembered_class_that_was_archived_asks_for_a_code_again(demo, client):
    client.get("/kids/CAT234")
    with demo.app_context():
        db.session.scalar(sa.select(Group).where(Group.code == "CAT234")).archived = True
        db.session.commit()
    page = client.get("/kids")
    assert page.status_code == 200 and 'name="code"' in page.get_data(as_text=True)
    assert client.get_cookie("teach-class") is None


def test_a_forged_class_cookie_gets_the_code_form_not_an_error(demo, client):
    client.set_cookie("teach-class", "../../etc" * 20)
    page = client.get("/kids")
    assert page.status_code == 200 and 'name="code"' in page.get_data(as_text=True)


def test_a_grown_up_signing_out_goes_home(demo, client):
    assert client.post("/login", data={"email": "teacher@example.com", "password": "black-cat-42"}).status_code == 302
    assert client.post("/logout").headers["Location"].endswith("/")


# ---------------------------------------------------------------------- offline
def test_the_offline_helper_is_served_from_the_kids_folder_and_never_kept_stale(demo, client):
    with client.get("/learn/sw.js") as response:
        assert response.status_code == 200 and response.mimetype == "text/javascript"
        assert response.headers["Cache-Control"] == "no-cache"
        assert "caches" in response.get_data(as_text=True)
    with client.get("/static/manifest.webmanifest") as manifest:
        assert manifest.status_code == 200 and b'"start_url": "/kids"' in manifest.data


# ---------------------------------------------------------------------- a wrong quiz answer says what is wrong
@pytest.mark.parametrize("points, words, not_right", [
    (["D5", "F5", "E4", "A1"], "Not quite: the point marked ✗ is not one of them.", ["A1"]),
    (["D5", "A1", "B2"], "Not quite: the points marked ✗ are not among them.", ["A1", "B2"]),
    (["D5", "F5"], "Almost! 1 more to find.", []),
])
def test_a_wrong_tap_quiz_answer_says_which_points_are_wrong_or_how_many_are_left(demo, client, points, words,
                                                                                   not_right):
    kid_login(client, demo)
    client.post("/learn/web-first/0/next")
    client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0})
    answer = client.post("/learn/web-first/2/answer", json={"points": points}, headers=EN).get_json()
    assert answer == {"result": "wrong", "message": words, "not_right": not_right}
    zh = client.post("/learn/web-first/2/answer", json={"points": points}).get_json()
    assert zh["message"] in ("还不对哦：打✗的点不是。", "快对了！还有1个没找到。")


# ---------------------------------------------------------------------- a lesson is done in order
def _progress(app, kid_id: int, lesson_id: str):
    from teach.models import LessonProgress

    with app.app_context():
        row = db.session.scalar(sa.select(LessonProgress).where(LessonProgress.kid_id == kid_id,
                                                                LessonProgress.lesson_id == lesson_id))
        return None if row is None else (row.step, row.finished_at is not None, row.stars, row.mistakes)


def _stickers(app, kid_id: int) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(sa.select(StickerAward.sticker_id).where(StickerAward.kid_id == kid_id)))


def test_an_answer_to_a_step_the_kid_has_not_reached_finishes_nothing(demo, client):
    """The lesson's last step answered right, straight from its start: no stars, no sticker, no lesson finished
    (the page shows step 0; one post used to finish the lesson). The kid is sent to the step they are at."""
    kid = kid_login(client, demo)
    before = _stickers(demo, kid)
    r = client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]})
    assert r.status_code == 409 and r.get_json()["next"] == "/learn/web-first/0" and r.get_json()["message"]
    r = client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0})
    assert r.status_code == 409 and r.get_json()["reason"] == "not-reached"
    assert client.post("/learn/web-first/1/next").status_code == 404  # not an explain step
    assert _stickers(demo, kid) == before and _progress(demo, kid, "web-first") in (None, (0, False, 0, 0))
    # in order, the same answers finish it
    assert client.post("/learn/web-first/0/next").status_code == 302
    assert client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).status_code == 409
    assert client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()[
        "result"] == "correct"
    assert client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()["finished"]
    assert _progress(demo, kid, "web-first")[1:3] == (True, 3) and len(_stickers(demo, kid)) > len(before)
    # a finished lesson may be played again at any step
    assert client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()[
        "result"] == "correct"
    assert client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()["finished"]


def test_two_wrong_answers_at_once_both_count(demo, client):
    """The mistake is counted by the database (mistakes + 1), not read, added to and written back: another
    request's mistake committed in between is kept."""
    from teach.models import LessonProgress

    kid = kid_login(client, demo)
    client.post("/learn/web-first/0/next")
    client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0})
    assert _progress(demo, kid, "web-first")[3] == 0

    def other_request_counts_a_mistake(session, _context, _instances):
        with db.engine.begin() as conn:
            conn.execute(sa.update(LessonProgress).where(LessonProgress.kid_id == kid,
                                                         LessonProgress.lesson_id == "web-first")
                         .values(mistakes=LessonProgress.mistakes + 1))

    sa.event.listen(sa.orm.Session, "before_flush", other_request_counts_a_mistake, once=True)
    try:
        r = client.post("/learn/web-first/2/answer", json={"points": ["A1"]})
    finally:
        if sa.event.contains(sa.orm.Session, "before_flush", other_request_counts_a_mistake):
            sa.event.remove(sa.orm.Session, "before_flush", other_request_counts_a_mistake)
    assert r.get_json()["result"] == "wrong"
    assert _progress(demo, kid, "web-first")[3] == 2
