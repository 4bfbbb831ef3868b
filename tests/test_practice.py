"""Endless practice: the generator is deterministic, and every step it hands out passes the lesson linter, with
answers equal to what the judge proves."""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from teach.go.judge import Goal, Judge
from teach.go.reading import WIN, ladder_attack
from teach.lessons import check_step, parse_diagram
from teach.lessons.practice import DRILLS, LEVELS, PracticeError, PracticeKey, drawn, generate, to_yaml
from teach.lessons.step import build_step

# every drill and level on 9x9; every drill on 13x13 (one level each, in turn), one step per call
CASES = [(drill, level, 9) for drill in DRILLS for level in LEVELS] + [
    (drill, LEVELS[i % len(LEVELS)], 13) for i, drill in enumerate(DRILLS)]


def _body(step: dict) -> dict:
    (body,) = step.values()
    return body


@pytest.mark.parametrize("drill,level,size", CASES)
def test_every_step_passes_the_linter_and_the_judge(drill, level, size):
    (step,) = generate(drill, level, seed=f"case-{drill}-{level}", count=1, size=size)
    built, errors = build_step(step, size)
    assert errors == []
    body = _body(step)
    position = parse_diagram(body["board"], size).position
    assert position.size == size
    if "puzzle" in step:
        # the linter proved the listed answers are exactly the judge's winning moves; say it here too
        assert sorted(body["answers"]) == sorted(built.winning)
        assert set(built.winning.values()) == {"win"}
        assert 1 <= len(body["answers"]) <= 2
        target = body["target"][0]
        game = position.game("black")
        if drill in ("capture", "ladder", "net"):
            assert body["goal"] == "capture" and game.color_at(target) == "white"
        if drill == "escape":
            assert body["goal"] == "save" and len(game.liberties(target)) == 1
        if drill == "net":
            for move in body["answers"]:  # a net is not an atari
                game.play(move)
                assert len(game.liberties(target)) >= 2
                game.undo()
    elif body["ask"] == "choice":
        # "will the ladder started at a catch the stone?": the judge and the ladder reader both agree
        assert drill == "ladder"
        (start,) = [point for point, label in position.label_points.items() if label == "a"]
        target = body["marks"]["triangle"][0]
        game = position.game("black")
        verdict = Judge(game, Goal("capture", (target,))).judge([], start)
        catches = verdict.result in ("correct", "continue")
        assert body["answer"] == (0 if catches else 1)
        result, _ = ladder_attack(game, game.point(target))
        assert (result == WIN) == catches
    else:
        assert body["ask"] == drill
        assert sorted(body["answers"]) == sorted(built.answers)


def test_check_step_accepts_a_whole_set():
    for step in generate("atari", 2, seed=3, count=4):
        assert check_step(step, 9) == []


def test_same_seed_same_puzzles_and_a_shorter_set_is_a_prefix():
    first = generate("capture", 2, seed=11, count=3)
    assert generate("capture", 2, seed=11, count=3) == first
    assert generate("capture", 2, seed=11, count=2) == first[:2]
    assert generate("capture", 2, seed="11", count=1) == first[:1]  # the CLI's seed is text


def test_different_seeds_differ():
    a = generate("liberties", 2, seed=1, count=5)
    b = generate("liberties", 2, seed=2, count=5)
    assert a != b
    boards = [_body(s)["board"] for s in a]
    assert len(set(boards)) == len(boards)  # no repeats inside a set


def test_same_puzzles_in_another_process_with_another_hash_seed():
    code = ("import json; from teach.lessons.practice import generate; "
            "print(json.dumps(generate('escape', 3, seed=5, count=2), ensure_ascii=False))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert json.loads(out) == generate("escape", 3, seed=5, count=2)


def test_levels_grow():
    def stones(drill, level):
        steps = generate(drill, level, seed=9, count=3)
        return sum(_body(s)["board"].count("X") + _body(s)["board"].count("O") for s in steps)

    assert stones("liberties", 3) > stones("liberties", 1)
    assert stones("capture", 3) > stones("capture", 1)


def test_bad_requests_are_refused():
    with pytest.raises(PracticeError):
        generate("chess", 1, seed=1)
    with pytest.raises(PracticeError):
        generate("capture", 4, seed=1)
    with pytest.raises(PracticeError):
        generate("capture", 1, seed=1, size=19)


def test_cli_prints_the_steps_as_yaml():
    import yaml

    from teach.lessons.cli import lessons_group

    result = CliRunner().invoke(lessons_group, ["practice", "--topic", "capture", "--level", "1", "--seed", "42",
                                                "--count", "2"])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.output)
    assert data == {"steps": generate("capture", 1, seed=42, count=2)}
    assert "board: |" in result.output
    assert to_yaml([]) == "steps: []\n"


