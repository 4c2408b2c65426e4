"""The game's views read through selectors (games/selectors.py, and the owning app's: ratings,
moderation, games/aids/): no view under games/views/ asks a model's manager itself. The source is
read with ``ast``, as tests/test_import_cycles.py reads imports, so a read inside a function or a
lambda counts too."""

from __future__ import annotations

import ast
from pathlib import Path

VIEWS = Path(__file__).resolve().parent.parent / "games" / "views"


def manager_uses(path: Path) -> list[tuple[str, int]]:
    """(enclosing top-level name, line) of every ``<Model>.objects`` in the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(getattr(top, "name", "<module>"), node.lineno)
            for top in tree.body for node in ast.walk(top)
            if isinstance(node, ast.Attribute) and node.attr == "objects"]


def test_no_view_reads_a_model_manager_itself():
    views = sorted(VIEWS.rglob("*.py"))
    found = [f"{path.relative_to(VIEWS)}:{line} in {name}" for path in views for name, line in manager_uses(path)]

    assert len(views) > 20  # (the folder is where it is said to be)
    assert found == [], "read through a selector (games/selectors.py) instead:\n" + "\n".join(found)


def test_the_check_finds_a_read(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def view(request):\n    return Game.objects.filter(pk=1).first()\n")

    assert manager_uses(probe) == [("view", 2)]
