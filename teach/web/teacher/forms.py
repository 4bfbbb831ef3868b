"""The forms of the teacher's pages. Field names are the ones the templates post; a view that fails flashes or
shows the form's messages, in the teacher's language.

The SGF puzzle form reads and parses its upload while it validates, so one pass lists every problem in the order
the page shows them: the file, the goal, the target, the instruction, the topic.
"""

from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField
from wtforms import DateField, Field, IntegerField, StringField, TextAreaField
from wtforms.validators import AnyOf, DataRequired, ValidationError

from teach.go.judge import GOALS
from teach.lessons import authoring
from teach.web import content
from teach.web.safety import one_line
from teach.web.security import PageForm, plain_int

__all__ = ["one_line"]  # the editor takes it from here with the forms

UPLOAD_MAX = 64 * 1024  # bytes of one uploaded lesson or SGF file
TEXT_MAX = 300  # characters of a puzzle's instruction
GOAL_LABELS = {"capture": _l("Capture the target stones"), "save": _l("Save the target stones"),
               "live": _l("Make the target group live"), "kill": _l("Kill the target group"),
               "race": _l("Win the capturing race"), "connect": _l("Connect the target stones"),
               "cut": _l("Cut the target stones apart")}


def first_error(form: PageForm) -> str | None:
    """The first message of the form, as text (a lazy string cannot be flashed into the session)."""
    return next((str(e) for errors in form.errors.values() for e in errors), None)


class ClassNameForm(PageForm):
    name = StringField(filters=[lambda raw: one_line(raw)[:80]],
                       validators=[DataRequired(message=_l("Give the class a name."))])


class ArchiveForm(PageForm):
    """Archive (``archived=1``, also when absent) or restore (anything else) a class or a kid."""
    archived = StringField(default="1")


class TeacherEmailForm(PageForm):
    email = StringField(filters=[lambda raw: (raw or "").strip().lower()])


class KidNamesForm(PageForm):
    names = TextAreaField(default="")


class MoveKidForm(PageForm):
    to = IntegerField()  # a class id; anything else reaches no class (404)


class KidIdsField(Field):
    """The ids of the ticked kids; none ticked means the whole class."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, default=list, **kwargs)

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = sorted({n for n in map(plain_int, valuelist) if n is not None})


class AssignForm(PageForm):
    what = StringField(default="")  # lesson:<id>, topic:<id>, own:<id> (a teacher's own) or practice:<topic>:<level>
    seed = StringField(default="")  # a practice set's seed; empty for a new one
    due = DateField()
    kids = KidIdsField()


class LessonUploadForm(PageForm):
    lesson = FileField()


class SgfProblemForm(PageForm):
    sgf = FileField()
    goal = StringField(validators=[AnyOf(GOALS, message=_l("Choose what the kids must do (the goal)."))])
    target = StringField(default="")
    text_zh = StringField(default="")  # one language is enough (``instruction``); validate_text_zh asks for one
    text_en = StringField(default="")
    topic = StringField(default="")
    title_zh = StringField(default="")
    title_en = StringField(default="")
    hint_zh = StringField(default="")  # optional, one language is enough
    hint_en = StringField(default="")

    root = None  # the SGF's root node, once it has been read

    def validate_sgf(self, field: FileField) -> None:
        upload = field.data
        if upload is None:
            raise ValidationError(_("Choose an SGF file to upload."))
        data = upload.stream.read(UPLOAD_MAX + 1)
        if len(data) > UPLOAD_MAX:
            raise ValidationError(_("That file is too big (at most %(n)d KB).", n=UPLOAD_MAX // 1024))
        self.root, problem = authoring.read_sgf(data)
        if problem is not None:
            raise ValidationError(sgf_problem_message(problem))

    def validate_target(self, field: StringField) -> None:
        if authoring.parse_points(field.data or "") is None:
            wrong = authoring.not_points(field.data or "")
            if wrong:
                raise ValidationError(_("“%(word)s” is not a point: write the target stones as points such as E5 "
                                        "(several: E5 E6).", word=wrong[0][:20]))
            raise ValidationError(_("Write the target stones as points such as E5 (several: E5 E6)."))

    def validate_topic(self, field: StringField) -> None:
        if content.catalog().topic(field.data) is None:
            raise ValidationError(_("Choose the topic the puzzle belongs to."))

    @property
    def targets(self) -> list[str]:
        return authoring.parse_points(self.target.data or "") or []

    def validate_text_zh(self, field: StringField) -> None:
        if not one_line(field.data) and not one_line(self.text_en.data):
            raise ValidationError(_("Write the instruction, in Chinese or in English (or both)."))

    @property
    def instruction(self) -> dict[str, str]:
        return authoring.both_languages(
            {lang: one_line(self[f"text_{lang}"].data)[:TEXT_MAX] for lang in authoring.LANGUAGES})

    @property
    def titles(self) -> dict[str, str]:
        """The titles as typed (the lesson stands the instruction in for a missing one)."""
        return {lang: self[f"title_{lang}"].data or "" for lang in authoring.LANGUAGES}

    @property
    def hint(self) -> dict[str, str]:
        return {lang: one_line(self[f"hint_{lang}"].data)[:TEXT_MAX] for lang in authoring.LANGUAGES}

    def problems(self) -> list[str]:
        """Every message of the form, once each, in the order of its fields."""
        self.validate()
        return list(dict.fromkeys(str(e) for name, errors in self.errors.items() if name != "csrf_token"
                                  for e in errors))


def _sgf_reading(detail: str) -> str:
    """What the SGF reader could not read, in the teacher's language: the common mistakes of a file written or
    edited by hand worded anew (with where, counted in characters from its start); any other as the reader
    said it, in English."""
    where = re.search(r"at offset (\d+)", detail)
    at = int(where.group(1)) + 1 if where else None
    prop = re.search(r"property identifier '([^']*)'", detail)
    if "missing ')'" in detail:
        return _("The SGF is cut short: a “)” is missing at its end.")
    if "no closing ']'" in detail and at is not None:
        return _("A value is not closed: a “]” is missing (near character %(n)d).", n=at)
    if prop is not None and "uppercase" in detail:
        return _("“%(prop)s” is not an SGF property: properties are capital letters, such as AB and AW.",
                 prop=prop.group(1)[:20])
    off = re.search(r"point '([^']*)' is off the (\d+)x\d+ board", detail)
    if off is not None:
        return _("The point “%(point)s” is not on the %(size)s×%(size)s board: SGF points are two small letters "
                 "from a to the board's size (aa is the top left corner).", point=off.group(1)[:8], size=off.group(2))
    if "no game tree found" in detail:
        return _("That is not an SGF file (SGF is text that starts with “(;”).")
    if ("expected ';'" in detail or "unexpected character" in detail) and at is not None:
        return _("The SGF cannot be read near character %(n)d: check the brackets and semicolons there.", n=at)
    return _("That SGF could not be read: %(why)s", why=detail)


def sgf_problem_message(problem: authoring.Problem) -> str:
    if problem.code == "not-sgf":
        return _("That is not an SGF file (SGF is text that starts with “(;”).")
    if problem.code == "unreadable":
        return _sgf_reading(problem.detail)
    if problem.code == "size":
        return _("The board must be 9×9 or 13×13 (SZ[9] or SZ[13]); this one is %(size)s.", size=problem.detail)
    if problem.code == "no-stones":
        return _("The SGF sets up no stones (AB and AW in its first node).")
    return _("PL must be B or W (the side to move).")
