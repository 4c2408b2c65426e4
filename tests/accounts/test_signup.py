from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from accounts.models import User

NEW_PASSWORD = "a-long-and-unusual-passw0rd"


def _signup(client: Client, **extra: str) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
        **extra,
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert response["Location"] == reverse("account_email_verification_sent")


def _confirmation_path(body: str) -> str:
    match = re.search(r"https?://testserver(/accounts/confirm-email/\S+/)", body)
    assert match, body
    return match.group(1)


@pytest.mark.django_db
def test_signup_sends_verification_email_and_login_waits_for_it(client, mailoutbox):
    _signup(client)

    assert "_auth_user_id" not in client.session
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["dora@example.com"]
    assert "confirm" in message.subject.lower()
    path = _confirmation_path(message.body)
    # The same link is in the HTML alternative.
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert path in html

    # Before confirming, a correct password does not sign in; allauth re-sends the link.
    response = client.post(reverse("account_login"), {"login": "dora", "password": NEW_PASSWORD})
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not EmailAddress.objects.get(email="dora@example.com").verified

    # Following the e-mailed link shows a confirmation page; confirming verifies the address.
    assert client.get(path).status_code == 200
    response = client.post(path)
    assert response.status_code == 302
    assert EmailAddress.objects.get(email="dora@example.com").verified

    client.logout()
    response = client.post(reverse("account_login"), {"login": "dora", "password": NEW_PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="dora").pk)


@pytest.mark.django_db
def test_signup_remembers_the_language_the_visitor_browsed_in(client):
    _signup(client, HTTP_ACCEPT_LANGUAGE="ca")

    assert User.objects.get(username="dora").language == "ca"


@pytest.mark.django_db
def test_signup_refuses_an_email_already_in_use(client, alice, mailoutbox):
    response = client.post(
        reverse("account_signup"),
        {
            "email": alice.email,
            "username": "alice2",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )

    # allauth prevents account enumeration: the page looks like success, no account is made,
    # and the owner of the address is told by e-mail.
    assert not User.objects.filter(username="alice2").exists()
    assert response.status_code == 302
    assert [m.to for m in mailoutbox] == [[alice.email]]
