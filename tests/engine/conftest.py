"""Engine tests need no database: they drive games.engine directly."""

from __future__ import annotations

import pytest

from games.engine import RuleSet, new_game


@pytest.fixture
def classic_game():
    """A fresh four-player classic game (seat 0 starts), with event records off."""
    state, _ = new_game(
        RuleSet.build("classic"),
        ["ann", "bob", "cid", "dee"],
        seed=1,
        roll_for_first=False,
        events=False,
    )
    return state
