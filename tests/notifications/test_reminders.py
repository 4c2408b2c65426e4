"""Reminders when a quarter of a correspondence decision's time is left, and the warning before
the third missed turn forfeits (issue 14; RULES.md 11 and 15): once each, following the
recipient's preferences, language and time zone, from the periodic sweep of an indexed column."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import tasks as game_tasks
from games.aids import services as aids
from games.models import Game
from notifications import reminders
from notifications import tasks as notification_tasks
from notifications.models import Kind, Mode, Notification
from notifications.services import preference_set
from tests.games.play_helpers import users_by_seat


def _waited(game: Game):
    game.refresh_from_db()
    return users_by_seat(game)[game.waiting_seats[0]]


def _set_missed(game: Game, seat: int, missed: int) -> None:
    state = game.state
    state["players"][seat]["missed"] = missed
    Game.objects.filter(pk=game.pk).update(state=state)


@pytest.mark.django_db
def test_a_move_sets_the_reminder_at_a_quarter_of_the_time(alice, bob, make_game):
    game = make_game(alice, bob, name="Slow", turn_hours=72)
    assert game.reminder_at == game.deadline - timedelta(hours=18)


@pytest.mark.django_db
def test_the_reminder_goes_out_once_when_a_quarter_of_the_time_is_left(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Slow")
    waited = _waited(game)
    mailoutbox.clear()

    assert reminders.send_reminders(now=game.deadline - timedelta(hours=7)) == 0
    assert mailoutbox == []

    now = game.deadline - timedelta(hours=5)
    assert reminders.send_reminders(now=now) == 1
    assert [m.to for m in mailoutbox] == [[waited.email]]
    assert mailoutbox[0].subject == "[Monopoly] Reminder: “Slow” is waiting for you"
    assert "A quarter of your time is left" in mailoutbox[0].body
    assert mailoutbox[0].extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # The sweep again, and even a second sweep that had read the game before the claim: nothing.
    assert reminders.send_reminders(now=now) == 0
    Game.objects.filter(pk=game.pk).update(reminder_at=now - timedelta(minutes=1))
    assert notification_tasks.send_reminders() == 0
    assert len(mailoutbox) == 1
    assert Notification.objects.filter(kind=Kind.REMINDER).count() == 1


@pytest.mark.django_db
def test_a_reminder_switched_off_is_not_sent_and_the_new_kinds_are_in_the_settings(
    alice, bob, make_game, mailoutbox, client
):
    game = make_game(alice, bob, name="Quiet")
    waited = _waited(game)
    preference_set(user=waited, kind=Kind.REMINDER, mode=Mode.OFF)
    mailoutbox.clear()

    assert reminders.send_reminders(now=game.deadline - timedelta(hours=1)) == 0
    assert mailoutbox == []
    assert Notification.objects.get(kind=Kind.REMINDER).status == Notification.Status.OFF

    client.force_login(waited)
    page = client.get(reverse("notifications:preferences")).content.decode()
    for kind in (Kind.REMINDER, Kind.FORFEIT_WARNING, Kind.OUTBID):
        assert str(kind.label) in page
        assert f'name="{kind.value}"' in page


@pytest.mark.django_db
def test_the_reminder_speaks_the_recipients_language_and_time_zone(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Lenta")
    waited = _waited(game)
    type(waited).objects.filter(pk=waited.pk).update(language="es", time_zone="America/New_York")
    mailoutbox.clear()

    reminders.send_reminders(now=game.deadline - timedelta(hours=2))

    body = mailoutbox[0].body
    assert mailoutbox[0].subject == "[Monopoly] Recordatorio: «Lenta» te espera"
    local = game.deadline.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    utc = game.deadline.astimezone(zoneinfo.ZoneInfo("UTC"))
    assert local.strftime("%H:%M") in body
    assert utc.strftime("%H:%M") not in body


@pytest.mark.django_db
def test_a_deadline_moved_later_postpones_the_reminder(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Away")
    moment = game.reminder_at
    # (As a vacation moves a deadline on, RULES.md 15: the stored moment is now too early.)
    Game.objects.filter(pk=game.pk).update(deadline=game.deadline + timedelta(days=2))
    mailoutbox.clear()

    assert reminders.send_reminders(now=moment + timedelta(minutes=1)) == 0
    game.refresh_from_db()
    assert game.reminder_at == game.deadline - timedelta(hours=6)
    assert mailoutbox == []


@pytest.mark.django_db
def test_a_deadline_given_back_when_a_vacation_ends_early_gets_its_reminder(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Back early")
    waited = _waited(game)
    start = game.deadline - timedelta(hours=24)
    aids.vacation_take(game=game, user=waited, days=3, now=start)
    # The sweep at the old moment waits for the quarter of the frozen deadline, three days on.
    assert reminders.send_reminders(now=start + timedelta(hours=18, minutes=1)) == 0
    mailoutbox.clear()

    # Back two hours in: two whole days go back, and so does the deadline.
    aids.vacation_end(game=game, user=waited, now=start + timedelta(hours=2))

    game.refresh_from_db()
    assert game.deadline == start + timedelta(days=2)
    assert game.reminder_at == game.deadline - timedelta(hours=6)
    assert reminders.send_reminders(now=game.deadline - timedelta(hours=5)) == 1
    assert [m.to for m in mailoutbox] == [[waited.email]]
    assert "A quarter of your time is left" in mailoutbox[0].body


@pytest.mark.django_db
def test_a_deadline_frozen_by_a_vacation_after_its_reminder_gets_a_reminder_of_its_own(
    alice, bob, make_game, mailoutbox
):
    game = make_game(alice, bob, name="Frozen")
    waited = _waited(game)
    first = game.deadline
    assert reminders.send_reminders(now=first - timedelta(hours=5)) == 1
    mailoutbox.clear()

    aids.vacation_take(game=game, user=waited, days=1, now=first - timedelta(hours=4))

    game.refresh_from_db()
    assert game.deadline == first + timedelta(days=1)
    assert reminders.send_reminders(now=game.deadline - timedelta(hours=7)) == 0
    assert reminders.send_reminders(now=game.deadline - timedelta(hours=5)) == 1
    assert [m.to for m in mailoutbox] == [[waited.email]]
    assert Notification.objects.filter(kind=Kind.REMINDER, user=waited).count() == 2


@pytest.mark.django_db
def test_the_decisive_waits_reminder_is_a_warning_that_the_next_miss_forfeits(
    alice, bob, make_game, mailoutbox
):
    game = make_game(alice, bob, name="Edge")
    waited = _waited(game)
    _set_missed(game, game.waiting_seats[0], 2)
    mailoutbox.clear()

    assert reminders.send_reminders(now=game.deadline - timedelta(hours=3)) == 1

    mail = mailoutbox[0]
    assert mail.to == [waited.email]
    assert mail.subject == "[Monopoly] Warning: one more missed turn and you are out of “Edge”"
    assert "You have missed 2 turns in a row" in mail.body
    assert "you are out of the game (bankrupt to the bank)" in mail.body
    assert not Notification.objects.filter(kind=Kind.REMINDER).exists()


@pytest.mark.django_db
def test_the_second_miss_in_a_row_warns_at_once(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob, name="Absent", absent_seat="bot", vacation_days=0)
    waited = _waited(game)
    seat = game.waiting_seats[0]
    _set_missed(game, seat, 1)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        game_tasks.process_deadlines()
        game_tasks.process_deadlines()  # (nothing is due any more: no second warning)

    warnings = [m for m in mailoutbox if m.subject.startswith("[Monopoly] Warning:")]
    assert [m.to for m in warnings] == [[waited.email]]
    assert "If you miss the next one too" in warnings[0].body
    assert "a bot takes over your seat" in warnings[0].body


@pytest.mark.django_db
def test_a_seat_handed_to_a_bot_on_the_third_miss_is_told_as_a_forfeit(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob, name="Handover", absent_seat="bot", vacation_days=0)
    waited = _waited(game)
    _set_missed(game, game.waiting_seats[0], 2)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        game_tasks.process_deadlines()

    out = [m for m in mailoutbox if m.to == [waited.email]]
    assert [m.subject for m in out] == ["[Monopoly] You are out of “Handover”"]
    assert "a bot plays your seat from now on" in out[0].body
    assert Notification.objects.get(kind=Kind.FORFEITED).user == waited
