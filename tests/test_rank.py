"""The rank (级位), the daily goal and streak, the puzzle of the day, practice that opens with its lesson and ends
with a summary, the placement test (teach/web/rank.py, daily.py, practice.py)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from teach.lessons.practice import SET_SIZE
from teach.models import Attempt, PlayedGame, RankPlacement, User
from teach.web import daily, rank
from teach.web.extensions import db
from test_security import adult_login, kid_login

EN = {"Accept-Language": "en"}


def finish_first_lesson(client) -> None:
    client.get("/learn/web-first")
    client.post("/learn/web-first/0/next")
    client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0})
    assert client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()["finished"]


def goal_box(client) -> dict:
    page = client.get("/learn/", headers=EN).get_data(as_text=True)
    box = re.search(r'<section class="goal-box"[^>]*data-puzzles="(\d+)" data-streak="(\d+)"\s+data-kyu="(\d+)" '
                    r'data-met="(\w+)"', page)
    assert box, page
    return {"puzzles": int(box[1]), "streak": int(box[2]), "kyu": int(box[3]), "met": box[4] == "yes",
            "page": page}


def solved_at(app, kid_id: int, when: datetime, n: int, key: str = "web-first") -> None:
    with app.app_context():
        db.session.add_all(Attempt(kid_id=kid_id, lesson_id=key, step=i, moves=[], result="solved",
                                   started_at=when, finished_at=when) for i in range(n))
        db.session.commit()


@pytest.mark.parametrize("points, kyu, to_next", [(0, 25, 10), (9, 25, 1), (10, 24, 15), (24, 24, 1),
                                                    (25, 23, 20), (1619, 2, 1), (1620, 1, 0), (99999, 1, 0)])
def test_ranks_climb_from_25_kyu_to_1_kyu(points, kyu, to_next):
    r = rank.rank_for_points(points)
    assert (r.kyu, r.to_next) == (kyu, to_next)
    assert 0 <= r.percent <= 100 and (r.next_at is None) == (kyu == 1)


def test_rank_points_come_from_lessons_practice_and_games(demo):
    client = demo.test_client()
    kid = kid_login(demo, client)
    assert goal_box(client)["kyu"] == 25
    finish_first_lesson(client)  # 3 stars: 10 + 6
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    with demo.app_context():
        db.session.add_all([
            Attempt(kid_id=kid, lesson_id="practice:capture:2:5", step=0, moves=[], result="solved", finished_at=now),
            Attempt(kid_id=kid, lesson_id="practice:capture:2:5", step=0, moves=[], result="solved", finished_at=now),
            Attempt(kid_id=kid, lesson_id="practice:capture:2:5", step=1, moves=[], result="failed", finished_at=now),
            Attempt(kid_id=kid, lesson_id="practice:nope:9:1", step=0, moves=[], result="solved", finished_at=now)])
        common = dict(kid_id=kid, kind="capture", size=9, komi=0, kid_color="black", level=1, moves=[], ply=0,
                      dead=[], finished_at=now)
        db.session.add_all([PlayedGame(**common, opponent="computer", state="finished", winner="black"),
                            PlayedGame(**common, opponent="computer", state="finished", winner="white"),
                            PlayedGame(**common, opponent="friend", state="finished", winner="black"),
                            PlayedGame(**common, opponent="computer", state="playing")])
        db.session.commit()
        rec = rank.record(kid, daily.record_since())
        # lesson 16, a level-2 practice puzzle once (2), a won game (6) and a lost one (3); no friend, no unfinished
        assert rank.rank_points(rank.finished_lessons(kid), rec) == 16 + 2 + 6 + 3
    assert goal_box(client)["kyu"] == 23  # 27 points: 23级 starts at 25, 22级 at 45


def test_a_practice_puzzle_solved_after_show_me_earns_no_rank_until_solved_alone(demo):
    """Three misses, "show me" (kept as a hint on the latest try), then the copied answer: solved, but no rank
    points (the summary says: try it again another day); solved again later without watching, it counts once.
    The class play room's pairing counts the same points for the whole class."""
    from teach.web.room import class_rank_points

    client = demo.test_client()
    kid = kid_login(demo, client)
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    key, other = "practice:capture:3:7", "practice:capture:3:8"

    def attempt(k, step, result, hints=0):
        db.session.add(Attempt(kid_id=kid, lesson_id=k, step=step, moves=[], result=result, hints=hints,
                               started_at=now, finished_at=now))
        db.session.flush()

    def points() -> tuple[int, int, int]:
        """The kid's practice points as the map, the play room and the teacher's dashboard count them."""
        from teach.models import Group
        from teach.web.teacher.reports import _ranks

        rec = rank.record(kid, daily.record_since())
        base = rank.rank_points(rank.finished_lessons(kid), rank.Record(solved=[], games=[], placement=None))
        group = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        kid_row = db.session.get(User, kid)
        from teach.web import classroom
        dashboard = _ranks(group, [kid_row], classroom.progress_grid([kid]))[kid].points - base
        return rec.practice_points(), class_rank_points([kid])[kid] - base, dashboard

    with demo.app_context():
        attempt(key, 0, "failed")
        attempt(key, 0, "failed", hints=1)  # "show me" marks the latest try
        attempt(key, 0, "solved")  # the copied answer
        attempt(other, 0, "solved")  # found alone: 3 points (level 3)
        attempt(other, 1, "failed", hints=1)
        attempt(other, 1, "solved", hints=1)  # watched during the try that then solved it
        db.session.commit()
        assert points() == (3, 3, 3)
        attempt(key, 0, "solved")  # another day, alone
        db.session.commit()
        assert points() == (6, 6, 6)
        attempt(key, 0, "failed", hints=1)
        attempt(key, 0, "solved")  # watched again after solving it alone: still counted once, not taken back
        db.session.commit()
        assert points() == (6, 6, 6)
        # the daily goal counts every solve, watched or not: the child did finish the puzzle today
        assert len(rank.record(kid, daily.record_since()).solved) == 5
    # the end of a set: all ten solved, one of them after watching, is not "every one!"
    with demo.app_context():
        attempt("practice:capture:1:9", 4, "failed", hints=1)  # "show me" comes after misses
        for step in range(SET_SIZE):
            attempt("practice:capture:1:9", step, "solved")
        db.session.commit()
    r = client.get("/practice/capture/1/9/done", headers=EN)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and f"{SET_SIZE} of {SET_SIZE} solved" in page
    assert "1 after watching the answer" in page and "Every one!" not in page and "Good work!" in page


