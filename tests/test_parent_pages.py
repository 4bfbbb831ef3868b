"""The parent's pages, round two: puzzles solved (not taps), charts of the last weeks, practise next that opens the
practice, following a kid by a QR code, confirmations, and the readable report beside the JSON."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from teach.models import (Assignment, Attempt, Group, LessonProgress, LinkInvitation, MissedCapture, ParentLink,
                          PlayedGame, StickerAward, User, utcnow)
from teach.web.daily import local
from teach.web.extensions import db

EN = {"Accept-Language": "en"}
ZH = {"Accept-Language": "zh"}
MUM = ("parent@example.com", "little-mouse-42")


def login(client, email, password):
    assert client.post("/login", data={"email": email, "password": password}).status_code == 302


def signup_parent(client, email="dad@example.com"):
    r = client.post("/signup", data={"role": "parent", "name": "Dad", "email": email, "password": "12345678",
                                     "confirm": "12345678"})
    assert r.status_code == 302


def kid_id(app, name):
    with app.app_context():
        return db.session.scalar(sa.select(User.id).where(User.name == name))


def ming_signs_in(demo):
    kid = demo.test_client()
    assert kid.post(f"/kids/HOME56/{kid_id(demo, '明明')}", data={"pictures": "cat,fish,moon"}).status_code == 302
    return kid


def descriptions(page: str) -> dict[str, list[str]]:
    """Each chart's bars in words (its <desc>), by chart name."""
    found = {}
    for name, desc in re.findall(r'data-chart="(\w+)".*?<desc id="[^"]+">([^<]*)</desc>', page, re.S):
        found[name] = html.unescape(desc).split("; ")
    return found


def figure(bar: str) -> int:
    return int(re.search(r": (\d+)", bar).group(1))


# ---------------------------------------------------------------------- puzzles solved, not taps
def test_wrong_taps_are_tries_and_a_puzzle_solved_after_them_counts_once(demo, client):
    kid = ming_signs_in(demo)
    kid.get("/learn/web-first")
    kid.post("/learn/web-first/0/next")
    for wrong in ("A1", "B1", "C1"):
        assert kid.post("/learn/web-first/1/move", json={"move": wrong, "ply": 0}).get_json()["result"] == "wrong"
    assert kid.post("/learn/web-first/1/move", json={"move": "E4", "ply": 0}).get_json()["result"] == "correct"
    kid.post("/learn/web-first/2/answer", json={"points": ["D5"]})  # a wrong answer to the quiz
    ming = kid_id(demo, "明明")
    with demo.app_context():
        tries = db.session.scalar(sa.select(sa.func.count()).select_from(Attempt).where(Attempt.kid_id == ming))
    assert tries == 5  # every tap is kept as a try
    login(client, *MUM)
    week = client.get(f"/family/kids/{ming}/week", headers=EN).get_data(as_text=True)
    assert 'data-tries="5" data-solved="1"' in week and "1 puzzle solved" in week and "5 tries in all" in week
    assert "puzzles tried" not in week
    home = client.get("/family/", headers=EN).get_data(as_text=True)
    assert 'data-solved="1"' in home and "1 puzzle solved this week" in home
    # solving it again the same week is still one puzzle; the quiz, once right, is a second
    kid.get("/learn/web-first")
    kid.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]})
    with demo.app_context():
        db.session.add(Attempt(kid_id=ming, lesson_id="web-first", step=1, result="solved", started_at=utcnow()))
        db.session.commit()
    kid_page = client.get(f"/family/kids/{ming}", headers=ZH).get_data(as_text=True)
    assert 'data-solved="2"' in kid_page and "本周做对 2 道题" in kid_page


# ---------------------------------------------------------------------- the last weeks in charts
def test_a_little_practice_is_one_minute_in_the_line_and_in_the_chart(demo, client):
    """Twenty seconds on one puzzle: the page's line and this week's bar both say one minute (the chart once said
    "no practice in these weeks" beside "1 minutes in the last 7 days")."""
    ming = kid_id(demo, "明明")
    now = utcnow()
    with demo.app_context():
        db.session.add(Attempt(kid_id=ming, lesson_id="web-first", step=1, result="solved",
                               started_at=now - timedelta(seconds=30), finished_at=now - timedelta(seconds=10)))
        db.session.commit()
    login(client, *MUM)
    page = client.get(f"/family/kids/{ming}", headers=EN).get_data(as_text=True)
    assert "1 minute in the last 7 days" in page
    assert figure(descriptions(page)["minutes"][-1]) == 1


