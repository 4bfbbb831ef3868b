"""The parent's side: following a kid with a code, kids made at home, the kid's week, export and deletion."""

from __future__ import annotations

import json
import re

import sqlalchemy as sa

from teach.models import (Attempt, Group, LessonProgress, Membership, MissedCapture, ParentLink, PlayedGame,
                          StickerAward, User)
from teach.web.extensions import db

EN = {"Accept-Language": "en"}


def login(client, email, password):
    assert client.post("/login", data={"email": email, "password": password}).status_code == 302


def kid_id(app, name):
    with app.app_context():
        return db.session.scalar(sa.select(User.id).where(User.name == name))


def signup_parent(client, email="dad@example.com"):
    client.post("/signup", data={"role": "parent", "name": "Dad", "email": email, "password": "12345678",
                                 "confirm": "12345678"})


def _teacher_code(demo, kid):
    """The teacher makes a code on the kid's page and reads it there, as a teacher would."""
    teacher = demo.test_client()
    login(teacher, "teacher@example.com", "black-cat-42")
    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
    page = teacher.post(f"/teach/classes/{class_id}/kids/{kid}/invitations", follow_redirects=True)
    codes = re.findall(r'<code class="link-code">([^<]+)</code>', page.get_data(as_text=True))
    return teacher, class_id, codes[-1]


def test_a_parent_asks_with_the_teacher_s_code_and_sees_the_kid_only_once_approved(demo, client):
    lily = kid_id(demo, "Lily")
    teacher, class_id, code = _teacher_code(demo, lily)
    signup_parent(client)
    assert client.get(f"/family/kids/{lily}").status_code == 404
    bad = client.post("/family/link", data={"code": code[:-2] + "xx"}, headers=EN, follow_redirects=True)
    assert "does not work" in bad.get_data(as_text=True)
    # what was typed is back in the field once, to look for the typo, then gone
    assert f'name="code" maxlength="40" required autocomplete="off" value="{code[:-2]}xx"' in bad.get_data(as_text=True)
    assert f'value="{code[:-2]}xx"' not in client.get("/family/", headers=EN).get_data(as_text=True)
    odd = client.post("/family/link", data={"code": '"><b>x'}, headers=EN, follow_redirects=True)
    assert "<b>x" not in odd.get_data(as_text=True)  # shown as text, never as markup
    asked = client.post("/family/link", data={"code": code}, headers=EN, follow_redirects=True).get_data(as_text=True)
    assert "approve" in asked and "Lily" not in asked  # the code holder learns nothing about the kid yet
    for path in (f"/family/kids/{lily}", f"/family/kids/{lily}/export", f"/family/kids/{lily}/week"):
        assert client.get(path).status_code == 404
    assert client.post(f"/family/kids/{lily}/pictures").status_code == 404
    # the teacher is told on the class page, and approves on the kid's page
    assert "Lily" in teacher.get(f"/teach/classes/{class_id}", headers=EN).get_data(as_text=True).split(
        "waiting-parents")[1].split("</section>")[0]
    with demo.app_context():
        link_id = db.session.scalar(sa.select(ParentLink.id).where(ParentLink.kid_id == lily))
    kid_page = teacher.get(f"/teach/classes/{class_id}/kids/{lily}", headers=EN).get_data(as_text=True)
    assert "Dad" in kid_page and "waiting for approval" in kid_page
    teacher.post(f"/teach/classes/{class_id}/kids/{lily}/links/{link_id}/approve")
    assert client.get(f"/family/kids/{lily}").status_code == 200
    assert "Lily" in client.get("/family/").get_data(as_text=True)


