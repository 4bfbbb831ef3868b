"""The pictures kids tap (avatars, picture passwords, stickers): a glyph and a spoken name in both languages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from markupsafe import Markup

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
    "first-place": ("🥇", _l("first-place medal")), "paperclip": ("📎", _l("paperclip")),
    "scissors": ("✂️", _l("scissors")), "handshake": ("🤝", _l("handshake")), "sunset": ("🌇", _l("sunset")),
    "coin": ("🪙", _l("gold coin")),
    "whale": ("🐳", _l("whale")), "octopus": ("🐙", _l("octopus")),
    "penguin": ("🐧", _l("penguin")), "frog": ("🐸", _l("frog")),
    "bee": ("🐝", _l("bee")), "snail": ("🐌", _l("snail")),
    "dolphin": ("🐬", _l("dolphin")), "unicorn": ("🦄", _l("unicorn")),
    "hedgehog": ("🦔", _l("hedgehog")), "peach": ("🍑", _l("peach")),
    "watermelon": ("🍉", _l("watermelon")), "strawberry": ("🍓", _l("strawberry")),
    "snowman": ("⛄", _l("snowman")), "elephant": ("🐘", _l("elephant")),
    "lion": ("🦁", _l("lion")), "giraffe": ("🦒", _l("giraffe")),
    # the milestones' own pictures
    "party": ("🎉", _l("party popper")), "schoolbag": ("🎒", _l("schoolbag")), "climber": ("🧗", _l("climber")),
    "graduation": ("🎓", _l("graduation cap")), "calendar": ("📅", _l("calendar")),
    "finish-flag": ("🏁", _l("finish flag")), "gift": ("🎁", _l("present")),
}


def glyph(name: str) -> str:
    return PICTURES.get(name, ("⭐", ""))[0]


def spoken(name: str) -> str:
    return str(PICTURES.get(name, ("", name))[1])


# ---------------------------------------------------------------------- picture answers for quizzes
# A child who cannot read yet answers by the picture on the button: a stone colour, a thumb, a number as dots,
# the letter the board shows. The picture comes from the choice's Chinese text (every lesson has it); a choice
# with nothing to draw gets a coloured shape of its own, which the narration lights up as it reads the choice.
_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_YES = ("能", "是", "可以", "好棋", "安全", "应该", "对")
_NO = ("不", "没", "抓不", "活不")
SHAPES = ("🔺", "🟦", "🟢", "🔶")


def leading_number(text: str) -> int | None:
    """The number a Chinese choice starts with ("三条", "四十五个", "8口"), or None."""
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            break
    if digits:
        return int(digits)
    value, i = 0, 0
    if text[:1] == "十":
        value, i = 10, 1
        if text[1:2] in _DIGITS:
            value, i = 10 + _DIGITS[text[1]], 2
        return value
    if text[:1] in _DIGITS:
        value, i = _DIGITS[text[0]], 1
        if text[1:2] == "十":
            value, i = value * 10, 2
            if text[2:3] in _DIGITS:
                value += _DIGITS[text[2]]
        return value
    return None


def number_dots(n: int) -> Markup:
    """A number a pre-reader can count: up to twelve dots in rows of four (larger numbers stay digits)."""
    if not 1 <= n <= 12:
        return Markup('<span class="pic number">{}</span>').format(n)
    rows = [n // 4 * [4] + ([n % 4] if n % 4 else [])][0]
    inner = Markup("").join(Markup('<span class="dot-row">{}</span>').format("●" * r) for r in rows)
    return Markup('<span class="pic dots" data-number="{}">{}</span>').format(n, inner)


def choice_picture(choice, index: int) -> Markup:
    """The picture on a quiz choice's button (``choice``: the choice's text in both languages)."""
    zh = (choice.get("zh") or "").strip()
    if zh.startswith("一样"):
        return _pic("⚖️")
    n = leading_number(zh)
    if n is not None:
        return number_dots(n)
    letter = next((c for c in zh[:4] if c in "ABCD"), None)
    if letter:
        return Markup('<span class="pic letter">{}</span>').format(letter)
    if zh.startswith(_NO):
        return _pic("👎")
    if zh.startswith(_YES):
        return _pic("👍")
    for word, pic in (("都是活", "⚫⚪"), ("真眼", "👁️"), ("假眼", "🙈"), ("连在一起", "🔗"), ("角", "◰"),
                      ("边", "▭"), ("天元", "⊙"), ("中间", "⊙"), ("交叉点", "✚"), ("格子", "▦"), ("警长", "🐈‍⬛"),
                      ("小老鼠", "🐭")):
        if word in zh:
            return _pic(pic)
    colours = sorted((zh.index(c), pic) for c, pic in (("黑", "⚫"), ("白", "⚪")) if c in zh)
    if colours:
        return _pic(colours[0][1])
    return Markup('<span class="pic shape">{}</span>').format(SHAPES[index % len(SHAPES)])


def choice_pictures(choices) -> list[Markup]:
    """One picture per choice, never the same picture twice in a quiz (then every choice gets its shape)."""
    pictures = [choice_picture(c, i) for i, c in enumerate(choices)]
    if len(set(pictures)) < len(pictures):
        pictures = [Markup('<span class="pic shape">{}</span>').format(SHAPES[i % len(SHAPES)])
                    for i in range(len(choices))]
    return pictures


def _pic(glyph_text: str) -> Markup:
    return Markup('<span class="pic">{}</span>').format(glyph_text)
