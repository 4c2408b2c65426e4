"""A moderator's action resolves only a report about what it acts on, and reports about
moderators or staff are for staff (issue 26, item 12: a report about a member of staff was
resolved as "muted" when bob was muted citing it, and one moderator could dismiss a report
about another)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from moderation import selectors, services
from moderation.models import AuditEntry, Report, Sanction
from tests.games.play_helpers import start_game
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture
def staff_mod(db) -> User:
    """A moderator who is also staff: reports about moderators and staff are theirs."""
    user = make_moderator("sam")
    User.objects.filter(pk=user.pk).update(is_staff=True)
    return User.objects.get(pk=user.pk)


def _untouched(report: Report) -> None:
    report.refresh_from_db()
    assert report.state == Report.State.OPEN and report.outcome == ""
    assert not AuditEntry.objects.exclude(action=AuditEntry.Action.CLAIM).exists()


def test_an_account_action_does_not_resolve_a_report_about_someone_else(client, mod, alice, bob, charlie):
    report = services.report_create(reporter=alice, reason="abuse", target=charlie)

    for act in (
        lambda: services.sanction_create(moderator=mod, user=bob, kind="mute", reason="x", duration=DAY, report=report),
        lambda: services.sanction_create(moderator=mod, user=bob, kind="warn", reason="x", report=report),
        lambda: services.user_reset_display_name(moderator=mod, user=bob, reason="x", report=report),
    ):
        with pytest.raises(services.ModerationError, match="about someone or something else"):
            act()
    assert not Sanction.objects.exists()
    bob.refresh_from_db()
    assert bob.display_name == "Bob"
    _untouched(report)

    # Through the page too: refused, nothing written.
    client.force_login(mod)
    response = client.post(reverse("moderation:account_act", args=[bob.pk]),
                           {"action": "mute", "duration": "1d", "reason": "x", "report": report.pk, "key": "k" * 20},
                           follow=True)
    assert "about someone or something else" in response.content.decode()
    assert not Sanction.objects.exists()
    _untouched(report)

    # The report's own target: resolved.
    services.sanction_create(moderator=mod, user=charlie, kind="mute", reason="x", duration=DAY, report=report)
    report.refresh_from_db()
    assert report.state == Report.State.RESOLVED and report.outcome == "muted"


def test_hiding_a_message_does_not_resolve_a_report_about_another_message(mod, alice, bob, game, say):
    reported = say(bob, "you are terrible")
    other = say(alice, "calm down")
    report = services.report_create(reporter=alice, reason="abuse", message=reported)

    with pytest.raises(services.ModerationError, match="about someone or something else"):
        services.message_set_hidden(moderator=mod, message=other, hidden=True, reason="x", report=report)
    other.refresh_from_db()
    assert other.hidden_at is None
    _untouched(report)

    services.message_set_hidden(moderator=mod, message=reported, hidden=True, reason="x", report=report)
    report.refresh_from_db()
    assert report.outcome == "hidden"


def test_a_game_action_does_not_resolve_a_report_about_another_game_or_player(mod, alice, bob, charlie, game):
    other_game = start_game(alice, charlie, pace="correspondence")
    about_other_game = services.report_create(reporter=alice, reason="stalling", game=other_game)
    about_charlie = services.report_create(reporter=alice, reason="stalling", target=charlie)

    with pytest.raises(services.ModerationError, match="about someone or something else"):
        services.game_close(moderator=mod, game=game, reason="x", report=about_other_game)
    with pytest.raises(services.ModerationError, match="about someone or something else"):
        services.game_remove_player(moderator=mod, game=game, user=bob, reason="x", report=about_charlie)
    game.refresh_from_db()
    assert game.status == "active"
    _untouched(about_other_game)
    _untouched(about_charlie)


def test_reports_about_moderators_and_staff_are_for_staff_only(client, mod, mod2, staff, staff_mod, alice, bob):
    about_mod = services.report_create(reporter=alice, reason="abuse", target=mod)
    about_staff = services.report_create(reporter=alice, reason="abuse", target=staff)
    about_bob = services.report_create(reporter=alice, reason="abuse", target=bob)

    # Another moderator neither sees them nor dismisses them.
    client.force_login(mod2)
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert reverse("moderation:report", args=[about_bob.pk]) in queue
    for report in (about_mod, about_staff):
        assert reverse("moderation:report", args=[report.pk]) not in queue
        assert client.get(reverse("moderation:report", args=[report.pk])).status_code == 403
        assert client.post(reverse("moderation:report_claim", args=[report.pk])).status_code == 403
        assert client.post(reverse("moderation:report_resolve", args=[report.pk]),
                           {"outcome": "no_action", "note": "my friend"}).status_code == 403
        with pytest.raises(services.NotPermitted):
            services.report_resolve(moderator=mod2, report=report, outcome="no_action", note="my friend")
        _untouched(report)
    assert selectors.open_report_count(viewer=mod2) == 1

    # A moderator who is staff sees and resolves them (but not one about themselves).
    assert selectors.open_report_count(viewer=staff_mod) == 3
    client.force_login(staff_mod)
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert reverse("moderation:report", args=[about_mod.pk]) in queue
    response = client.post(reverse("moderation:report_resolve", args=[about_mod.pk]),
                           {"outcome": "no_action", "note": "Looked at the chat: fine"})
    assert response.status_code == 302
    about_mod.refresh_from_db()
    assert about_mod.state == Report.State.RESOLVED and about_mod.resolved_by == staff_mod
    about_self = services.report_create(reporter=alice, reason="abuse", target=staff_mod)
    with pytest.raises(services.NotPermitted):
        services.report_resolve(moderator=staff_mod, report=about_self, outcome="no_action", note="me? no")
