"""The engine against two independent implementations on random legal games.

(a) sgfmill's ``boards.Board``: the board and the captured stones after every move (sgfmill has no ko rule; it
    just gets the same moves), also with multi-stone suicide allowed.
(b) GNU Go 3.8 (``--mode gtp --chinese-rules --situational-superko``, and ``--positional-superko``): after every
    move, ``is_legal`` for every empty point for the side to move, and the stones on the board. The games prefer
    captures, so they are full of kos and run into superko.
(c) the curriculum: every puzzle proven as ``teach lessons check`` proves it, and the winning first moves of the
    capture and save puzzles (GNU Go's tactical reading) and of the kill and live puzzles (its owl reading of whole
    groups) against GNU Go's answers, kept in tests/golden/ (``make golden`` asks GNU Go again).
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from sgfmill import boards

from teach.go import CHINESE_RULES, Game, Rules
from teach.go.coords import COLUMNS

GNUGO = "/usr/games/gnugo"


def capturing_moves(game: Game, legal: list[str]) -> list[str]:
    """Legal moves that take the last liberty of an opponent chain."""
    opponent = 1 if game.to_play == "white" else 2
    targets = {game.name(p) for c in game.chains() if c.color == opponent and len(c.libs) == 1 for p in c.libs}
    return [m for m in legal if m in targets]


def random_game(rng: random.Random, size: int, max_moves: int, pass_rate: float = 0.0, capture_rate: float = 0.0,
                rules: Rules = CHINESE_RULES):
    """Yield (game, colour, move, captured) for a random legal game, never two passes in a row (so it never ends).

    With ``capture_rate`` the game prefers captures, which makes kos and longer cycles (superko) far more common."""
    game = Game(size=size, rules=rules)
    last_pass = False
    for _ in range(max_moves):
        legal = game.legal_moves()
        if not legal or (not last_pass and rng.random() < pass_rate):
            if last_pass:
                return
            move = "pass"
        else:
            captures = capturing_moves(game, legal) if rng.random() < capture_rate else []
            move = rng.choice(captures or legal)
        color = game.to_play
        captured = game.play(move)
        last_pass = move == "pass"
        yield game, color, move, captured


# ---------------------------------------------------------------------------------------------- (a) sgfmill
def sgfmill_point(move: str) -> tuple[int, int]:
    """GTP name -> sgfmill (row, col), worked out here rather than with the engine's parser: row 0 is row 1."""
    return int(move[1:]) - 1, "ABCDEFGHJKLMNOPQRST".index(move[0])


def sgfmill_rows(board: boards.Board, size: int) -> list[str]:
    """sgfmill's board as our text rows: its (row, col) has row 0 at the bottom, so the top row is size - 1."""
    chars = {None: ".", "b": "X", "w": "O"}
    return ["".join(chars[board.get(row, col)] for col in range(size)) for row in range(size - 1, -1, -1)]


@pytest.mark.parametrize(("size", "max_moves"), [(9, 250), (13, 300), (19, 300)])
def test_random_games_match_sgfmill(size, max_moves):
    rng = random.Random(20240917 + size)
    captures = 0
    for _ in range(30):
        reference = boards.Board(size)
        history = []
        for game, color, move, captured in random_game(rng, size, max_moves, pass_rate=0.01, capture_rate=0.2):
            history.append(f"{color[0].upper()} {move}")
            if move != "pass":
                before = sgfmill_rows(reference, size)
                reference.play(*sgfmill_point(move), color[0])
                after = sgfmill_rows(reference, size)
                taken = {f"{COLUMNS[c]}{size - r}" for r in range(size) for c in range(size)
                         if before[r][c] != "." and after[r][c] == "."}
                assert set(captured) == taken, f"captures after {' '.join(history)}"
                captures += len(captured)
            assert game.board_rows() == sgfmill_rows(reference, size), f"board after {' '.join(history)}"
    assert captures > 100  # the games are long enough to capture plenty


