"""Warnings at the times a player chose before a deadline, on the channels they chose, once each
per decision; quiet hours hold everything and send it folded into one message at their end
(issue 29)."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from games.engine import waiting_on
from notifications.models import Kind, Notification
from reach import choices, quiet, warnings
from reach import tasks as reach_tasks
from tests.games.play_helpers import play_until, users_by_seat
from tests.reach.conftest import waited_since


def _game_waiting_on(user, other, make_game, **kwargs):
    game = make_game(user, other, **kwargs)
    mine = next(p for p, u in users_by_seat(game).items() if u == user)
    game = play_until(game, lambda state: waiting_on(state) == [mine])
    game.refresh_from_db()
    return game


def _choose(user, *, warnings=(), email=True, push=True, bell=True, quiet_hours=None):
    start, end = quiet_hours or (None, None)
    choices.save(user=user, warnings=list(warnings), email=email, push=push, bell=bell,
                 quiet_start=start, quiet_end=end)


@pytest.mark.django_db
def test_each_chosen_warning_goes_out_once_per_decision(alice, bob, make_game, mailoutbox, pushes):
    game = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72)
    waited_since(game, timedelta(hours=1))
    _choose(alice, warnings=[8, 1])
    mailoutbox.clear()

    # Nothing before the eight hours.
    assert warnings.send_warnings(now=game.deadline - timedelta(hours=9)) == 0
    at8 = game.deadline - timedelta(hours=8) + timedelta(minutes=1)
    assert warnings.send_warnings(now=at8) == 1
    (mail,) = mailoutbox
    assert mail.to == [alice.email]
    assert mail.subject == "[Monopoly] 8 hours left in “Slow”"
    assert "play before" in mail.body
    assert [p[0] for p in pushes] == [alice.pk]
    # A second sweep, a retry of the task: nothing more.
    assert warnings.send_warnings(now=at8 + timedelta(minutes=1)) == 0
    assert reach_tasks.send_warnings.apply().get() == 0
    assert len(mailoutbox) == 1

    at1 = game.deadline - timedelta(minutes=59)
    assert warnings.send_warnings(now=at1) == 1
    assert mailoutbox[-1].subject == "[Monopoly] 1 hour left in “Slow”"
    assert warnings.send_warnings(now=at1) == 0
    assert Notification.objects.filter(kind=Kind.WARNING, user=alice).count() == 2
    # The hour not chosen is never sent; Bob, not waited on, hears nothing.
    assert warnings.send_warnings(now=game.deadline - timedelta(hours=4) + timedelta(minutes=1)) == 0
    assert not Notification.objects.filter(kind=Kind.WARNING, user=bob).exists()


@pytest.mark.django_db
def test_without_email_the_warning_is_pushed_and_in_the_bell_only(alice, bob, make_game, mailoutbox, pushes, client):
    game = _game_waiting_on(alice, bob, make_game, name="Push only", turn_hours=72)
    waited_since(game, timedelta(hours=1))
    _choose(alice, warnings=[8], email=False)
    mailoutbox.clear()
    assert warnings.send_warnings(now=game.deadline - timedelta(hours=7, minutes=50)) == 1  # (pushed)
    assert mailoutbox == []
    assert len(pushes) == 1 and "Push only" in pushes[0][1]["body"]
    n = Notification.objects.get(kind=Kind.WARNING)
    assert n.status == Notification.Status.SENT and n.read_at is None

    # No bell either: the row stays (it keeps the warning from going twice), read.
    Notification.objects.all().delete()
    pushes.clear()
    _choose(alice, warnings=[8], email=False, push=False, bell=False)
    assert warnings.send_warnings(now=game.deadline - timedelta(hours=7, minutes=50)) == 0
    assert pushes == []
    n = Notification.objects.get(kind=Kind.WARNING)
    assert n.status == Notification.Status.OFF and n.read_at is not None


@pytest.mark.django_db
def test_a_wait_that_began_within_the_warning_is_not_warned(alice, bob, make_game, mailoutbox):
    game = _game_waiting_on(alice, bob, make_game, name="Fast", turn_hours=12)
    _choose(alice, warnings=[12])
    mailoutbox.clear()
    assert warnings.send_warnings(now=game.deadline - timedelta(hours=12) + timedelta(minutes=5)) == 0
    assert mailoutbox == []


@pytest.mark.django_db
def test_quiet_hours_hold_everything_and_fold_it_into_one_message_at_their_end(
        alice, bob, make_game, mailoutbox, pushes, clock):
    game = _game_waiting_on(alice, bob, make_game, name="Night", turn_hours=72)
    waited_since(game, timedelta(hours=1))
    alice.time_zone = "Europe/Madrid"
    alice.save()
    _choose(alice, warnings=[8, 1], quiet_hours=(time(23, 0), time(8, 0)))
    mailoutbox.clear()
    # A night in Madrid (UTC+1 in December): 02:30 local is 01:30 UTC.
    import zoneinfo
    from datetime import datetime

    madrid = zoneinfo.ZoneInfo("Europe/Madrid")
    day = game.deadline.astimezone(madrid).date()
    night = datetime(day.year, day.month, day.day, 2, 30, tzinfo=madrid)
    # The deadline put where the night has both warnings due (8 h and 1 h before it).
    from games.models import Game

    Game.objects.filter(pk=game.pk).update(deadline=night + timedelta(hours=8) - timedelta(minutes=1))
    game.refresh_from_db()
    assert warnings.send_warnings(now=night) == 0
    from notifications.services import notify

    notify(game_id=game.pk, items=[[Kind.NUDGE, alice.pk, "test-nudge", game.waiting_seats[0], {"by": "Bob"}]],
           now=night)
    held = Notification.objects.filter(user=alice, status=Notification.Status.HELD)
    assert held.count() == 2
    assert mailoutbox == [] and pushes == []

    # Still night: nothing goes out.
    assert quiet.release(now=night + timedelta(hours=2)) == 0
    assert mailoutbox == []
    # 08:05 in Madrid: one e-mail and one push with both, and nothing at the next run.
    morning = datetime(day.year, day.month, day.day, 8, 5, tzinfo=madrid)
    assert quiet.release(now=morning) == 1
    (mail,) = mailoutbox
    assert mail.subject == "[Monopoly] While you were away: 2 notifications"
    assert "Night" in mail.body and "Another player nudged you" in mail.body
    assert len(pushes) == 1
    assert quiet.release(now=morning + timedelta(minutes=5)) == 0
    assert reach_tasks.release_quiet.apply().get() == 0
    assert len(mailoutbox) == 1
    assert not Notification.objects.filter(status=Notification.Status.HELD).exists()


@pytest.mark.django_db
def test_a_held_wait_that_ended_overnight_is_not_sent(alice, bob, make_game, mailoutbox):
    game = _game_waiting_on(alice, bob, make_game, name="Over")
    from datetime import datetime

    _choose(alice, quiet_hours=(time(0, 0), time(23, 59)))
    from django.utils import timezone

    now = timezone.now()
    from notifications.services import notify

    mailoutbox.clear()
    notify(game_id=game.pk, items=[[Kind.NUDGE, alice.pk, "n1", game.waiting_seats[0], {"by": "Bob"}]], now=now)
    assert Notification.objects.get(key="n1").status == Notification.Status.HELD
    from games.models import Game

    Game.objects.filter(pk=game.pk).update(waiting_seats=[])
    _choose(alice)  # (quiet hours off: they are over)
    assert quiet.release(now=now) == 0
    assert mailoutbox == []
    assert Notification.objects.get(key="n1").status == Notification.Status.STALE
    assert datetime  # (used above)


@pytest.mark.django_db
def test_the_settings_form_saves_and_refuses_bad_input(alice, client):
    from django.urls import reverse

    client.force_login(alice)
    url = reverse("reach:settings")
    page = client.get(url).content.decode()
    assert "Reminders and calendar" in page and 'type="time"' in page
    r = client.post(url, {"warnings": ["8", "1"], "email": "on", "bell": "on",
                          "quiet_start": "23:00", "quiet_end": "08:00"})
    assert r.status_code == 302
    row = choices.of(alice.pk)
    assert row.warning_hours == [8, 1] and row.email and not row.push and row.bell
    assert (row.quiet_start, row.quiet_end) == (time(23, 0), time(8, 0))
    # Forged or half-filled: a clear error, nothing changed.
    for bad in ({"warnings": ["7"]}, {"warnings": ["8"], "quiet_start": "23:00"},
                {"quiet_start": "25:00", "quiet_end": "08:00"}, {"quiet_start": "08:00", "quiet_end": "08:00"},
                {"warnings": ["x" * 10000]}):
        r = client.post(url, bad)
        assert r.status_code == 400
        assert 'class="message message-error"' in r.content.decode() or "field-error" in r.content.decode() \
            or "errorlist" in r.content.decode()
    row = choices.of(alice.pk)
    assert row.warning_hours == [8, 1] and not row.push
