from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory, add_totp


@pytest.fixture
def staff_client(client, db):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    add_totp(admin)  # staff need a second factor (issue 31)
    client.force_login(admin)
    return client


@pytest.mark.django_db
def test_admin_lists_and_shows_tables_and_games_read_only(staff_client, alice, bob, make_game):
    game = make_game(alice, bob, name="Admin view")
    pages = [
        reverse("admin:games_table_changelist"),
        reverse("admin:games_table_change", args=[game.table_id]),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_gameaction_changelist"),
        reverse("admin:games_deedrow_changelist"),
        reverse("admin:games_traderow_changelist"),
        reverse("admin:games_auctionrow_changelist"),
        reverse("admin:games_deckrow_changelist"),
    ]
    for url in pages:
        assert staff_client.get(url).status_code == 200, url

    game_page = staff_client.get(
        reverse("admin:games_game_change", args=[game.pk])
    ).content.decode()
    assert 'name="_save"' not in game_page
    assert staff_client.get(reverse("admin:games_game_add")).status_code == 403
    assert staff_client.get(reverse("admin:games_gameaction_add")).status_code == 403
