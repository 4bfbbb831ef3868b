"""Endless practice: fresh puzzles made by the computer, in the lesson-file step format.

``generate(topic, level, seed, count, size)`` returns ``count`` steps (``{"puzzle": {...}}`` or
``{"quiz": {...}}`` mappings, exactly as a lesson file's YAML loads) for one topic and level. Every puzzle is
proven by the judge before it is handed out: its ``answers`` are the complete set of winning first moves, and
candidates that are trivial (the stones are lost whatever Black does), unsolvable, ambiguous (too many winning
moves), won only through a ko or over the reading budget are thrown away and drawn again.

Determinism: puzzle ``i`` of a set is drawn from its own ``random.Random`` seeded with a string made of the
topic, level, size, seed and ``i`` (string seeds are hashed with SHA-512, so they do not depend on the process or
the machine), and the reader runs on a node budget only, never a clock. The same call gives the same puzzles
everywhere, and a shorter set is a prefix of a longer one, so a teacher can hand a class "seed 42".

Positions are built the way a teacher draws them: a target chain, the stones that take its liberties, a few
stones of both colours next to the fight, and at level 3 a quiet group or two elsewhere on the board. Level 1
keeps the fight in the open, level 2 moves it to the edges, level 3 uses corners, bigger chains and distractors.
Black (the Black Cat Police) always moves; White stones are the little mice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from teach.go.coords import col_row, diagonals, from_col_row, neighbours
from teach.go.game import BLACK, EMPTY, WHITE, Game, IllegalMove
from teach.go.judge import Goal, GoalError, Judge
from teach.go.reading import WIN, BudgetExceeded, Limits, Reader, ladder_attack

TOPICS = ("liberties", "atari", "capture", "escape", "ladder", "net")
LEVELS = (1, 2, 3)
SIZES = (9, 13)

# Reading runs on nodes only (no clock), so the verdict is the same on a fast and a slow machine. The linter
# reads with the default, larger budget: a search that finishes inside this one ends the same way there.
LIMITS = Limits(nodes=6_000, seconds=1e9)
# Before the whole solve (every legal first move read once), the position itself must read light.
PRECHECK = Limits(nodes=400, seconds=1e9)
CHASE = Limits(nodes=3_000, seconds=1e9)  # ladders and nets read longer lines
MAX_ATTEMPTS = 3000
SEED_VERSION = "teach-practice/1"


class PracticeError(ValueError):
    """A request the generator cannot serve (unknown topic, level or size), or a set it failed to fill."""


# ---------------------------------------------------------------------------------------------- kid texts
def _t(zh: str, en: str) -> dict[str, str]:
    return {"zh": zh, "en": en}


def _stones(color: int, n: int) -> tuple[str, str]:
    zh = "黑棋" if color == BLACK else "白棋"
    en = ("black stone" if n == 1 else "black stones") if color == BLACK else (
        "white stone" if n == 1 else "white stones")
    return zh, en


# ---------------------------------------------------------------------------------------------- positions
class Sketch:
    """A position under construction: stones on point indices, with the engine's neighbour tables."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.nb = neighbours(size)
        self.diag = diagonals(size)
        self.board = [EMPTY] * (size * size)

    def at(self, col: int, row: int) -> int | None:
        if 0 <= col < self.size and 0 <= row < self.size:
            return from_col_row(col, row, self.size)
        return None

    def put(self, p: int, color: int) -> None:
        self.board[p] = color

    def chain(self, p: int) -> tuple[set[int], set[int]]:
        """Stones and liberties of the chain on ``p``."""
        color, board, nb = self.board[p], self.board, self.nb
        stones, libs, todo = {p}, set(), [p]
        while todo:
            q = todo.pop()
            for r in nb[q]:
                if board[r] == color and r not in stones:
                    stones.add(r)
                    todo.append(r)
                elif board[r] == EMPTY:
                    libs.add(r)
        return stones, libs

    def chains(self) -> list[tuple[int, set[int], set[int]]]:
        seen: set[int] = set()
        out = []
        for p, c in enumerate(self.board):
            if c and p not in seen:
                stones, libs = self.chain(p)
                seen |= stones
                out.append((c, stones, libs))
        return out

    def near(self, p: int, dist: int) -> list[int]:
        c0, r0 = col_row(p, self.size)
        out = []
        for dc in range(-dist, dist + 1):
            for dr in range(-dist, dist + 1):
                q = self.at(c0 + dc, r0 + dr)
                if q is not None and q != p:
                    out.append(q)
        return out

    def edge_distance(self, p: int) -> int:
        c, r = col_row(p, self.size)
        return min(c, r, self.size - 1 - c, self.size - 1 - r)

    def game(self) -> Game | None:
        g = Game(self.size)
        black = [p for p, c in enumerate(self.board) if c == BLACK]
        white = [p for p, c in enumerate(self.board) if c == WHITE]
        try:
            g.setup(black=black, white=white)
        except ValueError:
            return None
        g.to_play = "black"
        return g

    def transformed(self, k: int) -> Sketch:
        """The same position under one of the board's 8 symmetries."""
        n = self.size
        out = Sketch(n)
        for p, c in enumerate(self.board):
            if c:
                col, row = col_row(p, n)
                if k & 1:
                    col = n - 1 - col
                if k & 2:
                    row = n - 1 - row
                if k & 4:
                    col, row = row, col
                out.board[from_col_row(col, row, n)] = c
        return out

    def diagram(self, labels: dict[int, str] | None = None) -> str:
        chars = ".XO"
        n = self.size
        rows = []
        for row in range(n - 1, -1, -1):
            cells = []
            for col in range(n):
                p = from_col_row(col, row, n)
                cells.append(labels[p] if labels and p in labels else chars[self.board[p]])
            rows.append(" ".join(cells))
        return "\n".join(rows) + "\n"


