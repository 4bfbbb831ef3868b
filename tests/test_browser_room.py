"""The play room and a live game in a real browser (Debian's chromium through Playwright): two children in two
browser contexts meet in the room, one invites, the other accepts with a tap, they play a capture game to its end
(each move appearing on the other screen by itself), and the teacher's live view shows the game and its result.
On a tablet in Chinese and on a phone in English; screenshots go to /tmp/live-shots/ for people to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)
from teach.models import Group, LiveGame, PlayRoom, User
from teach.web.extensions import db

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh": "zh-CN", "en": "en-US"}
SHOTS = Path("/tmp/live-shots")
CAPTURE_ONE = ["A6", "A7", "B6", "G1", "B7"]  # White's corner stone A7 is caught

pytestmark = needs_chromium


REDIS = "redis://127.0.0.1:6379/5"


@pytest.fixture
def server(demo, request):
    with demo.app_context():  # the teacher's room: capture games to one stone, so a game is short
        gid = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        db.session.add(PlayRoom(group_id=gid, kinds=["capture-7", "full-9"], capture_goal=1, away_seconds=120,
                                away_outcome="adjourn"))
        db.session.commit()
    callspec = getattr(request.node, "callspec", None)  # a test without parameters plays unheld
    held = callspec.params.get("held", False) if callspec else False
    if held:  # the pages' questions held until the game changes (Redis, as a district deploys it)
        import redis

        client = redis.Redis.from_url(REDIS, socket_timeout=1)
        try:
            client.ping()
        except redis.RedisError:
            pytest.skip(f"no Redis at {REDIS}")
        client.flushdb()
        demo.config.update(LIVE_REDIS_URL=REDIS, LIVE_HOLD=8)
    with serving(demo) as url:
        yield url
    if held:
        client.flushdb()


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def kid_page(browser, server, app, name, pictures, device, lang):
    from test_browser_kid import STUB_VOICE, WITH_VOICES

    context = browser.new_context(viewport=SIZES[device], locale=LOCALES[lang], has_touch=True)
    context.add_init_script(STUB_VOICE % WITH_VOICES)  # records what the page says aloud (window.__spoken)
    page = context.new_page()
    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == name))
    page.goto(f"{server}/kids/CAT234/{kid_id}")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in pictures:
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/")
    page.click("a.nav-room")
    page.wait_for_url("**/room/*")
    return context, page


def teacher_live_view(context, server, app):
    """The teacher signed in, on the class's live view."""
    page = context.new_page()
    page.goto(f"{server}/login")
    page.fill("input[name=email]", "teacher@example.com")
    page.fill("input[name=password]", "black-cat-42")
    page.click("main form button.button")
    page.wait_for_url(lambda url: "/login" not in url)
    with app.app_context():
        gid = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
    page.goto(f"{server}/room/class/{gid}/live")
    return page


def press(page, device, selector):
    page.tap(selector) if device == "phone" else page.click(selector)


@pytest.mark.parametrize("device, lang, held", [("tablet", "zh", False), ("phone", "en", False),
                                               ("tablet", "en", True)])
