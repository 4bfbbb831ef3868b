"""The life-and-death reader against GNU Go on random corner problems: can the group be killed, can it live.

    python bench/life_crosscheck.py --seeds 1-60              # development seeds
    python bench/life_crosscheck.py --seeds 1001-1100         # held out: report these, never tune on them
    python bench/life_crosscheck.py --seeds 7 --show          # one problem, its board and both engines' answers

A problem, made from its seed: a group in a corner of a 19x19 board, the shape elementary problem books draw. The
group's stones run along the edge of a rectangle in the corner (4 to 7 points wide, 2 to 4 high), some of them
left out (holes in its wall, where the attacker may push in or cut); a few stones of either colour are dropped
inside (the defender's or the attacker's, as in a nakade or a throw-in problem); a solid wall of the other colour
closes the rectangle with open board beyond it (so the attacker's stones are not part of the question). A problem
with a chain already without liberties, or whose group GNU Go calls alive or dead whoever moves (nothing to read),
is drawn again. Then both engines are asked ``owl_attack`` (the attacker moves first) and ``owl_defend`` (the owner
moves first) of the group: the reader in this process, GNU Go through GTP, the position given to both by an SGF
file (``loadsgf``).

The answers agree when their result codes are in the same class: 0 (fails), 1 (works), 2 or 3 (works through a
ko). An answer of the reader's that takes longer than ``--seconds`` (2 s, as ``teach gtp`` is asked) counts as a
disagreement; the count is reported.

GNU Go is a reference here, not the truth. Each engine's unconditional answers are also checked against its own
reading one move later (after its killing move the owner's best defence must fail; after its living move the
attacker's best attack must fail), which needs no reference. That check is one move deep only: on seeds 7 and 13,
read by hand, GNU Go's kill (``1 B18``, ``1 Q2``) passes it, yet after the kill one of the owner's moves leaves
GNU Go's own ``owl_attack`` answering 0 (the group lives), where the reader's answers (no kill) are consistent.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teach.go import Game  # noqa: E402
from teach.go.gtp import GtpEngine  # noqa: E402

from tactics_crosscheck import GnuGo, code_of, klass, seed_range  # noqa: E402

SIZE = 19
LETTERS = "abcdefghijklmnopqrs"


def corner_problem(rng: random.Random) -> tuple[dict[tuple[int, int], int], tuple[int, int], int] | None:
    """Stones {(col, row): colour} with (0, 0) the corner point, the group's stone named, and the owner colour."""
    width, height = rng.randint(4, 7), rng.randint(2, 4)
    owner = rng.choice((1, 2))
    other = 3 - owner
    stones: dict[tuple[int, int], int] = {}
    shell = [(x, height - 1) for x in range(width)] + [(width - 1, y) for y in range(height - 1)]
    holes = rng.choice((0, 0, 1, 1, 2))
    for p in shell:
        stones[p] = owner
    for p in rng.sample(shell[1:-1] or shell, min(holes, max(len(shell) - 2, 0))):
        del stones[p]
    # the wall: one line outside the shell, and a second one beyond it, so the attacker's stones are strong
    for ring in (0, 1):
        for x in range(width + 1 + ring):
            stones[(x, height + ring)] = other
        for y in range(height + ring):
            stones[(width + ring, y)] = other
    inside = [(x, y) for x in range(width - 1) for y in range(height - 1)]
    for p in rng.sample(inside, min(len(inside), rng.choice((0, 1, 1, 2, 3)))):
        stones[p] = rng.choice((owner, other, other))
    named = next((p for p in shell if stones.get(p) == owner), None)
    if named is None:
        return None
    return stones, named, owner


def orient(p: tuple[int, int], corner: int) -> tuple[int, int]:
    """(col, row) from the corner point into board coordinates (0-based column from the left, row from the
    bottom) for one of the four corners."""
    x, y = p
    return (x if corner in (0, 3) else SIZE - 1 - x, y if corner in (0, 1) else SIZE - 1 - y)


def sgf_of(stones: dict[tuple[int, int], int], corner: int) -> str:
    props = {1: [], 2: []}
    for p, c in stones.items():
        col, row = orient(p, corner)
        props[c].append(f"[{LETTERS[col]}{LETTERS[SIZE - 1 - row]}]")
    ab = "AB" + "".join(props[1]) if props[1] else ""
    aw = "AW" + "".join(props[2]) if props[2] else ""
    return f"(;GM[1]FF[4]SZ[{SIZE}]KM[7.5]{ab}{aw})"


def vertex(p: tuple[int, int], corner: int) -> str:
    col, row = orient(p, corner)
    return "ABCDEFGHJKLMNOPQRST"[col] + str(row + 1)