def test_the_charts_put_each_week_s_time_puzzles_and_stickers_in_its_own_bar(demo, client):
    from teach.web import weeks

    ming = kid_id(demo, "明明")
    now = utcnow()
    with demo.app_context():
        rows = [
            # this week: one puzzle solved after two wrong tries, 2 minutes each
            *(Attempt(kid_id=ming, lesson_id="web-first", step=1, result=r, started_at=now - timedelta(days=1),
                      finished_at=now - timedelta(days=1) + timedelta(seconds=120)) for r in ("failed", "failed",
                                                                                              "solved")),
            # three weeks ago: two puzzles, 10 minutes in all
            Attempt(kid_id=ming, lesson_id="web-first", step=1, result="solved", started_at=now - timedelta(days=17),
                    finished_at=now - timedelta(days=17) + timedelta(seconds=300)),
            Attempt(kid_id=ming, lesson_id="web-first", step=2, result="solved", started_at=now - timedelta(days=18),
                    finished_at=now - timedelta(days=18) + timedelta(seconds=300)),
            # older than eight weeks: in no bar
            Attempt(kid_id=ming, lesson_id="web-second", step=0, result="solved",
                    started_at=now - timedelta(days=60), finished_at=now - timedelta(days=60, seconds=-300)),
            StickerAward(kid_id=ming, sticker_id="web-first-badge", awarded_at=now - timedelta(days=2)),
            StickerAward(kid_id=ming, sticker_id="web-second-star", awarded_at=now - timedelta(days=50)),
        ]
        db.session.add_all(rows)
        db.session.commit()
        last = weeks.last_weeks(ming, now=now)
    assert len(last) == 8 and last[-1].end == now and all(b.start == a.end for a, b in zip(last, last[1:]))
    assert [w.solved for w in last] == [0, 0, 0, 0, 0, 2, 0, 1]
    assert [w.tries for w in last] == [0, 0, 0, 0, 0, 2, 0, 3]
    # time is time on task (timing.py): this week's tries span 2 minutes; three weeks ago each try's 5 minutes
    # count at most the idle cap of 2 minutes, and the day between them is a break
    assert [w.minutes for w in last] == [0, 0, 0, 0, 0, 4, 0, 2]
    assert [w.stickers for w in last] == [1, 0, 0, 0, 0, 0, 0, 1]
    login(client, *MUM)
    page = client.get(f"/family/kids/{ming}", headers=EN).get_data(as_text=True)
    charts = descriptions(page)
    assert set(charts) == {"minutes", "solved", "stickers"}
    assert [figure(b) for b in charts["solved"]] == [w.solved for w in last]
    assert [figure(b) for b in charts["minutes"]] == [w.minutes for w in last]
    assert [figure(b) for b in charts["stickers"]] == [w.stickers for w in last]
    assert "1 puzzle solved" in charts["solved"][-1] and "minutes" in charts["minutes"][-1]
    assert page.count('<svg class="chart') == 3 and "this week" in page
    assert "<script" not in page.split('id="weeks"')[1].split("</section>")[0]  # drawn on the server
    zh = descriptions(client.get(f"/family/kids/{ming}", headers=ZH).get_data(as_text=True))
    assert "做对 1 道题" in zh["solved"][-1] and "2分钟" in zh["minutes"][-1] and "本周" not in zh["solved"][0]


def test_a_bar_chart_is_proportional_escapes_its_words_and_says_when_there_is_nothing():
    from teach.web.charts import Bar, bar_chart

    svg = str(bar_chart([Bar(2, "a", "first: 2"), Bar(4, "<b>", "second: 4"), Bar(0, "", "third: 0")],
                        "Minutes <script>", "nothing yet"))
    heights = [float(h) for h in re.findall(r'<rect class="bar"[^>]* height="([\d.]+)"', svg)]
    assert len(heights) == 2 and heights[1] == pytest.approx(2 * heights[0])
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&lt;b&gt;" in svg
    assert "nothing yet" not in svg and 'class="figure zero"' in svg
    empty = str(bar_chart([Bar(0, "a", "a: 0")] * 3, "Stickers", "nothing yet"))
    assert "nothing yet" in empty and "<rect" not in empty


