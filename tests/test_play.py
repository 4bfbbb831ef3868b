"""The play pages: a kid starts a capture game or a whole game, plays it against the computer or someone at home,
and a whole game is counted at the end. Every move goes through the routes, as the page sends it, against a real
database (SQLite, or PostgreSQL when TEST_DATABASE_URL names one) with CSRF on.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from teach.models import PlayedGame, StickerAward, User
from teach.web.extensions import db
from teach.web.played import game_of

CAPTURE_VS_MOUSE = {"kind": "capture", "size": "7", "goal": "1", "who": "1", "color": "black"}
FRIEND_9 = {"kind": "full", "size": "9", "handicap": "0", "who": "friend", "friend_name": "妈妈", "color": "black"}


def kid_login(client, name="明明", pictures=("cat", "fish", "moon"), code="CAT234") -> int:
    with client.application.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == name))
    client.post(f"/kids/{code}/{kid_id}", data={"pictures": ",".join(pictures)})
    return kid_id


@pytest.fixture
def kid(demo, client) -> int:
    return kid_login(client)


def new_game(client, form: dict, seed: int | None = None) -> int:
    response = client.post("/play/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    game_id = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    if seed is not None:  # a seeded computer, so the game replays the same way
        with client.application.app_context():
            db.session.get(PlayedGame, game_id).seed = seed
            db.session.commit()
    return game_id


def row_of(app, game_id: int) -> PlayedGame:
    with app.app_context():
        row = db.session.get(PlayedGame, game_id)
        db.session.expunge(row)
        return row


def play(client, game_id: int, move: str, ply: int):
    return client.post(f"/play/{game_id}/move", json={"move": move, "ply": ply})


def play_all(client, game_id: int, moves: list[str]) -> dict:
    ply, body = 0, None
    for m in moves:
        response = play(client, game_id, m, ply)
        body = response.get_json()
        assert response.status_code == 200 and body["result"] == "ok", (m, body)
        ply = body["ply"]
    return body


# ---------------------------------------------------------------------- starting a game
def test_the_start_page_draws_the_computer_levels_as_characters_in_both_languages(kid, client):
    page = client.get("/play/").get_data(as_text=True)
    assert "小老鼠" in page and "刚学会吃子的小朋友也能赢它" in page and "黑猫警长" in page
    assert "Little Mouse" not in page
    client.post("/language", data={"lang": "en"})
    page = client.get("/play/").get_data(as_text=True)
    assert "Little Mouse" in page and "Beatable by a child who just learned to capture" in page
    assert "Gives a club beginner a real game" in page


def test_gnu_go_levels_are_offered_only_where_gnu_go_is_installed(kid, client):
    from teach.web.characters import gnugo_installed

    page = client.get("/play/").get_data(as_text=True)
    assert ('data-level="7"' in page) == gnugo_installed() == ('data-level="8"' in page)


@pytest.mark.parametrize("change", [
    {"size": "99"}, {"size": "19"}, {"goal": "4"}, {"goal": ""}, {"who": "42"}, {"who": "abc"}, {"who": ""},
    {"kind": "chess"}, {"color": "red"}, {"kind": "full", "size": "9", "handicap": "7"},
    {"kind": "full", "size": "99"}, {"kind": "full", "size": "13", "handicap": "1"},
    {"who": "friend", "friend_name": "x" * 21}, {"size": "7" * 5000}, {"who": "²"}, {"who": "٣"}, {"who": "３"},
])
def test_a_new_game_the_page_never_offers_gets_a_friendly_400_and_nothing_stored(app, kid, client, change):
    response = client.post("/play/new", data={**CAPTURE_VS_MOUSE, **change})
    assert response.status_code == 400
    assert 'role="alert"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(PlayedGame)) == 0


def test_a_new_game_needs_the_csrf_token(app, kid, client):
    assert client.post("/play/new", data=CAPTURE_VS_MOUSE, csrf=False).status_code == 400
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(PlayedGame)) == 0


def test_a_new_game_is_stored_with_its_settings_and_a_seed(app, kid, client):
    first = row_of(app, new_game(client, {**FRIEND_9, "size": "13", "handicap": "3"}))
    assert (first.kind, first.size, first.handicap, first.komi, first.opponent, first.friend_name) == \
           ("full", 13, 3, 0.0, "friend", "妈妈")
    assert game_of(first).board_rows().count("...X.....X...") >= 1  # the handicap stones stand on star points
    second = row_of(app, new_game(client, CAPTURE_VS_MOUSE))
    assert (second.kind, second.capture_goal, second.komi, second.level, second.opponent) == \
           ("capture", 1, 7.5, 1, "computer")
    assert first.seed != second.seed


def test_a_kid_with_white_against_the_computer_sees_its_first_move(app, kid, client):
    row = row_of(app, new_game(client, {**CAPTURE_VS_MOUSE, "color": "white"}))
    assert row.ply == 1 and len(row.moves) == 1 and game_of(row).to_play == "white"


def test_with_handicap_stones_the_computer_as_white_moves_first_and_there_is_no_komi(app, kid, client):
    row = row_of(app, new_game(client, {**FRIEND_9, "who": "1", "handicap": "2"}))
    game = game_of(row)
    assert row.komi == 0 and row.ply == 1 and game.to_play == "black"
    assert sum(line.count("X") for line in game.board_rows()) == 2
    assert sum(line.count("O") for line in game.board_rows()) == (0 if row.moves == ["pass"] else 1)


def test_a_record_changed_outside_the_app_is_not_played_on(app, kid, client):
    game_id = new_game(client, FRIEND_9)
    with app.app_context():
        db.session.get(PlayedGame, game_id).moves = ["D4", "D4"]
        db.session.get(PlayedGame, game_id).ply = 2
        db.session.commit()
    assert client.get(f"/play/{game_id}").status_code == 404
    assert play(client, game_id, "E5", 2).status_code == 404


def test_the_map_and_the_menu_lead_to_the_play_pages(kid, client):
    page = client.get("/learn/").get_data(as_text=True)
    assert 'href="/play/"' in page and "下棋" in page


# ---------------------------------------------------------------------- playing against the computer
def _kid_move(game) -> str:
    """A beginner's plan: take stones in atari; else attack the weakest white chain on a liberty that keeps the
    new stone at two liberties or more; else any such move."""
    from teach.go.game import BLACK, WHITE

    legal = set(game.legal_points(BLACK))
    safe = [p for p in legal if len(game.liberties_after(p, BLACK)) >= 2]
    whites = sorted((c for c in game.chains() if c.color == WHITE), key=lambda c: (len(c.libs), min(c.stones)))
    for chain in whites:
        if len(chain.libs) == 1 and next(iter(chain.libs)) in legal:
            return game.name(next(iter(chain.libs)))
        for lib in sorted(chain.libs):
            if lib in safe:
                return game.name(lib)
    return game.name(sorted(safe or legal)[0]) if (safe or legal) else "pass"


def test_a_kid_wins_the_capture_game_against_the_mouse_and_gets_the_stickers_once(app, kid, client):
    wins = []
    for seed in range(1, 6):
        game_id = new_game(client, CAPTURE_VS_MOUSE, seed=seed)
        body = None
        for _turn in range(80):
            row = row_of(app, game_id)
            if row.state != "playing":
                break
            response = play(client, game_id, _kid_move(game_of(row)), row.ply)
            body = response.get_json()
            assert response.status_code == 200 and body["result"] == "ok", body
            assert body["rows"] != body["kid_rows"] or body["state"] != "playing"  # the computer answered
        row = row_of(app, game_id)
        assert row.state == "finished" and row.winner in ("black", "white")
        caught = game_of(row).captures[row.winner]
        assert caught >= 1 and row.result == ("B" if row.winner == "black" else "W") + f"+C{caught}"
        assert body["banner"]["mood"] == ("win" if row.winner == "black" else "lose")
        if row.winner == "black":
            wins.append(body["milestones"])
            page = client.get(f"/play/{game_id}").get_data(as_text=True)
            assert "你赢了" in page
            # "you", as the title says, not the name; one move may take two stones in a catch-one game
            assert body["banner"]["reason"] == ("你先吃到了1个子。" if caught == 1 else f"你吃掉了{caught}个子，比要吃的1个还多！")
        if len(wins) == 2:
            break
    assert wins, "a beginner's plan beats the weakest level in one of five games"
    assert {m["id"] for m in wins[0]} == {"milestone-capture-game", "milestone-beat-mouse"}
    assert all(w == [] for w in wins[1:])  # each sticker once
    with app.app_context():
        held = db.session.scalars(sa.select(StickerAward.sticker_id).where(StickerAward.kid_id == kid)).all()
    assert sorted(held) == ["milestone-beat-mouse", "milestone-capture-game"]
    assert "赢了小老鼠" in client.get("/learn/stickers").get_data(as_text=True)


def test_the_kid_s_move_and_the_computer_s_reply_are_one_write(app, kid, client):
    game_id = new_game(client, {**CAPTURE_VS_MOUSE, "size": "9", "goal": "5"}, seed=3)
    body = play(client, game_id, "E5", 0).get_json()
    assert body["move"] == "E5" and body["reply"] and body["ply"] == 2 and body["to_move"] == "black"
    assert body["kid_rows"][4][4] == "X" and body["turn"] == "轮到你了！" and body["thinking"] == "小老鼠在想……"
    row = row_of(app, game_id)
    assert row.moves == ["E5", body["reply"]]


# ---------------------------------------------------------------------- pass and play
def test_pass_and_play_alternates_sides_and_the_computer_never_moves(app, kid, client):
    game_id = new_game(client, FRIEND_9)
    first = play(client, game_id, "d4", 0).get_json()
    assert first["reply"] is None and first["to_move"] == "white" and first["turn"] == "轮到妈妈了！"
    second = play(client, game_id, "E5", 1).get_json()
    assert second["to_move"] == "black" and second["rows"][4][4] == "O"
    assert row_of(app, game_id).moves == ["D4", "E5"]
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert "妈妈" in page and "明明" in page


def test_the_same_tap_twice_or_from_two_tabs_is_played_once(app, kid, client):
    game_id = new_game(client, FRIEND_9)
    assert play(client, game_id, "D4", 0).status_code == 200
    again = play(client, game_id, "D4", 0)
    other_tab = play(client, game_id, "E5", 0)
    for response in (again, other_tab):
        assert response.status_code == 409
        body = response.get_json()
        assert body["result"] == "stale" and body["ply"] == 1 and body["rows"][5][3] == "X" and body["message"]
    assert row_of(app, game_id).moves == ["D4"]


def test_taps_sent_at_the_same_moment_play_one_move(app, kid, client):
    import threading

    game_id = new_game(client, FRIEND_9)
    token = client.csrf_token()
    cookie = client.get_cookie("session").value
    answers, start = [], threading.Barrier(4)

    def tap(point):
        other = app.test_client()
        other.set_cookie("session", cookie)
        start.wait()
        answers.append(other.post(f"/play/{game_id}/move", json={"move": point, "ply": 0},
                                  headers={"X-CSRFToken": token}).status_code)

    threads = [threading.Thread(target=tap, args=(p,)) for p in ("D4", "D4", "E5", "F6")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409, 409, 409]
    assert len(row_of(app, game_id).moves) == 1


def test_an_unfinished_game_is_offered_on_the_start_page(app, kid, client):
    game_id = new_game(client, FRIEND_9)
    page = client.get("/play/").get_data(as_text=True)
    assert f'href="/play/{game_id}"' in page and "接着下" in page


def test_against_the_computer_a_stale_tab_plays_nothing(app, kid, client):
    game_id = new_game(client, {**CAPTURE_VS_MOUSE, "goal": "5"}, seed=2)
    assert play(client, game_id, "D4", 0).status_code == 200
    assert play(client, game_id, "C3", 0).status_code == 409
    assert len(row_of(app, game_id).moves) == 2


@pytest.mark.parametrize("moves, move, reason, words", [
    (["D4"], "D4", "occupied", "已经有"),
    (["B1", "pass", "A2"], "A1", "suicide", "没有气"),
    (["B3", "C3", "A2", "C1", "B1", "D2", "pass", "B2", "C2"], "B2", "ko", "别处"),
])
def test_a_move_the_rules_refuse_gets_kid_words_and_nothing_is_stored(app, kid, client, moves, move, reason, words):
    game_id = new_game(client, FRIEND_9)
    play_all(client, game_id, moves)
    response = play(client, game_id, move, len(moves))
    body = response.get_json()
    assert response.status_code == 200 and body["result"] == "illegal" and body["reason"] == reason
    assert words in body["message"]
    assert row_of(app, game_id).moves == moves


@pytest.mark.parametrize("body", [
    {"move": "Z9", "ply": 0}, {"move": "D44", "ply": 0}, {"move": 4, "ply": 0}, {"move": "D4"},
    {"move": "D4", "ply": -1}, {"move": "D4", "ply": 10**30}, {"move": "D4", "ply": True}, {"move": "D4", "ply": "0"},
    {"move": "D4", "ply": 0, "extra": "x"}, {"resign": False, "ply": 0}, {"resign": True, "move": "D4", "ply": 0},
    {},
])
def test_a_move_other_than_the_page_sends_is_refused(app, kid, client, body):
    game_id = new_game(client, FRIEND_9)
    response = client.post(f"/play/{game_id}/move", json=body)
    assert response.status_code == 400 and response.get_json()["message"]
    assert row_of(app, game_id).moves == []


def test_resigning_ends_the_game_at_once_and_a_finished_game_takes_no_moves(app, kid, client):
    game_id = new_game(client, {**CAPTURE_VS_MOUSE, "goal": "5"}, seed=1)
    ply = play(client, game_id, "D4", 0).get_json()["ply"]
    body = client.post(f"/play/{game_id}/move", json={"resign": True, "ply": ply}).get_json()
    assert body["state"] == "finished" and body["banner"]["mood"] == "lose" and body["milestones"] == []
    assert body["banner"]["reason"] == "你认输了。"  # the kid is "you" against the computer, as in the title
    row = row_of(app, game_id)
    assert (row.result, row.winner, row.state) == ("W+R", "white", "finished") and row.finished_at
    late = play(client, game_id, "E5", ply)
    assert late.status_code == 409 and "结束" in late.get_json()["message"]
    assert row_of(app, game_id).moves == row.moves


def test_a_whole_game_given_up_says_the_record_in_words(app, kid, client):
    game_id = new_game(client, {**FRIEND_9, "who": "1"}, seed=1)
    body = client.post(f"/play/{game_id}/move", json={"resign": True, "ply": 0}).get_json()
    # "W+R" is the record's notation; beside it, what it means, in the page's language
    assert body["banner"]["result"] == "W+R" and body["banner"]["result_words"] == "（黑棋认输）"
    client.post("/language", data={"lang": "en"})
    assert "(Black resigned)" in client.get(f"/play/{game_id}").get_data(as_text=True)


def test_a_capture_game_with_someone_at_home_ends_on_the_goal(app, kid, client):
    game_id = new_game(client, {**CAPTURE_VS_MOUSE, "who": "friend", "goal": "1"})
    body = play_all(client, game_id, ["B1", "A1", "A2"])
    assert body["state"] == "finished" and body["winner"] == "black" and body["game_result"] == "B+C1"
    assert "明明" in body["banner"]["title"]
    # the banner says how in words; the record's "B+C1" is no sentence for a kid or a parent
    assert body["banner"]["reason"] == "明明先吃到了1个子。" and body["banner"]["result"] == ""
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert '<p class="banner-result" hidden>' in page and "B+C1" not in page
    assert [m["id"] for m in body["milestones"]] == ["milestone-capture-game"]  # no level beaten


def test_a_capture_past_the_goal_shows_every_stone_caught_on_the_card_as_the_banner_counts_them(app, kid, client):
    """Catch 1 to win, and one move takes 2: the banner says 2 and that 1 was the goal, so the card has a dot
    for each, the second marked as past the goal, not the goal's one dot alone."""
    game_id = new_game(client, {**CAPTURE_VS_MOUSE, "who": "friend", "goal": "1"})
    body = play_all(client, game_id, ["B1", "A1", "B2", "A2", "A3"])
    assert body["state"] == "finished" and body["captures"]["black"] == 2
    assert body["banner"]["reason"] == "明明吃掉了2个子，比要吃的1个还多！"  # not "first to 2" in a catch-one game
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    black = page.split('data-color="black"', 1)[1].split('data-color="white"', 1)[0]
    assert black.count('class="catch got') == 2 and black.count(" extra") == 1
    white = page.split('data-color="white"', 1)[1]
    assert white.split("</div>", 1)[0].count("<span class=\"catch ") == 1  # white caught none: the goal's one empty dot


