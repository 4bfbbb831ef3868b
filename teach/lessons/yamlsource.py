"""Safe YAML loading that remembers where every key and value sits, and never raises on bad input.

The file is composed into YAML nodes by the safe loader (no Python objects are ever built), then turned into
plain dicts, lists and scalars here, so duplicate keys, aliases, merge keys and explicit tags can be refused
with their position instead of being silently resolved.
"""

from __future__ import annotations

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .errors import LessonError, Path, ScalarInfo, Source

MAX_BYTES = 1_000_000  # a lesson is a few kilobytes; anything this big is a mistake
MAX_DEPTH = 40

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_PLAIN_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}
_TEXT_TAGS = {_STR, "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"}  # kept as the text written
_KINDS = {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a number", float: "a number",
          type(None): "nothing"}


def kind_of(value: object) -> str:
    return _KINDS.get(type(value), type(value).__name__)


class _Fail(Exception):
    def __init__(self, line: int, column: int, message: str) -> None:
        self.line, self.column, self.message = line, column, message


def _decode(data: bytes) -> str:
    if b"\0" in data:
        offset = data.index(b"\0")
        line = data.count(b"\n", 0, offset)
        column = offset - (data.rfind(b"\n", 0, offset) + 1)
        raise _Fail(line, column, "this is not a text file (it contains a NUL byte)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start)
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1)
        raise _Fail(line, column, "this is not UTF-8 text (save the file as UTF-8)") from None


def _yaml_error(e: yaml.YAMLError, lines: list[str]) -> _Fail:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem = getattr(e, "problem", None) or getattr(e, "reason", None) or str(e).splitlines()[0]
    context = getattr(e, "context", None)
    message = f"{context}: {problem}" if context and problem else (problem or context or "not valid YAML")
    if mark is None:
        return _Fail(0, 0, f"not valid YAML: {message}")
    line = lines[mark.line] if mark.line < len(lines) else ""
    if "\t" in line[:mark.column + 1]:
        return _Fail(mark.line, line.index("\t"), "not valid YAML: a tab character (indent with spaces, not tabs)")
    return _Fail(mark.line, mark.column, f"not valid YAML: {message}")


class _Builder:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.seen: set[int] = set()
        self.constructor = SafeConstructor()

    def build(self, node: yaml.Node, path: Path, depth: int = 0) -> object:
        mark = node.start_mark
        if depth > MAX_DEPTH:
            raise _Fail(mark.line, mark.column, "the data is nested too deeply")
        if id(node) in self.seen:
            raise _Fail(mark.line, mark.column, "anchors and aliases (&, *) are not allowed in lesson files")
        self.seen.add(id(node))
        self.source.marks[path] = (mark.line, mark.column)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in (_MAP, _SEQ):
            raise _Fail(mark.line, mark.column, f"the tag {node.tag} is not allowed in lesson files")
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        return self._scalar(node, path)

    def _mapping(self, node: yaml.MappingNode, path: Path, depth: int) -> dict:
        out: dict[str, object] = {}
        for key_node, value_node in node.value:
            km = key_node.start_mark
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _Fail(km.line, km.column, "merge keys (<<) are not allowed in lesson files")
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS | {_STR}:
                raise _Fail(km.line, km.column, "a key must be a plain name")
            key = key_node.value
            if key in out:
                first = self.source.key_marks[path + (key,)]
                raise _Fail(km.line, km.column, f"duplicate key `{key}` (first written on line {first[0] + 1})")
            self.source.key_marks[path + (key,)] = (km.line, km.column)
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out

    def _scalar(self, node: yaml.ScalarNode, path: Path) -> object:
        mark = node.start_mark
        if node.tag in _TEXT_TAGS:
            self.source.scalars[path] = ScalarInfo(node.style, mark.line, mark.column)
            return node.value
        if node.tag not in _PLAIN_TAGS:
            raise _Fail(mark.line, mark.column, f"the tag {node.tag} is not allowed in lesson files")
        try:
            return self.constructor.construct_object(node, deep=True)
        except (ConstructorError, ValueError, OverflowError):
            raise _Fail(mark.line, mark.column, f"`{node.value[:40]}` is not a usable value") from None


def load_yaml(data: bytes | str, name: str) -> tuple[object, Source, list[LessonError]]:
    """(data, source, errors): the document as plain Python values, or errors (never an exception)."""
    source = Source(name)
    try:
        if isinstance(data, bytes):
            if len(data) > MAX_BYTES:
                raise _Fail(0, 0, f"the file is too large ({len(data)} bytes; a lesson file has at most {MAX_BYTES})")
            text = _decode(data)
        else:
            text = data
            if len(text) > MAX_BYTES:
                raise _Fail(0, 0, f"the file is too large ({len(text)} characters)")
        source.lines = text.splitlines()
        try:
            node = yaml.compose(text, Loader=_Loader)
        except yaml.YAMLError as e:
            raise _yaml_error(e, source.lines) from None
        except RecursionError:
            raise _Fail(0, 0, "the data is nested too deeply") from None
        if node is None:
            raise _Fail(0, 0, "the file is empty")
        value = _Builder(source).build(node, ())
    except _Fail as f:
        return None, source, [LessonError(name, f.line + 1, f.column + 1, f.message)]
    return value, source, []
