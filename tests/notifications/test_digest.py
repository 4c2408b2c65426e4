"""The daily digest: at the user's local morning, once a day, every game waiting on them with
the time left and the news they chose to read there."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from notifications import digest, tasks
from notifications.models import Digest, Kind, Mode, Notification, Preference
from notifications.services import DIGEST_KIND, unsubscribe_token
from tests.games.play_helpers import users_by_seat

MADRID = ZoneInfo("Europe/Madrid")


def _waiting_on_reader(make_game, alice, bob, capture):
    with capture(execute=True):
        game = make_game(alice, bob, name="Morning")
    user = users_by_seat(game)[game.waiting_seats[0]]
    type(user).objects.filter(pk=user.pk).update(time_zone="Europe/Madrid")
    user.refresh_from_db()
    return game, user


@pytest.mark.django_db
def test_the_digest_goes_out_once_at_local_morning_with_the_waiting_games(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    Preference.objects.create(user=alice, kind=Kind.YOUR_TURN, mode=Mode.DIGEST)
    Preference.objects.create(user=bob, kind=Kind.YOUR_TURN, mode=Mode.DIGEST)
    game, user = _waiting_on_reader(make_game, alice, bob, django_capture_on_commit_callbacks)
    # The wait went to the digest, not to an e-mail of its own.
    assert [m for m in mailoutbox if m.to == [user.email]] == []
    assert Notification.objects.get(user=user, kind=Kind.YOUR_TURN).status == "digest"
    mailoutbox.clear()
    day = timezone.now().astimezone(MADRID).date()
    early = datetime.combine(day, datetime.min.time(), MADRID).replace(hour=7, minute=50)

    assert digest.send_digests(now=early) == 0
    morning = early + timedelta(minutes=20)
    assert digest.send_digests(now=morning) == 1
    assert digest.send_digests(now=morning + timedelta(minutes=15)) == 0

    assert [m.to for m in mailoutbox] == [[user.email]]
    mail = mailoutbox[0]
    assert mail.subject == "[Monopoly] Your day on Monopoly: 1 game waits on you"
    assert "Morning (round 1, play in " in mail.body
    assert f"/games/{game.pk}/" in mail.body and f"/games/{game.pk}/" in mail.alternatives[0][0]
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Digest.objects.filter(user=user, day=day).count() == 1
    assert Notification.objects.get(user=user, kind=Kind.YOUR_TURN).emailed_at == morning


@pytest.mark.django_db
def test_the_digest_task_runs_every_quarter_hour_on_beat():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["notifications-send-digests"]
    assert entry["task"] == "notifications.tasks.send_digests"
    assert tasks.send_digests.name == entry["task"]


@pytest.mark.django_db
def test_the_digest_is_in_the_readers_language(alice, bob, make_game, mailoutbox, django_capture_on_commit_callbacks):
    _game, user = _waiting_on_reader(make_game, alice, bob, django_capture_on_commit_callbacks)
    type(user).objects.filter(pk=user.pk).update(language="es")
    Preference.objects.create(user=user, kind=Kind.GAME_OVER, mode=Mode.DIGEST)
    user.refresh_from_db()
    morning = datetime(2026, 3, 2, 9, 0, tzinfo=MADRID)

    assert digest.send_digest(user=user, now=morning)

    assert mailoutbox[0].subject == "[Monopoly] Tu día en Monopoly: 1 partida te espera"
    assert "Partidas que te esperan:" in mailoutbox[0].body


@pytest.mark.django_db
def test_the_digests_own_link_turns_the_digest_off(alice, bob, make_game, django_capture_on_commit_callbacks):
    _game, user = _waiting_on_reader(make_game, alice, bob, django_capture_on_commit_callbacks)
    Preference.objects.create(user=user, kind=Kind.YOUR_TURN, mode=Mode.DIGEST)
    Preference.objects.create(user=user, kind=Kind.GAME_OVER, mode=Mode.IMMEDIATELY)
    url = reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id=user.pk, kind=DIGEST_KIND)])

    assert Client().get(url).status_code == 200
    assert Preference.objects.get(user=user, kind=Kind.YOUR_TURN).mode == Mode.DIGEST
    assert Client(enforce_csrf_checks=True).post(url).status_code == 200

    assert dict(Preference.objects.filter(user=user).values_list("kind", "mode")) == {
        Kind.YOUR_TURN: Mode.OFF, Kind.GAME_OVER: Mode.IMMEDIATELY}
    assert digest.send_digests(now=datetime(2026, 3, 2, 9, 0, tzinfo=MADRID)) == 0
