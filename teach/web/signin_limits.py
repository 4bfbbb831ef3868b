"""Rate limits on every sign-in, sign-up and code route, per client address, sized for a school behind one
address (NAT or proxy: ``PROXY_FIX`` gives each client its own) and kept in the shared store (Redis when
``REDIS_URL`` is set, so the counts hold across workers and instances).

What each limit stops, and why a class signing in together is not stopped:

- **Guessing class codes** (a hit shows a class's first names and opens the picture pad): what counts is a
  *miss* — an unknown code on any code route, a kid who is not in that class — per address, across all code
  routes. Right codes cost nothing, so 30 kids typing the right code at once never add up; a handful of typos
  stay far below the limit. Once the misses are used up every code route answers 429 to that address, right codes
  too, or the limit itself would tell a right code from a wrong one.
- **Hammering one class's pages** (the avatar grid, the picture pad): per address *and code*, generous enough for a
  whole class loading and reloading them; another class behind the same address has its own count.
- **Picture guessing**: the per-kid lock (``picture_lock``) counts every try; the route limit per address and kid
  stops hammering.
- **Passwords**: failed sign-ins per address (successful ones are free, so a staff room signing in together is
  fine), and all sign-in posts per address because each costs a password hash.
- **Sign-ups** per address: accounts are made rarely, and each costs a hash.
"""

from __future__ import annotations

from flask import g, request
from flask_limiter.util import get_remote_address

from teach.web.extensions import limiter

CODE_MISS_LIMIT = "30 per minute;200 per hour;500 per day"
CLASS_PAGE_LIMIT = "240 per minute"  # per address and code: a class of 30 loading and reloading its pages
CODE_FORM_LIMIT = "300 per minute"  # the code form itself, per address (a whole school arriving)
PICTURE_TRY_LIMIT = "20 per minute"  # per address and kid, on top of the lock
LOGIN_FAILURE_LIMIT = "10 per minute;100 per hour"
LOGIN_POST_LIMIT = "60 per minute"
PAGE_LIMIT = "120 per minute"  # the sign-in and sign-up pages themselves
SIGNUP_LIMIT = "10 per minute;60 per hour"


def _address_and_code() -> str:
    code = (request.view_args or {}).get("code", "")
    return f"{get_remote_address()}/{''.join(str(code).split()).replace('-', '').upper()[:16]}"


def _address_and_kid() -> str:
    return f"{get_remote_address()}/{(request.view_args or {}).get('kid_id', '')}"


def note_code_miss() -> None:
    """The route found no class for the code (or no such kid in it): the address spends one miss."""
    g.code_miss = True


def _was_a_miss(response) -> bool:
    return bool(g.get("code_miss")) or response.status_code == 404


def _did_not_sign_in(response) -> bool:
    return request.method == "POST" and response.status_code != 302


# one count of misses per address, whichever code route they come from
code_misses = limiter.shared_limit(CODE_MISS_LIMIT, scope="class-code-misses", deduct_when=_was_a_miss)
class_pages = limiter.limit(CLASS_PAGE_LIMIT, key_func=_address_and_code)
code_form = limiter.limit(CODE_FORM_LIMIT)
picture_tries = limiter.limit(PICTURE_TRY_LIMIT, methods=["POST"], key_func=_address_and_kid)
login_failures = limiter.limit(LOGIN_FAILURE_LIMIT, methods=["POST"], deduct_when=_did_not_sign_in)
login_posts = limiter.limit(LOGIN_POST_LIMIT, methods=["POST"])
pages = limiter.limit(PAGE_LIMIT, methods=["GET", "HEAD"])
signups = limiter.limit(SIGNUP_LIMIT, methods=["POST"])
