"""Which build of the engine runs: the modules compiled by mypyc (see ``setup.py``) or their Python source.

The compiled modules are used only all together and only when each was built from the source beside it:
``setup.py`` records each source's SHA-256 in ``_compiled.json`` when the build succeeds, and this module compares
them at import. A source changed since (an edit, a checkout) or ``TEACH_PURE_PYTHON=1`` in the environment
makes every listed module load from its ``.py`` file instead, so a stale extension never answers for new code;
``make`` rebuilds it. The compiled modules call each other directly, which is why it is all or none.

Imported first by ``teach.go``, before any module it may redirect.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the same list as setup.py's COMPILED (tests/test_build.py checks that they agree)
COMPILED = ("coords", "game", "search", "reading", "life", "lifedeath", "race", "connection", "eyes", "bot")
PACKAGE = __name__.rpartition(".")[0]


def _extension(name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = HERE / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def stale_modules() -> list[str]:
    """The compiled modules that may not be used: missing, unrecorded, or built from another source."""
    try:
        recorded = json.loads((HERE / "_compiled.json").read_text())
    except (OSError, ValueError):
        recorded = {}
    stale = []
    for name in COMPILED:
        source = (HERE / f"{name}.py").read_bytes()
        if _extension(name) is None or recorded.get(name) != hashlib.sha256(source).hexdigest():
            stale.append(name)
    return stale


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files ahead of the extensions beside them."""

    def find_spec(self, fullname, path, target=None):
        package, _, name = fullname.rpartition(".")
        if package == PACKAGE and name in COMPILED:
            return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")
        return None


def _choose() -> str:
    built = [name for name in COMPILED if _extension(name) is not None]
    if not built:
        return "python"
    if os.environ.get("TEACH_PURE_PYTHON"):
        reason = None
    else:
        stale = stale_modules()
        if not stale:
            return "compiled"
        reason = (f"the compiled engine was built from other sources than {', '.join(stale)}.py (or is "
                  f"incomplete): the Python source runs instead; `make` rebuilds it")
    sys.meta_path.insert(0, _SourceOnly())
    if reason:
        warnings.warn(reason, RuntimeWarning, stacklevel=2)
    return "python"


BUILD = _choose()
