"""The kid's app in a real browser (Debian's chromium through Playwright), as a kid would use it, on a tablet
and on a phone. Screenshots are kept in test-artifacts/ for people to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}

pytestmark = needs_chromium


@pytest.fixture
def server(demo):
    with serving(demo) as url:
        yield url


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("device", list(SIZES))
def test_a_kid_signs_in_plays_a_lesson_and_keeps_the_sticker(server, browser, device):
    context = browser.new_context(viewport=SIZES[device], locale="en-US", has_touch=True)
    page = context.new_page()
    requests_elsewhere = []
    page.on("request", lambda r: None if r.url.startswith(server) else requests_elsewhere.append(r.url))

    page.goto(server + "/")
    page.click("a.door.kid")
    page.fill("input[name=code]", "cat234")
    page.click("button.big-button")
    page.click("a.avatar >> text=明明")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/")
    shot(page, f"{device}-map")

    page.click("a[data-lesson=web-first]")
    page.wait_for_url("**/learn/web-first/0")
    page.click("#next")
    page.wait_for_url("**/learn/web-first/1")
    board = page.locator("svg.board")
    assert board.bounding_box()["width"] <= SIZES[device]["width"]

    # a wrong move: the computer answers with its refutation, on the board, in kid language
    page.tap("g.pt[data-point=D4]") if device == "phone" else page.click("g.pt[data-point=D4]")
    page.wait_for_selector("g.pt.white[data-point=E4]")
    feedback = page.locator("#feedback")
    assert "bad" in feedback.get_attribute("class") and "Try" in feedback.inner_text()
    shot(page, f"{device}-refutation")

    page.click("#retry")
    page.click("g.pt[data-point=E4]")
    page.wait_for_selector("#go-next:not([hidden])")
    assert "caught" in page.locator("#feedback").inner_text().lower()
    assert page.locator("g.pt[data-point=E5]").get_attribute("class").split()[1] == "empty"  # taken off
    page.click("#go-next")

    # the liberties quiz: tap every liberty, then check; the lesson ends with stars and the sticker
    page.wait_for_url("**/learn/web-first/2")
    for point in ("D5", "F5", "E4"):
        page.click(f"g.pt[data-point={point}]")
    page.click("#check")
    page.wait_for_selector("#celebrate:not([hidden])")
    assert "Police badge" in page.locator("#sticker-won").inner_text()
    shot(page, f"{device}-sticker")

    # progress is on the server: a reload (even a new device) finds the sticker and the lesson done
    page.reload()
    page.goto(server + "/learn/stickers")
    assert "Police badge" in page.locator(".stickers").inner_text()
    page.goto(server + "/learn/")
    assert page.locator("li.lesson.done a[data-lesson=web-first]").count() == 1

    # the visible language switch: Chinese everywhere
    page.click(".lang-switch button")
    assert "课程地图" in page.title() or "抓住小老鼠" in page.content()
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    shot(page, f"{device}-map-zh")
    assert requests_elsewhere == []  # no CDN, no outside request
    context.close()
