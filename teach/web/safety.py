"""Small guards shared by the blueprints."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import request

# format characters kept in names: the joiners that build emoji and the scripts that need them (ZWNJ, ZWJ)
_KEPT_FORMAT = {"\u200c", "\u200d"}


def one_line(raw: str | None) -> str:
    """Typed text as one line with single spaces, without the characters that are no text: control characters
    (NUL, escape codes), right-to-left overrides and zero-width spaces (a name made of those shows blank on the
    kids' sign-in page, or turns the words after it around)."""
    kept = "".join(ch for ch in (raw or "") if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs")
                   or ch in _KEPT_FORMAT or ch.isspace())
    return " ".join(kept.split())


def safe_next(target: str | None) -> str | None:
    """A ``next`` address we may redirect to: a path on this site only (no other host, no ``//`` or ``\\``)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def this_page() -> str:
    """Where the language switch (and other "come back here" forms) should lead back to: this page for a GET; for
    the answer to a form (a refused form shown again, under the form's POST address) the page the form was on,
    when the browser says it and it is on this site; else nothing (the home page)."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc != request.host or referrer.scheme not in ("http", "https"):
        return ""
    return safe_next(referrer.path + ("?" + referrer.query if referrer.query else "")) or ""

