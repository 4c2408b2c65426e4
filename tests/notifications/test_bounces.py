"""Production sending and deliverability (issue 14): the provider chosen by environment
variables (django-anymail), its bounce and complaint webhooks (authorised by basic auth, Mailgun's
also signed) marking the address undeliverable, nothing e-mailed to it until its owner confirms it
again through allauth's e-mail confirmation, and the settings page saying so."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from notifications.models import Kind, Notification, Undeliverable
from notifications.services import notify

ROOT = Path(__file__).resolve().parents[2]
SECRET = "hooks:s3cret-for-the-test"
SIGNING_KEY = "mailgun-signing-key-for-the-test"


@pytest.fixture
def webhooks(settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET,
                        "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def _auth(secret: str = SECRET) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


def _postmark_bounce(email: str) -> str:
    return json.dumps({
        "RecordType": "Bounce", "Type": "HardBounce", "TypeCode": 1, "ID": 42, "MessageID": "abc-123",
        "Email": email, "Description": "The server was unable to deliver your message",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "BouncedAt": "2026-12-01T10:00:00Z", "Inactive": True, "Tag": "", "Metadata": {},
    })


def _mailgun_event(email: str, event: str, *, key: str = SIGNING_KEY) -> str:
    timestamp, token = "1796119200", "a" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return json.dumps({
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": {"event": event, "recipient": email, "timestamp": 1796119200.0, "id": "ev1",
                       "message": {"headers": {"message-id": "m1@example.com"}}},
    })


def _invitation_item(user, table_invitation_pk: int, n: int) -> list:
    return [Kind.INVITATION, user.pk, f"inv{n}", None, {"invitation": table_invitation_pk}]


@pytest.mark.django_db
def test_a_postmark_bounce_stops_the_e_mails_to_that_address(
    client, alice, bob, make_table, mailoutbox, webhooks
):
    from games import services

    url = reverse("anymail:postmark_tracking_webhook")
    # Without the basic-auth secret, or with a wrong one: refused, nothing marked.
    assert client.post(url, _postmark_bounce(bob.email), content_type="application/json").status_code in (400, 401, 403)
    assert client.post(url, _postmark_bounce(bob.email), content_type="application/json",
                       **_auth("hooks:guess")).status_code in (400, 401, 403)
    assert not Undeliverable.objects.exists()

    response = client.post(url, _postmark_bounce(bob.email.upper()), content_type="application/json", **_auth())
    assert response.status_code == 200
    row = Undeliverable.objects.get()
    assert (row.email, row.reason) == (bob.email, Undeliverable.Reason.BOUNCED)

    invitation = services.invitation_create(table=make_table(alice, name="Private", is_private=True),
                                            by=alice, email=bob.email).invitation
    mailoutbox.clear()
    assert notify(game_id=None, items=[_invitation_item(bob, invitation.pk, invitation.pk)]) == 0
    assert mailoutbox == []
    assert Notification.objects.get(user=bob).status == Notification.Status.BOUNCED


@pytest.mark.django_db
def test_a_signed_mailgun_complaint_marks_the_address_and_a_forged_one_does_not(client, bob, webhooks):
    url = reverse("anymail:mailgun_tracking_webhook")

    forged = client.post(url, _mailgun_event(bob.email, "complained", key="not-the-key"),
                         content_type="application/json", **_auth())
    assert forged.status_code == 400
    assert not Undeliverable.objects.exists()

    # A delivery is no bad news: nothing marked.
    assert client.post(url, _mailgun_event(bob.email, "delivered"), content_type="application/json",
                       **_auth()).status_code == 200
    assert not Undeliverable.objects.exists()

    assert client.post(url, _mailgun_event(bob.email, "complained"), content_type="application/json",
                       **_auth()).status_code == 200
    assert Undeliverable.objects.get().reason == Undeliverable.Reason.COMPLAINED


@pytest.mark.django_db
def test_the_settings_page_says_the_address_bounced_and_confirming_it_again_lifts_the_mark(
    client, bob, mailoutbox
):
    Undeliverable.objects.create(email=bob.email, reason=Undeliverable.Reason.BOUNCED)
    client.force_login(bob)

    page = client.get(reverse("notifications:preferences")).content.decode()
    assert f"Your address {bob.email} bounced on" in page
    assert "Send me a confirmation link" in page

    mailoutbox.clear()
    response = client.post(reverse("notifications:reconfirm"), follow=True)
    assert "We have sent a confirmation link to" in response.content.decode()
    assert [m.to for m in mailoutbox] == [[bob.email]]
    assert not EmailAddress.objects.get(user=bob).verified
    link = re.search(r"https?://testserver(/accounts/confirm-email/\S+/)", mailoutbox[0].body).group(1)

    client.post(link)

    assert EmailAddress.objects.get(user=bob).verified
    assert not Undeliverable.objects.exists()
    page = client.get(reverse("notifications:preferences")).content.decode()
    assert "bounced on" not in page


@pytest.mark.django_db
def test_reconfirming_an_address_that_did_not_bounce_sends_nothing(client, bob, mailoutbox):
    client.force_login(bob)
    mailoutbox.clear()

    response = client.post(reverse("notifications:reconfirm"), follow=True)

    assert "nothing to confirm" in response.content.decode()
    assert mailoutbox == []
    assert EmailAddress.objects.get(user=bob).verified


@pytest.mark.django_db
def test_notifications_go_out_through_anymails_backend(alice, bob, make_table, mailoutbox, settings):
    from games import services

    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    invitation = services.invitation_create(table=make_table(alice, name="Private", is_private=True),
                                            by=alice, email=bob.email).invitation
    mailoutbox.clear()

    assert notify(game_id=None, items=[_invitation_item(bob, invitation.pk, invitation.pk)]) == 1

    message = mailoutbox[0]
    assert message.anymail_status.status == {"sent"}
    params = message.anymail_test_params
    assert params["to"][0].addr_spec == bob.email
    assert params["extra_headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def _settings_of(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("EMAIL_", "ANYMAIL_")) and k not in {"DEBUG", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.EMAIL_BACKEND); print(sorted(s.ANYMAIL))"],
        cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=60)


def test_the_provider_is_chosen_by_environment_variables():
    chosen = _settings_of(EMAIL_PROVIDER="postmark", EMAIL_PROVIDER_KEY="pm-token",
                          ANYMAIL_WEBHOOK_SECRET=SECRET, DEBUG="false", SECRET_KEY="x" * 50)
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.splitlines() == ["anymail.backends.postmark.EmailBackend",
                                          "['POSTMARK_SERVER_TOKEN', 'WEBHOOK_SECRET']"]

    smtp = _settings_of(EMAIL_HOST="smtp.example.com")
    assert smtp.stdout.splitlines()[0] == "django.core.mail.backends.smtp.EmailBackend"

    without_key = _settings_of(EMAIL_PROVIDER="mailgun")
    assert without_key.returncode != 0 and "EMAIL_PROVIDER_KEY" in without_key.stderr
    unknown = _settings_of(EMAIL_PROVIDER="pigeon")
    assert unknown.returncode != 0 and "EMAIL_PROVIDER" in unknown.stderr
    no_secret = _settings_of(EMAIL_PROVIDER="sendgrid", EMAIL_PROVIDER_KEY="k", DEBUG="false", SECRET_KEY="x" * 50)
    assert no_secret.returncode != 0 and "ANYMAIL_WEBHOOK_SECRET" in no_secret.stderr
