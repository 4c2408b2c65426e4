"""RULES.md 16's site acts in the game's own log and record, with their source (issue 28): an
automatic vacation day (the clock's), a seat taken back from the bot (the player's), a pause
that reached its length (the clock's). The record replays exactly through them. A fake clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from games import services, tasks
from games.aids import services as aids
from games.models import Game, GameAction, Seat, Table
from tests.games.play_helpers import no_auto_vacation, users_by_seat
from tests.games.record_helpers import replays_exactly

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(clock):
    clock.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    return clock


def _notes(game: Game) -> list[tuple]:
    return list(GameAction.objects.filter(game=game, action__type="note").order_by("seq")
                .values_list("action__choice", "source", "seat", "user_id"))


def test_an_automatic_vacation_day_is_in_the_log_and_the_record(client, alice, bob, clock):
    table = services.table_create(host=alice, name="Away", preset="classic", seat_count=2, turn_hours=24)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    seat = game.waiting_seats[0]
    clock.now = game.deadline
    tasks.process_deadlines()
    assert _notes(game) == [("auto_vacation", "clock", seat, None)]
    events = replays_exactly(game)
    assert {"e": "note", "p": seat, "what": "auto_vacation"} in events
    client.force_login(alice)
    assert "takes a vacation day instead of a timeout." in client.get(
        reverse("games:game", args=[game.pk])).content.decode()


def test_taking_a_seat_back_is_in_the_log_and_the_record(make_game, alice, bob):
    game = make_game(alice, bob, name="Stand-in", absent_seat="bot")
    no_auto_vacation(game)
    seat = game.waiting_seats[0]
    state = dict(game.state)
    state["players"] = [dict(p, missed=2 if i == seat else 0) for i, p in enumerate(state["players"])]
    Game.objects.filter(pk=game.pk).update(state=state, deadline=datetime.now(UTC) - timedelta(seconds=1))
    tasks.process_deadlines()
    user = users_by_seat(game)[seat]
    assert Seat.objects.get(table=game.table, position=seat).bot == "strategy"
    # (The fixture's state change is not in the record: replay from the takeover on is checked
    # through the log rows alone.)
    aids.seat_take_back(game=game, user=user)
    assert _notes(game) == [("back_from_bot", "player", seat, user.pk)]


def test_a_pause_that_reached_its_length_is_in_the_log_and_the_record(alice, bob, clock):
    table = services.table_create(host=alice, name="Live", preset="classic", pace=Table.Pace.LIVE, seat_count=2,
                                  pause_max_minutes=5)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    users = users_by_seat(game)
    aids.pause_ask(game=game, user=users[0])
    aids.pause_answer(game=game, user=users[1], agree=True)
    clock.now += timedelta(minutes=5)
    assert tasks.expire_pauses() == 1
    game.refresh_from_db()
    assert _notes(game) == [("pause_cap", "clock", game.current_seat, None)]
    replays_exactly(game)
