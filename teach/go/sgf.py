"""A small, careful reader and writer for SGF FF[4] game records.

Why not sgfmill: its errors carry no offset or property name, its move loader
refuses setup properties after the root, and it has no size limit.  This module
only turns SGF text into a tree of :class:`Node` objects (and back); what the
properties *mean* is left to the callers, apart from the point helpers at the end.

Design decisions, so that nobody has to rediscover them:

* **Charset.**  The record is decoded to ``str`` *before* it is parsed.  Parsing
  raw bytes is wrong for GBK/GB18030/Shift-JIS, whose second bytes may be 0x5C
  (backslash) or 0x5D (``]``): a byte-level scanner would end or escape values in
  the middle of a Chinese or Japanese character.  The charset is chosen as follows:
  an explicit ``encoding=`` wins; otherwise the root's ``CA`` value, which we find
  by tokenising only the root node of a latin-1 view of the bytes (every byte maps
  to one char, and everything up to and including the ``CA`` value is ASCII in
  practice); GB2312/GBK/CP936 and friends are read as GB18030, their superset;
  an unknown or non-ASCII-compatible name counts as no ``CA``.  Without a usable
  ``CA`` we try UTF-8, then GB18030, then latin-1 (which always decodes).  Latin-1
  text is often valid GB18030 as well, and then a byte such as 0xE9 can swallow
  a following ``]``; so non-UTF-8 input is parsed both as GB18030 and as latin-1,
  and GB18030 is kept unless the latin-1 reading finds more nodes and values (a
  swallowed ``]`` merges structure, it never creates any).  Latin-1 text whose
  structure survives either reading still comes out as GB18030 mojibake; that is
  the price of putting Chinese first.  A declared ``CA`` that does not decode is
  treated like a missing one (files lie about ``CA`` a lot).
* **Offsets** in errors and ``Node.offset`` refer to the caller's input: byte
  offsets for ``bytes`` input (a UTF-8 BOM counts), char offsets for ``str``.
  They are computed by re-encoding the decoded text, which is exact for UTF-8,
  GB18030 and latin-1.
* **Tolerance.**  Junk before the first ``(`` and after the last game tree is
  ignored; after a game tree, anything other than another ``(`` ends the
  collection.  Lowercase letters inside identifiers (FF[1-3] ``AddBlack``) are
  dropped.  Repeated properties in one node are merged.  Everything else that
  breaks the grammar is an :class:`SGFError`.
* **No recursion**, so 10,000 nested variations neither overflow the stack nor
  slow down; all scanning is done by (possessive, non-backtracking) regexes.
"""

from __future__ import annotations

import codecs
import functools
import re
from collections.abc import Iterator

__all__ = [
    "MAX_SGF_BYTES",
    "Node",
    "SGFError",
    "decode_point",
    "decode_point_list",
    "encode_point",
    "parse",
    "parse_one",
    "serialize",
    "to_bytes",
]

MAX_SGF_BYTES = 1_000_000

# Point letters: FF[4] allows a-z then A-Z (52x52); we stop at 25, the GTP limit.
MIN_POINT_SIZE, MAX_POINT_SIZE = 2, 25


class SGFError(ValueError):
    """A record that cannot be read, with the offset and property where it went wrong.

    ``offset`` is a byte offset for ``bytes`` input and a char offset for ``str``
    input.  ``prop`` is the property the problem is in, or, for structural
    problems (a missing ``)``, an empty game tree, ...), the last property read
    before it, which is what a person looking for the spot needs.
    """

    def __init__(
        self,
        message: str,
        *,
        offset: int | None = None,
        prop: str | None = None,
        after_prop: bool = False,
    ) -> None:
        self.message = message
        self.offset = offset
        self.prop = prop
        self.after_prop = after_prop
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.offset is not None:
            where += f" at offset {self.offset}"
        if self.prop is not None:
            where += f" (after property {self.prop})" if self.after_prop else f" in property {self.prop}"
        return f"SGF error{where}: {self.message}"

    def __str__(self) -> str:
        return self._render()

    def __reduce__(self):  # keep offset and prop through pickling (e.g. to a worker process)
        return _rebuild_error, (self.message, self.offset, self.prop, self.after_prop)


def _rebuild_error(message: str, offset: int | None, prop: str | None, after_prop: bool) -> SGFError:
    return SGFError(message, offset=offset, prop=prop, after_prop=after_prop)