@pytest.mark.parametrize("size", [5, 7])
def test_random_games_with_suicide_allowed_match_sgfmill(size):
    """Rules(suicide=True) against sgfmill, which also removes a chain that fills its own last liberty."""
    rng = random.Random(555 + size)
    suicides = 0
    for _ in range(20):
        reference = boards.Board(size)
        history = []
        for game, color, move, captured in random_game(rng, size, 300, pass_rate=0.01, capture_rate=0.3,
                                                       rules=Rules(suicide=True)):
            history.append(f"{color[0].upper()} {move}")
            if move != "pass":
                reference.play(*sgfmill_point(move), color[0])
                suicides += game.color_at(move) is None
            assert game.board_rows() == sgfmill_rows(reference, size), f"board after {' '.join(history)}"
    assert suicides >= 5, "the games should contain multi-stone suicides"


# ---------------------------------------------------------------------------------------------- (b) GNU Go
class GnuGo:
    """GNU Go over GTP pipes; commands are sent in batches and answered in order."""

    def __init__(self, *options: str) -> None:
        self.proc = subprocess.Popen([GNUGO, "--mode", "gtp", *options], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, commands: list[str]) -> list[str]:
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()
        answers = []
        for command in commands:
            lines = []
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"GNU Go stopped answering at {command!r}")
                if line == "\n":
                    if lines:
                        break
                    continue
                lines.append(line.rstrip("\n"))
            answer = "\n".join(lines)
            assert answer.startswith("="), f"GNU Go refused {command!r}: {answer}"
            answers.append(answer[1:].strip())
        return answers

    def close(self) -> None:
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()


@pytest.fixture(scope="module", params=["situational", "positional"])
def gnugo(request):
    """GNU Go with Chinese rules and the superko rule of the parameter (--chinese-rules alone has no superko)."""
    if not shutil.which(GNUGO):
        pytest.skip(f"GNU Go is not installed at {GNUGO} (apt-get install -y gnugo)")
    engine = GnuGo("--chinese-rules", f"--{request.param}-superko")
    engine.superko = request.param
    yield engine
    engine.close()


def empty_points(game: Game) -> list[str]:
    rows = game.board_rows()
    n = game.size
    return [f"{COLUMNS[c]}{n - r}" for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]


@pytest.mark.parametrize(("size", "games", "max_moves", "min_superko"), [(5, 25, 300, 1), (7, 20, 400, 1),
                                                                         (9, 12, 500, 0)])
def test_random_games_match_gnugo_legality(gnugo, size, games, max_moves, min_superko):
    """is_legal for every empty point, after every move of capture-hungry random games full of kos."""
    rng = random.Random(7001 + size)
    kos = superko_refusals = checked = 0
    for _ in range(games):
        gnugo.ask([f"boardsize {size}", "clear_board"])
        history = []
        for game, color, move, _ in random_game(rng, size, max_moves, pass_rate=0.02, capture_rate=0.7,
                                                rules=Rules(superko=gnugo.superko)):
            history.append(f"{color[0]} {move}")
            gnugo.ask([f"play {color} {move}"])
            to_play = game.to_play
            points = empty_points(game)
            answers = gnugo.ask([f"is_legal {to_play} {p}" for p in points] + ["list_stones black", "list_stones white"])
            theirs = {p for p, a in zip(points, answers) if a == "1"}
            ours = set(game.legal_moves())
            assert ours == theirs, (
                f"{gnugo.superko} superko, after {' '.join(history)} ({to_play} to play): "
                f"engine only {sorted(ours - theirs)}, GNU Go only {sorted(theirs - ours)}")
            assert {p for p in points if game.is_legal(p)} == ours
            assert set(answers[-2].split()) == _stones(game, "X"), f"black stones after {' '.join(history)}"
            assert set(answers[-1].split()) == _stones(game, "O"), f"white stones after {' '.join(history)}"
            checked += len(points)
            kos += game.ko_point is not None
            superko_refusals += sum(1 for p in points if p not in ours and game.why_illegal(p) == "superko")
    assert checked > 30_000
    assert kos >= 20, "the random games should contain plenty of kos"
    assert superko_refusals >= min_superko, "the random games should run into superko"


def _stones(game: Game, letter: str) -> set[str]:
    rows = game.board_rows()
    n = game.size
    return {f"{COLUMNS[c]}{n - r}" for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == letter}


