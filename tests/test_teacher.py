"""The teacher's side: classes, kids in bulk, assignments, the dashboard (in a constant number of queries), the
mistake map, kid details, worksheets, the CSV and the teacher's own lesson files."""

from __future__ import annotations

import io
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from teach.models import Assignment, Attempt, Group, LessonProgress, Membership, StickerAward, TeacherLesson, User
from teach.web.extensions import db

EN = {"Accept-Language": "en"}
ZH = {"Accept-Language": "zh"}
WEB_LESSONS = Path(__file__).resolve().parent / "web_lessons"


def teacher_login(client, email="teacher@example.com", password="black-cat-42"):
    assert client.post("/login", data={"email": email, "password": password}).status_code == 302


def demo_class(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))


def kid_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(User.id).where(User.name == name))


def count_kids(app, class_id: int) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Membership).where(
            Membership.group_id == class_id, Membership.role == "kid"))


def test_a_teacher_creates_renames_archives_and_restores_a_class(demo, client):
    teacher_login(client)
    r = client.post("/teach/classes", data={"name": "  Tigers  "})
    class_id = int(r.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/teach/classes/{class_id}").get_data(as_text=True)
    with demo.app_context():
        code = db.session.get(Group, class_id).code
    assert "Tigers" in page and code in page
    client.post(f"/teach/classes/{class_id}/rename", data={"name": "Dragons"})
    asked = client.post(f"/teach/classes/{class_id}/archive", data={"archived": "1"}, headers=EN)
    assert asked.status_code == 200 and 'name="confirm" value="1"' in asked.get_data(as_text=True)
    assert client.post("/kids", data={"code": code}).status_code == 302  # only asked: the code still works
    client.post(f"/teach/classes/{class_id}/archive", data={"archived": "1", "confirm": "1"})
    assert client.post("/kids", data={"code": code}, headers=EN).status_code == 200  # code stops working
    client.post(f"/teach/classes/{class_id}/archive", data={"archived": "0"})
    assert client.post("/kids", data={"code": code}).status_code == 302
    with demo.app_context():
        assert db.session.get(Group, class_id).name == "Dragons"


def test_bulk_names_make_kids_with_avatars_and_picture_passwords(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    r = client.post(f"/teach/classes/{class_id}/kids", data={"names": "Ann\n\n  王小明 \nJean-Luc\n"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "王小明" in page and "Jean-Luc" in page
    shown = re.findall(r'data-pictures="([a-z,]+)"', page)
    assert len(shown) == 3
    # the printed pictures sign the kid in
    new_id = kid_id(demo, "王小明")
    kid_client = demo.test_client()
    r = kid_client.post(f"/kids/CAT234/{new_id}", data={"pictures": shown[1]})
    assert r.status_code == 302 and r.headers["Location"].endswith("/learn/")
    with demo.app_context():
        avatars = [u.avatar for u in db.session.scalars(sa.select(User).where(User.role == "kid"))]
        assert len(set(avatars)) == len(avatars)  # every kid of the class recognisable by their avatar


@pytest.mark.parametrize("names, says", [
    ("Ann\nBob\nann", "twice"),
    ("Ann\nLily", "already in this group"),
    ("Ann\nBob 🐱", "not pictures"),
    ("\n \n", "one on each line"),
    ("\n".join(f"kid{i}" for i in range(10000)), "at most 100"),
    ("Ann\n" + "x" * 50, "too long"),
])
def test_a_bad_name_list_saves_nobody_and_says_why(demo, client, names, says):
    teacher_login(client)
    class_id = demo_class(demo)
    before = count_kids(demo, class_id)
    r = client.post(f"/teach/classes/{class_id}/kids", data={"names": names}, headers=EN, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert says in page and "Nobody was added" in page
    assert count_kids(demo, class_id) == before


def test_switching_language_on_a_refused_form_goes_back_to_the_form_s_page_not_the_home_page(demo, client):
    """A refused form is shown again under the form's POST address, which cannot be loaded again: the language
    switch there leads back to the page the form was on (the browser's Referer, when it is this site)."""
    teacher_login(client)
    class_id = demo_class(demo)
    page_url = f"/teach/classes/{class_id}"
    refused = client.post(f"{page_url}/kids", data={"names": "Ann\n" + "x" * 50}, headers={
        **EN, "Referer": f"http://localhost{page_url}"}).get_data(as_text=True)
    assert "too long" in refused and f'name="next" value="{page_url}"' in refused
    switched = client.post("/language", data={"lang": "zh", "next": page_url})
    assert switched.headers["Location"].endswith(page_url)
    assert "小老鼠班" in client.get(page_url).get_data(as_text=True)
    # a Referer from another site is no way back: the switch leads home
    elsewhere = client.post(f"{page_url}/kids", data={"names": "Ann\n" + "x" * 50},
                            headers={**EN, "Referer": "http://evil.example/teach"}).get_data(as_text=True)
    assert 'name="next" value=""' in elsewhere


def test_reset_picture_password_and_unlock_a_locked_kid(demo, client):
    kid = kid_id(demo, "Lily")
    kid_client = demo.test_client()
    for _ in range(5):
        kid_client.post(f"/kids/CAT234/{kid}", data={"pictures": "sun,sun,sun"})
    with demo.app_context():
        assert db.session.get(User, kid).locked()
    teacher_login(client)
    class_id = demo_class(demo)
    client.post(f"/teach/classes/{class_id}/kids/{kid}/unlock")
    with demo.app_context():
        assert not db.session.get(User, kid).locked()
    page = client.post(f"/teach/classes/{class_id}/kids/{kid}/pictures", data={"confirm": "1"}).get_data(as_text=True)
    pictures = re.search(r'data-pictures="([a-z,]+)"', page).group(1)
    if pictures != "star,apple,sun":  # the new pictures are drawn at random: rarely the old ones again
        assert kid_client.post(f"/kids/CAT234/{kid}", data={"pictures": "star,apple,sun"}).status_code == 200
    assert kid_client.post(f"/kids/CAT234/{kid}", data={"pictures": pictures}).status_code == 302


def test_move_archive_restore_and_remove_kids(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    other = int(client.post("/teach/classes", data={"name": "Tigers"}).headers["Location"].rsplit("/", 1)[1])
    tom, lily, hong = kid_id(demo, "Tom"), kid_id(demo, "Lily"), kid_id(demo, "小红")
    client.post(f"/teach/classes/{class_id}/kids/{tom}/move", data={"to": other})
    client.post(f"/teach/classes/{class_id}/kids/{lily}/archive", data={"archived": "1", "confirm": "1"})
    assert "Lily" not in client.get("/kids/CAT234").get_data(as_text=True)
    client.post(f"/teach/classes/{class_id}/kids/{lily}/archive", data={"archived": "0"})
    client.post(f"/teach/classes/{class_id}/kids/{hong}/remove", data={"confirm": "1"})
    with demo.app_context():
        assert db.session.scalar(sa.select(Membership.group_id).where(Membership.user_id == tom)) == other
        assert not db.session.get(User, lily).archived
        assert db.session.get(User, hong) is None  # in no class or family any more: deleted with their data


def test_a_teacher_cannot_touch_another_class(demo, client):
    client.post("/signup", data={"role": "teacher", "name": "Mr Zhao", "email": "zhao@example.com",
                                 "password": "12345678", "confirm": "12345678"})
    class_id, lily = demo_class(demo), kid_id(demo, "Lily")
    with demo.app_context():
        assignments = db.session.scalar(sa.select(sa.func.count()).select_from(Assignment))
    assert client.get(f"/teach/classes/{class_id}").status_code == 404
    assert client.post(f"/teach/classes/{class_id}/kids/{lily}/archive").status_code == 404
    mine = int(client.post("/teach/classes", data={"name": "Mine"}).headers["Location"].rsplit("/", 1)[1])
    assert client.post(f"/teach/classes/{mine}/kids/{lily}/remove").status_code == 404
    assert client.post(f"/teach/classes/{mine}/assignments",
                       data={"what": "lesson:web-first", "due": date.today().isoformat(),
                             "kids": [str(lily)]}).status_code == 404
    with demo.app_context():
        assert not db.session.get(User, lily).archived
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Assignment)) == assignments


def _invite_mr_zhao(demo, client):
    """Mr Zhao signs up as a teacher and the demo teacher invites him to the demo class: (his client, the class,
    the invitation)."""
    other = demo.test_client()
    other.post("/signup", data={"role": "teacher", "name": "Mr Zhao", "email": "zhao@example.com",
                                "password": "12345678", "confirm": "12345678"})
    teacher_login(client)
    class_id = demo_class(demo)
    client.post(f"/teach/classes/{class_id}/teachers", data={"email": "zhao@example.com"})
    with demo.app_context():
        from teach.models import TeacherInvitation

        invitation = db.session.scalar(sa.select(TeacherInvitation.id))
    return other, class_id, invitation


def test_a_second_teacher_joins_the_class_only_by_accepting_the_invitation(demo, client):
    other, class_id, invitation = _invite_mr_zhao(demo, client)
    assert other.get(f"/teach/classes/{class_id}").status_code == 404  # invited, not a teacher of it yet
    assert "小老鼠班" in other.get("/teach/").get_data(as_text=True)
    assert client.post(f"/teach/invitations/{invitation}/accept").status_code == 404  # not the inviter's to take
    other.post(f"/teach/invitations/{invitation}/accept")
    assert other.get(f"/teach/classes/{class_id}").status_code == 200


def test_a_declined_invitation_makes_no_member(demo, client):
    other, class_id, invitation = _invite_mr_zhao(demo, client)
    other.post(f"/teach/invitations/{invitation}/decline")
    assert other.get(f"/teach/classes/{class_id}").status_code == 404
    assert other.post(f"/teach/invitations/{invitation}/accept").status_code == 404


def test_an_invitation_to_an_email_nobody_had_cannot_be_claimed_by_signing_up_with_it(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    client.post(f"/teach/classes/{class_id}/teachers", data={"email": "later@example.com"})
    late = demo.test_client()
    late.post("/signup", data={"role": "teacher", "name": "Late", "email": "later@example.com",
                               "password": "12345678", "confirm": "12345678"})
    with demo.app_context():
        from teach.models import TeacherInvitation

        invitation = db.session.scalar(sa.select(TeacherInvitation.id))
    assert "小老鼠班" not in late.get("/teach/").get_data(as_text=True)
    assert late.post(f"/teach/invitations/{invitation}/accept").status_code == 404
    assert late.get(f"/teach/classes/{class_id}").status_code == 404


def test_inviting_says_the_same_for_a_teacher_a_parent_and_nobody_and_names_no_one(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    other = demo.test_client()
    other.post("/signup", data={"role": "teacher", "name": "Mr Zhao", "email": "zhao@example.com",
                                "password": "12345678", "confirm": "12345678"})

    def answer(email):
        page = client.post(f"/teach/classes/{class_id}/teachers", data={"email": email}, headers=EN,
                           follow_redirects=True).get_data(as_text=True)
        return re.search(r'<ul class="flash">(.*?)</ul>', page, re.S).group(1).replace(email, "EMAIL")

    said = {answer("zhao@example.com"), answer("parent@example.com"), answer("nobody@example.com")}
    assert len(said) == 1
    text = said.pop()
    assert "Zhao" not in text and "Mingming" not in text and "明明" not in text


def test_assignments_refuse_past_days_and_open_first_on_the_kid_map(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    r = client.post(f"/teach/classes/{class_id}/assignments", data={"what": "lesson:web-second", "due": yesterday},
                    headers=EN, follow_redirects=True)
    assert "has passed already" in r.get_data(as_text=True)
    lily = kid_id(demo, "Lily")
    client.post(f"/teach/classes/{class_id}/assignments",
                data={"what": "lesson:web-second", "due": date.today().isoformat(), "kids": [str(lily)]})
    with demo.app_context():
        assert db.session.scalar(sa.select(Assignment.kid_ids).where(Assignment.due_on == date.today())) == [lily]
    listed = client.get(f"/teach/classes/{class_id}", headers=EN).get_data(as_text=True)
    line = listed.split('class="assignment-list"', 1)[1].split("</li>", 1)[0]
    assert "1 kid: Lily" in line  # who it is for, by name
    lily_client = demo.test_client()
    lily_client.post(f"/kids/CAT234/{lily}", data={"pictures": "star,apple,sun"})
    page = lily_client.get("/learn/").get_data(as_text=True)
    assert 'data-assigned=' in page and page.index('href="/learn/web-second"') < page.index('href="/learn/web-first"')
    assert lily_client.get("/learn/web-second").status_code == 302  # open though web-first is not finished
    ming = demo.test_client()
    ming.post(f"/kids/CAT234/{kid_id(demo, '明明')}", data={"pictures": "cat,fish,moon"})
    ming_map = ming.get("/learn/").get_data(as_text=True)  # not assigned to 明明: still locked for him
    assert 'href="/learn/web-second" class="locked-link"' in ming_map and "data-assigned" not in ming_map
    assert ming.get("/learn/web-second").status_code == 403


def test_late_homework_is_marked_late_on_the_kid_s_map(demo, client):
    """Homework whose day has passed is marked late, not shown as "by 12-05" like homework still on time."""
    with demo.app_context():
        class_id = demo_class(demo)
        db.session.add(Assignment(group_id=class_id, lesson_id="web-first", due_on=date.today() - timedelta(2)))
        db.session.add(Assignment(group_id=class_id, lesson_id="web-second", due_on=date.today() + timedelta(3)))
        db.session.commit()
    lily = demo.test_client()
    lily.post(f"/kids/CAT234/{kid_id(demo, 'Lily')}", data={"pictures": "star,apple,sun"})
    page = lily.get("/learn/", headers=EN).get_data(as_text=True)
    late = (date.today() - timedelta(2)).strftime("%m-%d")
    assert re.search(rf'data-lesson="web-first".*?<span class="due late">⏰ Late: it was for {late}</span>', page, re.S)
    on_time = (date.today() + timedelta(3)).strftime("%m-%d")
    assert re.search(rf'data-lesson="web-second".*?<span class="due">by {on_time}</span>', page, re.S)


def test_a_topic_assignment_gives_every_lesson_of_it(demo, client):
    teacher_login(client)
    client.post(f"/teach/classes/{demo_class(demo)}/assignments",
                data={"what": "topic:capture", "due": date.today().isoformat()})
    with demo.app_context():
        assert sorted(db.session.scalars(sa.select(Assignment.lesson_id).where(
            Assignment.topic_id == "capture"))) == ["web-first", "web-second"]


def test_a_practice_set_is_assigned_with_one_seed_and_its_progress_shown(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    lily, ming = kid_id(demo, "Lily"), kid_id(demo, "明明")
    today = date.today().isoformat()
    with demo.app_context():
        before = db.session.scalar(sa.select(sa.func.count()).select_from(Assignment))
    for bad, says in (({"what": "practice:dragons:1", "due": today}, "Choose a practice topic"),
                      ({"what": "practice:capture:7", "due": today}, "Choose a practice topic"),
                      ({"what": "practice:capture:1", "seed": "12ab", "due": today}, "digits only"),
                      ({"what": "practice:capture:1", "seed": "²", "due": today}, "digits only"),
                      ({"what": "practice:capture:1", "seed": "٣", "due": today}, "digits only"),
                      ({"what": "practice:capture:1", "seed": "9" * 5000, "due": today}, "digits only"),
                      ({"what": "practice:capture:1", "seed": "1234", "due": "2000-01-01"}, "passed already")):
        r = client.post(f"/teach/classes/{class_id}/assignments", data=bad, headers=EN, follow_redirects=True)
        assert says in r.get_data(as_text=True)
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Assignment)) == before
        db.session.execute(sa.delete(Assignment))
        db.session.commit()
    client.post(f"/teach/classes/{class_id}/assignments",
                data={"what": "practice:capture:2", "seed": "1234", "due": today, "kids": [str(lily)]})
    client.post(f"/teach/classes/{class_id}/assignments", data={"what": "practice:atari:1", "due": today})
    with demo.app_context():
        given = {a.practice_topic: a for a in db.session.scalars(sa.select(Assignment))}
        assert given["capture"].practice_seed == 1234 and given["capture"].lesson_id == "practice:capture:2:1234"
        assert given["capture"].kid_ids == [lily] and given["atari"].kid_ids is None
        atari_seed = given["atari"].practice_seed
        assert atari_seed is not None and given["atari"].practice_level == 1
    page = client.get(f"/teach/classes/{class_id}", headers=EN).get_data(as_text=True)
    assert "puzzle set 1234" in page
    lily_client = demo.test_client()
    lily_client.post(f"/kids/CAT234/{lily}", data={"pictures": "star,apple,sun"})
    lily_map = lily_client.get("/learn/", headers=EN).get_data(as_text=True)
    assert "/practice/capture/2?seed=1234" in lily_map and f"/practice/atari/1?seed={atari_seed}" in lily_map
    r = lily_client.get("/practice/capture/2?seed=1234")
    assert r.headers["Location"].endswith("/practice/capture/2/1234/0")  # the class's set, not a new one
    ming_client = demo.test_client()
    ming_client.post(f"/kids/CAT234/{ming}", data={"pictures": "cat,fish,moon"})
    ming_map = ming_client.get("/learn/").get_data(as_text=True)
    assert "seed=1234" not in ming_map and f"seed={atari_seed}" in ming_map  # same seed for the whole class
    with demo.app_context():  # two puzzles solved (one of them twice) and one failed
        for step, result in ((0, "solved"), (0, "solved"), (1, "solved"), (2, "failed")):
            db.session.add(Attempt(kid_id=lily, lesson_id="practice:capture:2:1234", step=step, result=result))
        db.session.commit()
    dash = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert f'data-practice="practice:capture:2:1234" data-kid="{lily}" data-solved="2"' in dash
    assert f'data-practice="practice:capture:2:1234" data-kid="{ming}"' not in dash  # not given to 明明
    assert f'data-practice="practice:atari:1:{atari_seed}" data-kid="{ming}" data-solved="0"' in dash
    assert "2 of 10 solved" in lily_client.get("/learn/", headers=EN).get_data(as_text=True)


def _play_wrong_then_right(app, name, pictures, wrong):
    c = app.test_client()
    c.post(f"/kids/CAT234/{kid_id(app, name)}", data={"pictures": pictures})
    c.get("/learn/web-first")
    c.post("/learn/web-first/0/next")
    if wrong:
        assert c.post("/learn/web-first/1/move", json={"move": wrong, "ply": 0}).get_json()["result"] == "wrong"
    assert c.post("/learn/web-first/1/move", json={"move": "E4", "ply": 0}).get_json()["result"] == "correct"


def test_dashboard_shows_progress_stuck_and_overdue_and_the_mistake_map(demo, client):
    _play_wrong_then_right(demo, "明明", "cat,fish,moon", "D4")
    _play_wrong_then_right(demo, "Lily", "star,apple,sun", "D4")
    _play_wrong_then_right(demo, "Tom", "moon,moon,star", "F6")
    _play_wrong_then_right(demo, "小红", "flower,tree,cat", None)  # right at the first try
    teacher_login(client)
    class_id = demo_class(demo)
    client.post(f"/teach/classes/{class_id}/assignments",
                data={"what": "lesson:web-first", "due": date.today().isoformat()})
    with demo.app_context():  # an older assignment, now overdue, and a kid stuck on it
        db.session.add(Assignment(group_id=class_id, lesson_id="web-second", due_on=date.today() - timedelta(3)))
        for _ in range(3):
            db.session.add(Attempt(kid_id=kid_id(demo, "小红"), lesson_id="web-second", step=0, first_move="A1",
                                   moves=[{"move": "A1", "verdict": "wrong"}], result="failed"))
        db.session.commit()
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert "Stuck" in page and "Overdue" in page and "小红" in page
    # homework under way (小红's three tries) is "…", not the "·" of homework nobody started
    assert re.search(r'<td class="stuck overdue">… <small>3× ', page) and '<td class="overdue">·</td>' in page
    # "stuck" leads to the puzzle the kid is stuck on (the grid's links are hidden on a phone)
    assert f'class="stuck-link" href="/teach/classes/{class_id}/mistakes/web-second/0"' in page
    zh = client.get(f"/teach/classes/{class_id}/dashboard", headers={"Accept-Language": "zh"})
    assert "学情总览" in zh.get_data(as_text=True) and "卡住了" in zh.get_data(as_text=True)
    assert f"/teach/classes/{class_id}/mistakes/web-first/1" in page
    r = client.get(f"/teach/classes/{class_id}/mistakes/web-first/1", headers=EN)
    mistakes = dict(re.findall(r'data-move="(\w+)" data-kids="(\d+)"', r.get_data(as_text=True)))
    assert mistakes == {"D4": "2", "F6": "1"}
    replies = re.findall(r'data-move="D4" data-kids="\d+" data-reply="(\w+)"', r.get_data(as_text=True))
    assert replies == ["E4"]  # the reader's refutation: the mouse runs out
    # who played each wrong move, and what the computer answered (not "the answer": that is the right move)
    who = re.findall(r'data-move="(\w+)"[^>]*>\s*<h2>[^<]*</h2>\s*<p class="who">([^<]*)</p>', r.get_data(as_text=True))
    assert who == [("D4", "Lily, 明明"), ("F6", "Tom")]
    assert "The computer answers: E4." in r.get_data(as_text=True) and "The answer:" not in r.get_data(as_text=True)
    # each wrong move's picture marks the point the kids played with its letter, as the big board does
    pictures = re.findall(r'data-move="(\w+)" data-kids.*?(<svg.*?</svg>)', r.get_data(as_text=True), re.S)
    assert [move for move, _svg in pictures] == ["D4", "F6"]
    for move, svg in pictures:
        point = re.search(rf'<g [^>]*data-point="{move}"[^>]*>.*?</g>', svg, re.S).group(0)
        assert '<text class="label"' in point, move
    # each kid counted once, by their first try: the three listed under a wrong move are not "right at once"
    tally = re.search(r'data-right-first="(\d+)" data-right-later="(\d+)" data-not-yet="(\d+)"', r.get_data(as_text=True))
    assert tally.groups() == ("1", "3", "0")
    assert "Right on the first try: 1 kid" in r.get_data(as_text=True) and "1 kids" not in r.get_data(as_text=True)
    assert client.get(f"/teach/classes/{class_id}/mistakes/web-first/0").status_code == 404  # not a puzzle
    csv = client.get(f"/teach/classes/{class_id}/progress.csv").get_data(as_text=True)
    assert "kid,lesson,title,stars" in csv and "Lily,web-first" in csv


def test_the_mistake_map_of_a_puzzle_of_several_moves_counts_every_kid(demo, client):
    """A puzzle of several moves: a right first move is only the start of the line. A kid who found the whole
    line is right at the first try; one still part-way through, or lost further down the line, has not found it
    yet (the map had left both out of its counts: their first move was neither right nor wrong)."""
    line_right = [{"move": "F4", "verdict": "continue", "reason": None, "reply": "F3"},
                  {"move": "G3", "verdict": "correct", "reason": None, "reply": None}]
    with demo.app_context():
        tries = {"明明": [(line_right, "solved")],
                 "Lily": [(line_right[:1], "open")],
                 "Tom": [(line_right[:1] + [{"move": "A1", "verdict": "wrong", "reason": "escapes", "reply": "G3"}],
                          "failed"), (line_right, "solved")],
                 "小红": [([{"move": "D4", "verdict": "wrong", "reason": "escapes", "reply": "E4"}], "failed")]}
        for name, attempts in tries.items():
            for moves, result in attempts:
                db.session.add(Attempt(kid_id=kid_id(demo, name), lesson_id="web-first", step=1,
                                       first_move=moves[0]["move"], moves=moves, result=result))
        db.session.commit()
    teacher_login(client)
    page = client.get(f"/teach/classes/{demo_class(demo)}/mistakes/web-first/1", headers=EN).get_data(as_text=True)
    tally = re.search(r'data-right-first="(\d+)" data-right-later="(\d+)" data-not-yet="(\d+)"', page)
    assert tally.groups() == ("1", "1", "2")  # 明明; Tom; Lily (part-way) and 小红 (a wrong first move)
    assert dict(re.findall(r'data-move="(\w+)" data-kids="(\d+)"', page)) == {"D4": "1"}  # wrong first moves only


def test_a_kid_who_finished_another_lesson_since_is_no_longer_listed_as_stuck(demo, client):
    """Three wrong tries at a lesson put a kid on the dashboard's "stuck" list; a lesson the kid finished after
    those tries (the kid went on) takes the name off, and a new wrong try after that puts it back."""
    from teach.models import utcnow

    teacher_login(client)
    class_id = demo_class(demo)
    now = utcnow()
    with demo.app_context():
        kid = kid_id(demo, "小红")
        for minutes in (30, 20, 10):
            db.session.add(Attempt(kid_id=kid, lesson_id="web-second", step=0, first_move="A1", result="failed",
                                   moves=[{"move": "A1", "verdict": "wrong"}],
                                   started_at=now - timedelta(minutes=minutes)))
        db.session.commit()

    def stuck_names() -> list[str]:
        page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
        return re.findall(r'<li>([^<·]+) · [^<]* · 3 wrong tries', page)

    assert [n.strip() for n in stuck_names()] == ["小红"]
    with demo.app_context():
        db.session.add(LessonProgress(kid_id=kid_id(demo, "小红"), lesson_id="web-first", stars=2,
                                      finished_at=now - timedelta(minutes=5)))
        db.session.commit()
    assert stuck_names() == []
    with demo.app_context():  # back at it, and wrong again: stuck again
        db.session.add(Attempt(kid_id=kid_id(demo, "小红"), lesson_id="web-second", step=0, first_move="A1",
                               result="failed", moves=[{"move": "A1", "verdict": "wrong"}], started_at=now))
        db.session.commit()
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert "小红 · " in page and "4 wrong tries" in page


def _answer_liberties(app, name, pictures, *answers):
    """``name`` solves web-first's puzzle, then answers its quiz (the white stone's liberties: D5, E4, F5)."""
    c = app.test_client()
    c.post(f"/kids/CAT234/{kid_id(app, name)}", data={"pictures": pictures})
    c.get("/learn/web-first")
    c.post("/learn/web-first/0/next")
    assert c.post("/learn/web-first/1/move", json={"move": "E4", "ply": 0}).get_json()["result"] == "correct"
    for points in answers:
        c.post("/learn/web-first/2/answer", json={"points": points})


def test_a_tap_quiz_has_a_mistake_map_of_the_points_tapped_and_left_out(demo, client):
    _answer_liberties(demo, "明明", "cat,fish,moon", ["D5", "F5", "C5"], ["D5", "E4", "F5"])
    _answer_liberties(demo, "Lily", "star,apple,sun", ["D5", "F5"])
    _answer_liberties(demo, "Tom", "moon,moon,star", ["C5", "F5", "E4", "D5"])
    _answer_liberties(demo, "小红", "flower,tree,cat", ["F5", "E4", "D5"])  # right at once
    teacher_login(client)
    class_id = demo_class(demo)
    page = client.get(f"/teach/classes/{class_id}/mistakes/web-first/2", headers=EN).get_data(as_text=True)
    tally = re.search(r'data-right-first="(\d+)" data-right-later="(\d+)" data-not-yet="(\d+)"', page)
    assert tally.groups() == ("1", "1", "2")
    assert re.findall(r'data-tapped="(\w+)" data-kids="(\d+)"', page) == [("C5", "2")]  # 明明 and Tom
    assert re.findall(r'data-left-out="(\w+)" data-kids="(\d+)"', page) == [("E4", "2")]  # 明明 and Lily
    assert "Tom, 明明" in page and "Lily, 明明" in page
    assert 'data-right="D5 E4 F5"' in page and "Right after a wrong answer: 1 kid" in page
    assert re.search(r'data-point="C5"[^>]*aria-label="C5, [^"]*, a"', page)  # lettered on the board
    assert sorted(re.findall(r'class="pt [^"]*right-answer[^"]*" data-point="(\w+)"', page)) == ["D5", "E4", "F5"]
    # the dashboard links the quiz's map, once a kid has tried the lesson
    dash = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert f"/teach/classes/{class_id}/mistakes/web-first/2" in dash
    zh = client.get(f"/teach/classes/{class_id}/mistakes/web-first/2", headers={"Accept-Language": "zh"})
    assert "漏掉的答案" in zh.get_data(as_text=True) and "答错后又答对" in zh.get_data(as_text=True)
    assert client.get(f"/teach/classes/{class_id}/mistakes/web-first/0").status_code == 404  # not a question


def test_a_choice_quiz_s_mistake_map_names_each_wrong_answer_in_words(demo, client):
    demo.config["LESSONS_DIR"] = str(Path(__file__).resolve().parent.parent / "lessons")
    with demo.app_context():  # answers as the quiz page stores them: step 1 asks who plays first (Black)
        for name, answers in (("明明", [1, 0]), ("Lily", [1]), ("小红", [0])):
            for choice in answers:
                db.session.add(Attempt(kid_id=kid_id(demo, name), lesson_id="board-taking-turns", step=1,
                                       moves=[{"answer": {"choice": choice},
                                               "verdict": "correct" if choice == 0 else "wrong"}],
                                       result="solved" if choice == 0 else "failed"))
        db.session.commit()
    teacher_login(client)
    class_id = demo_class(demo)
    page = client.get(f"/teach/classes/{class_id}/mistakes/board-taking-turns/1", headers=EN).get_data(as_text=True)
    assert re.findall(r'data-answer="([^"]+)" data-kids="(\d+)"', page) == [("White goes first", "2")]
    assert "The right answer: Black goes first" in page and "Lily, 明明" in page
    zh = client.get(f"/teach/classes/{class_id}/mistakes/board-taking-turns/1",
                    headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "“白棋先下”" in zh and "正确答案：黑棋先下" in zh


def _bench():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_dashboard", WEB_LESSONS.parent.parent / "bench" /
                                                  "dashboard.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.db
def test_the_dashboard_runs_a_constant_number_of_queries(tmp_path):
    """40 kids × 80 lessons on the map (60 of them homework), with progress, steps shown, attempts and games
    everywhere: the whole class on the whole map in at most 12 queries."""
    from flask_migrate import downgrade, upgrade

    from teach.web import create_app
    from conftest import CSRFClient, database_url

    bench = _bench()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path),
                      "LESSONS_DIR": str(bench.many_lessons(tmp_path, 80))})
    app.test_client_class = CSRFClient
    with app.app_context():
        downgrade(revision="base")
        upgrade()
        class_id = bench.fill_class(kids=40, lessons=80, assigned=60)
    client = app.test_client()
    teacher_login(client, "bench@example.com", "bench-password")
    statements = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            r = client.get(f"/teach/classes/{class_id}/dashboard")
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
        page = r.get_data(as_text=True)
        assert r.status_code == 200 and page.count('<tr class="kid-summary"') == 40
        assert page.count("<tr><th><a ") == 40 and page.count('<td class="') >= 40 * 80  # every lesson of the map
        assert 0 < sum(int(n) for n in re.findall(r'data-games="(\d+)"', page))  # games played are shown
        assert len(statements) <= 12, statements
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


def test_kid_detail_timeline_weak_topics_and_replay(demo, client):
    _play_wrong_then_right(demo, "Lily", "star,apple,sun", "D4")
    teacher_login(client)
    class_id, lily = demo_class(demo), kid_id(demo, "Lily")
    page = client.get(f"/teach/classes/{class_id}/kids/{lily}", headers=EN).get_data(as_text=True)
    assert "Weak topics" in page and "Recent tries" in page
    replay = re.search(r'href="(/teach/classes/\d+/kids/\d+/attempts/(\d+)\?ply=0)"', page)
    with demo.app_context():
        attempt = db.session.get(Attempt, int(replay.group(2)))
        moves = [m for e in attempt.moves for m in (e["move"], e.get("reply")) if m]
    base = replay.group(1)[:-1]
    boards = [client.get(base + str(n)).get_data(as_text=True) for n in range(len(moves) + 1)]
    assert len(set(boards)) == len(moves) + 1  # every move changes the board
    # another kid's attempt through Lily's page: 404
    with demo.app_context():
        other = Attempt(kid_id=kid_id(demo, "Tom"), lesson_id="web-first", step=1, first_move="E4",
                        moves=[{"move": "E4", "verdict": "correct"}], result="solved")
        db.session.add(other)
        db.session.commit()
        other_id = other.id
    assert client.get(f"/teach/classes/{class_id}/kids/{lily}/attempts/{other_id}").status_code == 404


def test_a_kid_s_practice_tries_are_named_as_the_practice_set_not_as_a_lesson_that_is_gone(demo, client):
    teacher_login(client)
    class_id, lily = demo_class(demo), kid_id(demo, "Lily")
    with demo.app_context():
        db.session.add(Attempt(kid_id=lily, lesson_id="practice:atari:1:42", step=3, first_move="D4",
                               moves=[{"move": "D4", "verdict": "correct"}], result="solved"))
        db.session.commit()
    tries = client.get(f"/teach/classes/{class_id}/kids/{lily}", headers=EN).get_data(as_text=True) \
        .split("Recent tries", 1)[1].split("</ul>", 1)[0]
    assert "Practice: " in tries and "level 1 #4" in tries and "no longer there" not in tries


@pytest.mark.parametrize("text, named", [
    ("黑先吃掉白子", True), ("白先活", True), ("White to play and live", True), ("Black plays first: catch it", True),
    ("抓住小老鼠！", False), ("Catch the mouse on the edge!", False), ("The black stones are in danger", False),
])
def test_a_sheet_says_who_plays_first_once(text, named):
    """A puzzle whose own words say who plays first gets only the stone before them: the sheet printed
    "⚪ 白先 · 白先，…" (a walk's teacher)."""
    from teach.web.teacher.worksheets import names_side

    assert names_side(text) is named


def test_worksheet_prints_puzzles_with_an_answer_key(demo, client):
    teacher_login(client)
    assert "web-second:0" in client.get("/teach/worksheet").get_data(as_text=True)
    page = client.get("/teach/worksheet?p=web-first:1&p=web-second:0", headers=EN).get_data(as_text=True)
    assert page.count('class="sheet-puzzle"') == 2 and "Answer key" in page and "print.css" in page
    # on paper there is no stone beside the words: each puzzle says who plays first
    assert re.findall(r'class="sheet-first">([^<]*)<', page) == ["⚫ Black plays first ·"] * 2
    answers = re.findall(r'data-answers="([^"]*)"', page)
    assert answers[0] == "E4" and answers[1]  # the second puzzle lists no answers: the reader found them
    assert client.get("/teach/worksheet?p=web-first:0").status_code == 404
    # back from the sheet to the picks, with them ticked; and a whole topic ticked with one button
    back = re.search(r'href="([^"]*)">← Change the puzzles', page).group(1).replace("&amp;", "&")
    picker = client.get(back, headers=EN).get_data(as_text=True)
    assert sorted(re.findall(r'name="p" value="([^"]+)" checked', picker)) == ["web-first:1", "web-second:0"]
    one = client.get("/teach/worksheet?topic=capture&p=web-first:1", headers=EN).get_data(as_text=True)
    assert re.findall(r'name="p" value="([^"]+)" checked', one) == ["web-first:1"] and 'id="tick-all"' in one
    every = client.get("/teach/worksheet?all=capture&p=web-first:1", headers=EN).get_data(as_text=True)
    assert sorted(re.findall(r'name="p" value="([^"]+)" checked', every)) == ["web-first:1", "web-second:0"]


@pytest.fixture(autouse=True)
def _honest_proof_deadline(request):
    """Uploads are proven within a deadline; the test machine may be far busier than a school's server."""
    if "demo" in request.fixturenames:
        request.getfixturevalue("demo").config["PROOF_DEADLINE_SECONDS"] = 600


def proof_answer(app, client, r, headers=None) -> tuple[object, str]:
    """Where an upload ended: the page's own answer (422 and the like) when the quick checks refused it, else the
    final status of its queued proof (the queue worked here as ``teach proofs run`` would) and the job's page."""
    from teach.web import proofs

    if r.status_code != 302 or "/teach/proofs/" not in r.headers.get("Location", ""):
        return r.status_code, r.get_data(as_text=True)
    with app.app_context():
        proofs.run_queue()
    assert proofs.join_runners(app, 600)
    page = client.get(r.headers["Location"], headers=headers or {}).get_data(as_text=True)
    return re.search(r'data-status="(\w+)"', page).group(1), page


def publish(app, client) -> None:
    """The teacher publishes their one own lesson to the demo class (an upload is a draft until then)."""
    with app.app_context():
        pk = db.session.scalar(sa.select(TeacherLesson.id))
    r = client.post(f"/teach/lessons/{pk}/classes", data={"class": demo_class(app), "action": "publish"})
    assert r.status_code == 302


GOOD_LESSON = (WEB_LESSONS / "capture" / "web-second.yaml").read_text().replace("web-second", "my-own")


@pytest.mark.parametrize("name, data, says", [
    ("bad.yaml", b"id: [unclosed", "bad.yaml:"),
    ("wrong.yaml", GOOD_LESSON.replace("target: [A5]", "target: [J9]").encode(), "wrong.yaml:"),
    ("pic.yaml", b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
    ("huge.yaml", b"a" * (65 * 1024), "too big"),
    ("topic.yaml", GOOD_LESSON.replace("topic: capture", "topic: nowhere").encode(), "There is no topic"),
    # a sticker of the map (or a milestone): a kid finishing it would be shown that sticker, and not win it later
    ("sticker.yaml", GOOD_LESSON.replace("id: my-own-star", "id: web-first-badge").encode(), "is a sticker of the map"),
    ("milestone.yaml", GOOD_LESSON.replace("id: my-own-star", "id: milestone-first-lesson").encode(),
     "is a sticker of the map"),
])
def test_an_uploaded_lesson_with_errors_is_not_saved(demo, client, name, data, says):
    teacher_login(client)
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(data), name)}, headers=EN,
                    content_type="multipart/form-data")
    status, page = proof_answer(demo, client, r, EN)
    assert status in (422, "refused") and says in page
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(TeacherLesson)) == 0


def test_an_uploaded_lesson_that_checks_is_saved_and_shown_to_the_class(demo, client):
    teacher_login(client)
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(GOOD_LESSON.encode()), "mine.yaml")},
                    content_type="multipart/form-data", headers=EN)
    assert r.status_code == 302
    status, done = proof_answer(demo, client, r, EN)
    assert status == "done" and "checked out and is saved" in done
    page = client.get(f"/teach/classes/{demo_class(demo)}").get_data(as_text=True)
    preview = re.search(r'href="(/teach/lessons/\d+)">老鼠想逃跑<', page).group(1)  # by its title
    shown = client.get(preview).get_data(as_text=True)
    assert 'data-kind="puzzle"' in shown and "<svg" in shown
    again = client.post("/teach/lessons", data={"lesson": (io.BytesIO(GOOD_LESSON.encode()), "mine.yaml")},
                        content_type="multipart/form-data", headers=EN)
    assert again.status_code == 422 and "exists already" in again.get_data(as_text=True)
    # nor another teacher: two lessons of one id in a class would share its kids' progress and homework
    zoe = demo.test_client()
    assert zoe.post("/signup", data={"email": "zoe@example.com", "password": "long-enough-9", "confirm":
                                     "long-enough-9", "name": "Zoe", "role": "teacher"}).status_code == 302
    theirs = zoe.post("/teach/lessons", data={"lesson": (io.BytesIO(GOOD_LESSON.encode()), "mine.yaml")},
                      content_type="multipart/form-data", headers=EN)
    assert theirs.status_code == 422 and "exists already" in theirs.get_data(as_text=True)