def test_two_children_play_a_capture_game_in_two_browsers_and_the_teacher_watches(browser, server, demo,
                                                                                    device, lang, held):
    app = demo
    ming_ctx, ming = kid_page(browser, server, app, "明明", ("cat", "fish", "moon"), device, lang)
    lily_ctx, lily = kid_page(browser, server, app, "Lily", ("star", "apple", "sun"), device, lang)
    asked = []  # the game pages' questions
    for page in (ming, lily):
        page.on("request", lambda r: asked.append(r.url) if "/state" in r.url and "/live/" in r.url else None)
    teacher_ctx = browser.new_context(viewport=SIZES["tablet"], locale=LOCALES[lang])
    try:
        ming.wait_for_selector("#classmates li.classmate:has-text('Lily') button.invite")
        shot(ming, f"room-{device}-{lang}")
        press(ming, device, "#classmates li.classmate:has-text('Lily') button.invite")
        lily.wait_for_selector("#invitation-list li.invitation button.accept")
        # no crossed invitations: 明明 is not offered to Lily as someone to invite, nor Lily again to 明明
        lily.wait_for_selector("#classmates li.classmate:has-text('明明') .kid-busy")
        assert lily.locator("#classmates li.classmate:has-text('明明') button.invite").count() == 0
        ming.wait_for_selector("#classmates li.classmate:has-text('Lily') .kid-busy")
        assert ming.locator("#classmates li.classmate:has-text('Lily') button.invite").count() == 0
        shot(lily, f"invited-{device}-{lang}")
        # a child who cannot read hears who asks (the demo kids are on their first levels: the page narrates)
        lily.wait_for_function("() => window.__spoken.some(s => s.includes('明明'))", timeout=5000)
        press(lily, device, "#invitation-list li.invitation button.accept")
        lily.wait_for_url("**/live/*")
        ming.wait_for_url("**/live/*", timeout=10000)  # the inviter's room opens the game by itself
        assert ming.url == lily.url
        with app.app_context():
            game = db.session.scalar(sa.select(LiveGame))
            black_is_ming = game.black_id == db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        black, white = (ming, lily) if black_is_ming else (lily, ming)

        teacher = teacher_live_view(teacher_ctx, server, app)
        teacher.wait_for_selector(f".live-card[data-game='{game.id}']")

        for ply, point in enumerate(CAPTURE_ONE):
            mover, other = (black, white) if ply % 2 == 0 else (white, black)
            mover.wait_for_selector(f"#live-game[data-ply='{ply}'] svg.board.playable")
            press(mover, device, f"g.pt[data-point={point}]")
            # the move shows on the other child's screen by itself, within the page's rhythm
            other.wait_for_selector(f"#live-game[data-ply='{ply + 1}']", timeout=5000)
            assert other.locator(f"g.pt[data-point={point}]").get_attribute("class").split()[1] in ("black", "white")
            if ply == 1:
                press(black, device, "button.reaction[data-reaction=thumbs]")
                white.wait_for_selector(".player.black .reaction-bubble.on", timeout=5000)
                shot(white, f"game-reaction-{device}-{lang}")
        for page in (black, white):
            page.wait_for_selector("#banner:not([hidden])", timeout=5000)
        for page in (black, white):  # each child sees the result card without scrolling: it is brought into view
            page.wait_for_function("""() => { const r = document.querySelector('#banner .banner-title, #banner h2, #banner')
                .getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; }""", timeout=5000)
        for page in (black, white):  # and hears how the game ended
            page.wait_for_function("""() => window.__spoken.includes(
                (document.getElementById('banner-title').textContent + ' ' +
                 document.getElementById('banner-reason').textContent).replace(/\\s+/g, ' ').trim())""", timeout=5000)
        assert "win" in black.locator("#banner").get_attribute("class")
        assert "lose" in white.locator("#banner").get_attribute("class")
        assert white.locator("g.pt[data-point=A7]").get_attribute("class").split()[1] == "empty"
        shot(black, f"game-won-{device}-{lang}")
        shot(white, f"game-lost-{device}-{lang}")
        card = teacher.locator(f".live-card[data-game='{game.id}']")
        won = {"zh": "赢了 · 吃了1个子", "en": "won · 1 captured"}[lang]  # in words: "C1" would read like a point
        card.locator(".live-result", has_text=won).wait_for(timeout=8000)
        card.locator(".review-link").first.wait_for(timeout=8000)
        assert card.locator("g.pt[data-point=B7]").get_attribute("class").split()[1] == "black"
        shot(teacher, f"teacher-live-{lang}")
        # held: the pages asked to be held until the game changed; otherwise they polled
        assert any("wait=" in u for u in asked) == held, asked[:5]
    finally:
        for ctx in (ming_ctx, lily_ctx, teacher_ctx):
            ctx.close()


def test_on_a_phone_a_pass_is_told_and_the_count_comes_into_view(browser, server, demo):
    """A whole game on phones: 明明 invites Lily to 9x9, the first player passes, the other's screen says so and
    what a second pass does; the second pass opens the count, which is brought into view below the board."""
    app = demo
    ming_ctx, ming = kid_page(browser, server, app, "明明", ("cat", "fish", "moon"), "phone", "en")
    lily_ctx, lily = kid_page(browser, server, app, "Lily", ("star", "apple", "sun"), "phone", "en")
    try:
        ming.check("#room-choice input[name=game][value=full-9]", force=True)
        ming.wait_for_selector("#classmates li.classmate:has-text('Lily') button.invite")
        press(ming, "phone", "#classmates li.classmate:has-text('Lily') button.invite")
        lily.wait_for_selector("#invitation-list li.invitation button.accept")
        press(lily, "phone", "#invitation-list li.invitation button.accept")
        lily.wait_for_url("**/live/*")
        ming.wait_for_url("**/live/*", timeout=10000)
        with app.app_context():
            game = db.session.scalar(sa.select(LiveGame))
            assert game.kind == "full"
            black_is_ming = game.black_id == db.session.scalar(sa.select(User.id).where(User.name == "明明"))
        black, white = (ming, lily) if black_is_ming else (lily, ming)
        black_name = "明明" if black_is_ming else "Lily"
        black.wait_for_selector("#live-game[data-ply='0'] svg.board.playable")
        press(black, "phone", "#pass")
        white.wait_for_selector("#live-game[data-ply='1']", timeout=5000)
        assert white.locator("#turn-text").inner_text() == \
            f"{black_name} passed. Your turn! If you pass too, the game ends."
        shot(white, "passed-phone-en")
        press(white, "phone", "#pass")
        for page in (black, white):
            page.wait_for_selector("#count-panel:not([hidden])", timeout=5000)
            page.wait_for_function("""() => { const r = document.querySelector('#count-panel').getBoundingClientRect();
                return r.top >= 0 && r.top < window.innerHeight; }""", timeout=5000)
        shot(white, "count-phone-en")
    finally:
        for ctx in (ming_ctx, lily_ctx):
            ctx.close()


