"""The computer's levels as the story characters children meet them as — from the little mouse to the Black Cat
Police chief (黑猫警长, the seeds' story) — each with the one-line promise a parent understands. One list for
every page that names the computer: the play pages, the games list and replay, the stickers."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l

from teach.go import bot
from teach.go.gnugo import find_gnugo
from teach.web.pictures import glyph


@dataclass(frozen=True)
class Character:
    """How a computer level is drawn: a picture, its name and the promise a parent understands."""
    level: int
    slug: str  # teach.go.bot.LEVELS' slug for the level
    picture: str  # a name of teach.web.pictures
    name: object  # lazy text
    promise: object

    @property
    def glyph(self) -> str:
        return glyph(self.picture)


CHARACTERS = {c.level: c for c in (
    Character(1, "mouse", "mouse", _l("Little Mouse"), _l("Beatable by a child who just learned to capture")),
    Character(2, "rabbit", "rabbit", _l("Little Rabbit"), _l("Runs from atari, but often forgets its own stones")),
    Character(3, "monkey", "monkey", _l("Little Monkey"), _l("Catches loose stones: keep yours connected")),
    Character(4, "panda", "panda", _l("Panda"), _l("A fair match after the capture lessons")),
    Character(5, "tiger", "tiger", _l("Tiger"), _l("Plays a whole game and makes eyes")),
    Character(6, "chief", "police-cat", _l("Black Cat Police Chief"), _l("Gives a club beginner a real game")),
    Character(7, "owl", "owl", _l("Wise Owl"), _l("A grown-up club player has to work hard")),
    Character(8, "dragon", "dragon", _l("Dragon"), _l("Its very best: a challenge for strong players")),
)}
assert {c.slug for c in CHARACTERS.values()} == {lv.slug for lv in bot.LEVELS}


def gnugo_installed() -> bool:
    """Whether GNU Go is here: only then are its levels (owl, dragon) offered."""
    return find_gnugo() is not None


def levels() -> list[tuple[bot.Level, Character]]:
    """The computer levels a kid may choose here, weakest first."""
    have_gnugo = gnugo_installed()
    return [(lv, CHARACTERS[lv.number]) for lv in bot.LEVELS
            if lv.number in CHARACTERS and (lv.engine != "gnugo" or have_gnugo)]


def character(level: int | None) -> Character:
    """The character of a stored game's level (the weakest for a level no longer offered)."""
    return CHARACTERS.get(level or 1, CHARACTERS[1])