def _pick_spot(rng: random.Random, sk: Sketch, placement: str, margin: int = 0) -> int:
    """A starting point: 'open' keeps two lines from the edge, 'edge' sits on the first or second line, 'any'."""
    n = sk.size
    while True:
        p = rng.randrange(n * n)
        d = sk.edge_distance(p)
        if placement == "open" and d >= max(2, margin):
            return p
        if placement == "edge" and d <= 1:
            return p
        if placement == "any" and d >= 0:
            return p


def _grow(rng: random.Random, sk: Sketch, start: int, color: int, stones: int) -> set[int] | None:
    """A connected chain of ``stones`` stones grown from ``start`` (a random walk over empty neighbours)."""
    chain = [start]
    sk.put(start, color)
    while len(chain) < stones:
        options = [q for s in chain for q in sk.nb[s] if sk.board[q] == EMPTY]
        if not options:
            return None
        q = rng.choice(options)
        sk.put(q, color)
        chain.append(q)
    return set(chain)


def _support(rng: random.Random, sk: Sketch, around: set[int], keep_free: set[int], count: int,
             black_share: float = 0.5) -> None:
    """A few stones of both colours next to the fight (never on ``keep_free``)."""
    for _ in range(count):
        options = sorted({q for s in around for q in sk.near(s, 2)
                          if sk.board[q] == EMPTY and q not in keep_free})
        if not options:
            return
        q = rng.choice(options)
        sk.put(q, BLACK if rng.random() < black_share else WHITE)


def _distractors(rng: random.Random, sk: Sketch, groups: int) -> None:
    """Quiet groups of two or three stones away from the fight, as in a real game."""
    occupied = [p for p, c in enumerate(sk.board) if c]
    for _ in range(groups):
        far = [p for p in range(len(sk.board)) if sk.board[p] == EMPTY and sk.edge_distance(p) >= 1
               and all(max(abs(a - b) for a, b in zip(col_row(p, sk.size), col_row(q, sk.size))) >= 4
                       for q in occupied)]
        if not far:
            return
        start = rng.choice(far)
        color = rng.choice((BLACK, WHITE))
        stones = _grow(rng, sk, start, color, rng.randint(2, 3))
        if stones:
            occupied += stones


def _natural(sk: Sketch, allowed_atari: set[int], max_atari: int = 0) -> bool:
    """No stone without a liberty; at most ``max_atari`` chains in atari besides those on ``allowed_atari``."""
    extra = 0
    for _, stones, libs in sk.chains():
        if not libs:
            return False
        if len(libs) == 1 and not stones & allowed_atari:
            extra += 1
    return extra <= max_atari


