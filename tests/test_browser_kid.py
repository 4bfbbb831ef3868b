"""The kid's side for pre-readers and classroom tablets, in a real browser at tablet and phone size: narration
that starts by itself (a stubbed speechSynthesis records what would be said), a device without a voice, touch
targets measured on the page, the reward on screen on a phone, and a tablet that remembers its class."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)
from test_kid_pages import judge_out_of_budget  # noqa: F401  (a fixture: a real judge with a tiny budget)
from teach.models import User
from teach.web.extensions import db

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh": "zh-CN", "en": "en-US"}
SHOTS = Path(os.environ.get("KIDUI_SHOTS", "/tmp/kidui-shots"))
MIN_TARGET = 44  # CSS px, both ways

pytestmark = needs_chromium

# a speechSynthesis that records what the page asks it to say; voices as the test sets them
STUB_VOICE = """
window.__spoken = [];
window.__voices = %s;
class FakeUtterance { constructor(text) { this.text = text; } }
window.SpeechSynthesisUtterance = FakeUtterance;
Object.defineProperty(window, "speechSynthesis", {value: {
  speak(u) { window.__spoken.push(u.text); if (u.onstart) u.onstart(); if (u.onend) setTimeout(u.onend, 10); },
  cancel() {}, getVoices() { return window.__voices; }, addEventListener() {}
}});
"""
WITH_VOICES = '[{"lang": "zh-CN"}, {"lang": "en-US"}]'


@pytest.fixture
def server(demo):
    with serving(demo) as url:
        yield url


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def new_page(browser, device: str, lang: str = "en", voices: str | None = WITH_VOICES):
    context = browser.new_context(viewport=SIZES[device], locale=LOCALES[lang], has_touch=True)
    if voices is not None:
        context.add_init_script(STUB_VOICE % voices)
    return context, context.new_page()


def sign_in(page, server: str, app, lang: str = "en") -> None:
    """Type the class code, tap 明明, tap the three pictures: the map."""
    page.goto(server + "/kids")
    if lang == "zh" and page.locator("html").get_attribute("lang") != "zh-Hans":
        page.click(".lang-switch button")
        # the switch reloads the page: type the code into the new one, not the one going away
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
        page.wait_for_load_state()
    page.fill("input[name=code]", "cat234")
    page.click("button.big-button")
    page.click("a.avatar >> text=明明")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/")


def open_puzzle(page, server: str) -> None:
    """The first lesson's puzzle (its step 1 opens once step 0 is seen)."""
    page.goto(server + "/learn/web-first/0")
    page.click("#next")
    page.wait_for_url("**/learn/web-first/1")


def spoken(page) -> list[str]:
    return page.evaluate("window.__spoken")


def too_small(page, selector: str) -> list[str]:
    """Every visible element of ``selector`` narrower or lower than MIN_TARGET px, described."""
    return page.evaluate("""([selector, least]) => [...document.querySelectorAll(selector)]
        .filter(el => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([el, r]) => r.width > 0 && (r.width < least || r.height < least))
        .map(([el, r]) => `${el.tagName} ${el.id || el.className.baseVal || el.className} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`)""",
                         [selector, MIN_TARGET])


@pytest.mark.parametrize("device", list(SIZES))
def test_narration_starts_by_itself_on_a_first_level_step_and_follows_the_setting(server, browser, demo, device):
    context, page = new_page(browser, device)
    sign_in(page, server, demo)
    page.goto(server + "/learn/web-first/0")
    page.wait_for_function("() => window.__spoken.length > 0")
    said = " ".join(spoken(page))
    assert "The little mouse is out stealing food!" in said and "This mouse has four roads." in said
    shot(page, f"narration-{device}")

    # the grown-ups' setting turns it off for this device: the next step says nothing until 🔊 is tapped
    page.click(".grown-ups summary")
    # the choice is kept on the account: reload only once the server has it
    with page.expect_response("**/learn/settings"):
        page.uncheck("#set-narrate")
    page.evaluate("window.__spoken = []")
    page.reload()
    page.wait_for_timeout(400)
    assert spoken(page) == []
    page.click("#read-aloud")
    assert "This mouse has four roads." in " ".join(spoken(page))
    context.close()


