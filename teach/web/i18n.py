"""The languages a page may be shown in, and which one this request gets."""

from __future__ import annotations

from flask import g, request, session
from flask_login import current_user

LOCALES = {"zh": "zh_Hans_CN", "en": "en"}  # what a page may be shown in, by the language tag people send


def select_locale() -> str:
    """The account's language, then the switch (session), then the browser's Accept-Language; once a request."""
    found = g.get("locale")
    if found is None:
        found = _choose_locale()
        g.locale = found
    return found


def _choose_locale() -> str:
    user_locale = getattr(current_user, "locale", None) if current_user else None
    if user_locale in LOCALES.values():
        return user_locale
    if session.get("locale") in LOCALES.values():
        return session["locale"]
    tag = request.accept_languages.best_match(list(LOCALES)) if request else None
    return LOCALES.get(tag or "zh", "zh_Hans_CN")