def test_a_finished_game_is_reviewed_outside_the_request_without_anyone_asking(app, kid, client):
    """The game ends with a capture of the kid's stones the kid could have saved: by the time the runner the
    last move woke is done, the review has kept it as a retry puzzle."""
    from teach.models import MissedCapture
    from teach.web import reviews

    app.config.update(REVIEW_RUNNER=True, REVIEW_SECONDS=120, REVIEW_DEADLINE_SECONDS=240)  # a busy test machine
    game_id = new_game(client, {**CAPTURE_VS_MOUSE, "who": "friend", "goal": "1"})
    # white surrounds black's D4 on three sides; in atari, black plays G5 instead of D3 and white takes D4
    body = play_all(client, game_id, ["D4", "D5", "G7", "C4", "G6", "E4", "G5", "D3"])
    assert body["state"] == "finished" and body["winner"] == "white"
    assert reviews.join_runner(app, 180)
    with app.app_context():
        assert row_of(app, game_id).reviewed
        kept = db.session.scalars(sa.select(MissedCapture).where(MissedCapture.game_id == game_id)).all()
        assert [(m.kind, m.move_number, m.target, m.played) for m in kept] == [("unsaved-atari", 7, "D4", "G5")]
        assert "D3" in kept[0].answers


# ---------------------------------------------------------------------- counting
# Black walls off the top five rows, White the bottom four; White's stone on E7 is dead inside Black's land
WALLS = [m for col in "ABCDEFGHJ" for m in (f"{col}5", f"{col}4")] + ["E8", "E7", "D7", "pass", "F7", "pass", "pass"]


