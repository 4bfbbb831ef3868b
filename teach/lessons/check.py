"""Checking one lesson: the typed objects are built from the schema-valid data, every diagram, mark, move and
answer is checked against the board, and every puzzle is proven by the reader."""

from __future__ import annotations

from pathlib import Path as FilePath

from teach.go import Game, IllegalMove
from teach.go.judge import Goal, GoalError, Judge, Solution
from teach.go.reading import LOSE, BudgetExceeded, Limits

from . import claims, schema
from .diagram import Position, parse_diagram, position_from_sgf
from .errors import LessonError, Path, Source
from .model import Demo, DemoMove, Explain, Lesson, Marks, Puzzle, Quiz, Step, Sticker, Text

# The node budget is the web app's; the clock is generous so a busy machine cannot turn a proof into `unknown`.
PROVE_LIMITS = Limits(seconds=60.0)

QUIZ_KEYS = {
    "liberties": {"target", "answers"},
    "forbidden": {"to_play", "answers"},
    "atari": {"to_play", "target", "answers"},
    "legal": {"to_play", "point", "answer"},
    "winner": {"komi", "dead", "answer"},
    "count": {"color", "dead", "answer"},
    "tap": {"answers"},
    "choice": {"choices", "answer"},
}
QUIZ_REQUIRED = {"liberties": ("target",), "atari": ("target",), "legal": ("point",), "count": ("color",),
                 "tap": ("answers",), "choice": ("choices", "answer")}
QUIZ_COMMON = {"ask", "question", "hint", "success", "board", "anchor", "sgf", "marks"}

_solutions: dict[tuple, Solution] = {}  # proofs per (position, side, goal, targets) in this process


def text(value: dict | None) -> Text | None:
    return Text(value["zh"], value["en"]) if value is not None else None


def solve(position: Position, to_play: str, goal: Goal) -> Solution:
    """Every first move judged (cached per position, side to move and goal)."""
    key = (position, to_play, goal)
    hit = _solutions.get(key)
    if hit is None:
        hit = Judge(position.game(to_play), goal, PROVE_LIMITS).solve()
        _solutions[key] = hit
    return hit


# CPU seconds the whole proof of one lesson puzzle may take: more is a puzzle too branchy for a child (and for a
# server to prove while a teacher waits)
WHOLE_PROOF_SECONDS = 120.0
WHOLE_PROOF_POSITIONS = 600  # and the positions a child can reach in it (each with every legal move judged)