def test_kids_of_the_class_play_their_teachers_own_lesson(demo, outsider, client):
    teacher_login(client)
    own = GOOD_LESSON.replace("title: {zh: 老鼠想逃跑, en: The mouse runs}", "title: {zh: 我们的课, en: Our lesson}")
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(own.encode()), "mine.yaml")},
                    content_type="multipart/form-data")
    assert proof_answer(demo, client, r)[0] == "done"
    # the upload is listed by its lesson's title once saved (every board puzzle read "made on the board")
    uploads = client.get("/teach/lessons", headers=EN).get_data(as_text=True).split('class="proof-jobs"')[1]
    assert "“Our lesson”</a> · saved" in uploads.split("</ul>")[0]
    kid = demo.test_client()
    kid.post(f"/kids/CAT234/{kid_id(demo, 'Lily')}", data={"pictures": "star,apple,sun"})
    assert 'href="/learn/my-own"' not in kid.get("/learn/", headers=EN).get_data(as_text=True)  # a draft
    publish(demo, client)
    assert 'href="/learn/my-own"' in kid.get("/learn/", headers=EN).get_data(as_text=True)
    assert kid.get("/learn/my-own").headers["Location"].endswith("/learn/my-own/0")
    wrong = kid.post("/learn/my-own/0/move", json={"move": "J1", "ply": 0}).get_json()
    assert wrong["result"] == "wrong"
    with demo.app_context():
        assert db.session.scalar(sa.select(Attempt.first_move).where(Attempt.lesson_id == "my-own")) == "J1"
        db.session.add(Attempt(kid_id=kid_id(demo, "明明"), lesson_id="my-own", step=0, first_move="J1",
                               result="failed", moves=[{"move": "J1", "verdict": "wrong", "reason": "escapes"}]))
        db.session.commit()
    # 明明's mum reads the lesson's title in the report of every try, not its id
    mum = demo.test_client()
    mum.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"})
    report = mum.get(f"/family/kids/{kid_id(demo, '明明')}/report", headers=EN).get_data(as_text=True)
    assert "<td>Our lesson</td>" in report and "<td>my-own</td>" not in report
    # its sticker is in the sticker book to win (one more ❔), and once won it is shown by its name (not "a sticker")
    to_win = kid.get("/learn/stickers", headers=EN).get_data(as_text=True).count('class="sticker missing"')
    with demo.app_context():
        db.session.add(StickerAward(kid_id=kid_id(demo, "Lily"), sticker_id="my-own-star"))
        db.session.commit()
    book = kid.get("/learn/stickers", headers=EN).get_data(as_text=True)
    assert book.count('data-sticker="my-own-star" data-say="Little star"') == 1 and "A sticker<" not in book
    assert book.count('class="sticker missing"') == to_win - 1
    # and in the report of a kid who won it, his mum reads its name too (it was "a sticker")
    with demo.app_context():
        db.session.add(StickerAward(kid_id=kid_id(demo, "明明"), sticker_id="my-own-star"))
        db.session.commit()
    report = mum.get(f"/family/kids/{kid_id(demo, '明明')}/report", headers=EN).get_data(as_text=True)
    stickers = re.findall(r'<li data-row="stickers">([^<]*)', report)
    assert len(stickers) == 1 and "Little star" in stickers[0] and "a sticker" not in stickers[0]
    # a kid of another class does not get it
    zed = demo.test_client()
    zed.post(f"/kids/OTHER2/{outsider}", data={"pictures": "cat,cat,cat"})
    assert "my-own" not in zed.get("/learn/").get_data(as_text=True)
    assert zed.get("/learn/my-own").status_code == 404
    # deleting a published lesson asks first, saying who loses it: nothing is gone until the teacher says yes
    with demo.app_context():
        pk = db.session.scalar(sa.select(TeacherLesson.id).where(TeacherLesson.lesson_id == "my-own"))
    ask = client.post(f"/teach/lessons/{pk}/delete", headers=EN)
    assert ask.status_code == 200 and "“Our lesson” is published to 1 class" in ask.get_data(as_text=True)
    assert 'name="confirm" value="1"' in ask.get_data(as_text=True)
    assert kid.get("/learn/my-own").status_code == 302  # still there
    assert client.post(f"/teach/lessons/{pk}/delete", data={"confirm": "1"}).status_code == 302
    assert kid.get("/learn/my-own").status_code == 404