def test_on_the_sign_in_pages_the_no_voice_notice_covers_no_button(server, browser, demo):
    """A class tablet without a Chinese voice: the notice sat fixed over the screen's foot and covered "Not me"
    on the picture password page (1024x768); it is under the page now, and every button can be tapped."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="zh-CN", has_touch=True)
    context.add_init_script(STUB_VOICE % "[]")
    page = context.new_page()
    page.goto(server + "/kids")
    page.fill("input[name=code]", "cat234")
    page.click("button.big-button")
    page.click("a.avatar >> text=明明")
    page.wait_for_selector(".page-no-voice:not([hidden])", timeout=4000)
    notice = page.locator(".page-no-voice").bounding_box()
    buttons = page.locator("main a, main button").all()
    assert len(buttons) >= 10  # nine pictures, "start again", "not me"
    for button in buttons:
        box = button.bounding_box()
        if box is None:
            continue
        apart = (box["y"] + box["height"] <= notice["y"] or notice["y"] + notice["height"] <= box["y"]
                 or box["x"] + box["width"] <= notice["x"] or notice["x"] + notice["width"] <= box["x"])
        assert apart, button.inner_text()
    context.close()


@pytest.mark.parametrize("device", list(SIZES))
def test_a_device_without_a_voice_says_so_where_the_child_looks(server, browser, demo, device):
    context, page = new_page(browser, device, lang="zh", voices="[]")
    sign_in(page, server, demo, lang="zh")
    open_puzzle(page, server)
    page.wait_for_selector("#no-voice:not([hidden])", timeout=4000)
    assert page.locator("#read-aloud").inner_text() == "🔇"
    assert "朗读" in page.locator("#no-voice").inner_text()
    shot(page, f"no-voice-{device}-zh")
    # a grown-up has read it: "got it" puts it away on this device, the crossed-out 🔊 stays and brings it back
    page.click("#no-voice .no-voice-ok")
    assert page.locator("#no-voice").is_hidden()
    page.reload()
    page.wait_for_function("() => document.querySelector('#read-aloud').textContent === '🔇'")
    page.wait_for_timeout(1700)  # the voices are asked for again; the notice stays away
    assert page.locator("#no-voice").is_hidden()
    page.click("#read-aloud")
    assert page.locator("#no-voice").is_visible()
    context.close()


@pytest.mark.parametrize("device", list(SIZES))
def test_touch_targets_are_at_least_44_px_on_the_map_the_board_and_the_buttons(server, browser, demo, device):
    context, page = new_page(browser, device)
    sign_in(page, server, demo)
    targets = "header a, header button, header summary, main a, main button, #page-read"
    assert too_small(page, targets) == []
    # the phone header stays on one line
    header = page.locator("header.top").bounding_box()
    assert header["height"] < 2 * MIN_TARGET + 10, header
    shot(page, f"map-{device}")

    open_puzzle(page, server)  # a 9x9 puzzle: the board fills the width
    board = page.locator("svg.board").bounding_box()
    width = SIZES[device]["width"]
    assert board["width"] >= 0.95 * width if device == "phone" else board["width"] >= 0.9 * width
    assert board["y"] + board["height"] <= SIZES[device]["height"]  # the whole board on screen
    assert too_small(page, "main button, main a, header a, header button, header summary") == []
    # every point of the board is 44 px apart, a phone's 390 px too (a board without coordinates keeps no margin
    # beyond its edge stones); and the whole board is on screen, edge stones too
    cells = page.evaluate("""() => [...document.querySelectorAll('svg.board g.pt rect.hit')]
        .map(r => r.getBoundingClientRect()).map(r => Math.min(r.width, r.height))""")
    assert len(cells) == 81 and min(cells) >= MIN_TARGET, min(cells)
    corners = page.evaluate("""() => ['A1', 'J9'].map(p => document.querySelector(`g.pt[data-point=${p}] circle.stone`))
        .map(c => { const m = c.getScreenCTM(), r = +c.getAttribute('r'), x = +c.getAttribute('cx'), y = +c.getAttribute('cy');
                    return [(x - r) * m.a + m.e, (x + r) * m.a + m.e]; })""")
    assert corners[0][0] >= 0 and corners[1][1] <= width, corners
    print(f"{device}: 9x9 points {min(cells):.1f} px apart")
    shot(page, f"board-{device}")
    context.close()


@pytest.mark.parametrize("device", list(SIZES))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_reward_is_on_screen_with_its_sticker_and_a_next_button(server, browser, demo, device, lang):
    context, page = new_page(browser, device, lang=lang)
    sign_in(page, server, demo, lang=lang)
    open_puzzle(page, server)
    page.click("g.pt[data-point=E4]")
    page.wait_for_selector("#go-next:not([hidden])")
    # the first capture is a milestone mid-lesson: its sticker flies in, without the end-of-lesson words
    assert page.locator("#milestone-won").is_visible()
    assert page.locator("#milestone-picture").inner_text() == "🎉"
    assert page.locator("#celebrate").is_hidden() and page.locator("#recap").is_hidden()
    shot(page, f"milestone-{device}-{lang}")
    page.click("#go-next")
    page.wait_for_url("**/learn/web-first/2")
    # "Check" with nothing tapped says how to answer; no answer is sent (no mistake counted)
    page.click("#check")
    page.wait_for_selector("#feedback:not(:empty)")
    assert ("先在棋盘上点出这些点" if lang == "zh" else "Tap the points on the board first") in \
        page.locator("#feedback").inner_text()
    for point in ("D5", "F5", "E4"):
        page.click(f"g.pt[data-point={point}]")
    page.click("#check")
    page.wait_for_selector("#celebrate:not([hidden])")
    assert page.locator("#stars-won").get_attribute("aria-label") == "3 / 3"  # the empty Check was no mistake
    page.wait_for_timeout(1200)  # the stars and the sticker have landed
    view = SIZES[device]
    for part in ("#stars-won", "#sticker-picture", "#sticker-won", "#celebrate-next"):
        box = page.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (part, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (part, box)
    assert page.locator("#stars-won .star.won").count() >= 1
    assert ("警长徽章" if lang == "zh" else "Police badge") in page.locator("#sticker-won").inner_text()
    # the lesson's sticker, then the milestone it reached (the first lesson), each its own picture
    assert page.locator("#sticker-picture").inner_text().split() == ["📛", "🎒"]
    assert "milestone-" not in page.locator("body").inner_text()
    shot(page, f"reward-{device}-{lang}")
    page.click("#celebrate-next")
    page.wait_for_url("**/learn/")
    page.goto(server + "/learn/stickers")
    assert "milestone-" not in page.locator("body").inner_text()
    shot(page, f"stickers-{device}-{lang}")
    context.close()


@pytest.mark.parametrize("device", list(SIZES))
def test_a_remembered_class_goes_straight_to_the_avatars_after_a_guarded_sign_out(server, browser, demo, device):
    context, page = new_page(browser, device)
    sign_in(page, server, demo)
    # sign-out asks first; "stay" keeps the child signed in
    page.click(".sign-out-guard summary")
    shot(page, f"sign-out-guard-{device}")
    page.click("#sign-out-no")
    assert page.locator("#sign-out-yes").is_hidden()
    page.click(".sign-out-guard summary")
    page.click("#sign-out-yes")
    page.wait_for_url("**/kids/CAT234")
    assert page.locator("a.avatar").count() >= 2
    shot(page, f"avatars-{device}")
    # the next child on this tablet starts at the avatars too, from the front door
    page.goto(server + "/")
    page.click("a.door.kid")
    page.wait_for_url("**/kids/CAT234")
    # another device has no class yet: the code comes first
    other, other_page = new_page(browser, device)
    other_page.goto(server + "/kids")
    assert other_page.locator("input[name=code]").count() == 1
    other.close()
    # "not your class" lets a grown-up type another code
    page.click("#other-class")
    assert page.locator("input[name=code]").count() == 1
    context.close()


def test_first_level_boards_have_no_coordinates_until_a_grown_up_turns_them_on(server, browser, demo):
    context, page = new_page(browser, "tablet")
    sign_in(page, server, demo)
    open_puzzle(page, server)
    assert page.locator("svg.board text.coord").count() == 0
    page.click(".grown-ups summary")
    page.check("#set-coordinates")
    page.wait_for_selector("svg.board text.coord")
    assert page.locator("svg.board text.coord").count() == 4 * 9
    context.close()


def drop_moves(page, times: int, reach_server: bool = False) -> dict:
    """The network loses the first ``times`` moves sent to the puzzle: before the server (``reach_server``
    False) or after it judged and stored them (their answers lost on the way). Returns the count still to lose."""
    left = {"left": times}

    def lose(route):
        if left["left"] > 0:
            left["left"] -= 1
            if reach_server:
                route.fetch()
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/learn/web-first/1/move", lose)
    return left


def test_a_slow_answer_shows_the_board_thinking_not_the_last_moves_words(server, browser, demo):
    """A move read live can take seconds: meanwhile the page says it is thinking, then the verdict arrives."""
    import time

    context, page = new_page(browser, "tablet", lang="zh")
    sign_in(page, server, demo, lang="zh")
    open_puzzle(page, server)

    def slow(route):
        answer = route.fetch()
        time.sleep(1.6)  # the page's own clock runs on meanwhile
        route.fulfill(response=answer)

    page.route("**/learn/web-first/1/move", slow)
    page.evaluate("""() => { window.__said = [];
        new MutationObserver(() => window.__said.push(document.getElementById('feedback').textContent))
          .observe(document.getElementById('feedback'), {childList: true, characterData: true, subtree: true}); }""")
    page.click("g.pt[data-point=A1]")
    page.wait_for_selector("#retry:not([hidden])", timeout=10000)
    said = page.evaluate("window.__said")
    assert "嗯，让我想一想……" in said, said  # said while the answer was on its way
    assert page.locator("#feedback").inner_text() != "嗯，让我想一想……" and page.locator("#step.thinking").count() == 0
    context.close()


def test_a_move_that_fails_on_the_network_is_sent_again_and_kept(server, browser, demo):
    context, page = new_page(browser, "phone")
    sign_in(page, server, demo)
    open_puzzle(page, server)
    failures = drop_moves(page, 2)
    page.click("g.pt[data-point=E4]")
    page.wait_for_selector("#feedback.good", timeout=8000)
    page.wait_for_selector("#go-next:not([hidden])")
    assert failures["left"] == 0
    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        from teach.models import Attempt
        solved = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid.id,
                                                             Attempt.lesson_id == "web-first")).all()
    assert [a.result for a in solved] == ["solved"]  # kept once, not lost and not doubled
    context.close()


def test_a_first_move_whose_answer_is_lost_is_sent_again_and_counted_once(server, browser, demo):
    """The server got the wrong move and answered; the answer never arrived. The page sends the tap again: one
    try and one mistake are on record, and the page carries on from it, ready for the next tap."""
    context, page = new_page(browser, "phone")
    sign_in(page, server, demo)
    open_puzzle(page, server)
    lost = drop_moves(page, 1, reach_server=True)
    page.click("g.pt[data-point=A1]")
    page.wait_for_selector("#step:not(.pending) #feedback:not(:empty)", timeout=8000)
    page.wait_for_function("() => !document.querySelector('g.pt.pending')")
    assert lost["left"] == 0
    page.click("g.pt[data-point=E4]")  # and the puzzle goes on
    page.wait_for_selector("#go-next:not([hidden])")
    from teach.models import Attempt, LessonProgress

    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "明明"))
        tries = db.session.scalars(sa.select(Attempt).where(Attempt.kid_id == kid.id,
                                                            Attempt.lesson_id == "web-first")).all()
        mistakes = db.session.scalar(sa.select(LessonProgress.mistakes).where(
            LessonProgress.kid_id == kid.id, LessonProgress.lesson_id == "web-first"))
    assert sorted(a.result for a in tries) == ["failed", "solved"] and mistakes == 1
    context.close()


BIG_LESSON = """id: web-big
topic: capture
order: 1
level: 1
size: 13
sticker:
  id: web-big-cat
  picture: cat
  name: {zh: 大棋盘小猫, en: Big-board cat}