# ---------------------------------------------------------------------- practise next opens the practice
def test_practise_next_is_a_link_that_opens_the_lesson_for_the_kid(demo, client):
    from teach.web import links

    ming = kid_id(demo, "明明")
    login(client, *MUM)
    page = client.get(f"/family/kids/{ming}", headers=EN).get_data(as_text=True)
    assert f'href="/family/kids/{ming}/practise"' in page
    practise = client.get(f"/family/kids/{ming}/practise", headers=EN).get_data(as_text=True)
    assert 'data-lesson="web-first"' in practise and "Catch the mouse" in practise
    start = html.unescape(re.search(r'class="button practise-start" href="([^"]+)"', practise).group(1))
    assert start == f"/kids/HOME56/{ming}?next=/learn/web-first"
    with demo.test_request_context():
        qr = str(links.qr_svg("http://localhost" + start, "QR code: 明明 practises"))
    assert qr in practise  # the QR code is of that very address
    # the kid takes the phone: the picture password, then straight into the lesson
    kid = demo.test_client()
    signed_in = kid.post(start, data={"pictures": "cat,fish,moon"})
    assert signed_in.status_code == 302 and signed_in.headers["Location"] == "/learn/web-first"
    assert kid.get("/learn/web-first").headers["Location"] == "/learn/web-first/0"
    # on the kid's own tablet, already signed in, the QR code goes straight there too
    assert kid.get(start).headers["Location"] == "/learn/web-first"


@pytest.mark.parametrize("target", ["//evil.example/learn/x", "https://evil.example/learn/", "/family/",
                                    "/teach/classes", "learn/web-first", "/learn\\..\\family", "/learn/../family/",
                                    "/learn/%2e%2e/family", "/learn//evil.example"])
def test_after_the_pictures_a_kid_goes_only_to_a_kid_page_of_this_site(demo, target):
    kid = demo.test_client()
    r = kid.post(f"/kids/HOME56/{kid_id(demo, '明明')}", query_string={"next": target},
                 data={"pictures": "cat,fish,moon"})
    assert r.status_code == 302 and r.headers["Location"] == "/learn/"


def test_practise_next_follows_the_homework_first_as_the_kid_s_map_does(demo, client):
    ming = kid_id(demo, "明明")
    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        db.session.add(Assignment(group_id=class_id, lesson_id="web-second", kid_ids=[ming],
                                  due_on=utcnow().date() + timedelta(days=3)))
        db.session.commit()
    login(client, *MUM)
    practise = client.get(f"/family/kids/{ming}/practise", headers=EN).get_data(as_text=True)
    assert 'data-lesson="web-second"' in practise and "homework, due" in practise
    assert "Practise next: " in client.get("/family/", headers=EN).get_data(as_text=True)
    with demo.app_context():
        for lesson in ("web-first", "web-second"):
            db.session.add(LessonProgress(kid_id=ming, lesson_id=lesson, stars=3, finished_at=utcnow()))
        db.session.commit()
    done = client.get(f"/family/kids/{ming}/practise", headers=EN).get_data(as_text=True)
    assert "Every lesson is finished" in done and "next=/practice/" in done


# ---------------------------------------------------------------------- following a kid by a QR code
def _mum_makes_a_code(demo, mum, ming) -> tuple[str, str]:
    made = mum.post(f"/family/kids/{ming}/invitations")
    assert made.status_code == 302 and "/invitations/" in made.headers["Location"]
    card = mum.get(made.headers["Location"], headers=EN)
    assert card.headers["Cache-Control"] == "no-store"
    page = card.get_data(as_text=True)
    return re.search(r'<code class="link-code">([A-Z0-9-]+)</code>', page).group(1), page


