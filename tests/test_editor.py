"""Puzzles made on a board (the board editor, its proof page, "try it as a kid") and the classroom demo board."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from teach.go import Game
from teach.lessons import authoring
from teach.lessons.errors import proof_problem
from teach.models import ProofJob, TeacherLesson
from teach.web.extensions import db

EN = {"Accept-Language": "en"}
ZH = {"Accept-Language": "zh"}
# a white mouse on E5 with three black cats round it: E4 catches it; E3 is a second white stone
MOUSE = Game.from_sgf("(;SZ[9]AB[ed][de][fe]AW[ee][eg])").board_rows()
FORM = {"rows": "/".join(MOUSE), "to_play": "black", "goal": "capture", "target": "E5", "topic": "capture",
        "text_zh": "抓住白老鼠！", "text_en": "Catch the white mouse!"}


@pytest.fixture(autouse=True)
def _long_deadline(demo):
    demo.config["PROOF_DEADLINE_SECONDS"] = 600
    demo.config["PROOF_RUNNER"] = False  # the test works the queue itself, as `teach proofs run` does


def teacher_login(client, email="teacher@example.com", password="black-cat-42"):
    assert client.post("/login", data={"email": email, "password": password}).status_code == 302


def another_teacher(app):
    """A client signed in as a new teacher with no class of their own."""
    other = app.test_client()
    assert other.post("/signup", data={"email": "zoe@example.com", "password": "long-enough-9", "confirm":
                                       "long-enough-9", "name": "Zoe", "role": "teacher"}).status_code == 302
    return other


def prove(app, client, r, headers=EN) -> tuple[str, str]:
    from teach.web import proofs

    assert r.status_code == 302 and "/teach/editor/proofs/" in r.headers["Location"], r.get_data(as_text=True)
    with app.app_context():
        proofs.run_queue()
    page = client.get(r.headers["Location"], headers=headers).get_data(as_text=True)
    return re.search(r'data-status="(\w+)"', page).group(1), page


def counts(app) -> tuple[int, int]:
    with app.app_context():
        return (db.session.scalar(sa.select(sa.func.count()).select_from(ProofJob)),
                db.session.scalar(sa.select(sa.func.count()).select_from(TeacherLesson)))


# ---------------------------------------------------------------------- the position
def test_a_board_set_up_in_the_editor_is_the_same_position_as_an_sgf():
    setup, problems = authoring.board_setup(MOUSE, "white")
    assert problems == [] and setup.to_play == "white" and setup.size == 9
    assert Game.from_sgf(setup.sgf).board_rows() == MOUSE


@pytest.mark.parametrize("rows, to_play, code", [
    (["." * 9] * 9, "black", "no-stones"),
    (["." * 9] * 8, "black", "rows"),
    (["." * 19] * 19, "black", "rows"),  # kids' puzzles are 9x9 or 13x13
    (MOUSE[:-1] + ["....Z...."], "black", "rows"),
    (MOUSE, "red", "to-play"),
])
def test_a_board_that_is_not_a_puzzle_position_says_why(rows, to_play, code):
    setup, problems = authoring.board_setup(rows, to_play)
    assert setup is None and [p.code for p in problems] == [code]


# ---------------------------------------------------------------------- the editor
def test_a_puzzle_made_on_the_board_is_proven_with_every_winning_move_and_refutation(demo, client):
    teacher_login(client)
    assert client.get("/teach/editor", headers=EN).status_code == 200
    status, page = prove(demo, client, client.post("/teach/editor", data=FORM, headers=EN))
    assert status == "done"
    winning = re.findall(r'<li data-move="(\w+)">✓', page)
    refuted = {m: reply for reply, moves in re.findall(r'<li data-reply="(\w*)">(.*?)</li>', page)
               for m in re.findall(r'data-move="(\w+)"', moves)}
    assert winning == ["E4"]
    assert refuted["D4"] == "E4" and "E4" not in refuted  # the mouse runs away through E4
    assert len(winning) + len(refuted) == len(Game.from_sgf("(;SZ[9]AB[ed][de][fe]AW[ee][eg])").legal_moves())
    with demo.app_context():
        stored = db.session.scalars(sa.select(TeacherLesson)).one()
        assert stored.filename == "board"
    assert f"/teach/editor/try/{stored.id}" in page


def test_the_proof_page_speaks_chinese(demo, client):
    teacher_login(client)
    status, page = prove(demo, client, client.post("/teach/editor", data=FORM, headers=ZH), ZH)
    assert status == "done" and "取胜的第一步" in page and "Winning first moves" not in page


@pytest.mark.parametrize("headers, says", [
    (ZH, "这块棋本来就是死棋"),
    (EN, "The group is dead already"),
])
def test_a_kill_puzzle_whose_group_is_dead_already_is_refused_with_the_reason(demo, client, headers, says):
    """A book's "White to kill" drawn one stone short (a walk's teacher drew it): Black's corner cannot live even
    moving first, so every White move would "kill" it. The teacher is told so, not shown a puzzle any tap solves."""
    teacher_login(client)
    rows = ["." * 9] * 3 + [".........", ".........", "OOOO.....", "XXXO.....", "..XO.....", "..XO....."]
    r = client.post("/teach/editor", data={**FORM, "rows": "/".join(rows), "to_play": "white", "goal": "kill",
                                           "target": "A3"}, headers=headers)
    status, page = prove(demo, client, r, headers)
    assert status == "refused" and says in page and "already (white to kill" not in page
    assert counts(demo)[1] == 0


def test_a_puzzle_nobody_can_solve_is_refused_in_the_teachers_language(demo, client):
    teacher_login(client)
    # the mouse on E5 has a friend: black cannot catch it in one go (and nothing else works)
    rows = Game.from_sgf("(;SZ[9]AB[ed]AW[ee][ef])").board_rows()
    r = client.post("/teach/editor", data={**FORM, "rows": "/".join(rows)}, headers=ZH)
    status, page = prove(demo, client, r, ZH)
    assert status == "refused"
    assert "没有哪一步能达到目标" in page and "no first move wins" not in page
    assert counts(demo)[1] == 0
    # "change this puzzle" opens the editor with everything sent: the stones, the goal, the target and the words
    change = re.search(r'class="button change-puzzle" href="([^"]+)"', page).group(1)
    editor = client.get(change.replace("&amp;", "&"), headers=ZH).get_data(as_text=True)
    assert f'id="editor-rows" value="{"/".join(rows)}"' in editor
    assert 'id="editor-target" value="E5"' in editor
    for field, value in (("text_zh", "抓住白老鼠！"), ("text_en", "Catch the white mouse!")):
        assert re.search(rf'name="{field}" value="{re.escape(value)}"', editor), field
    assert re.search(r'<option value="capture"\s+selected', editor)
    # another teacher's job is nobody else's to open
    job = change.rsplit("=", 1)[1]
    assert another_teacher(demo).get(f"/teach/editor?job={job}").status_code == 404


def _reading(page: str) -> tuple[list[str], dict[str, str]]:
    winning = re.findall(r'<li data-move="(\w+)">✓', page)
    refuted = {m: reply for reply, moves in re.findall(r'<li data-reply="(\w*)">(.*?)</li>', page)
               for m in re.findall(r'data-move="(\w+)"', moves)}
    return winning, refuted


@pytest.mark.parametrize("headers, says, answers", [
    (EN, "No first move reaches the goal", "The computer answers"),
    (ZH, "没有哪一步能达到目标", "电脑应"),
])
def test_a_refused_puzzle_shows_every_wrong_first_move_and_its_refutation(demo, client, headers, says, answers):
    """The teacher sees why the reader refused the puzzle: each first move it found wrong and the computer's
    answer to it, in the teacher's language, on the same page as the refusal."""
    teacher_login(client)
    start = Game.from_sgf("(;SZ[9]AB[ed]AW[ee][ef])")
    r = client.post("/teach/editor", data={**FORM, "rows": "/".join(start.board_rows())}, headers=headers)
    status, page = prove(demo, client, r, headers)
    assert status == "refused" and says in page and answers in page
    assert 'data-reading="yes"' in page
    winning, refuted = _reading(page)
    assert winning == []  # nothing wins, and every legal first move is listed with what refutes it
    assert set(refuted) == set(start.legal_moves())
    # each refutation is a move the computer can play after the kid's
    for move, reply in refuted.items():
        if reply:
            after = Game.from_sgf("(;SZ[9]AB[ed]AW[ee][ef])")
            after.play(move)
            after.play(reply)
    assert counts(demo)[1] == 0


