"""The lesson loader and linter: broken files give the right message at the right line and column, every
shipped lesson passes, and the typed lessons give puzzles their start position and goal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from teach.go import Game
from teach.go.judge import Goal
from teach.lessons import (Catalog, Puzzle, Quiz, check_file, check_paths, check_step, load_lessons,
                           parse_diagram)
from teach.lessons.cli import lessons_group
from teach.lessons.yamlsource import load_yaml

ROOT = Path(__file__).resolve().parent.parent
BAD = Path(__file__).resolve().parent / "lessons_bad"
EXPECT = re.compile(r"^# expect: (\d+):(\d+): (.+)$", re.M)

HEAD = """id: {id}
topic: capture
order: {order}
level: 1
size: 9
sticker: {{id: sticker-{id}, picture: badge, name: {{zh: 徽章, en: Badge}}}}
title: {{zh: 标题, en: Title}}
intro: {{zh: 开始, en: Start}}
recap: {{zh: 结束, en: The end}}
steps:
"""
# A mouse in atari whose only road leads to a living white group: E7 is the one winning move (cheap to prove)
ATARI = """\
. . . . . . . . .
. . . X . . . . .
. . X O . O O O O
. . . X X O . O .
X X X X X X X X X
X X X X X X X X X
X X X X X X X X X
X X X X X X X X X
X . X . X . X . X
"""
MOUSE = """\
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . X O . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.fixture(scope="module")
def bad_report():
    return check_paths([BAD])


def _bad_files():
    return sorted(p for p in BAD.glob("*.yaml") if p.name != "catalog.yaml")


@pytest.mark.parametrize("path", _bad_files(), ids=lambda p: p.stem)
def test_broken_file_gives_its_errors_at_their_line_and_column(bad_report, path):
    expected = [(int(l), int(c), text) for l, c, text in EXPECT.findall(path.read_text(encoding="utf-8"))]
    assert expected, f"{path.name} states no expected error"
    got = [e for e in bad_report.errors if Path(e.file).resolve() == path]
    unmatched = list(got)
    for line, col, text in expected:
        hit = next((e for e in unmatched if (e.line, e.column) == (line, col) and text in e.message), None)
        assert hit is not None, f"expected {line}:{col}: {text!r}; got {[str(e) for e in got]}"
        unmatched.remove(hit)
    assert unmatched == [], f"unexpected errors: {[str(e) for e in unmatched]}"


def test_every_shipped_lesson_checks():
    # schema, diagrams, marks, demos and quizzes; `make test` runs `teach lessons check`, which also proves puzzles
    report = check_paths([ROOT / "lessons"], prove=False)
    assert [str(e) for e in report.errors] == []
    assert report.files == report.lessons


def _write(tmp_path: Path, name: str, body: str, order: int = 1) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(HEAD.format(id=name, order=order) + body, encoding="utf-8")
    return path