def test_a_code_works_once_and_a_used_or_withdrawn_code_is_refused(demo, client):
    lily = kid_id(demo, "Lily")
    teacher, class_id, code = _teacher_code(demo, lily)
    signup_parent(client)
    assert client.post("/family/link", data={"code": code.lower().replace("-", " ")}).status_code == 302
    stranger = demo.test_client()
    signup_parent(stranger, "stranger@example.com")
    again = stranger.post("/family/link", data={"code": code}, headers=EN, follow_redirects=True)
    assert "does not work" in again.get_data(as_text=True)
    _teacher, _class, second = _teacher_code(demo, lily)
    with demo.app_context():
        from teach.models import LinkInvitation

        invitation = db.session.scalar(sa.select(LinkInvitation.id).where(
            LinkInvitation.code == second.replace("-", "")))
    teacher.post(f"/teach/classes/{class_id}/kids/{lily}/invitations/{invitation}/withdraw")
    withdrawn = stranger.post("/family/link", data={"code": second}, headers=EN, follow_redirects=True)
    assert "does not work" in withdrawn.get_data(as_text=True)
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(ParentLink).where(
            ParentLink.kid_id == lily)) == 1


def test_a_code_older_than_a_week_is_refused(demo, client):
    from datetime import timedelta

    from teach.models import LinkInvitation

    lily = kid_id(demo, "Lily")
    _teacher, _class, code = _teacher_code(demo, lily)
    with demo.app_context():
        invitation = db.session.scalar(sa.select(LinkInvitation))
        invitation.expires_at = invitation.created_at + timedelta(days=7) - timedelta(days=8)
        db.session.commit()
    signup_parent(client)
    late = client.post("/family/link", data={"code": code}, headers=EN, follow_redirects=True)
    assert "does not work" in late.get_data(as_text=True)


def test_removing_a_parent_asks_first_and_then_takes_effect_at_once(demo, client):
    """明明 is a family kid: the demo parent, her first parent, approves and removes the others."""
    mingming = kid_id(demo, "明明")
    mum = demo.test_client()
    login(mum, "parent@example.com", "little-mouse-42")
    page = mum.post(f"/family/kids/{mingming}/invitations", follow_redirects=True).get_data(as_text=True)
    code = re.findall(r'<code class="link-code">([^<]+)</code>', page)[-1]
    signup_parent(client)
    client.post("/family/link", data={"code": code})
    with demo.app_context():
        dad = db.session.scalar(sa.select(User.id).where(User.email == "dad@example.com"))
        link_id = db.session.scalar(sa.select(ParentLink.id).where(ParentLink.parent_id == dad))
    assert client.post(f"/family/kids/{mingming}/links/{link_id}/approve",
                       data={"confirm": "1"}).status_code == 404  # not their own
    ask = mum.post(f"/family/kids/{mingming}/links/{link_id}/approve", headers=EN)
    assert ask.status_code == 200 and "Dad will see everything about 明明" in ask.get_data(as_text=True)
    assert client.get(f"/family/kids/{mingming}").status_code == 404  # asked, not yet approved
    mum.post(f"/family/kids/{mingming}/links/{link_id}/approve", data={"confirm": "1"})
    assert client.get(f"/family/kids/{mingming}").status_code == 200
    # the approved dad is not the first parent: he cannot remove mum
    with demo.app_context():
        mum_link = db.session.scalar(sa.select(ParentLink.id).where(ParentLink.kid_id == mingming)
                                     .order_by(ParentLink.id))
    assert client.post(f"/family/kids/{mingming}/links/{mum_link}/remove", data={"confirm": "1"}).status_code == 404
    ask = mum.post(f"/family/kids/{mingming}/links/{link_id}/remove", headers=EN)
    assert ask.status_code == 200 and "Dad will no longer see anything" in ask.get_data(as_text=True)
    assert client.get(f"/family/kids/{mingming}").status_code == 200  # asked, not yet removed
    mum.post(f"/family/kids/{mingming}/links/{link_id}/remove", data={"confirm": "1"})
    assert client.get(f"/family/kids/{mingming}").status_code == 404
    assert client.get(f"/family/kids/{mingming}/export").status_code == 404


