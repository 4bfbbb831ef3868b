"""A kid's games kept: the list, the replay, the SGF download, who may see them, and the review after a game as
retry puzzles — judged from the stored position by the lesson puzzles' judge, solved or skipped once — with the
review queue that claims each game once.

The games are real games (their moves replay through the engine) and the missed captures real positions checked
with the judge; the one test that needs the engine's review itself skips where ``teach.go.review`` is missing.
"""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from teach.go import Game
from teach.go.judge import Goal, Judge
from teach.models import Group, Membership, MissedCapture, ParentLink, PlayedGame, User, utcnow
from teach.web.extensions import db

# Black (the kid) could take the white stone on D5 at move 7 (it had one liberty, D4) and played H1 instead.
MISSED_GAME = ["E5", "D5", "C5", "A1", "D6", "J9", "H1", "D4", "pass", "pass"]
MISSED_AT = {"move_number": 7, "black": ["E5", "C5", "D6"], "white": ["D5", "A1", "J9"], "to_play": "black",
             "goal": "capture", "target": "D5", "played": "H1", "answers": ["D4"], "kind": "missed-capture",
             "size": 9}
# a white stone in the corner that cannot get away: every capturing line takes two black moves
CORNER = {"move_number": 1, "black": ["C1", "A3", "B2"], "white": ["A1"], "to_play": "black", "goal": "capture",
          "target": "A1", "played": "J9", "answers": ["A2", "B1"], "kind": "missed-capture", "size": 9}


def _user(role, name, email=None):
    user = User(role=role, name=name, email=email, avatar="panda", password_hash="-", picture_hash="-")
    db.session.add(user)
    return user


def _game(kid, moves, **values) -> PlayedGame:
    fields = dict(kid_id=kid.id, kind="full", size=9, komi=7.5, handicap=0, kid_color="black", opponent="computer",
                  level=1, moves=list(moves), ply=len(moves), state="finished", result="B+3.5", winner="black",
                  reviewed=True, finished_at=utcnow())
    fields.update(values)
    row = PlayedGame(**fields)
    db.session.add(row)
    db.session.flush()
    return row


def _missed(game, spec, **values) -> MissedCapture:
    row = MissedCapture(game_id=game.id, kid_id=game.kid_id, **{**spec, **values})
    db.session.add(row)
    db.session.flush()
    return row


@pytest.fixture
def world(app):
    """A class (its teacher, the kid Ming Li and a classmate), the kid's family (an approved parent), another
    teacher and another parent (whose link still waits), and the kid's games: one with a missed capture, one
    still being played; the classmate has a game of his own."""
    app.config["REVIEW_RUNNER"] = False  # the queue is worked by the tests themselves
    with app.app_context():
        kid, classmate = _user("kid", "Ming Li"), _user("kid", "Tom")
        teacher, other_teacher = _user("teacher", "Ms Wang", "wang@example.com"), _user("teacher", "Mr Zhao", "z@x.org")
        parent, other_parent = _user("parent", "Mum", "mum@example.com"), _user("parent", "Dad", "dad@example.com")
        klass, other_class = Group(kind="class", name="Mice"), Group(kind="class", name="Tigers")
        family = Group(kind="family", name="Home")
        klass.members += [Membership(user=teacher, role="teacher"), Membership(user=kid, role="kid"),
                          Membership(user=classmate, role="kid")]
        other_class.members += [Membership(user=other_teacher, role="teacher")]
        family.members += [Membership(user=parent, role="parent"), Membership(user=kid, role="kid")]
        db.session.add_all([klass, other_class, family])
        db.session.flush()
        db.session.add_all([ParentLink(parent_id=parent.id, kid_id=kid.id, status="approved"),
                            ParentLink(parent_id=other_parent.id, kid_id=kid.id, status="pending")])
        old = _game(kid, MISSED_GAME, created_at=utcnow() - timedelta(days=1),
                    finished_at=utcnow() - timedelta(days=1))
        missed = _missed(old, MISSED_AT)
        playing = _game(kid, ["E5", "D5"], kind="capture", capture_goal=3, state="playing", result=None,
                        winner=None, finished_at=None, reviewed=False)
        theirs = _game(classmate, ["E5"], result="W+R", winner="white")
        db.session.commit()
        return {"kid": kid.get_id(), "classmate": classmate.get_id(), "teacher": teacher.get_id(),
                "other_teacher": other_teacher.get_id(), "parent": parent.get_id(),
                "other_parent": other_parent.get_id(), "game": old.id, "missed": missed.id, "playing": playing.id,
                "theirs": theirs.id, "kid_id": kid.id, "class": klass.id}


def signed_in(app, session_id: str, lang: str | None = None):
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = session_id
        session["_fresh"] = True
        if lang:
            session["locale"] = {"en": "en", "zh": "zh_Hans_CN"}[lang]
    return client


