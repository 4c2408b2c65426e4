from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts import services
from accounts.models import User


@pytest.mark.django_db
def test_delete_with_a_wrong_password_is_refused_and_changes_nothing(client, alice):
    client.force_login(alice)

    response = client.post(reverse("accounts:delete"), {"password": "not-my-password"})

    assert response.status_code == 200
    assert "That password is not correct." in response.content.decode()
    assert User.objects.filter(pk=alice.pk).exists()
    assert EmailAddress.objects.filter(user=alice).exists()
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
def test_delete_with_the_password_removes_the_account_and_signs_out(client, alice, bob, password):
    client.force_login(alice)

    response = client.post(reverse("accounts:delete"), {"password": password})

    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert not User.objects.filter(pk=alice.pk).exists()
    assert not EmailAddress.objects.filter(email=alice.email).exists()
    assert "_auth_user_id" not in client.session
    assert User.objects.filter(pk=bob.pk).exists()
    assert (
        client.post(reverse("account_login"), {"login": "alice", "password": password}).status_code
        == 200
    )


@pytest.mark.django_db
def test_delete_confirmation_page_asks_for_the_password(client, alice):
    client.force_login(alice)

    response = client.get(reverse("accounts:delete_confirm"))

    assert response.status_code == 200
    assert 'type="password"' in response.content.decode()


@pytest.mark.django_db
def test_delete_needs_post(client, alice):
    client.force_login(alice)

    assert client.get(reverse("accounts:delete")).status_code == 405
    assert User.objects.filter(pk=alice.pk).exists()


@pytest.mark.django_db
def test_user_delete_service_refuses_a_user_without_a_usable_password(alice):
    alice.set_unusable_password()
    alice.save()

    with pytest.raises(ValidationError):
        services.user_delete(user=alice, password="")

    assert User.objects.filter(pk=alice.pk).exists()
