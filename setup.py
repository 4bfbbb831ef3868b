"""The engine's reading modules compiled by mypyc, when this machine can: the same Python source, 1.5-2x faster.

Everything else about the package is in pyproject.toml. ``pip install -e .`` (the README's ``make``) type-checks
the modules below with mypy and compiles them to C extensions beside their source; the readers then answer in
half to two thirds of the time (see the README, "The engine's compiled build"). When the build cannot be made (no C
compiler, no Python headers, ``TEACH_PURE_PYTHON=1`` at install), the install goes on without it and the source
runs as it is: ``teach.go.BUILD`` says which build runs, and ``teach/go/_build.py`` keeps the two in step (a
compiled module whose source has changed since it was built is never loaded).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# the modules a read spends its time in (a ``teach/go/_build.py`` test checks this list against its own)
COMPILED = ("coords", "game", "search", "reading", "life", "lifedeath", "race", "connection", "eyes", "bot")
STAMP = ROOT / "teach" / "go" / "_compiled.json"


def sources() -> list[str]:
    return [f"teach/go/{name}.py" for name in COMPILED]


def digest(path: str) -> str:
    return hashlib.sha256((ROOT / path).read_bytes()).hexdigest()


class BuildEngine(build_ext):
    """Build the extensions; record the digest of each source they were built from, which ``teach.go._build``
    compares at import. A failed build leaves no record, so the source runs."""

    def run(self) -> None:
        if not self.extensions:  # a source-only install: what was built before stays, and stays checked
            return
        STAMP.unlink(missing_ok=True)
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure: the pure-Python build still works
            print(f"teach: the engine's compiled build could not be made ({exc}); the Python source runs",
                  file=sys.stderr)
            return
        STAMP.write_text(json.dumps({name: digest(path) for name, path in zip(COMPILED, sources())},
                                    indent=1, sort_keys=True) + "\n")


def extensions() -> list:
    if os.environ.get("TEACH_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("teach: mypyc is not installed; the engine's Python source runs", file=sys.stderr)
        return []
    try:  # type errors stop mypyc (it raises SystemExit): say so, and install the source
        return mypycify(["--ignore-missing-imports", "--follow-imports=silent", *sources()], opt_level="3")
    except (Exception, SystemExit) as exc:  # noqa: BLE001
        print(f"teach: mypyc could not compile the engine ({exc}); the Python source runs", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildEngine})