def _counted_game(client) -> int:
    game_id = new_game(client, FRIEND_9)
    body = play_all(client, game_id, WALLS)
    assert body["state"] == "counting" and body["reload"] is True
    return game_id


def test_two_passes_open_the_count_and_tapping_a_group_flips_it(app, kid, client):
    game_id = _counted_game(client)
    row = row_of(app, game_id)
    assert row.state == "counting" and row.dead == ["E7"]  # the status reader's proposal
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert 'id="count-panel"' in page and "黑45子，归本数40½，贴3¾子，黑胜¾子" in page and "黑棋胜¾子！" in page
    assert 'class="kid-line speak"' in page  # at one tablet the line takes no side
    assert "电脑认为" not in page and "点一下那块棋就能改" in page  # at one tablet the players tap the dead stones
    assert "不属于任何一方" not in page  # every point is someone's: nothing said of open land
    alive = client.post(f"/play/{game_id}/count", json={"point": "E7", "ply": row.ply}).get_json()
    assert alive["dead"] == [] and alive["points"].startswith("W+") and alive["tone"] == ""
    dead = client.post(f"/play/{game_id}/count", json={"point": "e7", "ply": row.ply}).get_json()
    assert dead["dead"] == ["E7"] and dead["points"] == "B+1.5" and "黑胜¾子" in dead["referee"]
    assert dead["points_words"] == "（1.5点 = ¾子）"  # the record's points and the referee's stones: one margin
    assert 'class="pt white dead' in dead["board"] or "dead" in dead["board"]
    empty = client.post(f"/play/{game_id}/count", json={"point": "B8", "ply": row.ply})
    assert empty.status_code == 200 and empty.get_json()["result"] == "illegal"
    assert play(client, game_id, "B8", row.ply).status_code == 409  # no moves while counting