def test_two_parents_sending_one_code_at_once_get_one_link(demo):
    """The code is spent by one conditional UPDATE: eight parents racing over a real threaded server."""
    import http.client
    import threading
    from urllib.parse import urlencode

    from werkzeug.serving import make_server

    lily = kid_id(demo, "Lily")
    _teacher, _class, code = _teacher_code(demo, lily)
    demo.config["WTF_CSRF_ENABLED"] = False
    demo.config["RATELIMIT_ENABLED"] = False
    clients = []
    for n in range(8):
        c = demo.test_client()
        signup_parent(c, f"racer{n}@example.com")
        clients.append(c.get_cookie("session").value)
    server = make_server("127.0.0.1", 0, demo, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    barrier = threading.Barrier(len(clients))
    answers = []

    def redeem(cookie):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        barrier.wait()
        connection.request("POST", "/family/link", body=urlencode({"code": code}),
                           headers={"Cookie": f"session={cookie}",
                                    "Content-Type": "application/x-www-form-urlencoded"})
        answers.append(connection.getresponse().status)
        connection.close()

    threads = [threading.Thread(target=redeem, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    server.shutdown()
    assert answers == [302] * len(clients)
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(ParentLink).where(
            ParentLink.kid_id == lily)) == 1


def test_a_parent_makes_a_family_and_a_kid_who_signs_in_with_the_family_code(demo, client):
    signup_parent(client)
    client.post("/family/families", data={"name": "The Wangs"})
    again = client.post("/family/families", data={"name": "the wangs"}, headers={"Accept-Language": "en"},
                        follow_redirects=True)  # a second send, or a second tab: still one family
    assert "You have a family called “the wangs” already." in again.get_data(as_text=True)
    with demo.app_context():
        family = db.session.scalar(sa.select(Group).where(Group.name == "The Wangs"))
        family_id, code = family.id, family.code
    page = client.post(f"/family/families/{family_id}/kids", data={"name": "Xiaoxiao"}).get_data(as_text=True)
    pictures = re.search(r'data-pictures="([a-z,]+)"', page).group(1)
    new_kid = kid_id(demo, "Xiaoxiao")
    kid = demo.test_client()
    assert kid.post(f"/kids/{code}/{new_kid}", data={"pictures": pictures}).status_code == 302
    assert client.get(f"/family/kids/{new_kid}").status_code == 200
    r = client.post(f"/family/families/{family_id}/kids", data={"name": "xiaoxiao"}, headers=EN,
                    follow_redirects=True)
    assert "already in this group" in r.get_data(as_text=True)


def test_the_parent_dashboard_shows_the_week_stars_and_what_is_next(demo, client):
    ming = demo.test_client()
    ming.post(f"/kids/CAT234/{kid_id(demo, '明明')}", data={"pictures": "cat,fish,moon"})
    ming.get("/learn/web-first")
    ming.post("/learn/web-first/0/next")
    ming.post("/learn/web-first/1/move", json={"move": "E4", "ply": 0})
    ming.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]})
    login(client, "parent@example.com", "little-mouse-42")
    page = client.get(f"/family/kids/{kid_id(demo, '明明')}", headers=EN).get_data(as_text=True)
    assert "Catch the mouse" in page  # learned this week
    with demo.app_context():
        stickers = db.session.scalar(sa.select(sa.func.count()).select_from(StickerAward)
                                     .where(StickerAward.kid_id == kid_id(demo, "明明")))
    assert stickers >= 1 and "★ 3" in page and f"{stickers} stickers" in page
    assert "Practise next: The mouse runs" in page


