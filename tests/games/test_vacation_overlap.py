"""Vacations of players a decision waits on at once (an open auction) overlap rather than add up,
and one back early gives the decision back nothing while another is still away (RULES.md 15,
issue 26 item 9)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.aids import services as aids
from games.engine import GameState, apply, waiting_on
from games.engine.dice import ScriptedRng
from games.models import Game
from games.services import moves
from tests.games.play_helpers import users_by_seat

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def _open_auction(game: Game) -> Game:
    """The current player declines Oriental Avenue: an open auction waits on both players."""
    state = GameState.from_json(game.state)
    apply(state, {"type": "roll", "player": state.current}, ScriptedRng([2, 4]))
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), waiting_seats=waiting_on(state),
                                           pending=state.pending(), current_seat=state.current)
    game.refresh_from_db()
    user = users_by_seat(game)[state.current]
    services.game_submit_action(game=game, user=user, action={"type": "decline"}, expected_version=game.version)
    game.refresh_from_db()
    assert sorted(game.waiting_seats) == [0, 1]
    return game


def test_overlapping_vacations_of_two_waited_on_players_overlap(alice, bob, make_game, clock):
    game = _open_auction(make_game(alice, bob))
    deadline = game.deadline
    clock.now += timedelta(hours=1)

    aids.vacation_take(game=game, user=alice, days=3)
    game.refresh_from_db()
    assert game.deadline == deadline + 3 * DAY
    # Bob is away for two of the three days Alice's vacation froze the clock already.
    aids.vacation_take(game=game, user=bob, days=2)
    game.refresh_from_db()
    assert game.deadline == deadline + 3 * DAY
    # Bob then stays a day longer than Alice: only that day is added.
    aids.vacation_take(game=game, user=bob, days=2)
    game.refresh_from_db()
    assert game.deadline == deadline + 4 * DAY
    assert game.reminder_at == moves._reminder_at(game)


def test_ending_a_vacation_early_gives_back_nothing_while_another_waited_on_player_is_away(
    alice, bob, make_game, clock
):
    game = _open_auction(make_game(alice, bob))
    deadline = game.deadline
    aids.vacation_take(game=game, user=alice, days=3)
    aids.vacation_take(game=game, user=bob, days=5)
    game.refresh_from_db()
    assert game.deadline == deadline + 5 * DAY
    clock.now += timedelta(hours=6)

    aids.vacation_end(game=game, user=alice)
    game.refresh_from_db()
    assert game.deadline == deadline + 5 * DAY  # Bob is away still: the clock stays frozen

    aids.vacation_end(game=game, user=bob)
    game.refresh_from_db()
    # The day under way is spent; the four days not begun are given back.
    assert game.deadline == deadline + DAY
