"""The computer opponent children play against: six built-in levels in pure Python and two GNU Go levels.

How a built-in level chooses (``_Chooser``):

1. **Sensible moves.** Every legal move except filling one's own eye; in a full game also except the points of
   settled areas (an empty area that only one colour touches: one's own territory, where a move gains nothing,
   and the opponent's, where it is hopeless unless the area has room for an invasion). No sensible move left: the bot passes, so a child's game
   ends with two passes once nothing is left to gain.
2. **A score for each** from what the move does at once: captures, rescues of its own stones in atari, ataris,
   self-ataris, connections and cuts, liberties, and shape (the third and fourth lines on an empty board, near
   the fight). In the capture game (吃子游戏) captures and losses count far more and territory not at all.
3. **Reading** (levels 4 and up): the tactical reader (``reading.Reader``) on a small node budget checks which
   short-of-liberty chains can really be captured or saved, and whether the chosen stones can be caught right
   after they are played (a ladder or a net), so a dead chain is neither chased nor rescued.
4. **Playouts** (levels 4 to 6): light random games with capture and escape heuristics from the best few
   candidates decide between them (who is ahead by area, or who reaches the capture goal first). Level 4 gives
   each candidate the same few games; levels 5 and 6 share a larger count out by UCB1 (the heuristic score as
   the prior), so the promising candidates get most of the games, and the playouts weigh more in the score.

Weaker levels are weakened on purpose, measurably (KaTrain's idea): the bot picks the best of a random *sample*
of the sensible moves (small at low levels), and at levels 1 and 2 it fails, with a set chance, to see a capture,
its own stones in atari, or that a move is a self-atari. From level 3 on captures and rescues are always in the
sample. Level 1 also tires: in a full game it passes once three quarters of the board are covered, so a small
child's game ends (and its last stones are the child's to take) instead of both sides filling the board, and it
passes when the child has passed twice in a row (a child's pass that the mouse answered with a stone, then
another), however open the board: a small child's "I am done" on a 13x13 board took twenty passes.

Deterministic: every random choice comes from the generator derived from (seed, level, the moves played), and
every search is bounded by node and playout *counts*. The level's ``budget_seconds`` is only a safety cap read
on the clock inside the search: on an overloaded machine a cap hit can cut playouts or reading short, and then
the move can differ from an unhurried run. ``CAP_SCALE`` multiplies that cap: a test or a benchmark that needs the
same move on any machine, however loaded, raises it so that only the counts bound a move.

Levels 7 and 8 ask GNU Go (``gnugo.py``) and fall back to level 6, silently, when GNU Go is missing, slow,
crashing or answers something unusable.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from dataclasses import dataclass
from typing import cast

from .coords import diagonals, neighbours
from .game import BLACK, EMPTY, WHITE, Chain, Game
from .reading import LOSE, WIN, Limits, Reader
from .search import BudgetExceeded

_COLOR_WORDS = {BLACK: "black", WHITE: "white"}


@dataclass(frozen=True)
class Level:
    """A computer level: its number (1 the weakest), the story character it is drawn as (the web gives the names
    and promises in both languages), who plays it and how long it may think for one move."""

    number: int
    slug: str
    engine: str = "builtin"  # builtin | gnugo (falls back to the strongest built-in level)
    budget_seconds: float = 0.3


LEVELS = (Level(1, "mouse", budget_seconds=0.05), Level(2, "rabbit", budget_seconds=0.05),
          Level(3, "monkey", budget_seconds=0.05), Level(4, "panda", budget_seconds=0.15),
          Level(5, "tiger", budget_seconds=0.2), Level(6, "chief", budget_seconds=0.3),
          Level(7, "owl", "gnugo", 2.0), Level(8, "dragon", "gnugo", 2.0))
TOP_BUILTIN = 6
CAP_SCALE = 1.0  # the clock cap's multiplier (see the module's words on determinism)
DEFAULT_LEVEL = 3  # what ``teach gtp`` plays without --level


@dataclass(frozen=True)
class _Style:
    """How one built-in level plays (see the module docstring)."""

    sample: int  # sensible moves drawn at random to choose from (0: all of them)
    miss_capture: float  # chance of not seeing that a chain can be taken
    miss_atari: float  # chance of not seeing its own chain in atari
    miss_self_atari: float  # chance of not seeing that a move puts its own stones in atari
    noise: float  # random spread added to every score
    read_nodes: int = 0  # the tactical reader's budget per question (0: no reading)
    safety_checks: int = 0  # how many of the best candidates are checked for being caught right after
    safety_nodes: int = 0  # the reader's budget for one such check
    playouts: int = 0  # light random games per candidate (9x9; fewer on bigger boards)
    playout_moves: int = 0  # how many candidates the playouts decide between
    search: int = 0  # playouts shared out by UCB among ``playout_moves`` candidates (9x9; 0: a fixed number each)
    playout_weight: float = 20.0  # how far a share of wins moves a score (a share of 1 adds half of it)
    tired: float = 0.0  # full game: passes once stones cover this share of the board (0: never tired)
    untidy: bool = False  # plays inside settled areas too, until the opponent passes (then it may pass as well)


_STYLES = {
    1: _Style(sample=3, miss_capture=0.75, miss_atari=0.8, miss_self_atari=0.7, noise=30.0, untidy=True,
              tired=0.74),
    2: _Style(sample=4, miss_capture=0.35, miss_atari=0.4, miss_self_atari=0.35, noise=3.0),
    3: _Style(sample=8, miss_capture=0.0, miss_atari=0.0, miss_self_atari=0.0, noise=1.5),
    4: _Style(sample=0, miss_capture=0.0, miss_atari=0.0, miss_self_atari=0.0, noise=0.8,
              read_nodes=150, safety_checks=3, safety_nodes=100, playouts=4, playout_moves=2),
    5: _Style(sample=0, miss_capture=0.0, miss_atari=0.0, miss_self_atari=0.0, noise=0.3,
              read_nodes=200, safety_checks=4, safety_nodes=150, playout_moves=6, search=80,
              playout_weight=40.0),
    6: _Style(sample=0, miss_capture=0.0, miss_atari=0.0, miss_self_atari=0.0, noise=0.1,
              read_nodes=300, safety_checks=6, safety_nodes=150, playout_moves=12, search=400,
              playout_weight=60.0),
}


def level_info(level: int) -> Level:
    """The ``Level`` numbered ``level`` (ValueError for a number that is no level)."""
    for lv in LEVELS:
        if lv.number == level:
            return lv
    raise ValueError(f"no computer level {level!r} (levels are 1 to {len(LEVELS)})")


def position_rng(game: Game, level: int, seed: int) -> random.Random:
    """The generator for one move: the same seed, level and moves played give the same draws (crc32, not
    ``hash``, which Python salts per process for text)."""
    digest = zlib.crc32(repr((game.size, game.moves)).encode())
    return random.Random((seed * 1_000_003 + level) * 4_294_967_311 + digest)


def reply(game: Game, level: int, seed: int) -> str:
    """The computer's move for the side to move, as GTP text (``pass`` included): the same position, level and
    seed give the same move on the built-in levels. Never illegal; never a resignation."""
    lv = level_info(level)
    color = game.to_move
    if lv.engine == "gnugo":
        from . import gnugo

        move = gnugo.shared().reply(game, lv, seed)
        if move is not None:
            return move
        lv = level_info(TOP_BUILTIN)
    rng = position_rng(game, lv.number, seed)
    return game.name(choose_move(game, color, rng, level=lv.number))


def choose_move(game: Game, color: int, rng: random.Random, level: int = DEFAULT_LEVEL) -> int | None:
    """A built-in level's move for ``color`` (None = pass), its random choices from ``rng``; a GNU Go level
    number plays the top built-in level here (``reply`` is where GNU Go is asked)."""
    if game.over:
        return None
    lv = level_info(level)
    if lv.engine != "builtin":
        lv = level_info(TOP_BUILTIN)
    deadline = time.perf_counter() + lv.budget_seconds * CAP_SCALE
    return _Chooser(game, color, rng, _STYLES[lv.number], deadline).choose()


# ---------------------------------------------------------------------- the built-in player
_SELF_ATARI = -40.0  # a move that leaves its own stones in atari (it captures nothing)


class _Chooser:
    """One decision: the sensible moves of ``color``, their scores, reading and playouts, within a deadline."""

    def __init__(self, game: Game, color: int, rng: random.Random, style: _Style, deadline: float) -> None:
        self.game = game
        self.color = color
        self.opp = 3 - color
        self.rng = rng
        self.style = style
        self.deadline = deadline
        self.n = game.size
        self.goal = game.rules.capture_goal or 0  # 0: a whole game
        self.nb = neighbours(game.size)
        self.diag = diagonals(game.size)
        self.reader: Reader | None = None

    # -------------------------------------------------------------- the decision
    def choose(self) -> int | None:
        game, rng, style = self.game, self.rng, self.style
        legal = game.legal_points(self.color)
        if not legal:
            return None
        if style.tired and not self.goal and len(game.empty_points) <= (1.0 - style.tired) * self.n * self.n:
            return None  # the youngest children's game is over when the board is mostly full
        moves = game.moves
        if style.tired and not self.goal and len(moves) >= 3 and moves[-1][1] is None and moves[-3][1] is None:
            return None  # and when the child says so twice: passed, saw the mouse play on, and passed again
        sensible = self._sensible(legal)
        if not sensible:
            return None
        scores = {p: self._score(p) for p in sensible}
        # weakening: a random sample of the sensible moves; from level 3 on the urgent ones always belong
        if style.sample and len(sensible) > style.sample:
            pool = rng.sample(sensible, style.sample)
            if not style.miss_capture:
                pool += [p for p in sensible if scores[p] >= 20 and p not in pool]
        else:
            pool = list(sensible)
        if style.read_nodes:
            self._read_tactics(pool, scores)
        for p in pool:
            scores[p] += rng.random() * style.noise
        pool.sort(key=lambda p: (-scores[p], p))
        if style.safety_checks:
            self._check_safety(pool, scores)
            pool.sort(key=lambda p: (-scores[p], p))
        if style.search and len(pool) > 1:
            self._search(pool, scores)
            pool.sort(key=lambda p: (-scores[p], p))
        elif style.playouts and len(pool) > 1:
            self._playouts(pool, scores)
            pool.sort(key=lambda p: (-scores[p], p))
        best = pool[0]
        if scores[best] <= _SELF_ATARI / 2 and (self.goal or self._only_losing_moves(pool, scores)):
            # every move left gives stones away: in the capture game that is a loss, in a full game a waste
            return None
        return best

    def _only_losing_moves(self, pool: list[int], scores: dict[int, float]) -> bool:
        return all(scores[p] <= _SELF_ATARI / 2 for p in pool)

    # -------------------------------------------------------------- sensible moves
    def _sensible(self, legal: list[int]) -> list[int]:
        """Legal moves that fill no own eye and, in a full game, lie in no settled area."""
        game, color = self.game, self.color
        out = [p for p in legal if not self._own_eye(p)]
        if self.goal:
            return out
        moves = game.moves
        if self.style.untidy and not (moves and moves[-1][1] is None):
            return out
        settled = self._settled_points()
        keep = []
        for p in out:
            if p in settled and not self._urgent(p):
                continue
            keep.append(p)
        return keep if keep or not out else [p for p in out if self._urgent(p)]

    def _urgent(self, p: int) -> bool:
        """Does the move take stones or touch a chain in atari (its own or the opponent's)?"""
        chain = self.game.chain_of
        for q in self.nb[p]:
            c = chain[q]
            if c is not None and len(c.libs) == 1:
                return True
        return False

    def _settled_points(self) -> set[int]:
        """The points of the empty areas only one colour's stones touch, where a move is no use: the mover's own
        (its territory: filling it gains nothing) and the opponent's (an invasion could not live) — unless the
        area is still open: at least ``n*n/5`` points and either more than four points for each stone around it
        or one point four lines or more from every stone (the first moves of a game, handicap stones)."""
        game = self.game
        board, nb, n = game.board, self.nb, self.n
        seen: set[int] = set()
        settled: set[int] = set()
        stones = None
        for start in sorted(game.empty_points):
            if start in seen:
                continue
            area = [start]
            seen.add(start)
            touch = 0
            border: set[int] = set()
            i = 0
            while i < len(area):
                for q in nb[area[i]]:
                    c = board[q]
                    if c == EMPTY:
                        if q not in seen:
                            seen.add(q)
                            area.append(q)
                    else:
                        touch |= c
                        border.add(q)
                i += 1
            if touch in (BLACK, WHITE):
                if len(area) >= max(12, n * n // 5):
                    if len(area) > 4 * len(border):
                        continue  # a few stones around a wide area (handicap stones): open, not territory
                    if stones is None:
                        stones = [divmod(p, n) for p, c in enumerate(board) if c != EMPTY]
                    if any(min(max(abs(r - sr), abs(c - sc)) for sr, sc in stones) >= 4
                           for r, c in (divmod(p, n) for p in area)):
                        continue  # room for an invasion
                settled.update(area)
        return settled

    def _own_eye(self, p: int) -> bool:
        """An empty point whose neighbours are all own stones and that is no false eye (two or more enemy stones
        on its diagonals; one, on the edge)."""
        board, color = self.game.board, self.color
        for q in self.nb[p]:
            if board[q] != color:
                return False
        diag = self.diag[p]
        enemies = 0
        for q in diag:
            if board[q] == self.opp:
                enemies += 1
        return enemies < (2 if len(diag) == 4 else 1)

    # -------------------------------------------------------------- the score of a move
    def _score(self, p: int) -> float:
        game, color, opp, style, rng = self.game, self.color, self.opp, self.style, self.rng
        chain, board, nb = game.chain_of, game.board, self.nb
        n = self.n
        capture_game = bool(self.goal)
        own: list[Chain] = []
        foes: list[Chain] = []
        empty_nb = 0
        for q in nb[p]:
            nc = chain[q]
            if nc is None:
                empty_nb += 1
            elif nc.color == color:
                if nc not in own:
                    own.append(nc)
            elif nc not in foes:
                foes.append(nc)
        score = 0.0
        taken = 0
        for c in foes:
            k = len(c.libs)
            if k == 1:
                if rng.random() >= style.miss_capture:
                    taken += len(c.stones)
            elif k == 2:
                # atari (the reader decides at higher levels whether it leads anywhere)
                score += (3.0 + 1.5 * len(c.stones)) if capture_game else (1.5 + 0.5 * len(c.stones))
            elif k == 3:
                score += 0.6 if capture_game else 0.3
        if taken:
            score += (30.0 + 12.0 * taken) if capture_game else (20.0 + 6.0 * taken)
            if capture_game and game.captures[_COLOR_WORDS[color]] + taken >= self.goal:
                score += 1000.0
            # taking the stones that hold one's own chain in atari
            for c in own:
                if len(c.libs) == 1:
                    score += 8.0 + 4.0 * len(c.stones)
        libs = game.liberties_after(p, color)
        if taken:
            libs = libs | {s for c in foes if len(c.libs) == 1 for s in c.stones if s in nb[p]}
        k = len(libs)
        size = 1 + sum(len(c.stones) for c in own)
        in_atari = [c for c in own if len(c.libs) == 1]
        if in_atari and rng.random() >= style.miss_atari:
            saved = sum(len(c.stones) for c in in_atari)
            if k >= 3:
                score += (28.0 + 12.0 * saved) if capture_game else (18.0 + 6.0 * saved)
            elif k == 2:
                score += (10.0 + 4.0 * saved) if capture_game else (6.0 + 2.0 * saved)
        if k <= 1 and not taken:
            if rng.random() >= style.miss_self_atari:
                score += _SELF_ATARI - (8.0 * size if capture_game else 2.0 * size)
        elif k == 2 and not taken:
            score -= (4.0 + 1.0 * size) if capture_game else (1.0 + 0.3 * size)
        else:
            score += 0.4 * min(k, 4) if capture_game else 0.15 * min(k, 4)
        # shape: connecting own chains, cutting the opponent's
        if len(own) >= 2:
            weak = sum(1 for c in own if len(c.libs) <= 2)
            score += 1.0 + 1.5 * weak
        if len(foes) >= 2:
            score += 1.2 if not capture_game else 2.0
        for c in own:
            if len(c.libs) == 2:
                score += (3.0 + 0.8 * len(c.stones)) if capture_game else (1.0 + 0.4 * len(c.stones))
        if not capture_game:
            score += self._shape(p, own, foes, empty_nb)
        else:
            score += self._near_last(p) * 0.8
        return score

    def _shape(self, p: int, own: list, foes: list, empty_nb: int) -> float:
        """Lines and locality in a full game: the third and fourth lines while the board is open, the first
        line never early, a bonus near the last moves, a small one for touching the opponent."""
        game, n = self.game, self.n
        r, c = divmod(p, n)
        d = min(r, c, n - 1 - r, n - 1 - c)
        openness = len(game.empty_points) / (n * n)
        line = {0: -2.5, 1: -0.6, 2: 1.2, 3: 1.0}.get(d, 0.6 if n <= 9 else 0.3)
        if n <= 9 and d == 4:
            line = 0.4  # the centre of a small board is a fine first move, not the best
        score = line * (openness ** 2) * 2.0
        if d == 0 and not foes:
            score -= 0.5
        score += self._near_last(p)
        if foes and not own and empty_nb >= 2:
            score += 0.3
        # the empty triangle: a bad shape of own stones
        board = game.board
        if len(own) == 1 and empty_nb >= 2:
            for q in self.diag[p]:
                if board[q] == self.color:
                    a, b = self._between(p, q)
                    if board[a] == self.color and board[b] == EMPTY or board[b] == self.color and board[a] == EMPTY:
                        score -= 0.6
                        break
        return score

    def _between(self, p: int, q: int) -> tuple[int, int]:
        n = self.n
        pr, pc = divmod(p, n)
        qr, qc = divmod(q, n)
        return pr * n + qc, qr * n + pc

    def _near_last(self, p: int) -> float:
        moves = self.game.moves
        bonus = 0.0
        n = self.n
        r, c = divmod(p, n)
        for back, weight in ((1, 1.0), (2, 0.5)):
            last = moves[-back][1] if len(moves) >= back else None
            if last is not None:
                lr, lc = divmod(last, n)
                d = max(abs(lr - r), abs(lc - c))
                if d <= 2:
                    bonus += weight * (1.0 if d == 1 else 0.6)
        return bonus

    # -------------------------------------------------------------- reading
    def _reader(self) -> Reader:
        if self.reader is None:
            seconds = max(0.001, self.deadline - time.perf_counter())
            self.reader = Reader(self.game, Limits(nodes=self.style.read_nodes, seconds=seconds))
        return self.reader

    def _time_left(self) -> float:
        return self.deadline - time.perf_counter()

    def _ask(self, fn, *args, nodes: int = 0) -> tuple[int, int | None] | None:
        """One question to the reader (``nodes``: its budget, the level's by default), or None when it ran out
        of nodes or time."""
        if self._time_left() <= 0:
            return None
        reader = self._reader()
        reader.limits = Limits(nodes=nodes or self.style.read_nodes, seconds=max(0.001, self._time_left()))
        try:
            return fn(*args)
        except BudgetExceeded:
            return None

    def _read_tactics(self, pool: list[int], scores: dict[int, float]) -> None:
        """Chains short of liberties, read: the captures that work, the rescues that work, and no time wasted
        on a chain that is already lost (or safe)."""
        game = self.game
        capture_game = bool(self.goal)
        in_pool = set(pool)

        def promote(move: int, bonus: float) -> None:
            """A move the reader proved: its bonus, and a place among the candidates whatever the sample."""
            scores[move] += bonus
            if move not in in_pool:
                pool.append(move)
                in_pool.add(move)

        chains = sorted((c for c in game.all_chains if len(c.libs) <= 2), key=lambda c: min(c.stones))
        for c in chains:
            if self._time_left() <= 0:
                return
            t = min(c.stones)
            size = len(c.stones)
            reader = self._reader()
            if c.color == self.opp:
                if len(c.libs) == 1:
                    continue  # a plain capture is scored already
                got = self._ask(reader.attack, t)
                if got is None:
                    continue
                result, move = got
                if result == WIN and move is not None and move in scores:
                    promote(move, (26.0 + 10.0 * size) if capture_game else (12.0 + 5.0 * size))
                elif result == LOSE:
                    # it cannot be taken: ataris on it only help it
                    for lib in c.libs:
                        if lib in scores:
                            scores[lib] -= 1.0
            else:
                got = self._ask(reader.attack, t)
                if got is None or got[0] == LOSE:
                    continue  # not in danger (or unknown)
                saved = self._ask(reader.defend, t)
                if saved is None:
                    continue
                result, move = saved
                if result == WIN and move is not None and move in scores:
                    promote(move, (30.0 + 12.0 * size) if capture_game else (14.0 + 6.0 * size))
                elif result == LOSE:
                    # lost already: running out only adds stones to the loss
                    for lib in c.libs:
                        if lib in scores and not self._takes(lib):
                            scores[lib] -= (12.0 + 4.0 * size) if capture_game else (6.0 + 2.0 * size)

    def _takes(self, p: int) -> bool:
        chain = self.game.chain_of
        return any((c := chain[q]) is not None and c.color == self.opp and len(c.libs) == 1 for q in self.nb[p])

    def _check_safety(self, pool: list[int], scores: dict[int, float]) -> None:
        """The best few candidates, played: can the chain the move makes be captured at once (a ladder, a
        net)? Then it is worth little."""
        g = self._reader().g
        capture_game = bool(self.goal)
        for p in pool[:self.style.safety_checks]:
            if self._time_left() <= 0:
                return
            if len(self.game.liberties_after(p, self.color)) >= 4:
                continue
            try:
                g.play_point(p, self.color)
            except Exception:  # noqa: BLE001 - the reader's copy has no superko: nothing else can refuse
                continue
            try:
                ch = cast(Chain, g.chain_of[p])
                size = len(ch.stones)
                got = None if len(ch.libs) >= 4 else self._ask(self._reader().attack, p, nodes=self.style.safety_nodes)
            finally:
                g.undo()
            if got is not None and got[0] == WIN:
                scores[p] -= (30.0 + 10.0 * size) if capture_game else (8.0 + 2.5 * size)

    # -------------------------------------------------------------- playouts
    def _playouts(self, pool: list[int], scores: dict[int, float]) -> None:
        """The best ``playout_moves`` candidates, each followed by light random games: their share of wins
        moves them up or down (a count of games decides; the clock only stops it early). Every move the mover
        made in those games also counts for that move (all moves as first, AMAF), which judges the candidates
        never played first; the best of those after that gets games of its own."""
        style = self.style
        per = max(4, style.playouts * 81 // (self.n * self.n))
        runner = _Playouts(self.game, self.rng)
        weight = 20.0
        tried: set[int] = set()

        def measure(p: int) -> bool:
            if self._time_left() <= 0.01:
                return False
            wins = runner.run(p, self.color, per, self.deadline)
            if wins is None:
                return False
            scores[p] += weight * (wins - 0.5)
            tried.add(p)
            return True

        for p in pool[:style.playout_moves]:
            if not measure(p):
                return
        wins, games = runner.amaf_wins, runner.amaf_games
        for p in pool:
            k = games.get(p, 0)
            if k >= 4 and p not in tried:
                scores[p] += 0.5 * weight * (wins[p] / k - 0.5) * min(1.0, k / (2 * per))
        pool.sort(key=lambda p: (-scores[p], p))
        for p in pool[:2]:
            if p not in tried and not measure(p):
                return


    def _search(self, pool: list[int], scores: dict[int, float]) -> None:
        """Playouts shared out among the best ``playout_moves`` candidates by UCB1: the heuristic score is the
        prior (worth a few games), each round the candidate with the highest upper bound on its share of wins
        gets a few more games, so the promising ones are read deeper and a clearly losing one is dropped early.
        Every move the mover played in a game also counts for it (AMAF), which judges the rest of the pool a
        little. The count of games decides; the clock only stops it early."""
        style = self.style
        # a board smaller than 9x9 has shorter games: more of them in a capture game (which ends sooner still)
        total = max(16, style.search * 81 // (self.n * self.n if self.goal else max(81, self.n * self.n)))
        cands = pool[:style.playout_moves]
        runner = _Playouts(self.game, self.rng)
        top = scores[cands[0]]
        # the prior: a candidate far below the best starts with a low share (worth ``prior`` games)
        prior = 3.0
        wins = {p: prior * max(0.1, 0.5 - 0.03 * (top - scores[p])) for p in cands}
        games = {p: prior for p in cands}
        batch = 2
        done = 0

        while done < total and self._time_left() > 0.01:
            log_n = math.log(done + prior * len(cands) + 1)
            p = max(cands, key=lambda q: (wins[q] / games[q] + 0.9 * math.sqrt(log_n / games[q]), -q))
            got = runner.run(p, self.color, batch, self.deadline)
            if got is None:
                break
            wins[p] += got * batch
            games[p] += batch
            done += batch
        weight = style.playout_weight
        for p in cands:
            k = games[p] - prior
            if k > 0:
                # trust grows with the games played: a candidate seen twice moves less than one seen twenty
                # times, and the one UCB kept coming back to gets a little extra
                scores[p] += weight * (wins[p] / games[p] - 0.5) * min(1.0, k / 8) + 0.1 * min(k, 40)
        aw, ag = runner.amaf_wins, runner.amaf_games
        for p in pool:
            seen = ag.get(p, 0)
            if seen >= 4 and p not in games:
                scores[p] += 0.4 * weight * (aw[p] / seen - 0.5) * min(1.0, seen / 20)


class _Playouts:
    """Light random games on a private copy: take a chain in atari, run with one's own, else a random move
    that fills no own eye and is no self-atari. A full game is counted by area with komi; a capture game is
    won by the first side to the goal (at the move cap, by who captured more)."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        from .reading import reading_copy

        self.g = reading_copy(game)
        self.rng = rng
        self.komi = game.komi
        self.goal = game.rules.capture_goal
        self.caps = (game.captures["black"], game.captures["white"])
        self.diag = diagonals(game.size)
        self.amaf_wins: dict[int, float] = {}  # point -> wins of the games in which the mover played it
        self.amaf_games: dict[int, int] = {}

    def run(self, first: int, color: int, count: int, deadline: float) -> float | None:
        g = self.g
        g.play_point(first, color)
        try:
            wins = 0.0
            done = 0
            for _ in range(count):
                if time.perf_counter() > deadline:
                    break
                own: list[int] = []
                result = self._one(first, color, own)
                wins += result
                done += 1
                aw, ag = self.amaf_wins, self.amaf_games
                for p in set(own):
                    aw[p] = aw.get(p, 0.0) + result
                    ag[p] = ag.get(p, 0) + 1
        finally:
            g.undo()
        return wins / done if done else None

    def _one(self, last: int, color: int, own: list[int]) -> float:
        g, rng = self.g, self.rng
        board, chain, nb = g.board, g.chain_of, g.adjacent
        n2 = len(board)
        cap = n2 + n2 // 2
        played = 0
        passes = 0
        to_move = 3 - color
        goal = self.goal
        start = g._captures[BLACK], g._captures[WHITE]
        caps0 = self.caps
        try:
            while passes < 2 and played < cap:
                move = self._pick(to_move, last)
                if move < 0:
                    passes += 1
                else:
                    passes = 0
                    g.play_point(move, to_move)
                    played += 1
                    last = move
                    if to_move == color:
                        own.append(move)
                    if goal:
                        b = caps0[0] + g._captures[BLACK] - start[0]
                        w = caps0[1] + g._captures[WHITE] - start[1]
                        if b >= goal or w >= goal:
                            return 1.0 if (b >= goal) == (color == BLACK) else 0.0
                to_move = 3 - to_move
            if goal:
                b = caps0[0] + g._captures[BLACK] - start[0]
                w = caps0[1] + g._captures[WHITE] - start[1]
                if b == w:
                    return 0.5
                return 1.0 if (b > w) == (color == BLACK) else 0.0
            black = white = 0
            for p in range(n2):
                c = board[p]
                if c == EMPTY:
                    around = 0
                    for q in nb[p]:
                        around |= board[q]
                    c = around if around in (BLACK, WHITE) else EMPTY
                if c == BLACK:
                    black += 1
                elif c == WHITE:
                    white += 1
            margin = black - white - self.komi
            if margin == 0:
                return 0.5
            return 1.0 if (margin > 0) == (color == BLACK) else 0.0
        finally:
            for _ in range(played):
                g.undo()

    def _pick(self, color: int, last: int) -> int:
        g, rng = self.g, self.rng
        board, chain, nb = g.board, g.chain_of, g.adjacent
        opp = 3 - color
        if last >= 0:
            lc = chain[last]
            # the last stone's chain in atari: take it
            if lc is not None and len(lc.libs) == 1:
                (lib,) = lc.libs
                if g.is_legal_point(lib, color):
                    return lib
            # own chains the last move put in atari: run if that gives two liberties or more
            for q in nb[last]:
                c = chain[q]
                if c is not None and c.color == color and len(c.libs) == 1:
                    (lib,) = c.libs
                    if len(g.liberties_after(lib, color)) >= 2 and g.is_legal_point(lib, color):
                        return lib
        empties = list(g.empty_points)
        k = len(empties)
        if not k:
            return -1
        diag = self.diag
        i0 = rng.randrange(k)
        for i in range(k):
            p = empties[(i0 + i) % k]
            # own eye: never filled
            eye = True
            for q in nb[p]:
                if board[q] != color:
                    eye = False
                    break
            if eye:
                bad = 0
                for q in diag[p]:
                    if board[q] == opp:
                        bad += 1
                if bad < (2 if len(diag[p]) == 4 else 1):
                    continue
            if not g.is_legal_point(p, color):
                continue
            # no self-atari unless it captures
            libs = 0
            captures = False
            for q in nb[p]:
                c = chain[q]
                if c is None:
                    libs += 1
                elif c.color == opp and len(c.libs) == 1:
                    captures = True
            if not captures and libs < 2 and len(g.liberties_after(p, color)) < 2:
                continue
            return p
        return -1

