"""What the computer says to a kid after a move, in kid language (both languages through the catalogue).

A lesson may give its own words for success and for each reason a move fails; these are the defaults.
"""

from __future__ import annotations

from flask_babel import gettext as _

REASONS = {
    "escapes": lambda: _("Oh no, the little mouse ran away! Look where it went, and try again."),
    "captured-you": lambda: _("Oops, that stone got caught. Try another point!"),
    "self-atari": lambda: _("Careful! That stone has only one road left. Try again."),
    "not-a-liberty": lambda: _("That point is not one of its roads. Try next to the stones!"),
    "lives": lambda: _("They made two eyes and are safe now. Try again!"),
    "dies": lambda: _("Oh no, your stones can be caught now. Try again!"),
    "loses-race": lambda: _("They won the race by one breath. Try again!"),
    "seki": lambda: _("Nobody can catch anybody now. Try again!"),
    "cut": lambda: _("Oh no, they cut your stones apart. Try again!"),
    "connected": lambda: _("They joined up. Try again!"),
    "unknown": lambda: _("Hmm, that one is too hard for me to check. Try another move!"),
}
SUCCESS = {
    "capture": lambda: _("You caught it! Great thinking!"),
    "save": lambda: _("Safe! You saved your stones!"),
    "live": lambda: _("Two eyes — safe forever! Well done!"),
    "kill": lambda: _("They cannot make two eyes now. Well done!"),
    "race": lambda: _("You won the race! Great counting!"),
    "connect": lambda: _("Connected! Now they are strong together."),
    "cut": lambda: _("Cut! Great job!"),
}
ILLEGAL = {
    "occupied": lambda: _("There is already a stone there. Pick an empty point!"),
    "suicide": lambda: _("That is a forbidden point: a stone there would have no roads at all."),
    "ko": lambda: _("Ko! You cannot take back right away. Play somewhere else first."),
    "superko": lambda: _("That would bring back the same board again, so it is not allowed."),
    "game-over": lambda: _("This game is over."),
    "off-board": lambda: _("Tap a point on the board."),
}


def _lesson_text(text, lang: str) -> str | None:
    return text.get(lang) if text is not None else None


def success(puzzle, lang: str) -> str:
    return _lesson_text(puzzle.success, lang) or SUCCESS.get(puzzle.goal, SUCCESS["capture"])()


def wrong(puzzle, reason: str | None, lang: str) -> str:
    own = puzzle.wrong.get(reason or "") if puzzle.wrong else None
    return _lesson_text(own, lang) or REASONS.get(reason or "", REASONS["unknown"])()


def illegal(reason: str | None) -> str:
    return ILLEGAL.get(reason or "", ILLEGAL["off-board"])()


def keep_going() -> str:
    return _("Good move! Keep going.")


def stale() -> str:
    return _("That move is already on the board.")


def no_hint() -> str:
    return _("Look at the stones with the fewest roads.")


def quiz_right(quiz, lang: str) -> str:
    return _lesson_text(quiz.success, lang) or _("Yes! That's right!")


def quiz_wrong(ask: str) -> str:
    if ask in ("liberties", "forbidden", "tap"):
        return _("Not quite. Look at every point again!")
    return _("Not quite. Have another look!")