def test_an_uploaded_lesson_is_proven_whole_and_its_kids_moves_are_lookups_a_fresh_reading_agrees_with(demo, client):
    from teach.go.judge import Judge
    from teach.go.proof import ProvenJudge
    from teach.lessons.check import PROVE_LIMITS
    from teach.lessons.proofstore import key_of
    from teach.web.classroom import typed_lesson

    teacher_login(client)
    mouse = (WEB_LESSONS / "capture" / "web-first.yaml").read_text().replace("web-first", "my-mouse")
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(mouse.encode()), "mine.yaml")},
                    content_type="multipart/form-data", headers=EN)
    status, page = proof_answer(demo, client, r, EN)
    assert status == "done" and re.search(r"1 puzzle proven in [\d.]+ s", page)  # the page says how long
    assert 'data-unproven="0"' in page and "Every move a kid can play, at every step, is proven" in page
    with demo.app_context():
        row = db.session.scalar(sa.select(TeacherLesson))
        lesson = typed_lesson(row)
        puzzle = lesson.puzzles[0]
        assert list(row.proofs) == [key_of(puzzle)]
        judge = puzzle.judge()
        assert isinstance(judge, ProvenJudge) and judge.proof is not None
        fresh = Judge(puzzle.start(), puzzle.goal_object(), PROVE_LIMITS)
        moves = puzzle.start().legal_moves()
        before = (judge.looked_up, judge.read)  # the typed lesson, and its judge, are kept for the process
        for move in moves:  # every first move a kid can play: the stored verdict is the reader's
            stored, read = judge.judge([], move), fresh.judge([], move)
            assert (stored.result, stored.reason, stored.reply) == (read.result, read.reason, read.reply), move
        assert (judge.looked_up, judge.read) == (before[0] + len(moves), before[1])


