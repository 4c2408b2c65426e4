"""Celery tasks: deadlines and invitations (the notifications' own: tests/notifications/)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import tasks
from games.models import Game, GameAction


@pytest.mark.django_db
def test_process_deadlines_applies_the_timeouts_that_are_due_only(alice, bob, charlie, make_game):
    due = make_game(alice, bob, name="Due", vacation_days=0)
    not_due = make_game(charlie, bob, name="Not due", vacation_days=0)
    Game.objects.filter(pk=due.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    due_version, not_due_version = due.version, not_due.version

    applied = tasks.process_deadlines()

    due.refresh_from_db()
    not_due.refresh_from_db()
    assert applied >= 1
    assert due.version == due_version + 1
    assert GameAction.objects.filter(game=due, source="timeout").exists()
    assert not_due.version == not_due_version
    # A second worker running just after finds nothing left to do.
    assert tasks.process_deadlines() == 0


@pytest.mark.django_db
def test_process_deadlines_goes_on_after_a_broken_game(alice, bob, charlie, make_game, monkeypatch):
    broken = make_game(alice, bob, name="Broken", vacation_days=0)
    fine = make_game(charlie, bob, name="Fine", vacation_days=0)
    past = timezone.now() - timedelta(seconds=5)
    Game.objects.filter(pk=broken.pk).update(deadline=past - timedelta(seconds=1))
    Game.objects.filter(pk=fine.pk).update(deadline=past)
    real = tasks.services.game_timeout

    def game_timeout(*, game_id, now=None, seen_version=None):
        if game_id == broken.pk:
            raise RuntimeError("boom")
        return real(game_id=game_id, now=now, seen_version=seen_version)

    monkeypatch.setattr(tasks.services, "game_timeout", game_timeout)
    version = fine.version

    assert tasks.process_deadlines() >= 1
    fine.refresh_from_db()
    assert fine.version == version + 1


def test_process_deadlines_runs_every_second_on_beat():
    entry = settings.CELERY_BEAT_SCHEDULE["games-process-deadlines"]

    assert entry["task"] == "games.tasks.process_deadlines"
    assert entry["schedule"] == 1.0


@pytest.mark.django_db
def test_send_invitation_emails_the_invite_link(alice, make_table, mailoutbox):
    from games import services

    table = make_table(alice, name="Board night", is_private=True)
    invitation = services.invitation_create(table=table, by=alice, email="dave@example.com").invitation

    tasks.send_invitation(invitation.pk)

    mail = mailoutbox[0]
    assert mail.to == ["dave@example.com"]
    assert "Alice invites you" in mail.subject
    link = f"{settings.SITE_URL}/t/{table.invite_code}/"
    assert link in mail.body and link in mail.alternatives[0][0]
    assert "Create a free account" in mail.body
