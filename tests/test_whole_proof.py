"""Whole-puzzle proofs (teach.go.proof): every legal move at every position a child can reach, judged once and
stored; the "slow" verdict for a move that keeps the win but brings it no nearer; the store and its checks."""

from __future__ import annotations

import json
import random
import re
import textwrap

import pytest

from teach.go.judge import Goal, Judge
from teach.go.proof import ENGINE_VERSION, Proof, ProofError, ProvenJudge, position_key, prove, puzzle_key
from teach.lessons import check, check_paths, proofstore
from conftest import build_position

# White A1 in the corner, shut in by black B2, C1 and A3: two liberties (A2, B1), and whichever White takes it
# is left with one. Black can capture it even after passing once.
CORNER = [
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "X........",
    ".X.......",
    "O.X......",
]

# White F5 caught in a ladder (black to play F4 or G5), the white stone at H3 off its path.
LADDER = [
    ".........",
    ".........",
    ".........",
    ".....X...",
    "....XO...",
    "......X..",
    ".......O.",
    ".........",
    ".........",
]


def mirrored(rows: list[str]) -> list[str]:
    return [r[::-1] for r in rows]


def corner_judge() -> Judge:
    return Judge(build_position(CORNER, "black"), Goal("capture", ("A1",)))


def test_a_move_elsewhere_while_the_stone_is_caught_with_a_move_to_spare_is_slow_not_praised():
    judge = corner_judge()
    far = judge.judge([], "H8")
    assert far.result == "slow" and far.reply is None
    # inside the net, but taking no liberty from the stone: still no nearer
    assert judge.judge([], "C2").result == "slow"


def test_a_move_that_takes_a_liberty_goes_on_and_the_capture_ends_the_line():
    judge = corner_judge()
    first = judge.judge([], "A2")
    assert first.result == "continue" and first.reply not in (None, "B1")  # B1 would be suicide for White
    assert judge.judge(["A2", first.reply], "B1").result == "correct"


def test_a_needed_move_is_followed_even_though_it_is_not_a_capture():
    judge = Judge(build_position(LADDER, "black"), Goal("capture", ("F5",)))
    first = judge.judge([], "F4")
    assert first.result == "continue" and first.reply is not None
    # a move elsewhere lets the stone run: it loses, it is not merely slow
    assert judge.judge([], "J1").result == "wrong"


def test_the_proof_holds_every_reachable_position_and_every_line_ends():
    judge = corner_judge()
    proof = prove(judge)
    assert len(proof.positions) == 3  # the start, and after each of the two moves that take a liberty
    for key, line in proof.lines.items():
        game = judge._replay(line)
        assert position_key(game) == key
        stored = {m for *_, names in proof.positions[key] for m in names.split()}
        assert stored == set(game.legal_moves())
        for result, reason, reply, ko, names in proof.positions[key]:
            assert result in ("correct", "wrong", "continue", "slow")
            assert reason != "unknown"
            if result == "continue":  # the position after the move and its reply is proven too
                after = judge._replay(line + [names.split()[0], reply])
                assert position_key(after) in proof.positions


@pytest.mark.parametrize("rows,target", [(CORNER, "A1"), (mirrored(CORNER), "J1")])
def test_a_stored_answer_equals_a_fresh_reading(rows, target):
    start = build_position(rows, "black")
    proof = Proof.from_json("k", json.loads(json.dumps(prove(Judge(start, Goal("capture", (target,)))).to_json())))
    lines = prove(Judge(start, Goal("capture", (target,)))).lines
    rng = random.Random(7)
    for key, line in lines.items():
        game = Judge(start, Goal("capture", (target,)))._replay(line)
        for move in rng.sample(game.legal_moves(), 6):
            fresh = Judge(start, Goal("capture", (target,))).judge(line, move)
            assert proof.verdict(game, move) == fresh, (line, move)


