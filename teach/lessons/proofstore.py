"""The stored whole-puzzle proofs of the lessons: ``proofs.json`` beside the catalog.

Every lesson puzzle is proven whole (``teach.go.proof``: every legal move at every position a child can reach)
by ``teach lessons prove``, which writes this file; ``teach lessons prove --check`` says whether it is current,
and CI runs that check, so main never carries a store that does not match its lessons and its engine. The web app
loads it at start-up and answers kids' moves with lookups.

A proof is keyed by its puzzle (position, side to move, goal, targets) and the engine's version (a digest of
the reading code), so a changed lesson proves again only its changed puzzles, and a changed reader proves
everything again; a key the store does not hold is simply not there (never a stale answer). A file that cannot be
read is reported with its reason and treated as empty.

Why a generated file in the checkout rather than one built at install: proving the curriculum cold takes minutes
of CPU, which every fresh machine, test run and app instance would otherwise pay (and a server could not start in
seconds); the file is a few megabytes, diffs puzzle by puzzle (one line each), and the check keeps it honest.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from teach.go.proof import ENGINE_VERSION, Proof, puzzle_key

STORE_NAME = "proofs.json"
FORMAT = 1


class StoreError(ValueError):
    """The store file cannot be used (unreadable, not JSON, another format): the message says why."""


def key_of(puzzle) -> str:
    return puzzle_key(puzzle.start(), puzzle.goal, tuple(puzzle.targets))


@dataclass
class Store:
    path: Path | None = None
    proofs: dict[str, Proof] = field(default_factory=dict)
    where: dict[str, tuple[str, int]] = field(default_factory=dict)  # key -> (lesson id, step index)
    # puzzles that cannot be proven whole within the budget: key -> {lesson, step, why, line}
    unproven: dict[str, dict] = field(default_factory=dict)
    # what their proofs did prove before they stopped (``Proof.complete`` false): key -> proof
    partial: dict[str, Proof] = field(default_factory=dict)
    problem: str | None = None  # why the file on disk could not be used, if it could not

    def get(self, puzzle) -> Proof | None:
        return self.proofs.get(key_of(puzzle))

    def add(self, proof: Proof, lesson_id: str, step: int) -> None:
        self.proofs[proof.key] = proof
        self.where[proof.key] = (lesson_id, step)
        self.unproven.pop(proof.key, None)
        self.partial.pop(proof.key, None)

    def refuse(self, key: str, lesson_id: str, step: int, why: str, line: list[str],
               partial: Proof | None = None) -> None:
        self.proofs.pop(key, None)
        self.where[key] = (lesson_id, step)
        self.unproven[key] = {"lesson": lesson_id, "step": step, "why": why, "line": " ".join(line)}
        self.partial.pop(key, None)
        if partial is not None and partial.positions:
            self.partial[key] = partial


    def keep_only(self, keys: set[str]) -> int:
        """Drop what belongs to no current puzzle; how many entries went."""
        gone = [k for k in self.where if k not in keys]
        for k in gone:
            self.proofs.pop(k, None)
            self.unproven.pop(k, None)
            self.partial.pop(k, None)
            del self.where[k]
        return len(gone)

    def size(self) -> tuple[int, int]:
        """(positions, judgements) over every proof held."""
        return (sum(len(p.positions) for p in self.proofs.values()),
                sum(p.judgements for p in self.proofs.values()))


def store_path(lessons_dir: str | Path) -> Path:
    return Path(lessons_dir) / STORE_NAME


def read(path: Path) -> Store:
    """The store at ``path``; raises StoreError when the file exists but cannot be used."""
    store = Store(path)
    if not path.exists():
        return store
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise StoreError(f"{path}: cannot read the proof store ({e}); run `teach lessons prove`") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), dict):
        raise StoreError(f"{path}: not a proof store of format {FORMAT}; run `teach lessons prove`")
    if data.get("engine") != ENGINE_VERSION:
        return store  # proven by another reader: nothing in it holds for this one
    try:
        for key, entry in data["puzzles"].items():
            store.proofs[key] = Proof.from_json(key, entry)
            store.where[key] = (entry["lesson"], entry["step"])
        for key, entry in (data.get("unproven") or {}).items():
            store.unproven[key] = {k: entry[k] for k in ("lesson", "step", "why", "line")}
            store.where[key] = (entry["lesson"], entry["step"])
            if "positions" in entry:
                store.partial[key] = Proof.from_json(key, {**entry, "complete": False})
    except (KeyError, TypeError, ValueError) as e:
        raise StoreError(f"{path}: a damaged proof entry ({e!r}); run `teach lessons prove`") from None
    return store


def load(path: Path) -> Store:
    """Like ``read``, but a store that cannot be used comes back empty with its ``problem`` (the web app logs it
    and reads kids' moves live rather than refusing to start)."""
    try:
        return read(path)
    except StoreError as e:
        return Store(path, problem=str(e))


def write(store: Store, path: Path) -> int:
    """Write the store (one puzzle a line, sorted, so a changed lesson changes its own lines); bytes written."""
    def entries(keys, entry_of) -> str:
        lines = []
        for key in sorted(keys, key=lambda k: (store.where[k], k)):
            lines.append(f"{json.dumps(key)}: {json.dumps(entry_of(key), ensure_ascii=False, separators=(',', ':'))}")
        return ",\n".join(lines)

    def proven(key: str) -> dict:
        lesson_id, step = store.where[key]
        return {"lesson": lesson_id, "step": step, **store.proofs[key].to_json()}

    def unproven(key: str) -> dict:
        partial = store.partial.get(key)
        return store.unproven[key] if partial is None else {**store.unproven[key], **partial.to_json()}

    text = (f'{{"format": {FORMAT}, "engine": {json.dumps(ENGINE_VERSION)},\n"unproven": {{\n'
            + entries(store.unproven, unproven) + '\n},\n"puzzles": {\n'
            + entries(store.proofs, proven) + "\n}}\n")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".proofs-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, 0o644)  # a file of the checkout like any other (mkstemp makes it private)
    os.replace(tmp, path)  # a reader sees the old store or the new one, never half of one
    return len(text.encode())
