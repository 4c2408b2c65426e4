"""A rematch keeps each player of the last game their seat for a while (ratings.services
.REMATCH_HOLD): they are invited, told until when the seat is theirs, and sit down in it;
nobody else may take it before the hold ends, and the host may still put a bot there."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Seat, Table
from ratings import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _positions(table: Table) -> dict[int, int | None]:
    return dict(table.seats.order_by("position").values_list("position", "user_id"))


def test_the_seats_of_the_last_games_players_are_kept_for_them(
    client, finished_game, alice, bob, charlie, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = finished_game([alice, bob, "strategy", charlie], seed=1)
    old = dict(game.table.seats.values_list("user_id", "position"))
    dave = UserFactory(username="dave", display_name="Dave")
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        table, _created = services.rematch_create(game=game, by=alice)

    kept = {s.position: (s.held_for_id, s.held_until) for s in table.seats.exclude(held_for=None)}
    assert {p: u for p, (u, _until) in kept.items()} == {old[bob.pk]: bob.pk, old[charlie.pk]: charlie.pk}
    until = kept[old[bob.pk]][1]
    assert until - timezone.now() > timedelta(minutes=14)  # a live table: 15 minutes
    # The invitation says the seat is theirs until then.
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.com", "charlie@example.com"]
    assert all("Nobody else may take your seat until" in m.body for m in mailoutbox)

    # A stranger may not take their seats, by any way in.
    with pytest.raises(game_services.GameError, match="the free seats are kept for the players of the last game"):
        game_services.table_join(table=table, user=dave)
    with pytest.raises(game_services.GameError, match="that seat is kept for a player of the last game"):
        game_services.table_join(table=table, user=dave, position=old[charlie.pk])
    client.force_login(dave)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Kept for <bdi>Bob</bdi> until" in page and "Kept for <bdi>Charlie</bdi> until" in page
    assert "Sit here" not in page and "Join the table" not in page
    response = client.post(reverse("games:table_join", args=[table.pk]), {"position": old[bob.pk]}, follow=True)
    assert "kept for a player of the last game" in response.content.decode()
    assert _positions(table)[old[bob.pk]] is None

    # Bob and Charlie sit down in their own seats, and the table is full.
    game_services.table_join(table=table, user=bob)
    game_services.table_join(table=table, user=charlie)
    assert _positions(table) == {0: alice.pk, old[bob.pk]: bob.pk, 2: None, old[charlie.pk]: charlie.pk}
    assert not table.seats.exclude(held_for=None).exists()


def test_once_the_hold_ends_anyone_may_sit_there(client, finished_game, alice, bob):
    game = finished_game([alice, bob], seed=1)
    table, _created = services.rematch_create(game=game, by=alice)
    dave = UserFactory(username="dave")
    Seat.objects.filter(table=table).exclude(held_for=None).update(held_until=timezone.now() - timedelta(seconds=1))

    client.force_login(dave)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Kept for" not in page and "Join the table" in page
    seat = game_services.table_join(table=table, user=dave)

    assert seat.position == 1 and seat.held_for_id is None


def test_a_kept_player_who_sits_elsewhere_frees_their_seat_and_the_host_may_seat_a_bot(
    finished_game, alice, bob, charlie
):
    from moderation import services as moderation_services

    game = finished_game([alice, bob, charlie], seed=1)
    # Charlie blocks the host: no invitation, no seat kept for him (issue 11).
    moderation_services.block_create(user=charlie, blocked=alice)
    table, _created = services.rematch_create(game=game, by=alice)
    bobs, charlies = (game.table.seats.get(user=u).position for u in (bob, charlie))
    assert list(table.seats.exclude(held_for=None).values_list("position", flat=True)) == [bobs]
    dave, eve = UserFactory(username="dave"), UserFactory(username="eve")

    game_services.table_join(table=table, user=bob, position=charlies)
    assert game_services.table_join(table=table, user=dave).position == bobs

    game_services.table_leave(table=table, user=dave)
    game_services.table_hold_seats(table=table, by=alice, holds={bobs: eve},
                                   until=timezone.now() + timedelta(minutes=5))
    seat = game_services.table_set_seat(table=table, by=alice, position=bobs, bot=Seat.Bot.STRATEGY)
    assert seat.bot == Seat.Bot.STRATEGY and seat.held_for_id is None


def test_only_the_host_keeps_empty_seats_and_only_until_a_moment_to_come(finished_game, alice, bob):
    game = finished_game([alice, bob], seed=1)
    table, _created = services.rematch_create(game=game, by=alice)
    game_services.table_join(table=table, user=bob)
    dave = UserFactory(username="dave")
    soon = timezone.now() + timedelta(minutes=5)

    with pytest.raises(game_services.NotAllowed):
        game_services.table_hold_seats(table=table, by=bob, holds={1: dave}, until=soon)
    with pytest.raises(game_services.GameError, match="that seat is taken"):
        game_services.table_hold_seats(table=table, by=alice, holds={1: dave}, until=soon)
    with pytest.raises(game_services.GameError, match="no such seat"):
        game_services.table_hold_seats(table=table, by=alice, holds={7: dave}, until=soon)
    with pytest.raises(game_services.GameError, match="a moment to come"):
        game_services.table_hold_seats(table=table, by=alice, holds={1: dave}, until=timezone.now())
    assert not table.seats.exclude(held_for=None).exists()


def test_a_seat_a_bot_took_over_gets_its_bot_again_and_nothing_kept(finished_game, alice, bob, charlie):
    game = finished_game([alice, bob, charlie], seed=1)
    # Charlie's seat was handed to a bot at his third missed turn (RULES.md 15).
    Seat.objects.filter(table=game.table, user=charlie).update(bot=Seat.Bot.STRATEGY)
    charlies = game.table.seats.get(user=charlie).position

    table, created = services.rematch_create(game=game, by=alice)

    assert created and table.seats.get(position=charlies).bot == Seat.Bot.STRATEGY
    assert [s.held_for_id for s in table.seats.exclude(held_for=None)] == [bob.pk]


def test_a_private_rematch_is_seen_by_the_players_it_keeps_seats_for(client, finished_game, alice, charlie):
    """The players of a private table's last game are kept their seats: they may see the new
    table (selectors._seen_by, and _sees decided on its seats) while it is kept, also one
    without an e-mail address (invited by none); others still may not."""
    from django.contrib.auth.models import AnonymousUser

    from games import selectors

    erin = UserFactory(username="erin", display_name="Erin", email="")
    game = finished_game([alice, erin, charlie], seed=2)
    Table.objects.filter(pk=game.table_id).update(is_private=True)
    game.table.refresh_from_db()
    table, _created = services.rematch_create(game=game, by=alice)
    assert table.is_private and table.seats.filter(held_for=erin).exists()
    dave = UserFactory(username="dave", display_name="Dave", email="dave@example.com")

    def sees(user) -> bool:
        by_filter = selectors.visible_table(table_id=table.pk, user=user) is not None
        assert selectors._sees(user, table, list(table.seats.all())) == by_filter, user
        return by_filter

    assert [sees(u) for u in (alice, erin, charlie, dave, AnonymousUser())] == [True, True, True, False, False]
    client.force_login(erin)
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 200

    Seat.objects.filter(table=table).exclude(held_for=None).update(held_until=timezone.now() - timedelta(seconds=1))
    # (Charlie was invited by e-mail: he still may.)
    assert [sees(u) for u in (erin, charlie, dave)] == [False, True, False]


def test_the_lobby_counts_kept_seats_as_taken(finished_game, alice, bob, charlie):
    from games import selectors

    game = finished_game([alice, bob, charlie], seed=3)
    table, _created = services.rematch_create(game=game, by=alice)
    kept = table.seats.exclude(held_for=None).count()
    assert kept == 2

    card = next(c for c in selectors.lobby_tables() if c.table.pk == table.pk)
    page_card = selectors.table_page(table_id=table.pk, user=alice).card

    assert card.taken == page_card.taken == 1 + kept and card.free == table.seat_count - 1 - kept
    Seat.objects.filter(table=table).exclude(held_for=None).update(held_until=timezone.now() - timedelta(seconds=1))
    card = next(c for c in selectors.lobby_tables() if c.table.pk == table.pk)
    assert card.taken == selectors.table_page(table_id=table.pk, user=alice).card.taken == 1