# ---------------------------------------------------------------------------------------------- proofs
def _read(game: Game, to_play: str, what: str, target: int, budget: Limits = None) -> int | None:
    """The reader's result for ``to_play`` moving first (attack or defend the chain on ``target``), or None when
    the reading is heavier than a practice puzzle should be: then solving every first move would be too slow."""
    g = Game(game.size)
    g.setup(black=[p for p, c in enumerate(game.board) if c == BLACK],
            white=[p for p, c in enumerate(game.board) if c == WHITE])
    g.to_play = to_play
    reader = Reader(g, budget or PRECHECK)
    try:
        result, _ = reader.attack(target) if what == "attack" else reader.defend(target)
    except BudgetExceeded:
        return None
    return result


def winning_moves(game: Game, goal: Goal, most: int) -> list[str] | None:
    """Every winning first move for Black, as the judge finds them, or None when the puzzle is unfit:
    not a win, won only by ko, over budget, or more than ``most`` winning moves."""
    try:
        judge = Judge(game, goal, LIMITS)
        result, _ = judge.best(game)
    except (BudgetExceeded, GoalError):
        return None
    if result != WIN:
        return None
    # nearest moves first: the unfit puzzles (too many winners, a move over budget) are found out early
    size = game.size
    near = [col_row(game._require_point(t), size) for t in goal.targets]

    def distance(name: str) -> int:
        c, r = col_row(game._require_point(name), size)
        return min(max(abs(c - tc), abs(r - tr)) for tc, tr in near)

    wins = []
    for name in sorted(game.legal_moves(), key=distance):
        verdict = judge.judge([], name)
        if verdict.reason == "unknown":
            return None  # a move the reader could not settle inside the budget
        if verdict.result in ("correct", "continue"):
            if verdict.ko:
                return None
            wins.append(name)
            if len(wins) > most:
                return None
    order = {name: i for i, name in enumerate(game.legal_moves())}
    return sorted(wins, key=order.__getitem__)


def _tenuki_saves(game: Game, target: int, budget: Limits | None = None) -> bool:
    """If Black played elsewhere, could White save the target? (Otherwise any move 'wins': a trivial puzzle.)"""
    return _read(game, "white", "defend", target, budget) == WIN


def _tenuki_loses(game: Game, target: int) -> bool:
    """If Black played elsewhere, would White capture the target? (Otherwise nothing needs saving.)"""
    return _read(game, "white", "attack", target) == WIN


def capture_answers(game: Game, target: int, most: int, budget: Limits | None = None) -> list[str] | None:
    """The winning first moves of a capture puzzle on the chain at ``target``, when it is a fair one."""
    if not _tenuki_saves(game, target, budget) or _read(game, "black", "attack", target, budget) != WIN:
        return None
    return winning_moves(game, Goal("capture", (game.name(target),)), most)


def save_answers(game: Game, target: int, most: int) -> list[str] | None:
    """The winning first moves of a save puzzle for the chain at ``target``, when it is a fair one."""
    if not _tenuki_loses(game, target) or _read(game, "black", "defend", target) != WIN:
        return None
    return winning_moves(game, Goal("save", (game.name(target),)), most)


def _libs_after(game: Game, move: str, target: int) -> int | None:
    try:
        game.play(move, "black")
    except IllegalMove:
        return None
    try:
        ch = game._chain[target]
        return len(ch.libs) if ch is not None else 0
    finally:
        game.undo()


@dataclass
class Spec:
    """How big and how cluttered a level's positions are."""

    placement: tuple[str, ...]
    chain: tuple[int, int]
    support: tuple[int, int]
    distractors: tuple[int, int]
    most: int  # most winning first moves a puzzle may have


SPECS = {
    1: Spec(("open", "open", "open", "edge"), (1, 1), (0, 1), (0, 0), 1),
    2: Spec(("edge", "edge", "open", "any"), (1, 3), (1, 3), (0, 0), 2),
    3: Spec(("any", "edge", "any"), (2, 4), (2, 4), (1, 2), 2),
}


