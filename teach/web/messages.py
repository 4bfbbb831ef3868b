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


def success(puzzle, lang: str, ko: bool = False) -> str:
    """``ko``: the move wins the ko the puzzle is about (the opponent may not take straight back)."""
    if ko and not puzzle.success:
        return _("You took the ko! They may not take it back right away.")
    return _lesson_text(puzzle.success, lang) or SUCCESS.get(puzzle.goal, SUCCESS["capture"])()


def wrong(puzzle, reason: str | None, lang: str, taken: bool = False, stopped: bool = False) -> str:
    """``taken``: the computer's answer has already taken the kid's stones the puzzle is about (the board shows
    them gone), so the default words say so rather than that they "can be caught". ``stopped``: a move far from
    the chase, in the middle of it: the stones got away because the kid stopped chasing, which the words say."""
    own = puzzle.wrong.get(reason or "") if puzzle.wrong else None
    if _lesson_text(own, lang):
        return _lesson_text(own, lang)
    if taken and reason in ("dies", "captured-you", "loses-race", "cut"):
        return _("Oh no, your stones were caught. Try again!")
    if stopped and reason == "escapes":
        return _("You stopped chasing, so it ran away! Keep chasing it, every move.")
    return REASONS.get(reason or "", REASONS["unknown"])()


def illegal(reason: str | None) -> str:
    return ILLEGAL.get(reason or "", ILLEGAL["off-board"])()


def keep_going(ko: bool = False) -> str:
    """After a move the line goes on from; ``ko``: it wins only through a ko now (the opponent can fight it), so it
    is not praised as a good move."""
    if ko:
        return _("Careful: now it is a ko fight. Keep going!")
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


# ---------------------------------------------------------------------- playing a game (the play pages)
GAME_ILLEGAL = {
    "occupied": lambda: _("There is already a stone there. Pick an empty point!"),
    "suicide": lambda: _("This point has no roads left: you cannot play here."),
    "ko": lambda: _("A stone was just taken here: play somewhere else first, then you may take back."),
    "superko": lambda: _("That would bring back the same board again, so it is not allowed."),
    "game-over": lambda: _("This game is over."),
}


def game_illegal(reason: str | None) -> str:
    """Why the rules refuse a move in a game, in kid words."""
    return GAME_ILLEGAL.get(reason or "", ILLEGAL["off-board"])()


def game_over() -> str:
    return _("This game is over. Start a new one!")


def counting_now() -> str:
    return _("We are counting now: tap the dead stones, then press done.")


def board_changed() -> str:
    return _("The board changed (another tap or another window): here it is now.")


def not_your_turn() -> str:
    return _("Wait a moment: it is not your turn.")


def computer_failed() -> str:
    return _("The computer got stuck thinking. Please try that move again.")


def computer_passed(name: str) -> str:
    """``name``: the computer's character (Little Mouse…), as everywhere else in the game."""
    return _("%(name)s passed. If you think the game is finished, pass too.", name=name)


def computer_passed_too(name: str) -> str:
    return _("%(name)s passed too: the game is over. Now we count: tap the dead stones, then press done.", name=name)


def computer_plays_on(name: str) -> str:
    return _("You passed, but %(name)s plays on: there is still something to play for.", name=name)


def player_passed(name: str) -> str:
    return _("%(name)s passed. If the game is finished, pass too.", name=name)


def computer_disagrees(name: str, holds: str = "alive") -> str:
    """The computer refuses a tap while counting: it holds the tapped stones ``alive`` (the kid's opponent's),
    ``dead`` (the kid's own, which it proposed as caught) or ``yours`` (the kid's own, alive: they count for the kid)."""
    if holds == "dead":
        return _("%(name)s does not agree: those stones of yours are caught. Think they can get away? Keep playing!",
                 name=name)
    if holds == "yours":
        return _("%(name)s says: those stones of yours are alive, and they count for you!", name=name)
    return _("%(name)s does not agree: those stones are alive. Think you can capture them? Keep playing!", name=name)


def tap_a_stone() -> str:
    return _("Tap a stone to mark it dead or alive.")