def test_an_uploaded_puzzle_too_big_to_prove_whole_keeps_what_its_proof_reached_and_the_page_says_so(demo, client):
    """The edge chase of web-second: the reader runs out of budget deep in a wrong line (a whole proof judges
    every move at every position a kid can reach), so the puzzle is kept, as the curriculum keeps its too-big
    ones: the positions its proof reached are lookups, the rest is read as kids play."""
    from teach.go.proof import ProvenJudge
    from teach.web.classroom import typed_lesson

    teacher_login(client)
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(GOOD_LESSON.encode()), "mine.yaml")},
                    content_type="multipart/form-data", headers=ZH)
    status, page = proof_answer(demo, client, r, ZH)
    assert status == "done" and 'data-unproven="1"' in page and "这道题变化太多" in page
    with demo.app_context():
        row = db.session.scalar(sa.select(TeacherLesson))
        (entry,) = row.proofs.values()
        assert entry["complete"] is False and entry["positions"]
        judge = typed_lesson(row).puzzles[0].judge()
        assert isinstance(judge, ProvenJudge) and not judge.proof.complete
        before = (judge.looked_up, judge.read)  # the typed lesson, and its judge, are kept for the process
        assert judge.judge([], "J1").result == "wrong"
        assert (judge.looked_up, judge.read) == (before[0] + 1, before[1])