def test_the_wait_for_a_child_who_left_counts_down_every_second(browser, server, demo):
    """Lily closes her tablet: after a while 明明's page says how long the game still waits, and the number goes
    down second by second between the server's answers, not in jumps of a poll."""
    from datetime import timedelta

    from teach.models import utcnow

    app = demo
    ming_ctx, ming = kid_page(browser, server, app, "明明", ("cat", "fish", "moon"), "tablet", "en")
    lily_ctx, lily = kid_page(browser, server, app, "Lily", ("star", "apple", "sun"), "tablet", "en")
    try:
        ming.wait_for_selector("#classmates li.classmate:has-text('Lily') button.invite")
        ming.click("#classmates li.classmate:has-text('Lily') button.invite")
        lily.wait_for_selector("#invitation-list li.invitation button.accept")
        lily.click("#invitation-list li.invitation button.accept")
        lily.wait_for_url("**/live/*")
        ming.wait_for_url("**/live/*", timeout=10000)
        lily_ctx.close()
        with app.app_context():  # Lily was last seen a minute ago: the game waits another minute for her
            game = db.session.scalar(sa.select(LiveGame))
            lily_id = db.session.scalar(sa.select(User.id).where(User.name == "Lily"))
            seen = "black_seen_at" if game.black_id == lily_id else "white_seen_at"
            db.session.execute(sa.update(LiveGame).values({seen: utcnow() - timedelta(seconds=60)}))
            db.session.commit()
        ming.wait_for_selector("#away:not([hidden])", timeout=30000)  # told at the next "still here" answer

        def left() -> int:
            return int(ming.locator("#away").inner_text().split("waits ")[1].split(" ")[0])

        first = left()
        ming.wait_for_timeout(2500)
        assert 0 < first - left() <= 4  # two or three seconds gone, shown as they went
    finally:
        for ctx in (ming_ctx, lily_ctx):
            ctx.close()


def test_the_teacher_s_stop_and_play_again_reach_the_open_game_pages_by_themselves(browser, server, demo):
    """The Saturday class: the teacher stops the games, then lets the children play on. The game pages open on
    the tablets show the stop, then "play on" — without a reload (they sat on the stop's words until a child
    reloaded, which a child who cannot read never does)."""
    app = demo
    ming_ctx, ming = kid_page(browser, server, app, "明明", ("cat", "fish", "moon"), "tablet", "zh")
    lily_ctx, lily = kid_page(browser, server, app, "Lily", ("star", "apple", "sun"), "tablet", "zh")
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    try:
        ming.wait_for_selector("#classmates li.classmate:has-text('Lily') button.invite")
        ming.click("#classmates li.classmate:has-text('Lily') button.invite")
        lily.wait_for_selector("#invitation-list li.invitation button.accept")
        lily.click("#invitation-list li.invitation button.accept")
        lily.wait_for_url("**/live/*")
        ming.wait_for_url("**/live/*", timeout=10000)
        teacher = teacher_live_view(teacher_ctx, server, app)
        teacher.click("#stop-games button")
        teacher.wait_for_selector("#play-again")
        for page in (ming, lily):
            page.wait_for_selector("#notice:has-text('老师')", timeout=8000)  # the teacher's word, by itself
            assert page.locator("#resume-box").is_hidden()
        teacher.click("#play-again button")
        teacher.wait_for_selector("#stop-games, .live-boards")
        for page in (ming, lily):
            page.wait_for_selector("#resume-box:not([hidden]) #resume", timeout=8000)
            assert "老师让大家先停下来" not in page.locator("#notice").inner_text()
        ming.click("#resume")
        lily.click("#resume")
        for page in (ming, lily):
            page.wait_for_selector("#live-game svg.board.playable, #live-game[data-ply='0']", timeout=8000)
    finally:
        for ctx in (ming_ctx, lily_ctx, teacher_ctx):
            ctx.close()