def test_a_grandparent_scans_the_code_signs_up_and_asks_to_follow(demo, client):
    from teach.web import links

    ming = kid_id(demo, "明明")
    mum = demo.test_client()
    login(mum, *MUM)
    code, card = _mum_makes_a_code(demo, mum, ming)
    assert len(code) == 11 and "works once" in card
    with demo.test_request_context():
        url = links.follow_url(code.replace("-", ""))
        assert str(links.qr_svg(url, "QR code: follow 明明")) in card
    # the square scales with the page (a viewBox, no fixed size): it sat in a corner of its box on a phone
    assert re.search(r'<svg viewBox="0 0 (\d+) \1" class="qr">', card) and '<svg width=' not in card
    assert url == f"http://localhost/family/follow?code={code}"
    # a stranger (or a link preview) opening the address spends nothing and learns nothing
    scanned = client.get(url, headers=EN)
    page = scanned.get_data(as_text=True)
    assert scanned.status_code == 200 and scanned.headers["Referrer-Policy"] == "no-referrer"
    assert "明明" not in page and "Sign in" in page and "Create an account" in page
    with demo.app_context():
        assert db.session.scalar(sa.select(LinkInvitation.used_at)) is None
        assert db.session.scalar(sa.select(sa.func.count()).select_from(ParentLink)) == 1
    signup_parent(client, "grandpa@example.com")
    home = client.get("/family/", headers=EN).get_data(as_text=True)
    assert f'value="{code}"' in home and "You opened a code" in home
    follow = client.get(url, headers=EN).get_data(as_text=True)
    assert 'name="code" value="' + code.replace("-", "") + '"' in follow
    with demo.app_context():
        assert db.session.scalar(sa.select(LinkInvitation.used_at)) is None  # still nothing spent
    asked = client.post("/family/link", data={"code": code.replace("-", "")}, headers=EN, follow_redirects=True)
    assert "approve" in asked.get_data(as_text=True)
    with demo.app_context():
        grandpa = db.session.scalar(sa.select(User.id).where(User.email == "grandpa@example.com"))
        assert db.session.scalar(sa.select(ParentLink.status).where(ParentLink.parent_id == grandpa)) == "pending"
        assert db.session.scalar(sa.select(LinkInvitation.used_by)) == grandpa
    # the first parent hears of it on the home page, with the way to answer; the one who asked does not
    mum_home = mum.get("/family/", headers=EN).get_data(as_text=True)
    assert "1 parent asks to follow 明明: approve or refuse" in mum_home
    assert f'href="/family/kids/{ming}#followers"' in mum_home.split('class="to-approve"')[1]
    assert "有 1 位家长想关注明明" in mum.get("/family/", headers=ZH).get_data(as_text=True)
    assert "asks to follow" not in client.get("/family/", headers=EN).get_data(as_text=True)
    assert 'value="' not in client.get("/family/").get_data(as_text=True).split('id="follow"')[1].split("</form>")[0] \
        .split('name="code"')[1].split(">")[0]  # the carried code is gone once used
    # the used code's card is gone too
    with demo.app_context():
        invitation = db.session.scalar(sa.select(LinkInvitation.id))
    assert mum.get(f"/family/kids/{ming}/invitations/{invitation}").status_code == 302


@pytest.mark.parametrize("junk", ["<script>alert(1)</script>", "ABCDE-FGHJ", "ABCDEFGHJK0", "ABCDE-FGHJ1",
                                  "x" * 5000, ""])
def test_a_follow_address_with_no_good_code_echoes_nothing(demo, client, junk):
    page = client.get("/family/follow", query_string={"code": junk}, headers=EN).get_data(as_text=True)
    assert "holds no code" in page
    assert not junk or junk[:8] not in page.split("<main>")[1]
    with client.session_transaction() as session:
        assert "follow_code" not in session


def test_a_teacher_or_a_kid_opening_a_follow_address_is_refused(demo):
    teacher = demo.test_client()
    login(teacher, "teacher@example.com", "black-cat-42")
    assert teacher.get("/family/follow?code=ABCDE-FGHJK").status_code == 403
    assert ming_signs_in(demo).get("/family/follow?code=ABCDE-FGHJK").status_code == 403


def test_one_parent_account_guessing_codes_from_many_addresses_is_stopped(demo, client):
    signup_parent(client, "guesser@example.com")
    answers = [client.post("/family/link", data={"code": f"AAAAA{n:05d}".replace("0", "A").replace("1", "B")},
                           environ_base={"REMOTE_ADDR": f"10.0.{n // 200}.{n % 200}"}).status_code
               for n in range(31)]
    assert answers[:30] == [302] * 30 and answers[30] == 429


