"""Web Push in a real browser: with a VAPID key, the notification settings register the site's
service worker for the whole site (scope "/") and offer the switch, under the strict CSP; the
subscription itself needs a real push service, which tests/notifications/test_push.py fakes.
The same page tells a user whose address bounced, with the way to confirm it again."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings as django_settings
from django.test import Client

from notifications.models import Undeliverable

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_settings_register_the_service_worker_offer_push_and_tell_of_a_bounce(
    browser, site, artifacts, bob, settings, width
):
    key = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32, "big")
    settings.VAPID_PRIVATE_KEY = base64.urlsafe_b64encode(key).rstrip(b"=").decode()
    Undeliverable.objects.create(email=bob.email, reason=Undeliverable.Reason.BOUNCED)
    client = Client()
    client.force_login(bob)
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + "/notifications/settings/")
        banner = page.locator(".undeliverable")
        assert banner.is_visible() and f"Your address {bob.email} bounced on" in banner.inner_text()
        assert page.get_by_role("button", name="Send me a confirmation link").is_visible()
        section = page.locator("[data-push]")
        section.wait_for(state="visible")
        assert page.get_by_role("button", name="Turn on in this browser").is_visible()
        assert page.locator("[data-push-status]").inner_text() == "This browser does not show your notifications."
        scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r ? r.scope : null)")
        assert scope == site + "/"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(artifacts / f"push-settings-{width}.png"), full_page=True)
    finally:
        context.close()