def test_of_several_puzzles_the_page_names_the_step_too_big_to_prove_whole(demo, client):
    """A lesson of two puzzles, the second the edge chase above: the page says which one the reader works out
    as kids play (it said "1 puzzle has too many lines", and the teacher had to guess which)."""
    easy = """  - puzzle:
      goal: capture
      target: [A1]
      text: {zh: 吃掉它, en: Catch it}
      board: |
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X . . . . . . .
        O . X . . . . . .
"""
    two = GOOD_LESSON.replace("steps:\n", "steps:\n" + easy)
    teacher_login(client)
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(two.encode()), "two.yaml")},
                    content_type="multipart/form-data", headers=EN)
    status, page = proof_answer(demo, client, r, EN)
    assert status == "done" and 'data-unproven="1"' in page
    assert "The puzzle of step 2 has too many lines" in page
    assert "<h1>Upload checked and saved</h1>" in page and "Checking an upload" not in page  # no longer checking


def test_a_lesson_kept_before_proofs_were_stored_is_read_live(demo, client):
    from teach.go.proof import ProvenJudge
    from teach.web.classroom import typed_lesson

    with demo.app_context():
        owner = db.session.scalar(sa.select(User.id).where(User.email == "teacher@example.com"))
        db.session.add(TeacherLesson(owner_id=owner, lesson_id="my-own", filename="mine.yaml", source=GOOD_LESSON))
        db.session.commit()
        judge = typed_lesson(db.session.scalar(sa.select(TeacherLesson))).puzzles[0].judge()
        assert isinstance(judge, ProvenJudge) and judge.proof is None  # no proof kept: every move is read
        before = (judge.looked_up, judge.read)  # the typed lesson, and its judge, are kept for the process
        assert judge.judge([], "J1").result == "wrong"
        assert (judge.looked_up, judge.read) == (before[0], before[1] + 1)