# every empty point in settled land (Black: columns A-D, White: E-J), so the computer has nothing left to play
SETTLED = [m for r in range(1, 10) for m in (f"D{r}", f"E{r}")] + [m for r in range(1, 10) for m in (f"A{r}", f"H{r}")]


def _settled_game(app, client) -> int:
    game_id = new_game(client, {**FRIEND_9, "who": "3"})
    with app.app_context():
        row = db.session.get(PlayedGame, game_id)
        row.moves, row.ply = list(SETTLED), len(SETTLED)
        db.session.commit()
    return game_id


def test_the_computer_s_pass_after_the_kid_s_pass_says_the_game_is_over_and_counting_starts(app, kid, client):
    game_id = _settled_game(app, client)
    body = play(client, game_id, "pass", len(SETTLED)).get_json()
    assert body["reply"] == "pass" and body["state"] == "counting"
    assert "也停了一手：这盘棋下完了" in body["message"] and "你也停一手" not in body["message"]
    assert "电脑" not in body["message"] and "小" in body["message"]  # the computer's character says it
    # the count's words say what a tap can do against the computer (it holds its dead stones), not "tap dead ones"
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert "变淡的棋子，是电脑认为已经死了的" in page and "点一下死子" not in page


def test_the_computer_s_pass_after_a_kid_s_move_asks_the_kid_to_pass_if_the_game_is_finished(app, kid, client):
    game_id = _settled_game(app, client)
    body = play(client, game_id, "B5", len(SETTLED)).get_json()
    assert body["reply"] == "pass" and body["state"] == "playing"
    assert body["message"].endswith("停了一手。如果你觉得棋下完了，你也停一手。") and "电脑" not in body["message"]


