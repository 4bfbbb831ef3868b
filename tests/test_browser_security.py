"""The Content-Security-Policy in a real browser (Debian's chromium through Playwright): the main pages of kids,
teachers and parents run under it without a single violation, print buttons work without inline script, and a
script smuggled into a page is refused."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)

pytestmark = needs_chromium

# every violation of the policy, and every print, as the page sees them
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile);
});
window.__printed = 0;
window.print = function () { window.__printed += 1; };
"""
DEMO_LESSON = "capture-black-cat"  # its step 1 is a demo: frames in a <script type="application/json"> block


@pytest.fixture
def school(tmp_path):
    """The demo school with the real lessons (one with a demo step), 明明 already in the first lesson."""
    from flask_migrate import downgrade, upgrade

    from teach.models import Group, LessonProgress, User
    from teach.web import create_app
    from teach.web.demo import create_demo
    from teach.web.extensions import db

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/b"})
    with app.app_context():
        upgrade()
        create_demo()
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        db.session.add(LessonProgress(kid_id=kid.id, lesson_id=DEMO_LESSON, step=1, stars=0))
        db.session.commit()
        app.config["IDS"] = {"kid": kid.id, "class": db.session.scalar(
            sa.select(Group.id).where(Group.code == "CAT234"))}
    yield app
    with app.app_context():
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


@pytest.fixture
def server(school):
    with serving(school) as url:
        yield url


class Watched:
    """A browser tab that keeps every policy violation, console error and script error it meets."""

    def __init__(self, context):
        self.page = context.new_page()
        self.problems: list[str] = []
        self.page.add_init_script(WATCH)
        # a failed load is judged by its response below (the browser's own favicon.ico request may 404)
        self.page.on("console", lambda m: m.type == "error" and not m.text.startswith("Failed to load resource")
                     and self.problems.append(f"console: {m.text}"))
        self.page.on("response", lambda r: r.status >= 400 and not r.url.endswith("/favicon.ico")
                     and self.problems.append(f"{r.status} {r.url}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))

    def visit(self, url: str) -> None:
        self.page.goto(url)
        self.check()

    def check(self) -> None:
        self.page.wait_for_load_state("load")
        violations = self.page.evaluate("window.__violations")
        assert violations == [] and self.problems == [], (self.page.url, violations, self.problems)


def _sign_in_adult(tab: Watched, server: str, email: str, password: str) -> None:
    tab.visit(server + "/login")
    tab.page.fill("input[name=email]", email)
    tab.page.fill("input[name=password]", password)
    tab.page.click("main form button.button")
    tab.page.wait_for_url(lambda url: "/login" not in url)
    tab.check()


def test_kids_pages_run_under_the_policy_without_a_violation(server, browser):
    context = browser.new_context(locale="en-US")
    tab = Watched(context)
    tab.visit(server + "/")
    tab.page.click("a.door.kid")
    tab.check()
    tab.page.fill("input[name=code]", "cat234")
    tab.page.click("button.big-button")
    tab.check()
    tab.page.click("a.avatar >> text=明明")
    tab.check()  # the picture pad: pictures.js
    tab.page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        tab.page.click(f"button[data-picture={picture}]")
    tab.page.wait_for_url("**/learn/")
    tab.check()

    tab.visit(f"{server}/learn/{DEMO_LESSON}/1")  # the demo reads its frames from the JSON data block
    assert tab.page.locator("#demo-frames").count() == 1
    assert tab.page.locator("svg.board").count() >= 1
    tab.page.wait_for_timeout(500)
    tab.check()
    tab.visit(f"{server}/learn/{DEMO_LESSON}/2")  # a puzzle: board.js and a judged move
    tab.check()
    context.close()


def test_teacher_and_parent_pages_run_under_the_policy_and_print_without_inline_script(server, browser, school):
    ids = school.config["IDS"]
    context = browser.new_context(locale="en-US")
    tab = Watched(context)
    _sign_in_adult(tab, server, "teacher@example.com", "black-cat-42")
    for path in ("/teach/", f"/teach/classes/{ids['class']}", f"/teach/classes/{ids['class']}/dashboard"):
        tab.visit(server + path)
    for path in (f"/teach/classes/{ids['class']}/cards", f"/teach/worksheet?p={DEMO_LESSON}:2"):
        tab.visit(server + path)
        if path.endswith("/cards"):  # printing the cards again asks first: new picture passwords for everyone
            tab.page.click("form.confirm button[type=submit]")
            tab.page.wait_for_selector(".login-card svg.sign-in-qr")
        tab.page.click("button[data-print]")
        assert tab.page.evaluate("window.__printed") == 1, path
        tab.check()
    context.close()

    context = browser.new_context(locale="en-US")
    tab = Watched(context)
    _sign_in_adult(tab, server, "parent@example.com", "little-mouse-42")
    tab.visit(server + "/family/")
    tab.visit(f"{server}/family/kids/{ids['kid']}/week")
    tab.page.click("button[data-print]")
    assert tab.page.evaluate("window.__printed") == 1
    tab.check()
    context.close()


def test_a_script_smuggled_into_a_page_is_refused(server, browser):
    """What stored XSS would need: markup with an inline handler, and an inline <script>. Both are blocked by the
    policy (and reported), even when the markup reaches the page."""
    context = browser.new_context(locale="en-US")
    tab = Watched(context)
    tab.visit(server + "/")
    tab.page.evaluate("""() => {
        document.body.insertAdjacentHTML("beforeend", '<img src="/no-such-picture.png" onerror="window.__pwned = 1">');
        var s = document.createElement("script");
        s.textContent = "window.__pwned = 2";
        document.body.appendChild(s);
    }""")
    tab.page.wait_for_function("window.__violations.length >= 2")
    assert tab.page.evaluate("window.__pwned") is None
    assert all("script-src" in v for v in tab.page.evaluate("window.__violations"))
    context.close()
