"""Game records: replay an SGF record into a Game (strict or tolerant) and write a Game back as SGF."""

from __future__ import annotations

from dataclasses import replace

from . import sgf
from .coords import check_size
from .game import BLACK, COLOR_NAMES, WHITE, Game, IllegalMove

_INFO_PROPS = ("GN", "PB", "PW", "BR", "WR", "RE", "DT", "EV", "PC", "RU", "C")


class RecordError(ValueError):
    """A record that cannot be replayed: names the move number, colour, point and reason."""

    def __init__(self, message: str, *, move_number: int | None = None, color: str | None = None,
                 point: str | None = None, reason: str | None = None) -> None:
        self.move_number = move_number
        self.color = color
        self.point = point
        self.reason = reason
        super().__init__(message)


def _int_prop(node: sgf.Node, ident: str, default: int) -> int:
    value = node.get(ident)
    if value is None or not value.strip():
        return default
    try:
        return int(value.strip())
    except ValueError:
        raise sgf.SGFError(f"{value!r} is not a whole number",
                           offset=node.offset, prop=ident) from None


def _komi(node: sgf.Node) -> float:
    value = node.get("KM")
    if value is None or not value.strip():
        return 7.5
    try:
        return float(value.strip())
    except ValueError:
        raise sgf.SGFError(f"{value!r} is not a number", offset=node.offset,
                           prop="KM") from None


def game_from_sgf(data: bytes | str, strict: bool = False, move_number: int | None = None,
                  until_point: str | None = None) -> Game:
    """Replay the main line of a record.

    ``move_number`` stops before that move (GNU Go's ``loadsgf FILE N``): 1 gives the position before any move,
    and the side to move is the colour of move N. ``until_point`` stops before the first move on that point.
    Strict mode raises RecordError at the first move the Chinese rules forbid. Tolerant mode replays what real
    records contain: a ko or superko violation (records made under other rules, ``RE[W+Repetition]``) is played
    with its captures, a suicide is played as the suicide-allowed rules would, moves after two passes go on, and
    a move on an occupied point is skipped; each is noted in ``game.notes``.
    """
    roots = sgf.parse(data, lenient=not strict)
    if not roots:
        if strict:
            raise sgf.SGFError("no game tree found (an SGF record starts with '(;')")
        game = Game()
        game.notes.append("the record holds no game tree: an empty board")
        return game
    root = roots[0]
    size_text = root.get("SZ")
    if size_text is not None and ":" in size_text:
        raise sgf.SGFError(f"rectangular boards ({size_text}) are not supported",
                           offset=root.offset, prop="SZ")
    size = _int_prop(root, "SZ", 19)
    try:
        check_size(size)
    except ValueError as e:
        raise sgf.SGFError(str(e), offset=root.offset, prop="SZ") from None
    game = Game(size, komi=_komi(root))
    for ident in _INFO_PROPS:
        value = root.get(ident)
        if value is not None:
            game.info[ident] = value
    handicap = _int_prop(root, "HA", 0)
    stop_at = None if until_point is None else game.require_point(until_point)
    number = 0
    for node in root.main_line():
        _apply_setup(game, node, strict)
        for ident, color in (("B", BLACK), ("W", WHITE)):
            values = node.get_all(ident)
            if not values:
                continue
            number += 1
            point = _point(node, ident, values[0], size)
            p = None if point is None else point[1] * size + point[0]
            if (move_number is not None and number >= move_number) or (stop_at is not None and p == stop_at):
                game.to_play = COLOR_NAMES[color]
                return _finish(game, handicap)
            _replay_move(game, p, color, number, strict)
        player = (node.get("PL") or "").strip().upper()
        if player:
            # FF[4] says B or W; old records write 1 (black) or 2 (white), as GNU Go reads them
            game.to_play = "black" if player in ("B", "1") or player.startswith("B") else "white"
    return _finish(game, handicap)


def _point(node: sgf.Node, ident: str, value: str, size: int) -> tuple[int, int] | None:
    try:
        return sgf.decode_point(value, size)
    except sgf.SGFError as e:
        raise sgf.SGFError(e.message, offset=node.offset, prop=ident) from None


def _finish(game: Game, handicap: int) -> Game:
    if handicap >= 2:
        game.handicap = handicap
    return game


def _apply_setup(game: Game, node: sgf.Node, strict: bool) -> None:
    lists = {}
    for ident in ("AB", "AW", "AE"):
        values = node.get_all(ident)
        if values:
            try:
                points = sgf.decode_point_list(values, game.size)
            except sgf.SGFError as e:
                raise sgf.SGFError(e.message, offset=node.offset, prop=ident) from None
            lists[ident] = [y * game.size + x for x, y in points]
    if not lists:
        return
    try:
        game.setup(black=lists.get("AB", ()), white=lists.get("AW", ()), empty=lists.get("AE", ()))
    except ValueError as e:
        if strict:
            raise RecordError(f"setup at offset {node.offset}: {e}") from None
        game.notes.append(f"setup at offset {node.offset} ignored: {e}")


