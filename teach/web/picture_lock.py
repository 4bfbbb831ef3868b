"""A kid's picture password against guessing, in two layers, each counted before the pictures are checked.

9 pictures, 3 taps: 729 passwords, so what protects a kid is how few guesses anyone gets. Every try first
*reserves* its place atomically, and only a reserved try has its pictures checked; a burst of parallel guesses
therefore gets no more checks than the limits allow, whatever the timing.

- **Per device (client address and kid)**: ``KID_LOCK_AFTER`` tries in ``KID_LOCK_MINUTES``, counted in the rate
  limit store (Redis when ``REDIS_URL`` is set, so every worker and instance shares the count). A stranger who
  taps wrong pictures from their own device rests only that device: the kid still signs in on the class tablet.
  The kid's row is marked resting (``locked_until``), so the teacher sees the lock and can lift it.
- **Per kid, from every address**: ``failed_logins`` counts wrong tries since the kid last signed in or a grown-up
  unlocked; it is raised by one ``UPDATE ... SET failed_logins = failed_logins + 1 WHERE failed_logins < ceiling``
  (atomic on SQLite and PostgreSQL alike), so many devices together get at most ``KID_LOCK_CEILING`` checks.
  At the ceiling the picture login rests everywhere for ``KID_CEILING_HOURS`` or until a teacher or parent
  unlocks it (``unlock``), which also frees every device.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app, request
from limits import RateLimitItemPerSecond
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from teach.models import PASSWORD_PICTURES, User, utcnow
from teach.web.classroom import PICTURE_COUNT, new_pictures
from teach.web.extensions import db

_EPOCH = "teach/picture-epoch/{kid}"  # bumped by an unlock: every device's count starts again


def _store() -> Storage:
    """The app's counter store: the rate limit storage's URI, kept even when rate limits are turned off (the
    lock is no rate limit)."""
    ext = current_app.extensions
    if "teach.counters" not in ext:
        ext.setdefault("teach.counters", storage_from_string(current_app.config["RATELIMIT_STORAGE_URI"]))
    return ext["teach.counters"]


def _device_window() -> RateLimitItemPerSecond:
    cfg = current_app.config
    return RateLimitItemPerSecond(cfg["KID_LOCK_AFTER"], max(1, round(cfg["KID_LOCK_MINUTES"] * 60)),
                                  namespace=cfg.get("RATELIMIT_KEY_PREFIX", "") + "teach/picture-tries")


def _epoch_key(kid_id: int) -> str:
    return current_app.config.get("RATELIMIT_KEY_PREFIX", "") + _EPOCH.format(kid=kid_id)


def _device(kid_id: int) -> tuple[str, str, str]:
    return request.remote_addr or "-", str(kid_id), str(_store().get(_epoch_key(kid_id)))


def reserve(kid: User) -> bool:
    """Reserve one check of the pictures for this try: False when this device or the kid's login rests."""
    cfg = current_app.config
    store, now = _store(), utcnow()
    tries = store.incr(_device_window().key_for(*_device(kid.id)), _device_window().get_expiry())
    if tries > cfg["KID_LOCK_AFTER"]:
        return False
    ceiling = cfg["KID_LOCK_CEILING"]
    restart = User.failed_logins >= ceiling  # the long rest is over: a fresh count
    reserved = db.session.execute(
        sa.update(User).where(User.id == kid.id, sa.or_(User.failed_logins < ceiling, User.locked_until <= now))
        .values(failed_logins=sa.case((restart, 1), else_=User.failed_logins + 1),
                # the last place at the ceiling starts the long rest before its check, so no try slips past
                locked_until=sa.case((restart, sa.null()),
                                     (User.failed_logins + 1 >= ceiling,
                                      now + timedelta(hours=cfg["KID_CEILING_HOURS"])),
                                     else_=User.locked_until))
        .execution_options(synchronize_session=False)).rowcount == 1
    if reserved and tries == cfg["KID_LOCK_AFTER"]:
        _mark_resting(kid.id, now + timedelta(minutes=cfg["KID_LOCK_MINUTES"]))
    db.session.commit()  # the reservation is seen by every other try before this one's pictures are checked
    return reserved


def _mark_resting(kid_id: int, until) -> None:
    """The teacher's page shows the kid resting (and offers Unlock); a longer rest already set stays."""
    db.session.execute(sa.update(User).where(User.id == kid_id, sa.or_(User.locked_until.is_(None),
                                                                       User.locked_until < until))
                       .values(locked_until=until).execution_options(synchronize_session=False))


def resting(kid: User) -> bool:
    """Whether this device's tries for this kid, or the kid's login everywhere, are used up (shown before a try)."""
    cfg = current_app.config
    if kid.failed_logins >= cfg["KID_LOCK_CEILING"] and kid.locked():
        return True
    return _store().get(_device_window().key_for(*_device(kid.id))) >= cfg["KID_LOCK_AFTER"]


def signed_in(kid: User) -> None:
    """The right pictures: the kid's count and this device's start again."""
    db.session.execute(sa.update(User).where(User.id == kid.id).values(failed_logins=0, locked_until=None)
                       .execution_options(synchronize_session=False))
    db.session.commit()
    _store().clear(_device_window().key_for(*_device(kid.id)))


def unlock(kid: User) -> None:
    """A teacher or parent lifts the rest: the kid's count and every device's start again (commit is the
    caller's)."""
    kid.failed_logins, kid.locked_until = 0, None
    _store().incr(_epoch_key(kid.id), 7 * 24 * 3600)


def new_password(kid: User, nonce: str | None = None) -> list[str]:
    """A fresh picture password for a kid who forgot theirs (to show once on a card); the lock goes with the old
    one (commit is the caller's). ``nonce``: the one the asking page carried. The pictures then come from it (and
    the kid and the server's secret), so the same page sent twice (a double click, a resend) gives the same
    pictures: every card shown works, not only the one written last."""
    pictures = _pictures_for(kid.id, nonce) if nonce else new_pictures()
    kid.set_pictures(pictures)
    unlock(kid)
    return pictures


def form_nonce() -> str:
    """A nonce for a page that asks before making new picture passwords (``new_password``)."""
    return secrets.token_urlsafe(16)


def page_nonce() -> str | None:
    """The nonce the asking page sent back (``form_nonce``), when the request has one of that shape."""
    nonce = request.form.get("nonce", "")
    return nonce if 16 <= len(nonce) <= 64 and nonce.replace("-", "").replace("_", "").isalnum() else None


def _pictures_for(kid_id: int, nonce: str) -> list[str]:
    key = current_app.secret_key
    key = key.encode() if isinstance(key, str) else key
    digest = hmac.new(key, f"pictures|{kid_id}|{nonce}".encode(), hashlib.sha256).digest()
    # 2**32 is not a multiple of nine: four bytes a picture leave a bias below one in four hundred million
    return [PASSWORD_PICTURES[int.from_bytes(digest[4 * i:4 * i + 4], "big") % len(PASSWORD_PICTURES)]
            for i in range(PICTURE_COUNT)]
