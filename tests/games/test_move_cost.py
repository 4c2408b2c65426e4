"""What a move costs in queries: the ones bench/web.py showed could go (rows of auctions and
trades when there are none, reading the game back after writing it)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import AuctionRow, TradeRow
from tests.games.play_helpers import play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db


def sql_of(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries]


def test_a_roll_with_no_auction_or_trade_open_leaves_their_rows_alone(alice, bob):
    game = start_game(alice, bob)
    user = users_by_seat(game)[game.waiting_seats[0]]

    with CaptureQueriesContext(connection) as ctx:
        services.game_submit_action(
            game=game, user=user, action={"type": "roll"}, expected_version=game.version
        )

    assert not [q for q in sql_of(ctx) if "games_auctionrow" in q or "games_traderow" in q]


def test_auction_and_trade_rows_still_follow_the_game(alice, bob):
    game = start_game(alice, bob)
    users = users_by_seat(game)
    # Decline the first deed offered: its auction opens, and its row with it.
    game = play_until(game, lambda st: st.pending() == "buy")
    seat = game.waiting_seats[0]
    services.game_submit_action(
        game=game, user=users[seat], action={"type": "decline"}, expected_version=game.version
    )
    assert AuctionRow.objects.filter(game=game, is_open=True).count() == 1
    game = play_until(game, lambda st: st.pending() != "auction")
    assert not AuctionRow.objects.filter(game=game, is_open=True).exists()
    # A proposal opens a trade row; its withdrawal closes it.
    game = play_until(game, lambda st: st.pending() == "roll")
    seat = game.current_seat
    services.game_submit_action(
        game=game,
        user=users[seat],
        action={
            "type": "propose",
            "to": 1 - seat,
            "give": {"cash": 1, "squares": [], "cards": 0},
            "take": {"cash": 0, "squares": [], "cards": 0},
        },
        expected_version=game.version,
    )
    trade = TradeRow.objects.get(game=game)
    assert trade.status == TradeRow.Status.OPEN
    game.refresh_from_db()
    services.game_submit_action(
        game=game,
        user=users[seat],
        action={"type": "cancel", "trade": trade.number},
        expected_version=game.version,
    )
    trade.refresh_from_db()
    assert trade.status == TradeRow.Status.CANCELLED


def test_a_move_answers_with_the_position_it_wrote_without_reading_it_back(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(users_by_seat(game)[game.waiting_seats[0]])

    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            reverse("games:game_act", args=[game.pk]),
            {"version": game.version, "type": "roll"},
            HTTP_HX_REQUEST="true",
        )

    assert response.status_code == 200
    assert f'data-version="{game.version + 1}"' in response.content.decode()
    reads = [q for q in sql_of(ctx) if q.startswith('SELECT "games_game"')]
    # One read to check the player, one locked read in the service; none after the write.
    assert len(reads) == 2, reads