# ---------------------------------------------------------------------------
# The tree


class Node:
    """One SGF node: its properties (decoded text) and its child variations.

    ``props`` maps an identifier such as ``"B"`` to its list of values, in the
    order they appeared.  The first child is the main line.
    """

    __slots__ = ("props", "children", "parent", "offset")

    def __init__(self, props: dict[str, list[str] | str] | None = None) -> None:
        self.props: dict[str, list[str]] = {}
        self.children: list[Node] = []
        self.parent: Node | None = None
        self.offset: int | None = None  # where the node's ';' was in the parsed input
        for ident, values in (props or {}).items():
            self.set(ident, values)

    def get(self, ident: str, default: str | None = None) -> str | None:
        """The first value of a property, or ``default`` when it is absent."""
        values = self.props.get(ident)
        return values[0] if values else default

    def get_all(self, ident: str) -> list[str]:
        """All values of a property (a new list; empty when absent)."""
        return list(self.props.get(ident, ()))

    def set(self, ident: str, values: list[str] | str) -> None:
        """Set a property, replacing any earlier values; a lone ``str`` is one value."""
        _check_ident(ident)
        values = [values] if isinstance(values, str) else list(values)
        if not values:
            raise SGFError("a property needs at least one value (use remove() to delete it)", prop=ident)
        if not all(isinstance(value, str) for value in values):
            raise SGFError("property values must be str", prop=ident)
        self.props[ident] = values

    def remove(self, ident: str) -> None:
        """Delete a property if present."""
        self.props.pop(ident, None)

    def add_child(self) -> Node:
        """Append a new, empty child node (a new variation if there already is one)."""
        child = Node()
        child.parent = self
        self.children.append(child)
        return child

    def main_line(self) -> list[Node]:
        """This node and its first children, down to a leaf."""
        line = [self]
        node = self
        while node.children:
            node = node.children[0]
            line.append(node)
        return line

    def walk(self) -> Iterator[Node]:
        """Every node of this subtree in document order (pre-order), without recursion."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def __repr__(self) -> str:
        shown = "".join(f"{ident}[{']['.join(values)}]" for ident, values in list(self.props.items())[:4])
        more = "..." if len(self.props) > 4 else ""
        return f"<Node ;{shown}{more} children={len(self.children)}>"


_IDENT_RE = re.compile(r"[A-Z]+")


def _check_ident(ident: object) -> None:
    if not isinstance(ident, str) or not _IDENT_RE.fullmatch(ident):
        raise SGFError(f"property identifier {ident!r} must be uppercase letters A-Z", prop=str(ident))


# ---------------------------------------------------------------------------
# Tokens.  The hot path is one regex match per node (the node's ';' together with
# all its well-formed properties), so the Python loop runs per node, not per char.
# Possessive quantifiers (Python 3.11+) never backtrack: an unterminated 1 MB
# comment fails in linear time.

_VALUE = r"\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\]"  # '[' ... ']' honouring backslash escapes
_PROPERTY = rf"\s*+[A-Za-z]++(?:\s*+{_VALUE})++"

# Skip whitespace, then one token:
#   group 1      ';' starting a node, with
#   groups 2, 3  the identifier and value of a one-move node such as ";B[dd]" (the
#                common case, a fast path: one plain value, nothing to unescape), or
#   group 4      the text of all its well-formed properties otherwise;
#   group 5      '(' or ')';
#   group 6      any other char: always an error (a stray char, or the start of a
#                malformed property), diagnosed by _Parser.stray().
_TOKEN_RE = re.compile(
    rf"\s*+(?:(;)(?:\s*+([A-Z]++)\[([^\\\]\r]*+)\]\s*+(?=[;()])|((?:{_PROPERTY})*+))|([()])|(.))", re.S
)
_PROPERTY_RE = re.compile(rf"\s*+([A-Za-z]++)((?:\s*+{_VALUE})++)", re.S)
_VALUE_RE = re.compile(r"\[([^\\\]]*+(?:\\.[^\\\]]*+)*+)\]", re.S)
_IDENT_AT_RE = re.compile(r"[A-Za-z]++")
_SPACED_VALUE_RE = re.compile(rf"\s*+{_VALUE}", re.S)
_OPEN_VALUE_RE = re.compile(r"\s*+\[")
_SPACE_RE = re.compile(r"\s*+")
# A backslash escape; a backslash before a line break is a soft break and vanishes.
_ESCAPE_RE = re.compile(r"\\(\r\n|\r|\n|.)", re.S)


def _unescape_one(match: re.Match[str]) -> str:
    char = match.group(1)
    return "" if char[0] in "\r\n" else char


def _decode_value(raw: str) -> str:
    """Process text escapes and normalise line breaks to ``\\n``."""
    if "\\" in raw:
        raw = _ESCAPE_RE.sub(_unescape_one, raw)
    if "\r" in raw:
        raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    return raw


def _shorten(text: str, limit: int = 20) -> str:
    """Keep junk that looks like an identifier from flooding error messages."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _clean_ident(raw_ident: str) -> str:
    """FF[1-3] wrote identifiers like ``AddBlack``; only the capitals count (``AB``)."""
    return raw_ident if raw_ident.isupper() else "".join(c for c in raw_ident if c.isupper())


