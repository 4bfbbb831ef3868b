"""teach/go is the shared rules engine: it imports nothing from the web, database or lesson code."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "teach" / "go"
THIRD_PARTY = {"flask", "flask_sqlalchemy", "sqlalchemy", "click", "jinja2", "werkzeug", "yaml"}
HIGHER = ("teach.web", "teach.models", "teach.lessons", "teach.cli", "teach.regress")


def test_engine_imports_only_the_standard_library_and_itself():
    offenders = []
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            offenders += [f"{path.name}: {n}" for n in names
                          if n.split(".")[0] in THIRD_PARTY or any(n == h or n.startswith(h + ".") for h in HIGHER)]
    assert list(ENGINE.glob("*.py")), "engine package not found"
    assert offenders == []