# the mouse of web-first as an SGF: black E6 D5 F5, white E5 and E3; black to capture at E4
MOUSE_SGF = b"(;GM[1]FF[4]SZ[9]PL[B]AB[ed][de][fe]AW[ee][eg]C[from a book])"
SGF_FORM = {"goal": "capture", "target": "e5", "topic": "capture", "text_zh": "抓住白老鼠！",
            "text_en": "Catch the white mouse!"}


def _own_lesson_count(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(TeacherLesson))


@pytest.mark.parametrize("data, form, says", [
    (b"(;SZ[9]AB[ed][de", {}, "A value is not closed: a “]” is missing (near character"),
    (b"(;SZ[9]AB[ed][de][fe]AW[ee]", {}, "a “)” is missing at its end"),
    (b"(;SZ[9]AB[ed][de][fe]aw[ee])", {}, "“aw” is not an SGF property"),
    (b"(SZ[9]AB[ed][de][fe]AW[ee])", {}, "cannot be read near character 2"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", {}, "not an SGF file"),
    (b"(;SZ[9]AB[aa]" + b"C[" + b"x" * (65 * 1024) + b"])", {}, "too big"),
    (MOUSE_SGF.replace(b"SZ[9]", b"SZ[19]"), {}, "9×9 or 13×13"),
    (MOUSE_SGF.replace(b"SZ[9]", b""), {}, "9×9 or 13×13"),
    (MOUSE_SGF.replace(b"SZ[9]", "SZ[²]".encode()), {}, "9×9 or 13×13"),
    (MOUSE_SGF.replace(b"SZ[9]", b"SZ[" + b"9" * 5000 + b"]"), {}, "9×9 or 13×13"),
    (MOUSE_SGF.replace(b"AB[ed][de][fe]AW[ee][eg]", b""), {}, "no stones"),
    (MOUSE_SGF.replace(b"PL[B]", b"PL[X]"), {}, "PL must be B or W"),
    (MOUSE_SGF, {"text_zh": "", "text_en": " "}, "in Chinese or in English"),
    (MOUSE_SGF, {"target": "Z99"}, "“Z99” is not a point"),  # the word at fault, named
    (MOUSE_SGF, {"goal": "win"}, "the goal"),
    (MOUSE_SGF, {"target": "A1"}, "A1"),  # no stone there: the checker says so
    (MOUSE_SGF.replace(b"PL[B]", b"PL[W]"), {}, "belong to the wrong side"),  # white to move: its own mouse
    (MOUSE_SGF.replace(b"AB[ed]", b"AB[zz]"), {}, "The point “zz” is not on the 9×9 board"),
])
def test_an_sgf_problem_that_does_not_check_is_not_saved(demo, client, data, form, says):
    teacher_login(client)
    before = _own_lesson_count(demo)
    r = client.post("/teach/sgf", data={**SGF_FORM, **form, "sgf": (io.BytesIO(data), "p.sgf")}, headers=EN,
                    content_type="multipart/form-data")
    status, page = proof_answer(demo, client, r, EN)
    assert status in (422, "refused") and "was not saved" in page and says in page
    assert _own_lesson_count(demo) == before


def test_an_sgf_that_cannot_be_read_is_told_in_the_teachers_language(demo, client):
    teacher_login(client)
    r = client.post("/teach/sgf", data={**SGF_FORM, "sgf": (io.BytesIO(b"(;SZ[9]AB[ed][de][fe]AW[ee]"), "p.sgf")},
                    content_type="multipart/form-data", headers=ZH)
    assert r.status_code == 422 and "结尾少了一个“)”" in r.get_data(as_text=True)
    assert "missing" not in r.get_data(as_text=True)
    off = client.post("/teach/sgf", data={**SGF_FORM, "sgf": (io.BytesIO(MOUSE_SGF.replace(b"AB[ed]", b"AB[zz]")),
                                                              "p.sgf")}, content_type="multipart/form-data", headers=ZH)
    assert "点“zz”不在9×9的棋盘上" in off.get_data(as_text=True) and "off the" not in off.get_data(as_text=True)
    side = client.post("/teach/sgf", data={**SGF_FORM, "sgf": (io.BytesIO(MOUSE_SGF.replace(b"PL[B]", b"PL[W]")),
                                                               "p.sgf")}, content_type="multipart/form-data",
                       headers=ZH, follow_redirects=True)
    status, page = proof_answer(demo, client, side, ZH)
    assert "属于不对的一方" in page and "side to move" not in page


def test_an_sgf_problem_is_proven_saved_and_played_by_the_class(demo, client):
    teacher_login(client)
    r = client.post("/teach/sgf", data={**SGF_FORM, "sgf": (io.BytesIO(MOUSE_SGF), "mouse.sgf")},
                    content_type="multipart/form-data", headers=EN)
    assert r.status_code == 302
    status, page = proof_answer(demo, client, r, EN)
    assert status == "done" and "The puzzle “Catch the white mouse!” checked out and is saved." in page
    with demo.app_context():
        stored = db.session.scalars(sa.select(TeacherLesson)).one()
        lesson_id = stored.lesson_id
    assert "from a book" not in stored.source and "mouse.sgf" == stored.filename  # only the position is kept
    lily = demo.test_client()
    lily.post(f"/kids/CAT234/{kid_id(demo, 'Lily')}", data={"pictures": "star,apple,sun"})
    publish(demo, client)
    assert f'href="/learn/{lesson_id}"' in lily.get("/learn/").get_data(as_text=True)
    step = lily.get(f"/learn/{lesson_id}/0", headers=EN).get_data(as_text=True)
    # the puzzle's words, not said again above them as the lesson's intro
    assert 'id="instruction">Catch the white mouse!</p>' in step and 'class="intro speak"' not in step
    assert lily.post(f"/learn/{lesson_id}/0/move", json={"move": "D4", "ply": 0}).get_json()["result"] == "wrong"
    assert lily.post(f"/learn/{lesson_id}/0/move", json={"move": "E4", "ply": 0}).get_json()["result"] == "correct"
    zh = client.get(f"/teach/lessons/{stored.id}", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "抓住白老鼠" in zh
    form_zh = client.get("/teach/sgf", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "吃掉目标棋子" in form_zh and "用 SGF 出一道题" in form_zh


def test_an_uploaded_puzzle_with_no_winning_move_once_its_lines_are_read_to_the_end_is_refused(demo, client):
    """The reader's first reading says F3 catches White E3 (White's friend at G2), but after White's E2 no black
    move does: the upload would teach something false, so it is not kept."""
    from test_whole_proof import BREAKER

    board = "\n".join("        " + " ".join(row) for row in BREAKER)
    lesson = (f"id: my-breaker\ntopic: capture\norder: 1\nlevel: 1\nsize: 9\n"
              f"sticker: {{id: my-breaker-star, picture: star, name: {{zh: 星星, en: Star}}}}\n"
              f"title: {{zh: 征子, en: Ladder}}\nintro: {{zh: 抓老鼠, en: Catch it}}\nrecap: {{zh: 抓住了, en: Caught}}\n"
              f"steps:\n  - puzzle:\n      goal: capture\n      target: [E3]\n"
              f"      text: {{zh: 抓住白老鼠！, en: Catch the white mouse!}}\n      board: |\n{board}\n")
    teacher_login(client)
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(lesson.encode()), "breaker.yaml")},
                    content_type="multipart/form-data", headers=EN)
    status, page = proof_answer(demo, client, r, EN)
    assert status == "refused" and "no winning first move" in page, page
    assert _own_lesson_count(demo) == 0


