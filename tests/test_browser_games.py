"""A kid's games in a real browser (Debian's chromium through Playwright), on a tablet and a phone, in Chinese and
English: the review after a game — a missed capture retried, wrong then shown then right — and the replay stepped
through. Screenshots go to /tmp/games-*.png for people to look at.

The game is a real game and its missed capture a real position: the engine's review finds it where
``teach.go.review`` is installed; elsewhere the finding is inserted as the review would write it, checked first
with the judge.
"""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)

SIZES = {"tablet": {"width": 768, "height": 1024}, "phone": {"width": 390, "height": 844}}
GAME = ["E5", "D5", "C5", "A1", "D6", "J9", "H1", "D4", "pass", "pass"]  # black could take D5 at move 7
FINDING = {"move_number": 7, "black": ["E5", "C5", "D6"], "white": ["D5", "A1", "J9"], "to_play": "black",
           "goal": "capture", "target": "D5", "played": "H1", "answers": ["D4"], "kind": "missed-capture",
           "size": 9}
WORDS = {"zh": {"prompt": "这里可以吃掉白棋", "locale": "zh_Hans_CN"},
         "en": {"prompt": "You could capture the white stone here", "locale": "en"}}

pytestmark = needs_chromium


@pytest.fixture
def played(demo):
    """明明's finished game, reviewed by the engine's review, and the missed capture it found."""
    from teach.models import MissedCapture, PlayedGame, User, utcnow
    from teach.web import reviews
    from teach.web.extensions import db

    demo.config["REVIEW_RUNNER"] = False
    demo.config["REVIEW_DEADLINE_SECONDS"] = 120
    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        kid_id = kid.id
        game = PlayedGame(kid_id=kid_id, kind="full", size=9, komi=7.5, kid_color="black", opponent="computer",
                          level=2, moves=GAME, ply=len(GAME), state="finished", result="B+3.5", winner="black",
                          reviewed=False, finished_at=utcnow())
        db.session.add(game)
        db.session.commit()
        game_id = game.id  # the review closes the session: the row is read again after it
        reviews.run_queue()
        missed = db.session.scalar(sa.select(MissedCapture).where(MissedCapture.game_id == game_id,
                                                                  MissedCapture.move_number == 7))
        assert missed is not None and "D4" in missed.answers
        return {"kid": db.session.get(User, kid_id).get_id(), "game": game_id, "missed": missed.id}


def _signed_in(app, browser, device: str, lang: str, base: str, kid: str):
    """A browser context with the kid's session cookie (the sign-in itself is tested elsewhere)."""
    serializer = app.session_interface.get_signing_serializer(app)
    cookie = serializer.dumps({"_user_id": kid, "_fresh": True, "locale": WORDS[lang]["locale"]})
    context = browser.new_context(viewport=SIZES[device], has_touch=True,
                                  locale="zh-CN" if lang == "zh" else "en-US")
    context.add_cookies([{"name": app.config.get("SESSION_COOKIE_NAME", "session"), "value": cookie, "url": base}])
    return context


