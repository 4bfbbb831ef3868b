"""The computer levels against each other, through GTP, refereed by the engine: does each level beat the one below?

Players are GTP engines — ``teach gtp --level N --seed S [--capture 5]`` subprocesses and GNU Go
(``gnugo --mode gtp --chinese-rules --level 0``) — plus the scripted "beginner" (in this script: it captures
when it can, else gives atari when it can, else plays a random move near the last stone), the child that only
knows "catch stones in atari" that level 1 must lose to half the time. The referee is ``teach.go.Game``: every
move is checked (an illegal move loses the game), full games are counted by ``status.estimate`` (dead stones
removed, area scoring, komi 7.5), capture games end at 5 captures (two passes: more captures wins). A move cap
ends runaway games (then the count or the captures decide). Colours alternate game by game; each game has its
own seed (``set_random_seed``).

Engines are started once per worker and reused (``clear_board`` between games); at most two workers.

    python bench/bot_ladder.py [--games 40] [--pairs 1-2,5-6,beginner,gnugo] [--kinds full,capture] [--jobs 2]
                               [--first-seed 1000]

Targets: level 1 loses >= 50 % to the beginner; each level beats the one below in >= 65 %; the top built-in
level wins >= 25 % against GNU Go level 0 (9x9, komi 7.5 both ways).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from teach.go import Game, Rules  # noqa: E402
from teach.go.gnugo import find_gnugo  # noqa: E402
from teach.go.status import estimate  # noqa: E402

SIZE = 9
KOMI = 7.5
CAPTURE_GOAL = 5
CAPTURE_SIZE = 7
MOVE_CAP = {"full": 2 * SIZE * SIZE, "capture": 2 * CAPTURE_SIZE * CAPTURE_SIZE}
ANSWER_SECONDS = 30.0  # far above any level's budget: a hang is a failure, not a slow move
DEFAULT_PAIRS = ["1-2", "2-3", "3-4", "4-5", "5-6", "beginner", "gnugo"]


class GtpPlayer:
    """A GTP engine subprocess; ``ask`` sends one command and returns the answer text (raises on ``?``)."""

    def __init__(self, argv: list[str]) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, bufsize=0)
        self.buf = b""

    def ask(self, command: str) -> str:
        self.proc.stdin.write(command.encode() + b"\n")
        deadline = time.monotonic() + ANSWER_SECONDS
        fd = self.proc.stdout.fileno()
        while b"\n\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"no answer to {command!r}")
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise RuntimeError(f"engine died on {command!r}")
                self.buf += chunk
        answer, self.buf = self.buf.split(b"\n\n", 1)
        text = answer.decode()
        if not text.startswith("="):
            raise RuntimeError(f"{command!r}: {text!r}")
        return text[1:].strip()

    def close(self) -> None:
        try:
            self.ask("quit")
        except (RuntimeError, OSError):
            pass
        self.proc.kill()
        self.proc.wait()


class Beginner:
    """The scripted child: takes stones in atari, else gives atari, else plays near the last stone."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def new_game(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def move(self, game: Game) -> str:
        color, rng = game.to_move, self.rng
        legal = game.legal_points(color)
        if not legal:
            return "pass"
        legal_set = set(legal)
        opp_chains = sorted((c for c in game.all_chains if c.color != color), key=lambda c: min(c.stones))
        takes = [p for c in opp_chains if len(c.libs) == 1 for p in c.libs if p in legal_set]
        if takes:
            return game.name(rng.choice(sorted(set(takes))))
        ataris = [p for c in opp_chains if len(c.libs) == 2 for p in c.libs if p in legal_set]
        if ataris:
            return game.name(rng.choice(sorted(set(ataris))))
        last = next((p for _, p in reversed(game.moves) if p is not None), None)
        n = game.size
        if last is not None:
            lr, lc = divmod(last, n)
            near = [p for p in legal if max(abs(p // n - lr), abs(p % n - lc)) <= 2]
            if near:
                return game.name(rng.choice(near))
        return game.name(rng.choice(legal))


def teach_argv(level: int, kind: str) -> list[str]:
    script = Path(sys.executable).parent / "teach"  # the console script, as GoGui would start it
    head = [str(script)] if script.exists() else [sys.executable, "-c", "from teach.cli import cli; cli()"]
    argv = head + ["gtp", "--level", str(level)]
    return argv + (["--capture", str(CAPTURE_GOAL)] if kind == "capture" else [])


_engines: dict[tuple, GtpPlayer] = {}


def engine(name: str, kind: str) -> GtpPlayer | Beginner:
    """The worker's engine for ``name`` (a level number, ``gnugo`` or ``beginner``), started on first use."""
    key = (name, kind)
    if key not in _engines:
        if name == "beginner":
            _engines[key] = Beginner()
        elif name == "gnugo":
            _engines[key] = GtpPlayer([find_gnugo(), "--mode", "gtp", "--chinese-rules", "--level", "0"])
        else:
            _engines[key] = GtpPlayer(teach_argv(int(name), kind))
    return _engines[key]


def play_game(task: tuple) -> dict:
    """One game: (black name, white name, kind, seed) -> who won and how."""
    black, white, kind, seed = task
    size = SIZE if kind == "full" else CAPTURE_SIZE
    rules = Rules(capture_goal=CAPTURE_GOAL) if kind == "capture" else Rules()
    game = Game(size, komi=KOMI, rules=rules)
    players = {1: engine(black, kind), 2: engine(white, kind)}
    if players[1] is players[2]:
        raise ValueError("a level plays another level")
    for p in players.values():
        if isinstance(p, Beginner):
            p.new_game(seed)
        else:
            p.ask(f"boardsize {size}")
            p.ask("clear_board")
            p.ask(f"komi {KOMI}")
            p.ask(f"set_random_seed {seed}")
    illegal = None
    seconds = {1: 0.0, 2: 0.0}
    while not game.over and len(game.moves) < MOVE_CAP[kind]:
        color = game.to_move
        me, other = players[color], players[3 - color]
        word = "black" if color == 1 else "white"
        t = time.perf_counter()
        move = me.move(game) if isinstance(me, Beginner) else me.ask(f"genmove {word}")
        seconds[color] += time.perf_counter() - t
        if move.lower() == "resign":
            game.resign(word)
            break
        if move.lower() != "pass" and not game.is_legal(move):
            illegal = word
            break
        game.play(move)
        if not isinstance(other, Beginner):
            other.ask(f"play {word} {move}")
    margin = None  # Black's lead: points by the count (full), captured stones (capture)
    if kind == "capture":
        margin = game.captures["black"] - game.captures["white"]
    if illegal:
        winner = "white" if illegal == "black" else "black"
    elif game.resigned:
        winner = game.winner
    elif kind == "capture":
        caps = game.captures
        winner = game.winner or ("black" if caps["black"] > caps["white"] else
                                 "white" if caps["white"] > caps["black"] else None)
    else:
        result = estimate(game, playouts=64).score()
        winner, margin = result.winner, float(result.margin_points)
    return {"task": task, "winner": winner, "margin": margin, "moves": len(game.moves), "illegal": illegal,
            "seconds": seconds, "end": game.end_reason or "cap"}


def tasks_for(pair: str, kinds: list[str], games: int, first_seed: int = 1000) -> list[tuple]:
    """The games of one pair: (lower, higher) alternating colours, one seed per game from ``first_seed`` on."""
    if pair == "beginner":
        low, high, pair_kinds = "beginner", "1", kinds
    elif pair == "gnugo":
        low, high, pair_kinds = "gnugo", "6", [k for k in kinds if k == "full"]
    else:
        a, b = pair.split("-")
        low, high, pair_kinds = a, b, kinds
    out = []
    for kind in pair_kinds:
        for i in range(games):
            seed = first_seed + i
            out.append((low, high, kind, seed) if i % 2 == 0 else (high, low, kind, seed))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per pair and kind")
    ap.add_argument("--pairs", default=",".join(DEFAULT_PAIRS),
                    help="comma-separated: 1-2 .. 5-6, beginner (level 1 vs the scripted beginner), gnugo")
    ap.add_argument("--kinds", default="full,capture", help="full (9x9, komi 7.5) and/or capture (7x7, 5 stones)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (at most 2)")
    ap.add_argument("--first-seed", type=int, default=1000,
                    help="the first game's seed: a figure for the record is best measured on seeds not tuned on")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    pairs = [p for p in args.pairs.split(",") if p]
    if "gnugo" in pairs and not find_gnugo():
        print("GNU Go not found: the gnugo pair is skipped")
        pairs.remove("gnugo")
    tasks = [(pair, t) for pair in pairs for t in tasks_for(pair, kinds, args.games, args.first_seed)]
    started = time.perf_counter()
    cpu0 = time.process_time()
    with multiprocessing.Pool(max(1, min(args.jobs, 2))) as pool:
        results = pool.map(play_game, [t for _, t in tasks], chunksize=1)
    print(f"{'pair':<14}{'kind':<9}{'higher wins':>12}{'games':>7}{'%':>7}{'draws':>7}{'illegal':>9}"
          f"{'moves':>7}{'ms/mv hi':>10}{'ms/mv lo':>10}{'lead hi':>9}")
    for pair in pairs:
        for kind in kinds:
            rows = [r for (p, _), r in zip(tasks, results) if p == pair and r["task"][2] == kind]
            if not rows:
                continue
            high = "1" if pair == "beginner" else "6" if pair == "gnugo" else pair.split("-")[1]
            wins = draws = illegal = 0
            secs = {"hi": 0.0, "lo": 0.0}
            counts = {"hi": 0, "lo": 0}
            moves = 0
            leads = []
            for r in rows:
                black, white = r["task"][:2]
                high_color = "black" if black == high else "white"
                if r["margin"] is not None:
                    leads.append(r["margin"] if high_color == "black" else -r["margin"])
                wins += r["winner"] == high_color
                draws += r["winner"] is None
                illegal += r["illegal"] is not None
                moves += r["moves"]
                for c, who in ((1, black), (2, white)):
                    side = "hi" if who == high else "lo"
                    secs[side] += r["seconds"][c]
                    counts[side] += (r["moves"] + (c == 1)) // 2
            n = len(rows)
            label = {"beginner": "1 v beginner", "gnugo": "6 v gnugo0"}.get(pair, pair.replace("-", " v "))
            print(f"{label:<14}{kind:<9}{wins:>12}{n:>7}{100 * wins / n:>6.0f}%{draws:>7}{illegal:>9}"
                  f"{moves / n:>7.0f}{1000 * secs['hi'] / max(1, counts['hi']):>10.1f}"
                  f"{1000 * secs['lo'] / max(1, counts['lo']):>10.1f}"
                  f"{sum(leads) / len(leads) if leads else float('nan'):>+9.1f}")
    print(f"\n{len(results)} games in {time.perf_counter() - started:.0f} s wall "
          f"(workers' CPU not included in this process's {time.process_time() - cpu0:.1f} s)")
    print("'higher wins': games won by the higher level (for '1 v beginner': by level 1; target there <= 50 %)")
    print("'lead hi': the higher level's mean lead at the end (full: points by the count, komi included, games "
          "lost on an illegal move or a resignation not counted; capture: stones captured more)")


if __name__ == "__main__":
    main()