def _replay_move(game: Game, p: int | None, color: int, number: int, strict: bool) -> None:
    name = game.name(p)
    cname = COLOR_NAMES[color]
    if game.over:
        if p is None:
            return  # records of engine games often end with a third pass: it changes nothing
        if not strict:
            game.notes.append(f"move {number} ({cname} {name}): play goes on after two passes")
            game.resume()
    try:
        if p is None:
            game.pass_move(color)
        else:
            game.play_point(p, color)
        return
    except IllegalMove as e:
        if strict:
            raise RecordError(f"move {number}: {cname} {name} is illegal ({e.reason})", move_number=number,
                              color=cname, point=name, reason=e.reason) from None
        reason = e.reason
    if reason in ("ko", "superko"):
        game.play_point(p, color, allow_repeat=True)
        game.notes.append(f"move {number} ({cname} {name}): {reason} violation played with its captures")
    elif reason == "suicide":
        rules = game.rules
        game.rules = replace(rules, suicide=True)
        try:
            game.play_point(p, color, allow_repeat=True)
            game.notes.append(f"move {number} ({cname} {name}): suicide played as the record shows")
        except IllegalMove:
            game.notes.append(f"move {number} ({cname} {name}): single-stone suicide skipped")
            game.to_play = COLOR_NAMES[3 - color]
        finally:
            game.rules = rules
    else:
        game.notes.append(f"move {number} ({cname} {name}): {reason}; skipped")
        game.to_play = COLOR_NAMES[3 - color]


def game_to_sgf(game: Game, comment: str | None = None) -> str:
    """The game as an FF[4] record: root properties, setup nodes where setups happened, then the moves.
    ``comment`` becomes the root's C (the game's own note, such as the capture game's goal)."""
    size = game.size
    root = sgf.Node()
    root.set("FF", "4")
    root.set("GM", "1")
    root.set("CA", "UTF-8")
    root.set("AP", "teach:0.1")
    root.set("SZ", str(size))
    if not game.rules.capture_goal:  # komi means nothing when the first capture(s) win: SGF's default (none)
        root.set("KM", _number(game.komi))
    if game.handicap:
        root.set("HA", str(game.handicap))
    root.set("RU", "Chinese")
    for ident, value in game.info.items():
        if ident not in ("C",):
            root.set(ident, value)
    if game.resigned:
        root.set("RE", f"{'W' if game.resigned == 'black' else 'B'}+R")
    if comment:
        root.set("C", comment)

    def enc(points):
        return [sgf.encode_point((p % size, p // size), size) for p in points]

    setups = list(game.setups)
    node = root
    for i, (color, p) in enumerate(game.moves):
        node = _write_setups(node, setups, i, enc, root)
        node = node.add_child()
        node.set("B" if color == BLACK else "W", sgf.encode_point(None if p is None else (p % size, p // size), size))
    _write_setups(node, setups, len(game.moves), enc, root)
    return sgf.serialize(root)


def _write_setups(node: sgf.Node, setups: list, before: int, enc, root: sgf.Node) -> sgf.Node:
    while setups and setups[0][0] == before:
        _, black, white, empty = setups.pop(0)
        target = root if (node is root and not any(k in root.props for k in ("AB", "AW", "AE"))) else node.add_child()
        for ident, pts in (("AB", black), ("AW", white), ("AE", empty)):
            if pts:
                target.set(ident, enc(pts))
        node = target
    return node


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def capture_win(result: str | None) -> tuple[str, int] | None:
    """A capture game's win as this product records it (``B+C3``: Black, 3 stones): ("black" | "white", stones
    captured), or None for any other result."""
    text = (result or "").upper()
    if len(text) > 3 and text[0] in "BW" and text[1:3] == "+C" and text[3:].isdigit():
        return ("black" if text[0] == "B" else "white"), int(text[3:])
    return None


def played_game_sgf(game: Game, *, black: str, white: str, result: str | None = None, date: str | None = None,
                    name: str | None = None, capture_comment: str | None = None) -> str:
    """A played game as a record to download: ``game_to_sgf`` with who played (PB/PW, first names: the caller
    decides what a name is), the result (SGF's RE, e.g. ``B+3.5``, ``W+R``, ``0``), the day (DT, ``YYYY-MM-DD``)
    and a game name (GN). The capture game is not a rule SGF knows, so its goal is said in GC and in the root
    comment: a reader that ignores both still replays the same moves, and the record shows where the game
    stopped. Its win by captures (the database's ``B+C3``) is written as SGF's "won for another reason", ``B+``,
    and its komi, which counts for nothing, is left out. ``capture_comment``: that comment in the reader's
    language (the default is English)."""
    saved = dict(game.info)
    try:
        game.info.update(PB=black, PW=white)
        goal = game.rules.capture_goal
        won = capture_win(result) if goal else None
        side = taken = None
        if won is not None:  # "B+C3" is this product's own: SGF says a win for another reason as "B+"
            side, taken, result = won[0].capitalize(), won[1], result[:2]
        if result:
            game.info["RE"] = result
        if date:
            game.info["DT"] = date
        if name:
            game.info["GN"] = name
        comment = None
        if goal:
            comment = f"capture game: first to capture {goal} stone{'s' if goal != 1 else ''} wins"
            if side:
                comment += f"; {side} won with {taken} stone{'s' if taken != 1 else ''} captured"
            comment = capture_comment or comment
            game.info["GC"] = comment
        text = game_to_sgf(game, comment=comment)
    finally:
        game.info.clear()
        game.info.update(saved)
    return text