def test_a_white_stone_with_nothing_sensible_left_passes_and_the_child_carries_on():
    # White A1 with one liberty (B1), which would be suicide to fill: after black's A2... White passes
    rows = CORNER[:-2] + [".X.......", "O.X......"]
    rows[-3] = "XX......."  # A3, B3 black: after A2, White has no move that helps, nor any that hurts
    judge = Judge(build_position(rows, "black"), Goal("capture", ("A1",)))
    first = judge.judge([], "A2")
    assert first.result == "continue"
    assert judge.judge(["A2", first.reply], "B1").result == "correct"


def test_a_proven_judge_answers_from_the_proof_and_reads_what_it_does_not_hold():
    judge = corner_judge()
    proven = ProvenJudge(corner_judge(), prove(judge))
    assert proven.judge([], "A2").result == "continue" and proven.looked_up == 1 and proven.read == 0
    assert proven.judge([], "A1").result == "illegal" and proven.read == 1  # an occupied point: never proven


def test_a_puzzle_key_changes_with_the_puzzle_and_with_the_engine():
    a = build_position(CORNER, "black")
    b = build_position(LADDER, "black")
    assert puzzle_key(a, "capture", ("A1",)) == puzzle_key(build_position(CORNER, "black"), "capture", ("A1",))
    assert puzzle_key(a, "capture", ("A1",)) != puzzle_key(b, "capture", ("D5",))
    assert puzzle_key(a, "capture", ("A1",)) != puzzle_key(a, "capture", ("A1",), engine=ENGINE_VERSION + "x")


LESSON = """\
    id: NAME
    topic: capture
    order: ORDER
    level: 1
    size: 9
    sticker:
      id: NAME
      picture: cat
      name: {zh: 猫, en: Cat}
    title: {zh: 捉, en: Catch}
    intro: {zh: 来捉小老鼠, en: Catch the mouse}
    recap: {zh: 捉到了, en: Caught}
    steps:
      - puzzle:
          goal: capture
          target: TARGET
          to_play: black
          text: {zh: 吃掉白子, en: Capture the white stone}
          board: |
    BOARD
    """


def write_lessons(tmp_path, puzzles: dict[str, tuple[list[str], str]]):
    from teach.lessons.loader import DEFAULT_DIR

    (tmp_path / "catalog.yaml").write_text((DEFAULT_DIR / "catalog.yaml").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    for name, (rows, target) in puzzles.items():
        board = "\n".join(" " * 8 + " ".join(r) for r in rows)
        text = textwrap.dedent(LESSON).replace("NAME", name).replace("ORDER", str(90 + ord(name[-1]) % 10))
        text = text.replace("TARGET", target).replace("BOARD", board.lstrip() and board)
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")


def lessons_app(lessons_dir):
    """The web app serving the lessons (and their proof store) of ``lessons_dir``."""
    from teach.web import create_app

    return create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://",
                       "LESSONS_DIR": str(lessons_dir), "REVIEW_RUNNER": False})


def test_the_checker_proves_whole_and_a_changed_lesson_proves_again_only_its_own_puzzle(tmp_path):
    write_lessons(tmp_path, {"proof-a": (CORNER, "A1"), "proof-b": (mirrored(CORNER), "J1")})
    first = check_paths([tmp_path], workers=1, whole=True)
    assert first.ok, [str(e) for e in first.errors]
    assert first.proven == 2 and len(first.store.proofs) == 2
    proofstore.write(first.store, first.store.path)
    again = check_paths([tmp_path], workers=1, whole=True)
    assert again.ok and again.proven == 0 and set(again.store.proofs) == set(first.store.proofs)
    moved = CORNER[::-1]  # the same shape in the top corner: another puzzle
    write_lessons(tmp_path, {"proof-b": (moved, "A9")})
    changed = check_paths([tmp_path], workers=1, whole=True)
    assert changed.ok and changed.proven == 1
    kept = set(first.store.proofs) & set(changed.store.proofs)
    assert len(kept) == 1 and first.store.where[kept.pop()][0] == "proof-a"