class Checker:
    def __init__(self, source: Source, prove: bool = True, store=None) -> None:
        """``prove``: read every puzzle's first moves; with a ``store`` (``proofstore.Store``), also prove each
        puzzle whole (every position a child can reach), taking what the store holds and adding the rest."""
        self.source = source
        self.prove = prove
        self.store = store
        self.errors: list[LessonError] = []
        self.puzzles = 0
        self.lesson_id = ""

    def error(self, path: Path, message: str, key: bool = False) -> None:
        self.errors.append(self.source.error(path, message, key))

    # ------------------------------------------------------------------ the lesson
    def lesson(self, data: dict, file: str = "") -> Lesson | None:
        bad = schema.validate(data, self.source)
        self.errors += bad
        if bad and not isinstance(data, dict):
            return None
        bad_paths = {e.path for e in bad}
        self.lesson_id = data.get("id") if isinstance(data.get("id"), str) else ""
        size = data.get("size") if data.get("size") in (9, 13, 19) else None
        if file and isinstance(data.get("id"), str) and FilePath(file).stem != data["id"]:
            self.error(("id",), f"the file of lesson `{data['id']}` should be named {data['id']}.yaml")
        steps = []
        raw_steps = data.get("steps") if isinstance(data.get("steps"), list) else []
        for i, step in enumerate(raw_steps):
            prefix = schema_path(("steps", i))
            if size is None or any(p == prefix or p.startswith(prefix + ".") or p.startswith(prefix + "[")
                                   for p in bad_paths):
                continue
            built = self.step(step, ("steps", i), size)
            if built is not None:
                steps.append(built)
        if bad or self.errors:
            return None
        s = data["sticker"]
        return Lesson(data["id"], data["topic"], data["order"], data["level"], data["size"],
                      Sticker(s["id"], s["picture"], text(s["name"])), text(data["title"]), text(data["intro"]),
                      text(data["recap"]), steps, file)

    # ------------------------------------------------------------------ one step
    def step(self, step: dict, path: Path, size: int) -> Step | None:
        (kind, body), = step.items()
        path = path + (kind,)
        before = len(self.errors)
        position = self.position(body, path, size)
        if len(self.errors) > before:
            return None
        if position is None and kind != "explain" and not (kind == "quiz" and body.get("ask") == "choice"):
            self.error(path, f"a {kind} needs a position: `board` (a diagram) or `sgf`", key=True)
            return None
        marks = self.marks(body, path, position)
        if kind == "explain":
            result: Step | None = Explain(position, marks, text(body["text"]))
        elif kind == "demo":
            result = self.demo(body, path, position, marks)
        elif kind == "puzzle":
            result = self.puzzle(body, path, position, marks, size)
        else:
            result = self.quiz(body, path, position, marks)
        if len(self.errors) == before:
            claims.check(self, result, path)  # what an explain or a quiz's right answer says is proven too
        return result if len(self.errors) == before else None

    def point(self, path: Path, name: str, size: int) -> str | None:
        name = name.upper()
        col, row = "ABCDEFGHJKLMNOPQRST".index(name[0]), int(name[1:])
        if col >= size or row > size:
            self.error(path, f"{name} is off the {size}x{size} board")
            return None
        return name

    def points(self, path: Path, names, size: int) -> tuple[str, ...] | None:
        """Points checked to be on the board (None if any is not)."""
        if isinstance(names, str):
            names = [names]
            paths = [path]
        else:
            paths = [path + (i,) for i in range(len(names))]
        out = [self.point(p, n, size) for p, n in zip(paths, names)]
        return None if None in out else tuple(out)

    def position(self, body: dict, path: Path, size: int) -> Position | None:
        if "board" in body and "sgf" in body:
            self.error(path + ("sgf",), "a step has either `board` or `sgf`, not both", key=True)
            return None
        if "anchor" in body and "board" not in body:
            self.error(path + ("anchor",), "`anchor` places a `board` diagram; this step has none", key=True)
            return None
        if "sgf" in body:
            position, problem = position_from_sgf(body["sgf"], size)
            if problem:
                self.error(path + ("sgf",), problem)
            return position
        if "board" not in body:
            return None
        diagram = parse_diagram(body["board"], size, body.get("anchor"))
        for row, col, message in diagram.errors:
            self.errors.append(self.source.error_in_text(path + ("board",), row, col, message))
        position = diagram.position
        if position is None:
            return None
        dead = _stones_without_liberties(position)
        if dead:
            row, col = diagram.cells[dead[0]]
            color = position.color_at(dead[0])
            self.errors.append(self.source.error_in_text(
                path + ("board",), row, col,
                f"the {color} stone{'s' if len(dead) > 1 else ''} at {', '.join(dead)} "
                f"{'have' if len(dead) > 1 else 'has'} no liberty (a position must be legal)"))
            return None
        return position

    def marks(self, body: dict, path: Path, position: Position | None) -> Marks:
        raw = body.get("marks")
        if not raw:
            return Marks()
        path = path + ("marks",)
        if position is None:
            self.error(path, "marks need a board to draw on", key=True)
            return Marks()
        size = position.size
        out: dict[str, tuple] = {}
        for kind, names in raw.items():
            if kind == "arrows":
                arrows = []
                for i, pair in enumerate(names):
                    checked = self.points(path + (kind, i), pair, size)
                    if checked:
                        arrows.append(checked)
                out[kind] = tuple(arrows)
                continue
            checked = self.points(path + (kind,), names, size) or ()
            out[kind] = checked
        libs: set[str] = set()
        if out.get("liberties"):
            game = position.game()
            for i, p in enumerate(out["liberties"]):
                if position.color_at(p) is None:
                    self.error(path + ("liberties", i), f"{p} is an empty point: `liberties` marks a stone's chain")
                else:
                    libs.update(game.liberties(p))
        return Marks(**out, liberty_points=tuple(sorted(libs)))

    # ------------------------------------------------------------------ demo
    def demo(self, body: dict, path: Path, position: Position, marks: Marks) -> Demo | None:
        to_play = body.get("to_play", "black")
        game = position.game(to_play)
        moves = []
        for i, raw in enumerate(body["moves"]):
            move_path = path + ("moves", i) + (("move",) if isinstance(raw, dict) else ())
            name = raw["move"] if isinstance(raw, dict) else raw
            if name.lower() != "pass":
                if self.point(move_path, name, position.size) is None:
                    return None
                name = name.upper()
            try:
                game.play(name)
            except IllegalMove as e:
                self.error(move_path, f"move {i + 1} ({game.to_play} {name}) is illegal: {e.reason}")
                return None
            moves.append(DemoMove(name, text(raw.get("say")) if isinstance(raw, dict) else None))
        return Demo(position, marks, moves, to_play, text(body.get("text")))

    # ------------------------------------------------------------------ puzzle
    def puzzle(self, body: dict, path: Path, position: Position, marks: Marks, size: int) -> Puzzle | None:
        before = len(self.errors)
        if size == 19:
            self.error(path, "puzzles are on 9x9 or 13x13 boards (19x19 is for counting demos)", key=True)
            return None
        to_play = body.get("to_play", "black")
        targets = self.points(path + ("target",), body["target"], position.size)
        answers = self.points(path + ("answers",), body["answers"], position.size) if "answers" in body else None
        if targets is None or ("answers" in body and answers is None):
            return None
        tpaths = [path + ("target",)] if isinstance(body["target"], str) else [
            path + ("target", i) for i in range(len(targets))]
        for tp, t in zip(tpaths, targets):
            if position.color_at(t) is None:
                self.error(tp, f"target {t} is an empty point: a target names a stone of the chain")
        for i, a in enumerate(answers or ()):
            if position.color_at(a) is not None:
                self.error(path + ("answers", i), f"answer {a} is not an empty point")
        if len(self.errors) > before:
            return None
        try:
            goal = Goal(body["goal"], targets)
            Judge(position.game(to_play), goal, PROVE_LIMITS)
        except GoalError as e:
            where = ("goal",) if "unknown goal" in str(e) else ("target",)
            self.error(path + where, f"{e}")
            return None
        puzzle = Puzzle(position, marks, body["goal"], targets, text(body["text"]), to_play, answers,
                        text(body.get("hint")), text(body.get("success")),
                        {k: text(v) for k, v in (body.get("wrong") or {}).items()}, bool(body.get("ko", False)))
        self.puzzles += 1
        if self.prove:
            self.prove_puzzle(puzzle, body, path)
        return puzzle

    def prove_puzzle(self, puzzle: Puzzle, body: dict, path: Path) -> None:
        solution = solve(puzzle.position, puzzle.to_play, puzzle.goal_object())
        goal_text = f"{puzzle.to_play} to {puzzle.goal} {', '.join(puzzle.targets)}"
        if solution.status == "unknown":
            self.error(path + ("goal",), f"the reader ran out of budget on this puzzle ({goal_text}): "
                                         f"make it smaller or simpler", key=True)
            return
        if solution.unknown:
            self.error(path + ("goal",), f"the reader ran out of budget on {_moves(solution.unknown)} "
                                         f"({goal_text}): make the puzzle smaller or simpler", key=True)
            return
        winning = solution.winning
        if (solution.status == "lose") == bool(winning):
            # the reading from the start and the readings after each first move disagree: one of them is wrong
            self.error(path + ("goal",), f"the reader contradicts itself on this puzzle ({goal_text}): the start "
                                         f"reads as {solution.status}, but the winning first moves are "
                                         f"{_moves(list(winning)) if winning else 'none'}; change the position",
                       key=True)
            return
        if not winning:
            self.error(path + ("goal",), f"no first move wins ({goal_text}): the goal cannot be reached", key=True)
            return
        settled = _settled_before_any_move(puzzle)
        if settled is not None:
            other = "its owner" if puzzle.goal == "kill" else "the other side"
            self.error(path + ("goal",), f"the group is {settled} already ({goal_text}): even if {other} plays "
                                         f"first, it {'cannot live' if settled == 'dead' else 'cannot be killed'}, "
                                         f"so every move reaches the goal; give the puzzle a group whose fate the "
                                         f"first move decides", key=True)
            return
        if puzzle.answers is not None:
            listed = set(puzzle.answers)
            for i, a in enumerate(puzzle.answers):
                if a not in winning:
                    reply = solution.refutations.get(a)
                    why = f" (refuted by {reply})" if reply else ""
                    self.error(path + ("answers", i), f"answer {a} does not win{why}")
            extra = [m for m in winning if m not in listed]
            if extra:
                self.error(path + ("answers",), f"{_moves(extra)} also win{'s' if len(extra) == 1 else ''} but "
                                                f"{'is' if len(extra) == 1 else 'are'} not listed in answers "
                                                f"(an unintended solution: fix the position or add the move)",
                           key=True)
        clean = [m for m, how in winning.items() if how == "win"]
        if not clean and not puzzle.ko:
            self.error(path + ("goal",), f"this puzzle is won only through a ko ({', '.join(winning)}): "
                                         f"say so with `ko: true`", key=True)
        elif clean and puzzle.ko:
            self.error(path + ("ko",), f"`ko: true`, but {', '.join(clean)} win{'s' if len(clean) == 1 else ''} "
                                       f"without a ko", key=True)
        puzzle.winning = dict(winning)
        if self.store is not None:
            self.prove_whole(puzzle, path)

    def prove_whole(self, puzzle: Puzzle, path: Path) -> None:
        """Every position a child can reach, proven (or found in the store): an error names the line where the
        proof could not go on."""
        from teach.go.proof import ProofError, prove

        from .proofstore import key_of

        found = self.store.proofs.get(key_of(puzzle))
        if found is None:
            try:
                found = prove(Judge(puzzle.start(), puzzle.goal_object(), PROVE_LIMITS),
                              max_positions=WHOLE_PROOF_POSITIONS, cpu_seconds=WHOLE_PROOF_SECONDS)
            except ProofError as e:
                line = " ".join(e.line)
                self.error(path + ("goal",), f"the whole puzzle cannot be proven: {e} at {line} (every move a "
                                             f"child can play is judged, to the end of every line): make the "
                                             f"puzzle smaller or simpler", key=True)
                return
        step = path[1] if len(path) > 1 and isinstance(path[1], int) else 0
        self.store.add(found, self.lesson_id, step)
        puzzle.proof = found

    # ------------------------------------------------------------------ quiz
    def quiz(self, body: dict, path: Path, position: Position | None, marks: Marks) -> Quiz | None:
        ask = body["ask"]
        before = len(self.errors)
        allowed = QUIZ_COMMON | QUIZ_KEYS[ask]
        for key in body:
            if key not in allowed:
                self.error(path + (key,), f"`{key}` is not used by a `{ask}` quiz (it takes "
                                          f"{', '.join(sorted(QUIZ_KEYS[ask]))})", key=True)
        for key in QUIZ_REQUIRED.get(ask, ()):
            if key not in body:
                self.error(path, f"a `{ask}` quiz needs `{key}`", key=True)
        if len(self.errors) > before:
            return None
        quiz = Quiz(position, marks, ask, text(body["question"]), hint=text(body.get("hint")),
                    success=text(body.get("success")), to_play=body.get("to_play", "black"))
        if ask == "choice":
            quiz.choices = tuple(text(c) for c in body["choices"])
            answer = body["answer"]
            if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(quiz.choices):
                self.error(path + ("answer",), f"answer must be the index (from 0) of one of the "
                                               f"{len(quiz.choices)} choices")
            quiz.answer = answer
            return quiz
        assert position is not None
        size = position.size
        game = position.game(quiz.to_play, komi=body.get("komi"))
        if ask == "tap":
            quiz.answers = self.points(path + ("answers",), body["answers"], size) or ()
            return quiz
        if "target" in body:
            quiz.target = self.point(path + ("target",), body["target"], size)
            if quiz.target and position.color_at(quiz.target) is None:
                self.error(path + ("target",), f"target {quiz.target} is an empty point: a target names a stone")
                return None
        if "point" in body:
            quiz.point = self.point(path + ("point",), body["point"], size)
        if "dead" in body:
            quiz.dead = self.points(path + ("dead",), body["dead"], size) or ()
            for i, p in enumerate(quiz.dead):
                if position.color_at(p) is None:
                    self.error(path + ("dead", i), f"{p} is marked dead but has no stone")
        listed = self.points(path + ("answers",), body["answers"], size) if "answers" in body else None
        if len(self.errors) > before:
            return None
        if ask == "liberties":
            quiz.answers = tuple(game.liberties(quiz.target))
        elif ask == "forbidden":
            legal = set(game.legal_moves())
            quiz.answers = tuple(p for p in _empty_points(game) if p not in legal)
            if not quiz.answers:
                self.error(path + ("ask",), f"there is no forbidden point for {quiz.to_play} here", key=True)
        elif ask == "atari" and len(game.liberties(quiz.target)) < 2:
            self.error(path + ("target",), f"the chain at {quiz.target} is already in atari", key=True)
        elif ask == "atari":
            quiz.answers = tuple(_atari_moves(game, quiz.target))
            if not quiz.answers:
                self.error(path + ("target",), f"no move of {quiz.to_play} puts the chain at {quiz.target} in atari",
                           key=True)
        elif ask == "legal":
            quiz.answer = game.why_illegal(quiz.point) is None
            self._check_answer(body, path, quiz.answer, lambda a: a is True or a is False, "yes (true) or no (false)")
        elif ask in ("winner", "count"):
            quiz.komi = float(body.get("komi", 7.5))
            score = game.score(quiz.dead)
            if ask == "winner":
                quiz.answer = score.winner
                if score.winner is None:
                    self.error(path + ("ask",), "the game is a draw: there is no winner to find", key=True)
                self._check_answer(body, path, quiz.answer, lambda a: a in ("black", "white"), "black or white")
            else:
                quiz.color = body["color"]
                count = score.black if quiz.color == "black" else score.white
                quiz.answer = int(count) if count.denominator == 1 else float(count)
                self._check_answer(body, path, quiz.answer,
                                   lambda a: isinstance(a, (int, float)) and not isinstance(a, bool), "a number")
        if listed is not None and set(listed) != set(quiz.answers):
            missing = sorted(set(quiz.answers) - set(listed))
            extra = sorted(set(listed) - set(quiz.answers))
            parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
                [f"{', '.join(extra)} should not be there"] if extra else [])
            self.error(path + ("answers",), f"answers differ from the engine's ({'; '.join(parts)})", key=True)
        return quiz

    def _check_answer(self, body: dict, path: Path, computed, valid, what: str) -> None:
        if "answer" not in body:
            return
        answer = body["answer"]
        if not valid(answer):
            self.error(path + ("answer",), f"answer must be {what}")
        elif answer != computed:
            self.error(path + ("answer",), f"answer {answer!r} is wrong: the engine finds {computed!r}")