def page(response) -> str:
    return response.get_data(as_text=True)


# ---------------------------------------------------------------------- the list
def test_my_games_newest_first_in_kid_words_with_the_unfinished_game_to_go_on(app, world):
    text = page(signed_in(app, world["kid"]).get("/games/"))
    assert text.index(f'data-game-id="{world["playing"]}"') < text.index(f'data-game-id="{world["game"]}"')
    assert "你赢了" in text and "小老鼠" in text and "吃子游戏·先吃3子" in text
    assert f'/games/{world["game"]}/review' in text and f'/games/{world["playing"]}"' not in text  # no replay yet
    assert f'/games/{world["theirs"]}' not in text
    assert "/games/practice" in text  # one missed capture to practise
    en = page(signed_in(app, world["kid"], "en").get("/games/"))
    assert "You won!" in en and "1¾ stones ahead" in en and "Little Mouse" in en


def test_the_review_of_an_unfinished_game_leads_its_kid_back_to_the_game_and_no_one_else(app, world):
    go_on = f'href="/play/{world["playing"]}"'
    text = page(signed_in(app, world["kid"]).get(f'/games/{world["playing"]}/review'))
    assert "这盘棋还没下完" in text and go_on in text
    for who in ("teacher", "parent"):  # they look at the kid's game; only the kid plays it
        text = page(signed_in(app, world[who]).get(f'/games/{world["playing"]}/review'))
        assert "还没下完" in text and go_on not in text


def test_a_lost_game_with_nothing_missed_is_not_called_great(app, world):
    """The review finds missed captures only: after a lost game where it found none, no 🌟 "great!"."""
    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        lost = _game(kid, ["E5", "D5"], result="W+R", winner="white").id
        won = _game(kid, ["E5", "D5"]).id
        db.session.commit()
    client = signed_in(app, world["kid"])
    text = page(client.get(f"/games/{lost}/review"))
    assert "这盘棋没有找到漏掉的吃子" in text and "真棒" not in text and 'href="/play/"' in text
    assert "真棒！这盘棋没有漏掉吃子。" in page(client.get(f"/games/{won}/review"))


def test_a_kid_without_games_gets_a_friendly_empty_page(app, world):
    with app.app_context():
        lone = _user("kid", "Lily")
        db.session.commit()
        lone_id = lone.get_id()
    text = page(signed_in(app, lone_id).get("/games/"))
    assert "还没有对局" in text and "data-game-id" not in text


# ---------------------------------------------------------------------- replay and who sees it
def test_the_replay_has_every_frame_from_the_engine_for_the_kid_the_teacher_and_the_parent(app, world):
    from teach.web.played import game_of

    with app.app_context():
        final = game_of(db.session.get(PlayedGame, world["game"])).board_rows()
    for who in ("kid", "teacher", "parent"):
        response = signed_in(app, world[who]).get(f"/games/{world['game']}")
        assert response.status_code == 200, who
        frames = _frames(page(response))
        assert len(frames) == len(MISSED_GAME) + 1 and frames[0]["move"] is None
        assert frames[-1]["rows"] == final and frames[7]["move"] == "H1" and frames[7]["color"] == "black"
    # the page without its script: the board after the asked-for move, the steps as links
    text = page(signed_in(app, world["kid"]).get(f"/games/{world['game']}?move=2"))
    assert "第 2 手，共 10 手" in text and 'class="pt white" data-point="D5"' in text.replace(" last", "")
    assert 'data-point="C5"' in text and 'class="pt black" data-point="C5"' not in text  # not played yet
    # letters and numbers round the board as on the kid's game board: off for a young kid, on for grown-ups
    assert 'class="coord"' not in text
    assert 'class="coord"' in page(signed_in(app, world["teacher"]).get(f"/games/{world['game']}?move=2"))
    with app.app_context():
        db.session.get(User, int(world["kid"].split(":")[0])).coordinates = True  # a grown-up chose them
        db.session.commit()
    assert 'class="coord"' in page(signed_in(app, world["kid"]).get(f"/games/{world['game']}?move=2"))


def _frames(text: str) -> list:
    import json

    found = re.search(r'<script type="application/json" id="replay-frames">(.*?)</script>', text, re.S)
    return json.loads(found.group(1))


@pytest.mark.parametrize("who", ["classmate", "other_teacher", "other_parent"])
def test_anyone_else_gets_404_for_the_game_its_sgf_and_its_review(app, world, who):
    client = signed_in(app, world[who])
    for path in (f"/games/{world['game']}", f"/games/{world['game']}.sgf", f"/games/{world['game']}/review",
                 f"/games/{world['game']}/review/status"):
        assert client.get(path).status_code == 404, path


