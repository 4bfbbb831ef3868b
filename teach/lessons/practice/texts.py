"""The kid-facing words of practice puzzles, kept as data in ``texts.yaml`` (both languages side by side, so a
translator edits one file) and read once per process."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from teach.go.game import BLACK
from teach.lessons.model import Text

TEXTS = Path(__file__).with_name("texts.yaml")


@cache
def _data() -> dict:
    import yaml

    return yaml.safe_load(TEXTS.read_text(encoding="utf-8"))


def _form(value: str | dict, count: int) -> str:
    if isinstance(value, dict):
        return value["one"] if count == 1 else value["many"]
    return value


def say(key: str, color: int | None = None, count: int = 1) -> dict[str, str]:
    """The text ``key`` as a lesson file writes it (``{"zh": ..., "en": ...}``), ``{stones}`` filled with
    ``count`` stones of ``color``. A new mapping every call: a YAML dump would write one shared twice as an
    alias, and the sets must print the same as they always have."""
    words = _data()["texts"][key]
    out = {}
    for lang in ("zh", "en"):
        text = _form(words[lang], count)
        if color is not None:
            stones = _data()["stones"]["black" if color == BLACK else "white"][lang]
            text = text.format(stones=_form(stones, count))
        out[lang] = text
    return out


def drill_names(language: str) -> dict[str, str]:
    """Each drill's name in ``language`` (``zh...`` or ``en``), for the practice and homework pages."""
    return {drill: Text(entry["zh"], entry["en"]).get(language) for drill, entry in _data()["drills"].items()}


def drill_pictures() -> dict[str, str]:
    """Each drill's picture (a glyph) on the practice pages."""
    return {drill: entry["picture"] for drill, entry in _data()["drills"].items()}
