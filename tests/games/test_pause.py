"""Pause on live tables (RULES.md 11): granted only if every player agrees within 30 s (silence
is no); no move and no timeout while paused, the deadline frozen; resumed when every player
confirms, after a countdown, with the time the decision had left. A fake clock throughout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services, tasks
from games.aids import pause
from games.aids import services as aids
from games.models import GameAction, Pause
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(alice, bob, charlie, clock):
    game = start_game(alice, bob, charlie, pace="live")
    return game, users_by_seat(game)


def roll(game, users):
    game.refresh_from_db()
    return services.game_submit_action(game=game, user=users[game.current_seat], action={"type": "roll"},
                                       expected_version=game.version)


def test_a_pause_needs_every_player_and_freezes_moves_and_the_deadline(live, clock):
    game, users = live
    game.refresh_from_db()
    clock.now += timedelta(seconds=10)
    left = game.deadline - clock.now
    aids.pause_ask(game=game, user=users[0])
    aids.pause_answer(game=game, user=users[1], agree=True)
    # Not yet: one player has not agreed; play goes on meanwhile.
    assert not pause.is_paused(game)
    aids.pause_answer(game=game, user=users[2], agree=True)

    game.refresh_from_db()
    assert Pause.objects.get(game=game).status == Pause.Status.PAUSED
    assert game.deadline is None
    version, state = game.version, game.state
    with pytest.raises(services.GameError, match="paused"):
        roll(game, users)
    clock.now += timedelta(hours=2)
    assert tasks.process_deadlines() == 0
    game.refresh_from_db()
    assert (game.version, game.state) == (version, state)

    # Resume: everyone confirms; the countdown runs, then the decision has what it had left.
    for seat in (0, 1):
        aids.pause_confirm(game=game, user=users[seat])
    assert Pause.objects.get(game=game).status == Pause.Status.PAUSED
    aids.pause_confirm(game=game, user=users[2])
    game.refresh_from_db()
    row = Pause.objects.get(game=game)
    assert row.status == Pause.Status.RESUMING
    assert row.resume_at == clock.now + timedelta(seconds=pause.COUNTDOWN_SECONDS)
    assert game.deadline == row.resume_at + left
    with pytest.raises(services.GameError, match="paused"):
        roll(game, users)
    clock.now = row.resume_at
    assert roll(game, users).actions >= 1
    assert not GameAction.objects.filter(game=game, source="timeout").exists()


def test_silence_is_no_and_a_refusal_ends_the_request(live, clock):
    game, users = live
    aids.pause_ask(game=game, user=users[0])
    aids.pause_answer(game=game, user=users[1], agree=True)
    clock.now += timedelta(seconds=pause.ASK_SECONDS + 1)
    # Too late: the request has lapsed.
    with pytest.raises(services.GameError):
        aids.pause_answer(game=game, user=users[2], agree=True)
    assert pause.current(game) is None
    assert roll(game, users).actions >= 1

    aids.pause_ask(game=game, user=users[1])
    assert aids.pause_answer(game=game, user=users[2], agree=False) is None
    assert not Pause.objects.filter(game=game).exists()
    with pytest.raises(services.GameError):
        aids.pause_answer(game=game, user=users[0], agree=True)


def test_no_pause_on_correspondence_tables_nor_for_spectators(alice, bob, charlie, clock):
    game = start_game(alice, bob, pace="correspondence")
    with pytest.raises(services.GameError):
        aids.pause_ask(game=game, user=alice)
    live = start_game(alice, bob, pace="live", name="Live")
    with pytest.raises(services.NotAllowed):
        aids.pause_ask(game=live, user=charlie)
    assert not Pause.objects.exists()


def test_the_pause_panel_asks_agrees_and_shows_the_countdown(client, live, clock):
    game, users = live
    client.force_login(users[0])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'value="ask"' in page
    r = client.post(reverse("games:game_pause", args=[game.pk]), {"do": "ask"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "asks for a pause" in r.content.decode()
    assert 'hx-trigger="load delay:31s"' in r.content.decode()
    forged = client.post(reverse("games:game_pause", args=[game.pk]), {"do": "pause-forever"}, HTTP_HX_REQUEST="true")
    assert forged.status_code == 400
    for seat in (1, 2):
        client.force_login(users[seat])
        client.post(reverse("games:game_pause", args=[game.pk]), {"do": "agree"})
    client.force_login(users[0])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "The game is paused" in page and 'value="ready"' in page


def test_a_spectator_sees_the_pause_but_no_buttons(client, live, clock):
    game, users = live
    client.logout()
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="pause"' not in page
    aids.pause_ask(game=game, user=users[0])
    for seat in (1, 2):
        aids.pause_answer(game=game, user=users[seat], agree=True)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "The game is paused" in page and 'name="do"' not in page