class _Parser:
    """Parses decoded SGF text.  ``to_input_offset`` maps text offsets back to the caller's input."""

    def __init__(self, text: str, to_input_offset, lenient: bool = False) -> None:
        self.text = text
        self.to_input_offset = to_input_offset
        self.lenient = lenient
        self.truncated = False  # lenient parse closed trees that the input left open
        self.nodes: list[Node] = []  # every node, in input order (for offsets and error context)

    # -- errors

    def last_prop(self) -> str | None:
        """The identifier of the last property read, to tell people where a structural error is."""
        for node in reversed(self.nodes):
            if node.props:  # re-read its text: dict order hides which repeated property came last
                match = _TOKEN_RE.match(self.text, node.offset)
                if match.group(2):  # a one-move node
                    return match.group(2)
                return _shorten(_clean_ident(_PROPERTY_RE.findall(match.group(4))[-1][0]))
        return None

    def error(self, message: str, pos: int, prop: str | None = None) -> SGFError:
        """An error in property ``prop``, or, if none is given, after the last property read."""
        after = prop is None
        prop = self.last_prop() if after else prop
        return SGFError(message, offset=self.to_input_offset(pos), prop=prop, after_prop=after and prop is not None)

    # -- grammar

    def collection(self) -> list[Node]:
        text = self.text
        pos = text.find("(")
        roots: list[Node] = []
        if pos < 0:
            return roots  # no game tree at all: parse() gives [], parse_one() complains
        while pos < len(text) and text[pos] == "(":
            root, pos = self.game_tree(pos)
            roots.append(root)
            pos = _SPACE_RE.match(text, pos).end()
        return roots  # whatever follows the last tree is ignored

    def game_tree(self, open_pos: int) -> tuple[Node, int]:
        """Parse the game tree whose '(' is at ``open_pos``; return its root and the offset after ')'."""
        text = self.text
        nodes = self.nodes
        # One entry per open '(': its offset and the node its first node hangs from.
        stack: list[tuple[int, Node | None]] = [(open_pos, None)]
        current: Node | None = None  # last node of the innermost open sequence
        root: Node | None = None
        awaiting_node = True  # just after '(': a sequence must start with ';'
        after_variation = False  # a ')' closed a variation: only '(' or ')' may follow
        pos = open_pos + 1
        while True:
            match = _TOKEN_RE.match(text, pos)
            if match is None:  # only whitespace left
                if self.lenient and root is not None:
                    self.truncated = True
                    return root, len(text)
                opened = self.to_input_offset(stack[-1][0])
                raise self.error(f"missing ')': the game tree opened at offset {opened} is never closed", len(text))
            pos = match.end()
            semicolon, simple_ident, simple_value, props_text, paren, other = match.groups()
            if semicolon:
                if after_variation:
                    raise self.error("node after a variation; variations must come last in a game tree", match.start(1))
                node = Node.__new__(Node)  # skip __init__'s checks: the regex validated the text
                if simple_ident:
                    node.props = {simple_ident: [simple_value]}
                elif props_text:
                    node.props = self.properties(props_text, match.start(4))
                else:
                    node.props = {}
                node.children = []
                node.parent = current
                node.offset = match.start(1)
                nodes.append(node)
                if current is None:
                    root = node
                else:
                    current.children.append(node)
                current = node
                awaiting_node = False
            elif paren == "(":
                if awaiting_node:
                    raise self.error("game tree with no nodes (expected ';' after '(')", pos - 1)
                stack.append((pos - 1, current))
                awaiting_node = True
                after_variation = False
            elif paren == ")":
                if awaiting_node:
                    raise self.error("game tree with no nodes", stack[-1][0])
                _, current = stack.pop()
                if not stack:
                    assert root is not None
                    return root, pos
                after_variation = True
            else:
                raise self.stray(other, pos - 1, awaiting_node, after_variation)

    def properties(self, props_text: str, base: int) -> dict[str, list[str]]:
        """The properties of one node; ``props_text`` was already matched by the node pattern."""
        props: dict[str, list[str]] = {}
        for raw_ident, values_text in _PROPERTY_RE.findall(props_text):
            ident = raw_ident if raw_ident.isupper() else _clean_ident(raw_ident)
            if not ident:
                raise self.lowercase_ident(props_text, base)
            if "\\" in values_text or "\r" in values_text:
                values = [_decode_value(raw) for raw in _VALUE_RE.findall(values_text)]
            else:
                values = _VALUE_RE.findall(values_text)
            if ident in props:
                props[ident].extend(values)  # tolerated: merge a repeated property
            else:
                props[ident] = values
        return props

    def lowercase_ident(self, props_text: str, base: int) -> SGFError:
        """The error for the first identifier in ``props_text`` without capitals (findall lost its offset)."""
        for match in _PROPERTY_RE.finditer(props_text):
            if not _clean_ident(match.group(1)):
                raw_ident = _shorten(match.group(1))
                where = base + match.start(1)
                return self.error(f"property identifier {raw_ident!r} has no uppercase letters", where, raw_ident)
        raise AssertionError("lowercase_ident() called without a lowercase identifier")

    def stray(self, char: str, pos: int, awaiting_node: bool, after_variation: bool) -> SGFError:
        """The error for a char that does not start a node, a variation or a well-formed property."""
        if char == "[":
            inside_node = not (awaiting_node or after_variation)
            after_value = self.text[:pos].rstrip().endswith("]")
            if inside_node and after_value and _SPACED_VALUE_RE.match(self.text, pos) is None:
                # B[aa][bb... : the node pattern took B[aa] and stopped at the broken value.
                return self.error("unterminated value (no closing ']')", pos, self.last_prop())
            return self.error("property value without identifier", pos)
        if not ("A" <= char <= "Z" or "a" <= char <= "z"):
            return self.error(f"unexpected character {char!r}", pos)
        full_ident = _IDENT_AT_RE.match(self.text, pos).group()
        ident, raw_ident = _clean_ident(full_ident), _shorten(full_ident)
        if awaiting_node:
            return self.error(f"expected ';' to start a node, found property {raw_ident}", pos)
        if after_variation:
            return self.error(f"property {raw_ident} after a variation; properties belong in a node", pos)
        if not ident:
            return self.error(f"property identifier {raw_ident!r} has no uppercase letters", pos, raw_ident)
        ident = _shorten(ident)
        # The node pattern stopped at this property, so one of its values is broken.
        value_pos = pos + len(full_ident)
        opening = _OPEN_VALUE_RE.match(self.text, value_pos)
        if opening is None:
            return self.error("property has no value", pos, ident)
        while True:  # skip the good values to point at the bad one
            value = _SPACED_VALUE_RE.match(self.text, value_pos)
            if value is None:
                break
            value_pos = value.end()
        opening = _OPEN_VALUE_RE.match(self.text, value_pos)
        assert opening is not None  # else the node pattern would have matched this property
        return self.error("unterminated value (no closing ']')", opening.end() - 1, ident)