@pytest.mark.parametrize("change, says", [
    ({"rows": "/".join(["." * 9] * 9)}, "Put some stones on the board first."),
    ({"rows": "XX/OO"}, "The board could not be read."),
    ({"rows": "/".join(MOUSE[:-1] + ["<script>."])}, "The board could not be read."),
    ({"goal": "win"}, "Choose what the kids must do (the goal)."),
    ({"target": ""}, "Tap the target stones"),
    ({"target": "A1"}, "There is no stone on A1"),
    ({"target": "E5 E6"}, "must all be the same colour"),
    ({"target": "Z99"}, "“Z99” is not a point: tap the target stones"),
    ({"text_en": "  ", "text_zh": ""}, "Write the instruction, in Chinese or in English (or both)."),
    ({"topic": "nope"}, "Choose the topic the puzzle belongs to."),
    ({"to_play": "red"}, "Choose who plays first"),
    ({"to_play": "white"}, "The target stones belong to the side that plays first."),
    ({"goal": "save"}, "The target stones belong to the other side."),
    ({"goal": "cut", "target": "E5 E3",
      "rows": "/".join(Game.from_sgf("(;SZ[9]AB[ed][de][fe]AW[ee][ef][eg])").board_rows())},
     "These two target stones are one group already"),
])
def test_a_puzzle_the_quick_checks_refuse_is_not_queued_and_keeps_the_form(demo, client, change, says):
    teacher_login(client)
    r = client.post("/teach/editor", data={**FORM, **change}, headers=EN)
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and says in page
    assert "Catch the white mouse!" in page or change.get("text_en") == "  "
    assert counts(demo) == (0, 0)


@pytest.mark.parametrize("change, says", [
    ({"rows": "/".join(["." * 9] * 9)}, "请先在棋盘上摆几颗棋子。"),
    ({"goal": "win"}, "请选择孩子要完成的目标。"),
    ({"target": "E5 E6"}, "目标棋子必须是同一种颜色。"),
    ({"to_play": "white"}, "目标棋子是先走一方自己的棋子。"),
    ({"text_en": "", "text_zh": " "}, "请写题目说明，中文或英文都可以"),
])
def test_the_editors_quick_checks_answer_in_chinese_in_the_chinese_interface(demo, client, change, says):
    teacher_login(client)
    r = client.post("/teach/editor", data={**FORM, **change}, headers=ZH)
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and says in page and "The puzzle was not saved" not in page
    assert counts(demo) == (0, 0)


def test_a_puzzle_written_in_one_language_is_saved_with_those_words_for_both(demo, client):
    """A teacher who teaches in Chinese writes Chinese only: the puzzle is proven and saved, and a kid reading
    English sees the teacher's Chinese words (no English invented, no refusal)."""
    teacher_login(client)
    r = client.post("/teach/editor", data={**FORM, "text_en": "", "title_zh": "抓老鼠"}, headers=ZH)
    assert r.status_code == 302
    status, _page = prove(demo, client, r, ZH)
    assert status == "done"
    from teach.web import classroom

    with demo.app_context():
        stored = db.session.scalar(sa.select(TeacherLesson))
        source, lesson = stored.source, classroom.typed_lesson(stored)
    text = lesson.steps[0].text
    assert (text.get("zh"), text.get("en")) == ("抓住白老鼠！", "抓住白老鼠！") and "抓住白老鼠" in source
    assert lesson.title.get("zh") == lesson.title.get("en") == "抓老鼠"  # the title too: not the instruction


def test_a_title_written_in_one_language_names_the_lesson_in_both_whatever_language_the_instruction():
    from teach.lessons.authoring import puzzle_lesson

    text = {"zh": "黑先：吃掉角上的白子！", "en": "Black to play: catch the white stone in the corner!"}
    for given, both in (({"en": "Corner catch", "zh": ""}, "Corner catch"), ({"zh": "角上吃子"}, "角上吃子")):
        assert puzzle_lesson("x", "capture", 9, {}, text, given)["title"] == {"zh": both, "en": both}
    assert puzzle_lesson("x", "capture", 9, {}, text, {})["title"] == text  # no title: the instruction names it


