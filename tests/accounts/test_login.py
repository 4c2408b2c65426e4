from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize("login", ["alice", "alice@example.com", "ALICE@example.com"])
def test_login_by_username_or_email(client, alice, password, login):
    response = client.post(reverse("account_login"), {"login": login, "password": password})

    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
def test_login_with_a_wrong_password_is_refused(client, alice):
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "not correct" in response.content.decode()


@pytest.mark.django_db
def test_logout_needs_a_post_and_signs_out(client, alice):
    client.force_login(alice)

    response = client.post(reverse("account_logout"))

    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_page_uses_the_site_layout(client):
    response = client.get(reverse("account_login"))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="site-header"' in html
    assert "css/site.css" in html
    assert 'name="login"' in html


@pytest.mark.django_db
def test_password_change_takes_the_old_password(client, alice, password):
    client.force_login(alice)
    new = "a-brand-new-passw0rd-for-alice"

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": new, "password2": new},
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)


@pytest.mark.django_db
def test_email_change_sends_a_confirmation_to_the_new_address(client, alice, mailoutbox):
    client.force_login(alice)

    response = client.post(reverse("account_email"), {"action_add": "", "email": "al@example.org"})

    assert response.status_code == 302
    assert [m.to for m in mailoutbox] == [["al@example.org"]]
    # The old address stays the primary one until the new one is confirmed.
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
