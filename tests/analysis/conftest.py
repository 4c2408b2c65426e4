"""Fixtures of the analysis tests (issue 30): a finished game played through the site's services.
(The estimate is a cheap one in every test, a few playouts a round: tests/conftest.py.)"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game


def finish(host, *others, actions: int = 160, **kwargs) -> Game:
    """A game between users, played a while by the simple player, then ended by surrenders."""
    game = start_game(host, *others, **kwargs)
    autoplay(game, actions)
    return end_by_surrenders(game, surrenders=len(others) + 1)


@pytest.fixture
def finished(alice, bob) -> Game:
    return finish(alice, bob)