def test_a_hint_written_in_the_editor_is_the_kids_hint_in_both_languages(demo, client):
    from teach.models import Group, User

    teacher_login(client)
    status, _page = prove(demo, client, client.post("/teach/editor", data={**FORM, "hint_zh": "看看它还有几口气"},
                                                    headers=ZH), ZH)
    assert status == "done"
    with demo.app_context():
        pk, lesson_id = db.session.execute(sa.select(TeacherLesson.id, TeacherLesson.lesson_id)).one()
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        lily = db.session.scalar(sa.select(User.id).where(User.name == "Lily"))
    client.post(f"/teach/lessons/{pk}/classes", data={"class": class_id, "action": "publish"})
    kid = demo.test_client()
    assert kid.post(f"/kids/CAT234/{lily}", data={"pictures": "star,apple,sun"}).status_code == 302
    for lang in (ZH, EN):  # written in Chinese only: the same words on an English page
        assert kid.post(f"/learn/{lesson_id}/0/hint", json={}, headers=lang).get_json()["hint"] == "看看它还有几口气"
    # the teacher tries it as a kid, hint and all
    tried = client.get(f"/teach/editor/try/{pk}", headers=EN).get_data(as_text=True)
    assert 'data-hint="看看它还有几口气"' in tried and 'id="try-hint"' in tried
    # the lesson's page shows its goal and hint, and leads to how the class did (a phone has no dashboard grid)
    own = client.get(f"/teach/lessons/{pk}", headers=EN).get_data(as_text=True)
    assert "💡 看看它还有几口气" in own and f'href="/teach/classes/{class_id}/mistakes/{lesson_id}/0"' in own
    # no hint written: the page's own "no hint" words, as before
    status, _page = prove(demo, client, client.post("/teach/editor", data=FORM, headers=EN))
    with demo.app_context():
        source = db.session.scalars(sa.select(TeacherLesson.source).order_by(TeacherLesson.id.desc())).first()
    assert status == "done" and "hint" not in source


def test_a_copy_of_a_puzzle_written_in_one_language_is_filled_in_that_language_only(demo, client):
    """A teacher who wrote in Chinese only copies her puzzle and changes its words: the English fields were never
    hers, so they stay empty (filled with the old Chinese, the copy would say the old words on English pages)."""
    teacher_login(client)
    form = {**FORM, "text_en": "", "title_zh": "王老师的第一题", "hint_zh": "白子只剩一口气了"}
    assert prove(demo, client, client.post("/teach/editor", data=form, headers=ZH), ZH)[0] == "done"
    with demo.app_context():
        pk = db.session.scalar(sa.select(TeacherLesson.id))
    editor = client.get(f"/teach/editor?copy={pk}", headers=ZH).get_data(as_text=True)
    for field, value in (("text_zh", "抓住白老鼠！"), ("title_zh", "王老师的第一题"), ("hint_zh", "白子只剩一口气了"),
                         ("text_en", ""), ("title_en", ""), ("hint_en", "")):
        found = re.search(rf'name="{field}" value="([^"]*)"', editor)
        assert found is not None and found.group(1) == value, field
    # no title written at all: the instruction named the lesson, and the copy's title fields are empty
    assert prove(demo, client, client.post("/teach/editor", data={**FORM, "text_en": ""}, headers=ZH), ZH)[0] == "done"
    with demo.app_context():
        pk = db.session.scalar(sa.select(TeacherLesson.id).order_by(TeacherLesson.id.desc()))
    editor = client.get(f"/teach/editor?copy={pk}", headers=ZH).get_data(as_text=True)
    for field in ("title_zh", "title_en"):
        found = re.search(rf'name="{field}" value="([^"]*)"', editor)
        assert found is not None and found.group(1) == "", field


def test_a_saved_puzzle_opens_in_the_editor_to_change_as_a_new_one(demo, client):
    teacher_login(client)
    status, _page = prove(demo, client, client.post("/teach/editor", data={**FORM, "hint_en": "Count its roads",
                                                                          "title_en": "Mouse"}, headers=EN))
    assert status == "done"
    with demo.app_context():
        pk = db.session.scalar(sa.select(TeacherLesson.id))
    page = client.get(f"/teach/lessons/{pk}", headers=EN).get_data(as_text=True)
    assert f'href="/teach/editor?copy={pk}"' in page and page.count("Catch the white mouse!") == 1  # said once
    editor = client.get(f"/teach/editor?copy={pk}", headers=EN).get_data(as_text=True)
    assert f'name="rows" value="{"/".join(MOUSE)}"' in editor or "/".join(MOUSE) in editor
    for field, value in (("text_en", "Catch the white mouse!"), ("title_en", "Mouse"), ("hint_en", "Count its roads"),
                         ("target", "E5")):
        assert re.search(rf'name="{field}"[^>]*value="{re.escape(value)}"', editor), field
    assert re.search(r'<option value="capture"\s+selected', editor)
    assert another_teacher(demo).get(f"/teach/editor?copy={pk}").status_code == 404  # not hers to copy
    # saved again, it is a new puzzle: the old one is still there
    changed = client.post("/teach/editor", data={**FORM, "text_en": "Catch it again!"}, headers=EN)
    assert prove(demo, client, changed)[0] == "done"
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(TeacherLesson)) == 2


def test_the_editor_opens_a_lesson_diagram(demo, client):
    teacher_login(client)
    page = client.get("/teach/editor?from=web-first:1", headers=EN).get_data(as_text=True)
    stones = len(re.findall(r'class="pt (?:black|white)', page))
    assert stones > 0
    empty = client.get("/teach/editor?from=web-first:999", headers=EN).get_data(as_text=True)
    assert len(re.findall(r'class="pt (?:black|white)', empty)) == 0


def test_a_teacher_cannot_see_another_teachers_editor_proof(demo, client, app):
    teacher_login(client)
    r = client.post("/teach/editor", data=FORM, headers=EN)
    other = another_teacher(demo)
    assert other.get(r.headers["Location"]).status_code == 404


