"""The board editor and the demo board in a real browser (Debian's chromium through Playwright): a teacher sets up
a puzzle by tapping, sets the goal, sees the reader's proof, publishes it, and a kid of the class plays it; the
demo board plays and steps back through the engine and answers "can this be captured?"; a worksheet prints with
its answer key on a page of its own. Screenshots go to /tmp/editor-shots (EDITOR_SHOTS to change it)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)

SHOTS = Path(os.environ.get("EDITOR_SHOTS", "/tmp/editor-shots"))
SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh": "zh-CN", "en": "en-US"}

pytestmark = needs_chromium


@pytest.fixture
def server(demo):
    demo.config["PROOF_DEADLINE_SECONDS"] = 120
    with serving(demo) as url:
        yield url
    from teach.web import proofs

    assert proofs.join_runners(demo, 120)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def teacher_page(browser, server, device: str, lang: str):
    context = browser.new_context(viewport=SIZES[device], locale=LOCALES[lang], has_touch=True,
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.goto(server + "/login")
    page.fill("input[name=email]", "teacher@example.com")
    page.fill("input[name=password]", "black-cat-42")
    with page.expect_navigation():
        page.click("main button.button[type=submit]")
    return context, page


def tap(page, point: str) -> None:
    page.click(f"svg.board g.pt[data-point={point}]")


def stone(page, point: str) -> str:
    classes = page.get_attribute(f"svg.board g.pt[data-point={point}]", "class")
    return "black" if " black" in classes else "white" if " white" in classes else "empty"


@pytest.mark.parametrize("device, lang", [("tablet", "zh"), ("phone", "en")])
def test_a_teacher_makes_a_puzzle_on_the_board_publishes_it_and_a_kid_plays_it(server, browser, device, lang):
    context, page = teacher_page(browser, server, device, lang)
    outside = []
    page.on("request", lambda r: None if r.url.startswith(server) else outside.append(r.url))
    page.goto(server + "/teach/lessons")
    page.click("a[href='/teach/editor']")
    page.wait_for_url("**/teach/editor")
    # three black cats round a white mouse, and a friend of the mouse on E3 (so only E4 catches it)
    for point in ("E6", "D5", "F5"):
        tap(page, point)
    page.click("button[data-tool=white]")
    tap(page, "E5")
    tap(page, "E3")
    tap(page, "C3")
    tap(page, "C3")  # a second tap takes the stone away again
    assert [stone(page, p) for p in ("E6", "D5", "F5", "E5", "E3", "C3")] == ["black"] * 3 + ["white"] * 2 + ["empty"]
    page.click("button[data-tool=target]")
    tap(page, "E5")
    assert page.input_value("#editor-target") == "E5"
    assert "m-highlight" in page.get_attribute("g.pt[data-point=E5]", "class")
    page.select_option("select[name=goal]", "capture")
    page.fill("input[name=text_zh]", "抓住白老鼠！")
    page.fill("input[name=text_en]", "Catch the white mouse!")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"editor-{device}-{lang}")
    assert page.locator("svg.board").bounding_box()["width"] <= SIZES[device]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[device]["width"]
    page.click("#editor-form button[type=submit]")
    page.wait_for_selector('[data-status="done"]', timeout=90_000)
    assert re.findall(r"✓ (\w+)", page.inner_text("ul.winning-moves")) == ["E4"]
    assert page.locator("li[data-reply=E4] .refuted[data-move=D4]").count() == 1
    assert "winning" in page.get_attribute("g.pt[data-point=E4]", "class")
    shot(page, f"editor-proof-{device}-{lang}")

    # try it as a kid: a wrong move is answered, the right one praised
    page.click("a[href*='/teach/editor/try/']")
    tap(page, "D4")
    page.wait_for_selector("#feedback.bad")
    page.click("#try-again")
    tap(page, "E4")
    page.wait_for_selector("#feedback.good")
    assert stone(page, "E5") == "empty"
    # as on a kid's page, a tap after a wrong move starts a new try from that tap
    page.click("#try-again")
    tap(page, "D4")
    page.wait_for_selector("#feedback.bad")
    page.wait_for_timeout(700)  # the computer's answer is on the board
    tap(page, "E4")
    page.wait_for_selector("#feedback.good")
    assert stone(page, "D4") == "empty" and stone(page, "E5") == "empty"
    shot(page, f"editor-try-{device}-{lang}")

    # publish it to the class
    page.go_back()
    page.click("a[href*='/classes']")
    page.wait_for_selector('[data-published="no"]')
    page.check("input[name=class]")
    page.click("button[value=publish]")
    page.wait_for_selector('[data-published="yes"]')
    shot(page, f"editor-publish-{device}-{lang}")
    page.goto(server + "/teach/lessons")  # the list says it is out, and to which class
    assert page.locator('li.own-lesson[data-published="yes"]').count() == 1
    assert "Little Mice" in page.inner_text('li.own-lesson[data-published="yes"] .publish-state')
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[device]["width"]
    shot(page, f"editor-list-{device}-{lang}")
    assert outside == []
    context.close()

    kid = browser.new_context(viewport=SIZES[device], locale=LOCALES[lang], has_touch=True)
    k = kid.new_page()
    k.goto(server + "/kids")
    k.fill("input[name=code]", "cat234")
    k.click("button.big-button")
    k.click("a.avatar >> text=明明")
    k.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        k.click(f"button[data-picture={picture}]")
    k.wait_for_url("**/learn/")
    k.click("a[data-lesson^=sgf-]")
    k.wait_for_url(re.compile(r".*/learn/sgf-[^/]+/0$"))
    if k.locator("#next").count() and k.locator("svg.board.playable").count() == 0:
        k.click("#next")
    tap(k, "E4")
    k.wait_for_selector("#feedback.good")
    shot(k, f"editor-kid-{device}-{lang}")
    kid.close()


@pytest.mark.parametrize("device, lang", [("tablet", "en"), ("phone", "zh")])
def test_a_refused_puzzle_shows_the_teacher_each_wrong_move_and_its_answer(server, browser, device, lang):
    """A mouse with a friend cannot be caught: the proof page says so in the teacher's language and lists every
    first move with the computer's answer, on a page that fits the screen."""
    context, page = teacher_page(browser, server, device, lang)
    page.goto(server + "/teach/editor")
    tap(page, "E4")
    page.click("button[data-tool=white]")
    tap(page, "E5")
    tap(page, "E6")
    page.click("button[data-tool=target]")
    tap(page, "E5")
    page.fill("input[name=text_zh]", "抓住白老鼠！")
    page.fill("input[name=text_en]", "Catch the white mouse!")
    page.click("#editor-form button[type=submit]")
    page.wait_for_selector('[data-status="refused"]', timeout=90_000)
    assert page.locator(".refused-reading ul.refutations li[data-reply]").count() >= 1
    assert page.locator(".refused-reading .refuted").count() == 78  # every empty point: all are wrong
    assert ("电脑应" if lang == "zh" else "The computer answers") in page.inner_text(".refused-reading")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[device]["width"]
    shot(page, f"editor-refused-{device}-{lang}")
    context.close()