def _fight(rng: random.Random, size: int, level: int, color: int, libs_left: int,
           extra_libs_ok: bool = False, friends: bool = False) -> tuple[Sketch, set[int]] | None:
    """A chain of ``color`` with exactly ``libs_left`` liberties, the other liberties taken by the other colour,
    and a few supporting stones around."""
    spec = SPECS[level]
    sk = Sketch(size)
    start = _pick_spot(rng, sk, rng.choice(spec.placement))
    target = _grow(rng, sk, start, color, rng.randint(*spec.chain))
    if target is None:
        return None
    _, libs = sk.chain(start)
    if len(libs) < libs_left:
        return None
    libs = sorted(libs)
    rng.shuffle(libs)
    for q in libs[libs_left:]:
        sk.put(q, 3 - color)
    keep = set(libs[:libs_left])
    if friends:
        # white friends just beyond the last liberty: the stone runs home unless it is caught right now
        for lib in sorted(keep):
            homes = [q for q in sk.nb[lib] if sk.board[q] == EMPTY and not any(r in target for r in sk.nb[q])]
            if homes:
                _grow(rng, sk, rng.choice(homes), color, rng.randint(2, 3))
    _support(rng, sk, target, keep, rng.randint(*spec.support))
    _distractors(rng, sk, rng.randint(*spec.distractors))
    stones, now = sk.chain(start)
    if stones != target or (len(now) != libs_left and not extra_libs_ok):
        return None
    return sk, target


# ---------------------------------------------------------------------------------------------- topics
def _liberties(rng: random.Random, level: int, size: int) -> dict | None:
    spec = SPECS[level]
    color = WHITE if level == 1 or rng.random() < 0.7 else BLACK
    sk = Sketch(size)
    start = _pick_spot(rng, sk, rng.choice(spec.placement))
    target = _grow(rng, sk, start, color, rng.randint(1, 2) if level == 1 else rng.randint(*spec.chain) + 1)
    if target is None:
        return None
    _, libs = sk.chain(start)
    libs = sorted(libs)
    rng.shuffle(libs)
    for q in libs[:rng.randint(0, 1) if level == 1 else rng.randint(1, min(3, len(libs) - 1))]:
        sk.put(q, 3 - color)
    # diagonal neighbours of the same colour look connected but are not: the classic mistake at level 3
    if level >= 2:
        _support(rng, sk, target, set(), rng.randint(*spec.support) - 1)
    _distractors(rng, sk, rng.randint(*spec.distractors))
    stones, now = sk.chain(start)
    if stones != target or not now or not _natural(sk, set()):
        return None
    game = sk.game()
    if game is None:
        return None
    point = game.name(start)
    zh, en = _stones(color, len(stones))
    return {"quiz": {
        "ask": "liberties",
        "board": sk.diagram(),
        "target": point,
        "answers": game.liberties(point),
        "question": _t(f"数一数：点出带三角的{zh}所有的气。", f"Tap every liberty of the {en} with the triangle."),
        "marks": {"triangle": [point]},
    }}


def _atari(rng: random.Random, level: int, size: int) -> dict | None:
    made = _fight(rng, size, level, WHITE, 2)
    if made is None:
        return None
    sk, target = made
    if not _natural(sk, set(), 0 if level == 1 else 1):
        return None
    game = sk.game()
    if game is None:
        return None
    start = min(target)
    answers = [m for m in game.legal_moves() if _libs_after(game, m, start) == 1]
    if not 1 <= len(answers) <= 3:
        return None
    point = game.name(start)
    zh, en = _stones(WHITE, len(target))
    return {"quiz": {
        "ask": "atari",
        "board": sk.diagram(),
        "to_play": "black",
        "target": point,
        "answers": answers,
        "question": _t(f"打吃！下一步让带三角的{zh}只剩一口气。",
                       f"Atari! Play one move that leaves the marked {en} only one liberty."),
        "marks": {"triangle": [point]},
    }}


def _capture_puzzle(sk: Sketch, target: set[int], answers: list[str], text, hint) -> dict:
    game = Game(sk.size)
    point = game.name(min(target))
    step = {
        "board": sk.diagram(),
        "to_play": "black",
        "goal": "capture",
        "target": [point],
        "answers": answers,
        "text": text,
        "hint": hint,
        "marks": {"triangle": [point]},
    }
    return {"puzzle": step}


