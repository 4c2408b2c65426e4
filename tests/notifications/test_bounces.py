"""Production sending and deliverability (issue 14): the provider chosen by environment
variables (django-anymail), its bounce and complaint webhooks (authorised by basic auth, Mailgun's
also signed) marking the address undeliverable, nothing e-mailed to it until its owner confirms it
again through allauth's e-mail confirmation, and the settings page saying so."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
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
MANDRILL_KEY = "mandrill-webhook-key-for-the-test"
MANDRILL_URL = "https://example.com/anymail/mandrill/tracking/"


@pytest.fixture
def webhooks(settings):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": SECRET,
                        "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY,
                        "MANDRILL_WEBHOOK_KEY": MANDRILL_KEY, "MANDRILL_WEBHOOK_URL": MANDRILL_URL}


def _auth(secret: str = SECRET) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


def _postmark_bounce(email: str, kind: str = "HardBounce", *, inactive: bool = True,
                     record: str = "Bounce") -> str:
    return json.dumps({
        "RecordType": record, "Type": kind, "TypeCode": 1, "ID": 42, "MessageID": "abc-123",
        "Email": email, "Description": "The server was unable to deliver your message",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "BouncedAt": "2026-12-01T10:00:00Z", "Inactive": inactive, "Tag": "", "Metadata": {},
    })


def _mailgun_event(email: str, event: str, *, key: str = SIGNING_KEY, **data: str) -> str:
    timestamp, token = "1796119200", "a" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return json.dumps({
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": {"event": event, "recipient": email, "timestamp": 1796119200.0, "id": "ev1",
                       "message": {"headers": {"message-id": "m1@example.com"}}, **data},
    })


def _invitation_item(user, table_invitation_pk: int, n: int) -> list:
    return [Kind.INVITATION, user.pk, f"inv{n}", None, {"invitation": table_invitation_pk}]


@pytest.mark.django_db
def test_a_postmark_bounce_stops_the_e_mails_to_that_address(
    client, alice, bob, make_table, mailoutbox, webhooks, settings
):
    from games import services

    settings.EMAIL_PROVIDER = "postmark"

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
def test_a_signed_mailgun_complaint_marks_the_address_and_a_forged_one_does_not(client, bob, webhooks, settings):
    settings.EMAIL_PROVIDER = "mailgun"
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


def _brevo_event(email: str, event: str) -> str:
    return json.dumps({"event": event, "email": email, "id": 1, "date": "2026-12-01 10:00:00",
                       "message-id": "<m1@example.com>", "reason": "550 or 452: what the server said",
                       "ts_event": 1796119200})


def _sendgrid_event(email: str, event: str, **data: str) -> str:
    return json.dumps([{"event": event, "email": email, "timestamp": 1796119200, "sg_event_id": "e1",
                        "sg_message_id": "m1", "reason": "what the server said", **data}])


def _sparkpost_bounce(email: str, bounce_class: str) -> str:
    return json.dumps([{"msys": {"message_event": {
        "type": "bounce", "bounce_class": bounce_class, "raw_rcpt_to": email, "rcpt_to": email,
        "timestamp": "1796119200", "transmission_id": "t1", "event_id": "e1", "raw_reason": "what the server said",
    }}}])


def _mandrill_post(email: str, event: str) -> dict[str, str]:
    events = json.dumps([{"event": event, "ts": 1796119200, "_id": "m1",
                          "msg": {"email": email, "diag": "what the server said", "metadata": {}, "tags": []}}])
    signed = f"{MANDRILL_URL}mandrill_events{events}"
    signature = base64.b64encode(hmac.new(MANDRILL_KEY.encode(), signed.encode(), hashlib.sha1).digest()).decode()
    return {"data": {"mandrill_events": events}, "HTTP_X_MANDRILL_SIGNATURE": signature}


# (provider, what it posts, whether the address is marked): a soft bounce, a delay, a receiver's
# block or a timeout says nothing about the address; a hard bounce, a complaint and what the
# provider itself treats as permanent do.
def _case(name: str, provider: str, payload, marked: str | None):
    return pytest.param(provider, payload, marked, id=f"{provider}-{name}")


B, C, R = Undeliverable.Reason.BOUNCED, Undeliverable.Reason.COMPLAINED, Undeliverable.Reason.REJECTED
PROVIDER_EVENTS = [
    _case("soft-bounce", "postmark", lambda e: _postmark_bounce(e, "SoftBounce", inactive=False), None),
    _case("transient", "postmark", lambda e: _postmark_bounce(e, "Transient", inactive=False), None),
    _case("dns-error", "postmark", lambda e: _postmark_bounce(e, "DnsError", inactive=False), None),
    _case("virus", "postmark", lambda e: _postmark_bounce(e, "VirusNotification", inactive=False), None),
    _case("isp-block", "postmark", lambda e: _postmark_bounce(e, "Blocked", inactive=False), None),
    _case("spam-filter", "postmark", lambda e: _postmark_bounce(e, "SpamNotification", inactive=False), None),
    _case("hard-bounce", "postmark", lambda e: _postmark_bounce(e, "HardBounce"), B),
    _case("complaint", "postmark", lambda e: _postmark_bounce(e, "SpamComplaint", record="SpamComplaint"), C),
    _case("bad-address", "postmark", lambda e: _postmark_bounce(e, "BadEmailAddress"), R),
    # A soft bounce for which Postmark deactivated the address: it calls that permanent.
    _case("deactivating-soft-bounce", "postmark", lambda e: _postmark_bounce(e, "SoftBounce", inactive=True), B),
    _case("temporary", "mailgun", lambda e: _mailgun_event(e, "failed", severity="temporary", reason="generic"),
          None),
    _case("permanent", "mailgun", lambda e: _mailgun_event(e, "failed", severity="permanent", reason="bounce"), B),
    _case("soft-bounce", "brevo", lambda e: _brevo_event(e, "soft_bounce"), None),
    _case("deferred", "brevo", lambda e: _brevo_event(e, "deferred"), None),
    _case("hard-bounce", "brevo", lambda e: _brevo_event(e, "hard_bounce"), B),
    _case("spam", "brevo", lambda e: _brevo_event(e, "spam"), C),
    _case("blocked-bounce", "sendgrid", lambda e: _sendgrid_event(e, "bounce", type="blocked"), None),
    _case("deferred", "sendgrid", lambda e: _sendgrid_event(e, "deferred"), None),
    _case("expired", "sendgrid", lambda e: _sendgrid_event(e, "dropped", reason="Expired"), None),
    _case("bounce", "sendgrid", lambda e: _sendgrid_event(e, "bounce", type="bounce"), B),
    _case("bounced-address", "sendgrid", lambda e: _sendgrid_event(e, "dropped", reason="Bounced Address"), R),
    _case("spam-report", "sendgrid", lambda e: _sendgrid_event(e, "spamreport"), C),
    _case("mailbox-full", "sparkpost", lambda e: _sparkpost_bounce(e, "22"), None),
    _case("timeout", "sparkpost", lambda e: _sparkpost_bounce(e, "24"), None),
    _case("receiver-block", "sparkpost", lambda e: _sparkpost_bounce(e, "50"), None),
    _case("invalid-recipient", "sparkpost", lambda e: _sparkpost_bounce(e, "10"), B),
    _case("soft-bounce", "mandrill", lambda e: _mandrill_post(e, "soft_bounce"), None),
    _case("hard-bounce", "mandrill", lambda e: _mandrill_post(e, "hard_bounce"), B),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("provider", "payload", "marked"), PROVIDER_EVENTS)
def test_only_hard_bounces_complaints_and_permanent_refusals_mark_the_address(
    client, bob, webhooks, provider, payload, marked, settings
):
    settings.EMAIL_PROVIDER = provider
    url = reverse(f"anymail:{provider}_tracking_webhook")
    body = payload(bob.email)
    if isinstance(body, dict):  # (Mandrill posts a form, signed)
        response = client.post(url, body["data"], HTTP_X_MANDRILL_SIGNATURE=body["HTTP_X_MANDRILL_SIGNATURE"],
                               **_auth())
    else:
        response = client.post(url, body, content_type="application/json", **_auth())

    assert response.status_code == 200
    assert list(Undeliverable.objects.values_list("email", "reason")) == ([(bob.email, marked)] if marked else [])


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


@pytest.mark.django_db
@pytest.mark.parametrize("configured", ["", "mailgun", "postmark"])
def test_anonymous_posts_to_the_webhooks_are_refused_without_a_server_error(client, bob, caplog, settings,
                                                                            configured):
    """Issue 26: Mailgun's and Mandrill's webhooks, their signing keys unset, raised anymail's
    configuration error at each anonymous POST (a 500 and a traceback); the others logged a
    traceback for the missing secret. Only the provider the site sends through is served (404
    for the others, and for it too while its settings are incomplete); it refuses the POST (400)
    with one line in the log."""
    settings.EMAIL_PROVIDER = configured
    providers = ["mailgun", "mandrill", "postmark", "sendgrid", "brevo", "sparkpost", "mailersend", "postal",
                 "unisender_go", "amazon_ses", "sendinblue", "mailjet", "resend", "mailtrap"]
    expected = {name: 404 for name in providers}
    if configured == "postmark":
        expected["postmark"] = 400  # served, and the POST has no secret
    for provider in providers:
        for body in (_postmark_bounce(bob.email), _mailgun_event(bob.email, "complained"), "{}"):
            response = client.post(f"/anymail/{provider}/tracking/", body, content_type="application/json")
            assert response.status_code == expected[provider], provider

    assert not Undeliverable.objects.exists()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
