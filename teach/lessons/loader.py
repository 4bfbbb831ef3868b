"""Loading the catalog and lesson files, and checking whole folders (a process pool over files)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import schema
from .check import Checker
from .errors import LessonError, LessonsError, Source
from .model import Catalog, Lesson, Topic
from .yamlsource import load_yaml

DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "lessons"
CATALOG_NAME = "catalog.yaml"


@dataclass
class Report:
    files: int = 0
    lessons: int = 0
    puzzles: int = 0
    seconds: float = 0.0
    errors: list[LessonError] = field(default_factory=list)
    catalog: Catalog | None = None
    store: object = None  # whole proofs (``proofstore.Store``) of every puzzle checked, when asked for
    proven: int = 0  # puzzles proven whole in this run (not taken from the store)

    @property
    def ok(self) -> bool:
        return not self.errors


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_catalog(path: Path) -> tuple[Catalog | None, list[LessonError]]:
    name = _display(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return None, [LessonError(name, 0, 0, f"cannot read the catalog: {e.strerror}")]
    value, source, errors = load_yaml(data, name)
    if errors:
        return None, errors
    errors = schema.validate(value, source, schema.CATALOG)
    if errors:
        return None, errors
    seen: set[str] = set()
    for i, topic in enumerate(value["topics"]):
        if topic["id"] in seen:
            errors.append(source.error(("topics", i, "id"), f"topic `{topic['id']}` is listed twice"))
        seen.add(topic["id"])
    if errors:
        return None, errors
    topics = [Topic(t["id"], _text(t["title"])) for t in value["topics"]]
    return Catalog(topics, tuple(value["pictures"])), []


def _text(value):
    from .check import text

    return text(value)


def find_catalog(paths: list[Path]) -> Path:
    """The catalog.yaml in the first path's folder or above it, else the checkout's."""
    for path in paths:
        folder = path.resolve() if path.is_dir() else path.resolve().parent
        for candidate in (folder, *folder.parents):
            if (candidate / CATALOG_NAME).is_file():
                return candidate / CATALOG_NAME
    return DEFAULT_DIR / CATALOG_NAME


def lesson_files(paths: list[Path]) -> tuple[list[Path], list[LessonError]]:
    files, errors = [], []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.yaml") if p.name != CATALOG_NAME and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            errors.append(LessonError(str(path), 0, 0, "no such file or folder"))
    return list(dict.fromkeys(files)), errors


def check_file(path: Path, prove: bool = True, store=None) -> tuple[Lesson | None, list[LessonError], int]:
    """(lesson, errors, puzzles counted) for one file; with a proof ``store``, every puzzle proven whole too."""
    name = _display(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return None, [LessonError(name, 0, 0, f"cannot read the file: {e.strerror}")], 0
    return _check(data, name, prove, str(path), store)


def check_text(data: str | bytes, name: str, prove: bool = True) -> tuple[Lesson | None, list[LessonError], int]:
    """``check_file`` for lesson text that is not a file of its own (an upload, a stored or authored lesson):
    the same checks and proofs, with errors naming ``name`` and their line. Having no file, the text is not held
    to the rule that a lesson file is named after its id (a teacher's upload may be called anything)."""
    return _check(data, name, prove, "")


def _check(data: str | bytes, name: str, prove: bool, file: str,
           store=None) -> tuple[Lesson | None, list[LessonError], int]:
    value, source, errors = load_yaml(data, name)
    if errors:
        return None, errors, 0
    checker = Checker(source, prove=prove, store=store)
    try:
        lesson = checker.lesson(value, file)
    except RecursionError:
        return None, [LessonError(name, 1, 1, "the file is nested too deeply")], 0
    return lesson, checker.errors, checker.puzzles


_stores: dict[str, object] = {}  # a worker's copy of the proof store it was given, read once


def _check_one(args: tuple[str, bool, str | None]):
    store = None
    if args[2] is not None:
        from . import proofstore

        store = _stores.get(args[2])
        if store is None:
            store = _stores[args[2]] = proofstore.load(Path(args[2]))
    return check_file(Path(args[0]), args[1], store)


def _cross_check(lessons: list[Lesson], catalog: Catalog, sources: dict[str, Source]) -> list[LessonError]:
    """Rules across files: unique lesson and sticker ids, topics and pictures from the catalog."""
    errors = []
    by_id: dict[str, Lesson] = {}
    stickers: dict[str, Lesson] = {}
    orders: dict[tuple[str, int], Lesson] = {}
    topics = {t.id for t in catalog.topics}

    def err(lesson: Lesson, path, message: str) -> None:
        errors.append(sources[lesson.file].error(path, message))

    for lesson in lessons:
        if lesson.id in by_id:
            err(lesson, ("id",), f"lesson id `{lesson.id}` is also used by {by_id[lesson.id].file}")
        by_id.setdefault(lesson.id, lesson)
        if lesson.sticker.id in stickers:
            err(lesson, ("sticker", "id"), f"sticker id `{lesson.sticker.id}` is also awarded by "
                                           f"{stickers[lesson.sticker.id].file}")
        stickers.setdefault(lesson.sticker.id, lesson)
        if lesson.topic not in topics:
            err(lesson, ("topic",), f"unknown topic `{lesson.topic}`{schema.suggestion(lesson.topic, sorted(topics))}")
        elif (lesson.topic, lesson.order) in orders:
            err(lesson, ("order",), f"order {lesson.order} in topic `{lesson.topic}` is also used by "
                                    f"{orders[(lesson.topic, lesson.order)].file}")
        orders.setdefault((lesson.topic, lesson.order), lesson)
        if lesson.sticker.picture not in catalog.pictures:
            err(lesson, ("sticker", "picture"), f"unknown picture `{lesson.sticker.picture}`"
                                                f"{schema.suggestion(lesson.sticker.picture, catalog.pictures)}")
    return errors


class _Marks:
    """Positions of the top-level keys of a lesson, for cross-file errors (reloaded only when needed)."""

    def __init__(self) -> None:
        self._cache: dict[str, Source] = {}

    def __getitem__(self, file: str) -> Source:
        if file not in self._cache:
            _, source, _ = load_yaml(Path(file).read_bytes(), _display(Path(file)))
            self._cache[file] = source
        return self._cache[file]


def check_paths(paths: list[str | Path] | None = None, prove: bool = True, workers: int | None = None,
                whole: bool = False) -> Report:
    """Check lesson files and folders (default: the checkout's lessons/) against the catalog found above them.
    ``whole``: prove every puzzle whole as well, taking what the proof store beside the catalog holds; the
    report's ``store`` then holds the proofs of exactly the puzzles checked."""
    start = time.perf_counter()
    roots = [Path(p) for p in paths] if paths else [DEFAULT_DIR]
    report = Report()
    catalog_path = find_catalog(roots)
    catalog, errors = load_catalog(catalog_path)
    report.errors += errors
    files, errors = lesson_files(roots)
    report.errors += errors
    report.files = len(files)
    workers = workers if workers is not None else min(len(files), os.cpu_count() or 1)
    store_file = None
    if whole and prove:
        from . import proofstore

        store_file = proofstore.store_path(catalog_path.parent)
        _stores.pop(str(store_file), None)
        on_disk = proofstore.load(store_file)
        if on_disk.problem:
            report.errors.append(LessonError(_display(store_file), 0, 0, on_disk.problem))
        report.store = proofstore.Store(store_file)
    jobs = [(str(f), prove, None if store_file is None else str(store_file)) for f in files]
    if workers > 1 and len(files) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_check_one, jobs, chunksize=1))
    else:
        results = [_check_one(job) for job in jobs]
    lessons = []
    for lesson, errors, puzzles in results:
        report.errors += errors
        report.puzzles += puzzles
        if lesson is not None:
            lessons.append(lesson)
            if report.store is not None:
                for i, step in enumerate(lesson.steps):
                    proof = step.__dict__.get("proof") if step.kind == "puzzle" else None
                    if proof is not None:
                        report.proven += proof.key not in on_disk.proofs
                        report.store.add(proof, lesson.id, i)
    report.lessons = len(lessons)
    if catalog is not None:
        report.errors += _cross_check(lessons, catalog, _Marks())
        for lesson in sorted(lessons, key=lambda l: (l.topic, l.order)):
            catalog.lessons.setdefault(lesson.id, lesson)
            topic = catalog.topic(lesson.topic)
            if topic is not None and lesson not in topic.lessons:
                topic.lessons.append(lesson)
        report.catalog = catalog
    report.errors.sort(key=lambda e: (e.file, e.line, e.column))
    report.seconds = time.perf_counter() - start
    return report


def load_lessons(path: str | Path | None = None, prove: bool = False) -> Catalog:
    """The lessons under ``path`` (a lessons folder with its catalog.yaml; default the checkout's), typed.

    Raises LessonsError listing every problem. Puzzles are proven only with ``prove`` (``teach lessons check``
    proves them; the web app judges moves with each puzzle's ``judge()``)."""
    report = check_paths([path] if path is not None else None, prove=prove)
    if report.errors or report.catalog is None:
        raise LessonsError(report.errors)
    return report.catalog