def _capture(rng: random.Random, level: int, size: int) -> dict | None:
    libs_left = 1 if level == 1 else 2 if level == 2 else rng.choice((2, 2, 3))
    made = _fight(rng, size, level, WHITE, libs_left, friends=level == 1 or rng.random() < 0.3)
    if made is None:
        return None
    sk, target = made
    if not _natural(sk, target, 0 if level == 1 else 1):
        return None
    game = sk.game()
    if game is None:
        return None
    answers = capture_answers(game, min(target), SPECS[level].most)
    if not answers:
        return None
    zh, en = _stones(WHITE, len(target))
    hint = (_t("它只剩一口气了。", "It has only one liberty left.") if libs_left == 1
            else _t("先数一数它有几口气，再想想把它往哪边赶。",
                    "Count its liberties first, then think which way to chase it."))
    return _capture_puzzle(sk, target, answers,
                           _t(f"黑猫警长出动！吃掉带三角的{zh}。", f"Black Cat Police, go! Capture the marked {en}."),
                           hint)


def _escape(rng: random.Random, level: int, size: int) -> dict | None:
    made = _fight(rng, size, level, BLACK, 1)
    if made is None:
        return None
    sk, target = made
    if not _natural(sk, target, 0 if level == 1 else 2):
        return None
    game = sk.game()
    if game is None:
        return None
    start = min(target)
    point = game.name(start)
    answers = save_answers(game, start, SPECS[level].most)
    if not answers:
        return None
    if level >= 2:
        # a real choice: the extension and the captures of the attackers in atari are all tempting
        ch = game._chain[start]
        tempting = {game.name(q) for q in ch.libs}
        for p in ch.stones:
            for q in game._nb[p]:
                a = game._chain[q]
                if a is not None and a.color == WHITE and len(a.libs) == 1:
                    tempting |= {game.name(lib) for lib in a.libs}
        if len(tempting) < 2 or tempting <= set(answers):
            return None
    zh, en = _stones(BLACK, len(target))
    return {"puzzle": {
        "board": sk.diagram(),
        "to_play": "black",
        "goal": "save",
        "target": [point],
        "answers": answers,
        "text": _t(f"带三角的{zh}被打吃了！快救救它。", f"Your marked {en} are in atari! Save them."
                   if len(target) > 1 else f"Your marked {en} is in atari! Save it."),
        "hint": _t("可以长出去，也可以吃掉打吃你的白子。想一想哪一步真的能逃掉。",
                   "You can run out, or capture a white stone that is attacking you. Which one really escapes?"),
        "marks": {"triangle": [point]},
    }}


# -- ladders and nets ----------------------------------------------------------------------------------
def _ladder_start(rng: random.Random, level: int, size: int, net: bool = False
                  ) -> tuple[Sketch, int, list[int]] | None:
    """The textbook ladder shape, drawn running to the upper right (it is turned later): a white stone with two
    liberties and three black stones that make every atari drive it diagonally. With ``net`` a fourth black
    stone closes the other side, so a loose move (枷) captures too. Returns the sketch, the target and the
    diagonal road the chase runs along."""
    sk = Sketch(size)
    lo, hi = {1: (2, 4), 2: (3, 6), 3: (4, 9)}[level]
    room = rng.randint(lo, min(hi, size - 3))
    col = max(1, size - 1 - room - rng.randint(0, 1))
    row = max(1, size - 1 - room - rng.randint(0, 1))
    if rng.random() < 0.5:
        col, row = row, col
    t = sk.at(col, row)
    sk.put(t, WHITE)
    for dc, dr in ((-1, 0), (0, -1), (1, -1)) + (((-1, 1),) if net else ()):
        sk.put(sk.at(col + dc, row + dr), BLACK)
    path = []
    k = 0
    while True:
        k += 1
        a, b = sk.at(col + k, row + k - 1), sk.at(col + k - 1, row + k)
        if a is None and b is None:
            break
        path += [q for q in (a, b) if q is not None]
        q = sk.at(col + k, row + k)
        if q is not None:
            path.append(q)
    return sk, t, path


def _behind(rng: random.Random, sk: Sketch, t: int, count: int) -> None:
    """Stones behind the ladder's start (below and left of it), where they do not touch the chase."""
    col, row = col_row(t, sk.size)
    spots = [q for q in (sk.at(col + dc, row + dr) for dc in range(-3, 2) for dr in range(-3, 2)
                         if (dc < -1 or dr < -1))
             if q is not None and sk.board[q] == EMPTY]
    for q in rng.sample(spots, min(count, len(spots))):
        sk.put(q, rng.choice((BLACK, WHITE)))


