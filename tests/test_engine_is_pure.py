"""games/engine/ is pure Python: nothing under it may import Django (STYLE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent.parent / "games" / "engine"
FORBIDDEN = "django"


def _is_forbidden(module: str | None) -> bool:
    return module is not None and (module == FORBIDDEN or module.startswith(FORBIDDEN + "."))


def forbidden_imports(source: str, filename: str = "<source>") -> list[str]:
    """Each place in the source that imports Django, statically or through importlib."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            found += [
                f"{filename}:{node.lineno}: import {a.name}"
                for a in node.names
                if _is_forbidden(a.name)
            ]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and _is_forbidden(node.module):
                found.append(f"{filename}:{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if (
                name in {"import_module", "__import__"}
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and _is_forbidden(first.value)
            ):
                found.append(f"{filename}:{node.lineno}: {name}({first.value!r})")
    return found


def test_the_checker_catches_every_way_of_importing_django():
    source = (
        "import os, django\n"
        "import django.db.models as m\n"
        "from django.conf import settings\n"
        "importlib.import_module('django.utils')\n"
        "__import__('django')\n"
        "import djangofoo\n"
        "from . import django\n"
    )

    assert len(forbidden_imports(source)) == 5


def test_nothing_under_games_engine_imports_django():
    assert ENGINE_DIR.is_dir(), f"{ENGINE_DIR} does not exist"
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert files, f"no Python files under {ENGINE_DIR}"

    problems = []
    for path in files:
        problems += forbidden_imports(path.read_text(encoding="utf-8"), str(path))

    assert problems == []