title: {zh: 大棋盘, en: The big board}
intro: {zh: 棋盘变大了！, en: The board is bigger!}
recap: {zh: 大棋盘上也一样抓。, en: On a big board you catch it the same way.}
steps:
  - puzzle:
      goal: capture
      target: [G7]
      text: {zh: 抓住小老鼠！, en: Catch the mouse!}
      board: |
%s
"""


@pytest.fixture
def big_board_server(app, tmp_path):
    """A map of one 13x13 lesson (the web lessons' catalogue)."""
    import shutil

    from teach.web.demo import create_demo

    rows = ["." * 13 for _ in range(13)]
    def put(point, stone):
        col, row = "ABCDEFGHJKLMN".index(point[0]), 13 - int(point[1:])
        rows[row] = rows[row][:col] + stone + rows[row][col + 1:]
    for point, stone in (("G7", "O"), ("F7", "X"), ("H7", "X"), ("G8", "X")):
        put(point, stone)
    lessons = tmp_path / "lessons"
    (lessons / "capture").mkdir(parents=True)
    shutil.copy(Path(__file__).parent / "web_lessons" / "catalog.yaml", lessons)
    board = "\n".join("        " + " ".join(r) for r in rows)
    (lessons / "capture" / "web-big.yaml").write_text(BIG_LESSON % board, encoding="utf-8")
    app.config["LESSONS_DIR"] = str(lessons)
    with app.app_context():
        create_demo()
    with serving(app) as url:
        yield url


def test_a_13x13_board_on_a_phone_zooms_in_so_every_point_is_44_px(big_board_server, browser, app):
    server = big_board_server
    context, page = new_page(browser, "phone")
    sign_in(page, server, app)
    page.goto(server + "/learn/web-big/0")
    whole = page.locator("g.pt[data-point=G6] rect.hit").bounding_box()
    assert whole["width"] < MIN_TARGET  # 13 points across a phone: too close for a finger
    page.tap("g.pt[data-point=G6]")  # the first tap zooms in there and plays nothing
    page.wait_for_selector(".board-wrap.zoomed")
    assert page.locator("g.pt.black[data-point=G6]").count() == 0
    zoomed = page.locator("g.pt[data-point=G6] rect.hit").bounding_box()
    assert zoomed["width"] >= MIN_TARGET and zoomed["height"] >= MIN_TARGET, zoomed
    assert too_small(page, ".whole-board") == []
    shot(page, "big-board-zoomed-phone")
    page.tap("g.pt[data-point=G6]")  # the second plays
    page.wait_for_selector("#feedback.good")
    page.wait_for_selector(".board-wrap:not(.zoomed)", timeout=5000)  # back to the whole board
    context.close()


def test_a_13x13_board_on_a_tablet_is_played_at_once(big_board_server, browser, app):
    context, page = new_page(browser, "tablet")
    sign_in(page, big_board_server, app)
    page.goto(big_board_server + "/learn/web-big/0")
    cell = page.locator("g.pt[data-point=G6] rect.hit").bounding_box()
    assert cell["width"] >= MIN_TARGET
    page.click("g.pt[data-point=G6]")
    page.wait_for_selector("#feedback.good")
    assert page.locator(".board-wrap.zoomed").count() == 0
    context.close()


def test_the_lesson_s_pages_are_kept_for_a_wi_fi_gap(server, browser, demo):
    context, page = new_page(browser, "tablet")
    sign_in(page, server, demo)
    open_puzzle(page, server)
    # explicit waits, not sleeps (a loaded machine is slow at each of them): the helper is active and knows whose
    # pages it keeps ...
    owner = page.locator("body").get_attribute("data-owner")
    page.wait_for_function("""async owner => {
        const reg = await navigator.serviceWorker.getRegistration();
        if (!reg || !reg.active || reg.active.state !== 'activated') return false;
        const kept = await (await caches.open('teach-static-v1')).match('/learn/sw-owner');
        return kept !== undefined && (await kept.text()) === owner; }""", arg=owner, timeout=15000)
    page.reload()  # now the helper looks after the page, and keeps it
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    # ... and the page and every file it loads are in its caches
    page.wait_for_function("""async () => {
        const pages = await caches.open('teach-pages-v1'), statics = await caches.open('teach-static-v1');
        if (!(await pages.match(location.href))) return false;
        const files = [...document.querySelectorAll('link[rel=stylesheet], script[src]')].map(e => e.href || e.src);
        return (await Promise.all(files.map(f => statics.match(f)))).every(Boolean); }""", timeout=15000)
    context.set_offline(True)
    page.reload()
    assert page.locator("svg.board g.pt").count() == 81  # the step, from the kept copy
    # every stylesheet of the page came from the kept copies (teach.css, and the help's on a puzzle)
    assert page.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')]"
                         ".every(l => l.sheet && l.sheet.cssRules.length > 0)")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 250, 240)"  # teach.css
    page.goto(server + "/learn/stickers")  # never seen: a friendly page, not the browser's error
    assert "📶" in page.locator("body").inner_text()
    context.set_offline(False)
    shot(page, "offline-tablet")
    context.close()