def test_a_puzzle_that_cannot_be_proven_everywhere_is_an_error_naming_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(check, "WHOLE_PROOF_POSITIONS", 1)  # a budget the corner's lines go past
    write_lessons(tmp_path, {"proof-b": (CORNER, "A1")})
    report = check_paths([tmp_path], workers=1, whole=True)
    assert not report.ok
    error = next(e for e in report.errors if "whole puzzle" in e.message)
    assert error.file.endswith("proof-b.yaml") and error.line > 0
    assert "more than 1 positions" in error.message
    assert " at A2 " in error.message or " at B1 " in error.message  # the line the proof could not follow


def test_a_damaged_store_is_refused_with_its_reason(tmp_path):
    path = tmp_path / proofstore.STORE_NAME
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(proofstore.StoreError, match="cannot read the proof store"):
        proofstore.read(path)
    assert proofstore.load(path).problem and not proofstore.load(path).proofs
    path.write_text(json.dumps({"format": 1, "engine": "another", "puzzles": {"k": {}}}), encoding="utf-8")
    assert proofstore.read(path).proofs == {}  # another reader's proofs: none of them holds here


def test_the_checkout_s_proof_store_is_current():
    """CI's guard: every lesson puzzle has a proof made by this engine (`teach lessons prove --check`)."""
    from click.testing import CliRunner

    from teach.lessons.cli import lessons_group

    result = CliRunner().invoke(lessons_group, ["prove", "--check"])
    assert result.exit_code == 0, result.output
    assert "current" in result.output


def test_a_proof_that_cannot_finish_names_where_it_stopped():
    with pytest.raises(ProofError) as e:
        prove(corner_judge(), max_positions=1)
    assert e.value.line[:1] in (["A2"], ["B1"])


def test_the_web_app_answers_lesson_moves_from_the_stored_proofs(tmp_path):
    from teach.go.proof import ProvenJudge
    from teach.web import content

    write_lessons(tmp_path, {"proof-a": (CORNER, "A1")})
    report = check_paths([tmp_path], workers=1, whole=True)
    proofstore.write(report.store, report.store.path)
    with lessons_app(tmp_path).app_context():
        judge = content.judge_for("proof-a", 0)
        assert isinstance(judge, ProvenJudge)
        first = judge.judge([], "A2")
        assert first.result == "continue"
        assert judge.judge(["A2", first.reply], "B1").result == "correct"
        assert judge.judge([], "H8").result == "slow"
        assert judge.looked_up == 3 and judge.read == 0  # nothing read while a kid waits
        assert content.prewarm() == 0  # a proven puzzle needs no solving at start-up


def serve_to_the_demo_kid(app, client, tmp_path, name: str, rows: list[str], target: str, edit=None) -> int:
    """One proven lesson (``edit`` may rewrite its text) served by ``app`` with the demo school; the demo kid is
    signed in on ``client``: their id."""
    import shutil
    from pathlib import Path

    from teach.web.demo import create_demo
    from test_kid_pages import kid_login

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    write_lessons(lessons, {name: (rows, target)})
    shutil.copy(Path(__file__).parent / "web_lessons" / "catalog.yaml", lessons)
    path = lessons / f"{name}.yaml"
    text = path.read_text(encoding="utf-8").replace("picture: cat", "picture: badge")
    path.write_text(edit(text) if edit else text, encoding="utf-8")
    report = check_paths([lessons], workers=1, whole=True)
    assert report.ok, [str(e) for e in report.errors]
    proofstore.write(report.store, report.store.path)
    app.config["LESSONS_DIR"] = str(lessons)
    with app.app_context():
        create_demo()
    return kid_login(client, app)


