"""Tests for teach.go.sgf: the SGF FF[4] reader and writer."""

from __future__ import annotations

import ast
import pickle
import random
import re
import sys
from pathlib import Path

import pytest

from teach.go import sgf
from teach.go.sgf import SGFError
from conftest import PEER


def first_difference(a: sgf.Node, b: sgf.Node) -> str | None:
    """Where two trees differ in properties or shape, compared without recursion."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.props != y.props:
            return f"{x.props} != {y.props}"
        if len(x.children) != len(y.children):
            return f"{x!r} has {len(x.children)} children, {y!r} has {len(y.children)}"
        stack.extend(zip(x.children, y.children))
    return None


def assert_same_tree(a: sgf.Node, b: sgf.Node) -> None:
    difference = first_difference(a, b)  # one assert: pytest's rewriting is slow per node
    assert difference is None, difference


def assert_round_trips(roots: list[sgf.Node]) -> None:
    again = sgf.parse(sgf.serialize(roots))
    assert len(again) == len(roots)
    for original, copy in zip(roots, again):
        assert_same_tree(original, copy)


# ---------------------------------------------------------------------------
# Reading


def test_simple_record() -> None:
    root = sgf.parse_one(b"(;GM[1]FF[4]SZ[9]KM[6.5]PB[Ann]PW[Bob];B[ee];W[cc];B[])")
    assert root.props == {"GM": ["1"], "FF": ["4"], "SZ": ["9"], "KM": ["6.5"], "PB": ["Ann"], "PW": ["Bob"]}
    assert list(root.props) == ["GM", "FF", "SZ", "KM", "PB", "PW"]  # insertion order kept
    assert root.get("SZ") == "9"
    assert root.get("HA") is None
    assert root.get("HA", "0") == "0"
    assert root.get_all("PB") == ["Ann"]
    assert root.get_all("AB") == []
    assert root.parent is None
    moves = root.main_line()[1:]
    assert [(n.get("B"), n.get("W")) for n in moves] == [("ee", None), (None, "cc"), ("", None)]
    assert moves[0].parent is root and moves[1].parent is moves[0]


def test_node_offsets_point_at_semicolons() -> None:
    data = b"junk (;GM[1]\n;B[aa] ;W[bb])"
    root = sgf.parse_one(data)
    for node in root.main_line():
        assert data[node.offset : node.offset + 1] == b";"
    assert [n.offset for n in root.main_line()] == [6, 13, 20]


def test_collection_and_junk_around_it() -> None:
    data = b"Saved by SomeClient v1 :-)\n(;GM[1];B[aa])\n(;GM[1];W[bb])\r\n-- end of file (really) --"
    roots = sgf.parse(data)
    assert [r.main_line()[1].props for r in roots] == [{"B": ["aa"]}, {"W": ["bb"]}]


def test_junk_between_trees_ends_the_collection() -> None:
    assert len(sgf.parse(b"(;B[aa]) trailer (;W[bb])")) == 1


def test_whitespace_between_all_tokens() -> None:
    root = sgf.parse_one(b" ( \n ; GM [1] \t AB [aa]\n [bb] ; B\r\n[cc] ( ;W[dd] ) ( ;W[ee] ) ) ")
    assert root.props == {"GM": ["1"], "AB": ["aa", "bb"]}
    assert [c.get("W") for c in root.children[0].children] == ["dd", "ee"]


def test_no_game_tree() -> None:
    assert sgf.parse(b"") == []
    assert sgf.parse("just some text") == []
    with pytest.raises(SGFError, match="no game tree"):
        sgf.parse_one(b"   ")


def test_variations_and_main_line() -> None:
    root = sgf.parse_one(b"(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))")
    line = root.main_line()
    assert [n.get("B") or n.get("W") for n in line[1:]] == ["aa", "bb", "cc", "dd"]
    first_move = root.children[0]
    assert [c.get("W") for c in first_move.children] == ["bb", "ff"]
    assert [c.get("W") for c in line[3].children] == ["dd", "ee"]
    assert first_move.children[1].main_line() == [first_move.children[1]]
    assert line[-1].children == []
    assert [n.get("B") or n.get("W") for n in root.walk()][1:] == ["aa", "bb", "cc", "dd", "ee", "ff"]


def test_old_style_identifiers_drop_lowercase() -> None:
    root = sgf.parse_one(b"(;GaMe[1]AddBlack[aa][bb]Comment[hi])")
    assert root.props == {"GM": ["1"], "AB": ["aa", "bb"], "C": ["hi"]}


def test_duplicate_properties_are_merged() -> None:
    root = sgf.parse_one(b"(;AB[aa]AW[cc]AB[bb])")
    assert root.props == {"AB": ["aa", "bb"], "AW": ["cc"]}


def test_text_escapes() -> None:
    root = sgf.parse_one(
        b"(;C[a \\] b \\\\ c \\: d \\x e]"
        b"GC[soft\\\nbreak and soft\\\r\nbreak]"
        b"N[trailing backslash \\\\]"
        b"AP[Editor\\:Pro:1.2]"
        b"AB[aa:cc])"
    )
    assert root.get("C") == "a ] b \\ c : d x e"
    assert root.get("GC") == "softbreak and softbreak"
    assert root.get("N") == "trailing backslash \\"
    assert root.get("AP") == "Editor:Pro:1.2"  # compose values stay one string
    assert root.get("AB") == "aa:cc"


def test_newlines_are_normalised() -> None:
    root = sgf.parse_one(b"(;C[one\r\ntwo\rthree\nfour])")
    assert root.get("C") == "one\ntwo\nthree\nfour"


def test_str_input() -> None:
    root = sgf.parse_one("\ufeff(;C[围棋 ☺])")
    assert root.get("C") == "围棋 ☺"
    assert root.offset == 2  # char offset into the str, BOM included


# ---------------------------------------------------------------------------
# Charsets


def test_gb18030_record_with_ca_gb2312() -> None:
    # 誠 and 註 encode with a second byte of 0x5C '\\' and 0x5D ']' in GBK/GB18030.
    comment = "黑棋很好。誠實的評註：白棋不行"
    data = f"(;GM[1]FF[4]CA[GB2312]PB[柯洁]C[{comment}];B[pd]C[第二手])".encode("gb18030")
    assert b"\\" in data and data.count(b"]") > 7
    root = sgf.parse_one(data)
    assert root.get("CA") == "GB2312"
    assert root.get("PB") == "柯洁"
    assert root.get("C") == comment
    assert root.children[0].get("C") == "第二手"


def test_gbk_record_without_ca() -> None:
    data = "(;GM[1]PW[聶衛平]C[棋譜評註 誠]\n;W[dd]C[好棋])".encode("gbk")
    root = sgf.parse_one(data)
    assert root.get("PW") == "聶衛平"
    assert root.get("C") == "棋譜評註 誠"
    assert root.children[0].get("C") == "好棋"
    # Offsets stay byte offsets into the input.
    assert data[root.children[0].offset : root.children[0].offset + 3] == b";W["


def test_ca_after_a_gbk_name_with_bracket_byte() -> None:
    # The quick root scan cannot see past 註's 0x5D byte; the fallback still finds GB18030.
    data = "(;PB[註]CA[GBK]C[誠])".encode("gbk")
    root = sgf.parse_one(data)
    assert (root.get("PB"), root.get("CA"), root.get("C")) == ("註", "GBK", "誠")


def test_utf8_with_bom() -> None:
    data = b"\xef\xbb\xbf" + "(;GM[1]CA[UTF-8]C[Schöne Partie 围棋])".encode()
    root = sgf.parse_one(data)
    assert root.get("C") == "Schöne Partie 围棋"
    assert root.offset == 4  # byte offset in the input, BOM included


def test_utf8_without_ca_is_preferred() -> None:
    root = sgf.parse_one("(;C[Größe 大])".encode())
    assert root.get("C") == "Größe 大"


def test_latin1_fallback_when_gb18030_reading_breaks() -> None:
    # In GB18030, 0xE9 0x5D is one character, which would swallow the ']'.
    root = sgf.parse_one(b"(;C[caf\xe9];B[aa])")
    assert root.get("C") == "café"
    assert root.children[0].get("B") == "aa"


def test_declared_latin1() -> None:
    root = sgf.parse_one(b"(;CA[ISO-8859-1]C[h\xf6r du])")
    assert root.get("C") == "hör du"


def test_gbk_that_also_parses_as_latin1_keeps_its_structure() -> None:
    # Read byte by byte, 誠's second byte escapes the ']' and the comment runs on to
    # swallow the next node; the GB18030 reading has more structure and wins.
    data = "(;C[誠];B[aa];W[bb])".encode("gbk")
    root = sgf.parse_one(data)
    assert root.get("C") == "誠"
    assert len(root.main_line()) == 3


def test_ca_as_the_only_root_property() -> None:
    root = sgf.parse_one("(;CA[GBK];C[註])".encode("gbk"))
    assert root.children[0].get("C") == "註"


def test_wrong_ca_falls_back() -> None:
    assert sgf.parse_one("(;CA[UTF-8]C[围棋])".encode("gb18030")).get("C") == "围棋"
    assert sgf.parse_one("(;CA[klingon]C[围棋])".encode("gb18030")).get("C") == "围棋"
    assert sgf.parse_one("(;CA[hex]C[围棋])".encode("utf-8")).get("C") == "围棋"  # not a text codec


def test_explicit_encoding_wins() -> None:
    data = "(;CA[UTF-8]C[囲碁])".encode("shift_jis")
    assert sgf.parse_one(data, encoding="shift_jis").get("C") == "囲碁"
    assert sgf.parse_one("(;C[围棋])".encode("gbk"), encoding="GB2312").get("C") == "围棋"


def test_explicit_encoding_errors() -> None:
    with pytest.raises(SGFError, match="offset 4") as info:
        sgf.parse(b"(;C[\xff])", encoding="utf-8")
    assert info.value.offset == 4
    with pytest.raises(SGFError, match="unknown text encoding"):
        sgf.parse(b"(;C[x])", encoding="no-such-codec")


# ---------------------------------------------------------------------------
# Errors

MALFORMED = [
    # (input, offset, property, words in the message)
    (b"()", 0, None, "game tree with no nodes"),
    (b"(;B[aa]())", 7, "B", "game tree with no nodes"),
    (b"(;GM[1]C[hello", 8, "C", "unterminated value"),
    (b"(;B[aa][bb", 7, "B", "unterminated value"),
    (b"(;B[aa]W[cc][bb", 12, "W", "unterminated value"),
    (b"(;C[ends with backslash\\])", 3, "C", "unterminated value"),
    (b"(;GM[1];B[aa]", 13, "B", "missing ')'"),
    (b"(;GM[1](;B[aa])\n", 16, "B", "missing ')'"),
    (b"(;B[aa](;W[bb])[cc])", 15, "W", "property value without identifier"),
    (b"(;[aa])", 2, None, "property value without identifier"),
    (b"(;B[aa];[bb])", 8, "B", "property value without identifier"),
    (b"(;B[aa];W)", 8, "W", "property has no value"),
    (b"(;B[aa];W ;B[cc])", 8, "W", "property has no value"),
    (b"(;add[aa])", 2, "add", "no uppercase letters"),
    (b"(;B[aa]1)", 7, "B", "unexpected character '1'"),
    (b"(B[aa])", 1, None, "expected ';'"),
    (b"((;B[aa]))", 1, None, "game tree with no nodes"),
    (b"(;B[aa](;W[bb]);W[cc])", 15, "W", "node after a variation"),
]


@pytest.mark.parametrize(("data", "offset", "prop", "words"), MALFORMED, ids=[repr(m[0]) for m in MALFORMED])
def test_malformed_records(data: bytes, offset: int, prop: str | None, words: str) -> None:
    with pytest.raises(SGFError) as info:
        sgf.parse(data)
    err = info.value
    message = str(err)
    assert err.offset == offset
    assert f"offset {offset}" in message
    assert err.prop == prop
    if prop is not None:
        assert f"property {prop}" in message
    assert words in message
    assert isinstance(err, ValueError)


def test_error_message_format() -> None:
    with pytest.raises(SGFError) as info:
        sgf.parse(b"(;GM[1]\n;B[aa\n")
    assert str(info.value) == "SGF error at offset 10 in property B: unterminated value (no closing ']')"


def test_lowercase_identifier_offset_is_exact() -> None:
    with pytest.raises(SGFError) as info:
        sgf.parse(b"(;C[add]add[x])")
    assert (info.value.offset, info.value.prop) == (8, "add")


def test_errors_survive_pickling() -> None:
    with pytest.raises(SGFError) as info:
        sgf.parse(b"(;B[aa];W[bb")
    copy = pickle.loads(pickle.dumps(info.value))
    assert (str(copy), copy.offset, copy.prop) == (str(info.value), 9, "W")


def test_error_offsets_are_byte_offsets_for_multibyte_input() -> None:
    data = "(;C[围棋];B[aa".encode("gb18030")  # each Chinese char is 2 bytes
    with pytest.raises(SGFError) as info:
        sgf.parse(data)
    assert info.value.offset == data.index(b"B[") + 1
    assert info.value.prop == "B"


def test_structural_errors_name_the_last_property_read() -> None:
    with pytest.raises(SGFError, match=r"\(after property AB\)") as info:
        sgf.parse(b"(;AB[aa]C[x]AB[bb]\n1)")  # the dict order alone would say C
    assert info.value.prop == "AB"


def test_missing_paren_names_the_open_tree() -> None:
    with pytest.raises(SGFError, match=r"at offset 22 .*opened at offset 15 is never closed"):
        sgf.parse(b"(;GM[1](;B[aa])(;W[bb]")


def test_junk_identifier_is_shortened_in_messages() -> None:
    with pytest.raises(SGFError) as info:
        sgf.parse(b"(;B[aa]" + b"x" * 10_000 + b")")
    assert len(str(info.value)) < 200


def test_oversize_records_are_refused() -> None:
    too_big = b"(;C[" + b"a" * sgf.MAX_SGF_BYTES + b"])"
    with pytest.raises(SGFError, match=r"SGF record is 1,000,006 bytes; the limit is 1,000,000"):
        sgf.parse(too_big)
    with pytest.raises(SGFError, match="the limit is 1,000,000"):
        sgf.parse("(;C[" + "围" * 400_000 + "])")  # 400,006 chars but 1,200,006 UTF-8 bytes
    exactly = b"(;B[aa])" + b" " * (sgf.MAX_SGF_BYTES - 8)
    assert sgf.parse_one(exactly).children == []


def test_unterminated_huge_value_fails_fast() -> None:
    with pytest.raises(SGFError, match="offset 3 in property C: unterminated"):
        sgf.parse(b"(;C[" + b"x\\]" * 300_000)


def test_deep_nesting_has_no_recursion_limit() -> None:
    depth = 5_000
    data = b"(;GM[1]" + b"(;B[aa];W[bb]" * depth + b")" * (depth + 1)
    root = sgf.parse_one(data)
    assert len(root.main_line()) == 2 * depth + 1
    assert sys.getrecursionlimit() < depth  # the test would be meaningless otherwise
    assert_round_trips([root])


def test_deep_variation_tree_round_trips() -> None:
    # Each level has two variations, so serialize must emit 10,000 nested parentheses.
    root = sgf.Node({"GM": "1"})
    node = root
    for _ in range(10_000):
        node.add_child().set("W", "aa")
        node = node.add_child()
        node.set("B", "bb")
    text = sgf.serialize(root)
    assert text.count("(") == 20_001
    assert_round_trips([root])


def test_mutated_records_parse_or_fail_cleanly() -> None:
    """Seeded fuzzing: any damage gives a tree that round-trips, or an SGFError with a sane offset."""
    samples = [
        "(;GM[1]CA[UTF-8]C[围棋 \\] \\\\ x]AB[aa:bb];B[cc](;W[dd]C[hi\r\nthere])(;W[ee];B[]))".encode(),
        "(;GM[1]PB[誠註]C[評註];B[cc](;W[dd])(;W[ee]))".encode("gbk"),
        b"(;GM[1]C[caf\xe9 cr\xe8me];B[cc](;W[dd])(;W[ee]))",
    ]
    alphabet = b"()[];\\:ABab \n\r\xe9\xd5]\x81"
    rng = random.Random(20240601)
    outcomes = {"parsed": 0, "refused": 0}
    for _ in range(3_000):
        data = bytearray(rng.choice(samples))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            if rng.random() < 0.5:
                del data[at]
            else:
                data.insert(at, rng.choice(alphabet))
        try:
            roots = sgf.parse(bytes(data))
        except SGFError as exc:
            assert exc.offset is not None and 0 <= exc.offset <= len(data), (bytes(data), exc)
            outcomes["refused"] += 1
            continue
        outcomes["parsed"] += 1
        for root in roots:
            assert all(data[n.offset] == ord(";") for n in root.walk()), bytes(data)
        assert_round_trips(roots)
    assert min(outcomes.values()) > 300  # both paths were exercised


# ---------------------------------------------------------------------------
# Building and writing


def test_build_and_serialize() -> None:
    root = sgf.Node()
    root.set("GM", "1")
    root.set("SZ", ["9"])
    root.set("C", "a ] bracket, a \\ backslash, a: colon\nand a second line")
    move = root.add_child()
    move.set("B", "ee")
    assert move.parent is root and root.children == [move]
    assert move.offset is None
    variation = root.add_child()
    variation.set("AB", ["aa", "bb"])
    text = sgf.serialize(root)
    assert "C[a \\] bracket, a \\\\ backslash, a: colon\nand a second line]" in text
    again = sgf.parse_one(text)
    assert_same_tree(root, again)
    assert again.get("C") == root.get("C")


def test_serialize_shape() -> None:
    text = sgf.serialize(sgf.parse(b"(;GM[1];B[aa](;W[bb])(;W[cc];B[dd]))(;GM[1])"))
    assert text == "(;GM[1]\n;B[aa]\n(;W[bb]\n)\n(;W[cc]\n;B[dd]\n)\n)\n(;GM[1]\n)\n"


def test_serialize_normalises_carriage_returns() -> None:
    root = sgf.Node({"C": "one\r\ntwo\rthree"})
    assert sgf.parse_one(sgf.serialize(root)).get("C") == "one\ntwo\nthree"


def test_set_and_remove() -> None:
    node = sgf.Node()
    node.set("AB", ["aa", "bb"])
    node.set("AB", "cc")  # replaces
    assert node.get_all("AB") == ["cc"]
    node.get_all("AB").append("dd")  # a copy
    assert node.get_all("AB") == ["cc"]
    node.remove("AB")
    node.remove("AB")
    assert node.props == {}
    for bad in ["", "b", "B1", "Ä"]:
        with pytest.raises(SGFError):
            node.set(bad, "x")
    with pytest.raises(SGFError, match="at least one value"):
        node.set("AB", [])


def test_serialize_refuses_broken_props() -> None:
    node = sgf.Node()
    node.props["bad"] = ["x"]
    with pytest.raises(SGFError):
        sgf.serialize(node)
    node.props = {"C": []}
    with pytest.raises(SGFError, match="property C"):
        sgf.serialize(node)


def test_to_bytes_writes_utf8_and_ca() -> None:
    root = sgf.parse_one("(;GM[1]FF[4]CA[GB2312]SZ[19]C[围棋];B[pd])".encode("gb18030"))
    data = sgf.to_bytes(root)
    assert data.startswith(b"(;GM[1]FF[4]CA[UTF-8]SZ[19]C[")
    assert "围棋".encode() in data
    assert root.get("CA") == "GB2312"  # the tree itself is left alone
    again = sgf.parse_one(data)
    assert again.get("CA") == "UTF-8"
    assert again.get("C") == "围棋"

    bare = sgf.Node({"GM": "1", "SZ": "9"})
    games = sgf.parse(sgf.to_bytes([bare, sgf.Node({"SZ": "9"})]))
    assert [list(g.props) for g in games] == [["GM", "CA", "SZ"], ["CA", "SZ"]]


# ---------------------------------------------------------------------------
# Points


def test_decode_point_orientation() -> None:
    assert sgf.decode_point("aa", 9) == (0, 8)  # A9, top left
    assert sgf.decode_point("ai", 9) == (0, 0)  # A1, bottom left
    assert sgf.decode_point("ia", 9) == (8, 8)
    assert sgf.decode_point("dp", 19) == (3, 3)  # D4
    assert sgf.decode_point("pd", 19) == (15, 15)


def test_decode_point_passes() -> None:
    assert sgf.decode_point("", 19) is None
    assert sgf.decode_point("tt", 19) is None
    assert sgf.decode_point("tt", 9) is None
    assert sgf.decode_point("tt", 21) == (19, 1)  # a real point on big boards


@pytest.mark.parametrize(
    ("value", "size"),
    [("a", 9), ("abc", 9), ("A1", 9), ("Aa", 19), ("a ", 9), ("jj", 9), ("ja", 9), ("aj", 9), ("zz", 25), ("ss", 13)],
)
def test_decode_point_errors_name_the_value(value: str, size: int) -> None:
    with pytest.raises(SGFError, match=re.escape(repr(value))):
        sgf.decode_point(value, size)


@pytest.mark.parametrize("size", [0, 1, 26, 52, "9", True])
def test_point_sizes_out_of_range(size: object) -> None:
    with pytest.raises(SGFError, match="board size"):
        sgf.decode_point("aa", size)  # type: ignore[arg-type]
    with pytest.raises(SGFError, match="board size"):
        sgf.encode_point((0, 0), size)  # type: ignore[arg-type]


def test_encode_decode_round_trip_every_point() -> None:
    for size in range(2, 26):
        seen = set()
        for col in range(size):
            for row in range(size):
                value = sgf.encode_point((col, row), size)
                assert sgf.decode_point(value, size) == (col, row)
                seen.add(value)
        assert len(seen) == size * size
    assert sgf.encode_point(None, 19) == ""
    assert sgf.encode_point((0, 8), 9) == "aa"
    assert sgf.encode_point((3, 3), 19) == "dp"


@pytest.mark.parametrize("point", [(9, 0), (0, 9), (-1, 0), (0, -1), (1.0, 2), (True, 2), (1,), "aa", 5])
def test_encode_point_errors(point: object) -> None:
    with pytest.raises(SGFError):
        sgf.encode_point(point, 9)  # type: ignore[arg-type]


def test_decode_point_list() -> None:
    assert sgf.decode_point_list(["aa", "ba", "aa"], 9) == [(0, 8), (1, 8)]
    square = sgf.decode_point_list(["aa:cc"], 9)
    assert square == [(0, 8), (1, 8), (2, 8), (0, 7), (1, 7), (2, 7), (0, 6), (1, 6), (2, 6)]
    assert sgf.decode_point_list(["cc:aa"], 9) == square  # corners in either order
    assert sgf.decode_point_list(["ab:cb", "bb", "ii"], 9) == [(0, 7), (1, 7), (2, 7), (8, 0)]
    assert sgf.decode_point_list(["dd:dd"], 19) == [(3, 15)]
    assert sgf.decode_point_list([""], 19) == []  # FF[4] "elist": nothing
    assert sgf.decode_point_list([], 19) == []


@pytest.mark.parametrize("value", ["aa:", ":aa", "aa:zz", "aa:bb:cc", "a:b", "aa:tt"])
def test_decode_point_list_errors(value: str) -> None:
    with pytest.raises(SGFError, match=re.escape(repr(value))):
        sgf.decode_point_list(["aa", value], 19)


# ---------------------------------------------------------------------------
# The module itself


def test_only_standard_library_imports() -> None:
    tree = ast.parse(Path(sgf.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "teach.go.sgf needs nothing from the rest of the project"
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


# ---------------------------------------------------------------------------
# The peer corpus: 1,761 real records from GNU Go's regression suite

# Files in the corpus that are not valid SGF, and what we say about them.
KNOWN_BROKEN = {
    "games/owl42.sgf": "missing ')'",  # truncated: the final ')' is absent
}


@pytest.mark.slow
def test_peer_corpus_parses_and_round_trips() -> None:
    if not PEER.is_dir():
        pytest.skip(f"peer corpus not present at {PEER}")
    files = sorted([*PEER.glob("games/**/*.sgf"), *PEER.glob("golois/**/*.sgf")])
    assert len(files) >= 1_700
    broken = {}
    games = 0
    for path in files:
        name = path.relative_to(PEER).as_posix()
        try:
            roots = sgf.parse(path.read_bytes())
        except SGFError as exc:
            broken[name] = str(exc)
            continue
        games += len(roots)
        assert_round_trips(roots)
    assert set(broken) == set(KNOWN_BROKEN)
    for name, words in KNOWN_BROKEN.items():
        assert words in broken[name]
    assert games >= len(files) - len(KNOWN_BROKEN) - 1  # games/pending/nightmare.sgf is empty
