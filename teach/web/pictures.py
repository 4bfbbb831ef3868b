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
    # one picture per sticker: no two stickers look the same in the sticker book
    "target": ("🎯", _l("target")), "hand": ("🖐️", _l("hand")), "eyes": ("👀", _l("eyes")),
    "megaphone": ("📣", _l("loudspeaker")), "stopwatch": ("⏱️", _l("stopwatch")),
    "traffic-light": ("🚦", _l("traffic light")), "hourglass": ("⏳", _l("hourglass")),
    "cherries": ("🍒", _l("cherries")), "fishing-rod": ("🎣", _l("fishing rod")), "scales": ("⚖️", _l("scales")),
    "chain": ("🔗", _l("chain")), "seedling": ("🌱", _l("sprout")), "clover": ("🍀", _l("four-leaf clover")),
    "umbrella": ("☂️", _l("umbrella")), "roadblock": ("🚧", _l("roadblock")), "bridge": ("🌉", _l("bridge")),
    "old-key": ("🗝️", _l("old key")), "compass": ("🧭", _l("compass")), "bike": ("🚲", _l("bike")),
    "no-entry": ("⛔", _l("no-entry sign")), "boomerang": ("🪃", _l("boomerang")), "beach": ("🏖️", _l("beach")),
    "torch": ("🔦", _l("torch")), "flag": ("🚩", _l("flag")), "bunny": ("🐇", _l("bunny")),
    "teddy": ("🧸", _l("teddy bear")), "hug": ("🤗", _l("hug")), "glasses": ("👓", _l("glasses")),
    "snake": ("🐍", _l("snake")), "shrimp": ("🍤", _l("shrimp")), "ladybird": ("🐞", _l("ladybird")),
    # the milestones' own pictures
    "party": ("🎉", _l("party popper")), "schoolbag": ("🎒", _l("schoolbag")), "climber": ("🧗", _l("climber")),
    "graduation": ("🎓", _l("graduation cap")), "calendar": ("📅", _l("calendar")),
    "finish-flag": ("🏁", _l("finish flag")), "gift": ("🎁", _l("present")),
}


def glyph(name: str) -> str:
    return PICTURES.get(name, ("⭐", ""))[0]


def spoken(name: str) -> str:
    return str(PICTURES.get(name, ("", name))[1])