# ---------------------------------------------------------------------------
# Charsets

# Names that mean "some GB encoding"; GB18030 decodes all of them.  Keys are the
# name lowercased with everything but letters and digits removed.
_GB_NAMES = {"gb2312", "gb231280", "gbk", "cp936", "ms936", "windows936", "euccn", "xgbk", "gb18030", "936"}
# A codec we use must agree with ASCII on every char that structures SGF.
_ASCII_PROBE = "();[]\\:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \t\r\n+-."
_UTF8_BOM = b"\xef\xbb\xbf"


def _normalise_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _codec_for(name: str) -> str | None:
    """The Python codec for a charset name, or None if unknown or unusable for SGF."""
    if _normalise_name(name) in _GB_NAMES:
        return "gb18030"
    try:
        codec = codecs.lookup(name.strip()).name
    except LookupError:
        return None
    return codec if _ascii_compatible(codec) else None


@functools.lru_cache(maxsize=64)
def _ascii_compatible(codec: str) -> bool:
    """Whether a codec is a text codec that writes SGF's structural chars as ASCII does."""
    try:
        # bytes.decode refuses non-text codecs such as 'hex' or 'rot13'.
        return b"".decode(codec) == "" and _ASCII_PROBE.encode(codec) == _ASCII_PROBE.encode("ascii")
    except (LookupError, ValueError, UnicodeError):
        return False


