"""The teacher's side, round 2: where a teacher lands, the name list that survives an error, login cards with a QR
code, assignments given once, questions asked first, time on task (the same figure for teacher and parent), the
whole class on the whole map, and the replay that says what went wrong."""

from __future__ import annotations

import html
import re
from datetime import date, datetime, timedelta

import sqlalchemy as sa

from teach.models import (Assignment, Attempt, Group, LessonProgress, Membership, PlayedGame, StepShown, User,
                          utcnow)
from teach.web.extensions import db

EN = {"Accept-Language": "en"}
ZH = {"Accept-Language": "zh"}


def teacher_login(client, email="teacher@example.com", password="black-cat-42"):
    return client.post("/login", data={"email": email, "password": password})


def demo_class(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))


def kid_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(User.id).where(User.name == name))


def kid_names(app, class_id: int) -> set[str]:
    with app.app_context():
        return set(db.session.scalars(sa.select(User.name).join(Membership).where(
            Membership.group_id == class_id, Membership.role == "kid")))


# ---------------------------------------------------------------------- landing and the name list
def test_a_teacher_lands_on_their_classes_and_a_parent_does_not(demo, client):
    r = teacher_login(client)
    assert r.status_code == 302 and r.headers["Location"].endswith("/teach/")
    other = demo.test_client()
    r = other.post("/signup", data={"role": "teacher", "name": "Mr Zhao", "email": "zhao@example.com",
                                    "password": "tiger-stripes-1", "confirm": "tiger-stripes-1"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/teach/")
    parent = demo.test_client()
    r = parent.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/family/")  # a parent on their kids
    # a safe ?next= still wins
    again = demo.test_client()
    r = again.post("/login?next=/teach/worksheet", data={"email": "teacher@example.com", "password": "black-cat-42"})
    assert r.headers["Location"].endswith("/teach/worksheet")


def test_a_refused_name_list_stays_in_the_box_and_numbers_tell_two_bens_apart(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    before = kid_names(demo, class_id)
    pasted = "Ben 2\nBen 3\nAnn <b>\nLily"  # "Lily" is in the class already, "Ann <b>" has signs
    r = client.post(f"/teach/classes/{class_id}/kids", data={"names": pasted}, headers=EN)
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and "Nobody was added" in page and "already in this group" in page
    box = re.search(r'<textarea name="names"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    assert html.unescape(box) == pasted and "<b>" not in box  # the list is back, escaped
    assert kid_names(demo, class_id) == before
    r = client.post(f"/teach/classes/{class_id}/kids", data={"names": "Ben 2\nBen 3"}, headers=EN)
    assert r.status_code == 200 and kid_names(demo, class_id) == before | {"Ben 2", "Ben 3"}
    r = client.post(f"/teach/classes/{class_id}/kids", data={"names": "42"}, headers=EN)
    assert r.status_code == 400 and "42" not in kid_names(demo, class_id)  # a name has letters, not only digits


# ---------------------------------------------------------------------- login cards
def test_login_cards_show_the_class_the_address_a_qr_code_and_pictures_never_blank(demo, client):
    import segno

    teacher_login(client)
    class_id = demo_class(demo)
    with demo.app_context():
        hashes = dict(db.session.execute(sa.select(User.id, User.picture_hash).where(User.role == "kid")).all())
    # printing again asks first, and asking changes nobody's password
    page = client.get(f"/teach/classes/{class_id}/cards", headers=EN).get_data(as_text=True)
    assert 'name="confirm" value="1"' in page and "＿" not in page
    assert f'action="/teach/classes/{class_id}/pictures"' in page
    with demo.app_context():
        assert dict(db.session.execute(sa.select(User.id, User.picture_hash).where(User.role == "kid")).all()) == hashes
    r = client.post(f"/teach/classes/{class_id}/pictures", data={"confirm": "1"}, headers=EN)
    page = r.get_data(as_text=True)
    cards = page.split('<li class="login-card">')[1:]
    assert r.status_code == 200 and len(cards) == 4
    address = "http://localhost/kids/CAT234"
    expected_qr = segno.make(address, error="m")
    for card in cards:
        assert "Little" in card or "小" in card  # the class's name on every card
        # the address as printed (the line may break before its code, never inside it)
        assert address in re.sub(r"<[^>]+>", "", card) and "sign-in-qr" in card
        assert '<span class="nowrap">CAT234</span>' in card
        assert re.search(r'data-pictures="([a-z]+,[a-z]+,[a-z]+)"', card)  # never blank
        assert "Scan the code" in card and "Tap your three pictures" in card
    # the QR code is the address's (the same modules segno draws for it)
    assert expected_qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", svgclass="sign-in-qr") in page
    # every kid got a new password, and the printed one signs them in
    with demo.app_context():
        now = dict(db.session.execute(sa.select(User.id, User.picture_hash).where(User.role == "kid")).all())
    assert all(now[k] != hashes[k] for k in hashes)
    lily = kid_id(demo, "Lily")
    lily_card = next(c for c in cards if "Lily" in c)
    pictures = re.search(r'data-pictures="([a-z,]+)"', lily_card).group(1)
    assert demo.test_client().post(f"/kids/CAT234/{lily}", data={"pictures": pictures}).status_code == 302
    zh = client.post(f"/teach/classes/{class_id}/pictures", data={"confirm": "1"}, headers=ZH).get_data(as_text=True)
    assert "扫" in zh and "按顺序" in zh


def test_a_public_address_goes_on_the_cards(demo, client):
    demo.config["PUBLIC_URL"] = "https://go.example.cn/"
    teacher_login(client)
    page = client.post(f"/teach/classes/{demo_class(demo)}/kids/{kid_id(demo, 'Tom')}/pictures",
                       data={"confirm": "1"}).get_data(as_text=True)
    assert "https://go.example.cn/kids/CAT234" in re.sub(r"<[^>]+>", "", page)


# ---------------------------------------------------------------------- assignments once
def _assignments(app, class_id):
    with app.app_context():
        return sorted((a.lesson_id, tuple(a.kid_ids or ())) for a in db.session.scalars(
            sa.select(Assignment).where(Assignment.group_id == class_id)))


def test_the_same_assignment_cannot_be_added_twice(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    today = date.today().isoformat()
    form = {"what": "lesson:web-first", "due": today}
    demo_homework = _assignments(demo, class_id)  # the demo gives Tom the second lesson
    client.post(f"/teach/classes/{class_id}/assignments", data=form)
    r = client.post(f"/teach/classes/{class_id}/assignments", data=form, headers=EN, follow_redirects=True)
    assert "assigned already" in r.get_data(as_text=True)
    assert _assignments(demo, class_id) == sorted(demo_homework + [("web-first", ())])
    # chosen kids who have it with the whole class: nothing new either
    lily = kid_id(demo, "Lily")
    client.post(f"/teach/classes/{class_id}/assignments", data={**form, "kids": [str(lily)]})
    assert _assignments(demo, class_id) == sorted(demo_homework + [("web-first", ())])
    # the whole topic: only the lessons not given yet are added, and the page says so
    r = client.post(f"/teach/classes/{class_id}/assignments", data={"what": "topic:capture", "due": today},
                    headers=EN, follow_redirects=True)
    given = _assignments(demo, class_id)
    assert len(set(given)) == len(given) and ("web-second", ()) in given and given.count(("web-first", ())) == 1
    assert "were assigned already" in r.get_data(as_text=True)


def test_deleting_an_assignment_asks_first(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    client.post(f"/teach/classes/{class_id}/assignments", data={"what": "lesson:web-first",
                                                                  "due": date.today().isoformat()})
    with demo.app_context():
        aid = next(a.id for a in db.session.scalars(sa.select(Assignment).where(Assignment.group_id == class_id))
                   if a.kid_ids is None)
    page = client.post(f"/teach/classes/{class_id}/assignments/{aid}/delete", headers=EN).get_data(as_text=True)
    before = _assignments(demo, class_id)
    assert "disappears from the kids' maps" in html.unescape(page) and ("web-first", ()) in before
    client.post(f"/teach/classes/{class_id}/assignments/{aid}/delete", data={"confirm": "1"})
    assert ("web-first", ()) not in _assignments(demo, class_id) and len(_assignments(demo, class_id)) == len(before) - 1


def test_removing_and_archiving_a_kid_ask_first(demo, client):
    teacher_login(client)
    class_id = demo_class(demo)
    tom = kid_id(demo, "Tom")
    page = client.post(f"/teach/classes/{class_id}/kids/{tom}/remove", headers=EN).get_data(as_text=True)
    assert "deleted for good" in page and "Tom" in kid_names(demo, class_id)
    page = client.post(f"/teach/classes/{class_id}/kids/{tom}/archive", data={"archived": "1"},
                       headers=EN).get_data(as_text=True)
    assert 'name="archived" value="1"' in page
    with demo.app_context():
        assert not db.session.get(User, tom).archived
    # the class page keeps the dangerous buttons apart and marked
    page = client.get(f"/teach/classes/{class_id}", headers=EN).get_data(as_text=True)
    assert page.count('class="small danger"') >= 4 and 'class="row-actions"' in page


# ---------------------------------------------------------------------- time on task
def _moments(app, kid: int, lesson_id: str, steps: list[tuple[int, datetime, datetime | None, str]]):
    """Steps shown at a time and, if answered, an attempt from its first move to its end."""
    with app.app_context():
        for step, shown, answered, result in steps:
            db.session.add(StepShown(kid_id=kid, lesson_id=lesson_id, step=step, shown_at=shown))
            if answered is not None:
                db.session.add(Attempt(kid_id=kid, lesson_id=lesson_id, step=step, first_move="E4", result=result,
                                       moves=[{"move": "E4", "verdict": "correct"}], started_at=answered,
                                       finished_at=answered))
        db.session.add(LessonProgress(kid_id=kid, lesson_id=lesson_id, step=1))
        db.session.commit()


def test_time_on_task_counts_from_the_step_shown_with_bounded_idle(demo):
    from teach.web import timing

    lily = kid_id(demo, "Lily")
    t0 = utcnow().replace(microsecond=0) - timedelta(hours=1)
    _moments(demo, lily, "web-first", [
        (1, t0, t0 + timedelta(seconds=40), "solved"),  # a one-move puzzle: 40 s of thinking, 0 s of moves
        (2, t0 + timedelta(seconds=45), t0 + timedelta(seconds=45 + 600), "solved"),  # 10 minutes: counts 2
    ])
    with demo.test_request_context():
        t = timing.time_on_task([lily])
        # 40 s + 5 s (to the next step) + 120 s (the long stare, capped) = 165 s
        assert t.lesson(lily, "web-first") == 165.0
        assert t.total(lily) == 165.0 and t.week(lily, timing.today()) == 165.0
    # a break (the tablet put away for two hours) counts nothing, and the next day is another day
    _moments(demo, lily, "web-second", [(0, t0 + timedelta(hours=26), t0 + timedelta(hours=26, seconds=30), "solved")])
    with demo.test_request_context():
        t = timing.time_on_task([lily])
        assert t.lesson(lily, "web-second") == 30.0 and t.total(lily) == 195.0
        days = {d for (_k, _l, d) in t.cells}
        assert len(days) == 2
        first_day = min(days)
        assert t.day(lily, first_day) == 165.0 and t.days(lily, first_day, max(days)) == 195.0


def test_the_csv_and_both_dashboards_show_the_same_time_and_never_minus_zero(demo, client):
    lily, tom = kid_id(demo, "Lily"), kid_id(demo, "Tom")
    t0 = utcnow().replace(microsecond=0) - timedelta(minutes=30)
    _moments(demo, lily, "web-first", [(1, t0, t0 + timedelta(seconds=90), "solved"),
                                       (2, t0 + timedelta(seconds=100), t0 + timedelta(seconds=190), "solved")])
    with demo.app_context():  # the old way's trap: an attempt whose first move is its end, and no step shown
        db.session.add(Attempt(kid_id=tom, lesson_id="web-first", step=1, first_move="E4", result="solved",
                               moves=[{"move": "E4", "verdict": "correct"}], started_at=t0, finished_at=t0))
        db.session.add(LessonProgress(kid_id=tom, lesson_id="web-first", step=1))
        db.session.commit()
    teacher_login(client)
    class_id = demo_class(demo)
    csv = client.get(f"/teach/classes/{class_id}/progress.csv").get_data(as_text=True)
    assert "-0.0" not in csv
    rows = {line.split(",")[0]: line.split(",") for line in csv.splitlines()[1:]}
    assert rows["Lily"][-1] == "3.2" and rows["Tom"][-1] == "0.0"  # 190 s
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert "-0.0" not in page
    week = dict(re.findall(r'data-kid="(\d+)" data-finished="\d+" data-games="\d+" data-week-minutes="(\d+)"', page))
    assert week[str(lily)] == "3" and week[str(tom)] == "0"
    # the demo parent follows 明明: the parent's pages show the teacher's figure
    mingming = kid_id(demo, "明明")
    _moments(demo, mingming, "web-first", [(1, t0, t0 + timedelta(seconds=100), "solved"),
                                          (2, t0 + timedelta(seconds=110), t0 + timedelta(seconds=210), "solved")])
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    teacher_minutes = dict(re.findall(r'data-kid="(\d+)" data-finished="\d+" data-games="\d+" '
                                      r'data-week-minutes="(\d+)"', page))[str(mingming)]
    parent = demo.test_client()
    parent.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"})
    week_page = parent.get(f"/family/kids/{mingming}/week", headers=ZH).get_data(as_text=True)
    assert teacher_minutes == "4"
    assert re.search(r'data-minutes="(\d+)"', week_page).group(1) == teacher_minutes
    kid_page = parent.get(f"/family/kids/{mingming}", headers=ZH).get_data(as_text=True)
    assert f'data-week-minutes="{teacher_minutes}">⏱ 近 7 天 {teacher_minutes} 分钟' in kid_page
    assert f'data-week-minutes="{teacher_minutes}"' in parent.get("/family/", headers=ZH).get_data(as_text=True)
    # the kid's page: per day, the week and per lesson, the same figure
    kid_page = client.get(f"/teach/classes/{class_id}/kids/{mingming}", headers=ZH).get_data(as_text=True)
    assert f'data-week-minutes="{teacher_minutes}"' in kid_page and "学习时间" in kid_page
    assert re.findall(r'data-lesson="web-first" data-minutes="(\d+)"', kid_page) == [teacher_minutes]
    assert 1 <= len(re.findall(r'data-day="[\d-]+" data-minutes="\d+"', kid_page)) <= 2  # 210 s: one day, or two at midnight


def test_showing_a_step_is_noted_and_a_one_move_puzzle_then_takes_time(demo):
    kid = demo.test_client()
    mingming = kid_id(demo, "明明")
    kid.post(f"/kids/CAT234/{mingming}", data={"pictures": "cat,fish,moon"})
    kid.get("/learn/web-first/0")
    kid.post("/learn/web-first/0/next")
    kid.get("/learn/web-first/1")
    assert kid.post("/learn/web-first/1/move", json={"move": "E4", "ply": 0}).get_json()["result"] == "correct"
    kid.get("/practice/capture/1/7/0")
    with demo.app_context():
        shown = db.session.execute(sa.select(StepShown.lesson_id, StepShown.step).where(
            StepShown.kid_id == mingming).order_by(StepShown.id)).all()
    assert [tuple(r) for r in shown] == [("web-first", 0), ("web-first", 1), ("practice:capture:1:7", 0)]
    from teach.web import timing

    with demo.test_request_context():
        assert timing.time_on_task([mingming]).lesson(mingming, "web-first") > 0


def test_a_deleted_kid_takes_their_steps_shown_along(demo, client):
    hong = kid_id(demo, "小红")
    _moments(demo, hong, "web-first", [(1, utcnow(), None, "open")])
    teacher_login(client)
    client.post(f"/teach/classes/{demo_class(demo)}/kids/{hong}/remove", data={"confirm": "1"})
    with demo.app_context():
        assert db.session.get(User, hong) is None
        assert db.session.scalar(sa.select(sa.func.count()).select_from(StepShown)) == 0


# ---------------------------------------------------------------------- the whole class
def test_the_dashboard_shows_the_whole_map_games_and_a_legend(demo, client):
    tom = kid_id(demo, "Tom")
    with demo.app_context():  # Tom finished two lessons nobody assigned, and played games
        for lesson_id in ("web-first", "web-second"):
            db.session.add(LessonProgress(kid_id=tom, lesson_id=lesson_id, stars=3, finished_at=utcnow()))
        for winner in ("black", "white", None):
            db.session.add(PlayedGame(kid_id=tom, kind="capture", size=9, komi=0.0, capture_goal=1,
                                      kid_color="black", opponent="computer", level=1, moves=[], state="finished",
                                      winner=winner, finished_at=utcnow()))
        db.session.add(PlayedGame(kid_id=tom, kind="capture", size=9, komi=0.0, kid_color="black",
                                  opponent="computer", moves=[], state="playing"))
        db.session.commit()
    teacher_login(client)
    class_id = demo_class(demo)
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert re.search(rf'data-kid="{tom}" data-finished="2" data-games="3"', page)
    assert "3 played, 1 won" in page and 'class="legend"' in page and "stuck: 3 wrong tries" in page
    from teach.web import content

    with demo.app_context():
        titles = [l.title.get("en") for l in content.ordered_lessons()]
    assert all(html.escape(t) in page for t in titles)  # every lesson of the map, though none is homework
    zh = client.get(f"/teach/classes/{class_id}/dashboard", headers=ZH).get_data(as_text=True)
    assert "全班" in zh and "卡住了：错了三次或更多" in zh


# ---------------------------------------------------------------------- replay
def test_the_replay_says_which_move_was_wrong_and_what_the_computer_answered(demo, client):
    lily = kid_id(demo, "Lily")
    with demo.app_context():
        attempt = Attempt(kid_id=lily, lesson_id="web-first", step=1, first_move="D4", result="failed",
                          moves=[{"move": "D4", "verdict": "wrong", "reason": "escapes", "reply": "E4"}])
        db.session.add(attempt)
        db.session.commit()
        attempt_id = attempt.id
    teacher_login(client)
    class_id = demo_class(demo)
    page = client.get(f"/teach/classes/{class_id}/kids/{lily}/attempts/{attempt_id}?ply=1",
                      headers=EN).get_data(as_text=True)
    assert re.search(r'data-ply="1" data-who="kid" data-verdict="wrong"', page)
    assert re.search(r'data-ply="2" data-who="computer"', page)
    assert "Lily played D4: a wrong move." in page
    assert "The computer answered E4, which shows why the move was wrong." in page
    zh = client.get(f"/teach/classes/{class_id}/kids/{lily}/attempts/{attempt_id}", headers=ZH).get_data(as_text=True)
    assert "电脑" in zh


def test_reloading_a_step_does_not_pile_up_moments(demo):
    """A kid reloading a step (or a second tab) within a minute adds no row: time on task is unchanged and the
    table cannot be filled by a held-down refresh key."""
    from teach.models import StepShown
    from teach.web import timing

    with demo.app_context():
        kid = db.session.scalar(sa.select(User.id).where(User.role == "kid"))
        for _ in range(5):
            timing.step_shown(kid, "web-first", 0)
            db.session.commit()
        timing.step_shown(kid, "web-first", 1)
        db.session.commit()
        shown = db.session.execute(sa.select(StepShown.lesson_id, StepShown.step)
                                   .where(StepShown.kid_id == kid)).all()
    assert sorted(shown) == [("web-first", 0), ("web-first", 1)]


# ---------------------------------------------------------------------- games in time on task
def _game(kid: int, start: datetime, ply: int, end: datetime | None, **fields) -> PlayedGame:
    return PlayedGame(kid_id=kid, kind="capture", size=9, komi=0, capture_goal=1, kid_color="black",
                      opponent=fields.pop("opponent", "computer"), level=1, moves=["pass"] * ply, ply=ply,
                      state="finished" if end else "playing", created_at=start,
                      updated_at=fields.pop("updated_at", end or start), finished_at=end, **fields)


def test_games_count_in_time_on_task_for_the_teacher_and_the_parent_alike(demo, client):
    """A game against the computer, a game left open, and a live game with a classmate all count in time on
    task, bounded by their moves; the live game's records are not counted twice; the dashboard, the kid's page
    and the parent's week show the same figure."""
    from teach.models import LiveGame
    from teach.web import timing

    mingming, tom, class_id = kid_id(demo, "明明"), kid_id(demo, "Tom"), demo_class(demo)
    t0 = utcnow().replace(microsecond=0) - timedelta(hours=3)
    with demo.app_context():
        db.session.add(_game(mingming, t0, 20, t0 + timedelta(minutes=10)))  # ten minutes, 20 moves: 10 minutes
        # three moves, then left open for a day: three minutes, not a day
        db.session.add(_game(tom, t0 - timedelta(days=2), 3, None, updated_at=t0 - timedelta(days=1)))
        live_start = t0 + timedelta(hours=1)
        live_end = live_start + timedelta(minutes=15)
        live = LiveGame(group_id=class_id, black_id=mingming, white_id=tom, kind="capture", size=9, komi=0,
                        capture_goal=1, moves=["pass"] * 30, ply=30, state="finished", created_at=live_start,
                        updated_at=live_end, finished_at=live_end)
        copies = [_game(k, live_end, 30, live_end, opponent="friend") for k in (mingming, tom)]
        db.session.add_all([live, *copies])
        db.session.flush()
        live.black_record_id, live.white_record_id = copies[0].id, copies[1].id
        db.session.commit()
    with demo.test_request_context():
        t = timing.time_on_task([mingming, tom])
        assert t.games(mingming) == 600 + 900 and t.total(mingming) == 1500
        assert t.games(tom) == 180 + 900
        assert t.week(mingming, timing.today()) == 1500
    teacher_login(client)
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    week = dict(re.findall(r'data-kid="(\d+)" data-finished="\d+" data-games="\d+" data-week-minutes="(\d+)"', page))
    assert week[str(mingming)] == "25" and week[str(tom)] == "18"
    assert re.search(rf'data-kid="{mingming}".*?data-game-minutes="(\d+)"', page, re.S).group(1) == "25"
    kid_page = client.get(f"/teach/classes/{class_id}/kids/{mingming}", headers=ZH).get_data(as_text=True)
    assert 'data-week-minutes="25"' in kid_page
    assert 'data-lesson="@games" data-minutes="25">♟️ 对局 · 25分钟</li>' in kid_page  # minutes in words, no ′
    parent = demo.test_client()
    parent.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"})
    week_page = parent.get(f"/family/kids/{mingming}/week", headers=ZH).get_data(as_text=True)
    assert re.search(r'data-minutes="25" [^>]*data-game-minutes="25"', week_page) and "其中下棋 25 分钟" in week_page
    with demo.test_request_context():
        from teach.web import weeks

        assert weeks.last_weeks(mingming)[-1].minutes == 25 and weeks.last_weeks(mingming)[-1].game_minutes == 25


# ---------------------------------------------------------------------- ranks on the dashboard
def test_the_dashboard_shows_each_kids_rank_as_their_map_counts_it_with_a_legend(demo, client):
    """Each kid's rank (25级 → 1级) on the dashboard is the one the kid's own map shows, from lessons, practice,
    games against the computer and the placement test; games with a friend add no rank points, and the legend
    says how ranks are climbed."""
    from teach.lessons.practice import PracticeKey
    from teach.models import RankPlacement
    from teach.web import rank

    mingming, tom, lily, class_id = kid_id(demo, "明明"), kid_id(demo, "Tom"), kid_id(demo, "Lily"), demo_class(demo)
    now = utcnow().replace(microsecond=0)
    practice = PracticeKey.PREFIX + "capture:2:7"
    with demo.app_context():
        db.session.add(LessonProgress(kid_id=mingming, lesson_id="web-first", step=2, stars=3, finished_at=now))
        for step in (0, 1, 1):  # two puzzles of a level-2 set (one solved twice): 4 points
            db.session.add(Attempt(kid_id=mingming, lesson_id=practice, step=step, result="solved", moves=[],
                                   started_at=now, finished_at=now))
        db.session.add(_game(tom, now - timedelta(hours=1), 10, now, winner="black"))  # won: 6 points
        db.session.add(_game(tom, now - timedelta(hours=1), 10, now, winner="black", opponent="friend"))  # none
        db.session.add(RankPlacement(kid_id=lily, points=300, answers=[], taken_at=now))
        db.session.commit()
    with demo.test_request_context():
        expected = {k: rank.rank_of(k) for k in (mingming, tom, lily)}
    assert expected[mingming].points == 16 + 4 and expected[tom].points == 6 and expected[lily].points == 300
    teacher_login(client)
    page = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    shown = {int(k): (int(kyu), int(p)) for k, kyu, p in re.findall(
        r'data-kid="(\d+)".*?data-kyu="(\d+)" data-points="(\d+)"', page, re.S)}
    for k, r in expected.items():
        assert shown[k] == (r.kyu, r.points)
    assert f'<span class="rank-badge">{expected[lily].kyu} kyu</span>' in page
    assert "Rank: from 25 kyu" in page and "Rank points:" in page
    games = dict(re.findall(r'data-kid="(\d+)" data-finished="\d+" data-games="(\d+)"', page))
    assert games[str(tom)] == "2"  # games played: both, the friend's too
    zh = client.get(f"/teach/classes/{class_id}/dashboard", headers=ZH).get_data(as_text=True)
    assert f'<span class="rank-badge">{expected[lily].kyu}级</span>' in zh and "级位：从 25级" in zh
