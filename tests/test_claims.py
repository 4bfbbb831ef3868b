"""What explain steps and the right answers of choice quizzes say about the board is proven by the reader:
seki, alive, dead, can be caught, forbidden point. A sentence about what a move would do is not read as a claim."""

from __future__ import annotations

from teach.lessons import check_step
from teach.lessons.claims import claims_in

# One eye each (C1 and G1) and the shared liberty E1, inside two living walls: a seki the reader proves both ways.
SEKI = """\
. . . . O X . . .
. . . . O X . . .
. . . . O X . . .
. . . . O X . . .
. . . . O X . . .
. . . . O X . . .
O O O O O X X X X
O X X X X O O O X
O X . X . O . O X
"""
# The old lesson's position: black stones inside White's eye space, White without eyes inside a living black
# wall. If Black fills A, White must capture five stones and Black kills the bulky five: no seki.
NOT_SEKI = """\
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X . .
X O O O O O X . .
X O X X X O X . .
X O a X b O X . .
"""
# Two real eyes, A and B, on the bottom edge: White is alive.
TWO_EYES = """\
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X . .
X O O O O O X . .
X O a O b O X . .
"""
# A straight three: whoever takes B first decides, so White is neither alive nor dead as it stands.
STRAIGHT_THREE = """\
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X . .
X O O O O O X . .
X O a b c O X . .
"""
CORNER = """\
a X . . . . . . .
X . . . . . . . .
""" + ". . . . . . . . .\n" * 7


def _explain(board: str, zh: str, marks: str = "") -> dict:
    step = {"explain": {"text": {"zh": zh, "en": "text"}, "board": board}}
    if marks:
        step["explain"]["marks"] = {"triangle": marks.split()}
    return step


def _messages(step: dict) -> list[str]:
    return [e.message for e in check_step(step, 9)]


def test_a_real_seki_is_proven_and_the_old_false_one_is_refused():
    assert _messages(_explain(SEKI, "谁也吃不掉谁，这叫双活。", "B1 F1")) == []
    wrong = _messages(_explain(NOT_SEKI, "黑白两边都是活棋，这叫双活。", "C2 B2"))
    assert len(wrong) == 1 and "the reader kills" in wrong[0] and "双活" in wrong[0]


def test_a_seki_claim_must_mark_its_stones():
    wrong = _messages(_explain(SEKI, "这叫双活。"))
    assert len(wrong) == 1 and "triangle" in wrong[0]


def test_alive_and_dead_claims_are_read():
    assert _messages(_explain(TWO_EYES, "白棋有两只真眼，永远安全。")) == []
    assert _messages(_explain(TWO_EYES, "白棋是活棋。")) == []
    wrong = _messages(_explain(TWO_EYES, "白棋是死棋。"))
    assert len(wrong) == 1 and "live with white to play" in wrong[0]
    # a straight three is alive only for the side that takes the vital point first
    assert "the reader kills" in _messages(_explain(STRAIGHT_THREE, "白棋是活棋。"))[0]
    assert "live with white to play" in _messages(_explain(STRAIGHT_THREE, "白棋是死棋。"))[0]
    assert _messages(_explain(STRAIGHT_THREE, "白棋会被吃掉。")) == []  # with Black to play, it is caught


def test_a_sentence_about_a_move_is_not_a_claim_about_the_position():
    assert _messages(_explain(STRAIGHT_THREE, "如果白棋下B，白棋就是活棋。")) == []
    assert _messages(_explain(STRAIGHT_THREE, "黑棋先占B，白棋就是死棋。")) == []
    assert claims_in("白棋下A，有两只眼，活了。") == []


def test_forbidden_point_claims_name_the_colour_and_the_point():
    assert _messages(_explain(CORNER, "A点是白棋的禁着点。")) == []
    wrong = _messages(_explain(CORNER, "A点是黑棋的禁着点。"))
    assert len(wrong) == 1 and "A9 is a legal move for black" in wrong[0]
    assert _messages(_explain(CORNER, "A点不是黑棋的禁着点。")) == []
    assert "forbidden for white" in _messages(_explain(CORNER, "A点不是白棋的禁着点。"))[0]
    assert _messages(_explain(CORNER, "A点好像是黑棋的禁着点。")) == []  # how it looks is not a claim


def test_the_right_answer_of_a_choice_quiz_is_a_claim_too():
    def quiz(answer: int) -> dict:
        return {"quiz": {"ask": "choice", "board": TWO_EYES, "answer": answer,
                         "question": {"zh": "白棋有两只真眼，安全吗？", "en": "Is White safe?"},
                         "choices": [{"zh": "安全，是活棋。", "en": "Yes."}, {"zh": "不安全，会被吃掉。", "en": "No."}]}}
    assert _messages(quiz(0)) == []
    wrong = _messages(quiz(1))  # the colour comes from the question
    assert len(wrong) == 1 and "cannot be killed" in wrong[0]