# ------------------------------------------------------------------------- (c) the curriculum against GNU Go
# GNU Go's answers for every capture, save, kill and live puzzle are kept in a golden file (``make golden`` asks GNU Go again):
# the judge is compared with them without starting GNU Go, each entry carries a hash of its puzzle so a changed
# puzzle cannot be compared with stale answers, and a few puzzles are asked live so the file cannot drift.
GOLDEN = Path(__file__).resolve().parent / "golden" / "gnugo_capture_puzzles.json"
GOLDEN_GOALS = ("capture", "save", "kill", "live")
# A kill or live puzzle is a question about a whole group, which GNU Go's owl code answers; owl reading refuses to
# start inside trymove, so each move is played and taken back (play/undo) instead.
OWL_QUESTION = {"kill": "owl_defend", "live": "owl_attack"}


def _sgf_point(name: str, size: int) -> str:
    letters = "abcdefghijklmnopqrs"
    return letters[COLUMNS.index(name[0])] + letters[size - int(name[1:])]


def _puzzle_sgf(game: Game) -> str:
    stones = {color: sorted(_sgf_point(p, game.size) for p in _stones(game, letter))
              for color, letter in (("AB", "X"), ("AW", "O"))}
    return (f"(;SZ[{game.size}]PL[{'B' if game.to_play == 'black' else 'W'}]"
            + "".join(key + "".join(f"[{p}]" for p in pts) for key, pts in stones.items() if pts) + ")")


def golden_puzzles(catalog) -> dict[str, tuple]:
    """``lesson#step`` -> (puzzle, start position, position hash) for every single-target capture, save, kill or live
    puzzle."""
    found = {}
    for lesson_id, lesson in sorted(catalog.lessons.items()):
        for step, puzzle in enumerate(lesson.steps, 1):
            if getattr(puzzle, "goal", None) not in GOLDEN_GOALS or len(puzzle.targets) != 1:
                continue
            game = puzzle.start()
            digest = hashlib.sha256(f"{_puzzle_sgf(game)} {puzzle.goal} {puzzle.targets[0]}".encode()).hexdigest()
            found[f"{lesson_id}#{step}"] = (puzzle, game, digest[:16])
    return found


def ask_gnugo(engine: GnuGo, puzzle, game: Game, folder: Path) -> dict[str, str]:
    """GNU Go's result code for each legal first move, where it is not 0: ``does_attack`` for a capture; for a save,
    ``attack`` of the target after the move (trymove/popgo), so 0 there means the move saves it; for a kill,
    ``owl_defend`` of the target after the move (0: the group cannot live any more; a move that takes the target off
    the board kills it too); for a live, ``owl_attack`` after the move (0: the group can no longer be killed)."""
    (target,) = puzzle.targets
    sgf = folder / "puzzle.sgf"
    sgf.write_text(_puzzle_sgf(game))
    moves = list(game.legal_moves())
    color = game.to_play
    if puzzle.goal == "capture":
        answers = engine.ask([f"loadsgf {sgf}"] + [f"does_attack {m} {target}" for m in moves])[1:]
    elif puzzle.goal == "save":
        replies = engine.ask([f"loadsgf {sgf}"] + [c for m in moves
                                                    for c in (f"trymove {color} {m}", f"attack {target}", "popgo")])
        answers = [replies[2 + 3 * i].split()[0] for i in range(len(moves))]
    else:
        answers = []
        engine.ask([f"loadsgf {sgf}"])
        for m in moves:
            engine.ask([f"play {color} {m}"])
            (stones,) = engine.ask([f"list_stones {'white' if color == 'black' else 'black'}"]) \
                if puzzle.goal == "kill" else ("",)
            if puzzle.goal == "kill" and target not in stones.split():
                answers.append("0")  # the move captured the target: nothing is left to live
            else:
                answers.append(_owl_answer(engine, puzzle.goal, target))
            engine.ask(["undo"])
    return {m: a.split()[0] for m, a in zip(moves, answers) if a.split()[0] != "0"}


