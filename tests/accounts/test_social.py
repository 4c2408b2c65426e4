"""Sign in with Discord or Google (issue 31, allauth.socialaccount) against a fake OAuth2
provider on localhost (tests/accounts/fake_oauth.py): the buttons only when configured, a new
account from a verified address, an existing account joined only through an address both sides
verified, a state mismatch, a refused consent, an unverified address; a linked Discord account's
user id kept for the game chat's mentions, and gone once unlinked."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
import requests
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from allauth.socialaccount.providers.discord.views import DiscordOAuth2Adapter
from allauth.socialaccount.providers.google.views import GoogleOAuth2Adapter
from django.test import Client
from django.urls import reverse

from accounts.adapters import discord_user_id
from accounts.models import User
from tests.accounts.fake_oauth import FakeProvider
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DISCORD_ME = {
    "id": "80351110224678912",
    "username": "nelly",
    "global_name": "Nelly",
    "email": "nelly@example.com",
    "verified": True,
}
GOOGLE_ME = {
    "id": "108204268033311374519",
    "email": "alice@example.com",
    "email_verified": True,
    "name": "Alice A.",
    "given_name": "Alice",
}
ADAPTERS = {"discord": (DiscordOAuth2Adapter, "profile_url"), "google": (GoogleOAuth2Adapter, "identity_url")}


@pytest.fixture
def provider(settings, monkeypatch):
    """Start a fake provider for ``name`` with ``profile`` and point allauth's adapter at it."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    started = []

    def start(name: str, profile: dict) -> FakeProvider:
        fake = FakeProvider(profile).__enter__()
        started.append(fake)
        adapter, info = ADAPTERS[name]
        monkeypatch.setattr(adapter, "authorize_url", f"{fake.base}/authorize")
        monkeypatch.setattr(adapter, "access_token_url", f"{fake.base}/token")
        monkeypatch.setattr(adapter, info, f"{fake.base}/userinfo")
        settings.SOCIALACCOUNT_PROVIDERS = {
            name: {"APPS": [{"client_id": fake.client_id, "secret": fake.secret}], "SCOPE": ["email"]}
        }
        return fake

    yield start
    for fake in started:
        fake.__exit__(None, None, None)


def _to_provider(client: Client, name: str, fake: FakeProvider) -> str:
    """Press the provider's button: the site sends the browser to the provider's authorise URL."""
    response = client.post(reverse(f"{name}_login"))
    assert response.status_code == 302
    target = response["Location"]
    assert target.startswith(f"{fake.base}/authorize?")
    return target


def _consent(authorize_url: str, **extra: str) -> str:
    """The person answers at the provider, which sends the browser back to the site's callback."""
    if extra:
        authorize_url += "&" + "&".join(f"{k}={v}" for k, v in extra.items())
    back = requests.get(authorize_url, allow_redirects=False, timeout=5)
    assert back.status_code == 302
    url = urlparse(back.headers["Location"])
    return f"{url.path}?{url.query}"


def _signed_in_as(client: Client) -> int | None:
    raw = client.session.get("_auth_user_id")
    return int(raw) if raw else None


def test_the_buttons_show_only_for_configured_providers(client, provider, settings):
    settings.SOCIALACCOUNT_PROVIDERS = {}
    bare = client.get(reverse("account_login")).content.decode()
    provider("discord", DISCORD_ME)
    configured = client.get(reverse("account_login")).content.decode()

    assert reverse("discord_login") not in bare and reverse("google_login") not in bare
    assert reverse("discord_login") in configured and reverse("google_login") not in configured
    assert "Continue with Discord" in configured


def test_a_new_player_signs_up_with_discord_and_its_user_id_is_kept(client, provider):
    fake = provider("discord", DISCORD_ME)

    callback = _consent(_to_provider(client, "discord", fake))
    response = client.get(callback)

    assert response.status_code == 302, response.content.decode()[:2000]
    user = User.objects.get(pk=_signed_in_as(client))
    assert EmailAddress.objects.get(user=user).email == "nelly@example.com"
    assert discord_user_id(user) == "80351110224678912"
    # Nothing else is taken from Discord than the id and the names that show which account it is.
    assert SocialAccount.objects.get(user=user).extra_data == {
        "id": "80351110224678912",
        "username": "nelly",
        "global_name": "Nelly",
    }
    # The code went back to the provider once, with the app's own redirect URI.
    assert fake.token_requests[0]["redirect_uri"][0].endswith(reverse("discord_callback"))


def test_a_verified_address_on_both_sides_joins_the_existing_account(client, alice, provider):
    fake = provider("google", GOOGLE_ME)

    client.get(_consent(_to_provider(client, "google", fake)))

    assert _signed_in_as(client) == alice.pk
    assert SocialAccount.objects.get(user=alice).provider == "google"
    assert User.objects.count() == 1


def test_an_address_the_provider_did_not_verify_joins_nothing(client, alice, provider, mailoutbox):
    fake = provider("google", {**GOOGLE_ME, "email_verified": False})
    mailoutbox.clear()

    response = client.get(_consent(_to_provider(client, "google", fake)), follow=True)

    assert _signed_in_as(client) is None
    assert not SocialAccount.objects.exists() and User.objects.count() == 1
    # The page says what a new address would get (no enumeration); the address's owner is
    # told by e-mail that the account exists, to sign in there and link Google from it.
    assert response.redirect_chain[-1][0] == reverse("account_email_verification_sent")
    [told] = mailoutbox
    assert told.to == ["alice@example.com"] and "already" in told.body and "/accounts/login/" in told.body


def test_an_address_this_site_has_not_confirmed_joins_nothing(client, provider):
    UserFactory(username="alice", email="alice@example.com", verified_email=False)
    fake = provider("google", GOOGLE_ME)

    client.get(_consent(_to_provider(client, "google", fake)), follow=True)

    assert _signed_in_as(client) is None
    assert not SocialAccount.objects.exists() and User.objects.count() == 1


def test_a_state_mismatch_is_refused(client, provider):
    fake = provider("discord", DISCORD_ME)
    callback = _consent(_to_provider(client, "discord", fake))
    path, query = callback.split("?")
    params = {k: v[0] for k, v in parse_qs(query).items()}
    params["state"] = "not-the-state-we-sent"

    response = client.get(path, params)

    assert _signed_in_as(client) is None and not SocialAccount.objects.exists()
    assert response.status_code == 401 and "Third-Party Login Failure" in response.content.decode()
    assert fake.token_requests == []  # the code was never even exchanged


def test_a_refused_consent_signs_nobody_in(client, provider):
    fake = provider("discord", DISCORD_ME)

    response = client.get(_consent(_to_provider(client, "discord", fake), deny="1"))

    assert response.status_code == 302 and response["Location"] == reverse("socialaccount_login_cancelled")
    assert _signed_in_as(client) is None and not SocialAccount.objects.exists()


def test_a_player_links_discord_and_unlinks_it(client, alice, provider):
    fake = provider("discord", {**DISCORD_ME, "email": "alice-on-discord@example.com"})
    client.force_login(alice)

    start = client.post(reverse("discord_login"), {"process": "connect"})
    assert start["Location"].startswith(f"{fake.base}/authorize?")
    client.get(_consent(start["Location"]))
    assert discord_user_id(alice) == "80351110224678912"

    account = SocialAccount.objects.get(user=alice)
    client.post(reverse("socialaccount_connections"), {"account": account.pk})
    assert discord_user_id(alice) is None