@pytest.mark.parametrize("device, lang", [("tablet", "en"), ("phone", "zh")])
def test_the_demo_board_sets_up_plays_steps_back_marks_and_asks_the_reader(server, browser, device, lang):
    context, page = teacher_page(browser, server, device, lang)
    page.goto(server + "/teach/")
    page.click("a[href='/teach/board']")
    page.goto(server + "/teach/board?size=9")
    page.click("button[data-tool=black]")
    for point in ("E6", "D5", "F5"):
        tap(page, point)
    page.click("button[data-tool=white]")
    tap(page, "E5")
    page.click("button[data-tool=ask]")
    tap(page, "E5")
    page.wait_for_selector("#demo-answer:has-text('E4')")
    page.click("button[data-tool=play]")
    tap(page, "E4")  # black to play: the mouse is caught
    page.wait_for_selector("g.pt.empty[data-point=E5]")
    assert stone(page, "E4") == "black"
    tap(page, "E5")  # white may not play where it has no liberties
    page.wait_for_selector("#demo-answer:not(:empty)")
    assert stone(page, "E5") == "empty"
    page.click("button[data-go=back]")
    page.wait_for_selector("g.pt.white[data-point=E5]")
    assert stone(page, "E4") == "empty"
    page.click("button[data-go=forward]")
    page.wait_for_selector("g.pt.black[data-point=E4]")
    page.click("button[data-tool=mark]")
    tap(page, "G7")
    assert "m-highlight" in page.get_attribute("g.pt[data-point=G7]", "class")
    shot(page, f"demo-{device}-{lang}")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[device]["width"]

    # a lesson diagram, then 19x19 for the wall board
    page.select_option("#demo-from", index=1)
    page.click("form.row button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("svg.board g.pt.black, svg.board g.pt.white").count() > 0
    page.goto(server + "/teach/board")
    assert page.get_attribute("svg.board", "data-size") == "19"
    shot(page, f"demo-19-{device}-{lang}")
    context.close()


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_a_worksheet_prints_its_puzzles_then_the_answer_key_on_a_page_of_its_own(server, browser):
    context, page = teacher_page(browser, server, "tablet", "en")
    page.goto(server + "/teach/worksheet")
    shot(page, "worksheet-pick-tablet-en")
    boxes = page.locator("input[name=p]")
    assert boxes.count() > 0 and page.locator(".puzzle-card svg.board").count() == boxes.count()
    boxes.first.check()
    page.click("button[name=make]")
    page.wait_for_selector(".answer-key")
    one = page.pdf(format="A4")
    assert "1. 1." not in page.inner_text("main")
    page.goto(server + "/teach/worksheet?p=web-first:1&p=web-second:0&p=web-first:1")  # a repeat counts once
    shot(page, "worksheet-tablet-en")
    two = page.pdf(format="A4")
    assert page.locator(".sheet-puzzle").count() == 2
    assert _pdf_pages(one) == 2 and _pdf_pages(two) == 2  # the puzzles on one page, the key on the next
    context.close()
