"""The parent's pages in a real browser, on a phone and a tablet, in Chinese and English: nothing scrolls sideways,
the charts and QR codes are drawn big enough to read and scan, nothing breaks the Content-Security-Policy, and
"practise next" walks from the parent's page into the kid's lesson."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)

pytestmark = needs_chromium
SIZES = {"phone": (390, 844), "tablet": (820, 1180)}
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) { window.__violations.push(e.violatedDirective); });
window.__printed = 0;
window.print = function () { window.__printed += 1; };
"""


@pytest.fixture
def family(demo):
    """The demo school, 明明 with some weeks of tries and a sticker."""
    from teach.models import Attempt, StickerAward, User, utcnow
    from teach.web.extensions import db

    now = utcnow()
    with demo.app_context():
        ming = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        for day in (1, 3, 9, 20, 30):
            started = now - timedelta(days=day)
            db.session.add_all([Attempt(kid_id=ming, lesson_id="web-first", step=1, result=result,
                                        started_at=started, finished_at=started + timedelta(seconds=90))
                                for result in ("failed", "solved")])
        db.session.add(StickerAward(kid_id=ming, sticker_id="web-first-badge", awarded_at=now - timedelta(days=3)))
        db.session.commit()
    with serving(demo) as url:
        yield url, ming


def _signed_in(browser, url, lang, size):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="zh-CN" if lang == "zh" else "en-US")
    page = context.new_page()
    page.add_init_script(WATCH)
    page.goto(url + "/login")
    page.fill("input[name=email]", "parent@example.com")
    page.fill("input[name=password]", "little-mouse-42")
    page.click("main form button.button")
    page.wait_for_url(lambda u: "/login" not in u)
    return context, page


def _shot(page, name: str) -> None:
    folder = os.environ.get("PARENT_SHOTS")  # screenshots for people to look at, when asked for
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _fits(page, width):
    where = urlparse(page.url).path.strip("/").replace("/", "-") or "home"
    _shot(page, f"{where}-{page.viewport_size['width']}-{page.evaluate('document.documentElement.lang')}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url
    assert page.evaluate("window.__violations") == [], page.url


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_parent_pages_fit_phone_and_tablet_in_both_languages(family, browser, lang, size):
    url, ming = family
    width = SIZES[size][0]
    context, page = _signed_in(browser, url, lang, size)
    _fits(page, width)  # where a parent lands
    page.goto(f"{url}/family/kids/{ming}/week")
    _fits(page, width)
    page.goto(f"{url}/family/kids/{ming}")
    _fits(page, width)
    charts = page.locator("svg.chart")
    assert charts.count() == 3
    for i in range(3):
        box = charts.nth(i).bounding_box()
        assert box["width"] >= 220 and box["height"] >= 100  # readable, not a thumbnail
    page.click("a.practise-next")
    page.wait_for_url("**/practise")
    _fits(page, width)
    assert page.locator("svg.qr").bounding_box()["width"] >= 150  # a phone camera reads it from arm's length
    page.goto(f"{url}/family/kids/{ming}/report")
    _fits(page, width)
    page.click("button[data-print]")
    assert page.evaluate("window.__printed") == 1
    page.goto(f"{url}/family/kids/{ming}")
    page.click("#followers form[action$='/invitations'] button")
    page.wait_for_url("**/invitations/*")
    _fits(page, width)
    assert page.locator("svg.qr").bounding_box()["width"] >= 150
    page.goto(f"{url}/family/kids/{ming}")
    page.click("form[action$='/pictures'] button")
    assert page.locator("form.confirm input[name=confirm]").count() == 1
    _fits(page, width)
    context.close()


def test_practise_next_walks_from_the_parent_s_page_into_the_kid_s_lesson(family, browser):
    url, ming = family
    context, page = _signed_in(browser, url, "en", "phone")
    page.goto(f"{url}/family/")
    page.click("a.practise-next")
    page.wait_for_url("**/practise")
    page.click("a.practise-start")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/web-first/*")
    assert page.locator("main").inner_text().strip() != ""
    context.close()


ZBARIMG = shutil.which("zbarimg")


@pytest.mark.skipif(ZBARIMG is None, reason="zbarimg is not installed (apt-get install zbar-tools)")
def test_the_qr_codes_read_back_as_the_follow_and_practice_addresses(family, browser, tmp_path):
    """A QR reader sees what a phone camera would: the code card's and the practice page's, as drawn on a phone."""
    url, ming = family
    context, page = _signed_in(browser, url, "zh", "phone")
    page.goto(f"{url}/family/kids/{ming}")
    page.click("#followers form[action$='/invitations'] button")
    page.wait_for_url("**/invitations/*")
    code = page.locator("code.link-code").inner_text()
    read = []
    for where in ("card", "practise"):
        if where == "practise":
            page.goto(f"{url}/family/kids/{ming}/practise")
        shot = tmp_path / f"{where}.png"
        page.locator("svg.qr").screenshot(path=str(shot))
        out = subprocess.run([ZBARIMG, "-q", "--raw", str(shot)], capture_output=True, text=True, timeout=30)
        read.append(out.stdout.strip())
    assert read == [f"{url}/family/follow?code={code}", f"{url}/kids/HOME56/{ming}?next=/learn/web-first"]
    context.close()


def test_on_a_phone_s_touch_screen_the_way_back_from_the_week_and_the_report_is_44_px(family, browser):
    """"← 明明" above the printable week and report was a 21 px link under a parent's thumb."""
    url, ming = family
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True)
    page = context.new_page()
    page.goto(url + "/login")
    page.fill("input[name=email]", "parent@example.com")
    page.fill("input[name=password]", "little-mouse-42")
    page.click("main form button.button")
    page.wait_for_url(lambda u: "/login" not in u)
    for path in ("week", "report"):
        page.goto(f"{url}/family/kids/{ming}/{path}")
        back = page.locator(f"p.no-print > a[href$='/family/kids/{ming}']").bounding_box()
        assert back["height"] >= 44 and back["width"] >= 44, path
    context.close()
