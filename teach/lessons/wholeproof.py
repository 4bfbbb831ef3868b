"""Proving the lessons' puzzles whole into the proof store (``teach lessons prove``), and saying whether the store
is current (``teach lessons prove --check``, which CI runs)."""

from __future__ import annotations

import copy
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from teach.go.judge import Judge
from teach.go.proof import Proof, ProofError, Unwinnable, prove, settle

from . import proofstore
from .check import PROVE_LIMITS, WHOLE_PROOF_POSITIONS, WHOLE_PROOF_SECONDS

SAVE_EVERY = 20.0  # seconds between writes of the store while proofs arrive
PRACTICE_SECONDS = 0.3  # CPU seconds a generated practice puzzle's whole proof may take: the first kid to open a set
# waits for its ten (at most 3 s more), so a bigger one (a long ladder) is read live instead


def attach(puzzle, cpu_seconds: float, until: float | None = None, judge: Judge | None = None) -> bool:
    """Prove one puzzle whole and give it the proof, so its judge answers with lookups (practice sets, when
    they are generated); False when it is too big for ``cpu_seconds`` or for the wall clock's ``until`` (a
    ``time.monotonic()``), and then what its proof reached is given instead (the rest is read live). Raises
    ``Unwinnable`` for a puzzle that, read to the end of its lines, has no winning first move. ``judge``: one
    that has already read this puzzle (the generator's), whose answers the proof starts from; what it reads
    from here on, it reads on the proof's budget."""
    try:
        if judge is None:
            judge = Judge(puzzle.start(), puzzle.goal_object(), PROVE_LIMITS)
        judge.limits = PROVE_LIMITS
        proof = prove(judge, max_positions=WHOLE_PROOF_POSITIONS, cpu_seconds=cpu_seconds, until=until)
    except Unwinnable:
        raise
    except ProofError as e:
        proof = e.partial  # the positions it did prove are answered with lookups all the same
    if proof is not None:
        puzzle.__dict__["proof"] = proof
        puzzle.__dict__.pop("_judge", None)  # the next judge() answers from the proof
    return proof is not None and proof.complete


@dataclass
class Item:
    key: str
    lesson_id: str
    step: int
    puzzle: object


def puzzles(catalog) -> list[Item]:
    """Every puzzle step of the catalog's lessons, with its proof key."""
    found = []
    for lesson in sorted(catalog.lessons.values(), key=lambda l: l.id):
        for i, step in enumerate(lesson.steps):
            if step.kind == "puzzle":
                found.append(Item(proofstore.key_of(step), lesson.id, i, step))
    return found


@dataclass
class Currency:
    current: bool
    summary: str
    lines: list[str] = field(default_factory=list)


def _replay(puzzle):
    return Judge(puzzle.start(), puzzle.goal_object(), PROVE_LIMITS)._replay


def unsettled(store: proofstore.Store, items: list[Item]) -> list[Item]:
    """The puzzles whose stored proof is not read to its end (``teach.go.proof.settle`` would change it)."""
    found = []
    for item in items:
        proof = store.proofs.get(item.key)
        if proof is None:
            continue
        try:
            if settle(Proof(proof.key, copy.deepcopy(proof.positions)), _replay(item.puzzle)):
                found.append(item)
        except ProofError:
            found.append(item)
    return found


def settle_stored(store: proofstore.Store, items: list[Item]) -> int:
    """Read every stored proof to its end (``settle``): an over-hopeful ``continue`` becomes the ``wrong`` move it
    is; a puzzle left with no winning first move is recorded as unproven, for its author. Returns how many proofs
    changed."""
    changed = 0
    for item in unsettled(store, items):
        proof = store.proofs[item.key]
        try:
            settle(proof, _replay(item.puzzle))
            store.add(proof, item.lesson_id, item.step)
        except ProofError as e:
            store.refuse(item.key, item.lesson_id, item.step, str(e), e.line)
        changed += 1
    return changed


def currency(store: proofstore.Store, items: list[Item]) -> Currency:
    """Is the store what ``prove`` would write for these puzzles: every puzzle proven or recorded as unprovable
    under its current key, nothing else held? (A store of another engine holds nothing, so it is not current.)"""
    keys = {item.key for item in items}
    lines = [f"no proof of {item.lesson_id} step {item.step + 1} (a new or changed puzzle)"
             for item in items if item.key not in store.where]
    lines += [f"the proof of {item.lesson_id} step {item.step + 1} is not read to the end of its lines"
              for item in unsettled(store, items)]
    stale = [k for k in store.where if k not in keys]
    if stale:
        lines.append(f"{len(stale)} entr{'ies' if len(stale) != 1 else 'y'} for puzzles that are no longer in the "
                     f"lessons")
    positions, judgements = store.size()
    summary = (f"{len(store.proofs)} of {len(keys)} puzzles proven whole ({len(items)} puzzle steps; {positions} "
               f"positions, {judgements} "
               f"judgements), {len(store.unproven)} recorded as too big to prove: "
               + ("current" if not lines else "not current; run `teach lessons prove`"))
    return Currency(not lines, summary, lines)


def _prove_one(args: tuple[Item, float]) -> tuple[Item, object]:
    item, budget = args
    puzzle = item.puzzle
    try:
        return item, prove(Judge(puzzle.start(), puzzle.goal_object(), PROVE_LIMITS),
                           max_positions=WHOLE_PROOF_POSITIONS, cpu_seconds=budget)
    except ProofError as e:  # sent back as plain data: an exception with extra fields does not unpickle
        return item, (str(e), e.line, e.partial)


def prove_all(store: proofstore.Store, items: list[Item], workers: int | None = None, budget: float | None = None,
              retry: bool = False, progress=None) -> str:
    """Prove what the store does not hold (and, with ``retry``, what it records as unprovable), writing the store
    as proofs arrive; a one-line summary."""
    started = time.monotonic()
    dropped = store.keep_only({item.key for item in items})
    settled = settle_stored(store, items)
    todo = [item for item in items
            if item.key not in store.proofs and (retry or item.key not in store.unproven)]
    budget = WHOLE_PROOF_SECONDS if budget is None else budget
    workers = max(1, min(workers or os.cpu_count() or 1, len(todo) or 1))
    saved = time.monotonic()
    jobs = [(item, budget) for item in todo]
    done = 0
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 and len(todo) > 1 else None
    try:
        results = pool.map(_prove_one, jobs, chunksize=1) if pool else map(_prove_one, jobs)
        for item, answer in results:
            done += 1
            if isinstance(answer, tuple):
                store.refuse(item.key, item.lesson_id, item.step, *answer)
            else:
                store.add(answer, item.lesson_id, item.step)
            if progress is not None:
                what = (f"unproven ({answer[0]} at {' '.join(answer[1])})" if isinstance(answer, tuple) else
                        f"{len(answer.positions)} positions, {answer.judgements} judgements, {answer.seconds:.1f}s")
                progress(f"[{done}/{len(todo)}] {item.lesson_id} step {item.step + 1}: {what}")
            if time.monotonic() - saved > SAVE_EVERY:
                proofstore.write(store, store.path)
                saved = time.monotonic()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        size = proofstore.write(store, store.path)
    positions, judgements = store.size()
    return (f"{len(todo)} puzzles proven now, {dropped} stale entries dropped, {settled} read again to the end of "
            f"their lines: {len(store.proofs)} of "
            f"{len({item.key for item in items})} "
            f"proven whole ({positions} positions, {judgements} judgements), {len(store.unproven)} unproven; "
            f"{time.monotonic() - started:.1f}s; {store.path.name}: {size / 1024:.0f} KB")