def _catalog(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text(
        "topics:\n  - {id: capture, title: {zh: 吃子, en: Capture}}\npictures: [badge]\n", encoding="utf-8")


def _puzzle(board: str = ATARI, extra: str = "") -> str:
    rows = "".join(f"        {row}\n" for row in board.splitlines())
    return ("  - puzzle:\n      goal: capture\n      target: D7\n      text: {zh: 抓, en: Catch}\n" + extra +
            "      board: |\n" + rows)


def test_load_lessons_gives_typed_lessons_and_puzzle_positions(tmp_path):
    _catalog(tmp_path)
    _write(tmp_path, "first-catch", _puzzle())
    catalog = load_lessons(tmp_path)
    assert isinstance(catalog, Catalog)
    lesson = catalog.lessons["first-catch"]
    assert catalog.topic("capture").lessons == [lesson]
    puzzle = lesson.steps[0]
    assert isinstance(puzzle, Puzzle)
    start = puzzle.start()
    assert isinstance(start, Game) and start.to_play == "black"
    assert start.color_at("D7") == "white" and start.color_at("D8") == "black"
    assert puzzle.goal_object() == Goal("capture", ("D7",))
    assert puzzle.winning is None  # loading does not prove; `teach lessons check` does
    assert puzzle.judge() is puzzle.judge()
    assert puzzle.judge().judge([], "E7").result == "correct"
    assert puzzle.judge().judge([], "B9").result == "wrong"


def test_load_lessons_raises_with_every_error(tmp_path):
    from teach.lessons import LessonsError

    _catalog(tmp_path)
    _write(tmp_path, "first-catch", _puzzle(extra="      hnit: {zh: 提示, en: Hint}\n"))
    with pytest.raises(LessonsError) as info:
        load_lessons(tmp_path)
    assert "did you mean `hint`" in str(info.value)


def test_lesson_and_sticker_ids_are_unique_across_files(tmp_path):
    _catalog(tmp_path)
    explain = "  - explain: {text: {zh: 这, en: This}}\n"
    _write(tmp_path / "a", "same", explain) if (tmp_path / "a").mkdir() is None else None
    _write(tmp_path / "b", "same", explain, order=2) if (tmp_path / "b").mkdir() is None else None
    report = check_paths([tmp_path], prove=False)
    messages = [e.message for e in report.errors]
    assert any("lesson id `same` is also used by" in m for m in messages), messages
    assert any("sticker id `sticker-same` is also awarded by" in m for m in messages), messages


@pytest.mark.parametrize("data", [
    b"\xff\xfe\x00garbage", b"", b"[1, 2", b"- a\n- b\n", b"id: [\n", b"a: &x [1]\nb: *x\n", b"{" * 5000,
    b"id: !!python/object:os.system {}\n", "id: 标题\n\tx: 1\n".encode(), b"x" * 2_000_000, b"steps: {a: 1}\n",
    b"\x00\x01\x02", b"id: x\nsteps:\n  - explain: 5\n  - []\n  - {a: 1, b: 2}\n",
])
def test_no_input_raises(tmp_path, data):
    path = tmp_path / "weird.yaml"
    path.write_bytes(data)
    lesson, errors, _ = check_file(path)
    assert lesson is None and errors
    assert all(e.line >= 1 and e.column >= 1 for e in errors), [str(e) for e in errors]


def test_yaml_positions_of_keys_and_values():
    value, source, errors = load_yaml("a:\n  b: [1, x]\n", "f.yaml")
    assert errors == [] and value == {"a": {"b": [1, "x"]}}
    assert str(source.error(("a", "b", 1), "m")) == "f.yaml:2:10: m"
    assert str(source.error(("a", "b"), "m", key=True)) == "f.yaml:2:3: m"


@pytest.mark.parametrize("text, anchor, black, white", [
    (MOUSE, None, {"E6", "D5", "E4"}, {"E5"}),
    ("XO\n.X", "bottom-left", {"A2", "B1"}, {"B2"}),
    ("X O\n. X", "top-right", {"H9", "J8"}, {"J9"}),
    ("  C D\n3 X O\n2 . X", None, {"C3", "D2"}, {"D3"}),
    ("9 . X\n8 X O\n  A B", None, {"B9", "A8"}, {"B8"}),
])
def test_diagram_placement(text, anchor, black, white):
    diagram = parse_diagram(text, 9, anchor)
    assert diagram.errors == []
    assert set(diagram.position.black) == black and set(diagram.position.white) == white


def test_diagram_labels_and_star_points():
    diagram = parse_diagram("a + .\n. X b\n. . .", 9, "bottom-left")
    assert dict(diagram.position.labels) == {"A3": "a", "C2": "b"}
    assert diagram.position.black == ("B2",)


@pytest.mark.parametrize("text, anchor, message", [
    (". . .\n. .", "top-left", "this row has 2 points"),
    (". # .", "top-left", "unknown character `#`"),
    (". . .", None, "place a partial one"),
    ("  A B C D E F G H J K\n" + ". " * 10, None, "more than a 9x9 board"),
    ("  H J K\n9 . . .", None, "columns H..K are off a 9x9 board"),
    ("10 . .\n9 . .", None, "off a 9x9 board"),
    ("  A I\n9 . .", None, "skip I"),
])
def test_diagram_errors(text, anchor, message):
    errors = parse_diagram(text, 9, anchor).errors
    assert any(message in m for _, _, m in errors), errors


def test_check_step_for_generated_puzzles():
    step = {"puzzle": {"goal": "capture", "target": "D7", "answers": ["E7", "B9"], "text": {"zh": "抓", "en": "x"},
                       "board": ATARI}}
    errors = check_step(step, 9)
    assert [(e.path, e.message) for e in errors] == [("puzzle.answers[1]", "answer B9 does not win (refuted by E7)")]
    step["puzzle"]["answers"] = ["E7"]
    assert check_step(step, 9) == []
    assert "did you mean `puzzle`" in check_step({"puzle": {}}, 9)[0].message


def _quiz(tmp_path: Path, ask: str, board: str, extra: str) -> Quiz:
    from teach.lessons.step import build_step
    import yaml

    step = yaml.safe_load(f"quiz:\n  ask: {ask}\n  question: {{zh: 问, en: Ask}}\n{extra}  board: |\n" +
                          "".join(f"    {r}\n" for r in board.splitlines()))
    quiz, errors = build_step(step, 9)
    assert errors == []
    return quiz


def test_quiz_answers_are_computed_by_the_engine(tmp_path):
    assert _quiz(tmp_path, "liberties", MOUSE, "  target: E5\n").answers == ("F5",)
    corner = ". X . . . . . . .\nX . . . . . . . .\n" + ". . . . . . . . .\n" * 7
    assert _quiz(tmp_path, "forbidden", corner, "  to_play: white\n").answers == ("A9",)
    two = ". . . . . . . . .\n" * 3 + ". . . . X . . . .\n. . . . O . . . .\n. . . . X . . . .\n" + \
        ". . . . . . . . .\n" * 3
    assert set(_quiz(tmp_path, "atari", two, "  target: E5\n").answers) == {"D5", "F5"}
    assert _quiz(tmp_path, "legal", corner, "  point: A9\n  to_play: white\n").answer is False
    assert _quiz(tmp_path, "legal", corner, "  point: A9\n").answer is True
    finished = "X X X . X O O . O\n" * 9  # Black 45 points, White 36
    assert _quiz(tmp_path, "winner", finished, "").answer == "black"
    assert _quiz(tmp_path, "winner", finished, "  dead: [E1]\n").answer == "white"
    assert _quiz(tmp_path, "count", finished, "  color: black\n").answer == 45
    assert _quiz(tmp_path, "count", finished, "  color: white\n  dead: [E1]\n").answer == 45


def test_quiz_listed_answers_are_checked(tmp_path):
    from teach.lessons.step import build_step

    step = {"quiz": {"ask": "count", "color": "black", "answer": 40, "question": {"zh": "问", "en": "Ask"},
                     "board": "X X X . X O O . O\n" * 9}}
    _, errors = build_step(step, 9)
    assert [e.message for e in errors] == ["answer 40 is wrong: the engine finds 45"]
    step = {"quiz": {"ask": "atari", "target": "E5", "question": {"zh": "问", "en": "Ask"}, "board": MOUSE}}
    assert "already in atari" in build_step(step, 9)[1][0].message


def test_cli_check_prints_errors_and_summary_and_json(tmp_path):
    _catalog(tmp_path)
    _write(tmp_path, "first-catch", _puzzle())
    _write(tmp_path, "second", _puzzle(extra="      answers: [E7, B9]\n"), order=2)
    runner = CliRunner()
    result = runner.invoke(lessons_group, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert re.search(r"second\.yaml:15:21: answer B9 does not win \(refuted by E7\)", result.output), result.output
    assert "2 files, 1 lesson, 2 puzzles" in result.output
    result = runner.invoke(lessons_group, ["check", str(tmp_path / "first-catch.yaml"), "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["ok"] and data["puzzles"] == 1 and data["errors"] == []



def test_a_child_captures_right_after_the_first_liberties_lesson():
    # the seed lesson plan catches the mouse in its first minutes: on the lesson map, the first lesson with a
    # puzzle comes right after the first lesson about liberties, and the first puzzle there is a capture
    catalog = load_lessons(ROOT / "lessons")
    in_map_order = [lesson for topic in catalog.topics for lesson in sorted(topic.lessons, key=lambda l: (l.order, l.id))]
    first_liberties = next(i for i, lesson in enumerate(in_map_order) if lesson.topic == "liberties")
    first_puzzle = next(i for i, lesson in enumerate(in_map_order) if lesson.puzzles)
    assert first_puzzle == first_liberties + 1
    assert in_map_order[first_puzzle].puzzles[0].goal == "capture"


def test_eyes_come_before_the_races_that_use_them():
    topics = [t.id for t in load_lessons(ROOT / "lessons").topics]
    assert topics.index("two-eyes") < topics.index("eyes") < topics.index("race")


# ---------------------------------------------------------------------- the shape of the curriculum
def _curriculum():
    return load_lessons(ROOT / "lessons")


def test_first_steps_are_on_the_small_board_except_where_the_board_is_what_is_taught():
    # a 13x13 board halves a point's size on a tablet, and every idea of levels 1-2 fits a 9x9 board; the star
    # points are the one thing of those levels a small board cannot show
    big = [l.id for l in _curriculum().lessons.values() if l.level <= 2 and l.size != 9 and l.topic != "board"]
    assert big == []


def test_every_lesson_from_level_four_on_shows_its_idea_played_out_before_the_child_tries_it():
    without = [l.id for l in _curriculum().lessons.values()
               if l.level >= 4 and not any(s.kind == "demo" for s in l.steps)]
    assert without == []


def test_every_lesson_gives_at_least_four_things_to_practise():
    # puzzles; in the lessons that come before capturing, or that teach counting, the practice is tapping (quizzes)
    few = [(l.id, len(l.puzzles)) for l in _curriculum().lessons.values()
           if sum(s.kind in ("puzzle", "quiz") for s in l.steps) < 4
           or (l.puzzles and len(l.puzzles) < 4)]
    assert few == []


def test_the_curriculum_covers_every_topic_of_the_syllabus_above_its_floor():
    """Issue 4's floor per topic, and round 2's size: 80 lessons and 400 reader-proven puzzles."""
    catalog = _curriculum()
    puzzles = {t.id: sum(len(l.puzzles) for l in t.lessons) for t in catalog.topics}
    quizzes = {t.id: sum(s.kind == "quiz" for l in t.lessons for s in l.steps) for t in catalog.topics}
    floor = {"liberties": 15, "capture": 20, "escape": 10, "ko": 8, "double-atari": 8, "door-capture": 6,
             "hug-capture": 6, "ladder": 10, "net": 8, "snapback": 8, "connect-and-die": 6, "edge-capture": 6,
             "race": 8, "eyes": 8, "two-eyes": 8, "dead-shapes": 10, "seki": 3}
    assert {t: n for t, n in floor.items() if puzzles[t] < n} == {}
    assert quizzes["board"] >= 6 and puzzles["forbidden"] + quizzes["forbidden"] >= 10
    assert quizzes["counting"] + puzzles["counting"] + puzzles["ending"] >= 5
    assert len(catalog.lessons) >= 80 and sum(puzzles.values()) >= 400
