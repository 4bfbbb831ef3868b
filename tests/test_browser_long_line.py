"""A long line in a real browser on the real curriculum: the puzzle whose proof goes deepest is played move by
move (the computer answering each), then a wrong move at the end of it; every answer arrives as kid words from
the stored proof, and the page never shows the computer giving up ("too hard for me")."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)
from test_browser_help import signed_in
from teach.models import LessonProgress, User, utcnow
from teach.web.extensions import db

ROOT = Path(__file__).resolve().parent.parent
GIVING_UP = ("老师算不清", "太难", "too hard", "unknown")

pytestmark = needs_chromium


def deepest_line() -> tuple[str, int, list[str], str, str]:
    """(lesson id, step, the line of kid moves and computer replies, the wrong move played at its end, the
    computer's answer to it) for the 9x9 lesson puzzle whose stored proof holds the longest line a kid can play."""
    from teach.go.proof import position_key
    from teach.lessons import load_lessons, proofstore

    catalog = load_lessons(ROOT / "lessons")
    store = proofstore.read(proofstore.store_path(ROOT / "lessons"))
    best = None
    for lesson in sorted(catalog.lessons.values(), key=lambda l: l.id):
        for index, step in enumerate(lesson.steps):
            proof = store.proofs.get(proofstore.key_of(step)) if step.kind == "puzzle" and lesson.size == 9 else None
            if proof is None:
                continue
            todo = [[]]
            while todo:
                line = todo.pop()
                game = step.start()
                for move in line:
                    game.play(move)
                groups = proof.positions[position_key(game)]
                wrong = next(((names.split()[0], reply) for result, reason, reply, _ko, names in groups
                              if result == "wrong" and reason != "unknown" and reply), None)
                if wrong and (best is None or len(line) > len(best[2])):
                    best = (lesson.id, index, line, *wrong)
                todo += [line + [m, reply] for result, _r, reply, _ko, names in groups if result == "continue"
                         for m in names.split()[:1]]
    return best


@pytest.fixture
def server(demo):
    lesson_id, _step, *_ = deepest_line()
    demo.config["LESSONS_DIR"] = str(ROOT / "lessons")
    with demo.app_context():
        kid = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        db.session.add(LessonProgress(kid_id=kid, lesson_id=lesson_id, step=0, stars=0, finished_at=utcnow()))
        db.session.commit()
    with serving(demo) as url:
        yield url


@pytest.mark.parametrize("device, lang", [("tablet", "en"), ("phone", "zh")])
def test_a_long_line_then_a_wrong_move_in_the_deepest_puzzle_is_answered_in_kid_words(server, browser, demo,
                                                                                        device, lang):
    lesson_id, step, line, wrong, refutation = deepest_line()
    assert len(line) >= 4  # a kid's move, the computer's answer, and on: a line, not a first move
    context, page = signed_in(browser, server, demo, device, lang)
    page.goto(f"{server}/learn/{lesson_id}/{step}")
    tap = page.tap if device == "phone" else page.click
    for mine, reply in zip(line[::2], line[1::2]):
        tap(f"g.pt[data-point={mine}]")
        page.wait_for_selector(f"g.pt[data-point={reply}]:is(.black, .white)")  # the computer answered
        assert page.locator("#step.thinking").count() == 0
        assert not any(words in page.locator("#feedback").inner_text() for words in GIVING_UP)
    tap(f"g.pt[data-point={wrong}]")
    page.wait_for_selector("#retry:not([hidden])")  # the refutation is on the board, and "try again"
    assert page.locator(f"g.pt[data-point={refutation}]:is(.black, .white)").count() == 1
    said = page.locator("#feedback").inner_text()
    assert said and not any(words in said for words in GIVING_UP)
    assert page.locator("#step.thinking").count() == 0
    context.close()
