"""What every reader shares: a budget of nodes and time, and the honest answer when it runs out.

The node budget decides: the same position gets the same answer on any machine, under any load. The clock is
only a safety net (read once every 128 or 256 nodes, so a search does not pay for it at every node). A search
over either budget raises ``BudgetExceeded``, and the answer a caller sees is ``unknown``, never a guess.

The readers (``reading.Reader``, ``lifedeath.LifeReader``, ``race.RaceReader``, ``connection.ConnectionReader``)
derive from ``Search``: ``_start`` begins a read, ``_tick`` counts one node and stops the read over budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

UNKNOWN = "unknown"
# the clock every search looks at: a name of this module (read at each look, in either build), so that a test
# can give the searches a slow machine's
clock = time.perf_counter


class BudgetExceeded(Exception):
    """The search ran out of nodes or time: the honest answer is ``unknown``."""


@dataclass(frozen=True)
class Budget:
    """How far a search may read: nodes (the budget that decides), seconds (the safety net) and the longest
    line in plies. The tactical ``reading.Limits`` add the tactical reader's depths to these three."""

    nodes: int = 200_000
    seconds: float = 60.0
    max_depth: int = 80  # plies; ladders across a 19x19 board stay well inside


L = TypeVar("L", bound=Budget)


class Search(Generic[L]):
    """A search within ``limits`` (a ``Budget``, or a reader's own kind of budget with more fields: the tactical
    reader's ``Limits``). ``clock_every`` (a power of two) is how many nodes pass between two looks at the clock."""

    def __init__(self, limits: L, clock_every: int = 128) -> None:
        self.limits: L = limits
        self.nodes = 0  # of the current read (``_start`` begins a new count)
        self._earlier = 0  # of the reads before it (``nodes_read``)
        self._deadline = 0.0
        self._clock_mask = clock_every - 1

    def _tick(self) -> None:
        """Count one node; over the node budget (or, checked every so often, the clock) stop the read."""
        self.nodes += 1
        if self.nodes > self.limits.nodes or (
                self.nodes & self._clock_mask == 0 and clock() > self._deadline):
            raise BudgetExceeded(self.nodes)

    def _start(self) -> None:
        """Begin a read: no nodes spent, the clock set."""
        self._earlier += self.nodes
        self.nodes = 0
        self._deadline = clock() + self.limits.seconds

    def nodes_read(self) -> int:
        """Every node this searcher has read, over all its reads (a caller metering several reads counts these;
        the readers are compiled classes, which cannot be subclassed to count them: see teach/go/_build.py)."""
        return self._earlier + self.nodes

    def _in_time(self) -> bool:
        """Is the clock still inside the budget? (Every look at the clock goes through this module.)"""
        return clock() <= self._deadline

    def _aside(self, read: Callable, *args):
        """``read(*args)`` on a budget of its own, the current read's count and clock kept: for a question
        another search asks on its way (the connection reader asks the tactical one about a capture)."""
        saved = self.nodes, self._deadline
        self._start()
        try:
            return read(*args)
        finally:
            self._earlier += self.nodes - saved[0]  # the outer read's nodes are counted when it ends
            self.nodes, self._deadline = saved


def named(read: Callable[[], tuple[int, int | None]], names: dict[int, str], name: Callable[[int], str]
          ) -> tuple[str, str | None]:
    """A read's (result, move) as words for callers outside the engine: (``names[result]``, the move's name or
    None), or (``unknown``, None) when the read ran out of budget."""
    try:
        result, move = read()
    except BudgetExceeded:
        return UNKNOWN, None
    return names[result], (name(move) if move is not None else None)
