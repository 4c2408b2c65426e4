from __future__ import annotations

import re
import zoneinfo

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from accounts.middleware import UserPreferencesMiddleware


@pytest.mark.django_db
def test_settings_pages_need_a_signed_in_user(client):
    response = client.get(reverse("accounts:profile"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


@pytest.mark.django_db
def test_profile_update_saves_display_name_language_and_time_zone(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("accounts:profile_update"),
        {"display_name": "  Alice the Banker ", "language": "es", "time_zone": "Europe/Madrid"},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    alice.refresh_from_db()
    assert (alice.display_name, alice.language, alice.time_zone) == (
        "Alice the Banker",
        "es",
        "Europe/Madrid",
    )
    # The next page is served in the user's language.
    response = client.get(reverse("games:lobby"))
    assert response["Content-Language"] == "es"


@pytest.mark.django_db
@pytest.mark.parametrize("bad_zone", ["Mars/Olympus_Mons", "../../etc/passwd", ""])
def test_profile_update_refuses_an_unknown_time_zone(client, alice, bad_zone):
    client.force_login(alice)

    response = client.post(
        reverse("accounts:profile_update"),
        {"display_name": "Changed", "language": "ca", "time_zone": bad_zone},
    )

    assert response.status_code == 200
    html = response.content.decode()
    if bad_zone:
        assert "is not a known time zone" in html
    else:
        assert "This field is required" in html
    alice.refresh_from_db()
    assert (alice.display_name, alice.language, alice.time_zone) == ("Alice", "en", "UTC")


@pytest.mark.django_db
def test_profile_update_needs_post(client, alice):
    client.force_login(alice)

    response = client.get(reverse("accounts:profile_update"))

    assert response.status_code == 405


@pytest.mark.django_db
def test_middleware_activates_the_users_language_and_time_zone(alice):
    alice.language = "ca"
    alice.time_zone = "America/Argentina/Buenos_Aires"
    alice.save()
    seen = {}

    def view(request):
        seen["language"] = translation.get_language()
        seen["zone"] = timezone.get_current_timezone()
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = alice
    UserPreferencesMiddleware(view)(request)

    assert seen == {
        "language": "ca",
        "zone": zoneinfo.ZoneInfo("America/Argentina/Buenos_Aires"),
    }
    # The zone does not leak into whatever the thread serves next.
    assert timezone.get_current_timezone_name() == "UTC"


def test_middleware_leaves_anonymous_visitors_on_the_site_zone():
    seen = {}

    def view(request):
        seen["zone"] = timezone.get_current_timezone_name()
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    timezone.activate(zoneinfo.ZoneInfo("Asia/Tokyo"))
    UserPreferencesMiddleware(view)(request)

    assert seen == {"zone": "UTC"}


@pytest.mark.django_db
def test_settings_page_shows_the_form_with_current_values(client, alice):
    client.force_login(alice)

    response = client.get(reverse("accounts:profile"))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Alice"' in html
    assert '<option value="Europe/Madrid">' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url_name", "current_tab"),
    [
        ("accounts:profile", "Profile"),
        ("account_email", "E-mail"),
        ("account_change_password", "Password"),
        ("accounts:delete_confirm", "Delete account"),
    ],
)
def test_settings_pages_share_tabs_and_mark_the_current_one(client, alice, url_name, current_tab):
    client.force_login(alice)

    response = client.get(reverse(url_name))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="tabs"' in html
    assert f'aria-current="page">{current_tab}</a>' in html


def test_the_time_zone_is_a_list_of_current_zones_grouped_by_region(client, alice):
    """Issue 26 item 21: the list offered legacy aliases ("Japan", "Zulu", "Factory")."""
    client.force_login(alice)
    html = client.get(reverse("accounts:profile")).content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', html, re.S).group(1)
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups[:2] == ["UTC", "Africa"] and {"America", "Asia", "Europe", "Pacific"} <= set(groups)
    values = re.findall(r'<option value="([^"]+)"', select)
    for legacy in ("Japan", "Zulu", "Factory", "US/Eastern", "GMT", "Etc/GMT+5", "Asia/Calcutta"):
        assert legacy not in values
    for current in ("UTC", "Europe/Madrid", "Asia/Tokyo", "Asia/Kolkata", "America/Argentina/Buenos_Aires"):
        assert current in values
    assert '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires</option>' in select
    assert '<option value="UTC" selected>UTC</option>' in select


def test_a_legacy_zone_an_account_has_stays_offered_and_saved(client, alice):
    alice.time_zone = "Japan"
    alice.save(update_fields=["time_zone"])
    client.force_login(alice)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert '<option value="Japan" selected>Japan</option>' in html
    client.post(reverse("accounts:profile_update"), {"display_name": "A", "language": "en", "time_zone": "Japan"})
    alice.refresh_from_db()
    assert (alice.display_name, alice.time_zone) == ("A", "Japan")
