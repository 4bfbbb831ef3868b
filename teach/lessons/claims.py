"""Proving what explain steps and the right answers of choice quizzes say about the board.

Children chant what a lesson tells them, so a plain statement about the position shown is a fact the reader can
check: "these stones are in seki" (双活), "this group is alive" (活棋, 永远安全, 活了), "this group is dead"
(死棋, 活不了), "it can be caught" (会被吃, 不安全), "A is (not) a forbidden point" (禁着点). The Chinese text is
the one read: it is the lesson's first language, and the English says the same.

Which stones a claim is about: the stones marked with ``triangle`` of the colour the sentence names (黑/白, the
last named before the claim word, else the first after it, else the one a quiz's question names); with no
triangle on that colour, every chain of it; naming no colour, the triangles. A seki claim needs its stones
marked. A forbidden-point claim is about the labelled points the sentence names (A, B ...) and the points marked
with ``cross``, for the colour it names (or, naming none, for someone).

Sentences that describe what would happen after a move (如果, 下A, 先占, a question ...) are not claims about the
position shown and are not read; neither is a sentence that only says how things look (好像, 看起来).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from teach.go import Game
from teach.go.judge import Goal, GoalError, Judge
from teach.go.reading import LOSE, WIN, BudgetExceeded, Limits

from .errors import Path
from .model import Explain, Quiz, Step

BUDGET = "ran out of budget"
# the checker's budget: a claim is read like a puzzle
CLAIM_LIMITS = Limits(seconds=60.0)

# claim word -> kind; longer words first, so 不是活棋 is read before 活棋
_WORDS = (
    ("禁着点", "forbidden"),  # 不是…禁着点 reads as legal
    ("双活", "seki"),
    ("不是活棋", "killable"), ("活不了", "dead"), ("不会被吃", "alive"), ("不安全", "killable"),
    ("死棋", "dead"), ("活棋", "alive"), ("永远安全", "alive"), ("活了", "alive"),
    ("会被吃", "killable"), ("被吃掉", "killable"),
)
# a sentence about what a move would do, or a question: not a fact about the position shown
_HYPOTHETICAL = re.compile(r"如果|要是|假如|下在|下[A-Z]|占到|占了|先下|先占|谁先|以后|吗|？|\?|能不能|好像|看起来|像是")
_LIFE_KINDS = ("seki", "alive", "dead", "killable")
_COLOUR_WORDS = re.compile(r"(黑棋|黑子|黑猫|白棋|白子|白老鼠|小老鼠)")


@dataclass(frozen=True)
class Claim:
    kind: str  # seki | alive | dead | killable | forbidden | legal
    colour: str | None  # the colour the sentence names before the claim word
    letters: tuple[str, ...]  # labels the sentence names (forbidden / legal)
    sentence: str


def claims_in(text: str, context: str = "") -> list[Claim]:
    """The checkable claims of one Chinese text, sentence by sentence; ``context`` (a quiz's question) names the
    colour when the sentence does not."""
    out = []
    context_named = _COLOUR_WORDS.findall(context)
    for sentence in re.split(r"[。！；!;\n]", text):
        taken: list[tuple[int, int]] = []
        for word, kind in _WORDS:
            for m in re.finditer(re.escape(word), sentence):
                if any(a <= m.start() < b for a, b in taken):
                    continue  # part of a longer word already read (活棋 inside 不是活棋)
                taken.append((m.start(), m.end()))
                before = sentence[:m.start()]
                if kind in _LIFE_KINDS and _HYPOTHETICAL.search(sentence):
                    continue
                if kind in ("forbidden", "legal") and re.search(r"好像|看起来|像是|吗|？|\?", sentence):
                    continue
                if kind == "forbidden" and re.search(r"不是[^，,]*$", before):
                    kind = "legal"  # 不是黑棋的禁着点
                named = (_COLOUR_WORDS.findall(before) or _COLOUR_WORDS.findall(sentence[m.end():])[:1]
                         or context_named[-1:])
                colour = None
                if named:
                    colour = "black" if named[-1].startswith("黑") else "white"
                if any(c.kind == kind and c.sentence == sentence.strip() for c in out):
                    continue  # one claim of a kind per sentence (活棋 … 双活 say one thing)
                letters = tuple(dict.fromkeys(re.findall(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])", sentence)))
                out.append(Claim(kind, colour, letters, sentence.strip()))
    return out


def check(checker, step: Step | None, path: Path) -> None:
    """Prove the claims of one built step, reporting each that does not hold through ``checker.error``."""
    if step is None or not getattr(checker, "prove", False) or step.position is None:
        return
    if isinstance(step, Explain):
        sources = [(path + ("text",), step.text.zh, "")]
    elif isinstance(step, Quiz) and step.ask == "choice" and isinstance(step.answer, int) \
            and 0 <= step.answer < len(step.choices):
        sources = [(path + ("choices", step.answer), step.choices[step.answer].zh, step.question.zh)]
    else:
        return
    for where, text, context in sources:
        wrong = set()
        for claim in claims_in(text, context):
            if claim.sentence in wrong:
                continue
            problem = prove(claim, step)
            if problem:
                wrong.add(claim.sentence)
                checker.error(where, f"the text says “{claim.sentence}”, but {problem}")


def prove(claim: Claim, step: Step) -> str | None:
    """None if the claim holds on the step's position, else what is wrong (for the author)."""
    position = step.position
    game = position.game()
    if claim.kind in ("forbidden", "legal"):
        return _prove_point(claim, step, game)
    triangles = [p for p in step.marks.triangle if position.color_at(p)]
    if claim.colour and claim.kind != "seki":
        subjects = [p for p in triangles if position.color_at(p) == claim.colour]
        if not subjects:
            subjects = list(position.black if claim.colour == "black" else position.white)
    else:
        subjects = triangles
    if claim.kind == "seki" and {position.color_at(p) for p in subjects} != {"black", "white"}:
        return "the stones of a seki (both colours) are not marked: mark them with `triangle` so it can be proven"
    if not subjects:
        return "it does not say whose stones: name 黑棋 or 白棋, or mark them with `triangle`"
    chains = _one_stone_per_chain(game, subjects)
    out_of_budget = None
    for stone in chains:
        verdict = _read_life(position, stone, claim.kind)
        if verdict and BUDGET in verdict:
            out_of_budget = out_of_budget or verdict  # a refutation of another chain says more: read on
        elif verdict:
            return verdict
    if out_of_budget:
        return out_of_budget
    if claim.kind == "seki" and not _share_a_liberty(game, chains):
        return "the marked black and white stones share no liberty: that is not a seki"
    return None


def _read_life(position, stone: str, kind: str) -> str | None:
    owner = position.color_at(stone)
    other = "white" if owner == "black" else "black"
    who = f"the {owner} stones at {stone}"
    try:
        if kind in ("alive", "seki", "killable"):
            game = position.game(other)
            result, move = Judge(game, Goal("kill", (stone,)), CLAIM_LIMITS).best(game)
            if kind == "killable":
                return None if result == WIN else f"the reader finds {who} cannot be killed with {other} to play"
            if result != LOSE:
                how = f" ({other} {game.name(move)})" if move is not None else ""
                return f"the reader kills {who} with {other} to play{how}"
            return None
        game = position.game(owner)  # dead: even moving first, the owner cannot live
        result, move = Judge(game, Goal("live", (stone,)), CLAIM_LIMITS).best(game)
        if result != LOSE:
            how = f" ({owner} {game.name(move)})" if move is not None else ""
            return f"the reader makes {who} live with {owner} to play{how}"
        return None
    except BudgetExceeded:
        return f"the reader {BUDGET} on {who}: make the position smaller or simpler"
    except GoalError as e:
        return f"it cannot be read ({e})"


def _prove_point(claim: Claim, step: Step, game: Game) -> str | None:
    labels = {letter.upper(): point for point, letter in step.position.labels}
    points = [labels[x] for x in claim.letters if x in labels] + list(step.marks.cross)
    if not points:
        return "it does not say which point: name a labelled point (A, B ...) or mark it with `cross`"
    colours = [claim.colour] if claim.colour else ["black", "white"]
    for point in points:
        if step.position.color_at(point):
            return f"{point} is not empty"
        forbidden = [c for c in colours if game.why_illegal(point, c) is not None]
        if claim.kind == "forbidden" and not forbidden:
            return f"{point} is a legal move for {' and '.join(colours)}"
        if claim.kind == "legal" and len(forbidden) == len(colours):
            return f"{point} is forbidden for {' and '.join(colours)}"
    return None


def _one_stone_per_chain(game: Game, stones: list[str]) -> list[str]:
    seen, out = set(), []
    for stone in stones:
        chain = game.chain_of[game.require_point(stone)]
        if id(chain) not in seen:
            seen.add(id(chain))
            out.append(stone)
    return out


def _share_a_liberty(game: Game, stones: list[str]) -> bool:
    colour = {s: game.color_at(s) for s in stones}
    libs = {s: set(game.liberties(s)) for s in stones}
    return any(libs[a] & libs[b] for a in stones for b in stones if colour[a] != colour[b])
