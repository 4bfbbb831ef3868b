"""Help that never leaves a child stuck: the board's own hint after two misses, "show me" after three, played
from the judge's line (teach/web/puzzle_help.py)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
import sqlalchemy as sa

from teach.lessons import load_lessons

from teach.models import LessonProgress
from teach.web.board import rows_after
from teach.web.extensions import db
from teach.web.puzzle_help import solution_line
from test_security import kid_login


@lru_cache(maxsize=1)
def curriculum():
    return load_lessons(str(Path(__file__).resolve().parent.parent / "lessons"))


def miss(client, url: str, point: str = "J1") -> dict:
    body = client.post(url + "/move", json={"move": point, "attempt": None, "ply": 0}).get_json()
    assert body["result"] == "wrong"
    return body


def finish_first_lesson(client) -> None:
    client.post("/learn/web-first/0/next")
    assert client.post("/learn/web-first/1/move", json={"move": "E4", "attempt": None, "ply": 0}).get_json()[
        "result"] == "correct"
    assert client.post("/learn/web-first/2/answer", json={"points": ["D5", "F5", "E4"]}).get_json()["finished"]


def play_line(client, url: str, line: list[dict]) -> dict:
    """Play the kid's moves of a "show me" line through the ordinary move route, as the child then does."""
    attempt, ply, body = None, 0, None
    for entry in line:
        body = client.post(url + "/move", json={"move": entry["move"], "attempt": attempt, "ply": ply}).get_json()
        if body["result"] != "continue":
            return body
        assert body["reply"] == entry["reply"]  # the computer answers as the line said it would
        attempt, ply = body["attempt"], body["ply"]
    return body


def test_the_board_hints_after_two_misses_and_shows_the_answer_after_three(demo):
    client = demo.test_client()
    kid_login(demo, client)
    url = "/learn/web-first/1"
    client.get("/learn/web-first/0")
    client.post("/learn/web-first/0/next")
    assert "stones" not in client.post(url + "/board-hint").get_json()
    miss(client, url, "D4")
    assert "stones" not in client.post(url + "/board-hint").get_json()
    miss(client, url)
    hint = client.post(url + "/board-hint").get_json()
    assert hint["stones"] == ["E5"] and hint["liberties"] == ["E4"] and not hint["show_me"]
    refused = client.post(url + "/show-me")
    assert refused.status_code == 409 and refused.get_json()["result"] == "not-yet"
    assert 'id="show-me" hidden' in client.get(url).get_data(as_text=True)
    miss(client, url, "A9")
    assert client.post(url + "/board-hint").get_json()["show_me"]
    # earned, it stays: the page loaded again (a reload, another device) shows it from the start
    page = client.get(url).get_data(as_text=True)
    assert 'id="show-me">' in page and 'id="show-me" hidden' not in page
    shown = client.post(url + "/show-me").get_json()
    assert shown["result"] == "line" and [m["move"] for m in shown["line"]] == ["E4"]
    assert shown["line"][-1]["rows"][4] == "...X.X..."  # the mouse is taken off in the last picture
    with demo.app_context():
        p = db.session.scalar(sa.select(LessonProgress).where(LessonProgress.lesson_id == "web-first"))
        assert p.hints == 1  # seeing the answer costs a star like a hint
    assert play_line(client, url, shown["line"])["result"] == "correct"


@pytest.mark.parametrize("lesson_id", ["capture-two-moves", "ladder-run-to-the-edge", "net-cast-the-net"])
def test_every_show_me_line_of_a_lesson_reaches_the_goal_against_the_judge(lesson_id):
    """The line is the judge's: each kid move is judged again from the start of the line, the computer answers as
    the line says, and the last move reaches the goal (ladders and nets take several moves)."""
    lesson = curriculum().lessons[lesson_id]
    puzzles = [s for s in lesson.steps if s.kind == "puzzle"]
    assert puzzles
    lengths = []
    for puzzle in puzzles:
        judge = puzzle.judge()
        line = solution_line(judge, puzzle.start(), tuple(puzzle.targets), line_seconds=300)  # a busy machine
        assert line is not None
        lengths.append(len(line))
        played: list[str] = []
        for entry in line[:-1]:
            verdict = judge.judge(played, entry["move"])
            assert verdict.result == "continue" and verdict.reply == entry["reply"]
            played += [entry["move"], entry["reply"]]
        assert judge.judge(played, line[-1]["move"]).result == "correct"
        assert line[-1]["rows"] == rows_after(puzzle.start(), played + [line[-1]["move"]])
    if lesson_id != "capture-two-moves":
        assert max(lengths) >= 3  # a chase: several moves, each answered