def test_a_tampered_id_or_another_kid_s_game_is_a_404(app, world):
    client = signed_in(app, world["kid"])
    for path in (f"/games/{world['theirs']}", f"/games/{world['theirs']}.sgf", "/games/999999",
                 "/games/99999999999999999999", "/games/0/review"):
        assert client.get(path).status_code == 404, path
    assert client.post(f"/games/missed/{world['missed'] + 100}/move", json={"move": "D4"}).status_code == 404
    # a teacher reaching for a kid of a class that is not theirs
    assert signed_in(app, world["other_teacher"]).get(f"/games/{world['theirs']}").status_code == 404


def test_nobody_signed_in_goes_to_the_kids_sign_in(app, world):
    response = app.test_client().get(f"/games/{world['game']}")
    assert response.status_code == 302 and "/kids" in response.headers["Location"]


def test_a_broken_record_is_a_friendly_page_not_a_500(app, world):
    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        broken = _game(kid, ["E5", "E5"]).id  # the second stone on an occupied point: changed outside the app
        db.session.commit()
    client = signed_in(app, world["kid"])
    for path in (f"/games/{broken}", f"/games/{broken}.sgf"):
        response = client.get(path)
        assert response.status_code == 409 and "读不出来" in page(response)
    assert client.get("/games/").status_code == 200  # the list still shows


# ---------------------------------------------------------------------- SGF
def test_the_sgf_download_replays_to_the_same_position_with_first_names_only(app, world):
    from teach.web.played import game_of

    response = signed_in(app, world["parent"], "en").get(f"/games/{world['game']}.sgf")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment;")
    text = page(response)
    game = Game.from_sgf(text, strict=True)
    with app.app_context():
        assert game.board_rows() == game_of(db.session.get(PlayedGame, world["game"])).board_rows()
    assert game.info["PB"] == "Ming" and game.info["PW"] == "Little Mouse" and game.info["RE"] == "B+3.5"
    assert game.info["DT"] == re.search(r"DT\[([\d-]+)\]", text).group(1) and "FF[4]" in text and "GM[1]" in text
    assert "KM[7.5]" in text and "SZ[9]" in text and "RU[Chinese]" in text
    assert "Li" not in text.replace("Little", "") and "@" not in text and "Mum" not in text


def test_a_handicap_capture_game_with_a_friend_exports_its_stones_goal_and_the_friend_s_first_name(app, world):
    from teach.web.played import game_of

    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        row = _game(kid, ["E5", "D5", "C5"], kind="capture", capture_goal=1, handicap=2, komi=0, kid_color="white",
                    opponent="friend", level=None, friend_name="Anna Smith", result="W+C1", winner="white")
        db.session.commit()
        game_id, final = row.id, None
    text = page(signed_in(app, world["kid"], "en").get(f"/games/{game_id}.sgf"))
    game = Game.from_sgf(text, strict=True)
    with app.app_context():
        final = game_of(db.session.get(PlayedGame, game_id))
    assert game.board_rows() == final.board_rows() and game.handicap == 2 and "HA[2]" in text and "AB[" in text
    assert game.info["PB"] == "Anna" and game.info["PW"] == "Ming" and "Smith" not in text
    assert "GC[Capture game: the first to capture 1 stone wins; White won with 1 stone captured]" in text
    assert "first to capture 1" in game.info["C"] and game.info["RE"] == "W+" and "KM[" not in text
    # the rule and the win in the reader's language: SGF has no rule for the capture game
    zh = page(signed_in(app, world["kid"], "zh").get(f"/games/{game_id}.sgf"))
    assert "GC[吃子游戏：先吃到1个子的一方赢；白棋吃到1个子，赢了]" in zh
    assert Game.from_sgf(zh, strict=True).info["RE"] == "W+"


def test_a_friend_named_by_an_address_is_no_name_in_the_record(app, world):
    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        row = _game(kid, ["E5"], opponent="friend", level=None, friend_name="anna@example.com")
        db.session.commit()
        game_id = row.id
    text = page(signed_in(app, world["kid"], "en").get(f"/games/{game_id}.sgf"))
    assert "@" not in text and "PW[Friend]" in text


# ---------------------------------------------------------------------- the review: retry puzzles
def test_the_stored_position_is_a_real_missed_capture():
    """The fixture's finding, checked with the judge: D4 captures, H1 (what was played) lets the stone go."""
    game = Game(9)
    for move in MISSED_GAME[:6]:
        game.play(move)
    assert sorted(game.chain_at("D5")) == ["D5"] and game.liberties("D5") == ["D4"]
    position = Game(9)
    position.setup(black=MISSED_AT["black"], white=MISSED_AT["white"])
    assert position.board_rows() == game.board_rows()
    judge = Judge(position, Goal("capture", ("D5",)))
    assert judge.judge([], "D4").result == "correct" and judge.judge([], "H1").result == "wrong"