# ---------------------------------------------------------------------- the readable report
def test_the_report_reads_every_row_the_json_export_holds_in_words(demo, client):
    ming = kid_id(demo, "明明")
    now = utcnow()
    with demo.app_context():
        db.session.add_all([
            LessonProgress(kid_id=ming, lesson_id="web-first", stars=2, step=0, finished_at=now),
            Attempt(kid_id=ming, lesson_id="web-first", step=1, first_move="D4", result="failed",
                    moves=[{"move": "D4", "verdict": "wrong", "reason": "escapes", "reply": "E4"}]),
            Attempt(kid_id=ming, lesson_id="web-first", step=2, result="solved",
                    moves=[{"answer": {"points": ["D5", "E4", "F5"]}, "verdict": "correct"}]),
            Attempt(kid_id=ming, lesson_id="practice:net:2:77", step=0, result="solved",
                    moves=[{"move": "C3", "verdict": "correct"}]),
            StickerAward(kid_id=ming, sticker_id="web-first-badge"),
            StickerAward(kid_id=ming, sticker_id="milestone-first-capture"),
        ])
        game = PlayedGame(kid_id=ming, kind="capture", size=7, komi=7.5, capture_goal=1, kid_color="black",
                          opponent="computer", level=1, moves=["D4", "D5"], ply=2, state="finished", dead=[],
                          result="B+C1")
        # a game with a classmate in the play room is kept as one with a friend: not said to be "at home"
        db.session.add(PlayedGame(kid_id=ming, kind="capture", size=7, komi=7.5, capture_goal=1, kid_color="white",
                                  opponent="friend", friend_name="Lily", moves=["D4"], ply=1, state="playing",
                                  dead=[]))
        db.session.add(game)
        db.session.flush()
        missed = MissedCapture(game_id=game.id, kid_id=ming, move_number=1, kind="missed-capture", size=7,
                               black=["C4"], white=["D4"], to_play="black", goal="capture", target="D4",
                               played="A1", answers=["E4"])
        db.session.add(missed)
        # a whole game (komi kept in points, as the record's KM) and a try at the missed capture's retry puzzle
        db.session.add(PlayedGame(kid_id=ming, kind="full", size=9, komi=7.5, kid_color="black",
                                  opponent="computer", level=2, moves=["E5"], ply=1, state="playing", dead=[]))
        db.session.flush()
        db.session.add(Attempt(kid_id=ming, lesson_id=f"review:{missed.id}", step=0, first_move="A2",
                               result="failed", moves=[{"move": "A2", "verdict": "wrong", "reason": "escapes"}]))
        db.session.commit()
    login(client, *MUM)
    data = json.loads(client.get(f"/family/kids/{ming}/export").get_data(as_text=True))
    r = client.get(f"/family/kids/{ming}/report", headers=EN)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "print.css" in page and "data-print" in page
    for section in ("groups", "lessons", "attempts", "stickers", "games", "missed_captures"):
        assert page.count(f'data-row="{section}"') == len(data[section]) > 0, section
    assert page.count('data-row="followers"') == 1
    body = page.split("<main>")[1]
    assert "Catch the mouse" in body and "Practice: Net, level 2" in body  # titles, not ids
    assert "From a game (move 1): catch the stones" in body and "review:" not in body
    assert "komi 3¾ stones" in body and "komi 7.5" not in body  # in stones, as the game's page says it
    assert "web-first" not in body and "milestone-first-capture" not in body and "web-first-badge" not in body
    assert "Police badge" in body and "D4✗ → E4" in body and "D5 E4 F5 ✓" in body
    assert "capture game" in body and "the computer" in body and "a capture not taken" in body
    # the result in words, as the kid's page says it (a capture game's record, B+C1, is this product's own
    # spelling: the words say it; a whole game's record is shown beside its words)
    assert "明明 won · a capture game to 1</td>" in body and "B+C1" not in body
    assert "the computer (level 1)" in body
    assert "a friend · Lily" in body and "at home" not in body
    # a finished lesson: all its steps done (the row keeps the step to go on with, 0 for a lesson done)
    assert re.search(r'data-row="lessons">.*?</td>\s*<td>all</td>', body, re.S)
    # times on the classroom's clock (Asia/Shanghai, 8 hours ahead of the stored UTC), as every other page
    with demo.app_context():
        shown = local(now).strftime("%Y-%m-%d %H:%M")
    assert f">{shown}<" in body and "Asia/Shanghai" in body and "UTC" not in body
    assert page.count('<svg class="chart') == 3
    zh = client.get(f"/family/kids/{ming}/report", headers=ZH).get_data(as_text=True)
    assert "我们保存的明明的全部数据" in zh and "抓住小老鼠" in zh and "吃子游戏" in zh and "做错了" in zh
    assert "明明 赢了" in zh and "电脑（难度 1）" in zh and "第几手" in zh and "转班" not in zh
    assert "对局第1手：吃子题" in zh and "贴3¾子" in zh
    other = demo.test_client()
    signup_parent(other, "other@example.com")
    assert other.get(f"/family/kids/{ming}/report").status_code == 404


