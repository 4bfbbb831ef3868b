"""What a printed login card carries besides the kid: the web address of the group's sign-in and its QR code,
drawn on the server as inline SVG (segno), so a card prints from the page with nothing fetched from elsewhere."""

from __future__ import annotations

from functools import lru_cache

import segno
from flask import current_app, url_for
from markupsafe import Markup

from teach.models import Group

from . import bp


def sign_in_address(group: Group) -> str:
    """The address a kid opens to sign in to ``group``: the app's public address (``PUBLIC_URL``) when set,
    otherwise the one this page was asked on."""
    path = url_for("auth.kid_avatars", code=group.code)
    public = (current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    return public + path if public else url_for("auth.kid_avatars", code=group.code, _external=True)


@lru_cache(maxsize=256)
def qr_svg(address: str) -> str:
    # error level M survives a crease or a smudge on a card; no size attributes, so CSS decides how big it prints
    return segno.make(address, error="m").svg_inline(scale=1, border=2, omitsize=True, dark="#000",
                                                      svgclass="sign-in-qr")


@bp.app_template_global()
def sign_in_card(group: Group) -> dict:
    """The address and QR code of a group's sign-in, for the login cards of a class or a family."""
    address = sign_in_address(group)
    return {"address": address, "qr": Markup(qr_svg(address))}