def test_a_kid_who_passes_while_the_computer_plays_on_is_told_the_game_goes_on(kid, client):
    game_id = new_game(client, {**FRIEND_9, "who": "3"}, seed=7)
    body = play(client, game_id, "pass", 0).get_json()
    assert body["result"] == "ok" and body["reply"] not in (None, "pass") and body["state"] == "playing"
    computer = body["players"]["white"]["name"]
    assert body["message"] == f"你停了一手，可是{computer}还要接着下：棋还没下完呢。"
    assert body["to_move"] == "black"  # the kid's turn again, after the computer's move


def test_in_pass_and_play_the_next_player_hears_who_passed(kid, client):
    game_id = new_game(client, FRIEND_9)
    first = play(client, game_id, "pass", 0).get_json()
    assert first["state"] == "playing" and first["message"] == "明明停了一手。如果棋下完了，你也停一手。"
    client.post("/language", data={"lang": "en"})
    second = play(client, game_id, "pass", 1).get_json()  # 妈妈 passes back: the game is over, nothing to say
    assert second["state"] == "counting" and "passed" not in (second["message"] or "")


def test_against_the_computer_the_kid_cannot_count_the_computer_s_live_stones_dead(app, kid, client):
    """The same walls against the Little Mouse: the computer proposed its E7 dead. The kid may count E7 alive
    (and dead again); marking the computer's live wall dead is refused, and so is giving away the kid's own."""
    game_id = _counted_game(client)
    with app.app_context():
        row = db.session.get(PlayedGame, game_id)
        row.opponent, row.level, row.proposed = "computer", 1, ["E7"]
        db.session.commit()
    ply = row_of(app, game_id).ply

    def tap(point):
        return client.post(f"/play/{game_id}/count", json={"point": point, "ply": ply}).get_json()

    refused = tap("A4")  # White's wall: alive
    assert refused["result"] == "disagree" and "小老鼠不同意" in refused["message"]
    assert row_of(app, game_id).dead == ["E7"]
    assert 'class="kid-line speak ahead"' in client.get(f"/play/{game_id}").get_data(as_text=True)  # B+1.5
    behind = tap("E7")  # the computer's dead stone counted alive: White is ahead, and the kid plays Black
    assert behind["dead"] == [] and behind["points"].startswith("W+") and behind["tone"] == "behind"
    assert tap("E7")["dead"] == ["E7"]  # and dead again
    kept = tap("A5")  # the kid's own living wall: a tap does not give it away (a child exploring lost a won game)
    assert kept["result"] == "disagree" and kept["dead"] == ["E7"] and "它们算你的" in kept["message"]
    assert row_of(app, game_id).dead == ["E7"]
    done = client.post(f"/play/{game_id}/count/done", json={"ply": ply}).get_json()
    assert done["game_result"] == "B+1.5"


