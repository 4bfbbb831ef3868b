"""Help, goal, streak and rank in a real browser (Debian's chromium through Playwright), on a tablet and on a
phone, in Chinese and in English: after two misses the board pulses the stones and lights their liberties; after
three, "show me" plays the solution move by move (the computer's replies too) and the child then plays it; the
daily goal and the streak advance and the rank shows on the map. Screenshots go to /tmp/kidhelp-shots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)
from teach.models import User
from teach.web.extensions import db
from teach.web.puzzle_help import solution_line

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh": "zh-CN", "en": "en-US"}
SHOTS = Path("/tmp/kidhelp-shots")

pytestmark = needs_chromium


@pytest.fixture
def server(demo):
    with serving(demo) as url:
        yield url


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def signed_in(browser, server, app, device: str, lang: str):
    context = browser.new_context(viewport=SIZES[device], locale=LOCALES[lang], has_touch=True)
    page = context.new_page()
    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
    page.goto(f"{server}/kids/CAT234/{kid_id}")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/")
    return context, page


def tap(page, device: str, selector: str) -> None:
    page.tap(selector) if device == "phone" else page.click(selector)


def miss(page, device: str, point: str) -> None:
    """A wrong move, its refutation shown, then "try again"."""
    tap(page, device, f"g.pt[data-point={point}]")
    page.wait_for_selector("#retry:not([hidden])")
    page.click("#retry")


def goal(page) -> dict:
    box = page.locator("#goal-box")
    return {k: box.get_attribute(f"data-{k}") for k in ("puzzles", "streak", "kyu", "met")}


@pytest.mark.parametrize("device, lang", [("phone", "zh"), ("tablet", "en")])
def test_after_a_miss_the_board_takes_a_new_try_and_the_miss_s_words_stay_beside_the_hint(server, browser, demo,
                                                                                           device, lang):
    """A child who cannot read the words or find "try again": a tap on the board after a miss starts a new try
    with that point. The words for a miss (why it failed) stay when the board's hint comes, and are on screen."""
    context, page = signed_in(browser, server, demo, device, lang)
    page.click("a[data-lesson=web-first]")
    page.click("#next")
    page.wait_for_url("**/learn/web-first/1")
    with page.expect_response("**/move") as first:
        tap(page, device, "g.pt[data-point=D4]")
    assert first.value.json()["result"] == "wrong"
    page.wait_for_selector("#retry:not([hidden])")
    page.wait_for_timeout(600)  # the smooth scroll
    box, height = page.locator("#retry").bounding_box(), page.viewport_size["height"]
    assert 0 <= box["y"] and box["y"] + box["height"] <= height, (box, height)
    with page.expect_response("**/move") as second:  # no "try again": the tap itself is the new try
        tap(page, device, "g.pt[data-point=J1]")
    answer = second.value.json()
    assert answer["result"] == "wrong" and answer["message"]
    page.wait_for_selector("g.pt.black[data-point=J1]")
    assert page.locator("g.pt.black[data-point=D4]").count() == 0  # the board started again
    page.wait_for_selector("g.pt.help-stone[data-point=E5]")  # the second miss: the board hints
    page.wait_for_function("m => document.querySelector('#feedback').textContent.length > m.length",
                           arg=answer["message"])
    said = page.locator("#feedback").inner_text()
    assert said.startswith(answer["message"]) and len(said) > len(answer["message"]) + 4, said
    shot(page, f"miss-words-{device}-{lang}")
    tap(page, device, "g.pt[data-point=E4]")  # a tap on the board once more: the right move, solved
    page.wait_for_selector("#go-next:not([hidden])")
    context.close()


@pytest.mark.parametrize("device, lang", [("tablet", "zh"), ("phone", "en"), ("tablet", "en"), ("phone", "zh")])
def test_after_three_misses_show_me_plays_the_solution_and_the_goal_advances(server, browser, demo, device, lang):
    context, page = signed_in(browser, server, demo, device, lang)
    assert goal(page) == {"puzzles": "0", "streak": "0", "kyu": "25", "met": "no"}
    assert page.locator("#rank .rank-badge").inner_text() == ("25级" if lang == "zh" else "25 kyu")
    shot(page, f"map-{device}-{lang}")

    page.click("a[data-lesson=web-first]")
    page.click("#next")
    page.wait_for_url("**/learn/web-first/1")
    miss(page, device, "D4")
    assert page.locator("g.pt.help-stone").count() == 0 and page.locator("#show-me").is_hidden()
    miss(page, device, "J1")
    # the board hints: the mouse pulses and its last road lights up, the show-me button is not there yet
    page.wait_for_selector("g.pt.help-stone[data-point=E5]")
    assert [page.locator("g.pt.help-liberty").nth(i).get_attribute("data-point")
            for i in range(page.locator("g.pt.help-liberty").count())] == ["E4"]
    assert page.locator("#show-me").is_hidden()
    shot(page, f"hint-{device}-{lang}")
    miss(page, device, "A9")
    page.wait_for_selector("#show-me:not([hidden])")
    box = page.locator("#show-me").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    page.click("#show-me")
    page.wait_for_selector("g.pt.black[data-point=E4]")  # the answer is played on the board
    page.wait_for_selector("g.pt.empty[data-point=E5]")  # and the mouse is taken off
    shot(page, f"show-me-{device}-{lang}")
    # then the board starts again and the child plays it
    page.wait_for_selector("g.pt.empty[data-point=E4]", timeout=5000)
    page.wait_for_selector("#feedback:not(:empty)")
    assert ("现在轮到你" if lang == "zh" else "Now you try") in page.locator("#feedback").inner_text()
    tap(page, device, "g.pt[data-point=E4]")
    page.wait_for_selector("#go-next:not([hidden])")
    page.click("#go-next")
    page.wait_for_url("**/learn/web-first/2")
    for point in ("D5", "F5", "E4"):
        page.click(f"g.pt[data-point={point}]")
    page.click("#check")
    page.wait_for_selector("#celebrate:not([hidden])")

    # two solved today: the goal is on its way, the rank has climbed with the lesson (16 points: 24级)
    page.goto(server + "/learn/")
    assert goal(page) == {"puzzles": "2", "streak": "0", "kyu": "24", "met": "no"}
    assert page.locator(".goal-dot.done").count() == 2
    # the puzzle of the day makes three: the goal is met and the streak starts
    page.click("#daily-puzzle")
    page.wait_for_url(re.compile(r".*/practice/\w+/1/\d{8}/0$"))
    context.close()
    solve_daily_puzzle(browser, server, demo, device, lang, page.url)


