"""The tactical reader against GNU Go on random positions: the same reading question after every legal move.

    python bench/tactics_crosscheck.py --seeds 1-30            # development seeds (look at what they disagree on)
    python bench/tactics_crosscheck.py --seeds 1001-1040       # held out: report these, never tune on them
    python bench/tactics_crosscheck.py --seeds 5 --show        # one position's disagreements, with the board
    python bench/tactics_crosscheck.py --limits verify_libs=3  # a reader setting tried on the same positions

Seeds 1-80 were looked at while developing the reader; seeds 1001 and up are held out (report those). Measured
on seeds 1001-1080 (6,325 questions; 2 s per answer, the machine otherwise quiet): 96.3 % agreement, 97.1 % on
9x9 and 95.8 % on 13x13; most disagreements are about ko (GNU Go's unconditional answer where the reader finds
only a ko, and the other way round). GNU Go is the reference here, not the truth: of the 28 distinct
disagreements on seeds 1-80, the reader with every depth limit opened wide (and 3 million nodes) gave its own
answer in 17 and GNU Go's in 8; in one read by hand (seed 9, ``attack A2``) GNU Go's own answers one move later
contradict its first.

A position: a random game on 9x9 or 13x13 (the seed decides which; random legal moves that fill no one-point eye
of their own, a quarter to a half of the board) stopped where a chain is contested, that is has two or three
liberties; one such chain is the target. Then every legal move of the side to move is played in both engines and
the question that move raises is asked: a move of the target's owner is answered by ``attack TARGET`` (can the
other side now capture it?), a move of the other colour by ``defend TARGET`` (can the owner still save it?). A
move that captures the target is skipped. Both engines get the same moves through GTP (``play``, ``undo``).

The answers agree when their result codes agree: 0 (fails), 1 (works), 2 or 3 (works through a ko; 2 and 3
count as one class here, as the two readers name the side that must win the ko differently in a few cases, and
the strict count is reported too). The reader is asked in this process, with the GTP front end's clock (2 s);
an answer it could not finish (``unknown``) counts as a disagreement whatever GNU Go says.

Why every legal move and not only the sensible ones: a child's tap is any legal move, and the judge must be right
about all of them; most of the answers are easy ("that move changed nothing"), so the hard ones are a small share
of the count, as they are of a child's taps.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teach.go import Game  # noqa: E402
from teach.go.gtp import GtpEngine  # noqa: E402

from suite_args import apply_limits  # noqa: E402

GNUGO = "/usr/games/gnugo"


class GnuGo:
    """GNU Go in GTP mode, asked one command at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([GNUGO, "--mode", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, command: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError("gnugo exited")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if answer.startswith("?"):
            raise ValueError(f"gnugo: {command}: {answer}")
        return answer[1:].strip()

    def close(self) -> None:
        try:
            self.ask("quit")
        except Exception:
            pass
        self.proc.wait(timeout=5)


def code_of(answer: str) -> int:
    """The result code of an attack/defend answer ("0", "1 C3", "2 D4"...)."""
    head = answer.split()[0] if answer.split() else "0"
    return int(head) if head.isdigit() else -1


def klass(code: int) -> int:
    return 2 if code in (2, 3) else code


@dataclass
class Position:
    seed: int
    size: int
    moves: list[tuple[int, int | None]]  # (colour, point) as played, None for no pass here
    target: int
    to_move: int


def random_position(seed: int, sizes: list[int]) -> Position | None:
    """A random game stopped where a chain has two or three liberties (None when no game of this seed gets one)."""
    rng = random.Random(seed)
    size = sizes[seed % len(sizes)]
    for _ in range(20):
        g = Game(size)
        n2 = size * size
        stop = rng.randint(n2 // 4, n2 // 2)
        played: list[tuple[int, int | None]] = []
        while len(played) < stop:
            color = g.to_move
            empties = [p for p in range(n2) if g.board[p] == 0]
            rng.shuffle(empties)
            move = None
            for p in empties:
                if all(g.board[q] == color for q in g.adjacent[p]):
                    continue  # its own one-point eye
                if g.is_legal_point(p, color):
                    move = p
                    break
            if move is None:
                break
            g.play_point(move, color)
            played.append((color, move))
        contested = sorted({id(c): c for c in g.chain_of if c is not None and 2 <= len(c.libs) <= 3}.values(),
                           key=lambda c: min(c.stones))
        if not contested:
            continue
        chain = rng.choice(contested)
        return Position(seed, size, played, min(chain.stones), g.to_move)
    return None


@dataclass
class Tally:
    asked: int = 0
    agree: int = 0
    agree_strict: int = 0
    unknown: int = 0
    ours_seconds: float = 0.0
    gnugo_seconds: float = 0.0
    slowest: float = 0.0
    pairs: Counter = field(default_factory=Counter)  # (gnugo class, our class) of the disagreements


def check(pos: Position, ours: GtpEngine, gnugo: GnuGo, tally: Tally, show: bool, out) -> None:
    g = Game(pos.size)
    for color, p in pos.moves:
        g.play_point(p, color)
    name = g.name
    for cmd in (f"boardsize {pos.size}", "clear_board", "komi 7.5"):
        ours.handle(cmd)
        gnugo.ask(cmd)
    for color, p in pos.moves:
        cmd = f"play {'b' if color == 1 else 'w'} {name(p)}"
        ours.handle(cmd)
        gnugo.ask(cmd)
    target = name(pos.target)
    owner = g.board[pos.target]
    mover = pos.to_move
    question = "attack" if mover == owner else "defend"
    side = "b" if mover == 1 else "w"
    for p in range(pos.size * pos.size):
        if g.board[p] != 0 or not g.is_legal_point(p, mover):
            continue
        cmd = f"play {side} {name(p)}"
        try:
            gnugo.ask(cmd)
        except ValueError:
            continue  # a move one of the two engines does not allow (a superko difference): not asked
        ours.handle(cmd)
        after = ours.game
        if after.board[pos.target] != owner:
            ours.handle("undo")
            gnugo.ask("undo")
            continue  # the move took the target
        t = time.process_time()
        mine = ours.handle(f"{question} {target}").lstrip("= ").strip()
        took = time.process_time() - t
        unknown = ours.unknown
        t = time.perf_counter()
        theirs = gnugo.ask(f"{question} {target}")
        tally.gnugo_seconds += time.perf_counter() - t
        tally.ours_seconds += took
        tally.slowest = max(tally.slowest, took)
        tally.asked += 1
        a, b = code_of(theirs), code_of(mine)
        ok = not unknown and klass(a) == klass(b)
        tally.agree += ok
        tally.agree_strict += ok and a == b
        tally.unknown += unknown
        if not ok:
            tally.pairs[(klass(a), "unknown" if unknown else klass(b))] += 1
            if out is not None or show:
                line = (f"seed {pos.seed} {pos.size}x{pos.size} after {side.upper()} {name(p)}: {question} "
                        f"{target}: gnugo '{theirs}', ours '{mine}'{' unknown' if unknown else ''} ({took:.2f}s)")
                if out is not None:
                    print(line, file=out)
                if show:
                    print(line)
        ours.handle("undo")
        gnugo.ask("undo")


def seed_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1-30"))
    ap.add_argument("--sizes", default="9,13")
    ap.add_argument("--seconds", type=float, default=2.0, help="the reader's clock per answer (GTP default 2)")
    ap.add_argument("--show", action="store_true", help="print each position and its disagreements")
    ap.add_argument("--out", type=Path, help="write every disagreement here")
    ap.add_argument("--limits", default="", help="reader limits to try, e.g. verify_libs=3")
    args = ap.parse_args(argv)
    apply_limits(args.limits)
    sizes = [int(s) for s in args.sizes.split(",")]
    ours = GtpEngine(read_seconds=args.seconds)
    gnugo = GnuGo()
    by_size: dict[int, Tally] = {s: Tally() for s in sizes}
    positions = Counter()
    out = args.out.open("w") if args.out else None
    try:
        for seed in args.seeds:
            pos = random_position(seed, sizes)
            if pos is None:
                continue
            positions[pos.size] += 1
            if args.show:
                g = Game(pos.size)
                for color, p in pos.moves:
                    g.play_point(p, color)
                print(f"\nseed {seed}: target {g.name(pos.target)}, {'black' if pos.to_move == 1 else 'white'} "
                      f"to play\n" + "\n".join(g.board_rows()))
            check(pos, ours, gnugo, by_size[pos.size], args.show, out)
    finally:
        gnugo.close()
        if out is not None:
            out.close()
    print(f"seeds {args.seeds[0]}-{args.seeds[-1]} ({len(args.seeds)}); reader clock {args.seconds} s per answer")
    print(f"{'board':<7}{'positions':>10}{'asked':>8}{'agree':>8}{'%':>8}{'strict %':>10}{'unknown':>9}"
          f"{'ours s':>9}{'gnugo s':>9}{'slowest':>9}")
    total = Tally()
    for size in sizes:
        t = by_size[size]
        for k in ("asked", "agree", "agree_strict", "unknown", "ours_seconds", "gnugo_seconds"):
            setattr(total, k, getattr(total, k) + getattr(t, k))
        total.slowest = max(total.slowest, t.slowest)
        total.pairs.update(t.pairs)
        _row(f"{size}x{size}", positions[size], t)
    _row("all", sum(positions.values()), total)
    if total.pairs:
        print("disagreements (GNU Go's class -> ours): " + ", ".join(
            f"{a}->{b}: {n}" for (a, b), n in total.pairs.most_common()))
    return 0


def _row(label: str, positions: int, t: Tally) -> None:
    pct = 100 * t.agree / t.asked if t.asked else 0.0
    strict = 100 * t.agree_strict / t.asked if t.asked else 0.0
    print(f"{label:<7}{positions:>10}{t.asked:>8}{t.agree:>8}{pct:>7.1f}%{strict:>9.1f}%{t.unknown:>9}"
          f"{t.ours_seconds:>9.1f}{t.gnugo_seconds:>9.1f}{t.slowest:>9.2f}")


if __name__ == "__main__":
    sys.exit(main())