def test_the_daily_goal_and_the_streak_advance(demo):
    client = demo.test_client()
    kid = kid_login(demo, client)
    box = goal_box(client)
    assert (box["puzzles"], box["streak"], box["met"]) == (0, 0, False)
    finish_first_lesson(client)  # a puzzle and a quiz solved: two of three
    box = goal_box(client)
    assert (box["puzzles"], box["streak"], box["met"]) == (2, 0, False)
    solved_at(demo, kid, datetime.now(timezone.utc).replace(tzinfo=None), 1, key="practice:capture:1:3")
    box = goal_box(client)
    assert (box["puzzles"], box["streak"], box["met"]) == (3, 1, True)
    assert "Today’s goal: done!" in box["page"] and "1 day in a row" in box["page"] and "1 days" not in box["page"]
    # two more days before, with a gap before them: the streak counts back to the gap
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    solved_at(demo, kid, now - timedelta(days=1), 3)
    solved_at(demo, kid, now - timedelta(days=2), 3)
    solved_at(demo, kid, now - timedelta(days=4), 3)
    assert goal_box(client)["streak"] == 3


def test_a_streak_waits_for_today_and_days_are_the_classroom_s(app):
    shanghai_midnight = datetime(2026, 12, 1, 16, 0)  # 00:00 on 2 December in Shanghai, as naive UTC
    rec = rank.Record(solved=[("web-first", i, shanghai_midnight - timedelta(minutes=30)) for i in range(3)],
                      games=[], placement=None)
    with app.app_context():
        day1 = daily.daily_from(rec, now=datetime(2026, 12, 1, 15, 59, tzinfo=timezone.utc))
        assert (day1.day.isoformat(), day1.puzzles, day1.streak, day1.met) == ("2026-12-01", 3, 1, True)
        day2 = daily.daily_from(rec, now=datetime(2026, 12, 2, 10, 0, tzinfo=timezone.utc))
        assert (day2.day.isoformat(), day2.puzzles, day2.streak, day2.met) == ("2026-12-02", 0, 1, False)
        day3 = daily.daily_from(rec, now=datetime(2026, 12, 3, 10, 0, tzinfo=timezone.utc))
        assert day3.streak == 0  # a whole day missed
        games = rank.Record(solved=[], games=[(datetime(2026, 12, 2, 3, 0), False)], placement=None)
        assert daily.daily_from(games, now=datetime(2026, 12, 2, 10, 0, tzinfo=timezone.utc)).met  # one game


