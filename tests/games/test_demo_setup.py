from __future__ import annotations

import importlib.machinery
import io
import sys
import types

import pytest
from allauth.account.models import EmailAddress
from django.core.management import call_command
from django.urls import reverse

from accounts.management.commands import demo_setup
from accounts.models import User


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
def test_demo_game_hook_calls_games_demo_when_it_exists(monkeypatch):
    calls = []
    module = types.ModuleType("games.demo")
    module.__spec__ = importlib.machinery.ModuleSpec("games.demo", None)
    module.create_demo_game = lambda user: calls.append(user) or "game #1"
    monkeypatch.setitem(sys.modules, "games.demo", module)
    user = demo_setup.demo_user_ensure()

    assert demo_setup.demo_game_hook(user) == "game #1"
    assert calls == [user]


def test_demo_game_hook_does_nothing_without_games_demo(monkeypatch):
    monkeypatch.setattr(demo_setup.importlib.util, "find_spec", lambda name: None)

    assert demo_setup.demo_game_hook(object()) is None