# ---------------------------------------------------------------------- try it as a kid
def test_trying_a_saved_puzzle_as_a_kid_judges_moves_and_records_nothing(demo, client):
    from teach.models import Attempt

    teacher_login(client)
    status, proof_page = prove(demo, client, client.post("/teach/editor", data=FORM, headers=EN))
    assert status == "done" and 'data-unproven="0"' in proof_page  # proven whole: every move a lookup
    with demo.app_context():
        pk, proofs = db.session.execute(sa.select(TeacherLesson.id, TeacherLesson.proofs)).one()
        assert len(proofs) == 1
    page = client.get(f"/teach/editor/try/{pk}", headers=EN).get_data(as_text=True)
    assert "Catch the white mouse!" in page
    wrong = client.post(f"/teach/editor/try/{pk}/move", json={"line": [], "move": "D4"}, headers=EN).get_json()
    assert wrong["result"] == "wrong" and wrong["reply"] and wrong["message"]
    right = client.post(f"/teach/editor/try/{pk}/move", json={"line": [], "move": "e4"}, headers=EN).get_json()
    assert right["result"] == "correct" and right["rows"][5][4] == "X" and right["rows"][4][4] == "."
    for bad in ({"line": "D4", "move": "D4"}, {"line": [], "move": 7}, {"line": [], "move": "D4", "x": 1},
                {"line": ["Q99"], "move": "D4"}, {"line": ["D4"] * 41, "move": "E4"}):
        assert client.post(f"/teach/editor/try/{pk}/move", json=bad).status_code == 400
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Attempt)) == 0


def test_a_tried_move_the_reader_must_read_again_keeps_its_stone_and_is_answered(demo, client):
    """On the try page as on a kid's: a move the request cannot settle is read again in the background, the page is
    told to keep the stone and ask again (it said "tap again" for ever), and the next ask gets the verdict."""
    from teach.go.judge import Judge
    from teach.go.reading import Limits
    from teach.web import classroom, deep_read

    teacher_login(client)
    assert prove(demo, client, client.post("/teach/editor", data=FORM, headers=EN))[0] == "done"
    with demo.app_context():
        stored = db.session.scalars(sa.select(TeacherLesson)).one()
        pk = stored.id
        puzzle = next(s for s in classroom.typed_lesson(stored).steps if s.kind == "puzzle")
        puzzle.__dict__["_judge"] = Judge(puzzle.start(), puzzle.goal_object(), Limits(nodes=1))  # a busy server
    try:
        first = client.post(f"/teach/editor/try/{pk}/move", json={"line": [], "move": "D4"}, headers=EN).get_json()
        assert first["result"] == "thinking" and first["retry"] > 0 and first["line"] == []
        assert "back_rows" not in first and first["rows"][5][3] == "X"  # the stone stays while it is read
        assert deep_read.wait_idle(timeout=120)
        again = client.post(f"/teach/editor/try/{pk}/move", json={"line": [], "move": "D4"}, headers=EN).get_json()
        assert again["result"] == "wrong" and again["reply"] == "E4"
    finally:
        puzzle.__dict__.pop("_judge", None)


# ---------------------------------------------------------------------- the demo board
def test_trying_a_move_that_works_but_is_not_the_best_takes_it_back_as_a_kids_page_does(demo, client):
    """A move that keeps the win without bringing it nearer is no move of the line: the teacher is told what a kid
    is told, the stone goes back, and the next tap is judged (it was kept as a move with no answer, and the next
    tap was refused)."""
    caught = Game.from_sgf("(;SZ[9]AB[bb]AW[aa])").board_rows()  # a white stone in the corner, caught already
    teacher_login(client)
    form = {**FORM, "rows": "/".join(caught), "target": "A9", "text_zh": "吃掉角上的白子！",
            "text_en": "Catch the white stone in the corner!"}
    status, _page = prove(demo, client, client.post("/teach/editor", data=form, headers=EN))
    assert status == "done"
    with demo.app_context():
        pk = db.session.scalar(sa.select(TeacherLesson.id))
    slow = client.post(f"/teach/editor/try/{pk}/move", json={"line": [], "move": "J1"}, headers=EN).get_json()
    assert slow["result"] == "slow" and slow["line"] == [] and "better move" in slow["message"]
    assert slow["rows"][8][8] == "X" and slow["back_rows"] == caught  # shown, then taken back
    after = client.post(f"/teach/editor/try/{pk}/move", json={"line": slow["line"], "move": "B9"}, headers=EN)
    assert after.status_code == 200 and after.get_json()["result"] in ("correct", "continue")


def test_the_demo_board_plays_moves_through_the_engine(demo, client):
    teacher_login(client)
    assert client.get("/teach/board", headers=ZH).status_code == 200
    rows = Game.from_sgf("(;SZ[9]AB[ed][de][fe]AW[ee])").board_rows()
    answer = client.post("/teach/board/play", json={"rows": rows, "to_play": "black", "moves": ["E4"]}).get_json()
    assert answer["result"] == "ok" and answer["rows"][4][4] == "." and answer["to_play"] == "white"
    assert answer["captures"]["black"] == 1
    taken = client.post("/teach/board/play", json={"rows": rows, "to_play": "black", "moves": ["E5"]},
                        headers=EN).get_json()
    assert taken["result"] == "illegal" and taken["at"] == 0 and taken["message"]


@pytest.mark.parametrize("body", [
    {"rows": ["." * 9] * 9, "to_play": "black", "moves": "E4"},
    {"rows": ["." * 8] * 8, "to_play": "black", "moves": []},
    {"rows": ["." * 9] * 9, "to_play": "green", "moves": []},
    {"rows": ["." * 9] * 9, "to_play": "black", "moves": ["E4"] * 401},
    {"rows": "........."},
])
def test_the_demo_board_refuses_what_the_page_never_sends(demo, client, body):
    teacher_login(client)
    assert client.post("/teach/board/play", json=body).status_code == 400
    assert client.post("/teach/board/ask", json={**body, "point": "E5"}).status_code == 400