def _fits(page, device: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[device]["width"], f"the page is {width}px wide on a {SIZES[device]['width']}px screen"


def _no_english(page) -> None:
    """A Chinese page says nothing in English (the language switch and the board's letters aside)."""
    text = page.locator("body").inner_text()
    words = set(re.findall(r"[A-Za-z]{3,}", text)) - {"English", "SGF"}
    assert not words, f"English on a Chinese page: {sorted(words)}"


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("device", list(SIZES))
def test_a_kid_retries_a_missed_capture_and_steps_through_the_replay(demo, played, browser, device, lang):
    with serving(demo) as base:
        context = _signed_in(demo, browser, device, lang, base, played["kid"])
        page = context.new_page()
        elsewhere = []
        page.on("request", lambda r: None if r.url.startswith(base) else elsewhere.append(r.url))
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        page.goto(f"{base}/games/")
        assert page.locator(f"li.game[data-game-id='{played['game']}']").is_visible()
        _fits(page, device)
        if lang == "zh":
            _no_english(page)
        page.screenshot(path=f"/tmp/games-{device}-{lang}-mine.png", full_page=True)
        # the missed captures kept for practice, each a small board
        page.click("p.practice-call a")
        page.wait_for_selector(".practice-list .practice-item svg.board")
        assert WORDS[lang]["prompt"] in page.locator(".practice-list").inner_text()
        _fits(page, device)
        if lang == "zh":
            _no_english(page)
        page.screenshot(path=f"/tmp/games-{device}-{lang}-practice.png", full_page=True)
        page.goto(f"{base}/games/")

        # the review: the missed capture as a puzzle, in the kid's words
        page.click(f"li.game[data-game-id='{played['game']}'] a.review-link")
        page.wait_for_selector("#step svg.board.playable")
        assert WORDS[lang]["prompt"] in page.locator("#instruction").inner_text()
        board = page.locator("#step svg.board")
        assert board.bounding_box()["width"] <= SIZES[device]["width"]
        _fits(page, device)
        if lang == "zh":
            _no_english(page)

        def tap(point: str) -> None:
            target = f"#step g.pt[data-point={point}]"
            page.tap(target) if device == "phone" else page.click(target)

        # what the kid played in the game: wrong again, and the stone runs away
        tap("H1")
        page.wait_for_selector("#retry:not([hidden])")
        assert "bad" in page.locator("#feedback").get_attribute("class")
        assert "white" in page.locator("#step g.pt[data-point=D4]").get_attribute("class")  # it escaped
        page.screenshot(path=f"/tmp/games-{device}-{lang}-wrong.png", full_page=True)
        # show me: the board points at a move that works, the kid plays it, praise
        page.click("#show")
        page.wait_for_selector("#step g.pt.answer[data-point=D4]")
        assert "empty" in page.locator("#step g.pt[data-point=D4]").get_attribute("class")  # the board is reset
        page.screenshot(path=f"/tmp/games-{device}-{lang}-show.png", full_page=True)
        tap("D4")
        page.wait_for_selector("#go-next:not([hidden])")
        assert "good" in page.locator("#feedback").get_attribute("class")
        assert "empty" in page.locator("#step g.pt[data-point=D5]").get_attribute("class")  # taken off
        page.screenshot(path=f"/tmp/games-{device}-{lang}-solved.png", full_page=True)
        page.click("#go-next")
        page.wait_for_selector(".card.done")
        if lang == "zh":
            _no_english(page)
        page.screenshot(path=f"/tmp/games-{device}-{lang}-done.png", full_page=True)

        # the replay: from the end back to the missed move, then to the start, by buttons and by the slider
        page.goto(f"{base}/games/{played['game']}")
        number = page.locator("#move-number")
        assert "10" in number.inner_text()
        for _ in range(3):
            page.click("#prev")
        assert re.search(r"\b7\b", number.inner_text())
        assert "black" in page.locator("#replay g.pt[data-point=H1]").get_attribute("class")
        assert "empty" in page.locator("#replay g.pt[data-point=D4]").get_attribute("class")
        page.click("#first")
        assert "empty" in page.locator("#replay g.pt[data-point=E5]").get_attribute("class")
        assert page.locator("#slider").bounding_box()["height"] >= 44  # a child's finger finds it
        page.locator("#slider").fill("8")
        assert "white" in page.locator("#replay g.pt[data-point=D4]").get_attribute("class")
        # watch: the game plays on by itself to its end and stops there; watched again, it starts from the start,
        # and a step of the child's own stops it
        from playwright.sync_api import expect

        watch = page.locator("#watch")
        watch.click()
        assert watch.get_attribute("aria-pressed") == "true"
        expect(page.locator("#slider")).to_have_value("10", timeout=5000)  # (the page's CSP allows no eval)
        expect(watch).to_have_attribute("aria-pressed", "false", timeout=3000)
        watch.click()
        assert page.locator("#slider").input_value() == "0" and watch.get_attribute("aria-pressed") == "true"
        page.click("#next")
        assert watch.get_attribute("aria-pressed") == "false"
        page.wait_for_timeout(1500)
        assert page.locator("#slider").input_value() == "1"  # stopped: the clock no longer steps
        _fits(page, device)
        if lang == "zh":
            _no_english(page)
        page.screenshot(path=f"/tmp/games-{device}-{lang}-replay.png", full_page=True)
        assert not elsewhere and not errors
        context.close()


def test_a_slow_answer_in_a_retry_puzzle_shows_the_board_thinking(demo, played, browser):
    """A retry puzzle's moves are read live: while an answer is on its way the tapped point glows and the page says
    it is thinking, instead of leaving the last move's words under a stone the computer has not answered."""
    import time

    with serving(demo) as base:
        context = _signed_in(demo, browser, "tablet", "en", base, played["kid"])
        page = context.new_page()

        def slow(route):
            answer = route.fetch()
            time.sleep(1.6)
            route.fulfill(response=answer)

        page.route(f"**/games/missed/{played['missed']}/move", slow)
        page.goto(f"{base}/games/{played['game']}/review")
        page.wait_for_selector("#step svg.board.playable")
        page.evaluate("""() => { window.__said = [];
            new MutationObserver(() => window.__said.push(document.getElementById('feedback').textContent))
              .observe(document.getElementById('feedback'), {childList: true, characterData: true, subtree: true}); }""")
        page.click("#step g.pt[data-point=H1]")
        page.wait_for_selector("#step g.pt.pending[data-point=H1]")
        page.wait_for_selector("#retry:not([hidden])", timeout=10000)
        assert "Hmm, let me think about that…" in page.evaluate("window.__said")
        assert page.locator("#step.thinking").count() == 0 and page.locator("g.pt.pending").count() == 0
        assert "bad" in page.locator("#feedback").get_attribute("class")
        context.close()


def test_a_retry_puzzle_says_its_words_aloud_for_a_child_who_cannot_read(demo, played, browser):
    """On a young kid's pages (narration on by default, as in the first lessons) the retry puzzle reads itself
    out, and the computer's answer to a wrong move is said as well as shown."""
    from test_browser_kid import STUB_VOICE, WITH_VOICES

    with serving(demo) as base:
        context = _signed_in(demo, browser, "tablet", "zh", base, played["kid"])
        context.add_init_script(STUB_VOICE % WITH_VOICES)
        page = context.new_page()
        page.goto(f"{base}/games/{played['game']}/review")
        page.wait_for_selector("#step svg.board.playable")
        instruction = page.locator("#instruction").inner_text().strip()
        page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=instruction)
        page.click("#step g.pt[data-point=H1]")
        page.wait_for_selector("#retry:not([hidden])", timeout=10000)
        words = page.locator("#feedback").inner_text()
        page.wait_for_function("w => window.__spoken.includes(w)", arg=words)
        context.close()