def test_a_slow_move_is_taken_back_on_the_page_stores_nothing_and_counts_towards_help(app, client, tmp_path):
    """A kid plays elsewhere while the stone is caught with a move to spare: told it works but there is a better
    move, nothing stored, no mistake; two of them bring the board's hint; the right move then goes on as before."""
    import sqlalchemy as sa

    from teach.models import Attempt, LessonProgress
    from teach.web.extensions import db

    kid_id = serve_to_the_demo_kid(app, client, tmp_path, "proof-a", CORNER, "A1")
    assert client.get("/learn/proof-a/0").status_code == 200
    slow = client.post("/learn/proof-a/0/move", json={"move": "H8", "attempt": None, "ply": 0},
                       headers={"Accept-Language": "en"}).get_json()
    assert slow["result"] == "slow" and "better move" in slow["message"]
    assert slow["attempt"] is None and slow["ply"] == 0
    assert "stones" not in client.post("/learn/proof-a/0/board-hint", json={}).get_json()
    zh = client.post("/learn/proof-a/0/move", json={"move": "H8", "attempt": None, "ply": 0},
                     headers={"Accept-Language": "zh"}).get_json()
    assert zh["result"] == "slow" and "更好的一步" in zh["message"]
    with app.app_context():
        assert db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid_id)).all() == []
        progress = db.session.scalar(sa.select(LessonProgress).where(LessonProgress.kid_id == kid_id))
        assert progress is None or (progress.mistakes or 0) == 0
    # no miss for the stars, but a child who keeps playing such moves has not found the way: after two, the board
    # hints as after two misses (the first one alone did not)
    hint = client.post("/learn/proof-a/0/board-hint", json={}).get_json()
    assert hint["misses"] == 2 and hint["stones"]
    on = client.post("/learn/proof-a/0/move", json={"move": "A2", "attempt": None, "ply": 0}).get_json()
    assert on["result"] == "continue" and on["ply"] == 2


def test_a_proof_that_cannot_finish_keeps_the_positions_it_proved_each_with_every_move_a_fresh_reading_gives(
        tmp_path):
    with pytest.raises(ProofError) as e:
        prove(corner_judge(), max_positions=1)
    partial = e.value.partial
    assert partial is not None and not partial.complete and len(partial.positions) == 1
    fresh, start = corner_judge(), build_position(CORNER, "black")
    for move in start.legal_moves():  # the one position held is the start, every legal move in it judged
        stored, read = partial.verdict(start, move), fresh.judge([], move)
        assert (stored.result, stored.reason, stored.reply) == (read.result, read.reason, read.reply), move
    # the store keeps it beside the record of why the proof stopped, and reads it back as partial
    store = proofstore.Store(tmp_path / proofstore.STORE_NAME)
    store.refuse(partial.key, "proof-a", 0, str(e.value), e.value.line, partial)
    proofstore.write(store, store.path)
    back = proofstore.read(store.path)
    assert set(back.unproven) == {partial.key} and back.proofs == {}
    assert back.partial[partial.key].positions == partial.positions and not back.partial[partial.key].complete


def test_a_fresh_server_answers_what_a_too_big_proof_reached_with_lookups_and_reads_only_the_rest(
        tmp_path, monkeypatch):
    from teach.lessons import wholeproof
    from teach.lessons.loader import load_lessons
    from teach.web import content

    monkeypatch.setattr(wholeproof, "WHOLE_PROOF_POSITIONS", 1)  # a budget the corner's lines go past
    write_lessons(tmp_path, {"proof-a": (CORNER, "A1")})
    store = proofstore.Store(tmp_path / proofstore.STORE_NAME)
    wholeproof.prove_all(store, wholeproof.puzzles(load_lessons(tmp_path)), workers=1)
    assert len(store.unproven) == 1 and len(store.partial) == 1
    with lessons_app(tmp_path).app_context():
        judge = content.judge_for("proof-a", 0)
        assert isinstance(judge, ProvenJudge)
        first = judge.judge([], "A2")
        assert first.result == "continue" and judge.judge([], "H8").result == "slow"
        # the start position: lookups, but for a "continue" whose next position the proof does not hold, which is
        # read live and looked ahead (the proof could not settle it)
        assert (judge.looked_up, judge.read) == (1, 1)
        assert judge.judge(["A2", first.reply], "B1").result == "correct"
        assert (judge.looked_up, judge.read) == (1, 2)  # past what the proof reached: read live
        assert content.prewarm() == 1  # the rest of it is solved at start-up where asked to