def _chase_length(game: Game, target: int) -> int:
    """How many ataris the ladder takes before the stones are captured (its principal line)."""
    g = Game(game.size)
    g.setup(black=[p for p, c in enumerate(game.board) if c == BLACK],
            white=[p for p, c in enumerate(game.board) if c == WHITE])
    n = 0
    while g._chain[target] is not None and n < 60:
        try:
            result, move = ladder_attack(g, target, LIMITS)
        except BudgetExceeded:
            return 0
        if result != WIN or move is None:
            return 0
        g.play_point(move, BLACK)
        n += 1
        ch = g._chain[target]
        if ch is None:
            break
        g.play_point(next(iter(ch.libs)), WHITE)
    return n


def _turn(rng: random.Random, sk: Sketch, t: int, points: list[int]) -> tuple[Sketch, int, list[int]]:
    k = rng.randrange(8)
    out = sk.transformed(k)
    n = sk.size

    def move(p: int) -> int:
        col, row = col_row(p, n)
        if k & 1:
            col = n - 1 - col
        if k & 2:
            row = n - 1 - row
        if k & 4:
            col, row = row, col
        return from_col_row(col, row, n)

    return out, move(t), [move(p) for p in points]


def _ladder(rng: random.Random, level: int, size: int) -> dict | None:
    made = _ladder_start(rng, level, size)
    if made is None:
        return None
    sk, t, path = made
    kind = "ladder" if level == 1 else rng.choice(("ladder", "ladder", "choice", "breaker") if level == 2
                                                   else ("ladder", "choice", "choice", "breaker"))
    _behind(rng, sk, t, rng.randint(0, 1) if level == 1 else rng.randint(1, 3))
    breaker = None
    if kind in ("choice", "breaker"):
        # a stone on the ladder's road: a white one breaks the ladder, a black one helps it
        far = path[3:] if len(path) > 4 else path[1:]
        if not far:
            return None
        breaker = rng.choice(far)
        if sk.board[breaker] != EMPTY:
            return None
        color = WHITE if kind == "breaker" or rng.random() < 0.6 else BLACK
        sk.put(breaker, color)
    if level == 3:
        _distractors(rng, sk, rng.randint(1, 2))
    sk, t, (breaker,) = _turn(rng, sk, t, [breaker if breaker is not None else t])
    if not _natural(sk, set(), 0):
        return None
    game = sk.game()
    if game is None or not _tenuki_saves(game, t) or _read(game, "black", "attack", t) is None:
        return None
    point = game.name(t)
    goal = Goal("capture", (point,))
    if kind == "ladder":
        answers = capture_answers(game, t, SPECS[level].most)
        if not answers:
            return None
        length = _chase_length(game, t)
        if length < {1: 2, 2: 3, 3: 4}[level] or not any(_libs_after(game, m, t) == 1 for m in answers):
            return None
        return _capture_puzzle(sk, {t}, answers, _t("用征子抓住带三角的白子！", "Catch the marked white stone with a ladder!"),
                               _t("一直打吃，把它往同一个方向赶。", "Keep giving atari, chasing it the same way."))
    # where the ladder starts: the atari that works when the road is clear
    clear = Sketch(size)
    clear.board = list(sk.board)
    clear.board[breaker] = EMPTY
    clear_game = clear.game()
    try:
        works_clear, first = ladder_attack(clear_game, t, LIMITS)
        works, _ = ladder_attack(game, t, LIMITS)
    except BudgetExceeded:
        return None
    if works_clear != WIN or first is None:
        return None
    if kind == "breaker":
        if works == WIN:
            return None
        answers = capture_answers(game, t, SPECS[level].most)
        if not answers or any(_libs_after(game, m, t) == 1 for m in answers):
            return None  # the capture must not be one more atari: the lesson is that the ladder fails
        return _capture_puzzle(sk, {t}, answers,
                               _t("征子不行了：那边有白子接应。换个办法抓住带三角的白子！",
                                  "The ladder won't work: a white friend is waiting on its road. "
                                  "Catch the marked white stone another way!"),
                               _t("不要马上打吃，先把它的出路罩住。", "Don't give atari right away: cover its way out."))
    # choice: will the ladder started at 'a' catch the stone? The judge must agree with the ladder reader.
    judge = Judge(game, goal, LIMITS)
    try:
        verdict = judge.judge([], game.name(first))
    except BudgetExceeded:
        return None
    if verdict.reason == "unknown" or verdict.ko:
        return None
    catches = verdict.result in ("correct", "continue")
    if catches != (works == WIN):
        return None
    if catches and _chase_length(game, t) < 3:
        return None
    return {"quiz": {
        "ask": "choice",
        "board": sk.diagram({first: "a"}),
        "question": _t("黑棋从 a 点开始征子，能抓住带三角的白子吗？",
                       "If Black starts a ladder at a, will it catch the marked white stone?"),
        "choices": [_t("能抓住", "Yes, it is caught"), _t("抓不住，白子逃掉了", "No, it escapes")],
        "answer": 0 if catches else 1,
        "marks": {"triangle": [point]},
    }}


