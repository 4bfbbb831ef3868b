"""The lesson file schema (JSON Schema) and its errors turned into messages a teacher can act on."""

from __future__ import annotations

import difflib

import jsonschema

from teach.go.judge import GOALS, REASONS

from .errors import LessonError, Source
from .yamlsource import kind_of

ASKS = ("liberties", "forbidden", "atari", "legal", "winner", "count", "tap", "choice")
COLOR = {"enum": ["black", "white"], "x-what": "a colour (black or white)"}
# a GTP point on boards up to 19x19 (column A-T without I, then the row); pages that take points use it too
_POINT = r"[A-HJ-Ta-hj-t](1[0-9]|[1-9])"  # a column without I, a row of 1-19
POINT_PATTERN = rf"^{_POINT}$"
POINT = {"type": "string", "pattern": POINT_PATTERN, "x-what": "a point such as D4"}
MOVE = {"type": "string", "pattern": rf"^({_POINT}|pass)$", "x-what": "a move such as D4 or pass"}
POINTS = {"type": "array", "items": POINT, "x-what": "a list of points such as [D4, E5]"}
POINT_OR_POINTS = {"anyOf": [POINT, POINTS], "x-what": "a point such as D4 or a list of points"}
NONEMPTY = {"type": "string", "minLength": 1, "pattern": r"\S", "x-what": "text"}
TEXT = {"type": "object", "x-what": "a text with `zh` and `en`", "x-text": True,
        "properties": {"zh": NONEMPTY, "en": NONEMPTY}, "required": ["zh", "en"], "additionalProperties": False}
MARKS = {
    "type": "object", "x-what": "marks such as {triangle: [E5]}",
    "properties": {
        "triangle": POINTS, "circle": POINTS, "square": POINTS, "cross": POINTS, "highlight": POINTS,
        "liberties": POINTS,
        "arrows": {"type": "array", "x-what": "a list of arrows such as [[E5, F5]]",
                   "items": {"type": "array", "items": POINT, "minItems": 2, "maxItems": 2,
                             "x-what": "an arrow [from, to]"}},
    },
    "additionalProperties": False,
}
POSITION = {
    "board": {"type": "string", "x-what": "a diagram (write `board: |` and the rows below it)"},
    "anchor": {"enum": ["bottom-left", "bottom-right", "top-left", "top-right"], "x-what": "a corner"},
    "sgf": {"type": "string", "x-what": "an SGF snippet such as (;AB[dd]AW[de])"},
    "marks": MARKS,
}


def _step(properties: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": {**POSITION, **properties}, "required": required,
            "additionalProperties": False, "x-what": "the step's keys"}


EXPLAIN = _step({"text": TEXT}, ["text"])
DEMO = _step({
    "to_play": COLOR,
    "text": TEXT,
    "moves": {"type": "array", "minItems": 1, "x-what": "a list of moves",
              "items": {"anyOf": [MOVE, {"type": "object", "properties": {"move": MOVE, "say": TEXT},
                                         "required": ["move"], "additionalProperties": False}],
                        "x-what": "a move such as D4, or {move: D4, say: {zh: ..., en: ...}}"}},
}, ["moves"])
PUZZLE = _step({
    "to_play": COLOR,
    "goal": {"enum": list(GOALS), "x-what": "a goal"},
    "target": POINT_OR_POINTS,
    "answers": POINTS,
    "text": TEXT,
    "hint": TEXT,
    "success": TEXT,
    "wrong": {"type": "object", "x-what": "messages per reason",
              "properties": {k: TEXT for k in REASONS},
              "additionalProperties": False},
    "ko": {"type": "boolean", "x-what": "true or false"},
}, ["goal", "target", "text"])
QUIZ = _step({
    "ask": {"enum": list(ASKS), "x-what": "a kind of question"},
    "question": TEXT,
    "hint": TEXT,
    "success": TEXT,
    "target": POINT,
    "to_play": COLOR,
    "point": POINT,
    "komi": {"type": "number", "x-what": "a number of points such as 7.5"},
    "dead": POINTS,
    "color": COLOR,
    "answers": POINTS,
    "answer": {"type": ["integer", "number", "boolean", "string"], "x-what": "the answer"},
    "choices": {"type": "array", "items": TEXT, "minItems": 2, "x-what": "a list of texts to choose from"},
}, ["ask", "question"])

