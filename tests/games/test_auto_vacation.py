"""Auto-vacation (RULES.md 16, issue 28): when a timeout would fall on a player who has whole
vacation days left (and has not turned the choice off), one day is taken instead: the deadline
moves on by a day, the others see "on vacation until ...", no miss is counted; at most one
automatic day per decision. A fake clock throughout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from games import services, tasks
from games.engine import GameState
from games.models import Game, GameAction, Vacation
from tests.games.play_helpers import users_by_seat

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


@pytest.fixture
def clock(clock):
    clock.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    return clock


def _game(alice, bob, **options) -> Game:
    table = services.table_create(host=alice, name="Away", preset="classic", seat_count=2, turn_hours=24, **options)
    services.table_join(table=table, user=bob)
    return services.table_start(table=table, by=alice)


def _missed(game: Game, seat: int) -> int:
    game.refresh_from_db()
    return GameState.from_json(game.state).players[seat].missed


def test_a_timeout_takes_a_vacation_day_instead_once_per_decision(client, alice, bob, clock):
    game = _game(alice, bob)
    seat = game.waiting_seats[0]
    first = game.deadline
    version = game.version
    clock.now = first

    tasks.process_deadlines()

    game.refresh_from_db()
    assert not GameAction.objects.filter(game=game, source="timeout").exists()
    assert _missed(game, seat) == 0
    row = Vacation.objects.get(game=game, seat=seat)
    assert (row.days_used, row.until) == (1, first + DAY)
    assert game.deadline == first + DAY and game.version == version + 1
    client.force_login(users_by_seat(game)[1 - seat])
    assert "On vacation until" in client.get(reverse("games:game", args=[game.pk])).content.decode()  # (the card)

    # The same decision falls due again: no second automatic day, the timeout applies.
    clock.now = game.deadline
    tasks.process_deadlines()
    assert GameAction.objects.filter(game=game, seat=seat, source="timeout").exists()
    assert _missed(game, seat) == 1
    assert Vacation.objects.get(game=game, seat=seat).days_used == 1


def test_with_automatic_vacation_off_the_timeout_applies(client, alice, bob, clock):
    game = _game(alice, bob)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])
    response = client.post(reverse("games:game_vacation", args=[game.pk]), {"auto": "off"})
    assert response.status_code == 302
    assert Vacation.objects.get(game=game, seat=seat).auto is False
    game.refresh_from_db()
    clock.now = game.deadline

    tasks.process_deadlines()

    assert GameAction.objects.filter(game=game, seat=seat, source="timeout").exists()
    assert Vacation.objects.get(game=game, seat=seat).days_used == 0


def test_with_no_days_left_the_timeout_applies(alice, bob, clock):
    game = _game(alice, bob, vacation_days=1)
    seat = game.waiting_seats[0]
    Vacation.objects.create(game=game, seat=seat, days_used=1)
    clock.now = game.deadline

    tasks.process_deadlines()

    assert GameAction.objects.filter(game=game, seat=seat, source="timeout").exists()


def test_a_bad_choice_is_refused_and_changes_nothing(client, alice, bob, clock):
    game = _game(alice, bob)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])
    response = client.post(reverse("games:game_vacation", args=[game.pk]), {"auto": "maybe"}, follow=True)
    assert "Malformed form field: auto." in response.content.decode()
    assert not Vacation.objects.filter(game=game).exists()


def test_with_a_time_bank_the_player_gets_a_day_from_the_timeout(alice, bob, clock):
    game = _game(alice, bob, time_bank_hours=12)
    seat = game.waiting_seats[0]
    clock.now = game.deadline
    tasks.process_deadlines()
    game.refresh_from_db()
    assert game.deadline == clock.now + DAY
    assert _missed(game, seat) == 0
