"""The reminder of a correspondence decision at a table with playing hours (RULES.md 16, issue
28): "a quarter of the time left" is counted in playing hours, so a decision due early in the
morning is reminded of the evening before (when that much playing time is left), not at night
when less is, and the sweep does not push it back."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games import services
from games.models import Game
from notifications import reminders
from notifications.models import Kind, Notification
from tests.games.conftest import clock  # noqa: F401 (the simulated clock)

MADRID = ZoneInfo("Europe/Madrid")
pytestmark = pytest.mark.django_db


def test_a_reminder_counts_the_tables_playing_hours(alice, bob, clock):  # noqa: F811
    clock.now = datetime(2026, 3, 2, 12, 0, tzinfo=MADRID)  # a Monday
    table = services.table_create(host=alice, name="Evenings", preset="classic", seat_count=2, turn_hours=12,
                                  playing_hours="08:00-22:00", time_zone="Europe/Madrid", vacation_days=0)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    # Twelve hours of playing time: ten on Monday until 22:00, two on Tuesday from 08:00.
    assert game.deadline == datetime(2026, 3, 3, 10, 0, tzinfo=MADRID)
    # A quarter (3 h) left: Monday 21:00, not Tuesday 07:00 (when only 2 h are left).
    assert game.reminder_at == datetime(2026, 3, 2, 21, 0, tzinfo=MADRID)

    clock.now = datetime(2026, 3, 2, 20, 59, tzinfo=MADRID)
    assert reminders.send_reminders(now=clock.now) == 0
    assert not Notification.objects.exists()
    clock.now = datetime(2026, 3, 2, 21, 0, tzinfo=MADRID)
    reminders.send_reminders(now=clock.now)
    assert Notification.objects.filter(kind__in=[Kind.REMINDER, Kind.FORFEIT_WARNING]).count() == 1


def test_the_sweep_keeps_the_playing_hours_when_the_deadline_moved(alice, bob, clock):  # noqa: F811
    clock.now = datetime(2026, 3, 2, 12, 0, tzinfo=MADRID)
    table = services.table_create(host=alice, name="Evenings", preset="classic", seat_count=2, turn_hours=12,
                                  playing_hours="08:00-22:00", time_zone="Europe/Madrid", vacation_days=0)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    # The moment came early (written before a vacation moved the deadline, say): the sweep
    # writes the new moment, counted in playing hours.
    Game.objects.filter(pk=game.pk).update(reminder_at=clock.now - timedelta(minutes=1))
    assert reminders.send_reminders(now=clock.now) == 0
    game.refresh_from_db()
    assert game.reminder_at == datetime(2026, 3, 2, 21, 0, tzinfo=MADRID)
    assert not Notification.objects.filter(kind=Kind.REMINDER).exists()