def _net(rng: random.Random, level: int, size: int) -> dict | None:
    made = _ladder_start(rng, level, size, net=True)
    if made is None:
        return None
    sk, t, path = made
    # a white friend on the ladder's road, so the ladder fails and only the net works
    breaker = rng.choice(path[2:6] if len(path) > 3 else path[1:])
    if sk.board[breaker] != EMPTY:
        return None
    _grow(rng, sk, breaker, WHITE, rng.randint(2, 3))
    _behind(rng, sk, t, rng.randint(0, 1) if level == 1 else rng.randint(1, 3))
    if level == 3:
        _distractors(rng, sk, rng.randint(1, 2))
    sk, t, _ = _turn(rng, sk, t, [])
    if not _natural(sk, set(), 0):
        return None
    game = sk.game()
    if game is None:
        return None
    answers = capture_answers(game, t, SPECS[level].most, CHASE)
    if not answers or any((_libs_after(game, m, t) or 0) <= 1 for m in answers):
        return None  # a net, not one more atari
    return _capture_puzzle(sk, {t}, answers,
                           _t("用枷吃把带三角的白子关起来！", "Catch the marked white stone with a net!"),
                           _t("不要马上打吃，把它的出路罩住。", "Don't give atari right away: cover its way out."))


MAKERS = {"liberties": _liberties, "atari": _atari, "capture": _capture, "escape": _escape,
          "ladder": _ladder, "net": _net}


# ---------------------------------------------------------------------------------------------- the set
def _rng(topic: str, level: int, size: int, seed: int | str, index: int) -> random.Random:
    return random.Random(f"{SEED_VERSION}:{topic}:{level}:{size}:{seed}:{index}")


def _identity(step: dict) -> tuple:
    body = next(iter(step.values()))
    return body["board"], str(body.get("target"))


def generate(topic: str, level: int, seed: int | str, count: int = 10, size: int = 9) -> list[dict]:
    """``count`` practice steps for ``topic`` at ``level`` (1-3) on a ``size`` board, the same for the same
    arguments on any machine. Each step is a lesson-file step mapping (``{"puzzle": ...}`` or ``{"quiz": ...}``)."""
    if topic not in MAKERS:
        raise PracticeError(f"unknown practice topic {topic!r}; use one of {', '.join(TOPICS)}")
    if level not in LEVELS:
        raise PracticeError(f"level must be 1, 2 or 3, not {level!r}")
    if size not in SIZES:
        raise PracticeError(f"practice boards are 9x9 or 13x13, not {size!r}")
    if count < 0:
        raise PracticeError("count must not be negative")
    make = MAKERS[topic]
    steps: list[dict] = []
    seen: set[tuple] = set()
    for i in range(count):
        rng = _rng(topic, level, size, seed, i)
        for _ in range(MAX_ATTEMPTS):
            step = make(rng, level, size)
            if step is not None and _identity(step) not in seen:
                seen.add(_identity(step))
                steps.append(step)
                break
        else:
            raise PracticeError(f"could not make a {topic} puzzle at level {level} (seed {seed}, number {i + 1})")
    return steps


# ---------------------------------------------------------------------------------------------- output
def to_yaml(steps: list[dict]) -> str:
    """The steps as a lesson file's ``steps:`` list, diagrams as literal blocks (readable and pasteable)."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper: yaml.SafeDumper, value: str):
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump({"steps": steps}, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=120)
