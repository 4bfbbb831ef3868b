"""The class play room and live games between classmates, through the routes as the pages call them (CSRF on, a
real database: SQLite, or PostgreSQL with TEST_DATABASE_URL). The races are real concurrent requests from threads,
each with its own client, so two requests for one game meet in the database as on two app instances."""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from teach.models import (LiveSeat, Group, LiveGame, LiveInvitation, LiveRound, PlayedGame, RoomPresence, StickerAward, User,
                          utcnow)
from teach.web import notify
from teach.web.extensions import db
from teach.web.pictures import glyph
from teach.web.played import game_of

KIDS = {"明明": ("cat", "fish", "moon"), "Lily": ("star", "apple", "sun"), "小红": ("flower", "tree", "cat"),
        "Tom": ("moon", "moon", "star")}
# white's corner stone A7 has A6 and B7 for liberties: Black takes both and catches it
CAPTURE_ONE = ["A6", "A7", "B6", "G1", "B7"]


def kid_client(app, name: str):
    client = app.test_client()
    with app.app_context():
        kid_id = db.session.scalar(sa.select(User.id).where(User.name == name))
    answer = client.post(f"/kids/CAT234/{kid_id}", data={"pictures": ",".join(KIDS[name])})
    assert answer.status_code == 302
    client.kid_id = kid_id
    return client


def teacher_client(app):
    client = app.test_client()
    client.post("/login", data={"email": "teacher@example.com", "password": "black-cat-42"})
    return client


def class_id(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))


@pytest.fixture
def room(demo):
    """明明 and Lily in the room, the class's id."""
    app = demo
    gid = class_id(app)
    ming, lily = kid_client(app, "明明"), kid_client(app, "Lily")
    for c in (ming, lily):
        assert c.get(f"/room/{gid}").status_code == 200
    return app, gid, ming, lily


def start_game(app, gid, inviter, invitee, game="capture-7") -> int:
    assert inviter.post(f"/room/{gid}/invite", json={"to": invitee.kid_id, "game": game}).get_json()["result"] == "ok"
    inv = invitee.get(f"/room/{gid}/state").get_json()["invitations"][0]
    answer = invitee.post(inv["accept"], json={})
    assert answer.status_code == 200, answer.get_json()
    url = answer.get_json()["game"]
    return int(url.rstrip("/").split("/")[-1])


def row(app, game_id) -> LiveGame:
    with app.app_context():
        r = db.session.get(LiveGame, game_id)
        db.session.expunge(r)
        return r


def players(app, game_id, a, b):
    """(black's client, white's client)."""
    r = row(app, game_id)
    return (a, b) if r.black_id == a.kid_id else (b, a)


def move(client, game_id, point, ply):
    return client.post(f"/live/{game_id}/move", json={"move": point, "ply": ply})


def race(*calls):
    """Run the calls at the same moment, each in its own thread; their responses' (status, json)."""
    out = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i, call):
        start.wait()
        r = call()
        out[i] = (r.status_code, r.get_json())

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def second_tab(app, client):
    other = app.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    other.kid_id = client.kid_id
    return other


# ---------------------------------------------------------------------- the room
def test_the_room_shows_who_is_here_with_first_name_and_avatar_only(room):
    app, gid, ming, lily = room
    here = ming.get(f"/room/{gid}/state").get_json()["here"]
    assert [(k["name"], k["glyph"]) for k in here] == [("Lily", "🐰")]
    assert set(here[0]) == {"id", "name", "glyph", "busy"}
    with app.app_context():  # Lily leaves: after a while she is no longer shown
        db.session.execute(sa.update(RoomPresence).where(RoomPresence.kid_id == lily.kid_id)
                           .values(seen_at=utcnow() - timedelta(minutes=5)))
        db.session.commit()
    assert ming.get(f"/room/{gid}/state").get_json()["here"] == []


def test_an_invitation_accepted_by_a_tap_opens_the_same_game_for_both(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    assert ming.get(f"/room/{gid}/state").get_json()["game"] == f"/live/{game_id}"
    r = row(app, game_id)
    assert {r.black_id, r.white_id} == {ming.kid_id, lily.kid_id}
    assert (r.kind, r.size, r.capture_goal, r.state) == ("capture", 7, 3, "playing")
    assert ming.get(f"/room/{gid}/state").get_json()["here"][0]["busy"] is True


def test_a_child_already_playing_cannot_accept_another_game(room):
    """One game at a time: an invitation that reaches a child in a game (sent before it started) stays open, and
    accepting it says to finish the game first; no second game is made."""
    app, gid, ming, lily = room
    start_game(app, gid, ming, lily)
    with app.app_context():
        inv = LiveInvitation(group_id=gid, from_id=ming.kid_id, to_id=lily.kid_id, kind="capture", size=7,
                             capture_goal=3)
        db.session.add(inv)
        db.session.commit()
        inv_id = inv.id
    answer = lily.post(f"/room/invitations/{inv_id}/accept", json={})
    assert answer.status_code == 409 and answer.get_json()["result"] == "busy" and answer.get_json()["message"]
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(LiveGame.id))) == 1
        assert db.session.get(LiveInvitation, inv_id).state == "pending"


def test_an_invitation_sent_four_times_at_once_is_one_invitation(room):
    """A double tap, or two tabs of the same child: the friend is asked once."""
    app, gid, ming, lily = room
    app.config["WTF_CSRF_ENABLED"] = False
    tabs = [kid_client(app, "明明") for _ in range(4)]
    answers = race(*[lambda t=t: t.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "capture-7"})
                     for t in tabs])
    assert [a[1]["result"] for a in answers] == ["ok"] * 4
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(LiveInvitation).where(
            LiveInvitation.from_id == ming.kid_id, LiveInvitation.state == "pending")) == 1
    assert len(lily.get(f"/room/{gid}/state").get_json()["invitations"]) == 1


def test_a_declined_invitation_is_gone_and_makes_no_game(room):
    app, gid, ming, lily = room
    ming.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "capture-7"})
    inv = lily.get(f"/room/{gid}/state").get_json()["invitations"][0]
    assert lily.post(inv["decline"], json={}).get_json()["state"] == "declined"
    seen = ming.get(f"/room/{gid}/state").get_json()
    assert seen["sent"] == []
    # the child who asked is told it was a no (the card that said "on its way" just went), with who said it
    assert [(d["invitation"], d["id"]) for d in seen["declined"]] == [(inv["invitation"], lily.kid_id)]
    assert "Lily" in seen["declined"][0]["message"] and "不想下" in seen["declined"][0]["message"]
    assert lily.get(f"/room/{gid}/state").get_json()["declined"] == []  # told to the one who asked only
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(LiveGame.id))) == 0
        db.session.execute(sa.update(LiveInvitation).values(
            answered_at=LiveInvitation.answered_at - timedelta(minutes=2)))
        db.session.commit()
    assert ming.get(f"/room/{gid}/state").get_json()["declined"] == []  # a while later, it is old news


@pytest.mark.parametrize("body", [{"to": "x", "game": "capture-7"}, {"to": 1}, {"to": 1, "game": "capture-7",
                                                                                  "text": "hi"}, []])
def test_an_invitation_the_page_never_sends_is_refused(room, body):
    app, gid, ming, lily = room
    assert ming.post(f"/room/{gid}/invite", json=body).status_code == 400
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(LiveInvitation.id))) == 0


def test_an_invitation_to_a_game_the_teacher_does_not_allow_or_to_someone_absent_is_refused(room):
    app, gid, ming, lily = room
    assert ming.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "full-19"}).status_code == 400
    assert ming.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "full-13"}).status_code == 400
    with app.app_context():
        tom = db.session.scalar(sa.select(User.id).where(User.name == "Tom"))
    assert ming.post(f"/room/{gid}/invite", json={"to": tom, "game": "capture-7"}).get_json()["result"] == "gone"
    assert ming.post(f"/room/{gid}/invite", json={"to": ming.kid_id, "game": "capture-7"}).status_code == 409