def test_export_holds_all_the_kids_data_and_delete_removes_it(demo, client):
    ming = kid_id(demo, "明明")
    with demo.app_context():
        db.session.add(Attempt(kid_id=ming, lesson_id="web-first", step=1, first_move="D4",
                               moves=[{"move": "D4", "verdict": "wrong"}], result="failed"))
        db.session.add(StickerAward(kid_id=ming, sticker_id="web-first-badge"))
        game = PlayedGame(kid_id=ming, kind="capture", size=7, komi=7.5, capture_goal=1, kid_color="black",
                          opponent="computer", level=1, moves=["D4", "D5"], ply=2, state="playing", dead=[])
        db.session.add(game)
        db.session.flush()
        db.session.add(MissedCapture(game_id=game.id, kid_id=ming, move_number=1, kind="missed-capture", size=7,
                                     black=["C4"], white=["D4"], to_play="black", goal="capture", target="D4",
                                     played="A1", answers=["E4"]))
        db.session.commit()
    login(client, "parent@example.com", "little-mouse-42")
    r = client.get(f"/family/kids/{ming}/export")
    data = json.loads(r.get_data(as_text=True))
    assert r.headers["Content-Disposition"].startswith("attachment")
    assert data["kid"]["name"] == "明明" and data["attempts"][0]["moves"][0]["move"] == "D4"
    assert data["stickers"][0]["sticker"] == "web-first-badge"
    assert data["games"][0]["moves"] == ["D4", "D5"] and data["games"][0]["opponent"] == "computer"
    assert data["missed_captures"][0]["answers"] == ["E4"]
    client.post(f"/family/kids/{ming}/delete", data={"confirm": "wrong name"})
    with demo.app_context():
        assert db.session.get(User, ming) is not None
    client.post(f"/family/kids/{ming}/delete", data={"confirm": "明明"})
    with demo.app_context():
        assert db.session.get(User, ming) is None
        for model, column in ((PlayedGame, PlayedGame.kid_id), (MissedCapture, MissedCapture.kid_id),
                              (Attempt, Attempt.kid_id), (StickerAward, StickerAward.kid_id),
                              (LessonProgress, LessonProgress.kid_id), (ParentLink, ParentLink.kid_id),
                              (Membership, Membership.user_id)):
            assert db.session.scalar(sa.select(sa.func.count()).select_from(model).where(column == ming)) == 0


def test_another_parent_sees_nothing_and_changes_nothing(demo, client):
    signup_parent(client, "other@example.com")
    ming = kid_id(demo, "明明")
    assert client.get(f"/family/kids/{ming}").status_code == 404
    assert client.get(f"/family/kids/{ming}/export").status_code == 404
    assert client.post(f"/family/kids/{ming}/delete", data={"confirm": "明明"}).status_code == 404
    with demo.app_context():
        family_id = db.session.scalar(sa.select(Group.id).where(Group.code == "HOME56"))
    assert client.post(f"/family/families/{family_id}/kids", data={"name": "Intruder"}).status_code == 404
    with demo.app_context():
        assert db.session.get(User, ming) is not None
        assert db.session.scalar(sa.select(User.id).where(User.name == "Intruder")) is None


def test_a_parent_gives_a_locked_kid_a_new_picture_password(demo, client):
    ming = kid_id(demo, "明明")
    kid = demo.test_client()
    for _ in range(5):
        kid.post(f"/kids/HOME56/{ming}", data={"pictures": "sun,sun,sun"})
    login(client, "parent@example.com", "little-mouse-42")
    with demo.app_context():
        before = db.session.get(User, ming).picture_hash
    ask = client.post(f"/family/kids/{ming}/pictures", headers=EN).get_data(as_text=True)
    assert "the old ones stop working" in ask and 'name="confirm" value="1"' in ask
    with demo.app_context():
        assert db.session.get(User, ming).picture_hash == before  # one tap only asks
    page = client.post(f"/family/kids/{ming}/pictures", data={"confirm": "1"}).get_data(as_text=True)
    assert "HOME56" in page
    pictures = re.search(r'data-pictures="([a-z,]+)"', page).group(1)
    assert kid.post(f"/kids/HOME56/{ming}", data={"pictures": pictures}).status_code == 302


