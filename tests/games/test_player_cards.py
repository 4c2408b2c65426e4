"""A player's card (players/panels.html): issue 26 item 31, a jailed player's row read "On in
jail"; it names the square and says they are in jail."""

from __future__ import annotations

import re

import pytest

from games.engine import GameState
from games.views.page.players import players_view
from tests.games.parts_helpers import card_html
from tests.games.play_helpers import start_game

pytestmark = pytest.mark.django_db


def test_a_jailed_players_card_names_the_square_and_says_in_jail(alice, bob):
    game = start_game(alice, bob)
    state = GameState.from_json(game.state)
    state.players[0].pos, state.players[0].in_jail = 10, True
    html = "".join(card_html(p) for p in players_view(state, me=None))
    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"\s+", " ", text)
    assert "On Jail / Just visiting (in jail)" in text
    assert "On in jail" not in text