def _explicit_codec(encoding: str) -> str:
    """The codec for an ``encoding=`` argument: any text codec, GB names widened to GB18030."""
    if _normalise_name(encoding) in _GB_NAMES:
        return "gb18030"
    try:
        codec = codecs.lookup(encoding).name
        b"".decode(codec)  # rejects non-text codecs
    except LookupError:
        raise SGFError(f"unknown text encoding {encoding!r}") from None
    return codec


def _root_charset(data: bytes) -> str | None:
    """The CA value of the first root node, read from a latin-1 view of the bytes.

    Latin-1 maps each byte to one char, so this is a byte-level scan.  The node
    pattern stops at the first malformed property (say, a GBK name whose second
    byte is ']'), so a CA written after such a value may be missed; the caller
    then guesses, which finds GB18030 anyway.
    """
    text = data.decode("latin-1")
    pos = text.find("(")
    if pos < 0:
        return None
    match = _TOKEN_RE.match(text, pos + 1)
    if match is None or not match.group(1):
        return None
    if match.group(2):  # a root with a single plain property
        props = {match.group(2): [match.group(3)]}
    else:
        try:
            props = _Parser(text, lambda offset: offset).properties(match.group(4) or "", match.start(4))
        except SGFError:
            return None
    values = props.get("CA")
    return values[0].strip() if values else None


class _Source:
    """Decoded text plus the mapping from text offsets back to input offsets."""

    def __init__(self, text: str, codec: str | None, prefix: int) -> None:
        self.text = text
        self.codec = codec  # None: the input was str, offsets are char offsets
        self.prefix = prefix  # length of the stripped BOM, in input units
        # Offsets need no re-encoding for str input and for ASCII text in an ASCII-like codec.
        self.identity = codec is None or (text.isascii() and _ascii_compatible(codec))

    def to_input_offset(self, pos: int) -> int:
        if self.identity:
            return self.prefix + pos
        return self.prefix + len(self.text[:pos].encode(self.codec, "replace"))

    def fix_node_offsets(self, nodes: list[Node]) -> None:
        """Turn the nodes' text offsets into input offsets in one linear sweep."""
        if self.identity:
            if self.prefix:
                for node in nodes:
                    node.offset += self.prefix
            return
        previous, total = 0, self.prefix
        for node in nodes:  # parse order is offset order
            total += len(self.text[previous : node.offset].encode(self.codec, "replace"))
            previous = node.offset
            node.offset = total


def _check_size(data: bytes | str) -> None:
    if isinstance(data, str):
        # A str can only be over the limit if it has more than limit/4 chars.
        size = len(data.encode("utf-8", "surrogatepass")) if len(data) * 4 > MAX_SGF_BYTES else len(data)
    else:
        size = len(data)
    if size > MAX_SGF_BYTES:
        raise SGFError(f"SGF record is {size:,} bytes; the limit is {MAX_SGF_BYTES:,}")


def _decode_error(codec: str, exc: UnicodeDecodeError, prefix: int) -> SGFError:
    return SGFError(f"the record is not valid {codec}: {exc.reason}", offset=prefix + exc.start)


def _parse_source(source: _Source, lenient: bool = False) -> list[Node]:
    return _parse_counting(source, lenient)[0]


def _parse_counting(source: _Source, lenient: bool = False) -> tuple[list[Node], int]:
    """The game trees, and how much structure (nodes plus values) the parse found."""
    parser = _Parser(source.text, source.to_input_offset, lenient)
    roots = parser.collection()
    source.fix_node_offsets(parser.nodes)
    return roots, len(parser.nodes) + sum(len(values) for node in parser.nodes for values in node.props.values())