def test_a_puzzle_won_through_a_ko_is_solved_by_taking_the_ko_and_the_computer_never_answers_against_the_rules():
    """Black saves C2 only by taking a ko at E2. White would fight on by taking it straight back at D2, which the
    ko rule forbids this turn: taking the ko solves the puzzle (as a ko), and every answer the proof stores is a
    move the rules allow."""
    rows = ["........."] * 5 + ["OOOX.....", "OOOXO....", "OOXO.O...", "O.XXO...."]
    judge = Judge(build_position(rows, "black"), Goal("save", ("C2",)))
    taken = judge.judge([], "E2")
    assert (taken.result, taken.ko, taken.reply) == ("correct", True, None)
    proof = prove(judge, cpu_seconds=20)
    assert proof.complete
    for key, line in proof.lines.items():
        for result, _reason, reply, _ko, names in proof.positions[key]:
            if result != "continue":
                continue
            for move in names.split():
                after = judge._replay(line + [move])
                assert after.is_legal(reply), (line, move, reply)


def test_taking_the_ko_in_a_ko_puzzle_is_praised_as_a_ko_in_both_languages(app, client, tmp_path):
    rows = ["........."] * 5 + ["OOOX.....", "OOOXO....", "OOXO.O...", "O.XXO...."]
    serve_to_the_demo_kid(app, client, tmp_path, "proof-k", rows, "C2",
                          edit=lambda text: re.sub(r"( +)goal: capture", r"\1goal: save\n\1ko: true", text))
    said = {}
    for lang in ("en", "zh"):
        answer = client.post("/learn/proof-k/0/move", json={"move": "E2", "attempt": None, "ply": 0},
                             headers={"Accept-Language": lang}).get_json()
        assert answer["result"] == "correct" and answer["reply"] is None
        said[lang] = answer["message"]
    assert "ko" in said["en"] and "劫" in said["zh"]


def test_the_computer_s_answer_in_a_ko_fight_for_life_is_never_the_forbidden_retake():
    """White's second eye hangs on D1: Black takes it with a ko at C1, and White may not take back at D1 at once.
    The kill is won as a ko, and no verdict in the puzzle proposes an answer the rules forbid."""
    rows = ["........."] * 6 + ["XXXXX....", "OOOXX....", ".O.OX...."]
    judge = Judge(build_position(rows, "black"), Goal("kill", ("A2",)))
    taken = judge.judge([], "C1")
    assert (taken.result, taken.ko) == ("correct", True)
    start = build_position(rows, "black")
    for move in start.legal_moves():
        v = judge.judge([], move)
        if v.reply:
            assert judge._replay([move]).is_legal(v.reply), (move, v)


# White E3 with two roads (E2, F3) and a white friend at G2: the reader calls the atari from the right, F3, a win,
# but after White's E2 (three roads, the friend near) it finds no move that catches the stones — as GNU Go says
BREAKER = [
    ".........",
    ".........",
    ".........",
    ".........",
    ".........",
    "....XX...",
    "...XO....",
    "......O..",
    ".........",
]


def test_a_move_the_reader_calls_winning_that_leads_where_nothing_wins_is_wrong_once_the_lines_are_read_to_the_end():
    judge = Judge(build_position(BREAKER, "black"), Goal("capture", ("E3",)))
    assert judge.judge([], "F3").result == "continue" and judge.judge([], "F3").reply == "E2"
    assert {judge.judge(["F3", "E2"], m).result for m in ("D2", "F2", "E1", "D1")} == {"wrong"}
    with pytest.raises(ProofError, match="no first move wins once every line is read to its end"):
        prove(judge)


