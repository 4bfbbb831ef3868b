"""The set: ``count`` steps of one drill and level, drawn so that the same arguments give the same puzzles on any
machine, and the key a set's answers are stored under.

Puzzle ``i`` of a set is drawn from its own ``random.Random`` seeded with a string made of the drill, level,
size, seed and ``i`` (string seeds are hashed with SHA-512, so they do not depend on the process or the machine).
A shorter set is a prefix of a longer one, so a teacher can hand a class "seed 42"."""

from __future__ import annotations

import random
from dataclasses import dataclass
from collections.abc import Iterator
from typing import ClassVar

from .drills import atari, capture, escape, liberties
from .ladders import ladder, net

MAKERS = {"liberties": liberties, "atari": atari, "capture": capture, "escape": escape, "ladder": ladder,
          "net": net}
DRILLS = tuple(MAKERS)
LEVELS = (1, 2, 3)
SIZES = (9, 13)
SET_SIZE = 10  # the puzzles of a set on the practice pages and in a teacher's homework
MAX_SEED = 10**9  # seeds a page or a teacher may name: nine digits
MAX_ATTEMPTS = 3000
SEED_VERSION = "teach-practice/1"


class PracticeError(ValueError):
    """A request the generator cannot serve (unknown drill, level or size), or a set it failed to fill."""


@dataclass(frozen=True)
class PracticeKey:
    """One practice set, as its answers are stored (the ``lesson_id`` of its attempts and of its homework):
    ``practice:<drill>:<level>:<seed>``. Without a seed it names the drill and level a teacher picked, before
    the seed the whole class will share is drawn: ``practice:<drill>:<level>``."""

    drill: str
    level: int
    seed: int | None = None

    PREFIX: ClassVar[str] = "practice:"

    def __str__(self) -> str:
        base = f"{self.PREFIX}{self.drill}:{self.level}"
        return base if self.seed is None else f"{base}:{self.seed}"

    @classmethod
    def parse(cls, text: str) -> PracticeKey | None:
        """The key ``text`` spells, or None when it is not one of a real set (a lesson id, a drill or level that
        does not exist, a seed out of range)."""
        if not isinstance(text, str) or not cls.holds(text):
            return None
        parts = text[len(cls.PREFIX):].split(":")
        if len(parts) not in (2, 3) or parts[0] not in DRILLS or not _digits(parts[1]) \
                or int(parts[1]) not in LEVELS:
            return None
        if len(parts) == 2:
            return cls(parts[0], int(parts[1]))
        if not _digits(parts[2]) or int(parts[2]) >= MAX_SEED:
            return None
        return cls(parts[0], int(parts[1]), int(parts[2]))

    @classmethod
    def holds(cls, lesson_id: str) -> bool:
        """Whether a stored lesson id is a practice set's (the stored strings all begin the same way)."""
        return lesson_id.startswith(cls.PREFIX)

    def with_seed(self, seed: int) -> PracticeKey:
        return PracticeKey(self.drill, self.level, seed)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _rng(drill: str, level: int, size: int, seed: int | str, index: int) -> random.Random:
    return random.Random(f"{SEED_VERSION}:{drill}:{level}:{size}:{seed}:{index}")


def _identity(step: dict) -> tuple:
    body = next(iter(step.values()))
    return body["board"], str(body.get("target"))


def generate(drill: str, level: int, seed: int | str, count: int = 10, size: int = 9) -> list[dict]:
    """``count`` practice steps of ``drill`` at ``level`` (1-3) on a ``size`` board, the same for the same
    arguments on any machine. Each step is a lesson-file step mapping (``{"puzzle": ...}`` or ``{"quiz": ...}``)."""
    steps = drawn(drill, level, seed, size)
    if count < 0:
        raise PracticeError("count must not be negative")
    return [next(steps) for _ in range(count)]


def drawn(drill: str, level: int, seed: int | str, size: int = 9) -> Iterator[dict]:
    """The steps of a set one at a time, without end: the first ``count`` are ``generate``'s (each step is drawn
    from its own number's random source, and a step equal to an earlier one is drawn again), so a page can show
    the first puzzle before the others are drawn. The arguments are checked at once."""
    if drill not in MAKERS:
        raise PracticeError(f"unknown practice drill {drill!r}; use one of {', '.join(DRILLS)}")
    if level not in LEVELS:
        raise PracticeError(f"level must be 1, 2 or 3, not {level!r}")
    if size not in SIZES:
        raise PracticeError(f"practice boards are 9x9 or 13x13, not {size!r}")
    return _drawn(MAKERS[drill], drill, level, seed, size)


def _drawn(make, drill: str, level: int, seed: int | str, size: int) -> Iterator[dict]:
    seen: set[tuple] = set()
    i = 0
    while True:
        rng = _rng(drill, level, size, seed, i)
        for _ in range(MAX_ATTEMPTS):
            step = make(rng, level, size)
            if step is not None and _identity(step) not in seen:
                seen.add(_identity(step))
                yield step
                break
        else:
            raise PracticeError(f"could not make a {drill} puzzle at level {level} (seed {seed}, number {i + 1})")
        i += 1