def test_the_weekly_summary_shows_only_the_last_seven_days(demo, client):
    from datetime import date, timedelta

    from teach.models import Assignment, utcnow

    ming = kid_id(demo, "明明")
    now = utcnow()
    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        db.session.add_all([
            LessonProgress(kid_id=ming, lesson_id="web-first", stars=2, finished_at=now - timedelta(days=1)),
            LessonProgress(kid_id=ming, lesson_id="web-second", stars=3, finished_at=now - timedelta(days=12)),
            StickerAward(kid_id=ming, sticker_id="web-first-badge", awarded_at=now - timedelta(days=1)),
            StickerAward(kid_id=ming, sticker_id="web-second-star", awarded_at=now - timedelta(days=12)),
            # two tries this week of 90 s each, one old try that must not count
            Attempt(kid_id=ming, lesson_id="web-first", step=1, result="solved", started_at=now - timedelta(days=2),
                    finished_at=now - timedelta(days=2) + timedelta(seconds=90)),
            Attempt(kid_id=ming, lesson_id="web-first", step=1, result="failed", started_at=now - timedelta(days=3),
                    finished_at=now - timedelta(days=3) + timedelta(seconds=90)),
            Attempt(kid_id=ming, lesson_id="web-second", step=0, result="solved",
                    started_at=now - timedelta(days=20), finished_at=now - timedelta(days=20, seconds=-500)),
            Assignment(group_id=class_id, lesson_id="practice:net:2:77", practice_topic="net", practice_level=2,
                       practice_seed=77, due_on=date.today() + timedelta(days=2)),
        ])
        db.session.commit()
    login(client, "parent@example.com", "little-mouse-42")
    assert f"/family/kids/{ming}/week" in client.get(f"/family/kids/{ming}", headers=EN).get_data(as_text=True)
    r = client.get(f"/family/kids/{ming}/week", headers=EN)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "print.css" in page
    assert re.findall(r'data-lesson="([\w-]+)" data-stars="(\d)"', page) == [("web-first", "2")]
    week_stickers = page[page.index('class="week-stickers"'):page.index('class="week-time"')]
    assert "Police badge" in week_stickers and "Little star" not in week_stickers
    assert 'data-minutes="3" data-tries="2"' in page
    assert "Practice: Net, level 2" in page
    first, last = (date.fromisoformat(d) for d in re.search(
        r'class="week-dates">(\S+) – (\S+)<', page).groups())
    assert (last - first).days == 6  # seven days with today, the days the minutes are counted over
    zh = client.get(f"/family/kids/{ming}/week", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "本周完成的课" in zh and "抓住小老鼠" in zh
    other = demo.test_client()
    signup_parent(other, "other@example.com")
    assert other.get(f"/family/kids/{ming}/week").status_code == 404


def test_a_family_name_and_a_grown_up_s_name_keep_only_text(demo, client):
    signup_parent(client)
    client.post("/family/families", data={"name": "\u202eThe\x00 Lis\u200b"})
    client.post("/family/families", data={"name": "\x00\u200b"})
    with demo.app_context():
        names = sorted(db.session.scalars(sa.select(Group.name).where(Group.kind == "family",
                                                                      Group.name.like("%Lis%"))))
        assert names == ["The Lis"]
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Group).where(Group.name == "")) == 0
    other = demo.test_client()
    r = other.post("/signup", data={"role": "parent", "name": "\x1bMum\u202e", "email": "mum@example.com",
                                    "password": "long-enough-9", "confirm": "long-enough-9"})
    assert r.status_code == 302
    with demo.app_context():
        assert db.session.scalar(sa.select(User.name).where(User.email == "mum@example.com")) == "Mum"


def test_the_same_kid_made_at_home_three_times_at_once_is_made_once(demo, client):
    from test_room import race

    signup_parent(client)
    client.post("/family/families", data={"name": "The Twins"})
    with demo.app_context():
        family_id = db.session.scalar(sa.select(Group.id).where(Group.name == "The Twins"))
    tabs = []
    for _ in range(3):
        tab = demo.test_client()
        tab.set_cookie("session", client.get_cookie("session").value)
        tabs.append(tab)
    race(*[lambda tab=tab: tab.post(f"/family/families/{family_id}/kids", data={"name": "Pip"}) for tab in tabs])
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.name == "Pip")) == 1