def test_the_review_shows_the_missed_capture_as_a_puzzle_with_the_kid_s_prompt(app, world):
    text = page(signed_in(app, world["kid"]).get(f"/games/{world['game']}/review"))
    assert "这里可以吃掉白棋，找一找！" in text and "你这盘棋的第 7 手" in text
    assert f'/games/missed/{world["missed"]}/move' in text and "svg" in text and "playable" in text
    # the answer is on the board, never in the words above it (the words as shown: tags and their attributes,
    # such as a random CSRF token that may hold "D4", are not words)
    assert 'data-point="D4"' in text and "D4" not in re.sub(r"<[^>]*>", " ", text.split("<svg")[0])
    en = page(signed_in(app, world["kid"], "en").get(f"/games/{world['game']}/review"))
    assert "You could capture the white stone here. Find it!" in en  # one stone on the board: "stone"


def test_a_wrong_move_then_the_right_one_solves_the_missed_capture_once(app, world):
    client = signed_in(app, world["kid"])
    url = f"/games/missed/{world['missed']}/move"
    wrong = client.post(url, json={"move": "H1"}).get_json()
    assert wrong["result"] == "wrong" and wrong["reply"] == "D4"
    # the stone got away; "the little mouse ran away" (the lessons' words) would name the weakest computer level
    assert wrong["message"] == "哎呀，这颗棋子逃走了！看看它从哪儿跑的，再试一次。" and "小老鼠" not in wrong["message"]
    with app.app_context():
        assert db.session.get(MissedCapture, world["missed"]).status == "open"
    right = client.post(url, json={"move": "D4"}).get_json()
    assert right["result"] == "correct" and right["message"] and right["message"] != wrong["message"]
    assert right["next"] == f"/games/{world['game']}/review"
    with app.app_context():
        row = db.session.get(MissedCapture, world["missed"])
        assert row.status == "solved" and row.solved_at is not None
        solved_at = row.solved_at
    again = client.post(url, json={"move": "D4"}).get_json()  # the same answer sent twice, or played again later
    assert again["result"] == "correct"
    with app.app_context():
        row = db.session.get(MissedCapture, world["missed"])
        assert row.status == "solved" and row.solved_at == solved_at
        from teach.models import Attempt

        keys = db.session.scalars(sa.select(Attempt.lesson_id)).all()
        assert keys and set(keys) == {f"review:{world['missed']}"}


# black D5 in atari at D4 (C5, E5 and D6 are white): D4 saves it, anything else lets White take it
SAVE = {"move_number": 9, "black": ["D5", "G3"], "white": ["C5", "E5", "D6"], "to_play": "black", "goal": "save",
        "target": "D5", "played": "G4", "answers": ["D4"], "kind": "unsaved-atari", "size": 9}


def test_a_wrong_move_on_a_save_retry_says_the_stones_were_caught_as_the_board_shows(app, world):
    """The computer's answer takes the kid's stone: the words say it was caught, not that it "can be caught now"
    (a walk's child read that under a board where the stone was already gone)."""
    with app.app_context():
        row = _missed(db.session.get(PlayedGame, world["game"]), SAVE)
        db.session.commit()
        save_id = row.id
    wrong = signed_in(app, world["kid"], "en").post(f"/games/missed/{save_id}/move", json={"move": "J9"}).get_json()
    assert wrong["result"] == "wrong" and wrong["reply"] == "D4"
    assert wrong["message"] == "Oh no, your stones were caught. Try again!"


def test_a_stale_move_in_a_longer_line_gets_the_board_on_record(app, world):
    with app.app_context():
        corner = _missed(db.session.get(PlayedGame, world["game"]), CORNER)
        db.session.commit()
        corner_id = corner.id
    client = signed_in(app, world["kid"])
    url = f"/games/missed/{corner_id}/move"
    first = client.post(url, json={"move": "A2"}).get_json()
    assert first["result"] == "continue" and first["attempt"] and first["ply"] == 2
    stale = client.post(url, json={"move": "A2", "attempt": first["attempt"], "ply": 0})
    assert stale.status_code == 409 and stale.get_json()["result"] == "stale"
    done = client.post(url, json={"move": "B1", "attempt": first["attempt"], "ply": 2}).get_json()
    assert done["result"] == "correct"
    # bodies the page never sends are refused, and change nothing
    assert client.post(url, json={"move": "D4", "extra": 1}).status_code == 400
    assert client.post(url, json={"move": "Z99"}).status_code == 400


