"""Each player's clock at a table with a time bank or playing hours (RULES.md 16, issue 28): the
game's one deadline column is the earliest of the waited-on players' deadlines, computed from
own time, bank and playing hours, and recomputed on every answer and vacation; the timeout falls
only when own time and bank are both gone. A fake clock throughout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games import services
from games.aids import services as aids
from games.aids.seat_clock import bank_of
from games.engine import GameState
from games.models import Game, GameAction
from tests.games.play_helpers import next_move, users_by_seat

pytestmark = pytest.mark.django_db
H = timedelta(hours=1)


@pytest.fixture
def clock(clock):
    clock.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
    return clock


def _game(alice, bob, **options) -> tuple[Game, dict]:
    options.setdefault("turn_hours", 24)
    table = services.table_create(host=alice, name="Clocks", preset="classic", seat_count=2, **options)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    return game, users_by_seat(game)


def _move(game: Game, users: dict, action: dict) -> Game:
    game.refresh_from_db()
    seat = game.waiting_seats[0]
    services.game_submit_action(game=game, user=users[seat], action=action, expected_version=game.version)
    game.refresh_from_db()
    return game


def test_the_deadline_is_own_time_then_the_bank(alice, bob, clock):
    game, _users = _game(alice, bob, time_bank_hours=72, time_bank_increment_hours=4)
    assert game.deadline == clock.now + 24 * H + 72 * H


def test_an_answer_in_the_bank_drains_it_and_one_in_own_time_adds_the_increment(alice, bob, clock):
    game, users = _game(alice, bob, time_bank_hours=72, time_bank_increment_hours=4)
    seat = game.current_seat
    clock.now += 30 * H  # 6 h into the bank
    game = _move(game, users, {"type": "roll"})
    assert bank_of(game, seat) == 66 * H
    # The roll's outcome waits on the same player: a decision that starts its own time afresh,
    # with what is left of the bank.
    assert game.waiting_seats == [seat]
    assert game.deadline == clock.now + 24 * H + 66 * H
    clock.now += 2 * H  # within own time: the increment, up to the starting bank
    _seat, move = next_move(game)
    game = _move(game, users, move)
    assert bank_of(game, seat) == 70 * H


def test_the_timeout_falls_only_when_own_time_and_bank_are_gone(alice, bob, clock):
    game, _users = _game(alice, bob, time_bank_hours=12, vacation_days=0)
    seat = game.current_seat
    due = game.deadline
    assert due == clock.now + 36 * H

    clock.now = due - timedelta(seconds=1)
    assert services.game_timeout(game_id=game.pk) == 0
    clock.now = due
    assert services.game_timeout(game_id=game.pk) >= 1

    game.refresh_from_db()
    assert GameAction.objects.filter(game=game, seat=seat, source="timeout").exists()
    assert GameState.from_json(game.state).players[seat].missed == 1
    assert bank_of(game, seat) == timedelta(0)


def test_playing_hours_stop_the_clock_overnight_and_on_weekends(alice, bob, clock):
    clock.now = datetime(2026, 3, 6, 21, 30, tzinfo=UTC)  # Friday evening
    game, _users = _game(alice, bob, turn_hours=1, playing_hours="08:00-22:00", count_weekends=False)
    # Half an hour on Friday, the other half on Monday from 08:00.
    assert game.deadline == datetime(2026, 3, 9, 8, 30, tzinfo=UTC)


def test_playing_hours_count_in_the_tables_zone(alice, bob, clock):
    alice.time_zone = "America/New_York"
    alice.save(update_fields=["time_zone"])
    clock.now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # 07:00 in New York
    game, _users = _game(alice, bob, turn_hours=1, playing_hours="08:00-22:00")
    assert game.deadline == datetime(2026, 3, 2, 14, 0, tzinfo=UTC)  # 09:00 there


def test_a_vacation_stops_the_clock_until_the_player_is_back(alice, bob, clock):
    game, users = _game(alice, bob, turn_hours=24, time_bank_hours=24)
    seat = game.current_seat
    first = game.deadline
    clock.now += 10 * H
    aids.vacation_take(game=game, user=users[seat], days=2)
    game.refresh_from_db()
    assert game.deadline == first + 48 * H
    # Back early the next morning: the day under way is spent, the other comes back.
    clock.now += 12 * H
    aids.vacation_end(game=game, user=users[seat])
    game.refresh_from_db()
    assert game.deadline == first + 24 * H


def test_tables_without_bank_or_hours_keep_the_plain_deadline(alice, bob, clock):
    game, _users = _game(alice, bob, turn_hours=12)
    assert game.deadline == clock.now + 12 * H
    assert "clock" not in (game.aids or {})


def _page(client, user, game) -> str:
    from django.urls import reverse

    client.force_login(user)
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


def test_the_game_page_shows_own_time_and_bank(client, alice, bob, clock):
    game, users = _game(alice, bob, turn_hours=12, time_bank_hours=28)
    waited = game.waiting_seats[0]
    clock.now += 9 * H
    page = _page(client, users[waited], game)
    assert "own time 3 h · bank 1 d 4 h" in page
    assert "bank 1 d 4 h</span>" in page  # the other player: their bank alone
    assert "counting from" not in page


def test_outside_playing_hours_the_page_says_when_the_clock_runs_again_in_the_viewers_zone(client, alice, bob, clock):
    clock.now = datetime(2026, 3, 2, 22, 30, tzinfo=UTC)  # Monday night, after the hours (23:30 in Madrid)
    game, users = _game(alice, bob, turn_hours=12, playing_hours="08:00-22:00")
    viewer = users[1 - game.waiting_seats[0]]
    viewer.time_zone = "Europe/Madrid"
    viewer.save(update_fields=["time_zone"])
    page = _page(client, viewer, game)
    assert "own time 12 h · bank 0 min" in page
    assert "counting from Tue 09:00" in page  # 08:00 UTC is 09:00 in Madrid, the next day there