def _owl_answer(engine: GnuGo, goal: str, target: str) -> str:
    """The owl result code for the target's group, corrected for seki: owl knows only two eyes, and answers
    "1 PASS" (already dead) for a group in seki, where its whole-board status (final_status) does see the seki
    (seki-both-live: each side one eye and a shared liberty). A seki is life for a live puzzle and no kill for a
    kill puzzle, as in the judge."""
    answer = engine.ask([f"{OWL_QUESTION[goal]} {target}"])[0]
    code = answer.split()[0]
    if (goal == "live" and answer.split()[1:] == ["PASS"]) or (goal == "kill" and code == "0"):
        (status,) = engine.ask([f"final_status {target}"])
        if status == "seki":
            return "0" if goal == "live" else "seki"
    return code


def write_golden() -> None:
    """``make golden``: ask GNU Go about every capture, save, kill and live puzzle of the curriculum. A puzzle whose
    position, goal and target the file already holds (under whatever lesson step) keeps the answers it has: GNU Go
    gives the same ones again, and its owl reading takes minutes over the whole curriculum."""
    import tempfile

    from teach.lessons import load_lessons

    known = {}
    if GOLDEN.exists():
        known = {e["position"]: e["gnugo"] for e in json.loads(GOLDEN.read_text())["puzzles"].values()}
    engine = GnuGo()
    entries = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for key, (puzzle, game, digest) in golden_puzzles(load_lessons()).items():
                answers = known[digest] if digest in known else ask_gnugo(engine, puzzle, game, Path(folder))
                entries[key] = {"goal": puzzle.goal, "target": puzzle.targets[0], "position": digest,
                                "gnugo": answers}
    finally:
        engine.close()
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps({"about": "GNU Go 3.8's result codes for the first moves of the curriculum's capture, "
                                           "save, kill and live puzzles (make golden writes this file)", "puzzles": entries},
                                 indent=1, sort_keys=True) + "\n")


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())["puzzles"]


@pytest.fixture(scope="module")
def proven_lessons():
    """The curriculum with every puzzle proven, as ``teach lessons check`` proves it (and in worker processes)."""
    from teach.lessons import check_paths

    return check_paths()


def test_the_curriculum_proves_clean(proven_lessons):
    """What ``teach lessons check`` reports for lessons/: every file valid, every puzzle proven as its author says."""
    assert proven_lessons.errors == [], "\n".join(str(e) for e in proven_lessons.errors)


def test_the_golden_answers_are_current(proven_lessons, golden):
    stale = []
    puzzles = golden_puzzles(proven_lessons.catalog)
    for key, (puzzle, _, digest) in puzzles.items():
        entry = golden.get(key)
        if entry is None or (entry["position"], entry["goal"]) != (digest, puzzle.goal):
            stale.append(f"{key}: {'no entry' if entry is None else 'the puzzle changed'}")
    stale += [f"{key}: no such puzzle any more" for key in golden.keys() - puzzles.keys()]
    assert not stale, f"{GOLDEN.name} is out of date; run `make golden` (it needs GNU Go):\n" + "\n".join(stale)


def _against_golden(catalog, golden: dict, goal: str, gnugo_winning) -> tuple[int, list[str]]:
    """How many puzzles of ``goal`` were compared with their golden GNU Go answers, and a line for each whose
    winning first moves differ; ``gnugo_winning(game, answers)`` reads GNU Go's winning moves from its answers.
    Puzzles without a current golden entry are left to test_the_golden_answers_are_current, which names them."""
    checked, wrong = 0, []
    for key, (puzzle, game, digest) in golden_puzzles(catalog).items():
        entry = golden.get(key)
        if puzzle.goal != goal or entry is None or entry["position"] != digest:
            continue
        ours = set(puzzle.winning)
        theirs = gnugo_winning(game, entry["gnugo"])
        agreed = ours == theirs or (goal == "capture" and not theirs and _caught_anyway(puzzle, game)) or (
            ours < theirs and _slow(puzzle, theirs - ours))
        if not agreed:
            wrong.append(f"{key}: judge {sorted(ours)}, GNU Go {sorted(theirs)}")
        checked += 1
    return checked, wrong