def test_show_me_on_the_way_points_at_the_move_that_works_from_there(app, world):
    with app.app_context():
        corner = _missed(db.session.get(PlayedGame, world["game"]), CORNER)
        db.session.commit()
        corner_id, first_answers = corner.id, list(corner.answers)
    client = signed_in(app, world["kid"])
    url = f"/games/missed/{corner_id}"
    first = client.post(f"{url}/move", json={"move": "A2"}).get_json()
    assert first["result"] == "continue" and "A2" in first_answers
    # half way, the first move's point holds the kid's stone: the glow is on the move that works from here
    shown = client.post(f"{url}/show", json={"attempt": first["attempt"]}).get_json()
    assert shown["answers"] == ["B1"] and not shown.get("restart")
    assert client.post(f"{url}/move", json={"move": "B1", "attempt": first["attempt"], "ply": 2}).get_json()[
        "result"] == "correct"
    # a try that is over, another puzzle's, made up or not a number: the first moves, from the start
    for attempt in (first["attempt"], first["attempt"] + 1000, "1", True, -1):
        again = client.post(f"{url}/show", json={"attempt": attempt}).get_json()
        assert again["answers"] == first_answers and not again.get("restart")
    other = client.post(f"/games/missed/{world['missed']}/move", json={"move": "H1"}).get_json()
    assert other["result"] == "wrong"
    with app.app_context():
        from teach.models import Attempt

        theirs = db.session.scalar(sa.select(Attempt.id).where(Attempt.lesson_id == f"review:{world['missed']}"))
    assert client.post(f"{url}/show", json={"attempt": theirs}).get_json()["answers"] == first_answers


def test_a_puzzle_solved_after_show_me_stays_open_until_the_kid_finds_it_alone(app, world):
    client = signed_in(app, world["kid"])
    url = f"/games/missed/{world['missed']}"
    assert client.post(f"{url}/show").get_json()["answers"] == ["D4"]
    shown = client.post(f"{url}/move", json={"move": "D4"}).get_json()
    assert shown["result"] == "correct" and "下次" in shown["message"]
    with app.app_context():
        assert db.session.get(MissedCapture, world["missed"]).status == "open"
    assert "这盘棋都看完了" in page(client.get(shown["next"]))  # not straight back to the same one
    assert client.post(f"{url}/move", json={"move": "D4"}).get_json()["message"] == shown["message"]
    assert f"at={world['missed']}" in page(client.get("/games/practice"))  # kept for practice
    assert "找一找" in page(client.get(f"/games/{world['game']}/review?at={world['missed']}"))  # a fresh try
    alone = client.post(f"{url}/move", json={"move": "D4"}).get_json()
    assert alone["result"] == "correct" and "下次" not in alone["message"]
    with app.app_context():
        assert db.session.get(MissedCapture, world["missed"]).status == "solved"


def test_show_me_gives_an_answer_and_skip_is_kept_once(app, world):
    client = signed_in(app, world["kid"])
    shown = client.post(f"/games/missed/{world['missed']}/show").get_json()
    assert shown["answers"] == ["D4"]
    skipped = client.post(f"/games/missed/{world['missed']}/skip").get_json()
    assert skipped["result"] == "skipped" and skipped["next"] == f"/games/{world['game']}/review"
    with app.app_context():
        assert db.session.get(MissedCapture, world["missed"]).status == "skipped"
    # the game's end card: no party for a game whose every one was skipped, the way back to it, and on to play
    done = page(client.get(skipped["next"]))
    assert "每一个都看过了" in done and "🎉" not in done and f"at={world['missed']}" in done
    assert 'id="done-play"' in done and 'id="done-games"' in done
    # a skipped one leaves the practice list; solving it later does not turn it into a second answer
    text = page(client.get("/games/practice"))
    assert f"at={world['missed']}" not in text and "都练完了" in text
    client.post(f"/games/missed/{world['missed']}/move", json={"move": "D4"})
    with app.app_context():
        assert db.session.get(MissedCapture, world["missed"]).status == "skipped"


def test_only_the_kid_plays_the_retry_puzzles(app, world):
    for who, code in (("classmate", 404), ("teacher", 403), ("parent", 403)):
        client = signed_in(app, world[who])
        for what in ("move", "show", "skip"):
            assert client.post(f"/games/missed/{world['missed']}/{what}", json={"move": "D4"}).status_code == code
    with app.app_context():
        assert db.session.get(MissedCapture, world["missed"]).status == "open"


def test_adults_see_the_review_read_only_with_the_answer(app, world):
    for who in ("teacher", "parent"):
        text = page(signed_in(app, world[who]).get(f"/games/{world['game']}/review"))
        assert "第 7 手" in text and "D4" in text and "H1" in text and "/move" not in text and "playable" not in text


def test_the_practice_page_keeps_open_missed_captures_across_games(app, world):
    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        second = _game(kid, MISSED_GAME)
        _missed(second, MISSED_AT)
        db.session.commit()
        second_id = second.id
    text = page(signed_in(app, world["kid"]).get("/games/practice"))
    assert f"/games/{world['game']}/review?at=" in text and f"/games/{second_id}/review?at=" in text
    assert text.count('class="card"') == 2