def _settled_before_any_move(puzzle: Puzzle) -> str | None:
    """"dead" for a kill puzzle whose group cannot live even with its owner moving first, "alive" for a live
    puzzle whose group cannot be killed even with the other side moving first: a puzzle any move solves (a book's
    "White to kill" drawn one stone short, say). None otherwise, and when the reading runs out of budget."""
    opposite = {"kill": "live", "live": "kill"}.get(puzzle.goal)
    if opposite is None:
        return None
    other = "white" if puzzle.to_play == "black" else "black"
    game = puzzle.position.game(other)
    try:
        result, _move = Judge(game, Goal(opposite, puzzle.targets), PROVE_LIMITS).best(game)
    except (BudgetExceeded, GoalError):
        return None
    if result != LOSE:
        return None
    return "dead" if puzzle.goal == "kill" else "alive"


def _moves(moves: list[str], most: int = 8) -> str:
    """A list of moves for a message, shortened when the reader finds a great many."""
    if len(moves) <= most:
        return ", ".join(moves)
    return f"{', '.join(moves[:most])} and {len(moves) - most} more"


def schema_path(path: Path) -> str:
    from .errors import path_text

    return path_text(path)


def _stones_without_liberties(position: Position) -> list[str]:
    """Stones of the chains that have no liberty, top row first (the engine builds the chains)."""
    try:
        position.game()
        return []
    except ValueError:
        pass
    game = Game(position.size)
    board = [0] * (position.size * position.size)
    for color, stones in ((1, position.black), (2, position.white)):
        for stone in stones:
            board[game.point(stone)] = color
    game.set_board(board)  # chains and liberties of an arbitrary board, without the setup's refusal
    dead = [game.name(s) for chain in game.chains() if not chain.libs for s in chain.stones]
    return sorted(dead, key=lambda p: (-int(p[1:]), "ABCDEFGHJKLMNOPQRST".index(p[0])))


def _empty_points(game: Game) -> list[str]:
    return [game.name(p) for p, c in enumerate(game.board) if c == 0]


def _atari_moves(game: Game, target: str) -> list[str]:
    out = []
    for move in game.legal_moves():
        game.play(move)
        try:
            if game.color_at(target) is not None and len(game.liberties(target)) == 1:
                out.append(move)
        finally:
            game.undo()
    return out