STEP = {
    "type": "object", "x-what": "a step such as `- puzzle: {...}`",
    "properties": {"explain": EXPLAIN, "demo": DEMO, "puzzle": PUZZLE, "quiz": QUIZ},
    "additionalProperties": False, "minProperties": 1, "maxProperties": 1,
}
LESSON = {
    "type": "object", "x-what": "a lesson (a mapping with id, topic, steps ...)",
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
               "x-what": "an id in lowercase-kebab such as capture-first-catch"},
        "topic": {"type": "string", "x-what": "a topic id"},
        "order": {"type": "integer", "minimum": 1, "x-what": "a whole number"},
        "level": {"type": "integer", "minimum": 1, "maximum": 5, "x-what": "a level from 1 to 5"},
        "size": {"enum": [9, 13, 19], "x-what": "a board size (9, 13 or 19)"},
        "sticker": {"type": "object", "x-what": "a sticker",
                    "properties": {"id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
                                          "x-what": "a sticker id in lowercase-kebab"},
                                   "picture": {"type": "string", "x-what": "a picture name"},
                                   "name": TEXT},
                    "required": ["id", "picture", "name"], "additionalProperties": False},
        "title": TEXT, "intro": TEXT, "recap": TEXT,
        "steps": {"type": "array", "items": STEP, "minItems": 1, "x-what": "a list of steps"},
    },
    "required": ["id", "topic", "order", "level", "size", "sticker", "title", "intro", "recap", "steps"],
    "additionalProperties": False,
}
CATALOG = {
    "type": "object", "x-what": "the catalog (topics and pictures)",
    "properties": {
        "topics": {"type": "array", "minItems": 1, "x-what": "a list of topics",
                   "items": {"type": "object", "x-what": "a topic {id, title}",
                             "properties": {"id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
                                                   "x-what": "a topic id in lowercase-kebab"},
                                            "title": TEXT},
                             "required": ["id", "title"], "additionalProperties": False}},
        "pictures": {"type": "array", "items": {"type": "string", "x-what": "a picture name"},
                     "x-what": "a list of picture names"},
    },
    "required": ["topics", "pictures"], "additionalProperties": False,
}

_VALIDATORS = {id(s): jsonschema.Draft202012Validator(s) for s in (LESSON, CATALOG, STEP)}


def suggestion(word: str, choices) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f", did you mean `{close[0]}`?" if close else f" (expected one of: {', '.join(map(str, choices))})"


def _what(schema: dict) -> str:
    return schema.get("x-what", "a different value")


def _show(value: object) -> str:
    text = str(value)
    return f"`{text[:40]}{'...' if len(text) > 40 else ''}`"


def _messages(error: jsonschema.ValidationError) -> list[tuple[tuple, str, bool]]:
    """(path, message, at the key) for one validation error; anyOf errors are narrowed to the branch that
    has the value's type."""
    path = tuple(error.absolute_path)
    schema, value, kind = error.schema, error.instance, error.validator
    name = path[-1] if path and isinstance(path[-1], str) else None
    if kind == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        out = []
        for key in value:
            if key not in allowed:
                hint = suggestion(key, allowed)
                if value[key] is None and schema.get("x-text"):
                    hint += " (a comma inside {...} ends the text: put the text in quotes)"
                out.append((path + (key,), f"unknown key `{key}`{hint}", True))
        return out
    if kind == "required":
        missing = [k for k in error.validator_value if k not in value]
        if schema.get("x-text"):
            return [(path, f"missing `{k}`: every text needs both zh (Chinese) and en (English)", False)
                    for k in missing]
        keys = ", ".join(f"`{k}`" for k in missing)
        return [(path, f"missing key{'s' if len(missing) > 1 else ''} {keys}", False)]
    if kind in ("minProperties", "maxProperties") and "explain" in schema.get("properties", {}):
        return [(path, "a step has exactly one kind: explain, demo, puzzle or quiz", False)]
    if kind == "anyOf":
        branches: dict[int, list] = {}
        for sub in error.context or []:
            branches.setdefault(sub.schema_path[0], []).append(sub)
        typed = [subs for subs in branches.values() if not any(s.validator == "type" and
                                                              len(s.absolute_path) == len(error.absolute_path)
                                                              for s in subs)]
        if len(typed) == 1:
            return [m for sub in typed[0] for m in _messages(sub)]
        return [(path, f"expected {_what(schema)}, found {_show(value)}", False)]
    if kind == "type":
        return [(path, f"expected {_what(schema)}, found {kind_of(value)}", False)]
    if kind == "enum":
        allowed = error.validator_value
        return [(path, f"{_show(value)} is not {_what(schema)}{suggestion(value, allowed)}", False)]
    if kind == "pattern":
        if schema is POINT or schema is MOVE:
            return [(path, f"{_show(value)} is not a point: write a column letter (A-T, no I) and a row number, "
                           f"such as D4", False)]
        if schema is NONEMPTY:
            return [(path, "empty text", False)]
        return [(path, f"{_show(value)} is not {_what(schema)}", False)]
    if kind == "minLength":
        return [(path, "empty text", False)]
    if kind in ("minimum", "maximum"):
        return [(path, f"{value} is out of range for {name or 'this value'} ({_what(schema)})", False)]
    if kind == "minItems":
        return [(path, f"needs at least {error.validator_value} entries", False)]
    if kind == "maxItems":
        return [(path, f"has more than {error.validator_value} entries", False)]
    return [(path, error.message, False)]


def validate(data: object, source: Source, schema: dict = LESSON, base: tuple = ()) -> list[LessonError]:
    validator = _VALIDATORS[id(schema)]
    out: list[LessonError] = []
    seen = set()
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        for path, message, at_key in _messages(error):
            if (path, message) in seen:
                continue
            seen.add((path, message))
            out.append(source.error(base + path, message, key=at_key))
    return out