# Retry puzzles from children's games (the review's "captures you missed") kept without a whole proof: the reader
# called a move "continue", and after the computer's reply every move was wrong, the shown answer too.
REVIEW_A = ["...O..OX.", ".........", "..XXOX...", "...X.....", "....O....", ".........", "......OX.", ".O...O.X.",
            "...O...X."]
REVIEW_B = ["..XX..O..", "X.XO.....", ".X...O.X.", "XO......O", "....O....", "........O", "....X....", ".....O...",
            "...OX...."]
REVIEW_KO = ["......O..", "......OXX", "O........", "...OO....", ".O..OO..X", "......XX.", "...X..X..", ".OX...XO.",
             ".XO....X."]


def live_judge(rows: list[str], target: str, capped: bool = False) -> ProvenJudge:
    """A puzzle's judge as the web reads a position no proof holds; looking ahead as far as it takes (what the
    background reading does), or within the request's CPU time (``capped``, what a request does)."""
    from teach.go.judge import SERVER_LIMITS

    judge = ProvenJudge(Judge(build_position(rows, "black"), Goal("capture", (target,)), SERVER_LIMITS), None)
    if not capped:
        judge.ahead_seconds = None
    return judge


@pytest.mark.parametrize("rows, target, line, move", [
    (BREAKER, "E3", [], "F3"),
    (REVIEW_A, "E7", ["E6", "E8"], "C9"),
    (REVIEW_B, "D1", ["E2", "C1", "C2", "B1", "A1", "A2"], "D4"),
])
def test_a_move_read_live_that_leads_where_nothing_wins_is_wrong_refuted_by_its_reply(rows, target, line, move):
    live = live_judge(rows, target)
    hopeful = live.reader.judge(line, move)  # the reader on its own: the move goes on
    assert hopeful.result == "continue"
    # what is true after its reply: no move of the child's wins (each read on its own)
    after = line + [move, hopeful.reply]
    assert {live.reader.judge(after, m).result for m in live.reader._replay(after).legal_moves()} == {"wrong"}
    verdict = live.judge(line, move)
    assert (verdict.result, verdict.reply) == ("wrong", hopeful.reply) and verdict.reason in ("escapes", "self-atari")


# a retry puzzle's long ko fight: the move the reader alone calls winning after E2 leads, one step further, where
# nothing wins
REVIEW_LONG = [".XXX.....", "X.XXO..X.", "O....XO.O", "..OO..XOX", "...OXOOO.", "OOX...O..", ".XXX...X.", ".XX....OO",
               ".OXO.OO.."]
LONG_LINE = ["B7", "A6", "B6", "A5", "A3", "B5", "C7", "C5", "E6", "D4", "E4", "D7", "A1", "E7", "H7", "F8", "F6", "G8",
             "F4", "H9", "J8", "E3", "F3", "F2", "G3", "J5"]


def test_a_move_whose_way_on_fails_a_step_further_is_wrong_and_so_many_steps_are_looked_at():
    from teach.go.proof import AHEAD_STEPS, look_ahead

    live = live_judge(REVIEW_LONG, "A7")
    reader = live.reader
    assert reader.judge(LONG_LINE, "E2").result == "continue" and reader.judge(LONG_LINE, "E2").reply == "G9"
    after = LONG_LINE + ["E2", "G9"]
    winning = {m: v for m in reader._replay(after).legal_moves()
               if (v := reader.judge(after, m)).result in ("continue", "correct", "slow")}
    assert set(winning) == {"E9"}  # the one way on, as the reader sees it here
    further = after + ["E9", winning["E9"].reply]
    assert {reader.judge(further, m).result for m in reader._replay(further).legal_moves()} == {"wrong"}
    assert look_ahead(reader, LONG_LINE, "E2", steps=1).result == "continue"  # one step is not enough here
    assert AHEAD_STEPS >= 2 and live.judge(LONG_LINE, "E2").result == "wrong"


