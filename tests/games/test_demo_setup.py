from __future__ import annotations

import io

import pytest
from allauth.account.models import EmailAddress
from django.core.management import call_command, get_commands
from django.urls import reverse

from accounts.models import User
from games.models import Game


@pytest.mark.django_db
def test_demo_setup_creates_a_verified_demo_login_and_is_idempotent(client):
    out = io.StringIO()
    call_command("demo_setup", stdout=out)
    call_command("demo_setup", stdout=out)

    assert "demo-password" in out.getvalue()
    user = User.objects.get(username="demo")
    assert User.objects.filter(username="demo").count() == 1
    assert EmailAddress.objects.filter(user=user).count() == 1
    assert EmailAddress.objects.get(user=user).verified
    response = client.post(reverse("account_login"), {"login": "demo", "password": "demo-password"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db
def test_demo_setup_restores_a_changed_demo_password():
    call_command("demo_setup", stdout=io.StringIO())
    user = User.objects.get(username="demo")
    user.set_password("something-else")
    user.save()

    call_command("demo_setup", stdout=io.StringIO())

    user.refresh_from_db()
    assert user.check_password("demo-password")


@pytest.mark.django_db
def test_demo_setup_is_the_games_apps_command_and_makes_the_demo_game_once():
    out = io.StringIO()
    call_command("demo_setup", stdout=out)
    call_command("demo_setup", stdout=out)

    assert get_commands()["demo_setup"] == "games"
    user = User.objects.get(username="demo")
    games = Game.objects.filter(table__host=user, status=Game.Status.ACTIVE)
    assert games.count() == 1
    assert f"Demo game: {games.get()}" in out.getvalue()