def test_the_puzzle_of_the_day_is_a_practice_puzzle_of_an_open_drill(demo):
    client = demo.test_client()
    kid_login(demo, client)
    page = goal_box(client)["page"]
    link = re.search(r'id="daily-puzzle"\s+href="(/practice/(\w+)/(\d)/(\d+)/0)"', page)
    assert link and link[2] not in ("atari", "capture")  # their lesson is not learned yet
    with demo.app_context():
        assert link[4] == daily.today().strftime("%Y%m%d") and link[3] == "1"  # 25级: level 1
    assert client.get(link[1]).status_code == 200


def test_practice_opens_with_its_lesson_and_draws_levels_as_plants(demo):
    client = demo.test_client()
    kid_login(demo, client)
    page = client.get("/practice/", headers=EN).get_data(as_text=True)
    capture = page[page.index('data-drill="capture"'):].split("</li>")[0]
    assert 'data-needs="web-first"' in capture and "/practice/capture/1" not in capture
    assert "★" not in page and "🌱" in page
    closed = client.get("/practice/capture/1")  # to the practice page, where the drill says what opens it
    assert closed.status_code == 302 and closed.headers["Location"].endswith("/practice/#drill-capture")
    assert 'id="drill-capture"' in page
    assert client.get("/practice/escape/1").status_code == 302  # no escape lesson in this catalogue: open
    assert "/practice/escape/1/" in client.get("/practice/escape/1").headers["Location"]
    assert client.get("/practice/capture/1?seed=42").status_code == 302  # a named set (homework, a link) is open
    finish_first_lesson(client)
    assert client.get("/practice/capture/1").headers["Location"].startswith("/practice/capture/1/")
    assert "/practice/capture/1" in client.get("/practice/").get_data(as_text=True)


def test_a_practice_set_ends_with_a_summary(demo):
    from teach.web.practice import practice_set

    client = demo.test_client()
    kid = kid_login(demo, client)
    steps = practice_set("escape", 1, 7)
    assert len(steps) == SET_SIZE
    last = steps[-1]
    solved_at(demo, kid, datetime.now(timezone.utc).replace(tzinfo=None), 4, key="practice:escape:1:7")
    with demo.app_context():
        db.session.add(Attempt(kid_id=kid, lesson_id="practice:escape:1:7", step=5, moves=[], result="failed",
                               finished_at=datetime.now(timezone.utc).replace(tzinfo=None)))
        db.session.commit()
    if last.kind == "puzzle":
        right = sorted(last.judge().solve().winning)[0]
        body = client.post(f"/practice/escape/1/7/{SET_SIZE - 1}/move",
                           json={"move": right, "attempt": None, "ply": 0}).get_json()
    else:
        body = client.post(f"/practice/escape/1/7/{SET_SIZE - 1}/answer",
                           json={"points": list(last.answers)}).get_json()
    assert body["next"] == "/practice/escape/1/7/done"
    page = client.get(body["next"], headers=EN).get_data(as_text=True)
    solved = 4 + (1 if body["result"] == "correct" else 0)
    assert f'data-solved="{solved}"' in page and f"{solved} of {SET_SIZE} solved" in page
    assert page.count('class="missed"') == SET_SIZE - solved and page.count('class="first"') == solved
    # half the set or more found alone ends with a star and confetti; fewer, with a strong arm and no party
    if solved * 2 >= SET_SIZE:
        assert 'data-cheer="most"' in page and '🌟' in page and 'class="confetti"' in page
    else:
        assert 'data-cheer="some"' in page and '💪' in page and 'class="confetti"' not in page
    # a puzzle too hard can be skipped: each step links to the next one, the last to the summary
    for index in (0, SET_SIZE - 1):
        step_page = client.get(f"/practice/escape/1/7/{index}", headers=EN).get_data(as_text=True)
        following = f"/practice/escape/1/7/{index + 1}" if index + 1 < SET_SIZE else "/practice/escape/1/7/done"
        assert f'id="skip" href="{following}"' in step_page and "Skip" in step_page


