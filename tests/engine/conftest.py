"""Engine tests need no database: they drive games.engine directly."""

from __future__ import annotations

import pytest

from games.engine import RuleSet, new_game
from games.engine.analysis import bot_game_positions
from games.engine.state import GameState


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


@pytest.fixture(scope="session")
def positions() -> dict[int, GameState]:
    """One four-player classic game of strategy bots, as rounds 8, 20 and 30 began (the analysis
    tests'; not a game the value function was fitted on: 7000-8599). Read only: copy to change."""
    got = bot_game_positions(RuleSet.build("classic"), 4, 105, [8, 20, 30])
    assert set(got) == {8, 20, 30}
    return got
