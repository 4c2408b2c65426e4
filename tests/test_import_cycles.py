"""No import circles among the site's modules.

The graph is read from the source with ``ast``, so it holds every import: at the top of a module,
inside a function (where a circle is usually hidden, as it then works at run time), and
``importlib.import_module("...")`` with a literal name. A circle means two modules each need the
other to be understood; break it by moving what both need into a module of its own (say
``games/options.py``'s ``table_rules``), or, for a service queueing its tasks, by queueing them by
name (``config.celery.queue_on_commit``).

The rules engine (``games/engine/``) is checked too: its rule modules are layered (money below
the rules that bankruptcy goes through: a charge nobody can pay leaves a ``bankrupt`` task that
the run loop settles), though the rules themselves recurse (a debt can start an auction, an
auction a building sale). The site may import only ``games.engine`` itself
(tests/engine/test_door.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "config", "games", "moderation", "notifications", "ratings")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imported_names(module: str, path: Path, tree: ast.AST):
    """(name, line, inside a function) of every import in the module."""
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    nested = {id(n) for f in functions for n in ast.walk(f) if n is not f}
    for node in ast.walk(tree):
        inner = id(node) in nested
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, inner
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                yield f"{base}.{alias.name}" if base else alias.name, node.lineno, inner
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, node.lineno, True


def import_graph() -> dict[str, dict[str, tuple[int, bool]]]:
    """module -> {imported site module: (line, inside a function)}."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        # "games.views.page.decision.money" is the module games.views.page.decision (or a name in it).
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, tuple[int, bool]]] = {}
    for module, path in modules.items():
        edges = graph.setdefault(module, {})
        for name, line, inner in _imported_names(module, path, ast.parse(path.read_text(), str(path))):
            target = resolve(name)
            if target and target != module and target not in edges:
                edges[target] = (line, inner)
    return graph


def circles(graph: dict[str, dict[str, tuple[int, bool]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _describe(graph, component: list[str]) -> str:
    inside = set(component)
    lines = [" <-> ".join(component)]
    for v in component:
        for w, (line, inner) in sorted(graph[v].items()):
            if w in inside:
                how = " (inside a function: it hides the circle)" if inner else ""
                lines.append(f"    {v} line {line} imports {w}{how}")
    return "\n".join(lines)


def test_the_sites_modules_import_each_other_without_circles():
    graph = import_graph()

    found = circles(graph)

    assert not found, "import circles:\n" + "\n".join(_describe(graph, c) for c in found)


def test_the_check_sees_imports_hidden_inside_functions(tmp_path):
    # The graph reader itself: a circle closed by an import inside a function, by a relative
    # import and by importlib is found; a plain chain is not a circle.
    source = {
        "a": "from b import x\n",
        "b": "def f():\n    from . import c\n",
        "c": "import importlib\ndef g():\n    importlib.import_module('a')\n",
        "d": "import a\n",
    }
    graph = {}
    for name, text in source.items():
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        graph[name] = {}
        for imported, line, inner in _imported_names(name, path, ast.parse(text)):
            target = imported.split(".")[0]
            if target in source and target != name:
                graph[name][target] = (line, inner)

    assert circles(graph) == [["a", "b", "c"]]
    assert graph["b"]["c"] == (2, True) and graph["a"]["b"] == (1, False)
    assert "inside a function" in _describe(graph, ["a", "b", "c"])


def test_the_check_reads_every_app_of_the_site():
    graph = import_graph()

    assert {"games.services", "games.selectors", "games.views.play", "accounts.models",
            "notifications.services", "ratings.services", "moderation.views"} <= set(graph)
    # The engine too, down to each rule module, and the rules' layering is read from them.
    assert {"games.engine", "games.engine.rules", "games.engine.rules.money", "games.engine.rules.debt",
            "games.engine.rules.core", "games.engine.bots"} <= set(graph)
    assert "games.engine.rules.debt" not in graph["games.engine.rules.money"]
    assert "games.options" in graph["games.selectors"]
