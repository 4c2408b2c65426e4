"""The collusion flag: every accepted trade between non-teammates whose sides are far apart by
the rule book's trade value (cash + printed prices + 500 per jail card, RULES.md 9) enters the
queue, marked when the player who gave the larger side goes bankrupt soon after; the report
shows the trade, both values and the game's log around it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as game_services
from games.models import DeedRow, Game
from moderation import services
from moderation.models import Report
from tests.factories import UserFactory
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = pytest.mark.django_db


def _act(game, user, action):
    game = Game.objects.get(pk=game.pk)
    return game_services.game_submit_action(game=game, user=user, action=action, expected_version=game.version)


def _trade(game, giver, receiver, to_seat, give, take):
    _act(game, giver, {"type": "propose", "to": to_seat, "give": give, "take": take})
    _act(game, receiver, {"type": "accept"})


def test_side_value_follows_the_rule_book():
    prices = {1: 60, 39: 400}
    assert services.side_value({"cash": 100, "squares": [1, 39], "cards": 1}, prices) == 100 + 60 + 400 + 500
    assert services.side_value({}, prices) == 0


def test_a_drain_trade_is_flagged_and_marked_when_the_drained_player_goes_bankrupt(client, mod, alice, bob, charlie):
    game = start_game(alice, bob, charlie, pace="correspondence")
    _trade(game, alice, bob, 1, {"cash": 1400}, {})
    _trade(game, alice, charlie, 2, {"cash": 50}, {"cash": 60})  # fair: no flag

    assert services.collusion_scan() == 1
    flag = Report.objects.get()
    assert (flag.kind, flag.reason, flag.target, flag.state) == ("trade", "collusion", alice, "open")
    assert (flag.details["give_value"], flag.details["take_value"], flag.details["drained_seat"]) == (1400, 0, 0)
    assert flag.details["bankrupt_seq"] is None
    assert services.collusion_scan() == 0  # the cursor moved on: nothing is flagged twice

    _act(game, alice, {"type": "surrender"})
    assert services.collusion_scan() == 1
    flag.refresh_from_db()
    assert flag.details["bankrupt_seq"] is not None

    client.force_login(mod)
    html = client.get(reverse("moderation:report", args=[flag.pk])).content.decode()
    assert '<td data-testid="give-value"><strong>1400</strong></td>' in html
    assert '<td data-testid="take-value"><strong>0</strong></td>' in html
    assert "went bankrupt soon after" in html
    for user in (alice, bob):  # both sides of the trade, to act on either
        assert f'href="{reverse("moderation:account", args=[user.pk])}"' in html
    assert "Trade #1 is accepted" in html and "Alice surrenders." in html  # the log around it
    queue = client.get(reverse("moderation:queue"), {"reason": "collusion"}).content.decode()
    assert "bankrupt soon after" in queue


def test_deeds_and_jail_cards_count_at_their_printed_value(alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    state = Game.objects.get(pk=game.pk).state
    # Give alice the Boardwalk (39, printed 400) to trade for 50 in cash.
    state["owner"][39] = 0
    Game.objects.filter(pk=game.pk).update(state=state)
    DeedRow.objects.filter(game=game, square=39).update(owner_seat=0)
    _trade(game, alice, bob, 1, {"squares": [39]}, {"cash": 50})

    services.collusion_scan()

    flag = Report.objects.get()
    assert (flag.details["give_value"], flag.details["take_value"]) == (400, 50)


def test_trades_between_teammates_are_not_flagged():
    users = [UserFactory(username=n) for n in ("t0", "t1", "t2", "t3")]
    game = start_game(*users, preset="world-teams", pace="correspondence")
    seats = users_by_seat(game)
    state = Game.objects.get(pk=game.pk).state
    current = state["current"]  # world: only the player whose turn it is proposes
    mate = next(p for team in state["teams"] if current in team for p in team if p != current)
    _trade(game, seats[current], seats[mate], mate, {"cash": 5000}, {})

    assert services.collusion_scan() == 0
    assert Report.objects.count() == 0