def test_a_finding_whose_goal_does_not_fit_its_position_says_so_and_can_be_skipped(app, world):
    with app.app_context():
        bad = _missed(db.session.get(PlayedGame, world["game"]), MISSED_AT, move_number=9, target="H8")
        db.session.commit()
        bad_id = bad.id
    client = signed_in(app, world["kid"])
    text = page(client.get(f"/games/{world['game']}/review?at={bad_id}"))
    assert "跳过" in text and "playable" not in text
    answer = client.post(f"/games/missed/{bad_id}/move", json={"move": "D4"})
    assert answer.status_code == 409 and answer.get_json()["message"]
    assert client.post(f"/games/missed/{bad_id}/skip").get_json()["result"] == "skipped"


# ---------------------------------------------------------------------- the review queue
def test_a_finished_game_waits_for_its_review_and_the_page_says_so(app, world):
    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        game_id = _game(kid, MISSED_GAME, reviewed=False).id
        db.session.commit()
    client = signed_in(app, world["kid"])
    assert "老师正在看你的棋" in page(client.get(f"/games/{game_id}/review"))
    assert client.get(f"/games/{game_id}/review/status").get_json() == {"status": "waiting"}
    assert signed_in(app, world["kid"]).get(f"/games/{world['playing']}/review/status").get_json() == \
        {"status": "playing"}


def _waiting_game(app, world) -> int:
    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        game_id = _game(kid, MISSED_GAME, reviewed=False).id
        db.session.commit()
        return game_id