def _slow(puzzle, moves: set[str]) -> bool:
    """GNU Go names every move that still wins; the judge calls a move that keeps the win without bringing the
    goal nearer ``slow`` (connecting a ko whose stones can be taken at once instead): the child hears that it
    works too, and that a better move is there. The two agree when the judge calls each of GNU Go's extra moves
    slow."""
    judge = puzzle.judge()
    return all(judge.judge([], m).result == "slow" for m in moves)


def _caught_anyway(puzzle, game: Game) -> bool:
    """GNU Go's does_attack answers 0 for a move no better than a tenuki, so for stones caught whatever the attacker
    plays (a one-eyed group whose outside roads are filled one by one) it names no move at all. The judge agrees
    when a move elsewhere still catches them: its verdict is ``slow`` (the win kept, the capture no nearer), and
    what it accepts are the moves that bring the capture nearer."""
    from teach.go.coords import col_row, parse_point

    def place(name: str) -> tuple[int, int]:
        return col_row(parse_point(name, game.size), game.size)

    targets = [place(t) for t in puzzle.targets]
    far = max(game.legal_moves(),
              key=lambda m: min(abs(place(m)[0] - c) + abs(place(m)[1] - r) for c, r in targets))
    return puzzle.judge().judge([], far).result == "slow"


def test_every_capture_puzzle_has_the_winning_first_moves_gnu_go_finds(proven_lessons, golden):
    """Each single-target capture puzzle of the curriculum: the first moves the judge accepts are exactly those
    for which GNU Go's does_attack says the capture works. A loose net the judge cannot prove would tell a
    child who plays it "wrong"; a chase it wrongly thinks works would teach something false."""
    checked, wrong = _against_golden(proven_lessons.catalog, golden, "capture",
                                     lambda game, answers: {m for m, code in answers.items() if code == "1"})
    assert checked >= 50
    assert not wrong, "\n".join(wrong)


def test_every_save_puzzle_has_the_saving_first_moves_gnu_go_finds(proven_lessons, golden):
    """Each single-target save puzzle: the first moves the judge accepts are exactly those after which GNU Go's
    attack finds no capture of the target."""
    checked, wrong = _against_golden(proven_lessons.catalog, golden, "save",
                                     lambda game, answers: set(game.legal_moves()) - answers.keys())
    assert checked >= 20
    assert not wrong, "\n".join(wrong)


def test_every_kill_puzzle_has_the_killing_first_moves_gnu_go_finds(proven_lessons, golden):
    """Each single-target kill puzzle: the first moves the judge accepts are exactly those after which GNU Go's
    owl_defend finds no way for the group to live (a child who finds a real kill is never told "wrong", and a move
    the group survives is never praised)."""
    checked, wrong = _against_golden(proven_lessons.catalog, golden, "kill",
                                     lambda game, answers: set(game.legal_moves()) - answers.keys())
    assert checked >= 25
    assert not wrong, "\n".join(wrong)


def test_every_live_puzzle_has_the_living_first_moves_gnu_go_finds(proven_lessons, golden):
    """Each single-target live puzzle: the first moves the judge accepts are exactly those after which GNU Go's
    owl_attack finds no way to kill the group."""
    checked, wrong = _against_golden(proven_lessons.catalog, golden, "live",
                                     lambda game, answers: set(game.legal_moves()) - answers.keys())
    assert checked >= 15
    assert not wrong, "\n".join(wrong)


def test_gnu_go_still_gives_the_golden_answers(tmp_path, golden):
    """A few puzzles of each goal asked live, so the golden file cannot silently drift from GNU Go."""
    if not shutil.which(GNUGO):
        pytest.skip(f"GNU Go is not installed at {GNUGO} (apt-get install -y gnugo)")
    from teach.lessons import load_lessons

    puzzles = golden_puzzles(load_lessons())
    sample = [key for goal in GOLDEN_GOALS for key in [k for k, v in puzzles.items() if v[0].goal == goal][::15]]
    assert len(sample) >= 4
    engine = GnuGo()
    try:
        for key in sample:
            puzzle, game, _ = puzzles[key]
            assert ask_gnugo(engine, puzzle, game, tmp_path) == golden[key]["gnugo"], key
    finally:
        engine.close()


if __name__ == "__main__":
    write_golden()