def test_the_kid_page_shows_times_on_the_classroom_s_clock(demo, client):
    """Tries and the timeline are kept in UTC; the page says them as the classroom's clock (Asia/Shanghai by
    default) does, like its days of practice: a try at 17:30 UTC on 1 December was made at 01:30 on 2 December."""
    from datetime import datetime

    teacher_login(client)
    class_id, lily = demo_class(demo), kid_id(demo, "Lily")
    with demo.app_context():
        db.session.add(Attempt(kid_id=lily, lesson_id="web-first", step=1, first_move="E4", result="solved",
                               moves=[{"move": "E4", "verdict": "correct"}],
                               started_at=datetime(2026, 12, 1, 17, 30)))
        db.session.commit()
    page = client.get(f"/teach/classes/{class_id}/kids/{lily}", headers=EN).get_data(as_text=True)
    assert "12-02 01:30" in page and "12-01 17:30" not in page


@pytest.mark.parametrize("typed, kept", [("Cls\x00\x01\x07red", "Clsred"), ("\u202eTigers\u200b", "Tigers"),
                                         ("  大\t班  ", "大 班")])
def test_a_class_name_keeps_only_text(demo, client, typed, kept):
    """Control characters, direction overrides and zero-width spaces are no part of a name the kids' sign-in
    page shows: dropped; a name of nothing else is no name."""
    teacher_login(client)
    class_id = int(client.post("/teach/classes", data={"name": typed}).headers["Location"].rsplit("/", 1)[1])
    with demo.app_context():
        assert db.session.get(Group, class_id).name == kept
    client.post(f"/teach/classes/{class_id}/rename", data={"name": "\u200b\u202e\x00"})
    with demo.app_context():
        assert db.session.get(Group, class_id).name == kept  # refused: nothing left to call it