def test_the_placement_test_is_scored_once_from_first_tries(demo):
    client = demo.test_client()
    kid = kid_login(demo, client)
    assert 'id="placement-door"' in goal_box(client)["page"]
    assert client.get("/placement/").status_code == 200
    for index in range(len(rank.PLACEMENT)):
        with demo.app_context():
            puzzle = rank.placement_puzzle(index)
        url = f"/placement/{index}/move"
        if index == 1:  # a miss first: this one does not count, even when right afterwards
            wrong = next(m for m in puzzle.start().legal_moves() if m not in puzzle.judge().solve().winning)
            assert client.post(url, json={"move": wrong, "attempt": None, "ply": 0}).get_json()["result"] == "wrong"
        attempt, ply = None, 0
        for _ in range(20):  # play the judge's line to the end
            from teach.web.puzzle_help import solution_line

            line = solution_line(puzzle.judge(), puzzle.start(), tuple(puzzle.targets), line_seconds=300)
            body = client.post(url, json={"move": line[ply // 2]["move"], "attempt": attempt, "ply": ply}).get_json()
            if body["result"] != "continue":
                break
            attempt, ply = body["attempt"], body["ply"]
        assert body["result"] == "correct"
    page = client.get("/placement/done", headers=EN).get_data(as_text=True)
    expected = rank.PLACEMENT_MAX - rank.PLACEMENT[1][3]
    assert "5 of 6 right at the first try!" in page
    assert f'data-kyu="{rank.rank_for_points(expected).kyu}"' in page
    client.get("/placement/done")  # again: nothing added
    with demo.app_context():
        points = db.session.scalars(sa.select(RankPlacement.points).where(RankPlacement.kid_id == kid)).all()
        assert points == [expected]
    assert client.get("/placement/").status_code == 302  # taken once
    assert client.post("/placement/0/move", json={"move": "A1", "attempt": None, "ply": 0}).status_code == 400
    assert 'id="placement-door"' not in goal_box(client)["page"]


def test_the_placement_test_opens_the_map_up_to_the_topic_the_child_showed(demo):
    """A child who already plays starts where the test placed them, not at the board: the lessons up to the
    hardest topic among the puzzles right at the first try, one after another from the first."""
    right = lambda *flags: [{"puzzle": i, "right": f} for i, f in enumerate(flags)]  # noqa: E731
    topics = ["board", "liberties", "capture", "escape", "double-atari", "ladder", "net", "snapback"]
    assert rank.placed_topic(right(True, True, True, True, True, True), topics) == "net"
    assert rank.placed_topic(right(True, True, True, True, False, True), topics) == "escape"
    assert rank.placed_topic(right(True, False, True, True, True, True), topics) == "capture"
    assert rank.placed_topic(right(False, True, True, True, True, True), topics) is None
    assert rank.placed_topic([], topics) is None and rank.placed_topic([{"puzzle": "x"}, 3], topics) is None
    with demo.app_context():  # this map has the capture topic only: the test places the child there at most
        assert rank.placed_topic(right(True, True, True, True, True, True)) == "capture"
    client = demo.test_client()
    kid = kid_login(demo, client)
    assert 'href="/learn/web-second" class="locked-link"' in client.get("/learn/").get_data(as_text=True)
    with demo.app_context():
        db.session.add(RankPlacement(kid_id=kid, points=20, answers=right(True, False, False, False, False, False)))
        db.session.commit()
    page = client.get("/learn/").get_data(as_text=True)
    assert 'href="/learn/web-second"' in page and "locked-link" not in page  # the capture topic is open
    assert client.get("/learn/web-second").status_code == 302  # and opens
    done = client.get("/placement/done").get_data(as_text=True)
    assert 'id="placed-open"' in done and "为你打开了" in done


def test_next_on_the_map_goes_past_the_lessons_the_placement_test_opened():
    """After a placement test, "Next!" is the first lesson past the topics it opened (not the board's first
    lesson), homework still first, a placed lesson the kid started still next; with nothing past them, the first."""
    from types import SimpleNamespace as L

    from teach.web.kid import _next_lesson, _unlocked

    lessons = [L(id="board-1", topic="board"), L(id="board-2", topic="board"), L(id="cap-1", topic="capture"),
               L(id="esc-1", topic="escape"), L(id="esc-2", topic="escape")]
    done = L(finished_at=datetime(2026, 1, 1))
    started = L(finished_at=None)

    def nxt(progress, placed, homework=()):
        return _next_lesson(lessons, list(homework), _unlocked(lessons, progress, placed), progress, placed)

    assert nxt({}, None) == "board-1"
    assert nxt({}, "capture") == "esc-1"
    assert nxt({"board-1": done}, "capture") == "esc-1"
    assert nxt({"board-2": started}, "capture") == "board-2"  # started: go on with it
    assert nxt({}, "capture", homework=[lessons[1]]) == "board-2"  # homework first
    assert nxt({}, "escape") == "board-1"  # everything placed: the first not finished
    assert nxt({l.id: done for l in lessons}, "escape") is None


def test_a_parent_is_told_the_same_next_lesson_as_the_kid_s_map_after_a_placement_test():
    """The parents' "practise next" is the map's "Next!" (without homework, which both put first): a child the
    test placed past the first topics is not sent back to the board by the parent's page either."""
    from types import SimpleNamespace as L

    from teach.web.classroom import Cell, Grid, next_to_practise
    from teach.web.kid import _next_lesson, _unlocked

    lessons = [L(id="board-1", topic="board"), L(id="board-2", topic="board"), L(id="cap-1", topic="capture"),
               L(id="esc-1", topic="escape"), L(id="esc-2", topic="escape")]
    kid = L(id=7)
    cases = [({}, None), ({}, "capture"), ({"board-1": "done"}, "capture"), ({"board-2": "started"}, "capture"),
             ({"esc-1": "done"}, "capture"), ({}, "escape"), ({l.id: "done" for l in lessons}, "escape"),
             ({"board-1": "done", "board-2": "done"}, None)]
    for marks, placed in cases:
        when = {"done": datetime(2026, 1, 1), "started": None}
        progress = {lid: L(finished_at=when[m]) for lid, m in marks.items()}
        grid = Grid(cells={(kid.id, lid): Cell(finished=when[m], started=True) for lid, m in marks.items()})
        theirs = next_to_practise(kid, lessons, grid, placed)
        mine = _next_lesson(lessons, [], _unlocked(lessons, progress, placed), progress, placed)
        assert (theirs.id if theirs else None) == mine, (marks, placed)
    assert next_to_practise(kid, lessons, Grid(), "capture").id == "esc-1"


def test_the_placement_test_opens_the_drills_of_the_topics_it_opened(demo):
    """Practice follows the map: a drill opens with its topic's first lesson, or when the placement test opened the
    map past that topic; a test that placed the child before the topic leaves the drill closed."""
    from teach.web import practice

    client = demo.test_client()
    kid = kid_login(demo, client)
    assert client.get("/practice/capture/1").headers["Location"].endswith("#drill-capture")
    with demo.app_context():  # the first puzzle missed: the test placed the child nowhere
        db.session.add(RankPlacement(kid_id=kid, points=0, answers=[{"puzzle": 0, "right": False}]))
        db.session.commit()
    assert client.get("/practice/capture/1").headers["Location"].endswith("#drill-capture")
    with demo.app_context():
        placement = db.session.scalar(sa.select(RankPlacement).where(RankPlacement.kid_id == kid))
        placement.answers = [{"puzzle": i, "right": True} for i in range(6)]
        db.session.commit()
        assert rank.placed_topic(placement.answers) == "capture"
        opened = practice.open_drills(kid)
        assert "capture" in opened and "atari" in opened
        assert practice.open_drills(kid, set(), None) == [d for d in opened if d not in ("atari", "capture")]
    page = client.get("/practice/", headers=EN).get_data(as_text=True)
    capture = page[page.index('data-drill="capture"'):].split("</li>")[0]
    assert "data-needs" not in capture and "/practice/capture/1" in capture
    assert client.get("/practice/capture/1").headers["Location"].startswith("/practice/capture/1/")


def test_a_placement_test_missed_at_the_first_puzzle_opens_nothing_more(demo):
    client = demo.test_client()
    kid = kid_login(demo, client)
    with demo.app_context():
        db.session.add(RankPlacement(kid_id=kid, points=0, answers=[{"puzzle": 0, "right": False}]))
        db.session.commit()
    assert 'href="/learn/web-second" class="locked-link"' in client.get("/learn/").get_data(as_text=True)
    assert client.get("/learn/web-second").status_code == 403
    assert 'id="placed-open"' not in client.get("/placement/done").get_data(as_text=True)
    # none right at the first try is not cheered as "0 of 6 right!": the child hears the test found the start
    done = client.get("/placement/done", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "right at the first try!" not in done and "Now we know where you start." in done


def test_the_placement_test_is_only_for_a_start(demo):
    client = demo.test_client()
    kid_login(demo, client)
    finish_first_lesson(client)
    assert 'id="placement-door"' not in goal_box(client)["page"]
    for path in ("/placement/", "/placement/0", "/placement/done"):
        assert client.get(path).status_code == 302
    assert client.post("/placement/0/move", json={"move": "A1", "attempt": None, "ply": 0}).status_code == 400
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count(RankPlacement.id))) == 0


def test_the_parent_sees_the_rank_and_the_streak(demo):
    ming = demo.test_client()
    kid = kid_login(demo, ming)
    finish_first_lesson(ming)
    solved_at(demo, kid, datetime.now(timezone.utc).replace(tzinfo=None), 1, key="practice:capture:1:3")
    parent = demo.test_client()
    adult_login(parent, "parent@example.com", "little-mouse-42")
    page = parent.get(f"/family/kids/{kid}", headers=EN).get_data(as_text=True)
    assert "Rank: 24 kyu (17 points, 8 to the next) · 🔥 1 day in a row" in page
    zh = parent.get(f"/family/kids/{kid}", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "级位：24级" in zh


def test_a_deleted_kid_leaves_no_placement_behind(demo):
    from teach.web.classroom import delete_kid, kid_export

    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        db.session.add(RankPlacement(kid_id=kid.id, points=40, answers=[{"puzzle": 0, "right": True}]))
        db.session.commit()
        assert kid_export(kid)["placement"][0]["points"] == 40
        delete_kid(kid)
        db.session.commit()
        assert db.session.scalar(sa.select(sa.func.count(RankPlacement.id))) == 0


def test_a_practice_set_found_whole_ends_with_the_cup(demo):
    """Every puzzle of a set found alone: the summary's party, the cup and the confetti, and the words say so."""
    client = demo.test_client()
    kid = kid_login(demo, client)
    solved_at(demo, kid, datetime.now(timezone.utc).replace(tzinfo=None), SET_SIZE, key="practice:escape:1:7")
    page = client.get("/practice/escape/1/7/done", headers=EN).get_data(as_text=True)
    assert f"{SET_SIZE} of {SET_SIZE} solved" in page and "Every one! You are getting strong." in page
    assert 'data-cheer="all"' in page and '🏆' in page and 'class="confetti"' in page


def test_a_practice_page_with_drills_locked_offers_a_new_child_the_placement_test(demo):
    """A new child who already plays found padlocks on the practice page and no way on: the test the map offers
    ("I can play Go already") is what opens the drills, so the practice page offers it too, while the map does."""
    client = demo.test_client()
    kid_login(demo, client)
    page = client.get("/practice/", headers=EN).get_data(as_text=True)
    assert 'class="practice-topic locked"' in page
    assert 'id="placement-door"' in page and 'href="/placement/"' in page
    finish_first_lesson(client)  # no longer new to the map: the map stops offering the test, and so does this page
    assert 'id="placement-door"' not in client.get("/practice/", headers=EN).get_data(as_text=True)