def test_stones_set_up_with_no_liberty_are_named_not_a_server_error(demo, client):
    """A white stone in the corner with black on both its sides: the page lets a teacher put stones anywhere."""
    teacher_login(client)
    rows = ["." * 9] * 7 + ["X........", "OX......."]
    for url, extra in (("/teach/board/play", {"moves": ["E5"]}), ("/teach/board/ask", {"point": "B1"})):
        for lang, words in ((EN, "The stones on A1 have no liberties"), (ZH, "A1上的棋子一口气也没有")):
            r = client.post(url, json={"rows": rows, "to_play": "black", **extra}, headers=lang)
            assert r.status_code == 400 and r.get_json()["result"] == "no-room"
            assert r.get_json()["message"].startswith(words)


@pytest.mark.parametrize("sgf, point, result", [
    ("(;SZ[9]AB[ad][be]AW[ae])", "A5", "dead"),  # on the edge: running along it is a ladder into the corner
    ("(;SZ[9]AB[ed][de]AW[ee])", "E5", "safe"),  # two roads in the open: it always gets away
    ("(;SZ[9]AB[ed][de][fe]AW[ee])", "E5", "urgent"),  # in atari in the open: E4 catches it, or saves it
])
def test_the_reader_answers_can_this_be_captured(demo, client, sgf, point, result):
    teacher_login(client)
    rows = Game.from_sgf(sgf).board_rows()
    answer = client.post("/teach/board/ask", json={"rows": rows, "to_play": "black", "point": point},
                         headers=EN).get_json()
    assert answer["result"] == result and answer["message"]
    if result == "urgent":
        assert answer["attack"] and answer["defend"]


def test_the_demo_board_opens_only_games_of_the_teachers_own_kids(demo, client):
    from teach.models import PlayedGame, User

    with demo.app_context():
        lily = db.session.scalar(sa.select(User).where(User.name == "Lily"))
        mine = PlayedGame(kid_id=lily.id, kind="full", size=9, komi=7.5, kid_color="black", opponent="computer",
                          moves=["E5", "D5", "C3"], ply=3)
        db.session.add(mine)
        db.session.commit()
        game_id = mine.id
    teacher_login(client)
    page = client.get(f"/teach/board?game={game_id}").get_data(as_text=True)
    assert '["E5", "D5", "C3"]' in page
    other = another_teacher(demo)
    theirs = other.get(f"/teach/board?game={game_id}").get_data(as_text=True)
    assert "E5" not in theirs.split('id="demo-line"')[1]


# ---------------------------------------------------------------------- the checker's words, reworded
@pytest.mark.parametrize("message, code", [
    ("no first move wins (black to capture E5): the goal cannot be reached", "no-winner"),
    ("the reader ran out of budget on this puzzle (black to capture E5): make it smaller or simpler", "budget"),
    ("this puzzle is won only through a ko (E4): say so with `ko: true`", "ko-only"),
    ("the group is dead already (white to kill A3): even if its owner plays first, it cannot live", "settled"),
    ("target E5 is an empty point: a target names a stone of the chain", "empty-target"),
    ("`foo` is not a key", None),
])
def test_the_checkers_proof_messages_have_codes_for_the_teachers_language(message, code):
    found = proof_problem(message)
    assert (found[0] if found else None) == code


# ---------------------------------------------------------------------- a draft until published, to chosen classes
def _saved_puzzle(demo, client) -> int:
    prove(demo, client, client.post("/teach/editor", data=FORM, headers=EN))
    with demo.app_context():
        return db.session.scalar(sa.select(TeacherLesson.id))


def _kid_sees(demo, code: str, kid_name: str, pictures: str, lesson_id: str) -> bool:
    from teach.models import User

    with demo.app_context():
        kid = db.session.scalar(sa.select(User.id).where(User.name == kid_name))
    kid_client = demo.test_client()
    assert kid_client.post(f"/kids/{code}/{kid}", data={"pictures": pictures}).status_code == 302
    return f'href="/learn/{lesson_id}"' in kid_client.get("/learn/").get_data(as_text=True) \
        and kid_client.get(f"/learn/{lesson_id}/0").status_code == 200


def test_a_made_puzzle_is_a_draft_until_published_to_the_classes_chosen(demo, outsider, client):
    from teach.models import Group, Membership, User

    teacher_login(client)
    pk = _saved_puzzle(demo, client)
    with demo.app_context():
        lesson_id = db.session.get(TeacherLesson, pk).lesson_id
        mine = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        other = db.session.scalar(sa.select(Group.id).where(Group.code == "OTHER2"))
        teacher = db.session.scalar(sa.select(User).where(User.email == "teacher@example.com"))
        db.session.add(Membership(user_id=teacher.id, group_id=other, role="teacher"))  # she teaches both
        db.session.commit()
    assert not _kid_sees(demo, "CAT234", "Lily", "star,apple,sun", lesson_id)
    page = client.get(f"/teach/lessons/{pk}/classes", headers=EN).get_data(as_text=True)
    assert 'data-published="no"' in page and f"/teach/editor/try/{pk}" in page
    none = client.post(f"/teach/lessons/{pk}/classes", data={"action": "publish"}, headers=EN)
    for forged in ("9" * 5000, "²", "x"):  # no class of hers: no page, never a 500
        assert client.post(f"/teach/lessons/{pk}/classes", data={"class": forged, "action": "publish"}).status_code \
            == 404
    assert none.status_code == 422 and "Choose at least one class" in none.get_data(as_text=True)
    assert client.post(f"/teach/lessons/{pk}/classes", data={"class": mine, "action": "publish"}).status_code == 302
    assert _kid_sees(demo, "CAT234", "Lily", "star,apple,sun", lesson_id)
    assert not _kid_sees(demo, "OTHER2", "Zed", "cat,cat,cat", lesson_id)  # a class she did not choose
    client.post(f"/teach/lessons/{pk}/classes", data={"class": [mine, other], "action": "publish"})
    assert _kid_sees(demo, "OTHER2", "Zed", "cat,cat,cat", lesson_id)
    client.post(f"/teach/lessons/{pk}/classes", data={"class": [other], "action": "publish"})
    assert not _kid_sees(demo, "CAT234", "Lily", "star,apple,sun", lesson_id)
    client.post(f"/teach/lessons/{pk}/classes", data={"class": [other], "action": "draft"})
    assert not _kid_sees(demo, "OTHER2", "Zed", "cat,cat,cat", lesson_id)


