"""The ratings rows in the admin: listed for staff, never edited there (they come from records)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings import services
from tests.factories import add_totp

pytestmark = pytest.mark.django_db

MODELS = ("rating", "gameresult", "progress", "achievement", "questcompletion", "rematch")


def test_staff_see_every_ratings_list_and_cannot_add(client, finished_game, alice, bob, django_user_model):
    services.game_result_record(game_id=finished_game([alice, bob], seed=1).pk)
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    add_totp(admin)  # staff need a second factor (issue 31)
    client.force_login(admin)
    for model in MODELS:
        assert client.get(reverse(f"admin:ratings_{model}_changelist")).status_code == 200
        assert client.get(reverse(f"admin:ratings_{model}_add")).status_code == 403