def test_racing_claims_review_a_game_once(app, world):
    from teach.web import reviews

    game_id = _waiting_game(app, world)
    barrier = threading.Barrier(6)
    won: list = []

    def runner():
        with app.app_context():
            barrier.wait()
            claimed = reviews.claim()
            won.append(claimed[0] if claimed else None)
            db.session.remove()

    threads = [threading.Thread(target=runner) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(won, key=str) == [game_id] + [None] * 5
    with app.app_context():
        row = db.session.get(PlayedGame, game_id)
        assert row.review_started_at is not None and not row.reviewed
        from teach.web import reviews as r

        assert r.status(row) == "running"


def test_findings_are_recorded_once_and_only_by_the_claim_that_stands(app, world):
    from teach.web import reviews

    game_id = _waiting_game(app, world)
    with app.app_context():
        stamp = reviews.claim_game(game_id)
        assert stamp is not None and reviews.claim_game(game_id) is None
        assert reviews.finish(game_id, stamp - timedelta(seconds=1), [MISSED_AT]) == "lost"  # not this claim
        junk = [dict(MISSED_AT, kind="brilliant"), dict(MISSED_AT, black=["Z99"]), dict(MISSED_AT, move_number=99),
                {"kind": "missed-capture"}, "not a finding"]
        assert reviews.finish(game_id, stamp, [MISSED_AT, MISSED_AT] + junk) == "done"
        assert reviews.finish(game_id, stamp, [MISSED_AT]) == "lost"  # the second answer of the same claim
        rows = db.session.scalars(sa.select(MissedCapture).where(MissedCapture.game_id == game_id)).all()
        assert [(r.move_number, r.kind, r.status) for r in rows] == [(7, "missed-capture", "open")]
        assert db.session.get(PlayedGame, game_id).reviewed


def test_a_claim_whose_runner_died_is_taken_again(app, world):
    from teach.web import reviews

    game_id = _waiting_game(app, world)
    with app.app_context():
        assert reviews.claim_game(game_id) is not None
        assert reviews.claim() is None
        db.session.execute(sa.update(PlayedGame).where(PlayedGame.id == game_id)
                           .values(review_started_at=utcnow() - timedelta(hours=1)))
        db.session.commit()
        assert reviews.claim()[0] == game_id


def test_a_review_that_cannot_answer_leaves_the_game_reviewed_with_nothing_found(app, world):
    """The child process is killed at its deadline (here at once): the page never waits for ever."""
    from teach.web import reviews

    game_id = _waiting_game(app, world)
    app.config["REVIEW_DEADLINE_SECONDS"] = 0.01
    with app.app_context():
        assert reviews.run_next() == "empty"
        assert db.session.get(PlayedGame, game_id).reviewed


def test_a_broken_record_is_reviewed_once_with_nothing_found_and_the_runner_goes_on(app, world):
    """The child process cannot rebuild the game (a move on an occupied point): it fails, the game is marked
    reviewed with no findings, and the next game waiting is taken after it."""
    from teach.web import reviews

    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        broken = _game(kid, ["E5", "E5"], reviewed=False, finished_at=utcnow() - timedelta(minutes=5)).id
        db.session.commit()
    with app.app_context():
        assert reviews.run_next() == "empty"
        assert db.session.get(PlayedGame, broken).reviewed
        assert reviews.run_next() is None  # nothing else waits


def test_teach_reviews_run_works_the_queue_from_the_command_line(app, world):
    from click.testing import CliRunner
    from flask.cli import ScriptInfo

    from teach.cli import cli

    with app.app_context():
        kid = db.session.get(User, world["kid_id"])
        waiting = [_game(kid, ["E5", "E5"], reviewed=False).id for _ in range(2)]  # records that cannot replay
        db.session.commit()
    out = CliRunner().invoke(cli, ["reviews", "run"], obj=ScriptInfo(create_app=lambda: app))
    assert out.exit_code == 0, out.output
    assert "review 1: empty" in out.output and "review 2: empty" in out.output and "2 reviews run" in out.output
    with app.app_context():
        assert all(db.session.get(PlayedGame, i).reviewed for i in waiting)
    again = CliRunner().invoke(cli, ["reviews", "run"], obj=ScriptInfo(create_app=lambda: app))
    assert "0 reviews run" in again.output


def test_the_real_review_finds_the_missed_capture_of_a_played_game(app, world):
    from teach.web import reviews

    game_id = _waiting_game(app, world)
    app.config["REVIEW_DEADLINE_SECONDS"] = 120  # a busy test machine
    with app.app_context():
        assert reviews.run_queue() >= 1
        rows = db.session.scalars(sa.select(MissedCapture).where(MissedCapture.game_id == game_id)).all()
        found = {(r.move_number, r.kind) for r in rows}
        assert (7, "missed-capture") in found
        row = next(r for r in rows if (r.move_number, r.kind) == (7, "missed-capture"))
        assert "D4" in row.answers and row.target in ("D5",)


# white D5 in atari at D4 with no way out even after it extends (C4 and E4 are black): a retry puzzle whose every
# line is short, so its whole proof fits in the review's time
CLOSED_IN = {**MISSED_AT, "black": ["E5", "C5", "D6", "C4", "E4"]}


def test_a_retry_puzzle_proven_whole_by_the_review_answers_the_kid_s_moves_with_lookups_the_reader_agrees_with(
        app, world):
    from teach.go.proof import ProvenJudge
    from teach.web import reviews
    from teach.web.games import judge_of, position_of

    finding = dict(CLOSED_IN)
    assert reviews.prove_findings([finding]) == 1
    with app.app_context():
        row = reviews.finding_row(db.session.get(PlayedGame, world["game"]), finding)
        row.move_number = 3  # beside the fixture's finding of move 7
        db.session.add(row)
        db.session.commit()
        assert row.proof["positions"]
        judge = judge_of(row)
        assert isinstance(judge, ProvenJudge)
        fresh = Judge(position_of(row), Goal(row.goal, (row.target,)))
        moves = position_of(row).legal_moves()
        for move in moves:  # every move the kid can play on the retry puzzle: the stored verdict is the reader's
            stored, read = judge.judge([], move), fresh.judge([], move)
            assert (stored.result, stored.reason, stored.reply) == (read.result, read.reason, read.reply), move
        assert judge.looked_up == len(moves) and judge.read == 0
    right = signed_in(app, world["kid"]).post(f"/games/missed/{row.id}/move", json={"move": "D4"}).get_json()
    assert right["result"] == "correct"


def test_a_finding_not_proven_in_the_review_s_time_is_kept_without_a_proof_and_read_live(app, world):
    from teach.go.proof import ProvenJudge
    from teach.web import reviews
    from teach.web.games import judge_of

    late = dict(MISSED_AT)
    assert reviews.prove_findings([late], until=0.0) == 0 and "proof" not in late  # no time left: nothing lost
    with app.app_context():
        game = db.session.get(PlayedGame, world["game"])
        assert reviews.finding_row(game, {**MISSED_AT, "proof": "not a proof"}) is None  # checked like any input
        assert reviews.finding_row(game, late).proof is None
        row = db.session.get(MissedCapture, world["missed"])
        live = judge_of(row)
        assert row.proof is None and isinstance(live, ProvenJudge) and live.proof is None  # no proof: read live
        read = live.read
        assert live.judge([], "D4").result == "correct" and live.read == read + 1


def test_a_finding_whose_puzzle_nothing_wins_once_its_lines_are_read_to_the_end_is_not_told(monkeypatch):
    """The review claims a capture; the whole proof of its retry puzzle finds no winning first move (White E3 with
    its friend at G2, the reader's F3 escaping after E2): the claim was not true, and the kid is not told it."""
    from test_whole_proof import BREAKER

    from teach.go.review import Finding
    from teach.web import reviews

    def stones(ch: str) -> list[str]:
        return [f"{c}{9 - r}" for r, row in enumerate(BREAKER) for c, cell in zip("ABCDEFGHJ", row) if cell == ch]

    false_claim = Finding(**{**MISSED_AT, "black": stones("X"), "white": stones("O"), "target": "E3",
                             "answers": ["F3"], "move_number": 5})
    true_claim = Finding(**MISSED_AT)
    monkeypatch.setattr(reviews, "review", lambda game, color, seconds: [false_claim, true_claim])
    monkeypatch.setattr(reviews, "PROOF_SECONDS", 60.0)  # time enough to read this one to its end
    request = {"id": 1, "kind": "full", "size": 9, "komi": 7.5, "handicap": 0, "capture_goal": None,
               "moves": MISSED_GAME, "color": "black", "seconds": 1}
    told = reviews._review_request(request)
    assert [(f["move_number"], f["target"]) for f in told] == [(7, "D5")]


def test_the_kid_s_page_starts_a_runner_that_reviews_the_game_outside_the_request(app, world):
    from teach.web import reviews

    game_id = _waiting_game(app, world)
    # the review's thinking time is wall-clock: on a loaded machine 20 s did not reach the missed capture
    app.config.update(REVIEW_RUNNER=True, REVIEW_DEADLINE_SECONDS=120, REVIEW_SECONDS=100)
    client = signed_in(app, world["kid"])
    assert "老师正在看你的棋" in page(client.get(f"/games/{game_id}/review"))  # answered at once
    assert reviews.join_runner(app, 180)
    assert client.get(f"/games/{game_id}/review/status").get_json() == {"status": "done"}
    assert "这里可以吃掉白棋" in page(client.get(f"/games/{game_id}/review"))


# ---------------------------------------------------------------------- teachers' and parents' kid pages
def test_the_teacher_s_and_the_parent_s_kid_pages_list_the_games_with_their_replays(app, world):
    teacher = page(signed_in(app, world["teacher"]).get(f"/teach/classes/{world['class']}/kids/{world['kid_id']}"))
    parent = page(signed_in(app, world["parent"]).get(f"/family/kids/{world['kid_id']}"))
    for text in (teacher, parent):
        assert f"/games/{world['game']}\"" in text and f"/games/{world['game']}/review" in text
        assert f"/games/{world['theirs']}" not in text
        assert "复盘（1 道待练习）" in text  # a Chinese page's brackets


def test_deleting_the_kid_deletes_their_games_and_missed_captures(app, world):
    response = signed_in(app, world["parent"]).post(f"/family/kids/{world['kid_id']}/delete",
                                                    data={"confirm": "Ming Li"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(PlayedGame).where(
            PlayedGame.kid_id == world["kid_id"])) == 0
        assert db.session.scalar(sa.select(sa.func.count()).select_from(MissedCapture)) == 0
        assert db.session.get(PlayedGame, world["theirs"]) is not None  # the classmate's game stays


def test_the_teacher_s_recent_tries_name_a_retried_missed_capture_without_a_broken_replay_link(app, world):
    signed_in(app, world["kid"]).post(f"/games/missed/{world['missed']}/move", json={"move": "H1"})
    text = page(signed_in(app, world["teacher"]).get(f"/teach/classes/{world['class']}/kids/{world['kid_id']}"))
    assert "对局里漏掉的吃子" in text and "/attempts/" not in text


def test_the_replay_and_the_review_lead_back_to_where_each_viewer_came_from(app, world):
    """The kid goes back to their games, a parent to the kid's page, the teacher to the kid's page in the class:
    never a dead end with only the header left."""
    with app.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.name == "Mice"))
    kid_id = world["kid_id"]
    expected = {"kid": ('href="/games/"', "My games"), "parent": (f'href="/family/kids/{kid_id}"', "Ming Li"),
                "teacher": (f'href="/teach/classes/{class_id}/kids/{kid_id}"', "Ming Li")}
    for who, (href, text) in expected.items():
        client = signed_in(app, world[who], "en")
        for path in (f"/games/{world['game']}", f"/games/{world['game']}/review"):
            back = page(client.get(path)).split('<p class="back">')[1].split("</p>")[0]
            assert href in back and f"← {text}" in back, (who, path, back)



def test_a_retry_puzzle_has_one_read_aloud_button_by_its_words_not_one_floating_over_the_board(app, world):
    text = page(signed_in(app, world["kid"]).get(f"/games/{world['game']}/review"))
    assert 'id="read-aloud"' in text and 'id="page-read"' not in text
    assert 'id="page-read"' in page(signed_in(app, world["kid"]).get("/games/"))  # elsewhere it floats as before


def test_a_finding_where_the_kid_passed_says_so_in_the_page_s_language(app, world):
    """The grown-ups' list of findings names the move played: a pass is 停一手 on a Chinese page, not "pass"."""
    with app.app_context():
        finding = db.session.scalar(sa.select(MissedCapture).where(MissedCapture.game_id == world["game"]))
        finding.played = "pass"
        db.session.commit()
    zh = page(signed_in(app, world["parent"], "zh").get(f"/games/{world['game']}/review"))
    assert "下在：停一手" in zh and "下在：pass" not in zh
    assert "Played: Pass" in page(signed_in(app, world["parent"], "en").get(f"/games/{world['game']}/review"))