def _parse_bytes(data: bytes, encoding: str | None, lenient: bool = False) -> list[Node]:
    prefix = 0
    if data.startswith(_UTF8_BOM):
        data, prefix = data[len(_UTF8_BOM) :], len(_UTF8_BOM)

    if encoding is not None:  # the caller knows best; a decoding failure is their error
        codec = _explicit_codec(encoding)
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as exc:
            raise _decode_error(codec, exc, prefix) from None
        return _parse_source(_Source(text, codec, prefix), lenient)

    if data.isascii():  # every ASCII-compatible charset reads it the same way
        return _parse_source(_Source(data.decode("ascii"), "ascii", prefix), lenient)

    declared = _root_charset(data)
    codec = _codec_for(declared) if declared else None
    if codec is not None:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            pass  # CA lies: guess as if there were none
        else:
            return _parse_source(_Source(text, codec, prefix), lenient)

    return _parse_guessing(data, prefix, lenient)


def _parse_guessing(data: bytes, prefix: int, lenient: bool = False) -> list[Node]:
    """Parse bytes of unknown charset: UTF-8, else GB18030, else latin-1."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:  # valid UTF-8 with non-ASCII bytes is never an accident, so its errors are real
        return _parse_source(_Source(text, "utf-8", prefix), lenient)

    # Latin-1 text is often valid GB18030 too, and then a byte such as 0xE9 swallows
    # the ']' after it: "C[caf\xe9];B[aa]" reads as one comment 'caf閉;B[aa'.  Real
    # GBK read as latin-1 breaks the same way when a second byte is ']' or '\'.
    # A wrong reading merges values and nodes but never creates them, so we parse
    # both ways and keep the one that finds more structure, GB18030 on a tie.
    readings: list[tuple[int, int, list[Node]]] = []
    errors: list[SGFError] = []
    for preference, codec in enumerate(("gb18030", "latin-1")):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        try:
            roots, structure = _parse_counting(_Source(text, codec, prefix), lenient)
        except SGFError as exc:
            errors.append(exc)
            continue
        readings.append((structure, -preference, roots))
    if readings:
        return max(readings)[2]
    raise errors[0]  # the GB18030 error if it decoded, else latin-1's


# ---------------------------------------------------------------------------
# Public reading API


def parse(data: bytes | str, *, encoding: str | None = None, lenient: bool = False) -> list[Node]:
    """Parse an SGF collection: one root :class:`Node` per game tree.

    ``bytes`` are decoded as described in the module docstring; ``encoding``
    forces a codec (it is ignored for ``str`` input, which is already decoded).
    Input without any '(' yields ``[]``.  Raises :class:`SGFError` on any problem.
    ``lenient`` closes game trees left open at the end of the input (truncated files) instead of failing.
    """
    if not isinstance(data, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"SGF data must be bytes or str, not {type(data).__name__}")
    _check_size(data)
    if isinstance(data, str):
        prefix = 1 if data.startswith("\ufeff") else 0
        return _parse_source(_Source(data[prefix:], None, prefix), lenient)
    return _parse_bytes(bytes(data), encoding, lenient)


def parse_one(data: bytes | str, *, encoding: str | None = None, lenient: bool = False) -> Node:
    """The root of the first game tree; :class:`SGFError` if there is none."""
    roots = parse(data, encoding=encoding, lenient=lenient)
    if not roots:
        raise SGFError("no game tree found (an SGF record starts with '(;')")
    return roots[0]


# ---------------------------------------------------------------------------
# Writing


def _escape_value(value: str) -> str:
    value = value.replace("\\", "\\\\").replace("]", "\\]")
    if "\r" in value:  # the reader would normalise them; keep round trips exact
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value


def _node_text(node: Node, override: dict[str, list[str]] | None = None) -> str:
    props = node.props if override is None else _with_override(node.props, override)
    parts = [";"]
    for ident, values in props.items():
        _check_ident(ident)
        if not values:
            raise SGFError("property has no values", prop=ident)
        parts.append(ident)
        for value in values:
            parts.append(f"[{_escape_value(value)}]")
    return "".join(parts)


def _with_override(props: dict[str, list[str]], override: dict[str, list[str]]) -> dict[str, list[str]]:
    """``props`` with ``override`` applied: replaced in place, else added after a leading GM/FF."""
    result: dict[str, list[str]] = {}
    pending = {ident: values for ident, values in override.items() if ident not in props}
    for ident, values in props.items():
        if pending and ident not in ("GM", "FF"):
            result.update(pending)
            pending = {}
        result[ident] = override.get(ident, values)
    result.update(pending)
    return result


def _serialize(roots: Node | list[Node], root_override: dict[str, list[str]] | None = None) -> str:
    if isinstance(roots, Node):
        roots = [roots]
    out: list[str] = []
    close = object()  # stack marker for ')'
    for root in roots:
        stack: list[object] = [root]
        while stack:
            item = stack.pop()
            if item is close:
                out.append(")\n")
                continue
            # Start a game tree: '(' and then its sequence, as long as there is a single child.
            out.append("(")
            node = item
            assert isinstance(node, Node)
            while True:
                override = root_override if node is root else None
                out.append(_node_text(node, override))
                out.append("\n")
                if len(node.children) != 1:
                    break
                node = node.children[0]
            stack.append(close)
            stack.extend(reversed(node.children))
    return "".join(out)


def serialize(roots: Node | list[Node]) -> str:
    """SGF text for one game tree or a collection (one node per line)."""
    return _serialize(roots)


def to_bytes(roots: Node | list[Node]) -> bytes:
    """UTF-8 SGF with ``CA[UTF-8]`` written on every root (the nodes themselves are not changed)."""
    return _serialize(roots, {"CA": ["UTF-8"]}).encode("utf-8")


# ---------------------------------------------------------------------------
# Points.  SGF names columns and rows with letters from the top-left corner;
# we use (col, row) with row 0 at the BOTTOM, like GTP and the rules engine.


def _check_point_size(size: int) -> None:
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_POINT_SIZE <= size <= MAX_POINT_SIZE:
        raise SGFError(f"board size must be {MIN_POINT_SIZE} to {MAX_POINT_SIZE} for SGF points, not {size!r}")


def decode_point(value: str, size: int) -> tuple[int, int] | None:
    """SGF point ``"dd"`` -> ``(col, row)`` with row 0 at the bottom; a pass -> None."""
    _check_point_size(size)
    if not isinstance(value, str):
        raise SGFError(f"point {value!r} is not a str")
    if value == "" or (value == "tt" and size <= 19):
        return None
    if len(value) != 2 or not ("a" <= value[0] <= "z" and "a" <= value[1] <= "z"):
        raise SGFError(f"malformed point {value!r} (expected two letters a-z)")
    col, row_from_top = ord(value[0]) - 97, ord(value[1]) - 97
    if col >= size or row_from_top >= size:
        raise SGFError(f"point {value!r} is off the {size}x{size} board")
    return col, size - 1 - row_from_top


def encode_point(col_row: tuple[int, int] | None, size: int) -> str:
    """``(col, row)`` with row 0 at the bottom -> SGF point; None (a pass) -> ``""``."""
    _check_point_size(size)
    if col_row is None:
        return ""
    try:
        col, row = col_row
    except (TypeError, ValueError):
        raise SGFError(f"point {col_row!r} is not a (col, row) pair") from None
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < size for n in (col, row)):
        raise SGFError(f"point {col_row!r} is off the {size}x{size} board")
    return chr(97 + col) + chr(97 + size - 1 - row)


def decode_point_list(values: list[str], size: int) -> list[tuple[int, int]]:
    """Points of a list property such as AB/AW/AE/TR, expanding ``"aa:cc"`` rectangles.

    The result is in input order without duplicates.  Empty values (FF[4]
    "elist") and passes contribute nothing.
    """
    if isinstance(values, str):
        values = [values]
    points: dict[tuple[int, int], None] = {}  # an ordered set
    for value in values:
        if ":" not in value:
            point = decode_point(value, size)
            if point is not None:
                points[point] = None
            continue
        first, _, second = value.partition(":")
        try:
            corner_a, corner_b = decode_point(first, size), decode_point(second, size)
        except SGFError as exc:
            raise SGFError(f"malformed point rectangle {value!r}: {exc.message}") from None
        if corner_a is None or corner_b is None:
            raise SGFError(f"malformed point rectangle {value!r} (a corner is empty or a pass)")
        # FF[4] wants upper-left:lower-right; accept the corners in any order.
        cols = range(min(corner_a[0], corner_b[0]), max(corner_a[0], corner_b[0]) + 1)
        rows = range(max(corner_a[1], corner_b[1]), min(corner_a[1], corner_b[1]) - 1, -1)
        for row in rows:  # top to bottom, left to right: reading order
            for col in cols:
                points[(col, row)] = None
    return list(points)
