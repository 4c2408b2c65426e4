"""games.engine's __init__ is the engine's one door (issue 9).

The site (games/ outside the engine, accounts/, config/) imports only from ``games.engine``
itself; the benchmarks and the site's tests may also use the engine's tools (bots, simulate,
scenarios, invariants, boards, cards, dice, ruleset) but, like the site, never the modules
behind the door (rules, state, events, errors) nor a private name. The engine's own tests
(tests/engine/, tests/scenarios/) test its insides and are exempt.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games.engine

ROOT = Path(__file__).resolve().parent.parent.parent
BEHIND_THE_DOOR = frozenset({"rules", "state", "events", "errors"})
SITE = ("games", "accounts", "config")
OUTSIDE = (*SITE, "bench", "tests")
INSIDE = ("games/engine", "tests/engine", "tests/scenarios")


def door_violations(source: str, *, site: bool, where: str = "<source>") -> list[str]:
    """What in ``source`` goes round the door (empty: nothing)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [(node.module, [alias.name for alias in node.names])]
        else:
            continue
        for module, names in modules:
            parts = module.split(".")
            if parts[:2] != ["games", "engine"]:
                if module == "games" and "engine" in names:
                    out.append(f"{where}:{node.lineno}: imports the engine package as a module")
                continue
            inner = parts[2:]
            if inner and (site or inner[0] in BEHIND_THE_DOOR or any(p.startswith("_") for p in inner)):
                out.append(f"{where}:{node.lineno}: imports {module}")
            for name in names:
                if name.startswith("_") or (not inner and name in BEHIND_THE_DOOR):
                    out.append(f"{where}:{node.lineno}: imports {name} from {module}")
    return out


def _outside_files() -> list[Path]:
    files = []
    for top in OUTSIDE:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not rel.startswith(INSIDE) and "/migrations/" not in rel:
                files.append(path)
    return files


def test_nothing_outside_the_engine_goes_round_its_door():
    files = _outside_files()
    assert len(files) > 50  # the site, the benchmarks and their tests are read, not nothing

    found = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        site = rel.split("/")[0] in SITE
        found += door_violations(path.read_text(encoding="utf-8"), site=site, where=rel)
    assert found == []


@pytest.mark.parametrize(
    ("source", "site"),
    [
        ("from games.engine.rules import rent_of", True),
        ("from games.engine.rules import rent_of", False),
        ("from games.engine.rules.core import apply", False),
        ("from games.engine.errors import EngineError", False),
        ("import games.engine.state", False),
        ("from games.engine import rules", False),
        ("from games.engine import _private", True),
        ("from games.engine.bots import _owner_rents", False),
        ("from games.engine.bots import make_bot", True),  # the site asks the door for bots too
        ("from games import engine", True),
    ],
)
def test_the_door_check_sees_each_way_round(source, site):
    assert door_violations(source, site=site) != []


@pytest.mark.parametrize(
    ("source", "site"),
    [
        ("from games.engine import GameState, apply, make_bot", True),
        ("from games.engine.bots import make_bot", False),
        ("from games.engine.simulate import play_game", False),
        ("from games.models import Game", True),
    ],
)
def test_the_door_check_lets_the_front_door_through(source, site):
    assert door_violations(source, site=site) == []


def test_everything_the_door_lists_is_there():
    for name in games.engine.__all__:
        assert getattr(games.engine, name) is not None, name


def test_no_engine_source_file_is_over_a_thousand_lines():
    # One room a newcomer can hold in their head (issue 9): the engine is split along its seams.
    engine = ROOT / "games" / "engine"
    sizes = {p.relative_to(engine).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in engine.rglob("*.py")}
    assert len(sizes) > 20
    assert {name: n for name, n in sizes.items() if n > 1000} == {}