def _tabs(app, client, n: int) -> list:
    """``n`` more browsers holding ``client``'s session (a double click, or the same form in several tabs)."""
    tabs = []
    for _ in range(n):
        tab = app.test_client()
        tab.set_cookie("session", client.get_cookie("session").value)
        tabs.append(tab)
    return tabs


def test_the_same_kid_sent_three_times_at_once_is_added_once(demo, client):
    from test_room import race

    teacher_login(client)
    class_id = demo_class(demo)
    answers = race(*[lambda tab=tab: tab.post(f"/teach/classes/{class_id}/kids", data={"names": "Twin"})
                     for tab in _tabs(demo, client, 3)])
    assert sorted(status for status, _body in answers) == [200, 400, 400]  # one card, two "taken" pages
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.name == "Twin")) == 1


def test_a_new_class_sent_three_times_at_once_is_made_once(demo, client):
    from test_room import race

    teacher_login(client)
    with demo.app_context():
        before = db.session.scalar(sa.select(sa.func.count()).select_from(Group))
    answers = race(*[lambda tab=tab: tab.post("/teach/classes", data={"name": "Twin class"})
                     for tab in _tabs(demo, client, 3)])
    assert [status for status, _body in answers] == [302] * 3  # each tab lands on the one class
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Group)) == before + 1
    again = client.post("/teach/classes", data={"name": "twin CLASS"}, headers=EN, follow_redirects=True)
    assert "already" in again.get_data(as_text=True)
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Group)) == before + 1


def test_the_whole_class_row_names_the_topics_a_kid_is_on_not_every_topic_of_the_map(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)

    def row(name: str) -> str:
        page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
        kid = re.search(rf'<tr class="kid-summary" data-kid="{kid_id(demo, name)}".*?</tr>', page, re.S).group(0)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", kid.split('class="topic-chips"', 1)[1].split("</td>")[0]))

    assert row("明明").strip().endswith("nothing started yet")
    _play_wrong_then_right(demo, "明明", "cat,fish,moon", "D4")  # a puzzle of the topic's first lesson: begun
    assert "Learning: Atari and capture 0/2" in row("明明") and "finished" not in row("明明")
    assert "nothing started yet" in row("Lily")


def test_a_kid_who_finished_only_the_class_s_own_lesson_is_not_shown_as_nothing_started(demo, client):
    """Tom finished his teacher's own lesson and nothing on the map: the row said "1/85 · nothing started yet"
    (the count took in the own lesson, the words the map only). The map's column counts the map; the class's own
    lessons have their own chip."""
    from teach.models import utcnow
    from teach.web import content

    teacher_login(client)
    r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(GOOD_LESSON.encode()), "mine.yaml")},
                    content_type="multipart/form-data")
    assert proof_answer(demo, client, r)[0] == "done"
    publish(demo, client)
    with demo.app_context():
        db.session.add(LessonProgress(kid_id=kid_id(demo, "Tom"), lesson_id="my-own", step=0, stars=3,
                                      finished_at=utcnow()))
        db.session.commit()
    page = client.get(f"/teach/classes/{demo_class(demo)}/dashboard", headers=EN).get_data(as_text=True)
    tom = re.search(rf'<tr class="kid-summary" data-kid="{kid_id(demo, "Tom")}".*?</tr>', page, re.S).group(0)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", tom))
    with demo.app_context():
        on_map = len(content.ordered_lessons())
    assert f" 0/{on_map} " in text and "📌 Our own lessons 1/1" in text and "nothing started yet" not in text


def test_topics_under_way_count_finished_topics_and_list_only_those_begun():
    from teach.web.classroom import Cell
    from teach.web.teacher.reports import _topics_under_way

    lesson = lambda i: type("Lesson", (), {"id": i})()  # noqa: E731
    topics = [("a", [lesson("a1"), lesson("a2")]), ("b", [lesson("b1"), lesson("b2")]), ("c", [lesson("c1")])]
    mine = {"a1": Cell(started=True), "a2": Cell(started=True), "b2": Cell(started=True)}
    got = _topics_under_way(topics, mine, finished={"a1", "a2"})
    # a is finished, b is begun (a lesson opened, none finished), c is untouched
    assert got == {"topics_doing": [("b", 0, 2)], "topics_done": 1, "topics_total": 3}


def test_a_lesson_file_over_the_request_limit_is_answered_with_the_file_limit_not_a_generic_page(demo, client):
    """Two megabytes are refused before the form reads them (the request limit is 1 MB): the teacher hears what
    a file may weigh, as a 300 KB file is told, not "too much to send at once"."""
    teacher_login(client)
    body = (b'--x\r\nContent-Disposition: form-data; name="lesson"; filename="big.yaml"\r\n\r\n'
            + b"# " + b"x" * (2 * 1024 * 1024) + b"\r\n--x--\r\n")  # as bytes: no spooled file left open
    r = client.post("/teach/lessons", data=body, content_type="multipart/form-data; boundary=x", headers=EN)
    assert r.status_code == 413
    page = r.get_data(as_text=True)
    assert "That file is too big (at most 64 KB)." in page and "choose a smaller file" in page
    # any other teacher form over the limit (a list of two thousand names) is no file: the general answer
    names = client.post(f"/teach/classes/{demo_class(demo)}/kids", data={"names": "🐼" * 600_000}, headers=EN)
    assert names.status_code == 413 and "too much to send at once" in names.get_data(as_text=True)
    assert "file" not in names.get_data(as_text=True).split("<main", 1)[-1]
