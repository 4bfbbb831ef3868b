"""Imports point down only: go < lessons < db < models < web < cli (DESIGN, "Layers").

Every module's imports are read from its source (the whole tree, imports inside functions too), so an upward
import fails here before it tangles the packages. A module outside the layers' packages (beside ``teach/cli.py``
at the top of the package) counts as the top layer: it may import anything and be imported only by the CLI.
"""

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "teach"
# a module's layer is the one of the longest of these prefixes its dotted name starts with
LAYERS = {"teach.go": 0, "teach.lessons": 1, "teach.db": 2, "teach.models": 3, "teach.migrations": 3,
          "teach.web": 4, "teach.cli": 5}
TOP = max(LAYERS.values())
NAMES = {0: "go", 1: "lessons", 2: "db", 3: "models", 4: "web", 5: "cli"}
# libraries a lower layer must not lean on: the engine is pure Python, the lessons know no web or database
FORBIDDEN = {
    0: {"flask", "flask_sqlalchemy", "sqlalchemy", "click", "jinja2", "werkzeug", "yaml", "jsonschema"},
    1: {"flask", "flask_babel", "flask_login", "flask_sqlalchemy", "flask_wtf", "sqlalchemy", "jinja2", "werkzeug"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(name: str) -> int | None:
    """The layer of a module of ours (None for the bare package ``teach``, which holds only its version)."""
    if name == "teach":
        return None
    found = [prefix for prefix in LAYERS if name == prefix or name.startswith(prefix + ".")]
    return LAYERS[max(found, key=len)] if found else TOP


def imported(path: Path) -> list[str]:
    """Every module ``path`` imports, as dotted names (relative imports resolved; ``from a import b`` as
    ``a.b``, which has a's layer when b is not a module)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            out += [f"{base}.{a.name}" if base else a.name for a in node.names]
    return out


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def upward_imports(paths) -> list[str]:
    offenders = []
    for path in paths:
        here = layer(module_name(path))
        for target in imported(path):
            top = target.split(".")[0]
            if top == "teach":
                there = layer(target)
                if there is not None and here is not None and there > here:
                    offenders.append(f"{module_name(path)} ({NAMES[here]}) imports {target} ({NAMES[there]})")
            elif here in FORBIDDEN and top in FORBIDDEN[here]:
                offenders.append(f"{module_name(path)} ({NAMES[here]}) imports {target}")
    return offenders


def test_every_layer_is_found():
    found = {layer(module_name(p)) for p in sources()}
    assert found >= set(LAYERS.values()), "a layer's package was not found"


def test_no_module_imports_a_higher_layer():
    assert upward_imports(sources()) == []


@pytest.mark.parametrize("where,line", [
    ("go/fake.py", "from teach.lessons import load_lessons"),
    ("lessons/fake.py", "from teach.models import User"),
    ("lessons/practice/fake.py", "from ...web import content"),
    ("db.py", "import teach.models"),
    ("models.py", "from teach.web.extensions import db"),
    ("web/fake.py", "def f():\n    from teach.cli import cli"),
    ("go/fake.py", "import flask"),
    ("lessons/fake.py", "from sqlalchemy import select"),
])
def test_an_upward_import_is_caught(tmp_path, monkeypatch, where, line):
    """The check itself: a module of each layer that imports upward (or a library below it) is reported."""
    root = tmp_path / "teach"
    path = root / where
    path.parent.mkdir(parents=True)
    path.write_text(line + "\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert len(upward_imports([path])) == 1


def test_imports_downward_and_sideways_pass(tmp_path, monkeypatch):
    root = tmp_path / "teach"
    path = root / "web" / "fake.py"
    path.parent.mkdir(parents=True)
    path.write_text("from teach.go import Game\nfrom teach.lessons.practice import DRILLS\nfrom teach import db\n"
                    "from . import moves\nimport teach\nimport flask\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert upward_imports([path]) == []
