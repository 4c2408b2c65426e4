"""Accounts people can trust (issue 31) in a real chromium: sign-in with an authenticator code
computed in the test, a passkey registered and used through chromium's virtual authenticator
(the DevTools WebAuthn domain), and a moderator turned away until they set a second factor up.
Screenshots of the account pages, desktop and phone, land in test-artifacts/e2e/accounts-*.png."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth.models import Group

from moderation.roles import MODERATORS_GROUP
from tests.factories import DEFAULT_PASSWORD, UserFactory, add_totp, totp_code

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def password_step(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    form = page.locator("main form").first
    form.locator("input[name=login]").fill(username)
    form.locator("input[name=password]").fill(DEFAULT_PASSWORD)
    form.locator("button[type=submit]").first.click()


def open_confirmed(page, url: str) -> None:
    """Open a page that allauth may guard with "enter your password again" first."""
    page.goto(url)
    if "/reauthenticate/" in page.url:
        page.locator("main input[name=password]").fill(DEFAULT_PASSWORD)
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_url(url)


def shoot(page, artifacts, name: str) -> None:
    """The page as a person sees it, at both sizes."""
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(artifacts / f"accounts-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_sign_in_with_an_authenticator_code(browser, site, artifacts):
    alice = UserFactory(username="alice", display_name="Alice")
    secret = add_totp(alice)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        password_step(page, site, "alice")
        page.wait_for_url(f"{site}/accounts/2fa/authenticate/")
        shoot(page, artifacts, "2fa-code")
        page.locator("main input[name=code]").fill(totp_code(secret))
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_url(f"{site}/")

        # Signed in: the account pages of issue 31, for the screenshots.
        for name, path in (
            ("two-factor", "/accounts/2fa/"),
            ("sessions", "/accounts/sessions/"),
            ("data", "/accounts/data/"),
        ):
            page.goto(f"{site}{path}")
            assert page.locator("main h1").count() >= 1
            shoot(page, artifacts, name)
        page.goto(f"{site}/accounts/sessions/")
        assert "This browser" in page.locator("main").inner_text()
    finally:
        context.close()


def test_a_passkey_registered_in_a_virtual_authenticator_signs_in(browser, site, artifacts):
    alice = UserFactory(username="alice", display_name="Alice")
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        authenticator = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )
        authenticator_id = authenticator["authenticatorId"]

        password_step(page, site, "alice")
        page.wait_for_url(f"{site}/")
        open_confirmed(page, f"{site}/accounts/2fa/webauthn/add/?passwordless")
        page.locator("main input[name=name]").fill("Laptop passkey")
        passwordless = page.locator("main input[name=passwordless]")
        if passwordless.count() and not passwordless.is_checked():
            passwordless.check()
        shoot(page, artifacts, "passkey-add")
        page.locator("#mfa_webauthn_add").click()
        page.wait_for_url(lambda url: "/webauthn/add/" not in url)
        key = Authenticator.objects.get(user=alice, type=Authenticator.Type.WEBAUTHN)
        assert key.wrap().is_passwordless  # a passkey: it signs in without the password
        stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})["credentials"]
        assert len(stored) == 1 and stored[0]["isResidentCredential"]

        page.locator("form[action$='/accounts/logout/'] button").first.click()
        page.wait_for_load_state()
        page.goto(f"{site}/accounts/login/")
        shoot(page, artifacts, "login")
        page.locator("#passkey_login").click()
        page.wait_for_url(f"{site}/")
        assert page.locator("main").count() == 1
        page.goto(f"{site}/accounts/settings/")
        assert page.url == f"{site}/accounts/settings/"  # signed in: no redirect to the sign-in page
    finally:
        context.close()


def test_a_moderator_is_turned_away_until_they_set_up_a_second_factor(browser, site, artifacts):
    mona = UserFactory(username="mona", display_name="Mona")
    mona.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        password_step(page, site, "mona")
        page.wait_for_url(f"{site}/accounts/2fa/")  # signing in sends a moderator to the setup
        page.goto(f"{site}/moderation/")
        main = page.locator("main")
        assert "Set up a second factor first" in main.inner_text()
        assert page.locator("main .queue, main table").count() == 0
        shoot(page, artifacts, "second-factor-required")

        main.get_by_role("link", name="Set up two-factor authentication").click()
        page.wait_for_url(f"{site}/accounts/2fa/")
        open_confirmed(page, f"{site}/accounts/2fa/totp/activate/")
        shoot(page, artifacts, "totp-activate")
        assert page.locator("main img[src^='data:image/svg+xml']").count() == 1  # the QR code
        secret = page.locator("#authenticator_secret").input_value()
        page.locator("main input[name=code]").fill(totp_code(secret))
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_url(lambda url: "/totp/activate/" not in url)

        page.goto(f"{site}/moderation/")
        assert "Set up a second factor first" not in page.locator("main").inner_text()
        assert page.locator("main h1").first.is_visible()
        shoot(page, artifacts, "moderation-queue-after-setup")
    finally:
        context.close()