def solve_daily_puzzle(browser, server, app, device, lang, url) -> None:
    from teach.web.practice import practice_set

    context, page = signed_in(browser, server, app, device, lang)
    page.goto(url)
    drill, level, seed = re.search(r"/practice/(\w+)/(\d)/(\d+)/0$", url).groups()
    puzzle = practice_set(drill, int(level), int(seed))[0]
    if puzzle.kind == "quiz" and puzzle.ask == "atari":  # one tap on an atari point answers (no Check button)
        page.click(f"g.pt[data-point={puzzle.answers[0]}]")
    elif puzzle.kind == "quiz":  # the puzzle of the day changes with the date: every quiz kind is answered
        assert puzzle.ask in ("liberties", "forbidden", "tap"), puzzle.ask
        for point in puzzle.answers:
            page.click(f"g.pt[data-point={point}]")
        page.click("#check")
    else:
        line = solution_line(puzzle.judge(), puzzle.start(), tuple(puzzle.targets), line_seconds=300)
        for entry in line:
            tap(page, device, f"g.pt[data-point={entry['move']}]")
            if entry["reply"]:
                page.wait_for_selector(f"g.pt.last[data-point={entry['reply']}]")
    page.wait_for_selector("#go-next:not([hidden])")
    page.goto(server + "/learn/")
    assert goal(page) == {"puzzles": "3", "streak": "1", "kyu": "24", "met": "yes"}
    assert page.locator("#daily-puzzle").inner_text().startswith("✅")
    shot(page, f"map-goal-met-{device}-{lang}")
    for selector in ("#daily-puzzle", "#streak", "#rank"):
        box = page.locator(selector).bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= SIZES[device]["width"], selector
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh")])
def test_show_me_plays_a_chase_with_the_computer_s_replies(server, browser, demo, device, lang):
    """A practice puzzle of several moves: "show me" plays each of the kid's moves and the computer's reply."""
    from teach.web.practice import practice_set

    drill, level, seed = "ladder", 2, 15
    puzzle = next((i, s) for i, s in enumerate(practice_set(drill, level, seed)) if s.kind == "puzzle")
    index, puzzle = puzzle
    line = solution_line(puzzle.judge(), puzzle.start(), tuple(puzzle.targets), line_seconds=300)
    assert len(line) >= 2
    far = [p for p in puzzle.start().legal_moves() if p not in (puzzle.answers or ())]
    context, page = signed_in(browser, server, demo, device, lang)
    page.goto(f"{server}/practice/{drill}/{level}/{seed}/{index}")
    misses = 0
    for point in far:
        if misses == 3:
            break
        tap(page, device, f"g.pt[data-point={point}]")
        page.wait_for_selector("#feedback:not(:empty)")
        if page.locator("#retry").is_visible():
            page.click("#retry")
            misses += 1
        else:  # a move that keeps the win: start again
            page.reload()
    page.wait_for_selector("#show-me:not([hidden])")
    page.click("#show-me")
    for entry in line[:-1]:
        page.wait_for_selector(f"g.pt.black[data-point={entry['move']}]")
        page.wait_for_selector(f"g.pt.white[data-point={entry['reply']}]")
    page.wait_for_selector(f"g.pt.black.last[data-point={line[-1]['move']}]")
    shot(page, f"show-me-chase-{device}-{lang}")
    page.wait_for_selector(f"g.pt.empty[data-point={line[0]['move']}]", timeout=8000)  # back to the start
    context.close()


def test_a_placement_puzzle_solved_shows_one_way_on_not_two(server, browser, demo):
    """The placement test's own "next" (to go on without solving) gives way to the solved puzzle's "next"."""
    from teach.web.rank import placement_puzzle

    right = sorted(placement_puzzle(0).judge().solve().winning)[0]
    context, page = signed_in(browser, server, demo, "tablet", "en")
    page.goto(f"{server}/placement/0")
    assert page.locator("#placement-next").is_visible()
    tap(page, "tablet", f"g.pt[data-point={right}]")
    page.wait_for_selector("#go-next:not([hidden])")
    assert page.locator("#placement-next").is_hidden()
    nexts = page.locator("a:visible", has_text="Next")
    assert nexts.count() == 1
    context.close()