def test_a_practice_ladder_is_shown_as_a_chase_of_ataris(demo):
    """A drawn ladder (not proven whole: it is read live) is shown atari after atari to the capture; the line is
    the judge's, move by move."""
    from teach.web.practice import practice_step

    with demo.app_context():
        puzzle = practice_step("ladder", 1, 5, 0)
        judge = puzzle.judge()
        line = solution_line(judge, puzzle.start(), tuple(puzzle.targets), line_seconds=300)
    assert line is not None and len(line) >= 3
    played: list[str] = []
    for entry in line[:-1]:
        verdict = judge.judge(played, entry["move"])
        assert verdict.result == "continue" and verdict.reply == entry["reply"]
        after = rows_after(puzzle.start(), played + [entry["move"]])
        game = puzzle.start()
        for move in played + [entry["move"]]:
            game.play(move)
        assert len(game.liberties(puzzle.targets[0])) == 1, after
        played += [entry["move"], entry["reply"]]
    assert judge.judge(played, line[-1]["move"]).result == "correct"


def test_help_is_only_for_the_kid_s_own_open_puzzles(demo):
    client = demo.test_client()
    assert client.post("/learn/web-first/1/show-me").status_code in (302, 401)  # signed out
    kid_login(demo, client)
    assert client.post("/learn/web-second/0/show-me").status_code == 403  # not open yet
    assert client.post("/learn/web-first/0/show-me").status_code == 404  # an explain step
    assert client.post("/learn/web-first/2/board-hint").status_code == 404  # a quiz
    assert client.post("/learn/web-first/9/show-me").status_code == 404


