"""One puzzle move judged on a large budget, in a process of its own: ``python -m teach.go.deep`` reads a JSON
request on stdin and writes the verdict (or null) on stdout.

The web's deep reads (``teach.web.deep_read``) run here, in a child process: the compiled reader holds the
interpreter lock for as long as a reading lasts (seconds), so read on a thread of a web process it stopped every
other request of that process until it was done. The child lowers its own priority below the web workers', and
exits when its one reading is done (nothing lingers between readings).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict

from .game import Game
from .judge import Goal, GoalError, Judge, Verdict
from .proof import look_ahead
from .reading import Limits


def lower_priority() -> None:
    """The child runs below the web workers: their requests come first."""
    try:
        os.nice(10)
    except OSError:  # not allowed here: it runs at the web's priority
        pass


def judge_move(start: tuple[list[str], str], goal: Goal, played: tuple[str, ...], move: str, nodes: int,
               seconds: float) -> Verdict | None:
    """The verdict on ``move`` after ``played`` from ``start`` (the board's rows, top row first, and the side to
    move: the compiled engine's objects do not travel between processes) on ``nodes`` (``seconds`` only a safety
    net), or None when it cannot be had: still unknown on that budget, or a line that is not one."""
    rows, to_play = start
    size = len(rows)

    def points(stone: str) -> list[int]:  # rows come top row first, points count from A1
        return [(size - 1 - r) * size + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == stone]

    game = Game(size)
    game.setup(black=points("X"), white=points("O"))
    game.to_play = to_play
    try:
        # as the web's live judge answers (``ProvenJudge``): a "continue" looked ahead
        verdict = look_ahead(Judge(game, goal, Limits(nodes=nodes, seconds=seconds)), list(played), move)
    except GoalError:
        return None
    return None if verdict.reason == "unknown" else verdict


def main() -> int:
    """The child's side: one request on stdin (``rows``, ``to_play``, ``goal``, ``targets``, ``played``, ``move``,
    ``nodes``, ``seconds``), one verdict on stdout."""
    lower_priority()
    request = json.load(sys.stdin)
    verdict = judge_move((request["rows"], request["to_play"]), Goal(request["goal"], tuple(request["targets"])),
                         tuple(request["played"]), request["move"], int(request["nodes"]), float(request["seconds"]))
    json.dump(asdict(verdict) if verdict is not None else None, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
