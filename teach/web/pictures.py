"""The pictures kids tap (avatars, picture passwords, stickers): a glyph and a spoken name in both languages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

PICTURES = {
    "cat": ("🐱", _l("cat")), "mouse": ("🐭", _l("mouse")), "fish": ("🐟", _l("fish")),
    "apple": ("🍎", _l("apple")), "star": ("⭐", _l("star")), "moon": ("🌙", _l("moon")),
    "sun": ("🌞", _l("sun")), "flower": ("🌸", _l("flower")), "tree": ("🌳", _l("tree")),
    "panda": ("🐼", _l("panda")), "tiger": ("🐯", _l("tiger")), "rabbit": ("🐰", _l("rabbit")),
    "turtle": ("🐢", _l("turtle")), "bird": ("🐦", _l("bird")), "dragon": ("🐲", _l("dragon")),
    "butterfly": ("🦋", _l("butterfly")), "kite": ("🪁", _l("kite")), "rocket": ("🚀", _l("rocket")),
    "badge": ("📛", _l("badge")), "cheese": ("🧀", _l("cheese")), "rainbow": ("🌈", _l("rainbow")),
    "crown": ("👑", _l("crown")), "trophy": ("🏆", _l("trophy")), "medal": ("🏅", _l("medal")),
    "key": ("🔑", _l("key")), "door": ("🚪", _l("door")), "net": ("🥅", _l("net")), "ladder": ("🪜", _l("ladder")),
    "shield": ("🛡️", _l("shield")), "lighthouse": ("🗼", _l("lighthouse")), "balloon": ("🎈", _l("balloon")),
    "tiger-face": ("🐯", _l("tiger")), "dragon-face": ("🐲", _l("dragon")), "cake": ("🍰", _l("cake")),
    "candy": ("🍬", _l("candy")), "drum": ("🥁", _l("drum")), "bell": ("🔔", _l("bell")),
    "lantern": ("🏮", _l("lantern")), "boat": ("⛵", _l("boat")), "train": ("🚂", _l("train")),
    "castle": ("🏰", _l("castle")), "treasure": ("💎", _l("treasure")),
    # the computer's characters on the play pages, and the counting sticker
    "monkey": ("🐵", _l("monkey")), "owl": ("🦉", _l("owl")), "police-cat": ("🐈‍⬛", _l("police cat")),
    "abacus": ("🧮", _l("abacus")),
}


def glyph(name: str) -> str:
    return PICTURES.get(name, ("⭐", ""))[0]


def spoken(name: str) -> str:
    return str(PICTURES.get(name, ("", name))[1])
