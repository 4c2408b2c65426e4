"""Trades on the game page: the builder, the offer, and the counter-offer (reject and propose in
one move) where the rule set's trade windows allow it, with the reason where they don't."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import GameState
from games.models import GameAction, TradeRow
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def snapshot(game):
    game.refresh_from_db()
    return game.version, game.state, GameAction.objects.filter(game=game).count()


def both_own_deeds(state: GameState) -> bool:
    return (state.pending() == "roll" and cheapest_deed(state, 0) is not None
            and cheapest_deed(state, 1) is not None)


def propose(client, game, to, *, give=None, take=None, counter=None):
    give, take = give or {}, take or {}
    data = {"version": game.version, "type": "propose", "to": to,
            "give_cash": give.get("cash", 0), "give_squares": give.get("squares", []),
            "take_cash": take.get("cash", 0), "take_squares": take.get("squares", [])}
    if counter is not None:
        data["counter"] = counter
    return client.post(reverse("games:game_act", args=[game.pk]), data, **HTMX)


@pytest.fixture
def classic(alice, bob):
    return play_until(start_game(alice, bob), both_own_deeds)


def test_trade_builder_lists_both_sides_tradeable_deeds(client, classic):
    state = GameState.from_json(classic.state)
    users = users_by_seat(classic)
    client.force_login(users[0])

    response = client.get(reverse("games:game", args=[classic.pk]))

    builder = response.context["builder"]
    assert builder["to"] == 1
    assert {d["sq"] for d in builder["give"]["deeds"]} == {sq for sq in state.board.deeds if state.owner[sq] == 0}
    assert {d["sq"] for d in builder["take"]["deeds"]} == {sq for sq in state.board.deeds if state.owner[sq] == 1}
    assert builder["give"]["cash_max"] == state.players[0].cash
    html = response.content.decode()
    assert 'name="give_squares"' in html and 'name="take_squares"' in html


def test_proposal_through_the_page_and_acceptance(client, classic):
    state = GameState.from_json(classic.state)
    users = users_by_seat(classic)
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    client.force_login(users[0])

    response = propose(client, classic, 1, give={"cash": 10, "squares": [mine]}, take={"squares": [theirs]})
    assert response.status_code == 200

    client.force_login(users[1])
    page = client.get(reverse("games:game", args=[classic.pk])).content.decode()
    assert 'value="accept"' in page and 'value="reject"' in page and "Counter-offer" in page
    classic.refresh_from_db()
    response = client.post(reverse("games:game_act", args=[classic.pk]),
                           {"version": classic.version, "type": "accept", "trade": 1}, **HTMX)
    assert response.status_code == 200
    after = GameState.from_json(snapshot(classic)[1])
    assert after.owner[mine] == 1 and after.owner[theirs] == 0
    assert TradeRow.objects.get(game=classic, number=1).status == TradeRow.Status.ACCEPTED


def test_proposer_may_withdraw_the_offer(client, classic):
    state = GameState.from_json(classic.state)
    users = users_by_seat(classic)
    client.force_login(users[0])
    propose(client, classic, 1, give={"cash": 5}, take={"squares": [cheapest_deed(state, 1)]})

    page = client.get(reverse("games:game", args=[classic.pk])).content.decode()
    assert 'value="cancel"' in page and 'value="accept"' not in page
    classic.refresh_from_db()
    client.post(reverse("games:game_act", args=[classic.pk]), {"version": classic.version, "type": "cancel",
                                                                 "trade": 1}, **HTMX)
    assert TradeRow.objects.get(game=classic, number=1).status == TradeRow.Status.CANCELLED


def test_counter_offer_builder_starts_from_the_offer_with_the_sides_swapped(client, classic):
    state = GameState.from_json(classic.state)
    users = users_by_seat(classic)
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    client.force_login(users[0])
    propose(client, classic, 1, give={"cash": 25, "squares": [mine]}, take={"squares": [theirs]})

    client.force_login(users[1])
    response = client.get(reverse("games:game", args=[classic.pk]), {"counter": 1})

    builder = response.context["builder"]
    assert builder["counter"] == 1 and builder["to"] == 0
    assert [d["sq"] for d in builder["give"]["deeds"] if d["checked"]] == [theirs]
    assert [d["sq"] for d in builder["take"]["deeds"] if d["checked"]] == [mine]
    assert builder["take"]["cash"] == 25
    html = response.content.decode()
    assert 'name="counter" value="1"' in html
    assert "Reject and send this counter-offer" in html


def test_counter_offer_rejects_and_proposes_in_one_move(client, classic):
    state = GameState.from_json(classic.state)
    users = users_by_seat(classic)
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    client.force_login(users[0])
    propose(client, classic, 1, give={"cash": 25, "squares": [mine]}, take={"squares": [theirs]})
    version = snapshot(classic)[0]

    client.force_login(users[1])
    response = propose(client, classic, 0, give={"squares": [theirs]}, take={"cash": 80, "squares": [mine]},
                       counter=1)

    assert response.status_code == 200
    game_version, raw, _ = snapshot(classic)
    assert game_version == version + 1
    after = GameState.from_json(raw)
    assert list(after.trades) == ["2"]
    assert after.trades["2"]["from"] == 1 and after.trades["2"]["take"]["cash"] == 80
    assert TradeRow.objects.get(game=classic, number=1).status == TradeRow.Status.REJECTED
    assert TradeRow.objects.get(game=classic, number=2).status == TradeRow.Status.OPEN


def test_impossible_counter_offer_changes_nothing_and_keeps_the_builder(client, classic):
    state = GameState.from_json(classic.state)
    users = users_by_seat(classic)
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    client.force_login(users[0])
    propose(client, classic, 1, give={"squares": [mine]}, take={"squares": [theirs]})
    before = snapshot(classic)

    client.force_login(users[1])
    response = propose(client, classic, 0, give={"squares": [theirs]}, take={"cash": 10**6}, counter=1)

    assert response.status_code == 400
    assert "only" in response.content.decode() and "in cash" in response.content.decode()
    assert snapshot(classic) == before
    assert TradeRow.objects.get(game=classic, number=1).status == TradeRow.Status.OPEN
    # The builder comes back as the player left it.
    assert re.search(r'id="take-cash" name="take_cash" min="0" max="\d+" value="1000000"', response.content.decode())


def test_world_trade_windows_rule_out_a_counter_offer_and_say_why(client, alice, bob):
    game = play_until(start_game(alice, bob, preset="world-classic"), both_own_deeds)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    cur, other = state.current, 1 - state.current
    client.force_login(users[cur])
    assert propose(client, game, other, give={"cash": 1000},
                   take={"squares": [cheapest_deed(state, other)]}).status_code == 200

    client.force_login(users[other])
    page = client.get(reverse("games:game", args=[game.pk]), {"counter": 1}).content.decode()
    assert "No counter-offer here" in page
    assert "only the player whose turn it is may propose trades" in page
    assert 'name="counter"' not in page

    before = snapshot(game)
    response = propose(client, game, cur, give={"squares": [cheapest_deed(state, other)]}, counter=1)
    assert response.status_code == 400
    assert snapshot(game) == before
