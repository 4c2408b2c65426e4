"""Nudges (issue 29): once per 24 hours per game and player, after the wait has lasted 12 hours
(or half the decision's time on a faster table); the nudged player hears of it on their
channels; the game page says who nudged whom. Refusals change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.engine import waiting_on
from notifications.models import Kind, Notification
from reach.models import Nudge
from tests.games.play_helpers import play_until, users_by_seat
from tests.reach.conftest import waited_since


def _game_waiting_on(user, other, make_game, *more, **kwargs):
    game = make_game(user, other, *more, **kwargs)
    mine = next(p for p, u in users_by_seat(game).items() if u == user)
    game = play_until(game, lambda state: waiting_on(state) == [mine])
    game.refresh_from_db()
    return game, mine


def _nudge(client, game, seat, htmx=True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("reach:nudge", args=[game.pk]), {"seat": str(seat)}, **headers)


@pytest.mark.django_db
def test_a_nudge_after_twelve_hours_reaches_the_player_once_a_day(
        alice, bob, charlie, make_game, client, mailoutbox, celery_eager, django_capture_on_commit_callbacks):
    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72)
    client.force_login(bob)

    waited_since(game, timedelta(hours=11, minutes=50))
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 400
    assert "Too early to nudge" in r.content.decode()
    assert not Nudge.objects.exists()

    waited_since(game, timedelta(hours=12, minutes=1))
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = _nudge(client, game, alice_seat)
    assert r.status_code == 200
    body = r.content.decode()
    a, b = alice.public_name, bob.public_name
    # (Each name isolated: <bdi>, issue 26.)
    assert f"You nudged <bdi>{a}</bdi>." in body and f"<bdi>{b}</bdi> nudged <bdi>{a}</bdi>" in body
    (mail,) = mailoutbox
    assert mail.to == [alice.email]
    assert mail.subject == f"[Monopoly] {b} nudged you: “Slow” is waiting for you"
    assert Notification.objects.filter(kind=Kind.NUDGE, user=alice).count() == 1

    # Twice (a double click, or a day not yet over): refused, nothing more.
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 400 and "less than a day ago" in r.content.decode()
    assert Nudge.objects.count() == 1 and len(mailoutbox) == 1

    # The game page shows who nudged whom, to the players and to spectators.
    client.force_login(charlie)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"<bdi>{b}</bdi> nudged <bdi>{a}</bdi>" in page


@pytest.mark.django_db
def test_refusals_for_a_spectator_oneself_and_a_player_not_waited_on(alice, bob, charlie, make_game, client):
    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow")
    bob_seat = 1 - alice_seat
    waited_since(game, timedelta(hours=20))

    client.force_login(charlie)  # a spectator
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 403 and "Only the players of this game may nudge." in r.content.decode()

    client.force_login(alice)  # herself
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 400 and "You cannot nudge yourself." in r.content.decode()
    r = _nudge(client, game, bob_seat)  # Bob is not waited on
    assert r.status_code == 400 and "not waiting on that player" in r.content.decode()

    client.force_login(bob)
    for junk in ("", "x", "99", "-1", "1" * 50):
        r = client.post(reverse("reach:nudge", args=[game.pk]), {"seat": junk}, HTTP_HX_REQUEST="true")
        assert r.status_code == 400
    assert not Nudge.objects.exists()
    assert not Notification.objects.filter(kind=Kind.NUDGE).exists()

    # A plain form (no JavaScript): the refusal comes back as a message on the game page.
    r = client.post(reverse("reach:nudge", args=[game.pk]), {"seat": str(bob_seat)}, follow=True)
    assert "You cannot nudge yourself." in r.content.decode()


@pytest.mark.django_db
def test_a_faster_table_allows_a_nudge_after_half_the_decisions_time(alice, bob, make_game, client):
    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Quick", turn_hours=12)
    client.force_login(bob)
    waited_since(game, timedelta(hours=5, minutes=50))
    # (the deadline moves with the wait's start: half of 12 hours is 6)
    from games.models import Game
    from reach.models import Wait

    since = Wait.objects.get(game=game).since
    Game.objects.filter(pk=game.pk).update(deadline=since + timedelta(hours=12))
    assert _nudge(client, game, alice_seat).status_code == 400
    Wait.objects.filter(game=game).update(since=since - timedelta(minutes=11))
    Game.objects.filter(pk=game.pk).update(deadline=since - timedelta(minutes=11) + timedelta(hours=12))
    assert _nudge(client, game, alice_seat).status_code == 200
    assert Nudge.objects.get().to_seat == alice_seat
