"""The teacher's class pages in a real browser: the whole-class dashboard, the class page and the login cards fit a
phone without scrolling sideways, and the cards print with their QR code. Screenshots go to
$CLASS_SHOTS when it is set (people look at them; the test does not need them)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)
from teach.models import Group, LessonProgress, PlayedGame, StepShown, Attempt, User, utcnow
from teach.web.extensions import db

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}

pytestmark = needs_chromium


def _a_busy_class(app) -> int:
    with app.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        now = utcnow()
        for i, kid in enumerate(db.session.scalars(sa.select(User).where(User.role == "kid")).all()):
            db.session.add(LessonProgress(kid_id=kid.id, lesson_id="web-first", stars=1 + i % 3, finished_at=now))
            db.session.add(StepShown(kid_id=kid.id, lesson_id="web-second", step=0,
                                     shown_at=now - timedelta(seconds=200)))
            db.session.add(Attempt(kid_id=kid.id, lesson_id="web-second", step=0, first_move="A1", result="failed",
                                   moves=[{"move": "A1", "verdict": "wrong"}], started_at=now - timedelta(seconds=120),
                                   finished_at=now - timedelta(seconds=120)))
            db.session.add(PlayedGame(kid_id=kid.id, kind="capture", size=9, komi=0.0, capture_goal=1,
                                      kid_color="black", opponent="computer", level=1, moves=["pass"] * 12, ply=12,
                                      state="finished", winner="black", created_at=now - timedelta(minutes=9),
                                      finished_at=now - timedelta(minutes=1)))
        db.session.commit()
        return class_id


def _a_kid(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(User.id).where(User.name == "明明"))


def _shot(page, name: str) -> None:
    folder = os.environ.get("CLASS_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _sideways(page) -> int:
    """How many pixels the page is wider than the screen."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("device", list(SIZES))
@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_the_class_pages_fit_the_screen_without_sideways_scrolling(demo, browser, device, locale):
    class_id = _a_busy_class(demo)
    with serving(demo) as url:
        context = browser.new_context(viewport=SIZES[device], locale=locale, has_touch=True)
        page = context.new_page()
        page.goto(url + "/login")
        page.fill("input[name=email]", "teacher@example.com")
        page.fill("input[name=password]", "black-cat-42")
        page.click("form:has(input[name=email]) button[type=submit]")
        page.wait_for_url("**/teach/")  # the teacher lands on their classes
        tag = f"{device}-{locale[:2]}"
        _shot(page, f"classes-{tag}")
        kid = _a_kid(demo)
        for name, path in (("dashboard", f"/teach/classes/{class_id}/dashboard"),
                           ("class", f"/teach/classes/{class_id}"),
                           ("kid", f"/teach/classes/{class_id}/kids/{kid}"),
                           ("lessons", "/teach/lessons"),
                           ("editor", "/teach/editor"),
                           ("worksheet", "/teach/worksheet"),
                           ("board", "/teach/board?size=9")):
            page.goto(url + path)
            _shot(page, f"{name}-{tag}")
            assert _sideways(page) <= 0, f"{name} scrolls sideways on a {device}"
        page.goto(url + f"/teach/classes/{class_id}/dashboard")
        assert page.locator(".kid-summary").count() == 4 and page.locator(".legend li").count() >= 6
        assert page.locator(".kid-summary td.rank .rank-badge").count() == 4  # every kid's rank, and its legend
        assert page.locator(".rank-legend").is_visible()
        if device == "phone":  # every kid's figures are on the phone, as one card each
            assert page.locator(".kid-summary").first.is_visible()
            assert not page.locator(".lesson-grid").is_visible()
        # the cards: asked first, then printed with the QR code
        page.goto(url + f"/teach/classes/{class_id}/cards")
        _shot(page, f"cards-ask-{tag}")
        page.click("form.confirm button[type=submit]")
        page.wait_for_selector(".login-card")
        assert page.locator(".login-card svg.sign-in-qr").count() == 4
        box = page.locator(".login-card svg.sign-in-qr").first.bounding_box()
        assert box["width"] >= 80  # big enough for a phone camera
        _shot(page, f"cards-{tag}")
        assert _sideways(page) <= 0
        context.close()


def test_a_stuck_kid_s_cell_is_drawn_as_the_legend_says_homework_or_not(demo, browser):
    class_id = _a_busy_class(demo)  # each kid one wrong try at web-second, which is nobody's homework
    with demo.app_context():
        kid = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        for _ in range(2):  # three wrong tries in all: stuck
            db.session.add(Attempt(kid_id=kid, lesson_id="web-second", step=0, first_move="A1", result="failed",
                                   moves=[{"move": "A1", "verdict": "wrong"}]))
        db.session.commit()
    with serving(demo) as url:
        context = browser.new_context(viewport=SIZES["tablet"], locale="en-US", has_touch=True)
        page = context.new_page()
        page.goto(url + "/login")
        page.fill("input[name=email]", "teacher@example.com")
        page.fill("input[name=password]", "black-cat-42")
        page.click("form:has(input[name=email]) button[type=submit]")
        page.wait_for_url("**/teach/")
        page.goto(url + f"/teach/classes/{class_id}/dashboard")
        cells = page.locator("table.grid td.stuck")
        assert cells.count() == 1 and "not-assigned" in cells.first.get_attribute("class")
        colour = "el => getComputedStyle(el).backgroundColor"
        assert cells.first.evaluate(colour) == page.locator(".legend .swatch.stuck").evaluate(colour)
        assert cells.first.evaluate(colour) != page.locator(".legend .swatch.not-assigned").evaluate(colour)
        context.close()
