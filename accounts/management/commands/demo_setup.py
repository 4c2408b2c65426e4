"""Create the demo login (idempotently) and, once the games app can, a demo game against bots."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from allauth.account.models import EmailAddress
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_EMAIL = "demo@example.com"


def demo_user_ensure() -> User:
    """The demo user, created or reset so that the printed login always works."""
    with transaction.atomic():
        user, _created = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"email": DEMO_EMAIL, "display_name": "Demo"},
        )
        user.email = DEMO_EMAIL
        user.is_active = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        # Sign-up demands a verified address; the demo account's is verified up front.
        EmailAddress.objects.filter(user=user).exclude(email__iexact=DEMO_EMAIL).delete()
        EmailAddress.objects.update_or_create(
            user=user,
            email=DEMO_EMAIL,
            defaults={"verified": True, "primary": True},
        )
    return user


def demo_game_hook(user: User) -> Any:
    """HOOK for the games app: create the demo game against bots.

    Calls games.demo.create_demo_game(user) when that module exists, and does nothing before.
    """
    if importlib.util.find_spec("games.demo") is None:
        return None
    module = importlib.import_module("games.demo")
    return module.create_demo_game(user)


class Command(BaseCommand):
    help = "Create the demo login demo / demo-password (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        user = demo_user_ensure()
        game = demo_game_hook(user)
        self.stdout.write(
            self.style.SUCCESS(f"Demo login: username {DEMO_USERNAME} / password {DEMO_PASSWORD}")
            + f" (e-mail {DEMO_EMAIL})"
        )
        if game is not None:
            self.stdout.write(f"Demo game: {game}")