FAKE_AUDIO = """
window.__notes = 0;
class FakeAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { window.__notes += 1;
    return {frequency: {}, connect() {}, start() {}, stop() {}}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}}; }
}
window.AudioContext = FakeAudio;
"""


@pytest.mark.parametrize("muted", [False, True])
def test_the_celebration_sound_plays_unless_the_child_muted_it(server, browser, demo, muted):
    context, page = new_page(browser, "phone")
    context.add_init_script(FAKE_AUDIO)
    sign_in(page, server, demo)
    open_puzzle(page, server)
    if muted:
        page.click("#mute")
        assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    page.click("g.pt[data-point=E4]")
    page.wait_for_selector("#go-next:not([hidden])")
    # the page has celebrated (the solved glow comes with the fanfare); the sound, if any, is waited for, not slept
    page.wait_for_selector("#step.solved")
    if muted:
        assert page.evaluate("window.__notes") == 0
    else:  # the stone's clack and the little fanfare
        page.wait_for_function("() => window.__notes >= 3", timeout=5000)
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh"), ("tablet", "en")])
def test_a_move_the_judge_needs_another_go_at_shows_it_thinking_until_its_verdict_arrives(
        server, browser, demo, judge_out_of_budget, device, lang):
    from teach.web import deep_read

    context, page = new_page(browser, device, lang=lang)
    sign_in(page, server, demo, lang=lang)
    open_puzzle(page, server)
    page.evaluate("window.__spoken = []")
    page.tap("g.pt[data-point=A1]") if device == "phone" else page.click("g.pt[data-point=A1]")
    # the stone is shown with friendly words (said aloud on a first level), never "too hard for me" ...
    page.wait_for_selector("#step.thinking g.pt.black[data-point=A1]")
    words = "嗯，让我想一想……" if lang == "zh" else "Hmm, let me think about that…"
    assert page.locator("#feedback").inner_text() == words
    assert words in spoken(page)
    shot(page, f"thinking-{device}-{lang}")
    # ... the page asks again by itself while the computer reads on, and the verdict arrives: A1 is wrong
    page.wait_for_selector("#retry:not([hidden])", timeout=20000)
    assert page.locator("#step.thinking").count() == 0 and page.locator("#feedback").inner_text() != words
    assert "老师算不清" not in page.locator("body").inner_text() and "too hard" not in page.locator("body").inner_text()
    assert deep_read.wait_idle(timeout=60)
    page.click("#retry")
    page.click("g.pt[data-point=E4]")
    page.wait_for_selector("#go-next:not([hidden])")
    context.close()


