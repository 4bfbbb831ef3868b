"""Typed lesson objects, as the web app uses them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from teach.go import Game
from teach.go.judge import SERVER_LIMITS, Goal, Judge
from teach.go.proof import ProvenJudge

from .diagram import Position


@dataclass(frozen=True)
class Text:
    zh: str
    en: str

    def get(self, language: str) -> str:
        return self.zh if language.lower().startswith("zh") else self.en


@dataclass(frozen=True)
class Marks:
    triangle: tuple[str, ...] = ()
    circle: tuple[str, ...] = ()
    square: tuple[str, ...] = ()
    cross: tuple[str, ...] = ()
    highlight: tuple[str, ...] = ()
    liberties: tuple[str, ...] = ()  # chains whose liberties are highlighted
    arrows: tuple[tuple[str, str], ...] = ()
    liberty_points: tuple[str, ...] = ()  # the liberties themselves, computed by the engine


@dataclass
class Step:
    position: Position | None
    marks: Marks

    # the step's kind as lesson files spell it (`explain`, `demo`, `puzzle`, `quiz`): pages and reports branch on it
    kind: ClassVar[str] = ""


@dataclass
class Explain(Step):
    kind: ClassVar[str] = "explain"
    text: Text


@dataclass(frozen=True)
class DemoMove:
    move: str
    say: Text | None = None


@dataclass
class Demo(Step):
    kind: ClassVar[str] = "demo"
    moves: list[DemoMove]
    to_play: str = "black"
    text: Text | None = None


@dataclass
class Puzzle(Step):
    kind: ClassVar[str] = "puzzle"
    goal: str
    targets: tuple[str, ...]
    text: Text
    to_play: str = "black"
    answers: tuple[str, ...] | None = None
    hint: Text | None = None
    success: Text | None = None
    wrong: dict[str, Text] = field(default_factory=dict)
    ko: bool = False
    winning: dict[str, str] | None = None  # move -> win | ko, once proven

    def start(self) -> Game:
        """The puzzle's start position, ``to_play`` to move."""
        assert self.position is not None
        return self.position.game(self.to_play)

    def goal_object(self) -> Goal:
        return Goal(self.goal, self.targets)

    def judge(self) -> ProvenJudge:
        """One judge per puzzle, kept so its reading cache serves every move judged: answering by lookups where
        the puzzle is proven whole (teach.go.proof), reading live (looking ahead) anywhere else."""
        j = self.__dict__.get("_judge")
        if j is None:
            j = ProvenJudge(Judge(self.start(), self.goal_object(), SERVER_LIMITS), self.__dict__.get("proof"))
            self.__dict__["_judge"] = j
        return j

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_judge", None)
        return state


@dataclass
class Quiz(Step):
    kind: ClassVar[str] = "quiz"
    ask: str
    question: Text
    answers: tuple[str, ...] = ()  # the points to tap (computed by the engine where it can be)
    answer: object = None  # legal: bool; winner: "black"/"white"; count: number; choice: index
    target: str | None = None
    to_play: str = "black"
    point: str | None = None
    komi: float = 7.5
    dead: tuple[str, ...] = ()
    color: str | None = None
    choices: tuple[Text, ...] = ()
    hint: Text | None = None
    success: Text | None = None


AnyStep = Union[Explain, Demo, Puzzle, Quiz]


@dataclass(frozen=True)
class Sticker:
    id: str
    picture: str
    name: Text


@dataclass
class Lesson:
    id: str
    topic: str
    order: int
    level: int
    size: int
    sticker: Sticker
    title: Text
    intro: Text
    recap: Text
    steps: list[AnyStep]
    file: str = ""

    @property
    def puzzles(self) -> list[Puzzle]:
        return [s for s in self.steps if isinstance(s, Puzzle)]


@dataclass
class Topic:
    id: str
    title: Text
    lessons: list[Lesson] = field(default_factory=list)


@dataclass
class Catalog:
    topics: list[Topic]
    pictures: tuple[str, ...]
    lessons: dict[str, Lesson] = field(default_factory=dict)  # by id

    def topic(self, topic_id: str) -> Topic | None:
        return next((t for t in self.topics if t.id == topic_id), None)