def test_family_export_and_delete_still_complete_with_the_report_beside_them(demo, client):
    signup_parent(client)
    client.post("/family/families", data={"name": "The Lis"})
    with demo.app_context():
        family_id = db.session.scalar(sa.select(Group.id).where(Group.name == "The Lis"))
    assert client.post(f"/family/families/{family_id}/kids", data={"name": "Xiaoyu"}).status_code == 200
    xiaoyu = kid_id(demo, "Xiaoyu")
    page = client.get(f"/family/kids/{xiaoyu}", headers=EN).get_data(as_text=True)
    assert f"/family/kids/{xiaoyu}/report" in page and f"/family/kids/{xiaoyu}/export" in page
    assert "No practice in these weeks yet." in page  # a new kid's charts say so instead of drawing nothing
    assert client.get(f"/family/kids/{xiaoyu}/report").status_code == 200
    assert json.loads(client.get(f"/family/kids/{xiaoyu}/export").data)["kid"]["name"] == "Xiaoyu"
    client.post(f"/family/kids/{xiaoyu}/delete", data={"confirm": "Xiaoyu"})
    with demo.app_context():
        assert db.session.get(User, xiaoyu) is None
    assert client.get(f"/family/kids/{xiaoyu}/report").status_code == 404


def test_the_report_says_a_quiz_answer_in_the_words_of_the_choice(app):
    """A choice quiz stores the index of the choice: the report gives its words in the page's language."""
    from flask import g

    from teach.lessons import load_lessons
    from teach.web.kid_report import choice_words

    cat = load_lessons(Path(__file__).resolve().parent.parent / "lessons")
    lesson = cat.lessons["board-points"]
    step = next(i for i, s in enumerate(lesson.steps) if s.kind == "quiz" and s.ask == "choice")
    with app.test_request_context():
        for lang, first, second in (("en", "On the points", "In the squares"), ("zh", "放在交叉点上", "放在格子里")):
            g.lang = lang
            words = choice_words(cat)
            assert (words("board-points", step, 0), words("board-points", step, 1)) == (first, second)
            assert words("board-points", step, 7) is None and words("board-points", 0, 0) is None
            assert words("practice:net:2:77", 0, 0) is None and words("board-points", step, "0") is None


def test_a_parent_s_card_names_the_games_of_the_week_and_leads_to_them(demo, client):
    from teach.models import PlayedGame

    ming = kid_id(demo, "明明")
    with demo.app_context():
        for days in (1, 3, 10):  # two this week, one before it
            db.session.add(PlayedGame(kid_id=ming, kind="capture", size=7, komi=0, kid_color="black",
                                      opponent="computer", level=1, capture_goal=1, moves=["D4"], ply=1,
                                      state="finished", result="B+C1", winner="black",
                                      created_at=utcnow() - timedelta(days=days)))
        db.session.commit()
    login(client, *MUM)
    home = client.get("/family/", headers=ZH).get_data(as_text=True)
    assert 'data-games="2"' in home and "最近7天下了2盘棋" in home and f'/family/kids/{ming}#games' in home
    kid_page = client.get(f"/family/kids/{ming}", headers=EN).get_data(as_text=True)
    assert 'href="#games"' in kid_page and 'id="games"' in kid_page and "2 games in the last 7 days" in kid_page
    # a capture game's row names its rule once, in the game's kind (it said it again beside who won)
    rows = re.findall(r"<li>[^<]*· Capture game, first to 1 · 明明 won[^<]*", kid_page)
    assert len(rows) == 3 and "a capture game to" not in kid_page
