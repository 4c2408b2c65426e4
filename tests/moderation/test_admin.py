"""One path for every sanction (issue 26, item 13): a suspension added in the admin wrote no
audit row and left the account signed in, and the admin deleted chat messages that are only
ever hidden. The admin shows moderation's rows and changes none of them, even for a superuser;
the moderators' pages (moderation/services.py) act."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from moderation import services
from moderation.models import AuditEntry, ChatMessage, Report, Sanction
from tests.factories import UserFactory, add_totp

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(db):
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    add_totp(user)  # staff reach the admin only with a second factor (issue 31)
    return user


def test_the_admin_adds_changes_and_deletes_no_sanction(client, root, mod, bob):
    sanction = services.sanction_create(moderator=mod, user=bob, kind="warn", reason="Be kind")
    client.force_login(root)

    assert client.get(reverse("admin:moderation_sanction_changelist")).status_code == 200
    assert client.get(reverse("admin:moderation_sanction_change", args=[sanction.pk])).status_code == 200
    assert client.get(reverse("admin:moderation_sanction_add")).status_code == 403
    response = client.post(reverse("admin:moderation_sanction_add"),
                           {"user": bob.pk, "kind": "suspend", "reason": "x", "created_at_0": "2026-12-01",
                            "created_at_1": "10:00:00", "until_0": "2027-12-01", "until_1": "10:00:00"})
    assert response.status_code == 403
    response = client.post(reverse("admin:moderation_sanction_change", args=[sanction.pk]),
                           {"user": bob.pk, "kind": "ban", "reason": "x"})
    assert response.status_code == 403
    assert client.post(reverse("admin:moderation_sanction_delete", args=[sanction.pk]),
                       {"post": "yes"}).status_code == 403

    assert list(Sanction.objects.values_list("kind", flat=True)) == ["warn"]
    assert AuditEntry.objects.count() == 1


def test_the_admin_deletes_no_chat_message_and_changes_no_report(client, root, alice, bob, say):
    message = say(bob, "you are terrible")
    report = services.report_create(reporter=alice, reason="abuse", message=message)
    client.force_login(root)

    assert client.get(reverse("admin:moderation_chatmessage_changelist")).status_code == 200
    assert client.post(reverse("admin:moderation_chatmessage_delete", args=[message.pk]),
                       {"post": "yes"}).status_code == 403
    # Nor in bulk: the list offers no delete action.
    response = client.post(reverse("admin:moderation_chatmessage_changelist"),
                           {"action": "delete_selected", "_selected_action": [message.pk], "post": "yes"})
    assert response.status_code in (200, 302, 403)
    assert ChatMessage.objects.filter(pk=message.pk).exists()
    response = client.post(reverse("admin:moderation_report_change", args=[report.pk]),
                           {"state": "resolved", "outcome": "muted", "kind": "message", "reason": "abuse"})
    assert response.status_code == 403
    report.refresh_from_db()
    assert report.state == Report.State.OPEN


def test_a_suspension_through_the_one_path_writes_its_audit_row_and_signs_the_account_out(client, mod, bob):
    client.force_login(bob)
    assert client.get(reverse("moderation:standing")).status_code == 200

    services.sanction_create(moderator=mod, user=bob, kind="suspend", reason="Insults", duration=timedelta(days=3))

    assert AuditEntry.objects.get().action == "suspend"
    response = client.get(reverse("moderation:standing"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
