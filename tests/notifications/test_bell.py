"""The bell: unread notifications in the header (loaded by htmx), each opening its game and
marking itself read; mark all read without a page reload."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from notifications.models import Kind, Notification
from tests.games.play_helpers import users_by_seat

HTMX = {"HTTP_HX_REQUEST": "true"}


def _game_with_news(make_game, alice, bob, capture):
    with capture(execute=True):
        game = make_game(alice, bob, name="Bell")
    return game, users_by_seat(game)[game.waiting_seats[0]]


@pytest.mark.django_db
def test_the_header_loads_the_bell_and_it_counts_unread(
    client, alice, bob, make_game, celery_eager, django_capture_on_commit_callbacks
):
    _game, user = _game_with_news(make_game, alice, bob, django_capture_on_commit_callbacks)
    client.force_login(user)

    page = client.get(reverse("games:lobby")).content.decode()
    assert f'hx-get="{reverse("notifications:badge")}"' in page
    badge = client.get(reverse("notifications:badge"), **HTMX).content.decode()
    assert '<span class="bell-count" aria-hidden="true">1</span>' in badge


@pytest.mark.django_db
def test_opening_a_notification_marks_it_read_and_goes_to_its_game(
    client, alice, bob, make_game, celery_eager, django_capture_on_commit_callbacks
):
    game, user = _game_with_news(make_game, alice, bob, django_capture_on_commit_callbacks)
    n = Notification.objects.get(user=user, kind=Kind.YOUR_TURN)
    client.force_login(user)

    inbox = client.get(reverse("notifications:inbox")).content.decode()
    assert "A game waits on you" in inbox and "Bell" in inbox
    response = client.post(reverse("notifications:open", args=[n.pk]))

    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    n.refresh_from_db()
    assert n.read_at is not None
    assert "bell-count" not in client.get(reverse("notifications:badge")).content.decode()


@pytest.mark.django_db
def test_another_players_notification_cannot_be_opened(
    client, alice, bob, charlie, make_game, celery_eager, django_capture_on_commit_callbacks
):
    _game, user = _game_with_news(make_game, alice, bob, django_capture_on_commit_callbacks)
    n = Notification.objects.get(user=user, kind=Kind.YOUR_TURN)
    client.force_login(charlie)

    assert client.post(reverse("notifications:open", args=[n.pk])).status_code == 404
    assert client.get(reverse("notifications:open", args=[n.pk])).status_code == 405
    n.refresh_from_db()
    assert n.read_at is None


@pytest.mark.django_db
def test_mark_all_read_answers_htmx_with_the_list_and_tells_the_bell(
    client, alice, bob, charlie, make_game, celery_eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        make_game(alice, bob, charlie, name="Three")
    client.force_login(bob)
    assert Notification.objects.filter(user=bob, read_at__isnull=True).exists()

    response = client.post(reverse("notifications:read_all"), **HTMX)

    assert response.status_code == 200
    assert "notifications-read" in json.loads(response["HX-Trigger"])
    assert response.content.decode().lstrip().startswith('<div id="inbox">')
    assert not Notification.objects.filter(user=bob, read_at__isnull=True).exists()
    assert Notification.objects.filter(user=charlie, read_at__isnull=True).exists() or \
        not Notification.objects.filter(user=charlie).exists()


@pytest.mark.django_db
def test_the_bell_needs_a_login(client):
    assert client.get(reverse("notifications:badge")).status_code == 302
    assert client.post(reverse("notifications:read_all")).status_code == 302


@pytest.mark.django_db
def test_the_bell_tells_the_tab_how_many_games_wait_on_you_in_a_fixed_number_of_queries(
    client, alice, bob, charlie, make_game, django_assert_num_queries
):
    first = make_game(alice, bob, name="One")
    second = make_game(alice, charlie, name="Two")
    users = {g.pk: users_by_seat(g)[g.waiting_seats[0]] for g in (first, second)}
    client.force_login(alice)
    expected = sum(1 for u in users.values() if u == alice)

    client.get(reverse("notifications:badge"), **HTMX)  # (the session's first read, as any page's)
    with django_assert_num_queries(3):  # user, unread count, seats waited on (the session: cached)
        badge = client.get(reverse("notifications:badge"), **HTMX).content.decode()
    assert f'data-waiting="{expected}"' in badge
    assert 'data-label="Your turn"' in badge

    client.force_login(bob)
    waits_on_bob = 1 if users[first.pk] == bob else 0
    assert f'data-waiting="{waits_on_bob}"' in client.get(reverse("notifications:badge"), **HTMX).content.decode()