def test_a_kid_of_another_class_cannot_open_the_room_or_answer_its_invitations(room, outsider):
    app, gid, ming, lily = room
    zed = app.test_client()
    zed.post(f"/kids/OTHER2/{outsider}", data={"pictures": "cat,cat,cat"})
    assert zed.get(f"/room/{gid}").status_code == 404
    ming.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "capture-7"})
    inv = lily.get(f"/room/{gid}/state").get_json()["invitations"][0]
    assert zed.post(inv["accept"], json={}).status_code == 404
    assert ming.post(inv["accept"], json={}).status_code == 404  # not the one invited


def test_a_withdrawn_invitation_accepted_at_the_same_moment_ends_one_way(room):
    app, gid, ming, lily = room
    for attempt in range(4):
        ming.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "capture-7"})
        inv = lily.get(f"/room/{gid}/state").get_json()["invitations"][0]
        sent = ming.get(f"/room/{gid}/state").get_json()["sent"][0]
        answers = race(lambda: lily.post(inv["accept"], json={}),
                       lambda: ming.post(sent["withdraw"], json={}))
        codes = sorted(a[0] for a in answers)
        assert codes == [200, 409], answers
        with app.app_context():
            state = db.session.get(LiveInvitation, inv["invitation"]).state
            games_made = db.session.scalar(sa.select(sa.func.count(LiveGame.id)).where(LiveGame.state == "playing"))
        loser = next(a[1] for a in answers if a[0] == 409)
        assert loser["result"] == "stale" and loser["message"]
        assert (state, games_made) in (("accepted", 1), ("withdrawn", 0))
        if state == "accepted":  # that game ends, for the next try
            game_id = db_game_of(app, inv["invitation"])
            ming.post(f"/live/{game_id}/resign", json={})


def db_game_of(app, invitation_id):
    with app.app_context():
        return db.session.get(LiveInvitation, invitation_id).game_id


