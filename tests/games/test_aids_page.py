"""The game page's aids panel (RULES.md 15): standing orders and vacation set from the page,
with htmx and without JavaScript; forged forms refused with a message, changing nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.aids import services as aids
from games.aids import vacation
from games.engine import waiting_on
from games.models import Game, GameAction, StandingOrder, Vacation
from tests.games.play_helpers import play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db


def post(client, game, user, name, data, htmx=True):
    client.force_login(user)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse(name, args=[game.pk]), data, **headers)


def test_the_page_offers_the_orders_and_vacation_to_a_player(client, alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Standing orders" in page and 'name="end_turn"' in page
    assert "Take a vacation" in page and "7 days left" in page
    # A spectator sees neither form.
    client.logout()
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'name="end_turn"' not in page and 'name="days"' not in page


def test_orders_saved_from_the_page_with_htmx_and_without(client, alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    seat = next(s for s, u in users_by_seat(game).items() if u == alice)
    response = post(client, game, alice, "games:game_standing",
                    {"jail": "fine", "auction": "on", "auction_percent": "75", "reject_bot_trades": "on"})
    assert response.status_code == 200
    assert "Your standing orders are set" in response.content.decode()
    row = StandingOrder.objects.get(game=game, seat=seat)
    assert (row.jail, row.auction_percent, row.reject_bot_trades, row.end_turn) == ("pay_fine", 75, True, False)
    # The form shows them back, checked.
    assert 'id="so-bots" checked' in response.content.decode()

    response = post(client, game, alice, "games:game_standing", {"cancel": "1", "jail": "fine"}, htmx=False)
    assert response.status_code == 302
    assert not StandingOrder.objects.filter(game=game).exists()


@pytest.mark.parametrize("data", [
    {"jail": "bribe"}, {"auction": "on", "auction_percent": "-5"}, {"auction": "on", "auction_percent": "abc"},
    {"auction": "on", "auction_percent": "900"}, {"end_turn": "yes"}, {"player": "1", "end_turn": "on"},
    {"income_tax": "percent"},
])
def test_forged_order_forms_are_refused_with_a_message(client, alice, bob, data):
    game = start_game(alice, bob, pace="correspondence")
    version = game.version
    response = post(client, game, alice, "games:game_standing", data)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not StandingOrder.objects.exists()
    game.refresh_from_db()
    assert game.version == version


def test_a_spectator_cannot_set_orders(client, alice, bob, charlie):
    game = start_game(alice, bob, pace="correspondence")
    assert post(client, game, charlie, "games:game_standing", {"end_turn": "on"}).status_code == 403
    assert not StandingOrder.objects.exists()


# --- vacation, with a simulated clock ---------------------------------------------------------

def test_vacation_freezes_the_deadline_and_moves_it_on(client, alice, bob, clock):
    game = start_game(alice, bob, pace="correspondence")
    users = users_by_seat(game)
    seat = game.current_seat
    away = users[seat]
    deadline = game.deadline
    clock.now += timedelta(hours=5)

    response = post(client, game, away, "games:game_vacation", {"days": "3", "version": str(game.version)})
    # A second click of the same page takes nothing more: its version is stale.
    again = post(client, game, away, "games:game_vacation", {"days": "3", "version": str(game.version)})

    assert response.status_code == 200 and again.status_code == 409
    assert Vacation.objects.get(game=game).days_used == 3
    game.refresh_from_db()
    assert game.deadline == deadline + timedelta(days=3)
    # The other player sees when they are back; the sweep times nothing out meanwhile.
    client.force_login(users[1 - seat])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "On vacation until" in page
    clock.now = deadline + timedelta(hours=1)
    assert tasks.process_deadlines() == 0
    clock.now = game.deadline + timedelta(seconds=1)
    Vacation.objects.filter(game=game).update(auto=False)  # (RULES.md 16: else a day more is taken)
    assert tasks.process_deadlines() >= 1
    assert GameAction.objects.filter(game=game, source="timeout").exists()


def test_a_decision_that_begins_during_a_vacation_starts_its_clock_at_the_return(alice, bob, clock):
    game = start_game(alice, bob, pace="correspondence")
    users = users_by_seat(game)
    mover = game.current_seat
    other = 1 - mover
    row = aids.vacation_take(game=game, user=users[other], days=2)
    # The mover plays on until the game waits on the one away.
    game = play_until(game, lambda s: other in waiting_on(s))
    assert game.deadline == row.until + timedelta(hours=24)


def test_vacation_days_are_whole_within_the_allowance_and_ending_early_gives_back_the_rest(alice, bob, clock):
    game = start_game(alice, bob, pace="correspondence")
    user = users_by_seat(game)[game.current_seat]
    for bad in (0, 8, "2", 1.5):
        with pytest.raises(services.GameError):
            aids.vacation_take(game=game, user=user, days=bad)
    assert not Vacation.objects.filter(days_used__gt=0).exists()
    aids.vacation_take(game=game, user=user, days=5)
    game.refresh_from_db()
    deadline = game.deadline
    clock.now += timedelta(days=1, hours=6)  # the second day has begun: it is spent

    aids.vacation_end(game=game, user=user)

    row = Vacation.objects.get(game=game)
    assert row.days_used == 2
    game.refresh_from_db()
    assert game.deadline == deadline - timedelta(days=3)
    assert vacation.days_left(game, row.seat) == 5
    with pytest.raises(services.GameError):
        aids.vacation_take(game=game, user=user, days=6)


def test_no_vacation_on_live_tables_or_with_a_zero_allowance(alice, bob, make_game):
    live = start_game(alice, bob, pace="live")
    with pytest.raises(services.GameError):
        aids.vacation_take(game=live, user=alice, days=1)
    none = make_game(alice, bob, vacation_days=0)
    with pytest.raises(services.GameError):
        aids.vacation_take(game=none, user=alice, days=1)
    assert Game.objects.get(pk=none.pk).table.vacation_days == 0


def test_standing_orders_still_play_while_their_player_is_on_vacation(alice, bob, clock):
    from games.aids import standing
    game = play_until(start_game(alice, bob, pace="correspondence"),
                      lambda s: not s.stack and s.phase == "end_turn")
    user = users_by_seat(game)[game.current_seat]
    aids.vacation_take(game=game, user=user, days=3)

    aids.standing_orders_set(game=game, user=user, orders=standing.Orders(end_turn=True))

    assert GameAction.objects.filter(game=game, source="standing", action__type="end_turn").exists()


def test_the_return_date_is_shown_in_the_viewers_time_zone(client, alice, bob):
    from zoneinfo import ZoneInfo

    from django.template.defaultfilters import date as date_filter

    game = start_game(alice, bob, pace="correspondence")
    row = aids.vacation_take(game=game, user=alice, days=2)
    bob.time_zone = "America/New_York"
    bob.save(update_fields=["time_zone"])
    client.force_login(bob)

    page = client.get(reverse("games:game", args=[game.pk])).content.decode()

    local = date_filter(timezone.localtime(row.until, ZoneInfo("America/New_York")), "DATETIME_FORMAT")
    utc = date_filter(timezone.localtime(row.until, ZoneInfo("UTC")), "DATETIME_FORMAT")
    assert local != utc
    # On Alice's card (issue 26 item 31: not in a panel below the trade button), once.
    cards = page.split('<article class="player')[1:]
    alice_card = next(c for c in cards if "Alice" in c.split("</header>")[0])
    assert f'<p class="player-away">On vacation until {local}</p>' in alice_card
    assert page.count("On vacation until") == 1


@pytest.mark.parametrize("raw", ["99999", "301", "-1", "5.5", "abc", "", "٣"])
def test_a_refused_auction_percentage_names_the_field_and_its_range_in_words(client, alice, bob, raw):
    """Issue 26 item 34: not "Enter a whole number in auction_percent"."""
    game = start_game(alice, bob, pace="correspondence")
    version = game.version
    response = post(client, game, alice, "games:game_standing", {"auction": "on", "auction_percent": raw})
    assert response.status_code == 400
    page = response.content.decode()
    if raw:
        assert f"The auction percentage must be a whole number from 0 to 300, not “{raw}”." in page
    else:
        assert "The auction percentage is missing." in page
    assert "auction_percent</" not in page and "in auction_percent" not in page
    assert not StandingOrder.objects.exists()
    game.refresh_from_db()
    assert game.version == version


def test_refused_vacation_days_name_the_field(client, alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    response = post(client, game, alice, "games:game_vacation", {"days": "lots", "version": str(game.version)})
    assert response.status_code == 400
    assert "The number of days must be a whole number, not “lots”." in response.content.decode()
    assert not Vacation.objects.filter(days_used__gt=0).exists()


@pytest.mark.parametrize("raw", ["100001", "-1", "abc"])
def test_a_refused_cash_to_keep_names_the_field_and_its_range_in_words(client, alice, bob, raw):
    """The buy order's amount (RULES.md 15) is refused as the auction percentage is (item 34)."""
    game = start_game(alice, bob, pace="correspondence")
    response = post(client, game, alice, "games:game_standing", {"buy": "on", "buy_keep": raw})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"The cash to keep must be a whole number from 0 to 100,000, not “{raw}”." in page
    assert not StandingOrder.objects.exists()
