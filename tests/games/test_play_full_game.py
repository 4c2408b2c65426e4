"""Two users play a whole game through the pages (HTTP, as the forms post): a purchase, an
auction, rent, a trade, and the end by surrender. Each move is made with a button the page
offers to that player at that moment."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import GameState, legal_actions, waiting_on
from games.models import Game, GameAction
from tests.games.play_helpers import cheapest_deed, choose, start_game, users_by_seat

pytestmark = pytest.mark.django_db


def page_of(client: Client, game: Game) -> str:
    response = client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_two_users_play_a_whole_game_through_the_pages(alice, bob):
    game = start_game(alice, bob)
    users = users_by_seat(game)
    clients = {}
    for seat, user in users.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    seen: set[str] = set()
    declined = traded = False

    for _ in range(600):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = GameState.from_json(game.state)
        seat = waiting_on(state)[0]
        page = page_of(clients[seat], game)
        version = int(re.search(r'data-version="(\d+)"', page).group(1))
        assert version == game.version
        types = {a["type"] for a in legal_actions(state, seat)}
        top = state.pending_frame()
        fields: dict
        if "buy" in types and not declined:
            fields, declined = {"type": "decline"}, True  # the first purchase goes to auction
        elif top and top["k"] == "auction" and "bid" in types and top["leader"] < 0:
            fields = {"type": "bid", "amount": re.search(r'id="bid-amount" name="amount" value="(\d+)"', page).group(1)}
        elif (not traded and "rent" in seen and state.pending() == "roll" and seat == 0
              and cheapest_deed(state, 0) is not None and cheapest_deed(state, 1) is not None):
            fields = {"type": "propose", "to": 1, "give_cash": 20, "give_squares": cheapest_deed(state, 0),
                      "take_squares": cheapest_deed(state, 1)}
            traded = True
        elif top and top["k"] == "trade_response" and "accept" in types:
            fields = {"type": "accept", "trade": top["trade"]}
        elif {"buy", "auction_won", "rent", "trade_accepted"} <= seen and state.round >= 6:
            fields = {"type": "surrender", "confirm": "yes"}
        else:
            move = choose(state, seat)
            fields = {k: v for k, v in move.items() if k != "player"}
            if fields["type"] == "surrender":
                fields["confirm"] = "yes"
        # The page offers this very move to this player now.
        assert f'value="{fields["type"]}"' in page, (fields, state.pending())
        response = clients[seat].post(reverse("games:game_act", args=[game.pk]), {"version": version, **fields})
        assert response.status_code == 302, fields
        follow = clients[seat].get(response["Location"])
        assert "Refused" not in follow.content.decode(), fields
        events = GameAction.objects.filter(game=game).order_by("-seq").values_list("events", flat=True).first()
        seen.update(e["e"] for e in events)
        seen.update("rent" for e in events if e["e"] == "pay" and e.get("why") == "rent")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {"buy", "auction_won", "rent", "trade_accepted", "surrender", "game_over"} <= seen
    # Both players see the end, with the replay and the record offered.
    for client in clients.values():
        html = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert "Game over" in html
        assert reverse("games:game_replay", args=[game.pk]) in html