@pytest.mark.parametrize("device", list(SIZES))
def test_the_map_reads_out_the_rank_the_daily_goal_and_the_streak(server, browser, demo, device):
    context, page = new_page(browser, device, lang="zh")
    sign_in(page, server, demo, lang="zh")
    page.evaluate("window.__spoken = []")
    page.click("#page-read")
    said = spoken(page)
    assert "你的级位：25级" in said, said
    assert page.locator("#daily-goal .goal-words").inner_text() in said
    assert "连续0天" in said
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh"), ("tablet", "en")])
def test_the_sign_in_screens_read_themselves_aloud(server, browser, demo, device, lang):
    """A pre-reader hears each sign-in screen by itself: the code screen, the avatars (each name), the pictures."""
    context, page = new_page(browser, device, lang=lang)
    page.goto(server + "/kids")
    if lang == "zh" and page.locator("html").get_attribute("lang") != "zh-Hans":
        page.click(".lang-switch button")
    page.wait_for_function("() => window.__spoken.length > 0")
    assert page.locator("h1").inner_text().replace("🐱", "").strip() in " ".join(spoken(page))
    page.fill("input[name=code]", "cat234")
    page.click("button.big-button")
    page.wait_for_url("**/kids/CAT234")
    page.wait_for_function("() => window.__spoken.length > 0")
    said = " ".join(spoken(page))
    assert page.locator("h1").inner_text() in said and "明明" in said and "Lily" in said
    page.click("a.avatar >> text=明明")
    page.wait_for_function("() => window.__spoken.length > 0")
    assert "明明" in " ".join(spoken(page))
    shot(page, f"pictures-{device}-{lang}")
    context.close()


