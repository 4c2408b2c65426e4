"""Back from the bot (RULES.md 16, issue 28): a player whose seat a bot took at their third missed
turn (``absent_seat: bot``) takes it back once per game, from the next decision on; they still
count as forfeited (the record keeps the takeover)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.aids import services as aids
from games.models import Game, GameAction, Seat
from tests.games.play_helpers import no_auto_vacation, users_by_seat

pytestmark = pytest.mark.django_db


def _taken_over(make_game, alice, bob) -> tuple[Game, int, object]:
    game = make_game(alice, bob, name="Stand-in", absent_seat="bot")
    no_auto_vacation(game)
    seat = game.waiting_seats[0]
    state = dict(game.state)
    state["players"] = [dict(p, missed=2 if i == seat else 0) for i, p in enumerate(state["players"])]
    Game.objects.filter(pk=game.pk).update(state=state, deadline=timezone.now() - timedelta(seconds=1))
    tasks.process_deadlines()
    game.refresh_from_db()
    assert Seat.objects.get(table=game.table, position=seat).bot == "strategy"
    return game, seat, users_by_seat(game)[seat]


def test_a_player_takes_their_seat_back_once(client, make_game, alice, bob):
    game, seat, user = _taken_over(make_game, alice, bob)
    client.force_login(user)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Take my seat back" in page

    response = client.post(reverse("games:game_back", args=[game.pk]))

    assert response.status_code == 302
    assert Seat.objects.get(table=game.table, position=seat).bot == ""
    game.refresh_from_db()
    assert seat in game.aids["back"]
    # The record keeps the takeover: the game still counts as forfeited for ratings.
    assert GameAction.objects.filter(game=game, seat=seat, source="takeover").exists()
    assert "Take my seat back" not in client.get(reverse("games:game", args=[game.pk])).content.decode()


def test_a_second_take_back_is_refused(make_game, alice, bob):
    game, seat, user = _taken_over(make_game, alice, bob)
    aids.seat_take_back(game=game, user=user)
    Seat.objects.filter(table=game.table, position=seat).update(bot="strategy")  # taken over again
    with pytest.raises(services.GameError, match="once already"):
        aids.seat_take_back(game=game, user=user)
    assert Seat.objects.get(table=game.table, position=seat).bot == "strategy"


def test_a_player_who_plays_their_seat_or_a_table_without_bots_is_refused(make_game, alice, bob, charlie):
    game = make_game(alice, bob, name="Plain")
    with pytest.raises(services.GameError, match="no bot takes seats"):
        aids.seat_take_back(game=game, user=alice)
    game = make_game(charlie, bob, name="Bots", absent_seat="bot")
    version = game.version
    with pytest.raises(services.GameError, match="you play your seat yourself"):
        aids.seat_take_back(game=game, user=charlie)
    game.refresh_from_db()
    assert game.version == version