# ---------------------------------------------------------------------- a live game
def test_a_capture_game_played_to_its_end_gives_both_children_their_record_and_stickers(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily, "capture-7")
    with app.app_context():
        db.session.execute(sa.update(LiveGame).values(capture_goal=1))  # the first capture ends it
        db.session.commit()
    black, white = players(app, game_id, ming, lily)
    moves = CAPTURE_ONE
    seen_by_white = None
    for ply, point in enumerate(moves):
        mover = black if ply % 2 == 0 else white
        answer = move(mover, game_id, point, ply)
        assert answer.status_code == 200, answer.get_json()
        other = white if mover is black else black
        seen_by_white = other.get(f"/live/{game_id}/state").get_json()
        assert seen_by_white["ply"] == ply + 1 and seen_by_white["rows"] == answer.get_json()["rows"]
    final = black.get(f"/live/{game_id}/state").get_json()
    assert final["state"] == "finished" and final["game_result"] == "B+C1" and final["winner"] == "black"
    assert final["banner"]["mood"] == "win"
    assert final["banner"]["reason"].endswith(("先吃到了1个子。", "captured 1 stone first."))  # the winner's name first
    assert white.get(f"/live/{game_id}/state").get_json()["banner"]["mood"] == "lose"
    # "play again?" has its answer beside it: the way back to the room, where the next game is one invitation away
    page = white.get(f"/live/{game_id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "won this time. Play again?" in page and 'id="play-again" href="/room/"' in page
    r = row(app, game_id)
    with app.app_context():
        records = {p.kid_color: p for p in db.session.scalars(sa.select(PlayedGame))}
        assert set(records) == {"black", "white"}
        assert records["black"].kid_id == r.black_id and records["black"].moves == moves
        assert records["black"].opponent == "friend" and records["black"].result == "B+C1"
        # each record names the classmate it was played against (a game at one tablet names no account)
        assert (records["black"].friend_id, records["white"].friend_id) == (r.white_id, r.black_id)
        avatars = dict(db.session.execute(sa.select(User.id, User.avatar)).all())
        names = dict(db.session.execute(sa.select(User.id, User.name)).all())
        stickers = set(db.session.scalars(sa.select(StickerAward.sticker_id).where(StickerAward.kid_id == r.black_id)))
        assert "milestone-capture-game" in stickers
        assert "milestone-capture-game" not in set(db.session.scalars(
            sa.select(StickerAward.sticker_id).where(StickerAward.kid_id == r.white_id)))
    assert final["review"] == f"/games/{r.black_record_id}/review"
    assert black.get(final["review"]).status_code == 200
    # the games list shows the classmate's own picture and first name, not the 🙂 of someone at the same tablet
    listed = black.get("/games/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert glyph(avatars[r.white_id]) in listed and names[r.white_id].split()[0] in listed and "🙂" not in listed


def test_a_move_out_of_turn_is_answered_with_the_game_and_a_child_not_in_the_game_gets_404(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    out_of_turn = move(white, game_id, "D4", 0)
    assert out_of_turn.status_code == 409 and out_of_turn.get_json()["result"] == "stale"
    tom = kid_client(app, "Tom")
    assert move(tom, game_id, "D4", 0).status_code == 404
    assert tom.get(f"/live/{game_id}").status_code == 404
    assert tom.get(f"/live/{game_id}/state").status_code == 404
    assert row(app, game_id).moves == []


def test_the_state_answers_304_while_nothing_changed_and_the_etag_is_worth_nothing_to_another_child(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    first = white.get(f"/live/{game_id}/state")
    tag = first.headers["ETag"]
    assert white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 304
    tom = kid_client(app, "Tom")
    assert tom.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 404
    move(black, game_id, "D4", 0)
    after = white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag})
    assert after.status_code == 200 and after.get_json()["last"] == "D4"


def test_two_moves_for_one_game_at_the_same_moment_play_exactly_one(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, _white = players(app, game_id, ming, lily)
    tab = second_tab(app, black)
    answers = race(lambda: move(black, game_id, "D4", 0), lambda: move(tab, game_id, "E5", 0))
    assert sorted(a[0] for a in answers) == [200, 409]
    stale = next(a[1] for a in answers if a[0] == 409)
    r = row(app, game_id)
    assert len(r.moves) == 1 and r.ply == 1
    assert stale["rows"] == game_of(r).board_rows() and stale["ply"] == 1  # answered with the position on record


def test_both_tabs_of_a_child_see_the_same_game_and_a_reload_comes_back_to_the_position(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    move(black, game_id, "D4", 0)
    move(white, game_id, "E5", 1)
    tab = second_tab(app, black)
    page = tab.get(f"/live/{game_id}").get_data(as_text=True)
    assert 'data-ply="2"' in page
    assert tab.get(f"/live/{game_id}/state").get_json()["rows"] == black.get(f"/live/{game_id}/state").get_json()["rows"]


def test_resigning_while_the_other_moves_leaves_an_exact_record(room):
    app, gid, ming, lily = room
    for _attempt in range(3):
        game_id = start_game(app, gid, ming, lily)
        black, white = players(app, game_id, ming, lily)
        answers = race(lambda: move(black, game_id, "D4", 0), lambda: white.post(f"/live/{game_id}/resign", json={}))
        r = row(app, game_id)
        assert r.state == "finished" and r.result == "B+R" and r.end_reason == "resign"
        assert r.moves in ([], ["D4"])
        move_answer = answers[0]
        assert (move_answer[0] == 200) == (r.moves == ["D4"])  # the move was played exactly when it said so
        assert answers[1][0] == 200
        with app.app_context():
            records = [db.session.get(PlayedGame, i) for i in (r.black_record_id, r.white_record_id)]
            assert all(p is not None and p.moves == r.moves and p.result == "B+R" for p in records)


def test_the_child_whose_tap_did_not_end_the_game_sees_its_stickers_too(room):
    """White resigns: Black won the capture game without a tap of their own, and their page, which only sees the
    game end when it asks, shows the sticker as the resigning child's answer would have."""
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    assert move(black, game_id, "D4", 0).status_code == 200
    resigned = white.post(f"/live/{game_id}/resign", json={}).get_json()
    assert resigned["state"] == "finished" and resigned["milestones"] == []  # the loser won nothing
    seen = black.get(f"/live/{game_id}/state").get_json()
    assert seen["banner"]["mood"] == "win"
    assert [m["id"] for m in seen["milestones"]] == ["milestone-capture-game"]
    assert white.get(f"/live/{game_id}/state").get_json()["milestones"] == []


def test_a_pass_is_told_to_both_children_with_what_a_second_pass_does(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily, "full-9")
    black, white = players(app, game_id, ming, lily)
    names = {c: row_name(app, game_id, c) for c in ("black", "white")}
    assert move(black, game_id, "pass", 0).status_code == 200
    to_white = white.get(f"/live/{game_id}/state").get_json()["turn"]
    assert to_white == f"{names['black']}停了一手。轮到你了！ 如果你也停一手，这盘棋就结束了。"
    to_black = black.get(f"/live/{game_id}/state").get_json()["turn"]
    assert to_black == f"你停了一手。如果{names['white']}也停一手，这盘棋就结束了。"
    assert move(white, game_id, "E5", 1).status_code == 200  # a stone: the pass is history
    assert black.get(f"/live/{game_id}/state").get_json()["turn"] == "轮到你了！"


def row_name(app, game_id, color: str) -> str:
    r = row(app, game_id)
    with app.app_context():
        return db.session.get(User, r.black_id if color == "black" else r.white_id).name


def test_a_draw_offer_accepted_ends_the_game_and_a_move_takes_a_standing_offer_back(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    assert black.post(f"/live/{game_id}/draw", json={"action": "offer"}).get_json()["draw_offer"] == "black"
    assert black.post(f"/live/{game_id}/draw", json={"action": "accept"}).status_code == 409  # not one's own
    assert white.post(f"/live/{game_id}/draw", json={"action": "decline"}).get_json()["draw_offer"] is None
    black.post(f"/live/{game_id}/draw", json={"action": "offer"})
    assert move(black, game_id, "D4", 0).get_json()["draw_offer"] is None
    white.post(f"/live/{game_id}/draw", json={"action": "offer"})
    done = black.post(f"/live/{game_id}/draw", json={"action": "accept"}).get_json()
    assert done["state"] == "finished" and done["game_result"] == "0" and done["winner"] is None


def test_reactions_are_presets_only_and_reach_the_other_page(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    assert black.post(f"/live/{game_id}/react", json={"reaction": "你好"}).status_code == 400
    assert black.post(f"/live/{game_id}/react", json={"reaction": "thumbs", "text": "hi"}).status_code == 400
    assert black.post(f"/live/{game_id}/react", json={"reaction": "good-game"}).status_code == 200
    seen = white.get(f"/live/{game_id}/state").get_json()["reaction"]
    assert seen["color"] == "black" and seen["id"] == "good-game" and seen["text"] == "下得真好！"  # in Chinese
    assert black.post(f"/live/{game_id}/react", json={"reaction": "smile"}).status_code == 409  # two seconds


def _walls():
    """Black's wall on row 4, White's on row 6, then two passes: Black owns rows 1-3, White 7-9, row 5 is shared."""
    out = []
    for col in "ABCDEFGHJ":
        out += [f"{col}4", f"{col}6"]
    return out + ["pass", "pass"]


def counting_game(app, gid, ming, lily) -> tuple[int, object, object]:
    game_id = start_game(app, gid, ming, lily, "full-9")
    black, white = players(app, game_id, ming, lily)
    for ply, point in enumerate(_walls()):
        answer = move(black if ply % 2 == 0 else white, game_id, point, ply)
        assert answer.status_code == 200, answer.get_json()
    assert row(app, game_id).state == "counting"
    return game_id, black, white


def test_the_board_keeps_the_child_s_coordinates_setting_while_playing_and_while_counting(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily, "full-9")
    black, white = players(app, game_id, ming, lily)
    assert black.post("/learn/settings", json={"coordinates": True}).status_code == 200
    assert white.post("/learn/settings", json={"coordinates": False}).status_code == 200

    def bare(client, page: str | None = None) -> bool:
        text = page if page is not None else client.get(f"/live/{game_id}").get_data(as_text=True)
        return 'class="board size-9' in text and re.search(r'class="board size-9[^"]* bare', text) is not None

    assert (bare(black), bare(white)) == (False, True)
    for ply, point in enumerate(_walls()):
        assert move(black if ply % 2 == 0 else white, game_id, point, ply).status_code == 200
    assert row(app, game_id).state == "counting"
    for client, want in ((black, False), (white, True)):
        counted = client.get(f"/live/{game_id}/state").get_json()["count_board"]
        assert bare(client) is want and bare(client, counted) is want


def test_a_count_with_land_left_open_says_it_is_shared_and_that_playing_on_would_take_it(room):
    app, gid, ming, lily = room
    game_id, black, white = counting_game(app, gid, ming, lily)  # row 5, between the walls, is nobody's
    state = black.get(f"/live/{game_id}/state").get_json()
    # who wins is the big line; the open land is a note of its own under it, and the page shows both
    assert state["kid_line"].startswith("白棋胜") and "不属于任何一方" not in state["kid_line"]
    assert "还有9个点不属于任何一方" in state["open_line"]
    page = black.get(f"/live/{game_id}").get_data(as_text=True)
    assert re.search(r'id="open-line">[^<]*还有9个点不属于任何一方', page)


def test_both_players_agree_on_the_count_even_at_the_same_moment(room):
    app, gid, ming, lily = room
    game_id, black, white = counting_game(app, gid, ming, lily)
    dead = black.get(f"/live/{game_id}/state").get_json()["dead"]
    answers = race(lambda: black.post(f"/live/{game_id}/agree", json={"dead": dead}),
                   lambda: white.post(f"/live/{game_id}/agree", json={"dead": dead}))
    assert [a[0] for a in answers] == [200, 200]
    r = row(app, game_id)
    assert r.state == "finished" and r.end_reason == "count" and r.result == "W+7.5"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(PlayedGame.id))) == 2
        assert db.session.scalar(sa.select(sa.func.count(StickerAward.id)).where(
            StickerAward.sticker_id == "milestone-counted-game")) == 2


def test_a_tap_while_counting_takes_back_the_agreement_and_an_agreement_to_old_marks_is_stale(room):
    app, gid, ming, lily = room
    game_id, black, white = counting_game(app, gid, ming, lily)
    state = black.get(f"/live/{game_id}/state").get_json()
    assert black.post(f"/live/{game_id}/agree", json={"dead": state["dead"]}).get_json()["agreed"] == ["black"]
    tapped = white.post(f"/live/{game_id}/count", json={"point": "A4", "version": state["version"] + 1}).get_json()
    assert tapped["agreed"] == [] and "A4" in tapped["dead"]
    old = black.post(f"/live/{game_id}/agree", json={"dead": state["dead"]})
    assert old.status_code == 409 and row(app, game_id).state == "counting"


def test_a_disagreement_is_settled_by_the_teacher(room):
    app, gid, ming, lily = room
    game_id, black, white = counting_game(app, gid, ming, lily)
    assert white.post(f"/live/{game_id}/dispute", json={}).get_json()["state"] == "disputed"
    state = black.get(f"/live/{game_id}/state").get_json()
    assert black.post(f"/live/{game_id}/count", json={"point": "A4", "version": state["version"]}).status_code == 409
    teacher = teacher_client(app)
    assert teacher.get(f"/live/{game_id}").status_code == 200
    tapped = teacher.post(f"/live/{game_id}/count", json={"point": "A6", "version": state["version"]}).get_json()
    assert "A6" in tapped["dead"]
    settled = teacher.post(f"/live/{game_id}/settle", json={"version": tapped["version"]}).get_json()
    assert settled["state"] == "finished" and settled["game_result"].startswith("B+")
    assert row(app, game_id).end_reason == "settled"
    assert black.post(f"/live/{game_id}/settle", json={"version": tapped["version"]}).status_code == 403


def _gone(app, game_id, color, minutes=10):
    with app.app_context():
        db.session.execute(sa.update(LiveGame).where(LiveGame.id == game_id).values(
            {f"{color}_seen_at": utcnow() - timedelta(minutes=minutes)}))
        db.session.commit()


def test_a_child_who_left_is_waited_for_then_the_game_rests_and_resumed_twice_at_once_it_resumes_once(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    move(black, game_id, "D4", 0)
    _gone(app, game_id, "white", minutes=1)  # gone a minute: the game still waits (the class's time is 2)
    away = black.get(f"/live/{game_id}/state").get_json()
    assert away["state"] == "playing" and away["away"]["color"] == "white" and 0 < away["away"]["seconds_left"] <= 60
    _gone(app, game_id, "white")
    assert black.get(f"/live/{game_id}/state").get_json()["state"] == "adjourned"
    assert move(white, game_id, "E5", 1).status_code == 409
    answers = race(lambda: black.post(f"/live/{game_id}/resume", json={}),
                   lambda: white.post(f"/live/{game_id}/resume", json={}))
    assert sorted(a[0] for a in answers) == [200, 409]
    assert next(a[1] for a in answers if a[0] == 409)["state"] == "playing"
    assert move(white, game_id, "E5", 1).status_code == 200
    assert row(app, game_id).moves == ["D4", "E5"]


def test_with_the_teacher_s_abandon_setting_the_child_who_left_loses(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    with app.app_context():
        db.session.execute(sa.update(LiveGame).values(away_outcome="abandon"))
        db.session.commit()
    black, white = players(app, game_id, ming, lily)
    _gone(app, game_id, "white")
    done = black.get(f"/live/{game_id}/state").get_json()
    assert done["state"] == "finished" and done["game_result"] == "B+F" and done["winner"] == "black"


# ---------------------------------------------------------------------- the teacher
def test_the_teacher_starts_a_round_for_everyone_in_the_room_and_watches_it(room):
    app, gid, ming, lily = room
    hong, tom = kid_client(app, "小红"), kid_client(app, "Tom")
    for c in (hong, tom):
        c.get(f"/room/{gid}")
    teacher = teacher_client(app)
    before = teacher.get(f"/room/class/{gid}/live")
    assert before.status_code == 200
    waiting = before.get_data(as_text=True).split('id="room-waiting">', 1)[1].split("</p>", 1)[0]
    assert waiting.count("here-kid") == 4 and 'id="room-playing"' not in before.get_data(as_text=True)
    answer = teacher.post(f"/room/class/{gid}/round", data={"game": "capture-9", "pairing": "level", "goal": "5",
                                                           "away": "5", "outcome": "abandon"})
    assert answer.status_code == 302
    # the page after the round: nobody left to pair, the four named as playing (it said "4 in the room", and
    # starting again said "at least two must be in the room")
    after = teacher.get(answer.headers["Location"]).get_data(as_text=True)
    waiting = after.split('id="room-waiting">', 1)[1].split("</p>", 1)[0]
    assert waiting.count("here-kid") == 0 and after.split('id="room-playing">', 1)[1].count("here-kid") == 4
    with app.app_context():
        made = db.session.scalars(sa.select(LiveGame)).all()
        assert len(made) == 2 and all((g.kind, g.size, g.capture_goal, g.away_seconds, g.away_outcome)
                                      == ("capture", 9, 5, 300, "abandon") for g in made)
        assert sorted(k for g in made for k in (g.black_id, g.white_id)) == sorted(
            c.kid_id for c in (ming, lily, hong, tom))
        assert db.session.scalar(sa.select(LiveRound.pairing)) == "level"
    for c in (ming, lily, hong, tom):  # each child's room page opens their game
        assert c.get(f"/room/{gid}/state").get_json()["game"].startswith("/live/")
    data = teacher.get(f"/room/class/{gid}/live.json")
    assert len(data.get_json()["games"]) == 2
    assert teacher.get(f"/room/class/{gid}/live.json", headers={"If-None-Match": data.headers["ETag"]}).status_code == 304
    game_id = made[0].id
    black, white = players(app, game_id, *[c for c in (ming, lily, hong, tom) if c.kid_id in
                                           (made[0].black_id, made[0].white_id)])
    move(black, game_id, "E5", 0)
    changed = teacher.get(f"/room/class/{gid}/live.json", headers={"If-None-Match": data.headers["ETag"]})
    assert changed.status_code == 200
    card = next(g for g in changed.get_json()["games"] if g["id"] == game_id)
    assert card["ply"] == 1 and "X" in "".join(card["rows"])
    watch = teacher.get(f"/live/{game_id}/state").get_json()
    assert watch["you"] is None and watch["ply"] == 1
    assert teacher.post(f"/live/{game_id}/move", json={"move": "D4", "ply": 1}).status_code == 403


def test_the_child_left_out_of_an_odd_round_is_told_while_the_round_plays(room):
    """Three children in the room: two play, and the third is told why nothing happens (in their language), what
    they can do, and no longer once the round's game is over."""
    app, gid, ming, lily = room
    hong = kid_client(app, "小红")
    hong.get(f"/room/{gid}")
    teacher = teacher_client(app)
    for c in (ming, lily):
        assert c.get(f"/room/{gid}/state").get_json()["sitting_out"] is None  # no round yet
    assert _round(teacher, gid).status_code == 302
    with app.app_context():
        row = db.session.scalar(sa.select(LiveRound))
        left, game = row.sitting_out, db.session.scalar(sa.select(LiveGame))
    assert len(left) == 1
    out = next(c for c in (ming, lily, hong) if c.kid_id == left[0])
    told = out.get(f"/room/{gid}/state", headers={"Accept-Language": "en"}).get_json()
    # everyone else in the room is playing: nobody to invite, so only the next round is suggested
    assert told["game"] is None and "sit this one out" in told["sitting_out"] and "Invite" not in told["sitting_out"]
    tom = kid_client(app, "Tom")  # a classmate who comes in now is free to play
    tom.get(f"/room/{gid}")
    told = out.get(f"/room/{gid}/state", headers={"Accept-Language": "en"}).get_json()
    assert "Invite a classmate" in told["sitting_out"]
    assert "轮空" in out.get(f"/room/{gid}/state", headers={"Accept-Language": "zh"}).get_json()["sitting_out"]
    for c in (ming, lily, hong):
        if c is not out:
            assert c.get(f"/room/{gid}/state").get_json()["sitting_out"] is None  # they play
    with app.app_context():
        db.session.get(LiveGame, game.id).state = "finished"
        db.session.commit()
    assert out.get(f"/room/{gid}/state").get_json()["sitting_out"] is None  # the round is over


def test_the_teacher_stops_the_round_s_games_and_the_children_play_on_when_she_says_so(room):
    """The lesson is over: one button rests every game going on (nothing decided for the children), their seats
    are free, the page no longer names the child who sat out, and the next round's form keeps this one's choices.
    The games stay stopped (no "play on", no new game) until the teacher lets the children play again."""
    app, gid, ming, lily = room
    hong = kid_client(app, "小红")
    hong.get(f"/room/{gid}")
    teacher = teacher_client(app)
    assert teacher.post(f"/room/class/{gid}/round", data={"game": "capture-7", "pairing": "level", "goal": "1",
                                                          "away": "5", "outcome": "adjourn"}).status_code == 302
    page = teacher.get(f"/room/class/{gid}/live", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="stop-games"' in page and "Sitting out this round" in page
    # the form keeps what the teacher chose for this round (it went back to the room's goal of 3)
    assert '<option value="capture-7" selected>' in page and '<option value="1" selected>' in page
    assert '<option value="level" selected>' in page
    with app.app_context():
        game = db.session.scalar(sa.select(LiveGame))
        players_of = (game.black_id, game.white_id)
    black, white = players(app, game.id, *[c for c in (ming, lily, hong) if c.kid_id in players_of])
    assert move(black, game.id, "D4", 0).status_code == 200
    stopped = teacher.post(f"/room/class/{gid}/stop", headers={"Accept-Language": "en"}, follow_redirects=True)
    text = stopped.get_data(as_text=True)
    assert "1 game stopped" in text and 'id="stop-games"' not in text and "Sitting out this round" not in text
    with app.app_context():
        row = db.session.get(LiveGame, game.id)
        assert (row.state, row.moves, row.result) == ("adjourned", ["D4"], None)  # nothing decided
        assert db.session.scalar(sa.select(sa.func.count()).select_from(LiveSeat)) == 0
    answer = white.get(f"/live/{game.id}/state", headers={"Accept-Language": "en"})
    seen, etag = answer.get_json(), answer.headers["ETag"]
    assert seen["state"] == "adjourned" and seen["stopped"] is True and "teacher has stopped" in seen["notice"]
    assert white.get(f"/live/{game.id}/state", headers={"If-None-Match": etag}).status_code == 304  # nothing new
    assert move(white, game.id, "E5", 1).status_code == 409  # no move in a resting game
    # both children tap "play on" at once: the game stays stopped, and no new game starts in the room either
    refused_ = white.post(f"/live/{game.id}/resume", json={})
    assert refused_.status_code == 409 and refused_.get_json()["state"] == "adjourned"
    kid = next(c for c in (ming, lily, hong) if c.kid_id not in players_of)
    room_now = kid.get(f"/room/{gid}/state").get_json()
    assert room_now["stopped"] and room_now["resting"] == []
    asked = kid.post(f"/room/{gid}/invite", json={"to": black.kid_id, "game": "capture-7"})
    assert asked.status_code == 409 and asked.get_json()["result"] == "closed"
    page = teacher.get(f"/room/class/{gid}/live", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="play-again"' in page
    # the teacher's word: the children may play on
    assert teacher.post(f"/room/class/{gid}/play-again").status_code == 302
    assert white.get(f"/room/{gid}/state").get_json()["stopped"] is None
    # the game's page still open on the stop's words learns it is over (it was answered "nothing new" and sat
    # there until a child reloaded it): "play on" now, and no stop notice
    woke = white.get(f"/live/{game.id}/state", headers={"If-None-Match": etag, "Accept-Language": "en"})
    assert woke.status_code == 200 and woke.get_json()["stopped"] is False
    assert "teacher has stopped" not in (woke.get_json()["notice"] or "")
    # the teacher's page names the two in their resting game apart, not as children waiting for a partner
    page = teacher.get(f"/room/class/{gid}/live", headers={"Accept-Language": "en"}).get_data(as_text=True)
    resting = re.search(r'<p id="room-resting">(.*?)</p>', page, re.S)
    waiting = re.search(r'<p id="room-waiting">(.*?)</p>', page, re.S).group(1)
    with app.app_context():
        names = [db.session.get(User, k).name for k in players_of]
    assert resting and all(n in resting.group(1) for n in names)
    assert not any(n in waiting for n in names)
    assert white.post(f"/live/{game.id}/resume", json={}).get_json()["state"] == "playing"  # play on now
    assert teacher.post(f"/room/class/{gid}/stop").status_code == 302
    assert teacher_client(app).post(f"/room/class/{gid + 1000}/stop").status_code == 404
    assert ming.post(f"/room/class/{gid}/stop").status_code in (302, 403)  # not a child's button


def test_pairs_by_level_put_neighbours_in_stars_together(demo):
    import random

    from teach.models import LessonProgress
    from teach.web.room import pairs_for

    with demo.app_context():
        ids = list(db.session.scalars(sa.select(User.id).where(User.role == "kid").order_by(User.id)))[:4]
        for kid_id, stars in zip(ids, (9, 1, 8, 2)):
            db.session.add(LessonProgress(kid_id=kid_id, lesson_id=f"l{kid_id}", stars=stars))
        db.session.commit()
        pairs, left = pairs_for(ids, "level", random.Random(1))
    assert left == [] and sorted(map(sorted, pairs)) == sorted([sorted((ids[1], ids[3])), sorted((ids[0], ids[2]))])
    assert (ids[1], ids[3]) in pairs and (ids[2], ids[0]) in pairs  # fewer stars takes Black


def test_pairs_by_level_use_the_kid_s_rank_first_then_stars(demo):
    """Two children who took the placement test (16级) play each other, whatever their lesson stars; the others,
    with no rank points yet, are paired by stars."""
    import random

    from teach.models import LessonProgress, RankPlacement
    from teach.web import rank
    from teach.web.room import class_rank_points, pairs_for

    with demo.app_context():
        ids = list(db.session.scalars(sa.select(User.id).where(User.role == "kid").order_by(User.id)))[:4]
        for kid_id, stars in zip(ids, (9, 1, 8, 2)):
            db.session.add(LessonProgress(kid_id=kid_id, lesson_id=f"l{kid_id}", stars=stars))
        for kid_id in ids[:2]:
            db.session.add(RankPlacement(kid_id=kid_id, points=300, answers=[]))
        db.session.commit()
        points = class_rank_points(ids)
        assert points == {k: rank.rank_of(k).points for k in ids}  # the class's reading is the rank page's
        pairs, left = pairs_for(ids, "level", random.Random(1))
    assert left == [] and (ids[3], ids[2]) in pairs and (ids[1], ids[0]) in pairs


def _round(teacher, gid):
    return teacher.post(f"/room/class/{gid}/round", data={"game": "capture-9", "pairing": "random", "goal": "3",
                                                         "away": "5", "outcome": "adjourn"})


def _active_games_by_kid(app) -> dict[int, int]:
    with app.app_context():
        games = db.session.scalars(sa.select(LiveGame).where(LiveGame.state.in_(("playing", "counting",
                                                                                  "disputed")))).all()
    out: dict[int, int] = {}
    for g in games:
        for k in (g.black_id, g.white_id):
            out[k] = out.get(k, 0) + 1
    return out


def test_two_rounds_started_at_the_same_instant_from_two_tabs_put_no_child_in_two_games(room):
    app, gid, ming, lily = room
    kids = [ming, lily, kid_client(app, "小红"), kid_client(app, "Tom")]
    for c in kids[2:]:
        c.get(f"/room/{gid}")
    teacher = teacher_client(app)
    tab = app.test_client()
    tab.set_cookie("session", teacher.get_cookie("session").value)
    for _attempt in range(3):  # the moment two requests meet differs from run to run: several meetings
        answers = race(lambda: _round(teacher, gid), lambda: _round(tab, gid))
        assert [status for status, _body in answers] == [302, 302]
        seated = _active_games_by_kid(app)
        assert sorted(seated) == sorted(c.kid_id for c in kids) and set(seated.values()) == {1}
        with app.app_context():  # every game going on holds its two seats, and no seat is left over
            from teach.models import LiveSeat

            seats = db.session.execute(sa.select(LiveSeat.kid_id, LiveSeat.game_id)).all()
            games = {g.id: g for g in db.session.scalars(sa.select(LiveGame).where(LiveGame.state == "playing"))}
        assert sorted(k for k, _g in seats) == sorted(seated)
        assert all(k in (games[g].black_id, games[g].white_id) for k, g in seats)
        for g in games.values():  # the round ends; the next meeting starts from a room of free children
            black = next(c for c in kids if c.kid_id == g.black_id)
            assert black.post(f"/live/{g.id}/resign", json={}).status_code == 200
        assert _active_games_by_kid(app) == {}


def test_an_invitation_accepted_while_the_teacher_starts_a_round_seats_each_child_once(room):
    app, gid, ming, lily = room
    teacher = teacher_client(app)
    assert ming.post(f"/room/{gid}/invite", json={"to": lily.kid_id, "game": "capture-7"}).get_json()["result"] == "ok"
    accept = lily.get(f"/room/{gid}/state").get_json()["invitations"][0]["accept"]
    answers = race(lambda: lily.post(accept, json={}), lambda: _round(teacher, gid))
    seated = _active_games_by_kid(app)
    assert seated == {ming.kid_id: 1, lily.kid_id: 1}
    accepted, started = answers
    assert started[0] == 302 and accepted[0] in (200, 409)
    with app.app_context():
        inv = db.session.scalar(sa.select(LiveInvitation))
        rounds = db.session.scalars(sa.select(LiveGame.round_id)).all()
    if accepted[0] == 200:  # the acceptance came first: the round found nobody free
        assert inv.state == "accepted" and rounds == [None]
    else:  # the round came first: the invitation stays open, Lily is told her friend is playing
        assert inv.state == "pending" and rounds != [None]


def test_an_adjourned_game_is_not_resumed_while_a_child_plays_another(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    with app.app_context():
        db.session.execute(sa.update(LiveGame).values(state="adjourned"))
        from teach.models import LiveSeat

        db.session.execute(sa.delete(LiveSeat))
        db.session.commit()
    tom = kid_client(app, "Tom")
    tom.get(f"/room/{gid}")
    start_game(app, gid, tom, ming)
    refused = lily.post(f"/live/{game_id}/resume", json={})
    assert refused.status_code == 409 and refused.get_json()["state"] == "adjourned"
    assert _active_games_by_kid(app)[ming.kid_id] == 1


def test_a_parent_sees_the_child_s_live_game_and_its_record(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    parent = app.test_client()
    parent.post("/login", data={"email": "parent@example.com", "password": "little-mouse-42"})
    assert parent.get(f"/live/{game_id}/state").status_code == 200
    black.post(f"/live/{game_id}/resign", json={})
    r = row(app, game_id)
    ming_record = r.black_record_id if r.black_id == ming.kid_id else r.white_record_id
    assert parent.get(f"/games/{ming_record}").status_code == 200


# ---------------------------------------------------------------------- the versions in Redis
REDIS = "redis://127.0.0.1:6379/5"


@pytest.fixture
def redis_room(room):
    import redis

    client = redis.Redis.from_url(REDIS, socket_timeout=1)
    try:
        client.ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {REDIS}")
    client.flushdb()
    room[0].config["LIVE_REDIS_URL"] = REDIS
    yield room, client
    client.flushdb()


def test_with_redis_an_unchanged_game_is_answered_304_without_a_database_query(redis_room):
    (app, gid, ming, lily), client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    queries = []
    with app.app_context():
        engine = db.engine
    listener = lambda *args: queries.append(args[2])  # noqa: E731
    sa.event.listen(engine, "before_cursor_execute", listener)
    try:
        assert white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 304
    finally:
        sa.event.remove(engine, "before_cursor_execute", listener)
    assert queries == []
    assert move(black, game_id, "D4", 0).status_code == 200
    assert int(client.get(f"teach:live:{game_id}")) == row(app, game_id).version
    seen = white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag})
    assert seen.status_code == 200 and seen.get_json()["last"] == "D4"


def test_a_version_redis_missed_is_put_right_by_the_next_unconditional_question(redis_room):
    (app, gid, ming, lily), client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    move(black, game_id, "D4", 0)
    client.set(f"teach:live:{game_id}", 1)  # as if the publication after the move had been lost
    assert white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 304  # not yet seen
    fresh = white.get(f"/live/{game_id}/state")  # the page's heartbeat asks without its ETag
    assert fresh.get_json()["last"] == "D4"
    assert int(client.get(f"teach:live:{game_id}")) == row(app, game_id).version
    assert white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 200


def test_an_unchanged_poll_is_answered_304_in_front_of_flask_and_anything_unsure_goes_on_to_flask(redis_room):
    """The middleware answers a matching ETag before Flask builds a request (no request_started at all); a tag
    for another game, another child's session, a cookie whose signature is wrong or no cookie reach Flask, which
    answers them in full."""
    from flask import request_started

    (app, gid, ming, lily), _client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    started = []

    def note(sender, **extra):
        started.append(request.path)

    from flask import request
    request_started.connect(note, app)
    try:
        quiet = white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag})
        assert quiet.status_code == 304 and quiet.headers["ETag"] == tag and started == []
        assert quiet.headers["Cache-Control"] == "no-cache, private"
        tom, red = kid_client(app, "Tom"), kid_client(app, "小红")
        assert tom.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 404
        assert black.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 200  # not hers
        for c in (tom, red):
            c.get(f"/room/{gid}")
        other = start_game(app, gid, red, tom)
        started.clear()
        assert white.get(f"/live/{other}/state", headers={"If-None-Match": tag}).status_code == 404
        forged = app.test_client()
        forged.set_cookie("session", white.get_cookie("session").value[:-2] + "xx")
        assert forged.get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 401
        assert app.test_client().get(f"/live/{game_id}/state", headers={"If-None-Match": tag}).status_code == 401
        assert len(started) == 3
        move(black, game_id, "D4", 0)
        started.clear()
        seen = white.get(f"/live/{game_id}/state", headers={"If-None-Match": tag})
        assert seen.status_code == 200 and seen.get_json()["last"] == "D4" and len(started) == 1
    finally:
        request_started.disconnect(note, app)


def test_a_page_that_asks_with_its_etag_and_ply_is_sent_what_changed_and_a_reconnect_the_whole_game(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    first = white.get(f"/live/{game_id}/state")
    tag, whole = first.headers["ETag"], first.get_json()
    assert whole["ply"] == 0 and "players" in whole and "delta" not in whole
    move(black, game_id, "A6", 0)
    move(white, game_id, "A7", 1)
    move(black, game_id, "B6", 2)
    changed = white.get(f"/live/{game_id}/state?ply=0", headers={"If-None-Match": tag})
    d = changed.get_json()
    assert changed.status_code == 200 and d["delta"] is True
    assert d["moves"] == ["A6", "A7", "B6"] and d["ply"] == 3 and d["to_move"] == "white" and d["last"] == "B6"
    assert d["rows"] == white.get(f"/live/{game_id}/state").get_json()["rows"]
    assert "players" not in d and "banner" not in d and len(changed.data) < len(first.data)
    assert d["turn"] and d["version"] == row(app, game_id).version
    # the page's next question: its new ETag and ply, then nothing changed
    assert white.get(f"/live/{game_id}/state?ply=3", headers={"If-None-Match": changed.headers["ETag"]}
                     ).status_code == 304
    # a reconnect (no ETag), another child's ETag or a ply the game never had: the whole game
    assert "players" in white.get(f"/live/{game_id}/state?ply=0").get_json()
    mine = black.get(f"/live/{game_id}/state").headers["ETag"]
    assert "delta" not in white.get(f"/live/{game_id}/state?ply=0", headers={"If-None-Match": mine}).get_json()
    assert "delta" not in white.get(f"/live/{game_id}/state?ply=9", headers={"If-None-Match": tag}).get_json()
    assert "delta" not in white.get(f"/live/{game_id}/state?ply=x", headers={"If-None-Match": tag}).get_json()
    # the end is a whole answer: the banner, the record
    assert black.post(f"/live/{game_id}/resign", json={}).status_code == 200
    end = white.get(f"/live/{game_id}/state?ply=3", headers={"If-None-Match": changed.headers["ETag"]}).get_json()
    assert "delta" not in end and end["state"] == "finished" and end["banner"]["mood"] == "win"


def test_the_still_here_heartbeat_is_a_304_from_the_database_that_notes_the_player_and_repairs_redis(redis_room):
    (app, gid, ming, lily), client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    with app.app_context():  # White was last seen 20 s ago
        db.session.execute(sa.update(LiveGame).values(white_seen_at=utcnow() - timedelta(seconds=20)))
        db.session.commit()
    assert white.get(f"/live/{game_id}/state?here=1", headers={"If-None-Match": tag}).status_code == 304
    assert utcnow() - row(app, game_id).white_seen_at < timedelta(seconds=5)
    # a version Redis missed: the heartbeat asks the database, so it sees the move and publishes it again
    move(black, game_id, "D4", 0)
    client.set(f"teach:live:{game_id}", 1)
    assert white.get(f"/live/{game_id}/state?ply=0", headers={"If-None-Match": tag}).status_code == 304
    beat = white.get(f"/live/{game_id}/state?here=1", headers={"If-None-Match": tag})
    assert beat.status_code == 200 and beat.get_json()["last"] == "D4" and "players" in beat.get_json()
    assert int(client.get(f"teach:live:{game_id}")) == row(app, game_id).version
    # the other player away for a while: the heartbeat is answered in full, which says so
    tag = beat.headers["ETag"]
    with app.app_context():
        db.session.execute(sa.update(LiveGame).values(black_seen_at=utcnow() - timedelta(seconds=45)))
        db.session.commit()
    away = white.get(f"/live/{game_id}/state?here=1", headers={"If-None-Match": tag})
    assert away.status_code == 200 and away.get_json()["away"]["color"] == "black"
    # another child's session with this ETag learns nothing
    tom = kid_client(app, "Tom")
    assert tom.get(f"/live/{game_id}/state?here=1", headers={"If-None-Match": tag}).status_code == 404


# ---------------------------------------------------------------------- held questions (TEACH_LIVE_HOLD)
def _held_ask(client, game_id: int, tag: str, seconds: int, out: dict) -> threading.Thread:
    def ask():
        answer = client.get(f"/live/{game_id}/state?ply=0&wait={seconds}", headers={"If-None-Match": tag})
        out.update(status=answer.status_code, body=answer.get_json(silent=True))

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def holding_room(redis_room):
    (app, gid, ming, lily), client = redis_room
    app.config["LIVE_HOLD"] = 4
    yield (app, gid, ming, lily), client


def test_without_a_hold_limit_the_page_polls(redis_room):
    (app, gid, ming, lily), _client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    assert white.get(f"/live/{game_id}/state").get_json()["hold"] == 0
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    assert white.get(f"/live/{game_id}/state?ply=0&wait=15", headers={"If-None-Match": tag}).status_code == 304


def test_a_held_question_is_answered_when_the_opponent_moves_and_the_mover_s_own_holds_on(holding_room):
    (app, gid, ming, lily), _client = holding_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    first = white.get(f"/live/{game_id}/state")
    assert first.get_json()["hold"] > 0
    theirs, mine = {}, {}
    waiting = [_held_ask(white, game_id, first.headers["ETag"], 15, theirs),
               _held_ask(black, game_id, black.get(f"/live/{game_id}/state").headers["ETag"], 15, mine)]
    threading.Event().wait(0.5)
    assert all(t.is_alive() for t in waiting) and not theirs and not mine
    assert move(black, game_id, "D4", 0).status_code == 200
    waiting[0].join(10)
    assert theirs["status"] == 200 and theirs["body"]["delta"] is True and theirs["body"]["last"] == "D4"
    # Black's own page is not answered for its own tap (the tap's answer brought the game): it waits on for
    # White's reply, and is then sent both moves since the ply it asked from
    threading.Event().wait(0.5)
    assert waiting[1].is_alive() and not mine
    assert move(white, game_id, "E5", 1).status_code == 200
    waiting[1].join(10)
    assert mine["status"] == 200 and mine["body"]["moves"] == ["D4", "E5"] and mine["body"]["last"] == "E5"


def test_a_held_question_whose_only_change_was_its_own_tap_ends_with_what_changed(holding_room):
    (app, gid, ming, lily), _client = holding_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    mine = {}
    waiting = _held_ask(black, game_id, black.get(f"/live/{game_id}/state").headers["ETag"], 2, mine)
    threading.Event().wait(0.3)
    assert move(black, game_id, "D4", 0).status_code == 200
    waiting.join(10)
    # not "304, unchanged": the game did change, so the page is sent what changed when the time is up
    assert mine["status"] == 200 and mine["body"]["moves"] == ["D4"]


def test_a_held_question_ends_304_when_its_time_is_up_and_notices_a_change_whose_message_was_lost(holding_room):
    import time

    (app, gid, ming, lily), client = holding_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    start = time.monotonic()
    assert white.get(f"/live/{game_id}/state?ply=0&wait=1", headers={"If-None-Match": tag}).status_code == 304
    assert time.monotonic() - start >= 0.9
    # a held question asks for no more than the server holds (its wait is capped), and a bad wait is no wait
    assert white.get(f"/live/{game_id}/state?ply=0&wait=x", headers={"If-None-Match": tag}).status_code == 304
    out = {}
    waiting = _held_ask(white, game_id, tag, 15, out)
    threading.Event().wait(0.5)
    assert waiting.is_alive()
    version = int(client.get(f"teach:live:{game_id}"))
    client.set(f"teach:live:{game_id}", version + 1)  # another instance's change, its message lost on the way
    # the held question reads the version again every RECHECK_SECONDS: the lost change is seen at the next
    # reading, long before the 15 s asked for are up (the margin is for a loaded machine's Flask answer)
    waiting.join(notify.RECHECK_SECONDS + 4)
    assert out["status"] == 200  # Flask answers what the game is now


# ---------------------------------------------------------------------- what changed, from the snapshot in Redis
def _asked(app, client, path, tag, **headers):
    """The answer, and whether Flask saw the request at all."""
    from flask import request_started

    seen = []

    def note(sender, **extra):
        seen.append(1)

    request_started.connect(note, app)
    try:
        answer = client.get(path, headers={"If-None-Match": tag, **headers})
    finally:
        request_started.disconnect(note, app)
    return answer, bool(seen)


def test_a_player_s_page_is_answered_what_changed_in_front_of_flask_exactly_as_flask_answers_it(redis_room):
    (app, gid, ming, lily), client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    black_tag = black.get(f"/live/{game_id}/state").headers["ETag"]
    assert move(black, game_id, "A6", 0).status_code == 200
    assert black.post(f"/live/{game_id}/react", json={"reaction": "nice-move"}).status_code == 200
    for lang in ("en", "zh"):
        with app.app_context():
            db.session.execute(sa.update(User).where(User.id == white.kid_id).values(locale=None))
            db.session.commit()
        path = f"/live/{game_id}/state?ply=0"
        fast, flask_saw = _asked(app, white, path, tag, **{"Accept-Language": lang})
        assert fast.status_code == 200 and not flask_saw  # the middleware answered
        # the same question with the snapshot gone is Flask's, and says the same thing
        kept = client.get(f"teach:live:{game_id}:players")
        client.delete(f"teach:live:{game_id}:players")
        slow, flask_saw = _asked(app, white, path, tag, **{"Accept-Language": lang})
        client.set(f"teach:live:{game_id}:players", kept)
        assert slow.status_code == 200 and flask_saw
        assert fast.get_json() == slow.get_json() and fast.headers["ETag"] == slow.headers["ETag"]
        body = fast.get_json()
        assert body["delta"] is True and body["moves"] == ["A6"] and body["turn"]
        assert body["reaction"]["text"] == ("Nice move!" if lang == "en" else "好棋！"), body["reaction"]
    # Black's own page (its tap's answer had the game) is answered too, with Black's turn line
    mine, flask_saw = _asked(app, black, f"/live/{game_id}/state?ply=0", black_tag)
    assert mine.status_code == 200 and not flask_saw and mine.get_json()["poll"] > 0


def test_what_changed_is_left_to_flask_for_a_watcher_a_reconnect_and_a_session_that_was_ended(redis_room):
    (app, gid, ming, lily), client = redis_room
    game_id = start_game(app, gid, ming, lily)
    black, white = players(app, game_id, ming, lily)
    teacher = teacher_client(app)
    watcher_tag = teacher.get(f"/live/{game_id}/state").headers["ETag"]
    tag = white.get(f"/live/{game_id}/state").headers["ETag"]
    assert move(black, game_id, "A6", 0).status_code == 200
    answer, flask_saw = _asked(app, teacher, f"/live/{game_id}/state?ply=0", watcher_tag)
    assert answer.status_code == 200 and flask_saw  # a watcher's page: Flask
    answer, flask_saw = _asked(app, white, f"/live/{game_id}/state", tag)  # no ply: the whole game, Flask's
    assert answer.status_code == 200 and flask_saw and "players" in answer.get_json()
    # a snapshot made a while ago (a page coming back later): Flask answers, having checked the account
    key = f"teach:live:{game_id}:players"
    kept = json.loads(client.get(key))
    client.set(key, json.dumps({**kept, "at": kept["at"] - 120}))
    answer, flask_saw = _asked(app, white, f"/live/{game_id}/state?ply=0", tag)
    assert answer.status_code == 200 and flask_saw and answer.get_json()["moves"] == ["A6"]
    client.set(key, json.dumps(kept))
    answer, flask_saw = _asked(app, white, f"/live/{game_id}/state?ply=0", tag)
    assert answer.status_code == 200 and not flask_saw
    # White's sessions are ended (a new password, say): the next change's snapshot no longer names them
    with app.app_context():
        kid = db.session.get(User, white.kid_id)
        kid.end_sessions()
        db.session.commit()
    assert black.post(f"/live/{game_id}/react", json={"reaction": "thumbs"}).status_code == 200
    answer, flask_saw = _asked(app, white, f"/live/{game_id}/state?ply=0", tag)
    assert flask_saw and answer.status_code == 401  # Flask: the session is no longer good


@pytest.mark.parametrize("result, winner, lang, words", [
    ("B+C3", "black", "en", "Ming won · 3 captured"),
    ("W+R", "white", "zh", "Lily 赢了 · 对方认输"),
    ("B+3.5", "black", "en", "Ming won · 1¾ stones ahead"),
    ("W+1", "white", "zh", "Lily 赢了 · 多 ½ 子"),
    ("0", None, "en", "a draw"),
])
def test_a_live_card_says_the_result_in_words_as_the_kids_pages_do(app, result, winner, lang, words):
    """The record's B+C3 is this product's own spelling (C3 reads like a point), and a counted margin is said in
    stones, as the count screen says it."""
    from teach.web.room import _result_words

    row = LiveGame(kind="capture" if "C" in result else "full", size=9, state="finished", result=result,
                   winner=winner)
    with app.test_request_context(headers={"Accept-Language": "zh-CN" if lang == "zh" else "en"}):
        app.preprocess_request()
        assert _result_words(row, {"black": "Ming", "white": "Lily"}) == words
        row.state = "playing"
        assert _result_words(row, {"black": "Ming", "white": "Lily"}) == ""


def test_a_teacher_watching_a_game_has_a_way_back_to_the_class_s_live_games(room):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    page = teacher_client(app).get(f"/live/{game_id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f'<p class="back"><a href="/room/class/{gid}/live">← Live games</a></p>' in page
    black, _white = players(app, game_id, ming, lily)
    assert '<p class="back">' not in black.get(f"/live/{game_id}").get_data(as_text=True)  # a child plays on


@pytest.mark.parametrize("digits", ["²", "٣", "３", "9" * 5000])
def test_a_live_state_asked_with_digits_no_page_sends_gets_the_whole_game(room, digits):
    """"²" passes ``str.isdigit`` but not ``int`` (it was a 500), other scripts' digits and 5,000 nines are no
    ply or version this app gave: the full answer, as for a reconnect."""
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, _white = players(app, game_id, ming, lily)
    move(black, game_id, "D4", 0)
    for query, headers in ((f"?ply={digits}", {}), ("", {"If-None-Match": f'"{digits}-abc"'}),
                           (f"?ply={digits}", {"If-None-Match": f'W/"{digits}-x"'})):
        r = black.get(f"/live/{game_id}/state{query}", headers=headers)
        assert r.status_code == 200 and r.get_json()["last"] == "D4" and r.get_json()["ply"] == 1


@pytest.mark.parametrize("body, kind", [(b"x", "application/json"), (b"[]", "application/json"),
                                        (b'{"why": 1}', "application/json"), (b"resign", "text/plain")])
def test_a_body_the_page_never_sends_resigns_nothing(room, body, kind):
    app, gid, ming, lily = room
    game_id = start_game(app, gid, ming, lily)
    black, _white = players(app, game_id, ming, lily)
    r = black.post(f"/live/{game_id}/resign", data=body, headers={"Content-Type": kind})
    assert r.status_code == 400 and row(app, game_id).state == "playing"
    assert black.post(f"/live/{game_id}/resign", json={}).status_code == 200
    assert row(app, game_id).state == "finished"


def test_the_migration_names_the_classmate_of_records_live_games_kept_before(tmp_path):
    from flask_migrate import upgrade

    from conftest import _test_app

    app = _test_app(f"sqlite:///{tmp_path / 'old.db'}")
    with app.app_context():
        upgrade(revision="27a1b2c3d4e5")  # the migration before the classmate's id
        run = db.session.execute
        run(sa.text("INSERT INTO account (id, role, name, failed_logins, archived, created_at, session_secret) VALUES "
                    "(1, 'kid', 'Ming', 0, 0, '2026-01-01', :s), (2, 'kid', 'Lily', 0, 0, '2026-01-01', :s)"),
            {"s": "s" * 32})
        run(sa.text("INSERT INTO kid_group (id, kind, name, code, archived, created_at) "
                    "VALUES (1, 'class', 'C', 'CODE55', 0, '2026-01-01')"))
        game = ("INSERT INTO played_game (id, kid_id, kind, size, komi, handicap, kid_color, opponent, friend_name, "
                "seed, moves, ply, state, dead, reviewed, created_at, updated_at) VALUES (:id, :kid, 'capture', 7, "
                "0, 0, :color, 'friend', :friend, 0, '[]', 0, 'finished', '[]', 0, '2026-01-02', '2026-01-02')")
        run(sa.text(game), {"id": 10, "kid": 1, "color": "black", "friend": "Lily"})
        run(sa.text(game), {"id": 11, "kid": 2, "color": "white", "friend": "Ming"})
        run(sa.text(game), {"id": 12, "kid": 1, "color": "black", "friend": "Mum"})  # at one tablet
        run(sa.text("INSERT INTO live_game (group_id, black_id, white_id, kind, size, komi, moves, ply, version, "
                    "state, dead, agreed, away_seconds, away_outcome, black_record_id, white_record_id, created_at, "
                    "updated_at) VALUES (1, 1, 2, 'capture', 7, 0, '[]', 0, 1, 'finished', '[]', '[]', 120, "
                    "'adjourn', 10, 11, '2026-01-02', '2026-01-02')"))
        db.session.commit()
        db.session.remove()
        upgrade()
        with db.engine.connect() as c:
            assert dict(c.execute(sa.text("SELECT id, friend_id FROM played_game")).all()) == {10: 2, 11: 1, 12: None}
        db.engine.dispose()