def test_against_the_computer_the_kid_hears_why_own_stones_it_counts_dead_cannot_be_counted_alive(app, kid, client):
    """The computer proposed the kid's own wall (A5) dead: counting it alive again is refused, and the refusal
    says what the computer thinks of those stones (caught: play on to save them), not that they are alive."""
    game_id = _counted_game(client)
    ply = row_of(app, game_id).ply
    conceded = client.post(f"/play/{game_id}/count", json={"point": "A5", "ply": ply}).get_json()["dead"]
    with app.app_context():
        row = db.session.get(PlayedGame, game_id)
        row.opponent, row.level, row.proposed, row.dead = "computer", 1, list(conceded), list(conceded)
        db.session.commit()
    refused = client.post(f"/play/{game_id}/count", json={"point": "A5", "ply": ply}).get_json()
    assert refused["result"] == "disagree" and refused["dead"] == conceded
    assert "你的这些棋子已经被围住" in refused["message"] and "还活着" not in refused["message"]
    client.post("/language", data={"lang": "en"})
    refused = client.post(f"/play/{game_id}/count", json={"point": "A5", "ply": ply}).get_json()
    assert "stones of yours are caught" in refused["message"] and "are alive" not in refused["message"]
    assert row_of(app, game_id).dead == conceded


def test_done_counting_stores_the_result_and_gives_the_counting_sticker(app, kid, client):
    game_id = _counted_game(client)
    ply = row_of(app, game_id).ply
    body = client.post(f"/play/{game_id}/count/done", json={"ply": ply}).get_json()
    assert body["state"] == "finished" and body["game_result"] == "B+1.5" and body["winner"] == "black"
    assert [m["id"] for m in body["milestones"]] == ["milestone-counted-game"]
    row = row_of(app, game_id)
    assert (row.state, row.result, row.winner, row.dead) == ("finished", "B+1.5", "black", ["E7"])
    assert client.post(f"/play/{game_id}/count/done", json={"ply": ply}).status_code == 409
    assert client.post(f"/play/{game_id}/count", json={"point": "E7", "ply": ply}).status_code == 409
    page = client.get(f"/play/{game_id}").get_data(as_text=True)
    assert "妈妈赢了" not in page and "明明赢了" in page and "黑45子，归本数40½，贴3¾子，黑胜¾子" in page
    assert 'id="count-panel"' not in page


