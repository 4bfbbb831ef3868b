"""Life and death (teach.go.lifedeath): the goals ``kill`` and ``live``, proven by search.

The syllabus's eye shapes are drawn below as small diagrams of the eye space only; the position around them is
built the same way every time: the defender's wall is every point next to the eye space (sides and diagonals),
the attacker's wall every point next to that, so the defender has no liberty outside its eye and nothing else
matters. Marks in a shape diagram:

    *  the vital point: the only killing move, and a move that lives
    x  a killing move that is not a vital point (square four dies whatever happens)
    +  another move that lives
    k  a defender move that only reaches a ko (KO_B: the defender must win a ko the attacker takes first)
    .  any other point of the eye space

Each shape is solved in a corner, on an edge and in the centre, on 9x9 (as drawn, corner at A1) and on 13x13
(the whole board turned half a turn, corner at N13), with either colour defending. For every puzzle the test
asks the solver about every legal first move of the region, for both goals, and compares the full answer with
the diagram: the listed moves win (with the listed result), every other move loses.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from teach.go import Game
from teach.go.gtp import GtpEngine
from teach.go.lifedeath import LifeReader, default_region, owl, solve
from teach.go.reading import KO_A, KO_B, LOSE, WIN, BudgetExceeded, Limits

from conftest import build_position

GNUGO = "/usr/games/gnugo"
BLACK, WHITE = 1, 2

# ---------------------------------------------------------------------- the syllabus's eye shapes
SHAPES: dict[str, list[str]] = {
    "straight three 直三": [".*."],
    "bent three 曲三": [". ", "*."],
    "T-four 丁四": [" . ", ".*."],
    "square four 方块四": ["xx", "xx"],
    "bulky five 刀把五": [".+ ", "+*."],
    "flower five 梅花五": [" . ", ".*.", " . "],
    "rabbity six 葡萄六": [" . ", "+*.", ".+ "],
    "straight four 直四": [".++."],
    "bent four 曲四": ["  .", ".++"],
}
# In the corner the bulky five's two other living points only reach a ko: a stone on the 1-1 point is cut off
# and the attacker takes it in a ko; after a stone on the 2-2 point the eye space left is the bent four in the
# corner (盘角曲四), a ko as well.
CORNER_SHAPES = {"bulky five 刀把五": [".k ", "k*."]}
LOCATIONS = ("corner", "edge", "centre")


def shape_position(name: str, where: str, size: int, defender: int) -> tuple[Game, int, dict[int, str]]:
    """(game, a point of the defender's wall, {point: mark}) for an eye shape placed at ``where``."""
    rows = CORNER_SHAPES.get(name, SHAPES[name]) if where == "corner" else SHAPES[name]
    height, width = len(rows), max(len(r) for r in rows)
    cells = {(height - 1 - i, j): ch for i, row in enumerate(rows) for j, ch in enumerate(row) if ch != " "}
    if where == "corner":
        r0, c0 = 0, 0
    elif where == "edge":
        r0, c0 = 0, (size - width) // 2
    else:
        r0, c0 = (size - height) // 2, (size - width) // 2
    eye = {(r + r0, c + c0): ch for (r, c), ch in cells.items()}

    def ring(points: set, d: int) -> set:
        return {(r + dr, c + dc) for r, c in points for dr in range(-d, d + 1) for dc in range(-d, d + 1)
                if 0 <= r + dr < size and 0 <= c + dc < size}

    inner = ring(set(eye), 1) - set(eye)
    outer = ring(set(eye), 2) - set(eye) - inner

    def index(rc: tuple[int, int]) -> int:
        r, c = rc
        if size == 13:  # turned half a turn: the corner is the top right one
            r, c = size - 1 - r, size - 1 - c
        return r * size + c

    game = Game(size)
    own, other = [index(p) for p in inner], [index(p) for p in outer]
    game.setup(black=own if defender == BLACK else other, white=other if defender == BLACK else own)
    return game, min(own), {index(p): ch for p, ch in eye.items()}


def solution(reader: LifeReader, goal: str) -> dict[str, int]:
    """Every legal first move of the region that does not lose, with its result (GTP names)."""
    g = reader.g
    color = reader.attacker if goal == "kill" else reader.defender
    answer = {}
    for m in reader.candidates(color):
        v = reader.does_kill(m) if goal == "kill" else reader.does_live(m)
        if v != LOSE:
            answer[g.name(m)] = v
    assert sorted(answer.items()) == sorted((g.name(m), v) for m, v in reader.winning_moves(goal))
    return answer


def expected(marks: dict[int, str], game: Game, goal: str) -> dict[str, int]:
    if goal == "kill":
        return {game.name(p): WIN for p, ch in marks.items() if ch in "*x"}
    values = {"*": WIN, "+": WIN, "k": KO_B}
    return {game.name(p): values[ch] for p, ch in marks.items() if ch in values}


@pytest.mark.parametrize("defender", [WHITE, BLACK], ids=["white-lives", "black-lives"])
@pytest.mark.parametrize("size", [9, 13])
@pytest.mark.parametrize("where", LOCATIONS)
@pytest.mark.parametrize("name", list(SHAPES))
def test_eye_shape(name, where, size, defender):
    game, group, marks = shape_position(name, where, size, defender)
    picture = "\n" + "\n".join(game.board_rows())
    reader = LifeReader(game, group)
    assert reader.defender == defender
    assert {p for p in marks} <= reader.region, picture
    kill = expected(marks, game, "kill")
    live = expected(marks, game, "live")

    result, move = reader.kill()
    if kill:
        assert result == WIN and game.name(move) in kill, picture
    else:  # straight four, bent four: alive even when the attacker moves first
        assert (result, move) == (LOSE, None), picture
    result, move = reader.live()
    if not live:  # square four: dead even when the defender moves first
        assert (result, move) == (LOSE, None), picture
    elif kill:
        assert result == WIN and live[game.name(move)] == WIN, picture
    else:  # already alive: no move needed
        assert (result, move) == (WIN, None), picture

    assert solution(reader, "kill") == kill, picture
    assert solution(reader, "live") == live, picture


def test_vital_points_are_the_points_with_most_room():
    """The killing point of each nakade shape is the eye point with the most empty neighbours in the eye."""
    for name in ("straight three 直三", "bent three 曲三", "T-four 丁四", "bulky five 刀把五", "flower five 梅花五",
                 "rabbity six 葡萄六"):
        game, group, marks = shape_position(name, "centre", 9, WHITE)
        eye = set(marks)
        room = {p: sum(1 for q in game.adjacent[p] if q in eye) for p in eye}
        vital = [p for p, ch in marks.items() if ch == "*"]
        assert len(vital) == 1 and room[vital[0]] == max(room.values()), name
        assert sum(1 for v in room.values() if v == max(room.values())) == 1, name


def test_shapes_are_solved_with_few_nodes():
    for name in SHAPES:
        game, group, _ = shape_position(name, "centre", 13, WHITE)
        reader = LifeReader(game, group)
        reader.kill()
        assert reader.nodes < 500, name
        reader.live()
        assert reader.nodes < 500, name


# ---------------------------------------------------------------------- hand-made positions
FALSE_EYE = [  # white: one real eye (A1) and one false eye (D1: black C2 cuts)
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X X X X .",
    "O O X O O O O X .",
    ". O O . O O . X .",
]
REAL_EYE = [row.replace("O O X O", "O O O O") for row in FALSE_EYE]  # no cutting stone: two real eyes
TWO_EYES = [  # two separate one-point eyes
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X . . . .",
    "O O O O X . . . .",
    ". O . O X . . . .",
]
SEKI = [  # white and the three black stones inside share two liberties; whoever fills one is captured
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X X X . .",
    "O O O O O O X . .",
    ". X X X . O X . .",
]
EYE_KO = [  # white's second eye at C1 hangs on the lone stone D1: black C1 takes it with a ko
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X . . . .",
    "O O O X X . . . .",
    ". O . O X . . . .",
]
EYE_KO_TAKEN = [  # the same after black took the ko at C1 (white may retake: the position was set up)
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X . . . .",
    "O O O X X . . . .",
    ". O X . X . . . .",
]


STRAIGHT_THREE_IN_ATARI_NET = [  # straight three on the edge; black G1 sits on white's only outside liberty
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    "X X X X X X X X .",
    "X O O O O O . X .",
    "X O . . . O X . .",
]


def reader_for(rows: list[str], point: str, swap: bool = False, **kw) -> tuple[Game, LifeReader]:
    if swap:
        rows = [r.translate(str.maketrans("XO", "OX")) for r in rows]
    game = build_position(rows)
    return game, LifeReader(game, game.point(point), **kw)


def names(game: Game, moves) -> dict[str, int]:
    return {game.name(m): v for m, v in moves}


@pytest.mark.parametrize("swap", [False, True], ids=["white", "black"])
def test_false_eye_is_dead(swap):
    game, reader = reader_for(FALSE_EYE, "A2", swap)
    assert reader.kill() == (WIN, game.point("G1"))  # take the last outside liberty: D1 must be filled
    assert reader.live() == (LOSE, None)
    assert solution(reader, "kill") == {"G1": WIN}
    assert solution(reader, "live") == {}


def test_real_eyes_need_no_search():
    for rows in (REAL_EYE, TWO_EYES):
        game, reader = reader_for(rows, "A2")
        assert reader.kill() == (LOSE, None)
        assert reader.live() == (WIN, None)
        assert reader.nodes == 0
    # the local pass-alive check alone (the root question goes to teach.go.life first) needs no search either
    game, reader = reader_for(TWO_EYES, "A2")
    reader._root_alive = False
    assert reader.kill() == (LOSE, None) and reader.nodes == 0
    # filling one of its own eyes is the only way to spoil it
    game, reader = reader_for(TWO_EYES, "A2")
    assert solution(reader, "live") == {}
    game, reader = reader_for(REAL_EYE, "A2")
    assert solution(reader, "live") == {"G1": WIN}


@pytest.mark.parametrize("swap", [False, True], ids=["white", "black"])
def test_straight_three_with_a_cutting_stone_outside(swap):
    """D1 is the vital point either way. White G2 (atari) or H1 also reach something, but only a ko: black
    kills at D1 instead of saving G1, and the eye white makes by capturing G1 is a ko (GNU Go's owl code, not
    ko-aware, calls both moves failures and agrees on D1)."""
    game, reader = reader_for(STRAIGHT_THREE_IN_ATARI_NET, "C2", swap)
    assert reader.kill() == (WIN, game.point("D1"))
    assert reader.live() == (WIN, game.point("D1"))
    assert solution(reader, "kill") == {"D1": WIN}
    assert solution(reader, "live") == {"D1": WIN, "G2": KO_B, "H1": KO_B}


@pytest.mark.parametrize("swap", [False, True], ids=["white", "black"])
def test_seki_counts_as_alive(swap):
    game, reader = reader_for(SEKI, "A2", swap)
    assert reader.kill() == (LOSE, None)
    assert reader.live() == (WIN, None)  # no move needed: passing keeps the seki
    assert solution(reader, "kill") == {}  # A1 or E1 is a self-atari: white takes four and lives
    assert solution(reader, "live") == {}  # white filling a shared liberty is captured


@pytest.mark.parametrize("swap", [False, True], ids=["white", "black"])
def test_eye_ko(swap):
    game, reader = reader_for(EYE_KO, "A2", swap)
    assert reader.kill() == (KO_A, game.point("C1"))  # the attacker takes the ko first
    assert reader.live() == (KO_B, None)  # the defender cannot mend it: it must win the ko black takes
    assert solution(reader, "kill") == {"C1": KO_A}
    assert solution(reader, "live") == {}

    game, reader = reader_for(EYE_KO_TAKEN, "A2", swap)
    assert reader.live() == (KO_A, game.point("D1"))  # retake the ko, then win it
    assert solution(reader, "live") == {"D1": KO_A}
    assert reader.kill() == (WIN, game.point("A1"))  # the defender is in atari
    assert solution(reader, "kill") == {"A1": WIN, "D1": WIN}


def test_a_banned_ko_retake_is_a_ko_threat_away():
    game, reader = reader_for(EYE_KO, "A2")
    game.play("C1", "black")  # now white may not retake at once
    reader = LifeReader(game, game.point("A2"))
    assert reader.live() == (KO_B, game.point("D1"))  # retake after a ko threat
    assert reader.does_live(game.point("D1")) == KO_B
    assert reader.kill() == (WIN, game.point("A1"))
    reader = LifeReader(game, game.point("A2"), ko_threats=0)  # nobody has a ko threat
    assert reader.live() == (LOSE, None)


# ---------------------------------------------------------------------- regions, budgets, API
def test_default_region_is_tight():
    game, group, marks = shape_position("rabbity six 葡萄六", "centre", 13, WHITE)
    region, eye = default_region(game, group)
    assert eye == set(marks)
    assert region == eye | {p for p, c in enumerate(game.board) if c == WHITE}
    game = build_position(FALSE_EYE)
    region, eye = default_region(game, game.point("A2"))
    assert {game.name(p) for p in region if not game.board[p]} == {"A1", "D1", "G1"}


def test_region_can_be_given():
    game = build_position(FALSE_EYE)
    region = {game.point(m) for m in ("A1", "D1")}
    # both points are forbidden to black, and G1 is outside the region: the left-hand chain stands
    reader = LifeReader(game, game.point("A2"), region=region)
    assert reader.kill() == (LOSE, None)
    # the attacker may always fill the target's own liberties: G1 is one of the right-hand chain's
    reader = LifeReader(game, game.point("E2"), region=region)
    assert reader.kill() == (WIN, game.point("G1"))


def test_too_big_a_problem_answers_unknown_within_its_node_budget():
    game = Game(19)
    game.setup(black=["K10"], white=[])
    limits = Limits(nodes=5_000, seconds=600.0)  # a clock far away: the node budget must be what stops the read
    reader = LifeReader(game, game.point("K10"), limits=limits)
    with pytest.raises(BudgetExceeded) as stopped:
        reader.kill()
    assert reader.nodes == stopped.value.args[0] == limits.nodes + 1
    assert solve(game, "K10", "live", limits) == ("unknown", None)
    assert owl(game, game.point("K10"), "attack", limits) == (0, None)


def test_depth_limit_gives_unknown_not_a_wrong_answer():
    game, group, _ = shape_position("rabbity six 葡萄六", "edge", 9, WHITE)
    with pytest.raises(BudgetExceeded):
        LifeReader(game, group, limits=Limits(max_depth=3)).kill()
    assert LifeReader(game, group, limits=Limits(max_depth=40)).kill()[0] == WIN


def test_api():
    game = build_position(FALSE_EYE)
    assert solve(game, "A2", "kill") == ("win", "G1")
    assert solve(game, "A2", "live") == ("lose", None)
    game = build_position(EYE_KO)
    assert solve(game, "A2", "kill") == ("ko", "C1")
    with pytest.raises(ValueError):
        LifeReader(game, game.point("H8"))
    reader = LifeReader(game, game.point("A2"))
    with pytest.raises(ValueError):
        reader.winning_moves("capture")
    assert reader.does_kill(game.point("B1")) == LOSE  # occupied
    assert reader.does_kill(game.point("A1")) == LOSE  # suicide
    before = (game.board_rows(), game.hash, game.to_play, len(game.moves))
    reader.kill(), reader.live(), reader.winning_moves("kill")
    assert (game.board_rows(), game.hash, game.to_play, len(game.moves)) == before  # the game is not touched


# ---------------------------------------------------------------------- GTP, and GNU Go's opinion
def gtp_position(rows: list[str]) -> list[str]:
    game = build_position(rows)
    cmds = [f"boardsize {game.size}", "clear_board"]
    for p, c in enumerate(game.board):
        if c:
            cmds.append(f"play {'black' if c == BLACK else 'white'} {game.name(p)}")
    return cmds


def ask(engine: GtpEngine, line: str) -> str:
    response = engine.handle(line)
    assert response is not None and response.endswith("\n\n")
    return response[:-2].rstrip()


def test_gtp_owl_commands():
    engine = GtpEngine()
    for line in gtp_position(FALSE_EYE):
        assert ask(engine, line) == "="
    assert ask(engine, "owl_attack A2") == "= 1 G1"
    assert ask(engine, "owl_defend A2") == "= 0"
    assert ask(engine, "owl_attack H8").startswith("? vertex must not be empty")
    assert ask(engine, "owl_defend").startswith("? syntax error")
    for line in gtp_position(SEKI):
        ask(engine, line)
    assert ask(engine, "owl_attack A2") == "= 0"
    assert ask(engine, "owl_defend A2") == "= 1 PASS"
    for line in gtp_position(EYE_KO):
        ask(engine, line)
    assert ask(engine, "10 owl_attack B1") == "=10 2 C1"
    assert ask(engine, "owl_defend B1") == "= 3 PASS"
    assert "owl_attack" in ask(engine, "list_commands").split()


CORNER_PUZZLES = [(name, WHITE) for name in SHAPES] + [(name, BLACK) for name in SHAPES]


@pytest.mark.skipif(not shutil.which(GNUGO), reason=f"GNU Go is not installed at {GNUGO}")
def test_owl_agrees_with_gnugo_on_corner_puzzles():
    """GNU Go 3.8's owl_attack / owl_defend on the corner shapes (both colours) and the hand-made positions.

    Its answers must have the same success code as ours, and its move must be one of our winning moves (or
    PASS where we need no move). The ko positions are left out: GNU Go's owl code reads the eye ko simply as
    dead (its own regression file says it is "not very ko-aware")."""
    positions = []
    for name, defender in CORNER_PUZZLES:
        game, group, _ = shape_position(name, "corner", 9, defender)
        positions.append((name, game, group))
    for label, rows, point in (("false eye", FALSE_EYE, "A2"), ("seki", SEKI, "A2"), ("real eye", REAL_EYE, "A2"),
                               ("straight three, G1 outside", STRAIGHT_THREE_IN_ATARI_NET, "C2")):
        game = build_position(rows)
        positions.append((label, game, game.point(point)))
    script = []
    for _, game, group in positions:
        script += [f"boardsize {game.size}", "clear_board"]
        script += [f"play {'black' if c == BLACK else 'white'} {game.name(p)}" for p, c in enumerate(game.board) if c]
        script += [f"owl_attack {game.name(group)}", f"owl_defend {game.name(group)}"]
    out = subprocess.run([GNUGO, "--mode", "gtp"], input="\n".join(script) + "\nquit\n", capture_output=True,
                         text=True, timeout=60).stdout
    answers = [block.strip()[2:] for block in out.strip().split("\n\n")]
    owl_answers = [a for cmd, a in zip(script, answers) if cmd.startswith("owl_")]
    assert len(owl_answers) == 2 * len(positions)
    for k, (label, game, group) in enumerate(positions):
        reader = LifeReader(game, group)
        for goal, gnu in (("kill", owl_answers[2 * k]), ("live", owl_answers[2 * k + 1])):
            result, move = reader.kill() if goal == "kill" else reader.live()
            wins = names(game, reader.winning_moves(goal))
            code, *rest = gnu.split()
            assert (code != "0") == (result == WIN), (label, goal, gnu, result)
            if rest and rest[0] != "PASS":
                assert rest[0] in wins, (label, goal, gnu, wins)
            elif rest:
                assert move is None or result == WIN, (label, goal, gnu)


def test_local_pass_alive_check_never_claims_more_than_teach_go_life():
    """The search's own Benson check (exact when it says alive) against life.unconditionally_alive on random
    positions: every chain it calls pass-alive, GNU Go's unconditional analysis calls alive too."""
    import random

    from teach.go.life import unconditionally_alive

    rng = random.Random(20261129)
    claimed = 0
    for _ in range(150):
        n = rng.choice([5, 6, 7])
        game = Game(n)
        for _ in range(int(n * n * rng.uniform(0.6, 1.6))):
            p, c = rng.randrange(n * n), rng.choice([BLACK, WHITE])
            if game.is_legal_point(p, c):
                game.play_point(p, c)
        for color in (BLACK, WHITE):
            alive = unconditionally_alive(game, color)
            for ch in game.chains():
                if ch.color == color:
                    reader = LifeReader(game, ch.stones[0])
                    if reader._benson(reader.g.chain_of[ch.stones[0]]):
                        claimed += 1
                        assert ch.stones[0] in alive, "\n" + str(game)
    assert claimed > 10
