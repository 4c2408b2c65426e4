"""What a move costs in queries: the ones the web benchmark (bench/web/) showed could go (rows of auctions and
trades when there are none, reading the game back after writing it)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import AuctionRow, TradeRow
from tests.games.parts_helpers import parts_headers
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


# The subquery of the sanctions in the seats' read (whether the mover is locked out).
SANCTIONS = re.compile(r'EXISTS\(SELECT .*? FROM "moderation_sanction" .*?LIMIT 1\)')


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
    reads = [q for q in sql_of(ctx)
             if q.startswith("SELECT") and SANCTIONS.sub("", q).split(" FROM ")[1].startswith('"games_game"')]
    # One locked read in the service (which checks the player, and reads the seats with it); none
    # before it, none after the write.
    assert len(reads) == 1, reads
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in reads[0], reads


def test_the_page_scripts_move_reads_only_the_game_and_its_seats(client, alice, bob):
    """The move the page's script posts (issue 12): the user, the locked game, its seats, then
    the writes; not the log (the answer shows the rows the move wrote), not the player's
    sanctions on their own (the seats' read says whether the mover is locked out)."""
    game = start_game(alice, bob)
    mover = users_by_seat(game)[game.waiting_seats[0]]
    client.force_login(mover)
    headers = parts_headers(client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode())

    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            reverse("games:game_act", args=[game.pk]),
            {"version": game.version, "type": "roll"}, **headers,
        )

    assert response.status_code == 200 and "hx-swap-oob" in response.content.decode()
    selects = [q for q in sql_of(ctx) if q.startswith("SELECT")]
    # The seats' read says whether the mover is locked out (a subquery of the sanctions).
    assert len(SANCTIONS.findall(selects[-1])) == 1, selects[-1]
    reads = [SANCTIONS.sub("", q).split(" FROM ")[1].split()[0] for q in selects]
    # The game's read joins its seats (sql.game_with_seats): one round trip.
    assert reads == ['"accounts_user"', '"games_game"'], reads
    assert ' LEFT OUTER JOIN "games_seat" ON ' in selects[-1], selects[-1]
    quiet = ("SELECT", "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    writes = [q for q in sql_of(ctx) if not q.startswith(quiet)]
    # The log row, the game; a roll that lands on a deed changes no deed row. On PostgreSQL, one
    # statement (games/sql.py write_move).
    if connection.vendor == "postgresql":
        assert len(writes) == 1, writes
        assert re.fullmatch(r'WITH new_rows AS \(INSERT INTO "games_gameaction" .*\) UPDATE "games_game" .*',
                            writes[0]), writes
    else:
        assert sorted(q.split()[0] for q in writes) == ["INSERT", "UPDATE"], writes


def test_a_written_move_leaves_no_cycle_through_its_position(alice, bob):
    # The engine's working context refers back to the state (a cycle only the garbage collector
    # frees, with the whole position): the service lets it go once the move is written.
    game = start_game(alice, bob)
    user = users_by_seat(game)[game.waiting_seats[0]]
    sub = services.game_submit_action(game=game, user=user, action={"type": "roll"}, expected_version=game.version)
    assert sub.actions and not hasattr(sub.state, "_ctx")
    assert sub.game.version == game.version + 1
