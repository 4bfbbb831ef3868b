"""The engine's two builds (teach/go/_build.py): the modules compiled by mypyc, or their Python source.

The compiled modules load only all together and only when built from the source beside them; otherwise, and
with ``TEACH_PURE_PYTHON=1``, every one loads from its ``.py`` file. ``make test-python`` runs the engine's
tests again on the source, so the two builds pass the same tests.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import teach.go
from teach.go import _build

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import teach.go, teach.go.game, teach.go.reading, teach.go.bot
print(json.dumps({"build": teach.go.BUILD,
                  "files": [m.__file__ for m in (teach.go.game, teach.go.reading, teach.go.bot)],
                  "warnings": [str(w.message) for w in caught]}))
"""


def probe(path: Path, **env: str) -> dict:
    import json

    environ = {k: v for k, v in os.environ.items() if k != "TEACH_PURE_PYTHON"}
    environ.update(env, PYTHONPATH=str(path))
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=path, env=environ, capture_output=True, text=True,
                         timeout=60, check=True)
    got = json.loads(out.stdout)
    assert all(Path(f).is_relative_to(path) for f in got["files"]), "the copy is what was imported"
    return got


def copy_engine(to: Path) -> None:
    """The package's engine as this checkout has it (with its compiled modules and their shared library, if
    built), in a folder of its own."""
    (to / "teach").mkdir()
    shutil.copy(ROOT / "teach" / "__init__.py", to / "teach")
    shutil.copytree(ROOT / "teach" / "go", to / "teach" / "go", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in ROOT.glob("*__mypyc*"):
        shutil.copy(lib, to)


def built() -> bool:
    return all(_build._extension(name) is not None for name in _build.COMPILED)


def test_setup_compiles_the_modules_the_guard_knows():
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets))
    assert tuple(ast.literal_eval(listed)) == _build.COMPILED
    assert all((ROOT / "teach" / "go" / f"{name}.py").exists() for name in _build.COMPILED)


def test_this_run_uses_the_build_it_says():
    if os.environ.get("TEACH_PURE_PYTHON") or not built() or _build.stale_modules():
        assert teach.go.BUILD == "python"
        assert teach.go.game.__file__.endswith(".py")
    else:
        assert teach.go.BUILD == "compiled"
        assert not teach.go.game.__file__.endswith(".py")
    if shutil.which("gcc") and not os.environ.get("TEACH_PURE_PYTHON"):
        assert teach.go.BUILD == "compiled", "make builds the engine where a C compiler is installed"


def test_pure_python_on_request_loads_every_module_from_source(tmp_path):
    copy_engine(tmp_path)
    got = probe(tmp_path, TEACH_PURE_PYTHON="1")
    assert got["build"] == "python"
    assert all(f.endswith(".py") for f in got["files"])
    assert got["warnings"] == []


def test_a_source_changed_after_the_build_is_never_run_compiled(tmp_path):
    copy_engine(tmp_path)
    reading = tmp_path / "teach" / "go" / "reading.py"
    reading.write_text(reading.read_text() + "\n# changed after the build\n")
    got = probe(tmp_path)
    assert got["build"] == "python"
    assert all(f.endswith(".py") for f in got["files"]), "all or none: the compiled modules call each other"
    if built():
        assert any("reading.py" in w and "make" in w for w in got["warnings"])
    else:
        assert got["warnings"] == []  # nothing compiled: nothing to warn about


def test_the_unchanged_copy_runs_the_build_it_was_given(tmp_path):
    copy_engine(tmp_path)
    got = probe(tmp_path)
    assert got["warnings"] == []
    assert got["build"] == ("compiled" if built() and not _build.stale_modules() else "python")
