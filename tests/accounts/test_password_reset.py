from __future__ import annotations

import re

import pytest
from django.urls import reverse

NEW_PASSWORD = "another-long-passw0rd-for-alice"


@pytest.mark.django_db
def test_password_reset_email_link_sets_a_new_password(client, alice, password, mailoutbox):
    response = client.post(reverse("account_reset_password"), {"email": alice.email})

    assert response.status_code == 302
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == [alice.email]
    assert "password" in message.subject.lower()
    match = re.search(r"https?://testserver(/accounts/password/reset/key/\S+/)", message.body)
    assert match, message.body

    # The key link redirects once to a session-held URL, which shows the new-password form.
    response = client.get(match.group(1), follow=True)
    assert response.status_code == 200
    form_path = response.redirect_chain[-1][0] if response.redirect_chain else match.group(1)
    response = client.post(form_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(password)


@pytest.mark.django_db
def test_password_reset_for_an_unknown_address_changes_nothing(client, alice, password, mailoutbox):
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})

    # No reset link goes anywhere; allauth tells the unknown address that it has no account.
    assert all("/password/reset/key/" not in m.body for m in mailoutbox)
    alice.refresh_from_db()
    assert alice.check_password(password)
