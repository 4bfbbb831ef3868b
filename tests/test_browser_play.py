"""The play pages in a real browser (Debian's chromium through Playwright), on a tablet and on a phone, in Chinese
and in English: a kid beats the weakest computer level at the capture game and sees the win and the sticker; a
9x9 game with someone at home ends with two passes and is counted by tapping a dead stone.
Screenshots go to /tmp/play-*.png for people to look at."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from browser_support import browser, needs_chromium, serving  # noqa: F401  (browser is a fixture)
from teach.models import PlayedGame, User
from teach.web.extensions import db
from teach.web.played import game_of
from test_play import WALLS, _kid_move

SIZES = {"tablet": {"width": 768, "height": 1024}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh": "zh-CN", "en": "en-US"}

pytestmark = needs_chromium


@pytest.fixture
def server(demo):
    with serving(demo) as url:
        yield url


def shot(page, name: str) -> None:
    page.screenshot(path=f"/tmp/play-{name}.png", full_page=True)


def signed_in_page(browser, server, app, device: str, lang: str):
    context = browser.new_context(viewport=SIZES[device], locale=LOCALES[lang], has_touch=True)
    page = context.new_page()
    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
    page.goto(f"{server}/kids/CAT234/{kid_id}")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/")
    shot(page, f"map-{device}-{lang}")
    page.click("a[data-play-door]")
    page.wait_for_url("**/play/")
    return context, page


def tap(page, device: str, selector: str) -> None:
    page.tap(selector) if device == "phone" else page.click(selector)


def game_id_of(page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def move_and_wait(page, device: str, point: str) -> None:
    """Tap a point (or the pass button) and wait until the page has drawn the answer (its ply moved on)."""
    ply = page.locator("#play-game").get_attribute("data-ply")
    tap(page, device, "#pass" if point == "pass" else f"g.pt[data-point={point}]")
    page.wait_for_selector(f'#play-game:not([data-ply="{ply}"])')


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("device, lang", [("tablet", "zh"), ("phone", "en")])
def test_a_kid_beats_the_little_mouse_at_the_capture_game_and_gets_the_sticker(server, browser, demo, device, lang):
    context, page = signed_in_page(browser, server, demo, device, lang)
    no_sideways_scroll(page)
    shot(page, f"start-{device}-{lang}")
    assert ("小老鼠" in page.content()) == (lang == "zh")
    tap(page, device, "#start")  # the defaults: capture game, 1 stone, 7x7, the mouse, black
    for seed in range(1, 6):
        page.wait_for_selector("#play-game")
        game_id = game_id_of(page)
        with demo.app_context():
            db.session.get(PlayedGame, game_id).seed = seed
            db.session.commit()
        if seed == 1:
            no_sideways_scroll(page)
            # a 7x7 board has room to spare even on a phone: its edge stones keep clear of the screen's edges
            gaps = page.evaluate("""() => { const w = window.innerWidth;
                return ['A1', 'G7'].map(p => document.querySelector(`g.pt[data-point=${p}] circle.stone`))
                  .map(c => { const m = c.getScreenCTM(), r = +c.getAttribute('r'), x = +c.getAttribute('cx');
                              return [(x - r) * m.a + m.e, w - ((x + r) * m.a + m.e)]; }).flat(); }""")
            assert min(gaps) >= 8, gaps
            shot(page, f"capture-{device}-{lang}")
        for _turn in range(80):
            if page.locator("#play-game").get_attribute("data-state") != "playing":
                break
            with demo.app_context():
                point = _kid_move(game_of(db.session.get(PlayedGame, game_id)))
            move_and_wait(page, device, point)
        banner = page.locator("#banner")
        banner.wait_for(state="visible")
        if "win" in banner.get_attribute("class"):
            break
        tap(page, device, "#play-again")
        page.wait_for_url(lambda url: url.rstrip("/").rsplit("/", 1)[1] != str(game_id))
    assert "win" in banner.get_attribute("class"), "the beginner's plan beats the mouse in five games"
    assert ("你赢了" if lang == "zh" else "You won") in page.locator("#banner-title").inner_text()
    assert "won" in page.locator(".player.black").get_attribute("class")  # the kid's side, crowned
    won = page.locator("#stickers-won").inner_text()
    assert ("赢了小老鼠" if lang == "zh" else "Beat the Little Mouse") in won
    page.wait_for_timeout(1900)  # the celebration has hopped
    no_sideways_scroll(page)
    shot(page, f"capture-won-{device}-{lang}")
    page.goto(server + "/learn/stickers")
    assert ("赢了小老鼠" if lang == "zh" else "Beat the Little Mouse") in page.locator(".stickers").inner_text()
    shot(page, f"stickers-{device}-{lang}")
    context.close()


def test_a_phone_turned_sideways_shows_the_board_beside_the_words_as_high_as_the_screen(server, browser, demo):
    """844x390: stacked under the words the board had 150 px (a lesson) or began below the screen (a game)."""
    context, page = signed_in_page(browser, server, demo, "phone", "en")
    page.set_viewport_size({"width": 844, "height": 390})
    tap(page, "phone", "#start")
    page.wait_for_selector("#play-game")
    for where in ("game", "lesson"):
        board, height = page.locator("svg.board").bounding_box(), 390
        assert board["height"] >= 300 and board["y"] + board["height"] <= height, (where, board)
        words = page.locator("#turn-text" if where == "game" else "#instruction").bounding_box()
        assert words["x"] >= board["x"] + board["width"] and words["y"] + words["height"] <= height, (where, words)
        no_sideways_scroll(page)
        shot(page, f"sideways-{where}")
        if where == "game":
            move_and_wait(page, "phone", "D4")  # and it plays
            page.goto(server + "/learn/")
            page.click("a[data-lesson=web-first]")
            page.click("#next")
            page.wait_for_url("**/learn/web-first/1")
    context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tablet_held_sideways_shows_the_board_pass_and_resign_without_scrolling(server, browser, demo, lang):
    """1024x768: stacked, the board filled the screen and Pass and Resign sat under its bottom edge."""
    context, page = signed_in_page(browser, server, demo, "tablet", lang)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.click("label.pick:has(input[name=kind][value=full])")
    page.wait_for_selector("fieldset[data-kind=full]:not([hidden])")
    page.click("#start")
    page.wait_for_selector("#play-game")
    move_and_wait(page, "tablet", "E5")
    board = page.locator("svg.board").bounding_box()
    assert board["height"] >= 500 and board["y"] >= 0 and board["y"] + board["height"] <= 768, board
    for button in ("#pass", "#resign", "#turn-text"):
        box = page.locator(button).bounding_box()
        assert box["x"] >= board["x"] + board["width"] and box["y"] + box["height"] <= 768, (button, box)
    no_sideways_scroll(page)
    shot(page, f"sideways-tablet-{lang}")
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh")])
def test_back_from_a_game_just_started_shows_it_to_keep_playing(server, browser, demo, device, lang):
    """The browser's back button (or a tablet's swipe back) from a new game: the start page as it is now, with
    the game to go on, not the page as it was before the game began."""
    context, page = signed_in_page(browser, server, demo, device, lang)
    assert page.locator("a.continue-game").count() == 0
    tap(page, device, "#start")
    page.wait_for_selector("#play-game")
    game_id = game_id_of(page)
    move_and_wait(page, device, "D4")
    page.go_back()
    page.wait_for_url("**/play/")
    link = page.locator(f'a.continue-game[data-game="{game_id}"]')
    link.wait_for(state="visible")
    assert "接着下" in link.inner_text()
    shot(page, f"back-{device}-{lang}")
    tap(page, device, f'a.continue-game[data-game="{game_id}"]')
    page.wait_for_selector("#play-game")
    assert game_id_of(page) == game_id and page.locator('g.pt[data-point="D4"] .stone').count() == 1
    context.close()


def test_at_one_tablet_giving_up_asks_the_player_whose_turn_it_is_by_name(server, browser, demo):
    """Mum and the child share the tablet: "give up?" names who gives up (it was the one whose turn it is, unsaid)."""
    context, page = signed_in_page(browser, server, demo, "tablet", "zh")
    tap(page, "tablet", "label.pick[data-friend]")
    page.fill("input[name=friend_name]", "妈妈")
    tap(page, "tablet", "#start")
    page.wait_for_selector("#play-game")
    move_and_wait(page, "tablet", WALLS[0])  # the child plays Black: Mum's turn now
    tap(page, "tablet", "#resign")
    page.wait_for_selector("#resign-confirm:not([hidden])")
    assert page.locator("#resign-question").inner_text() == "妈妈，真的要认输吗？"
    tap(page, "tablet", "#resign-yes")
    page.locator("#banner").wait_for(state="visible")
    assert "妈妈认输了" in page.locator("#banner").inner_text()
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh"), ("tablet", "en")])
def test_a_whole_game_ends_with_two_passes_and_is_counted_by_tapping(server, browser, demo, device, lang):
    context, page = signed_in_page(browser, server, demo, device, lang)
    tap(page, device, "label.pick:has(input[name=kind][value=full])")
    page.wait_for_selector("fieldset[data-kind=full]:not([hidden])")
    assert page.locator("fieldset[data-kind=capture]").first.is_hidden()
    tap(page, device, "label.pick[data-friend]")
    page.fill("input[name=friend_name]", "妈妈")
    no_sideways_scroll(page)
    shot(page, f"start-full-{device}-{lang}")
    tap(page, device, "#start")
    page.wait_for_selector("#play-game")
    assert "妈妈" in page.locator(".players").inner_text()
    for i, point in enumerate(WALLS[:-1]):
        move_and_wait(page, device, point)
        if i == 0:  # White's turn now: the board says so with Mum's name
            assert "妈妈" in page.locator("#turn-text").inner_text()
            assert "now" in page.locator(".player.white").get_attribute("class")
    # Mum passed last: the one whose turn it is now hears it, and what a pass back would do
    assert page.locator("#feedback").inner_text() == {"zh": "妈妈停了一手。如果棋下完了，你也停一手。",
                                                      "en": "妈妈 passed. If the game is finished, pass too."}[lang]
    shot(page, f"full-{device}-{lang}")
    tap(page, device, "#pass")  # the second pass in a row: the count screen
    page.wait_for_selector("#count-panel")
    dead = "g.pt[data-point=E7]"
    assert "dead" in page.locator(dead).get_attribute("class")  # proposed by the computer
    no_sideways_scroll(page)
    shot(page, f"count-{device}-{lang}")
    tap(page, device, dead)  # alive after all? then White wins big
    page.wait_for_selector("g.pt[data-point=E7]:not(.dead)")
    assert page.locator("#points").inner_text().startswith("W+")
    tap(page, device, dead)  # no: dead again
    page.wait_for_selector("g.pt.dead[data-point=E7]")
    assert page.locator("#points").inner_text() == "B+1.5"
    referee = page.locator("#referee").inner_text()
    assert referee == ("黑45子，归本数40½，贴3¾子，黑胜¾子" if lang == "zh"
                       else "Black 45 stones; half the board is 40½; komi 3¾ stones: Black wins by ¾ stone")
    assert ("黑棋胜¾子" if lang == "zh" else "Black wins by ¾ stone") in page.locator("#kid-line").inner_text()
    tap(page, device, "#count-done")
    page.locator("#banner").wait_for(state="visible")
    assert page.locator("#banner-result").inner_text() == "B+1.5"
    assert ("第一次数子" if lang == "zh" else "First game counted") in page.locator("#stickers-won").inner_text()
    page.wait_for_timeout(600)
    shot(page, f"counted-{device}-{lang}")
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "zh")])
def test_a_handicap_game_on_the_bigger_board_starts_with_the_computer_s_move(server, browser, demo, device, lang):
    context, page = signed_in_page(browser, server, demo, device, lang)
    tap(page, device, "label.pick:has(input[name=kind][value=full])")
    tap(page, device, "fieldset[data-kind=full] label.pick:has(input[name=size][value='13'])")
    assert page.locator("#choose-handicap label.pick:has(input[value='5'])").is_visible()
    black_note = "label.pick:has(input[name=color][value=black]) .pick-note"
    white_note = "label.pick:has(input[name=color][value=white]) .pick-note"
    assert page.locator(black_note).inner_text() == "你先下"
    tap(page, device, "#choose-handicap label.pick:has(input[value='3'])")
    # with handicap stones White moves first: the colours say so, as the handicap's own note does
    assert page.locator(black_note).inner_text() == "你得到让子" and page.locator(white_note).inner_text() == "你先下"
    tap(page, device, "#choose-handicap label.pick:has(input[value='0'])")
    assert page.locator(black_note).inner_text() == "你先下"
    tap(page, device, "#choose-handicap label.pick:has(input[value='3'])")
    tap(page, device, "label.pick[data-level='4']")
    tap(page, device, "#start")
    page.wait_for_selector("#play-game")
    assert page.locator("g.pt.black").count() == 3 and page.locator("g.pt.white").count() == 1
    assert "让3子" in page.locator(".game-title").inner_text()
    assert "now" in page.locator(".player.black").get_attribute("class")
    no_sideways_scroll(page)
    shot(page, f"handicap-{device}-{lang}")
    context.close()


READ_ALOUD_SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("device, lang", [("tablet", "en"), ("phone", "zh"), ("phone", "en"), ("tablet", "zh")])
def test_a_game_against_the_computer_is_read_aloud_and_its_points_are_44_px_apart(server, browser, demo, device,
                                                                                   lang):
    from test_browser_kid import STUB_VOICE, WITH_VOICES

    context = browser.new_context(viewport=READ_ALOUD_SIZES[device], locale=LOCALES[lang], has_touch=True)
    context.add_init_script(STUB_VOICE % WITH_VOICES)
    page = context.new_page()
    with demo.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
    page.goto(f"{server}/kids/CAT234/{kid_id}")
    page.wait_for_load_state()  # pictures.js listens once the page has loaded
    for picture in ("cat", "fish", "moon"):
        page.click(f"button[data-picture={picture}]")
    page.wait_for_url("**/learn/")
    page.goto(server + "/play/")
    page.click("fieldset[data-kind=capture] label.pick:has(input[name=size][value='9'])")
    page.click("#start")
    page.wait_for_selector("#play-game")

    # the game starts by saying itself: what game, whose turn, and the buttons to find, each lit up as it is said
    turn = page.locator("#turn-text").inner_text()
    pass_words, resign_words = page.locator("#pass").get_attribute("data-say"), page.locator("#resign").get_attribute("data-say")
    page.wait_for_function("w => window.__spoken.includes(w)", arg=resign_words)
    said = page.evaluate("window.__spoken")
    title = re.sub("[\U0001F300-\U0001FAFF\uFE0F]", "", page.locator(".game-title").inner_text()).strip()
    assert turn in said and pass_words in said and title in said  # its picture is for the eyes: not read out
    # a 9x9 game board: every point 44 px apart, no letters round it for a child who has not chosen them
    cells = page.evaluate("""() => [...document.querySelectorAll('svg.board g.pt rect.hit')]
        .map(r => r.getBoundingClientRect()).map(r => Math.min(r.width, r.height))""")
    assert len(cells) == 81 and min(cells) >= 44, min(cells)
    assert page.locator("svg.board text.coord").count() == 0
    no_sideways_scroll(page)
    shot(page, f"read-aloud-{device}-{lang}")

    # a move, the computer's reply, and then whose turn it is, said again
    page.evaluate("window.__spoken = []")
    game_id = game_id_of(page)
    with demo.app_context():
        point = _kid_move(game_of(db.session.get(PlayedGame, game_id)))
    move_and_wait(page, "tablet", point)
    page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=turn)
    # the last move's ring (half its width outside the stone) stays inside the margin this board keeps round its
    # edge stones (stones.js: 17 to 30 units, as the screen allows), so on an edge stone it is not cut off
    ring, room = page.evaluate("""() => { const board = document.querySelector('svg.board');
        const s = getComputedStyle(board.querySelector('.pt.last circle.stone'));
        const box = board.viewBox.baseVal, size = +board.dataset.size;
        return [parseFloat(s.r) + parseFloat(s.strokeWidth) / 2, (box.width - (size - 1) * 40) / 2]; }""")
    assert 17 <= room <= 30 and ring <= room, (ring, room)

    # resigning: the question is said, and then the result
    page.click("#resign")
    page.wait_for_function("() => window.__spoken.length > 0 && document.querySelector('#resign-confirm').hidden === false")
    assert page.locator("#resign-confirm .speak").inner_text() in page.evaluate("window.__spoken")
    page.click("#resign-yes")
    page.locator("#banner").wait_for(state="visible")
    title = page.locator("#banner-title").inner_text()
    page.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=title)

    # the grown-ups turn narration off for this kid: the next page says nothing until 🔊 is tapped
    page.click(".grown-ups summary")
    with page.expect_response("**/learn/settings"):
        page.uncheck("#set-narrate")
    page.evaluate("window.__spoken = []")
    page.reload()
    page.wait_for_selector("#banner:not([hidden])")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__spoken") == []
    page.click("#read-aloud")
    assert title in page.evaluate("window.__spoken")
    with demo.app_context():
        assert db.session.get(User, kid_id).narrate is False
    context.close()


@pytest.mark.parametrize("device, lang", [("phone", "en")])
def test_a_19x19_game_on_a_phone_zooms_in_so_a_finger_finds_its_point_and_shows_the_whole_board_after_the_reply(
        server, browser, demo, device, lang):
    context, page = signed_in_page(browser, server, demo, device, lang)
    tap(page, device, "label.pick:has(input[name=kind][value=full])")
    tap(page, device, "fieldset[data-kind=full] label.pick:has(input[name=size][value='19'])")
    tap(page, device, "label.pick[data-level='1']")
    tap(page, device, "#start")
    page.wait_for_selector("#play-game")
    whole = page.locator("g.pt[data-point=Q16] rect.hit").bounding_box()
    assert whole["width"] < 44  # 19 points across a phone: too close for a finger
    ply = page.locator("#play-game").get_attribute("data-ply")
    tap(page, device, "g.pt[data-point=Q16]")  # the first tap zooms in there and plays nothing
    page.wait_for_selector("#board-wrap.zoomed")
    assert page.locator("#play-game").get_attribute("data-ply") == ply
    zoomed = page.locator("g.pt[data-point=Q16] rect.hit").bounding_box()
    assert zoomed["width"] >= 44 and zoomed["height"] >= 44, zoomed
    no_sideways_scroll(page)
    shot(page, f"zoomed-19-{device}-{lang}")
    tap(page, device, "g.pt[data-point=Q16]")  # the second plays, and the computer answers
    page.wait_for_selector(f'#play-game:not([data-ply="{ply}"])')
    assert page.locator("g.pt.black[data-point=Q16]").count() == 1
    page.wait_for_selector("#board-wrap:not(.zoomed)", timeout=10000)  # the whole board, with the reply on it
    assert page.locator("g.pt.white").count() == 1
    context.close()


def test_on_a_phone_a_refused_tap_is_read_in_full_even_under_the_no_voice_notice(server, browser, demo):
    """A device without a voice shows its notice above the board until a grown-up taps "got it": on a phone that
    pushed the words under the board past the screen's edge, so "that point is taken" was cut in half."""
    context, page = signed_in_page(browser, server, demo, "phone", "en")
    tap(page, "phone", "#start")
    page.wait_for_selector("#play-game")
    page.evaluate("document.getElementById('no-voice').hidden = false")  # as on a device with no English voice
    move_and_wait(page, "phone", "D4")
    page.wait_for_timeout(900)  # the computer's reply is drawn
    page.evaluate("window.scrollTo(0, 0)")
    page.tap('g.pt[data-point="D4"]')  # the kid's own stone: refused
    page.wait_for_selector("#feedback:not(:empty)")
    page.wait_for_timeout(700)  # a smooth scroll
    box = page.evaluate("(() => { const r = document.getElementById('feedback').getBoundingClientRect();"
                        " return {top: r.top, bottom: r.bottom, height: window.innerHeight}; })()")
    assert box["top"] >= 0 and box["bottom"] <= box["height"] + 1, box  # a pixel of rounding
    shot(page, "refused-under-notice-phone-en")
    context.close()
