"""Create the demo login and its game against bots (idempotently): ``manage.py demo_setup``,
which bin/run calls on every start."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.demo import DEMO_EMAIL, DEMO_PASSWORD, DEMO_USERNAME, create_demo_game, demo_user_ensure


class Command(BaseCommand):
    help = "Create the demo login demo / demo-password and its game against bots (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        user = demo_user_ensure()
        game = create_demo_game(user)
        self.stdout.write(
            self.style.SUCCESS(f"Demo login: username {DEMO_USERNAME} / password {DEMO_PASSWORD}")
            + f" (e-mail {DEMO_EMAIL})"
        )
        self.stdout.write(f"Demo game: {game}")