@pytest.mark.parametrize("rows, target, line, move", [
    (REVIEW_A, "E7", ["E6", "E8"], "C9"),
    (REVIEW_LONG, "A7", LONG_LINE, "E2"),
])
def test_a_request_looks_ahead_within_its_time_and_past_it_the_move_is_not_settled(rows, target, line, move):
    """A request does not wait for a long look ahead: the move is then one it could not settle ("unknown": the
    page shows the computer thinking and the move is read again in the background). Never the hopeful verdict."""
    settled = live_judge(rows, target).judge(line, move)
    assert settled.result == "wrong" and settled.reason != "unknown"
    request = live_judge(rows, target, capped=True)
    assert request.ahead_seconds is not None and request.ahead_seconds > 0
    verdict = request.judge(line, move)
    assert verdict.result == "wrong" and verdict.reason in (settled.reason, "unknown")
    no_time = live_judge(rows, target, capped=True)
    no_time.ahead_seconds = 0.0
    assert (no_time.judge(line, move).result, no_time.judge(line, move).reason) == ("wrong", "unknown")
    # a move the reader settles on its own (no way on to look at) is answered whatever the time left
    wrong_at_once = next(m for m in no_time.reader._replay(line).legal_moves()
                         if no_time.reader.judge(line, m).result == "wrong"
                         and no_time.reader.judge(line, m).reason != "unknown")
    assert no_time.judge(line, wrong_at_once) == no_time.reader.judge(line, wrong_at_once)


def test_looking_ahead_leaves_the_winning_line_as_it_was():
    live = live_judge(REVIEW_A, "E7")
    line: list[str] = []
    for move in ("E6", "F8", "C8", "B9"):  # the answer, and the computer's best replies, to the capture
        verdict = live.judge(line, move)
        assert verdict.result == "continue", (line, move)
        line += [move, verdict.reply]
    assert live.judge(line, "F9").result == "correct"


def test_a_move_that_wins_only_through_a_ko_the_reply_then_takes_is_wrong_read_live():
    """Black's A3 keeps the capture only by the ko at C2; White's reply C3 takes that ko, and taking it straight
    back is against the rules (a puzzle has no ko threat to play first): A3 has let the stones go."""
    live = live_judge(REVIEW_KO, "B2")
    line = ["B3", "A1", "C4", "D2"]
    hopeful = live.reader.judge(line, "A3")
    assert hopeful.result == "continue" and hopeful.ko and hopeful.reply == "C3"
    assert live.reader.judge(line + ["A3", "C3"], "C2").reason == "ko"  # the retake is forbidden now
    verdict = live.judge(line, "A3")
    assert verdict.result == "wrong" and verdict.reply == "C3"


