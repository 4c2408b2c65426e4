"""The bell after a week of play (issue 26, item 25): an item about a wait is read once the wait
is answered, and the items of one game fold into one line."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.engine import GameState
from notifications.models import Kind, Notification
from tests.games.play_helpers import choose, users_by_seat

pytestmark = pytest.mark.django_db


def test_a_wait_answered_reads_its_item(
    client, alice, bob, make_game, celery_eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Bell")
    users = users_by_seat(game)
    first = game.waiting_seats[0]
    assert Notification.objects.get(user=users[first], kind=Kind.YOUR_TURN).read_at is None

    # The first player plays their turn through until the game waits on the other one.
    for _ in range(50):
        game.refresh_from_db()
        if first not in game.waiting_seats:
            break
        move = choose(GameState.from_json(game.state), first)
        with django_capture_on_commit_callbacks(execute=True):
            services.game_submit_action(game=game, user=users[first], action=move, expected_version=game.version)
    game.refresh_from_db()
    assert first not in game.waiting_seats

    assert not Notification.objects.filter(user=users[first], kind__in=[Kind.YOUR_TURN, Kind.AUCTION_OPEN],
                                           read_at__isnull=True).exists()
    # The other player's wait has begun: theirs is unread.
    assert Notification.objects.filter(user=users[1 - first], read_at__isnull=True).exists()
    client.force_login(users[first])
    assert "bell-count" not in client.get(reverse("notifications:badge")).content.decode()


def test_the_items_of_one_game_fold_into_one_line(client, alice, bob, make_game):
    one = make_game(alice, bob, name="First")
    two = make_game(alice, bob, name="Second")
    for k, kind in enumerate([Kind.GAME_STARTED, Kind.YOUR_TURN, Kind.OUTBID, Kind.YOUR_TURN]):
        Notification.objects.create(user=alice, kind=kind, key=f"k{k}", game=one, seat=0)
    Notification.objects.create(user=alice, kind=Kind.YOUR_TURN, key="other", game=two, seat=0)
    client.force_login(alice)

    badge = client.get(reverse("notifications:badge")).content.decode()
    assert '<span class="bell-count" aria-hidden="true">2</span>' in badge
    inbox = client.get(reverse("notifications:inbox")).content.decode()
    assert inbox.count('class="inbox-item') == 2
    assert "4 notices" in inbox

    # Opening the game's line reads all four of its items, and only those.
    latest = Notification.objects.filter(user=alice, game=one).order_by("-created_at", "-pk").first()
    client.post(reverse("notifications:open", args=[latest.pk]))
    assert not Notification.objects.filter(game=one, read_at__isnull=True).exists()
    assert Notification.objects.filter(game=two, read_at__isnull=True).count() == 1
    badge = client.get(reverse("notifications:badge")).content.decode()
    assert '<span class="bell-count" aria-hidden="true">1</span>' in badge