def _listed(client, pk: int, headers=EN) -> str:
    page = client.get("/teach/lessons", headers=headers).get_data(as_text=True)
    return re.search(rf'<li class="own-lesson card" data-lesson="{pk}".*?</li>', page, re.S).group(0)


def test_the_list_of_own_lessons_says_draft_or_published_and_to_which_classes(demo, outsider, client):
    """From the list itself a teacher sees which lessons kids see and where, and publishes or unpublishes."""
    from teach.models import Group

    teacher_login(client)
    pk = _saved_puzzle(demo, client)
    with demo.app_context():
        lesson_id = db.session.get(TeacherLesson, pk).lesson_id
        mine = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        mine_id, mine_name = mine.id, mine.name
    item = _listed(client, pk)
    assert 'data-published="no"' in item and "Draft: no kid sees it yet" in item and "Catch the white mouse" in item
    assert f'href="/teach/lessons/{pk}/classes"' in item and "Choose the classes and publish" in item
    assert "草稿" in _listed(client, pk, ZH)
    client.post(f"/teach/lessons/{pk}/classes", data={"class": mine_id, "action": "publish"})
    item = _listed(client, pk)
    assert 'data-published="yes"' in item and f"Published to: {mine_name}" in item and "Other" not in item
    assert f"已发布给：{mine_name}" in _listed(client, pk, ZH)
    assert _kid_sees(demo, "CAT234", "Lily", "star,apple,sun", lesson_id)
    # "back to draft" is a button of the list, and answers with the list
    r = client.post(f"/teach/lessons/{pk}/classes", data={"action": "draft", "back": "list"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/teach/lessons")
    assert 'data-published="no"' in _listed(client, pk)
    assert not _kid_sees(demo, "CAT234", "Lily", "star,apple,sun", lesson_id)


def test_a_kid_s_try_on_a_teacher_s_own_puzzle_is_named_and_replayed_on_the_kid_s_page(demo, outsider, client):
    """The class page and the kid's page name the teacher's puzzle by its title, not its id, and the kid's wrong
    move on it is replayed like one on a catalogue puzzle (its Replay was a dead link)."""
    from teach.models import Group, User

    teacher_login(client)
    pk = _saved_puzzle(demo, client)
    with demo.app_context():
        lesson_id = db.session.get(TeacherLesson, pk).lesson_id
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        lily = db.session.scalar(sa.select(User.id).where(User.name == "Lily"))
    own = client.get(f"/teach/classes/{class_id}", headers=EN).get_data(as_text=True).split("own-lessons", 1)[1]
    assert "Catch the white mouse" in own.split("</ul>")[0] and "Draft: no kid sees it yet" in own.split("</ul>")[0]
    client.post(f"/teach/lessons/{pk}/classes", data={"class": class_id, "action": "publish"})
    own = client.get(f"/teach/classes/{class_id}", headers=ZH).get_data(as_text=True).split("own-lessons", 1)[1]
    assert "本班孩子能看到" in own.split("</ul>")[0] and lesson_id not in own.split("</ul>")[0].split("href")[0]
    kid = demo.test_client()
    assert kid.post(f"/kids/CAT234/{lily}", data={"pictures": "star,apple,sun"}).status_code == 302
    wrong = kid.post(f"/learn/{lesson_id}/0/move", json={"move": "A1", "attempt": None, "ply": 0}).get_json()
    assert wrong["result"] == "wrong" and wrong["reply"] == "E4"
    page = client.get(f"/teach/classes/{class_id}/kids/{lily}", headers=EN).get_data(as_text=True)
    tries = page.split("Recent tries", 1)[1].split("</ul>", 1)[0]
    assert "Catch the white mouse" in tries and lesson_id not in tries.replace(f"/{lesson_id}", "")
    replay = re.search(r'href="(/teach/classes/\d+/kids/\d+/attempts/\d+)\?ply=0"', tries).group(1)
    shown = client.get(replay, headers=EN)
    assert shown.status_code == 200
    text = shown.get_data(as_text=True)
    assert "Catch the white mouse" in text and "Lily played A1: a wrong move." in text and "E4" in text


def test_a_teachers_own_lesson_is_homework_everywhere_homework_is_shown(demo, outsider, client):
    """A teacher's own lesson, once published to the class, can be given as homework: the kid's map shows it with
    its day, the dashboard counts it and gives it columns and a mistake map, the parent sees it as homework, the
    teacher prints it on a worksheet; a draft cannot be given, and deleting the lesson takes its homework away."""
    from datetime import date

    from teach.models import Assignment, Group, User

    teacher_login(client)
    pk = _saved_puzzle(demo, client)
    with demo.app_context():
        lesson_id = db.session.get(TeacherLesson, pk).lesson_id
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        ming = db.session.scalar(sa.select(User.id).where(User.name == "明明"))

    def assigned() -> list[str]:
        with demo.app_context():
            return list(db.session.scalars(sa.select(Assignment.lesson_id).where(Assignment.group_id == class_id)))

    before = assigned()
    homework = {"what": f"own:{lesson_id}", "due": date.today().isoformat()}
    # a draft: the class's kids do not see it, so it is not offered and cannot be given
    assert f'value="own:{lesson_id}"' not in client.get(f"/teach/classes/{class_id}").get_data(as_text=True)
    client.post(f"/teach/classes/{class_id}/assignments", data=homework)
    assert assigned() == before
    client.post(f"/teach/lessons/{pk}/classes", data={"class": class_id, "action": "publish"})
    page = client.get(f"/teach/classes/{class_id}", headers=EN).get_data(as_text=True)
    assert re.search(rf'<option value="own:{lesson_id}">Catch the white mouse', page)
    client.post(f"/teach/classes/{class_id}/assignments", data=homework)
    client.post(f"/teach/classes/{class_id}/assignments", data=homework)  # a second send adds nothing
    assert assigned() == before + [lesson_id]
    listed = client.get(f"/teach/classes/{class_id}", headers=ZH).get_data(as_text=True).split("assignment-list")[1]
    assert "抓住白老鼠" in listed.split("</ul>")[0] and "我们自己的课" in listed.split("</ul>")[0]

    kid = demo.test_client()
    assert kid.post(f"/kids/CAT234/{ming}", data={"pictures": "cat,fish,moon"}).status_code == 302
    learn = kid.get("/learn/", headers=EN).get_data(as_text=True)
    from_teacher = learn.split('class="homework"', 1)[1].split("</section>", 1)[0]
    assert re.search(rf'data-lesson="{lesson_id}"[^>]*data-assigned="{date.today()}"', from_teacher)
    assert "class-lessons" not in learn  # given as homework, it is not listed a second time
    for _ in range(3):
        assert kid.post(f"/learn/{lesson_id}/0/move", json={"move": "A1", "attempt": None, "ply": 0}) \
            .get_json()["result"] == "wrong"

    board = client.get(f"/teach/classes/{class_id}/dashboard", headers=EN).get_data(as_text=True)
    assert "Our own lessons" in board and "📌 Catch the white mouse" in board
    assert f'href="/teach/classes/{class_id}/mistakes/{lesson_id}/0"' in board  # from "stuck" and from the grid
    mistakes = client.get(f"/teach/classes/{class_id}/mistakes/{lesson_id}/0", headers=EN)
    assert mistakes.status_code == 200
    assert re.findall(r'data-move="(\w+)" data-kids="(\d+)" data-reply="(\w+)"', mistakes.get_data(as_text=True)) \
        == [("A1", "1", "E4")]
    assert "<h2>a = A1" in mistakes.get_data(as_text=True)  # a small letter: the capitals name the columns
    assert re.search(r'<text class="label"[^>]*>a</text>', mistakes.get_data(as_text=True))  # on the board too

    mum = demo.test_client()
    assert mum.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"}).status_code == 302
    for page in (f"/family/kids/{ming}", f"/family/kids/{ming}/week"):
        text = re.sub(r"\s+", " ", mum.get(page, headers=EN).get_data(as_text=True))
        assert re.search(rf"<li[^>]*> ?Catch the white mouse!? · due {date.today()}", text), page
    assert kid.post(f"/learn/{lesson_id}/0/move", json={"move": "E4", "attempt": None, "ply": 0}) \
        .get_json()["result"] == "correct"
    week = mum.get(f"/family/kids/{ming}/week", headers=EN).get_data(as_text=True)
    assert f'<li data-lesson="{lesson_id}"' in week  # finished this week, as the map's lessons are
    done = kid.get("/learn/", headers=EN).get_data(as_text=True).split(f'data-lesson="{lesson_id}"', 1)[1]
    assert "✅ Done!" in done.split("</li>", 1)[0]  # done homework: no red day any more

    picker = client.get("/teach/worksheet?topic=own", headers=EN).get_data(as_text=True)
    assert re.search(r'name="topic" value="own"[^>]*>My own lessons', picker) and f'value="own:{pk}:0"' in picker
    sheet = client.get(f"/teach/worksheet?p=own:{pk}:0&make=1", headers=EN)
    assert sheet.status_code == 200 and "E4" in sheet.get_data(as_text=True)
    assert another_teacher(demo).get(f"/teach/worksheet?p=own:{pk}:0&make=1").status_code == 404  # not hers

    client.post(f"/teach/lessons/{pk}/delete", data={"confirm": "1"})
    assert assigned() == before
    assert lesson_id not in client.get(f"/teach/classes/{class_id}").get_data(as_text=True)
    followed = mum.get(f"/family/kids/{ming}", headers=EN).get_data(as_text=True)  # what was done stays, unnamed
    assert "A lesson that is no longer there" in followed and lesson_id not in followed


def test_publishing_sent_four_times_at_once_publishes_once_and_answers_every_time(demo, client):
    """A double click, or two tabs: every send is answered (a unique row written twice was a 500)."""
    import threading

    from teach.models import Group, TeacherLessonClass

    teacher_login(client)
    pk = _saved_puzzle(demo, client)
    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
    demo.config["WTF_CSRF_ENABLED"] = False
    tabs = [demo.test_client() for _ in range(4)]
    for tab in tabs:
        teacher_login(tab)
    start, answers = threading.Barrier(len(tabs)), []

    def publish(tab):
        start.wait()
        answers.append(tab.post(f"/teach/lessons/{pk}/classes", data={"class": class_id, "action": "publish"})
                       .status_code)

    threads = [threading.Thread(target=publish, args=(tab,)) for tab in tabs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [302] * len(tabs)
    with demo.app_context():
        assert db.session.scalars(sa.select(TeacherLessonClass.group_id).where(
            TeacherLessonClass.lesson_pk == pk)).all() == [class_id]


def test_publishing_to_a_class_that_is_not_yours_changes_nothing(demo, outsider, client):
    from teach.models import Group

    teacher_login(client)
    pk = _saved_puzzle(demo, client)
    with demo.app_context():
        other = db.session.scalar(sa.select(Group.id).where(Group.code == "OTHER2"))
    for bad in ({"class": other, "action": "publish"}, {"class": "x", "action": "publish"}):
        assert client.post(f"/teach/lessons/{pk}/classes", data=bad).status_code == 404
    with demo.app_context():
        assert db.session.get(TeacherLesson, pk).published_at is None
    assert another_teacher(demo).post(f"/teach/lessons/{pk}/classes", data={"action": "draft"}).status_code == 404


def test_the_migration_keeps_lessons_that_were_live_live_for_their_teachers_classes(tmp_path):
    from flask_migrate import upgrade

    from conftest import _test_app

    app = _test_app(f"sqlite:///{tmp_path / 'old.db'}")
    with app.app_context():
        upgrade(revision="25e4f5a6b7c8")  # the migration before the drafts one
        # rows written as that schema had them (the models of today know columns added since)
        run = db.session.execute
        run(sa.text("INSERT INTO account (id, role, name, email, failed_logins, archived, created_at, session_secret) "
                    "VALUES (1, 'teacher', 'T', 't@example.com', 0, 0, '2026-01-01', :secret)"), {"secret": "s" * 32})
        run(sa.text("INSERT INTO kid_group (id, kind, name, code, archived, created_at) VALUES "
                    "(1, 'class', 'C', 'CODE55', 0, '2026-01-01'), (2, 'class', 'Not hers', 'CODE66', 0, '2026-01-01')"))
        run(sa.text("INSERT INTO membership (group_id, user_id, role) VALUES (1, 1, 'teacher')"))
        teacher_id = 1
        db.session.commit()
        db.session.execute(sa.text("INSERT INTO teacher_lesson (owner_id, lesson_id, filename, source, created_at) "
                                   "VALUES (:owner, 'old', 'old.yaml', 'x', '2026-01-02')"), {"owner": teacher_id})
        db.session.commit()
        lesson_pk = db.session.execute(sa.text("SELECT id FROM teacher_lesson")).scalar()
        group_id = 1  # her class, not the other
        db.session.remove()
        upgrade()
        with db.engine.connect() as c:
            assert c.execute(sa.text("SELECT published_at FROM teacher_lesson")).scalar() is not None
            assert c.execute(sa.text("SELECT lesson_pk, group_id FROM teacher_lesson_class")).all() == [
                (lesson_pk, group_id)]
        db.engine.dispose()


def test_the_editor_starts_from_a_kids_game_or_the_demo_board_and_never_from_another_teachers_kid(demo, client):
    from teach.models import PlayedGame, User

    with demo.app_context():
        lily = db.session.scalar(sa.select(User).where(User.name == "Lily"))
        played = PlayedGame(kid_id=lily.id, kind="full", size=9, komi=7.5, kid_color="black", opponent="computer",
                            moves=["E5", "D5", "C3", "D4"], ply=4)
        db.session.add(played)
        db.session.commit()
        game_id = played.id
    teacher_login(client)

    def stones(page: str) -> dict:
        return dict((p, c) for c, p in re.findall(r'class="pt (black|white)[^"]*" data-point="(\w+)"', page))

    assert stones(client.get(f"/teach/editor?game={game_id}&move=2").get_data(as_text=True)) == {
        "E5": "black", "D5": "white"}
    assert len(stones(client.get(f"/teach/editor?game={game_id}").get_data(as_text=True))) == 4
    handed = client.get("/teach/editor?rows=" + "/".join(MOUSE) + "&to_play=white").get_data(as_text=True)
    assert stones(handed) == {"E6": "black", "D5": "black", "F5": "black", "E5": "white", "E3": "white"}
    assert 'value="white" checked' in handed
    assert stones(another_teacher(demo).get(f"/teach/editor?game={game_id}").get_data(as_text=True)) == {}
    games = client.get("/teach/board").get_data(as_text=True)
    assert f'<option value="{game_id}">Lily' in games or f'<option value="{game_id}">' in games


# ---------------------------------------------------------------------- lesson files: the checker's words, in Chinese
LESSON = (__import__("pathlib").Path(__file__).resolve().parent / "web_lessons" / "capture" / "web-second.yaml") \
    .read_text().replace("web-second", "my-own")


@pytest.mark.parametrize("text, zh, en", [
    ("id: [unclosed", "不是有效的 YAML", "is not valid YAML"),
    (LESSON.replace("goal: capture", "goal: capture\n      colour: red"), "不是课程文件用的键", "is not a key"),
    (LESSON.replace("target: [A5]", "target: [Z5]"), "不是一个点", "is not a point"),
    (LESSON.replace("title: {zh: 老鼠想逃跑, en: The mouse runs}", "title: {zh: 老鼠想逃跑}"), "两种语言", "both languages"),
])
def test_a_lesson_files_mistakes_come_in_the_teachers_language(demo, client, text, zh, en):
    import io

    teacher_login(client)
    for lang, says in (("zh", zh), ("en", en)):
        r = client.post("/teach/lessons", data={"lesson": (io.BytesIO(text.encode()), "mine.yaml")},
                        content_type="multipart/form-data", headers={"Accept-Language": lang})
        page = r.get_data(as_text=True)
        assert r.status_code == 422 and says in page and "mine.yaml:" in page, page[-3000:]
    assert counts(demo) == (0, 0)


# ---------------------------------------------------------------------- worksheets
def test_the_worksheet_picker_shows_a_topic_with_board_pictures_and_keeps_what_was_ticked(demo, client):
    teacher_login(client)
    page = client.get("/teach/worksheet?topic=capture&p=web-first:1", headers=EN).get_data(as_text=True)
    boxes = re.findall(r'<input type="checkbox" name="p" value="([^"]+)"( checked)?', page)
    assert [(k, bool(c)) for k, c in boxes] == [("web-first:1", True), ("web-second:0", False)]
    assert page.count('<li class="puzzle-card">') == page.count('class="board ') == 2
    assert client.get("/teach/worksheet?topic=capture&p=nope:3").status_code == 404
    assert "nothing-picked" not in page
    # "make the worksheet" with nothing ticked says what to do, in the teacher's language
    empty = client.get("/teach/worksheet?topic=capture&make=1", headers=ZH).get_data(as_text=True)
    assert 'id="nothing-picked"' in empty and "还没有勾选题目" in empty


def test_a_worksheet_numbers_each_puzzle_once(demo, client):
    teacher_login(client)
    page = client.get("/teach/worksheet?make=1&p=web-first:1&p=web-second:0&p=web-first:1",
                      headers=EN).get_data(as_text=True)
    text = re.sub(r"<[^>]+>", "", page)
    assert page.count('class="sheet-puzzle"') == 2 and "<ol" not in page  # a repeat counts once; no list numbers
    assert re.findall(r"(\d+)\. (?:E4|\w+\d)", text.split("Answer key")[1])[:2] == ["1", "2"]
    assert "1. 1." not in text and "2. 2." not in text


def test_a_teacher_asking_the_reader_too_often_is_told_to_wait(demo, client):
    """Each question may cost the server a second and a half of reading: one teacher's questions are limited
    (a class asks a few a minute), and the refusal is a clear answer, not an error page."""
    from teach.web.teacher.demo_board import ASK_RATE

    per_minute = int(ASK_RATE.split()[0])
    teacher_login(client)
    rows = Game.from_sgf("(;SZ[9]AB[ed][de]AW[ee])").board_rows()
    asked = [client.post("/teach/board/ask", json={"rows": rows, "to_play": "black", "point": "A1"}, headers=EN)
             for _ in range(per_minute + 1)]
    assert [r.status_code for r in asked[:per_minute]] == [200] * per_minute
    assert asked[-1].status_code == 429 and asked[-1].get_json()["message"]