def test_settling_a_proof_turns_the_over_hopeful_move_into_the_wrong_one_its_reply_refutes_and_the_store_check_sees_it(
        tmp_path):
    from teach.go.proof import settle
    from teach.lessons import wholeproof
    from teach.lessons.loader import load_lessons

    # the proof as the reader first writes it: F3 continues, and after E2 every move is wrong
    judge = Judge(build_position(BREAKER, "black"), Goal("capture", ("E3",)))
    start, after = position_key(judge._replay([])), position_key(judge._replay(["F3", "E2"]))
    proof = Proof(puzzle_key(judge.start, "capture", ("E3",)), {
        start: [["continue", None, "E2", 0, "F3"], ["correct", None, None, 0, "A1"]],
        after: [["wrong", "escapes", "D2", 0, "D2 F2"]]})
    assert settle(proof, judge._replay) == 1
    assert proof.positions[start] == [["correct", None, None, 0, "A1"], ["wrong", "escapes", "E2", 0, "F3"]]
    assert proof.verdict(judge._replay([]), "F3").result == "wrong"
    # a stored proof that is not read to its end is not current, and `teach lessons prove` settles it
    write_lessons(tmp_path, {"proof-a": (CORNER, "A1")})
    store = proofstore.Store(tmp_path / proofstore.STORE_NAME)
    items = wholeproof.puzzles(load_lessons(tmp_path))
    wholeproof.prove_all(store, items, workers=1)
    assert wholeproof.currency(store, items).current
    (entry,) = store.proofs.values()
    first = entry.positions[position_key(build_position(CORNER, "black"))]
    moves = next(g for g in first if g[0] == "continue")[4].split()
    first.append(["correct", None, None, 0, "Q9"])  # a made-up winner, so the start keeps one
    for group in entry.positions.values():
        if group is not first:
            group[:] = [["wrong", "escapes", g[2] or "A9", g[3], g[4]] for g in group]  # every later move loses
    assert not wholeproof.currency(store, items).current
    assert wholeproof.settle_stored(store, items) == 1 and wholeproof.currency(store, items).current
    assert all(entry.verdict(build_position(CORNER, "black"), m).result == "wrong" for m in moves)


def test_a_proof_stops_at_its_wall_clock_limit_whatever_its_cpu_budget(monkeypatch):
    """A caller that must answer by a time (a review's child process, an upload's) is not held past it by a busy
    machine: the proof stops there with its line, keeping what it proved."""
    import time

    with pytest.raises(ProofError, match="ran out of time") as e:
        prove(corner_judge(), cpu_seconds=60, until=time.monotonic() - 1)
    assert e.value.line and e.value.partial is None


def test_no_lesson_puzzle_is_lost_once_its_lines_are_read_to_the_end():
    """A puzzle whose whole proof finds no winning first move would teach something false (the reader's first
    reading was too hopeful): the store records it, and the curriculum must not ship one."""
    from teach.lessons.loader import DEFAULT_DIR

    store = proofstore.read(proofstore.store_path(DEFAULT_DIR))
    lost = [f"{e['lesson']} step {e['step'] + 1}" for e in store.unproven.values() if "no first move wins" in e["why"]]
    assert lost == []


def test_a_continue_that_leaves_a_partial_proof_is_looked_ahead_not_taken_on_trust():
    """A ladder drill's puzzle whose proof stopped early (a practice set's proof has 0.3 s): it held the position
    after E5 F6 with a loose E7 filed as ``continue`` (answered F7), but not the position after F7. A walk's child
    was told "Good move!" there, and then every move was "the mouse ran away". The proof holds no line to settle
    beyond it, so the judge reads the move live and looks ahead, as for a move the proof does not hold."""
    from teach.go import Game
    from teach.go.proof import look_ahead
    from teach.go.reading import Limits

    game = Game.from_sgf("(;SZ[9]AB[gd][ge][ff]AW[fe]PL[B])")  # Black G6 G5 F4, White F5: catch F5
    judge = Judge(game, Goal("capture", ("F5",)), Limits(nodes=4_000_000, seconds=600))
    line = ["E5", "F6"]
    after = judge._replay(line)
    proof = Proof("partial", complete=False)
    proof.positions[position_key(after)] = [["continue", None, "F7", 0, "E7"]]  # as a first, hopeful read filed it
    proven = ProvenJudge(judge, proof)
    proven.ahead_seconds = None
    verdict = proven.judge(line, "E7")
    truth = look_ahead(Judge(game, Goal("capture", ("F5",)), Limits(nodes=4_000_000, seconds=600)), line, "E7")
    assert (verdict.result, verdict.reply) == (truth.result, truth.reply) == ("wrong", "F7")
    assert proven.read == 1 and proven.looked_up == 0
    # a complete proof is taken at its word: every line in it was read to its end (``settle``)
    proof.complete = True
    assert ProvenJudge(judge, proof).judge(line, "E7").result == "continue"
