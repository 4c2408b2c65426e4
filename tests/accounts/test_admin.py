from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory, add_totp


@pytest.mark.django_db
def test_admin_lists_and_edits_users(client, alice):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    add_totp(admin)  # staff need a second factor (issue 31)
    client.force_login(admin)

    changelist = client.get(reverse("admin:accounts_user_changelist"))
    change = client.get(reverse("admin:accounts_user_change", args=[alice.pk]))

    assert changelist.status_code == 200
    assert "alice" in changelist.content.decode()
    assert change.status_code == 200
    assert 'name="time_zone"' in change.content.decode()
