"""Every rule scenario under tests/scenarios/ is one test, named by its path."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.scenarios import run_file

HERE = Path(__file__).resolve().parent
FILES = sorted(p for p in HERE.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def test_there_are_scenarios_to_run():
    assert FILES, f"no scenario files under {HERE}"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_scenario(path: Path):
    failures = [f"{r.path}: {r.name}: {r.message}" for r in run_file(path) if not r.ok]
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)