def test_a_practice_puzzle_solved_after_show_me_is_marked_as_watched_not_as_found_alone(demo):
    """Watching the answer is kept with the try (a hint), so the set's summary tells the puzzle solved after
    "show me" from one solved at the first try or found alone after misses."""
    from teach.web.practice import practice_set

    client = demo.test_client()
    kid_login(demo, client)
    first, second = practice_set("escape", 1, 7)[:2]

    def wrong_moves(puzzle) -> list[str]:
        judge, game = puzzle.judge(), puzzle.start()
        return [m for m in game.legal_moves() if judge.judge([], m).result == "wrong"]

    url = "/practice/escape/1/7/0"
    for point in wrong_moves(first)[:3]:
        miss(client, url, point)
    shown = client.post(url + "/show-me").get_json()
    assert shown["result"] == "line"
    assert play_line(client, url, shown["line"])["result"] == "correct"
    right = sorted(second.judge().solve().winning)[0]
    assert play_line(client, "/practice/escape/1/7/1", [{"move": right}])["result"] == "correct"
    page = client.get("/practice/escape/1/7/done", headers={"Accept-Language": "en"}).get_data(as_text=True)
    marks = re.findall(r'<li class="(\w+)" title="\d+">', page)
    assert marks[:2] == ["shown", "first"] and set(marks[2:]) == {"missed"}
    assert "2 of 10 solved" in page and "1 at the first try" in page
    assert 'data-cheer="some"' in page and 'class="confetti"' not in page  # one found alone: no party yet
    assert "1 after watching the answer: try it again another day" in page
    zh = client.get("/practice/escape/1/7/done", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "1题是看了答案才做对的" in zh


def test_a_wrong_move_whose_answer_takes_the_kid_s_stones_says_they_were_caught(demo):
    """Saving a stone in atari: after a wrong move the computer takes it, and the words say so ("were caught"),
    not that it "can be caught now" while the board shows it gone; a wrong move it does not take at once keeps
    the reason's own words."""
    from teach.web.practice import practice_set

    client = demo.test_client()
    kid_login(demo, client)
    for seed in range(7, 40):
        puzzle = practice_set("escape", 1, seed)[0]
        judge, start = puzzle.judge(), puzzle.start()
        taken = []
        for move in start.legal_moves():
            verdict = judge.judge([], move)
            if verdict.result == "wrong" and verdict.reply:
                after = rows_after(start, [move, verdict.reply])
                gone = all(after[start.size - int(t[1:])]["ABCDEFGHJKLMNOPQRST".index(t[0])] == "."
                           for t in puzzle.targets)
                taken.append((move, gone))
        if any(gone for _m, gone in taken):
            break
    move = next(m for m, gone in taken if gone)
    answer = client.post(f"/practice/escape/1/{seed}/0/move", json={"move": move, "attempt": None, "ply": 0}).get_json()
    assert answer["result"] == "wrong" and answer["message"] == "哎呀，你的棋子被吃掉了。再试一次！"
    kept = next((m for m, gone in taken if not gone), None)
    if kept is not None:  # the stone still on the board: the reason's own words
        again = client.post(f"/practice/escape/1/{seed}/0/move", json={"move": kept, "attempt": None, "ply": 0})
        assert again.get_json()["result"] == "wrong" and "被吃掉了" not in again.get_json()["message"]


def test_a_move_too_deep_for_a_request_is_shown_thinking_and_its_verdict_arrives(demo):
    """A wrong move beside a practice ladder needs more reading than a request's budget: the kid is never told the
    computer gave up. The answer is "thinking" with a time to ask again, nothing is stored, and once the deeper
    read in the background is done the same move gets the verdict a fresh judge on that budget gives."""
    from teach.go.judge import Judge
    from teach.go.reading import Limits
    from teach.models import Attempt
    from teach.web import deep_read
    from teach.web.practice import practice_step

    url = "/practice/ladder/1/1/0/move"
    line = ["F6", "E5", "E4", "F5", "G5", "F4", "F3", "G4", "H4", "G3", "G2", "H3"]  # the ladder, run to the edge
    puzzle = practice_step("ladder", 1, 1, 0)
    assert puzzle.judge().judge(line, "E2").reason == "unknown"  # the request's budget cannot settle E2 here
    client = demo.test_client()
    kid_login(demo, client)
    attempt, ply = None, 0
    for move, reply in zip(line[::2], line[1::2]):
        body = client.post(url, json={"move": move, "attempt": attempt, "ply": ply}).get_json()
        assert (body["result"], body["reply"]) == ("continue", reply)
        attempt, ply = body["attempt"], body["ply"]
    waiting = client.post(url, json={"move": "E2", "attempt": attempt, "ply": ply}).get_json()
    assert waiting["result"] == "thinking" and waiting["retry"] == deep_read.RETRY_MS
    assert waiting["message"] == "嗯，让我想一想……" and "tap" not in waiting["message"]
    # the reading runs beside the server, not in it: another page is served while it is still under way
    assert client.get("/learn/").status_code == 200 and deep_read.under_way() == 1
    with demo.app_context():
        assert len(db.session.get(Attempt, attempt).moves) == len(line) // 2  # nothing stored for the move
    assert deep_read.wait_idle(timeout=120)
    arrived = client.post(url, json={"move": "E2", "attempt": attempt, "ply": ply}).get_json()
    deeper = Judge(puzzle.start(), puzzle.goal_object(), Limits(nodes=deep_read.DEEP_NODES, seconds=120)).judge(
        line, "E2")
    assert deeper.reason != "unknown" and (arrived["result"], arrived["reply"]) == (deeper.result, deeper.reply)
    with demo.app_context():
        assert db.session.get(Attempt, attempt).moves[-1]["move"] == "E2"


def test_a_move_far_from_the_chase_in_the_middle_of_it_says_the_kid_stopped_chasing(demo):
    """The edge chase: after A2 (the computer runs to B4), a tap across the board lets the stones go. The words say
    why (the chase stopped), not only that they ran; a wrong move next to the stones keeps the plain words."""
    client = demo.test_client()
    kid_login(demo, client, name="Lily", pictures="star,apple,sun")
    finish_first_lesson(client)
    url = "/learn/web-second/0/move"
    first = client.post(url, json={"move": "A2", "attempt": None, "ply": 0}, headers={"Accept-Language": "en"})
    first = first.get_json()
    assert first["result"] == "continue" and first["reply"] == "B4"
    far = client.post(url, json={"move": "J9", "attempt": first["attempt"], "ply": first["ply"]},
                      headers={"Accept-Language": "en"}).get_json()
    assert far["result"] == "wrong" and far["message"] == "You stopped chasing, so it ran away! Keep chasing it, every move."
    again = client.post(url, json={"move": "A2", "attempt": None, "ply": 0}, headers={"Accept-Language": "zh"}).get_json()
    near = client.post(url, json={"move": "C5", "attempt": again["attempt"], "ply": again["ply"]},
                       headers={"Accept-Language": "zh"}).get_json()
    assert near["result"] == "wrong" and near["reason"] == "escapes" and "停下来不追" not in near["message"]
    assert "逃" in near["message"]  # the plain words: it ran away
