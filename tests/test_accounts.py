"""Accounts as an attacker probes them: a session or a code kept from a deleted account, a copied cookie after
sign-out or a picture reset, and the upgrade of a database from before sessions were bound to a secret."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from teach.models import Group, LinkInvitation, ParentLink, User
from teach.web.extensions import db

EN = {"Accept-Language": "en"}


def login(client, email, password):
    assert client.post("/login", data={"email": email, "password": password}).status_code == 302


def signup(client, role, email, name="Someone"):
    r = client.post("/signup", data={"role": role, "name": name, "email": email, "password": "12345678",
                                     "confirm": "12345678"})
    assert r.status_code == 302


def cookie(client) -> str:
    return client.get_cookie("session").value


def with_cookie(app, value: str):
    """A fresh browser holding a copied session cookie."""
    thief = app.test_client()
    thief.set_cookie("session", value)
    return thief


def signed_in_as(app, value: str, path: str) -> bool:
    r = with_cookie(app, value).get(path)
    return r.status_code == 200


def kid_cookie(app, code: str, kid_id: int, pictures: list[str]) -> str:
    kid = app.test_client()
    assert kid.post(f"/kids/{code}/{kid_id}", data={"pictures": ",".join(pictures)}).status_code == 302
    return cookie(kid)


def test_a_deleted_kid_s_cookie_and_code_never_pass_to_the_next_account(demo):
    """The probe of the report: a parent makes a kid at home, keeps the kid's cookie and a link code, deletes the
    kid; the next account made is a teacher. The old cookie opens nothing and the code links to nobody, both
    with ids never reused and with an account forced into the freed id."""
    parent = demo.test_client()
    signup(parent, "parent", "eve@example.com", "Eve")
    parent.post("/family/families", data={"name": "Eve's"})
    with demo.app_context():
        family = db.session.scalar(sa.select(Group).where(Group.name == "Eve's"))
        family_id, code = family.id, family.code
    card = parent.post(f"/family/families/{family_id}/kids", data={"name": "Kiddo"}).get_data(as_text=True)
    with demo.app_context():
        kid = db.session.scalar(sa.select(User).where(User.name == "Kiddo"))
        kid_id = kid.id
    pictures = re.search(r'data-pictures="([a-z,]+)"', card).group(1).split(",")  # read off the printed card
    kid_session = kid_cookie(demo, code, kid_id, pictures)
    assert signed_in_as(demo, kid_session, "/learn/")
    page = parent.post(f"/family/kids/{kid_id}/invitations", follow_redirects=True).get_data(as_text=True)
    link_code = re.findall(r'<code class="link-code">([^<]+)</code>', page)[-1]
    assert parent.post(f"/family/kids/{kid_id}/delete", data={"confirm": "Kiddo"}).status_code == 302

    teacher = demo.test_client()
    signup(teacher, "teacher", "newteacher@example.com", "New Teacher")
    with demo.app_context():
        new_id = db.session.scalar(sa.select(User.id).where(User.email == "newteacher@example.com"))
    assert new_id > kid_id  # never the freed id, on SQLite as on PostgreSQL
    for path in ("/teach/", "/learn/", "/family/"):
        assert not signed_in_as(demo, kid_session, path)
    stranger = demo.test_client()
    signup(stranger, "parent", "mallory@example.com", "Mallory")
    refused = stranger.post("/family/link", data={"code": link_code}, headers=EN, follow_redirects=True)
    assert "does not work" in refused.get_data(as_text=True)

    # and were an id ever given again (an old database, a restore), the session's secret still does not match
    with demo.app_context():
        reborn = User(id=kid_id, role="teacher", name="Reborn", email="reborn@example.com", password_hash="-")
        db.session.add(reborn)
        db.session.commit()
    for path in ("/teach/", "/learn/"):
        assert not signed_in_as(demo, kid_session, path)
    with demo.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(ParentLink).where(
            ParentLink.kid_id == kid_id)) == 0


def test_after_sign_out_a_copied_cookie_no_longer_works(demo, client):
    login(client, "teacher@example.com", "black-cat-42")
    copied = cookie(client)
    assert signed_in_as(demo, copied, "/teach/")
    client.post("/logout")
    assert not signed_in_as(demo, copied, "/teach/")
    login(client, "teacher@example.com", "black-cat-42")  # and signing in again works
    assert client.get("/teach/").status_code == 200


def test_a_picture_reset_signs_out_a_stolen_kid_session(demo):
    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        lily = db.session.scalar(sa.select(User.id).where(User.name == "Lily"))
        mingming = db.session.scalar(sa.select(User.id).where(User.name == "明明"))
    stolen = kid_cookie(demo, "CAT234", lily, ["star", "apple", "sun"])
    teacher = demo.test_client()
    login(teacher, "teacher@example.com", "black-cat-42")
    assert teacher.post(f"/teach/classes/{class_id}/kids/{lily}/pictures", data={"confirm": "1"}).status_code == 200
    assert not signed_in_as(demo, stolen, "/learn/")
    # the parent's reset does the same
    stolen = kid_cookie(demo, "CAT234", mingming, ["cat", "fish", "moon"])
    parent = demo.test_client()
    login(parent, "parent@example.com", "little-mouse-42")
    assert parent.post(f"/family/kids/{mingming}/pictures", data={"confirm": "1"}).status_code == 200
    assert not signed_in_as(demo, stolen, "/learn/")
    # the adults' own sessions go on
    assert teacher.get("/teach/").status_code == 200 and parent.get("/family/").status_code == 200


def test_a_new_picture_password_page_sent_twice_gives_one_card_that_works(demo):
    """A double click on "make a new picture password" (or a resend): both answers show the same pictures, and
    they sign the kid in; another asking page makes other pictures."""
    import re

    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        lily = db.session.scalar(sa.select(User.id).where(User.name == "Lily"))
    teacher = demo.test_client()
    login(teacher, "teacher@example.com", "black-cat-42")
    url = f"/teach/classes/{class_id}/kids/{lily}/pictures"

    def asked() -> str:
        return re.search(r'name="nonce" value="([^"]+)"', teacher.post(url).get_data(as_text=True)).group(1)

    def card(nonce: str) -> str:
        page = teacher.post(url, data={"confirm": "1", "nonce": nonce}).get_data(as_text=True)
        return re.search(r'data-pictures="([a-z,]+)"', page).group(1)

    nonce = asked()
    first, second = card(nonce), card(nonce)
    assert first == second
    kid_cookie(demo, "CAT234", lily, first.split(","))  # the card works (it asserts the sign-in)
    cards = {card(asked()) for _ in range(6)}
    assert len(cards) > 1  # each asking page its own pictures (six the same by chance: one in 729 to the fifth power)


def test_archiving_a_kid_ends_their_sessions_even_once_restored(demo):
    with demo.app_context():
        class_id = db.session.scalar(sa.select(Group.id).where(Group.code == "CAT234"))
        tom = db.session.scalar(sa.select(User.id).where(User.name == "Tom"))
    session = kid_cookie(demo, "CAT234", tom, ["moon", "moon", "star"])
    teacher = demo.test_client()
    login(teacher, "teacher@example.com", "black-cat-42")
    teacher.post(f"/teach/classes/{class_id}/kids/{tom}/archive", data={"archived": "1", "confirm": "1"})
    teacher.post(f"/teach/classes/{class_id}/kids/{tom}/archive", data={"archived": "0"})
    assert not signed_in_as(demo, session, "/learn/")


def test_a_new_password_ends_the_account_s_sessions(demo):
    with demo.app_context():
        user = db.session.scalar(sa.select(User).where(User.email == "teacher@example.com"))
        before = user.get_id()
        user.set_password("another-long-secret")
        assert user.get_id() != before and user.get_id().split(":")[0] == before.split(":")[0]


@pytest.mark.parametrize("session_id", ["1", "1:", ":abc", "1:wrong", "99999999999999999999:x", "x:y", ""])
def test_a_forged_or_old_session_id_is_refused(demo, session_id):
    client = demo.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = session_id
    assert client.get("/teach/").status_code == 302


# ---------------------------------------------------------------------- the upgrade of a database with data
OLD = "b03118460b25"


def test_upgrading_a_filled_database_keeps_every_row_and_refuses_old_sessions(tmp_path):
    from flask_migrate import downgrade, upgrade

    from conftest import CSRFClient, database_url
    from teach.web import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    app.test_client_class = CSRFClient
    insert = [
        ('INSERT INTO "user" (id, role, name, email, password_hash, avatar, picture_hash, failed_logins, '
         'archived, created_at) VALUES (:id, :role, :name, :email, :pw, :avatar, :pics, 0, :archived, :now)',
         [dict(id=1, role="teacher", name="T", email="t@example.com", pw=None, avatar=None, pics=None,
               archived=False), dict(id=2, role="parent", name="P", email="p@example.com", pw=None, avatar=None,
                                     pics=None, archived=False),
          dict(id=3, role="kid", name="K", email=None, pw=None, avatar="cat", pics="x", archived=False),
          dict(id=5, role="kid", name="Gone", email=None, pw=None, avatar="cat", pics="x", archived=True)]),
        ('INSERT INTO "group" (id, kind, name, code, archived, created_at) VALUES (:id, :kind, :name, :code, '
         ':archived, :now)', [dict(id=1, kind="class", name="C", code="AAAA22", archived=False),
                              dict(id=2, kind="family", name="F", code="BBBB22", archived=False)]),
        ('INSERT INTO membership (id, group_id, user_id, role) VALUES (:id, :g, :u, :role)',
         [dict(id=1, g=1, u=1, role="teacher"), dict(id=2, g=1, u=3, role="kid"), dict(id=3, g=2, u=2, role="parent"),
          dict(id=4, g=2, u=3, role="kid")]),
        ('INSERT INTO parent_link (id, parent_id, kid_id) VALUES (:id, :p, :k)', [dict(id=1, p=2, k=3)]),
        ('INSERT INTO attempt (id, kid_id, lesson_id, step, moves, result, hints, started_at) VALUES '
         '(:id, 3, \'l\', 0, \'[]\', \'open\', 0, :now)', [dict(id=1), dict(id=2)]),
        ('INSERT INTO lesson_progress (id, kid_id, lesson_id, step, stars, mistakes, hints, updated_at) VALUES '
         '(1, 3, \'l\', 1, 2, 0, 0, :now)', [{}]),
        ('INSERT INTO sticker_award (id, kid_id, sticker_id, awarded_at) VALUES (1, 3, \'s\', :now)', [{}]),
        ('INSERT INTO assignment (id, group_id, lesson_id, due_on, created_by, created_at) VALUES '
         '(1, 1, \'l\', :today, 1, :now)', [{}]),
        ('INSERT INTO teacher_lesson (id, owner_id, lesson_id, filename, source, created_at) VALUES '
         '(1, 1, \'l\', \'f.yaml\', \'x\', :now)', [{}]),
    ]
    from datetime import date, datetime

    now, today = datetime(2026, 11, 30, 12, 0), date(2026, 11, 30)
    counts = {"account": 4, "kid_group": 2, "membership": 4, "parent_link": 1, "attempt": 2, "lesson_progress": 1,
              "sticker_award": 1, "assignment": 1, "teacher_lesson": 1}
    with app.app_context():
        downgrade(revision="base")
        upgrade(revision=OLD)
        with db.engine.begin() as conn:
            for statement, rows in insert:
                conn.execute(sa.text(statement), [dict(r, now=now, today=today) for r in rows])
            conn.execute(sa.text('DELETE FROM "user" WHERE id = 5'))  # the highest id, freed before the upgrade
        upgrade()
        with db.engine.connect() as conn:
            got = {t: conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar() for t in counts}
            secrets = [s for (s,) in conn.execute(sa.text("SELECT session_secret FROM account"))]
            status = conn.execute(sa.text("SELECT status FROM parent_link")).scalar()
        assert got == dict(counts, account=3)
        assert len(set(secrets)) == 3 and all(len(s) == 32 for s in secrets)
        assert status == "approved"  # links made before the upgrade stay (their teachers now see them)
        kid = db.session.get(User, 3)
        assert kid.name == "K" and {m.group_id for m in kid.memberships} == {1, 2}
        # an id freed before the upgrade may come back once (the old table never recorded it); from now on,
        # no deleted id is handed out again
        db.session.add(User(role="parent", name="New", email="new@example.com"))
        db.session.commit()
        top = db.session.scalar(sa.select(sa.func.max(User.id)))
        db.session.execute(sa.delete(User).where(User.id == top))
        db.session.commit()
        db.session.add(User(role="parent", name="Newer", email="newer@example.com"))
        db.session.commit()
        assert db.session.scalar(sa.select(sa.func.max(User.id))) == top + 1
        db.session.remove()

    # a session signed before the upgrade named the account by its id alone
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = "1"
        session["_fresh"] = True
    assert client.get("/teach/").status_code == 302

    with app.app_context():
        downgrade(revision=OLD)
        with db.engine.connect() as conn:
            back = {t: conn.execute(sa.text(f'SELECT count(*) FROM "{t}"')).scalar()
                    for t in ("user", "group", "membership", "parent_link", "attempt", "lesson_progress",
                              "sticker_award", "assignment", "teacher_lesson")}
        assert back == {"user": 4, "group": 2, "membership": 4, "parent_link": 1, "attempt": 2,
                        "lesson_progress": 1, "sticker_award": 1, "assignment": 1, "teacher_lesson": 1}
        upgrade()
        downgrade(revision="base")
        db.engine.dispose()


def test_an_email_typed_with_spaces_round_it_signs_in(demo):
    """A phone keyboard or a paste leaves a space after the address: it is the same address."""
    client = demo.test_client()
    r = client.post("/login", data={"email": "  teacher@example.com ", "password": "black-cat-42"})
    assert r.status_code == 302 and client.get("/teach/").status_code == 200