def follows(engine, question: str, answer: str, target: str, owner: int, sgf: Path) -> bool | None:
    """Does an engine's unconditional answer ("1 MOVE") hold one move later, by its own reading: after its kill,
    can the owner no longer live; after its defence, can the attacker no longer kill? None when there is nothing
    to check (a 0, a ko, a pass). Each engine is asked about its own answers: no reference needed."""
    words = answer.split()
    if len(words) != 2 or words[0] != "1" or words[1].upper() == "PASS":
        return None
    mover = (3 - owner) if question == "attack" else owner
    ask = engine.ask if isinstance(engine, GnuGo) else (lambda c: engine.handle(c).lstrip("= ").strip())
    try:
        ask(f"loadsgf {sgf}")
        ask(f"play {'b' if mover == 1 else 'w'} {words[1]}")
        reply = ask(f"owl_{'defend' if question == 'attack' else 'attack'} {target}")
    except (ValueError, RuntimeError):
        return None
    finally:
        try:
            ask(f"loadsgf {sgf}")
        except (ValueError, RuntimeError):
            pass
    return code_of(reply) == 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1-60"))
    ap.add_argument("--seconds", type=float, default=2.0, help="an answer slower than this counts as a failure")
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    ours = GtpEngine(size=SIZE)
    gnugo = GnuGo()
    tally: Counter = Counter()
    by_kind: Counter = Counter()
    pairs: Counter = Counter()
    slowest = 0.0
    ours_seconds = 0.0
    with tempfile.TemporaryDirectory(prefix="life-crosscheck-") as tmp:
        sgf = Path(tmp) / "problem.sgf"
        try:
            for seed in args.seeds:
                rng = random.Random(seed)
                for _ in range(50):
                    made = corner_problem(rng)
                    if made is None:
                        continue
                    stones, named, owner = made
                    corner = rng.randrange(4)
                    sgf.write_text(sgf_of(stones, corner))
                    try:
                        game = Game.from_sgf(sgf.read_bytes())
                    except Exception:
                        continue
                    if any(c is not None and not c.libs for c in game.chain_of):
                        continue
                    if len({id(c) for c in game.chain_of if c is not None}) != len(
                            {id(c) for c in game.chain_of if c is not None and c.libs}):
                        continue
                    target = vertex(named, corner)
                    try:
                        gnugo.ask(f"loadsgf {sgf}")
                        theirs = {q: gnugo.ask(f"owl_{q} {target}") for q in ("attack", "defend")}
                    except RuntimeError:  # GNU Go stopped on one of its assertions: a new one, a new problem
                        gnugo = GnuGo()
                        tally["gnugo_crashed"] += 1
                        continue
                    if (code_of(theirs["attack"]) == 0) or (code_of(theirs["defend"]) == 0):
                        # alive or dead whoever moves first: keep one in four, the rest are drawn again
                        if rng.random() > 0.25:
                            continue
                    break
                else:
                    continue
                ours.handle(f"loadsgf {sgf}")
                kind = "critical" if code_of(theirs["attack"]) and code_of(theirs["defend"]) else (
                    "alive" if not code_of(theirs["attack"]) else "dead")
                if args.show:
                    print(f"\nseed {seed}: {'black' if owner == 1 else 'white'} group at {target} "
                          f"(GNU Go: {kind})\n" + ours.showboard())
                for q in ("attack", "defend"):
                    t = time.process_time()
                    mine = ours.handle(f"owl_{q} {target}").lstrip("= ").strip()
                    took = time.process_time() - t
                    for who, answer in (("gnugo", theirs[q]), ("ours", mine)):
                        held = follows(ours if who == "ours" else gnugo, q, answer, target, owner, sgf)
                        if held is not None:
                            tally[f"{who}_checked"] += 1
                            tally[f"{who}_held"] += held
                            if not held and (args.show or who == "ours"):
                                print(f"seed {seed} {who} contradicts itself: owl_{q} {target} '{answer}', "
                                      f"then the other side's answer after it also works")
                    ours_seconds += took
                    slowest = max(slowest, took)
                    a, b = code_of(theirs[q]), code_of(mine)
                    slow = took > args.seconds
                    ok = not slow and klass(a) == klass(b)
                    tally["asked"] += 1
                    tally["agree"] += ok
                    tally["slow"] += slow
                    by_kind[(kind, ok)] += 1
                    if not ok:
                        pairs[(klass(a), "slow" if slow else klass(b))] += 1
                    if args.show or not ok:
                        print(f"seed {seed} {kind:8} owl_{q} {target}: gnugo '{theirs[q]}', ours '{mine}' "
                              f"({took:.2f}s){'' if ok else '  DISAGREE'}")
        finally:
            gnugo.close()
    asked = tally["asked"]
    print(f"\nseeds {args.seeds[0]}-{args.seeds[-1]}: {asked // 2} problems, {asked} questions; "
          f"agree {tally['agree']}/{asked} ({100 * tally['agree'] / max(asked, 1):.1f} %); over {args.seconds} s: "
          f"{tally['slow']}; reader {ours_seconds:.1f} s in all, slowest {slowest:.2f} s; problems GNU Go stopped on "
          f"(drawn again): {tally['gnugo_crashed']}")
    for kind in ("critical", "alive", "dead"):
        n = by_kind[(kind, True)] + by_kind[(kind, False)]
        if n:
            print(f"  {kind:9} (GNU Go's status): {by_kind[(kind, True)]}/{n} answers agree")
    for who, name in (("gnugo", "GNU Go"), ("ours", "the reader")):
        print(f"  {name}: {tally[who + '_held']}/{tally[who + '_checked']} of its winning answers hold one move later "
              f"(after its move, the other side's owl answer fails)")
    if pairs:
        print("disagreements (GNU Go's class -> ours): " + ", ".join(
            f"{a}->{b}: {n}" for (a, b), n in pairs.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