def test_players_who_do_not_agree_keep_playing_and_count_again(app, kid, client):
    game_id = _counted_game(client)
    ply = row_of(app, game_id).ply
    body = client.post(f"/play/{game_id}/resume", json={"ply": ply}).get_json()
    assert body["state"] == "playing" and body["to_move"] == "white" and row_of(app, game_id).dead == []
    after = play_all_from(client, game_id, ply, ["C8", "pass", "pass"])
    assert after["state"] == "counting"
    row = row_of(app, game_id)
    assert row.moves[-3:] == ["C8", "pass", "pass"] and "E7" in row.dead


def play_all_from(client, game_id, ply, moves):
    body = None
    for m in moves:
        body = play(client, game_id, m, ply).get_json()
        assert body["result"] == "ok", body
        ply = body["ply"]
    return body


# ---------------------------------------------------------------------- whose games
def test_another_kid_s_game_and_tampered_ids_are_404(app, demo, client):
    kid_login(client)
    game_id = new_game(client, FRIEND_9)
    tom = demo.test_client()
    kid_login(tom, "Tom", ("moon", "moon", "star"))
    assert tom.get(f"/play/{game_id}").status_code == 404
    assert tom.post(f"/play/{game_id}/move", json={"move": "D4", "ply": 0}).status_code == 404
    assert tom.post(f"/play/{game_id}/resume", json={"ply": 0}).status_code == 404
    for url in ("/play/0", f"/play/{game_id + 1000}", "/play/abc", "/play/99999999999999999999999",
                f"/play/{game_id}x", "/play/-1"):
        assert client.get(url).status_code == 404, url
    assert row_of(app, game_id).moves == []


def test_adults_and_visitors_do_not_play_as_kids(demo, client):
    assert client.get("/play/").status_code == 302 and "/kids" in client.get("/play/").headers["Location"]
    assert client.post("/play/1/move", json={"move": "D4", "ply": 0}).status_code == 401