@pytest.mark.parametrize("device", list(SIZES))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_kid_page_has_44_px_targets_and_no_sideways_scroll(server, browser, demo, device, lang):
    """The rest of the journey, page by page: practice (a set and its summary), the sticker book, the placement
    test, the play room's door; each is looked at in its screenshot."""
    context, page = new_page(browser, device, lang=lang)
    sign_in(page, server, demo, lang=lang)
    for name, path in (("practice", "/practice/"), ("practice-step", "/practice/escape/1/7/0"),
                       ("practice-summary", "/practice/escape/1/7/done"), ("stickers", "/learn/stickers"),
                       ("placement", "/placement/"), ("play-start", "/play/")):
        page.goto(server + path)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), name
        assert too_small(page, "header a, header button, header summary, main a, main button, main summary, "
                               "main label.pick") == [], name
        shot(page, f"journey-{name}-{device}-{lang}")
    context.close()


def long_press(page, selector: str) -> None:
    """Hold a finger on it past the long-press time (the hold itself is what is tested, so it is waited out)."""
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_function("() => window.__spoken.length > 0", timeout=3000)
    page.mouse.up()


@pytest.mark.parametrize("device, lang", [("phone", "zh"), ("tablet", "en")])
def test_a_long_press_says_what_a_button_is_and_does_not_press_it(server, browser, demo, device, lang):
    context, page = new_page(browser, device, lang=lang)
    sign_in(page, server, demo, lang=lang)
    open_puzzle(page, server)
    page.evaluate("window.__spoken = []")
    long_press(page, "#hint")
    assert spoken(page) == [page.locator("#hint").get_attribute("data-say")]
    page.wait_for_timeout(300)  # a click would have asked for the hint by now
    assert page.locator("#feedback").inner_text() == ""
    # and on a game's page: "pass" is said, not played
    page.goto(server + "/play/")
    page.click("#start")
    page.wait_for_selector("#play-game")
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.__spoken.length > 0")  # the game said itself first
    ply = page.locator("#play-game").get_attribute("data-ply")
    page.evaluate("window.__spoken = []")
    long_press(page, "#pass")
    assert page.locator("#pass").get_attribute("data-say") in spoken(page)
    page.wait_for_timeout(300)
    assert page.locator("#play-game").get_attribute("data-ply") == ply
    context.close()


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 768}, {"width": 768, "height": 1024},
                                      {"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_step_s_buttons_are_on_the_screen_with_the_board(server, demo, browser, viewport):
    """A child who cannot read does not know to scroll: "Next", "Check" and the hint are on the screen with the
    board, held upright or sideways (a 1024x768 tablet had them under its edge), and the board stays big enough
    to tap (a screen held sideways puts the words beside it)."""
    context = browser.new_context(viewport=viewport, locale="zh-CN", has_touch=True)
    context.add_init_script(STUB_VOICE % WITH_VOICES)
    page = context.new_page()
    sign_in(page, server, demo, "zh")
    for path, button in (("/learn/web-first/0", "#next"), ("/learn/web-first/1", "#hint")):
        page.goto(server + path)
        page.wait_for_load_state("load")
        board = page.locator(".board-wrap").bounding_box()
        action = page.locator(button).bounding_box()
        assert action["y"] + action["height"] <= viewport["height"], (path, viewport)
        assert board["width"] >= 288 and board["x"] + board["width"] <= viewport["width"]
        if viewport["width"] > viewport["height"]:  # sideways: the board as high as the screen, the words beside
            assert board["y"] + board["height"] <= viewport["height"] and board["height"] >= viewport["height"] - 100
            assert page.locator("#instruction").bounding_box()["x"] >= board["x"] + board["width"]
        if path.endswith("/0"):
            page.click("#next")
            page.wait_for_url("**/learn/web-first/1")
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh"), ("tablet", "en")])
def test_a_narrated_step_says_aloud_why_a_move_was_wrong_without_reading_out_pictures(server, browser, demo,
                                                                                      device, lang):
    """A child who cannot read hears the computer's answer to a wrong move (it was shown only), and a voice is not
    asked to read out the pictures in the words (🐱 is "cat face" to a voice)."""
    import re

    context, page = new_page(browser, device, lang=lang)
    sign_in(page, server, demo, lang=lang)
    open_puzzle(page, server)
    page.evaluate("window.__spoken = []")
    page.tap("g.pt[data-point=D4]") if device == "phone" else page.click("g.pt[data-point=D4]")
    page.wait_for_selector("#retry:not([hidden])")
    words = page.locator("#feedback").inner_text()
    assert words and words in spoken(page)
    context.close()
    context, page = new_page(browser, device, lang=lang)  # signed out: the code screen's heading has a picture
    page.goto(server + "/kids")
    page.wait_for_function("() => window.__spoken.length > 0")
    shown = page.locator("h1").inner_text()
    assert re.search("[\U0001F300-\U0001FAFF]", shown)  # the heading has a picture for the eyes ...
    said = " ".join(spoken(page))
    assert not re.search("[\U0001F300-\U0001FAFF\u2600-\u27BF]", said)  # ... which the voice leaves out
    assert re.sub("[\U0001F300-\U0001FAFF\uFE0F]", "", shown).strip() in said
    context.close()