@pytest.mark.parametrize("stored", ["practice:capture:1:42", "practice:net:3:0", "practice:liberties:2:999999999"])
def test_a_stored_practice_key_parses_back_to_the_same_string(stored):
    key = PracticeKey.parse(stored)
    assert key is not None and str(key) == stored and PracticeKey.holds(stored)
    assert str(PracticeKey(key.drill, key.level, key.seed)) == stored


def test_a_practice_key_without_a_seed_names_the_drill_and_level_a_teacher_picks():
    assert str(PracticeKey("ladder", 2)) == "practice:ladder:2"
    assert PracticeKey.parse("practice:ladder:2") == PracticeKey("ladder", 2)
    assert PracticeKey.parse("practice:ladder:2").with_seed(7) == PracticeKey.parse("practice:ladder:2:7")


@pytest.mark.parametrize("text", ["web-first", "practice:chess:1:2", "practice:capture:4:2", "practice:capture:1:",
                                  "practice:capture:x:2", "practice:capture:1:1000000000", "practice:capture:1:2:3",
                                  "practice:capture:1:²", "practice:", None])
def test_anything_else_is_not_a_practice_key(text):
    assert PracticeKey.parse(text) is None


def test_every_drill_has_a_name_and_a_picture_in_both_languages():
    from teach.lessons.practice import drill_names, drill_pictures

    zh, en = drill_names("zh_Hans_CN"), drill_names("en")
    assert set(zh) == set(en) == set(drill_pictures()) == set(DRILLS)
    assert zh["ladder"] == "征子" and en["ladder"] == "Ladder"
    assert all(zh[d] != en[d] and drill_pictures()[d] for d in DRILLS)


def test_a_drawn_puzzle_s_whole_proof_starts_from_the_generator_s_reading_and_answers_as_a_fresh_one():
    """The judge that drew a practice puzzle (every first move read) is handed to its whole proof once; the proof
    it makes answers every first move as a judge reading the puzzle afresh does."""
    from teach.lessons import wholeproof
    from teach.lessons.check import PROVE_LIMITS
    from teach.lessons.practice.proofs import solved_judge

    raw = generate("capture", 1, seed=7, count=1)[0]
    puzzle = build_step(raw, 9, prove=False)[0]
    start, goal = puzzle.start(), puzzle.goal_object()
    drawn = solved_judge(start, goal)
    assert drawn is not None and solved_judge(start, goal) is None  # handed out once
    assert wholeproof.attach(puzzle, 5.0, judge=drawn)
    fresh = Judge(start, goal, PROVE_LIMITS)
    for move in start.legal_moves():
        stored, read = puzzle.proof.verdict(start, move), fresh.judge([], move)
        assert (stored.result, stored.reason, stored.reply) == (read.result, read.reason, read.reply), move


def test_steps_drawn_one_at_a_time_are_the_set_generate_makes():
    steps = drawn("capture", 2, 99)
    one_by_one = [next(steps) for _ in range(4)]
    assert one_by_one == generate("capture", 2, 99, count=4)
    with pytest.raises(PracticeError):
        drawn("nope", 1, 1)


def test_a_ladder_whose_last_escape_is_a_suicide_is_still_drawn():
    """On 13x13 at level 3 this seed draws a ladder whose runner's last liberty is a suicide for it (the chase
    ends there, caught); the generator once stopped on it with an illegal-move error."""
    steps = generate("ladder", 3, "a", count=10, size=13)
    assert len(steps) == 10
    assert [check_step(step, 13) for step in steps] == [[]] * 10
