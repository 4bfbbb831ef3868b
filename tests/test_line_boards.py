"""The boards a puzzle move answers with are kept per puzzle (teach.web.board.LineBoards): kept or not, they are
the boards a fresh replay of the line gives."""

from __future__ import annotations

from teach.go import Game
from teach.web.board import LineBoards, replay, rows_after


def _start() -> Game:
    game = Game(9)
    game.setup(black=["D5", "E6"], white=["E5", "F5"])
    game.to_play = "black"
    return game


def test_kept_boards_are_a_fresh_replays_each_time():
    start = _start()
    boards = LineBoards(start)
    for _ in range(2):  # the second time from what was kept
        after_move, after_reply = boards.after_move_and_reply(["E4"], "D4")
        assert after_move == rows_after(start, ["E4"])
        assert after_reply == rows_after(start, ["E4", "D4"])
        assert boards.after(["E4", "D4"]) == rows_after(start, ["E4", "D4"])
        assert boards.after([]) == start.board_rows()


def test_a_line_and_the_same_moves_with_a_reply_are_different_answers():
    boards = LineBoards(_start())
    after_move, after_reply = boards.after_move_and_reply(["E4"], "D4")
    assert boards.after(["E4"]) == after_move != after_reply  # not the board after the reply


def test_a_reply_that_cannot_be_played_leaves_the_board_after_the_move():
    start = _start()
    boards = LineBoards(start)
    assert boards.after_move_and_reply(["E4"], "E5") == (rows_after(start, ["E4"]),) * 2  # occupied
    assert boards.after_move_and_reply(["E5"], "D4") == (start.board_rows(),) * 2  # the move itself could not


def test_the_start_is_never_changed_by_a_replay():
    start = _start()
    rows = start.board_rows()
    boards = LineBoards(start)
    boards.after_move_and_reply(["E4", "D4", "F4"], "G5")
    assert start.board_rows() == rows == replay(start, [])[0].board_rows()


def test_old_lines_make_room_for_new_ones():
    boards = LineBoards(_start())
    boards.LINES = 3
    for m in ("A1", "B1", "C1", "D1", "E1"):
        boards.after([m])
    assert len(boards._rows) == 3


def test_the_boards_draw_the_star_points_the_star_point_lesson_teaches():
    """9x9 and 13x13: the four corner stars and 天元 (the lesson: "four more star points sit near the corners");
    19x19: nine. Read back from the drawn board, as (column, row) names."""
    import re

    from teach.web.board import CELL, MARGIN, render_board

    def drawn(size: int) -> set[str]:
        svg = str(render_board(["." * size] * size, lang="en"))
        margin = int(re.search(r'<rect class="edge" x="(\d+)"', svg).group(1))
        return {f"{'ABCDEFGHJKLMNOPQRST'[(int(x) - margin) // CELL]}{size - (int(y) - margin) // CELL}"
                for x, y in re.findall(r'<circle class="star" cx="(\d+)" cy="(\d+)"', svg)}

    assert MARGIN > 0
    assert drawn(9) == {"C3", "G3", "E5", "C7", "G7"}
    assert drawn(13) == {"D4", "K4", "G7", "D10", "K10"}
    assert len(drawn(19)) == 9 and {"D4", "K10", "Q16"} <= drawn(19)
