"""The lesson checker's messages in the teacher's language. The checker writes for the authors of lesson files
(English, with the file's own words); a teacher's page words the common ones anew from their codes
(``teach.lessons.errors.problem_code``), keeping the values, and says so when it keeps the checker's words."""

from __future__ import annotations

from flask_babel import gettext as _

from teach.lessons.errors import problem_code, proof_problem


def proof_message(message: str) -> str:
    """A checker's message about the proof, in the teacher's language (the checker writes for file authors)."""
    found = proof_problem(message)
    return lesson_message(message) if found else _("The reader could not prove this puzzle.")


def lesson_message(message: str) -> str:
    """A lesson checker's message in the teacher's language: the common ones worded anew with their values, any
    other kept as the checker wrote it (in English, for the file's author), said to be so."""
    found = problem_code(message)
    code, v = found if found else ("", {})
    if code == "no-winner":
        return _("No first move reaches the goal: the kids could not solve it. Change the stones or the goal.")
    if code == "budget":
        return _("The reader could not finish reading this position: make it smaller or simpler.")
    if code == "contradicts":
        return _("The reader could not decide this position: change it a little and try again.")
    if code == "ko-only":
        return _("This puzzle can only be won through a ko: kids' puzzles here need a win without one.")
    if code == "settled" and v["state"] == "dead":
        return _("The group is dead already: it could not live even if it played first, so every move would "
                 "“kill” it. Give it more room, or choose another shape.")
    if code == "settled":
        return _("The group is alive already: it could not be killed even if the other side played first, so "
                 "every move would “save” it. Take some of its room away, or choose another shape.")
    if code == "empty-target":
        return _("There is no stone on %(point)s: a target is a stone of the group.", point=v["point"])
    if code == "answer-loses":
        return _("The answer %(point)s does not reach the goal: the computer has a good reply.", point=v["point"])
    if code == "also-win":
        return _("%(points)s also reach the goal but are not among the answers: add them or change the position.",
                 points=v["points"])
    if code == "yaml-tab":
        return _("There is a tab character here: indent with spaces.")
    if code == "yaml":
        return _("This line is not valid YAML (check the colons, the indentation and the quotes): %(detail)s",
                 detail=v["detail"])
    if code == "empty-file":
        return _("The file is empty.")
    if code == "unknown-key":
        return _("“%(key)s” is not a key a lesson file uses (check its spelling).", key=v["key"])
    if code == "missing-language":
        return _("This text needs both languages: zh (Chinese) and en (English); “%(key)s” is missing.",
                 key=v["key"])
    if code == "missing-key":
        return _("Something is missing here: %(keys)s.", keys=v["keys"])
    if code == "not-a-point":
        return _("%(value)s is not a point: write a column letter (A–T, without I) and a row number, such as D4.",
                 value=v["value"])
    if code == "empty-text":
        return _("This text is empty.")
    if code == "one-kind":
        return _("A step is exactly one of: explain, demo, puzzle or quiz.")
    if code == "expected":
        return _("A different kind of value belongs here (expected %(expected)s, found %(found)s).",
                 expected=v["expected"], found=v["found"])
    if code == "target-side":
        return _("The stones marked as targets belong to the wrong side for this goal: to capture, kill, cut or "
                 "win a race, mark the other side's stones; to save, live or connect, the stones of the side that "
                 "plays first. Change the targets, or who plays first.")
    return _("The checker says: %(detail)s", detail=message)