def test_the_review_page_waits_for_the_review_and_then_shows_the_puzzle(demo, browser):
    """The page says the teacher is looking while the game waits; when the review is written (here by the test,
    as a runner would), the page's polling finds it and the first missed capture appears."""
    from teach.models import PlayedGame, User, utcnow
    from teach.web import reviews
    from teach.web.extensions import db

    demo.config["REVIEW_RUNNER"] = False
    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        game = PlayedGame(kid_id=kid.id, kind="full", size=9, komi=7.5, kid_color="black", opponent="computer",
                          level=1, moves=GAME, ply=len(GAME), state="finished", result="W+R", winner="white",
                          reviewed=False, finished_at=utcnow())
        db.session.add(game)
        db.session.commit()
        game_id, session_id = game.id, kid.get_id()
    with serving(demo) as base:
        context = _signed_in(demo, browser, "phone", "zh", base, session_id)
        page = context.new_page()
        page.goto(f"{base}/games/{game_id}/review")
        assert "老师正在看你的棋" in page.locator("#pending").inner_text()
        assert "你认输了" in page.locator(".result").inner_text()
        _fits(page, "phone")
        _no_english(page)
        # a review that takes longer than a few seconds: the kid need not sit and wait
        page.locator("#pending-later").wait_for(state="visible", timeout=15000)
        assert "再来一盘" in page.locator("#pending-later").inner_text()
        _fits(page, "phone")
        page.screenshot(path="/tmp/games-phone-zh-pending.png", full_page=True)
        with demo.app_context():
            stamp = reviews.claim_game(game_id)
            assert reviews.finish(game_id, stamp, [FINDING]) == "done"
        page.wait_for_selector("#step svg.board.playable", timeout=20000)
        assert "这里可以吃掉白棋" in page.locator("#instruction").inner_text()
        context.close()


def test_the_teacher_follows_the_kid_s_game_from_the_kid_page_to_the_review_read_only(demo, played, browser):
    from teach.models import Group, User
    from teach.web.extensions import db

    with demo.app_context():
        teacher = db.session.scalar(sa.select(User).where(User.email == "teacher@example.com"))
        klass = db.session.scalar(sa.select(Group).where(Group.code == "CAT234"))
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        session_id, class_id, kid_id = teacher.get_id(), klass.id, kid.id
    with serving(demo) as base:
        context = _signed_in(demo, browser, "tablet", "zh", base, session_id)
        page = context.new_page()
        page.goto(f"{base}/teach/classes/{class_id}/kids/{kid_id}")
        page.click(f".recent-games a[href='/games/{played['game']}/review']")
        page.wait_for_selector(".findings .finding")
        text = page.locator(".findings").inner_text()
        assert "第 7 手" in text and "D4" in text and "H1" in text
        assert page.locator("svg.board.playable").count() == 0  # read-only
        _fits(page, "tablet")
        page.screenshot(path="/tmp/games-tablet-zh-teacher-review.png", full_page=True)
        context.close()
