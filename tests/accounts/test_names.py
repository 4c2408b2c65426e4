"""Display names are one per person (issue 26, item 29): "np3bob" for alice made her chat line
read "np3bob: hi, it's me", a full-width "ａｄｍｉｎ" passed for "admin", and a U+202E reversed
the text beside a name. Names are compared NFKC case-folded, against the other accounts'
display names and usernames, and hold no control or invisible characters."""  # noqa: RUF002

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts import services
from accounts.models import User
from accounts.names import name_key
from tests.factories import DEFAULT_PASSWORD, UserFactory, add_totp

pytestmark = pytest.mark.django_db

TAKEN = "Another player has this name, or one that looks the same"


def _set(user: User, name: str) -> None:
    services.user_update_profile(user=user, display_name=name, language=user.language, time_zone=user.time_zone)


@pytest.mark.parametrize("name", [
    "bob",  # bob's username
    "BOB",  # his display name, "Bob", in capitals
    "\uff42\uff4f\uff42",  # full-width "bob"
    "Ｂｏｂ",  # noqa: RUF001 (full-width, the point of the test)
    "b\u200bob",  # a zero-width space inside: refused for that
    " Bob ",
])
def test_another_players_name_or_its_look_alike_is_refused(alice, bob, name):
    with pytest.raises(Exception) as refused:
        _set(alice, name)

    assert "display_name" in refused.value.message_dict
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_full_width_username_is_the_username(alice):
    UserFactory(username="admin", display_name="")
    with pytest.raises(Exception, match=TAKEN):
        _set(alice, "\uff41\uff44\uff4d\uff49\uff4e")  # full-width "admin"
    assert name_key("\uff41\uff44\uff4d\uff49\uff4e") == name_key("ADMIN") == "admin"


@pytest.mark.parametrize("name", ["\u202eevil", "Alice\u202e", "a\u2066b\u2069", "a\u200fb", "nul\x00", "tab\tname",
                                  "line\u2028break", "private\ue000"])
def test_control_and_invisible_characters_are_refused(alice, name):
    with pytest.raises(Exception, match="control or invisible characters"):
        _set(alice, name)
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_ones_own_username_and_new_names_are_fine(alice, bob):
    for name in ("alice", "ALICE", "Alicia", "Ａｌｉｃｅ", "Alice Ω", "أليس"):  # noqa: RUF001
        _set(alice, name)
        alice.refresh_from_db()
        assert alice.display_name == name
    _set(alice, "")
    alice.refresh_from_db()
    assert alice.public_name == "alice"


def test_the_settings_page_says_why_and_changes_nothing(client, alice, bob):
    client.force_login(alice)

    response = client.post(reverse("accounts:profile_update"),
                           {"display_name": "np3bob", "language": "en", "time_zone": "UTC"})
    assert response.status_code == 302  # (nobody's name yet)
    response = client.post(reverse("accounts:profile_update"),
                           {"display_name": "BOB", "language": "es", "time_zone": "UTC"})

    assert response.status_code == 200 and TAKEN in response.content.decode()
    alice.refresh_from_db()
    assert (alice.display_name, alice.language) == ("np3bob", "en")


def test_a_new_account_cannot_take_a_name_in_use(client, alice, bob):
    User.objects.filter(pk=bob.pk).update(display_name="Queen", display_key="queen")
    for username in ("queen", "QUEEN", "\uff41\uff4c\uff49\uff43\uff45"):  # the last: full-width "alice"
        response = client.post(reverse("account_signup"), {
            "email": f"{username.encode().hex()}@example.com", "username": username,
            "password1": DEFAULT_PASSWORD, "password2": DEFAULT_PASSWORD})
        assert response.status_code == 200, username
        assert TAKEN in response.content.decode() or "already" in response.content.decode()
    assert User.objects.count() == 2


def test_the_admin_refuses_a_taken_name_too(client, alice, bob):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    add_totp(root)  # (staff need a second factor to reach the admin: issue 31)
    client.force_login(root)
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    page = client.get(url)
    data = {k: v for k, v in page.context["adminform"].form.initial.items() if v is not None and k != "groups"}
    data.update({"username": "alice", "display_name": "ｂｏｂ", "language": "en", "time_zone": "UTC",  # noqa: RUF001
                 "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    data.pop("user_permissions", None)
    data.pop("last_login", None)

    response = client.post(url, data)

    assert response.status_code == 200 and TAKEN in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_the_database_keeps_display_names_unique_whatever_writes_them(alice, bob):
    alice.display_name = "Ｂｏｂ"  # noqa: RUF001
    with pytest.raises(IntegrityError), transaction.atomic():
        alice.save()


def test_the_migration_keeps_existing_names_valid_and_the_first_holder_keeps_a_name():
    migration = importlib.import_module("accounts.migrations.0002_name_keys")
    # Written as before the migration: no keys, names that are now refused.
    rows = [User(username=u, display_name=d, email=f"{u}@example.com") for u, d in [
        ("bob", "Bob"), ("np3bob", "Bob"), ("alice", "bob"), ("carol", "Ｃａｒｏｌ"),  # noqa: RUF001
        ("dave", "\u202eevad"), ("erin", "Erin"), ("frank", "ERIN"),
    ]]
    User.objects.bulk_create(rows)

    migration.fill_keys(apps, None)

    names = dict(User.objects.values_list("username", "display_name"))
    assert names == {"bob": "Bob", "np3bob": "", "alice": "", "carol": "Ｃａｒｏｌ",  # noqa: RUF001
                     "dave": "", "erin": "Erin", "frank": ""}
    keys = dict(User.objects.values_list("username", "display_key"))
    assert keys["carol"] == "carol" and keys["bob"] == "bob" and keys["np3bob"] == ""
    assert dict(User.objects.values_list("username", "username_key"))["np3bob"] == "np3bob"
