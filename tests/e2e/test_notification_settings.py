"""Notification settings and the one-click unsubscribe page in a browser, at desktop and phone
widths (screenshots in test-artifacts/e2e/)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from notifications.models import Kind, Mode, Preference
from notifications.services import unsubscribe_token

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _context(browser, width: int):
    return browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_player_sets_each_kind_in_the_account_settings(browser, site, artifacts, alice, width):
    client = Client()
    client.force_login(alice)
    context = _context(browser, width)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + "/notifications/settings/")
        page.get_by_role("heading", name="Notifications").wait_for()
        page.screenshot(path=str(artifacts / f"notification-settings-{width}.png"), full_page=True)
        group = page.get_by_role("group", name=str(Kind.GAME_STARTED.label))
        group.get_by_label("Off").check()
        page.get_by_role("group", name=str(Kind.YOUR_TURN.label)).get_by_label("In the daily digest").check()
        page.get_by_role("button", name="Save").click()
        page.get_by_text("Your notification settings have been saved.").wait_for()
        page.screenshot(path=str(artifacts / f"notification-settings-saved-{width}.png"), full_page=True)

        assert page.get_by_role("group", name=str(Kind.GAME_STARTED.label)).get_by_label("Off").is_checked()
        assert dict(Preference.objects.filter(user=alice).values_list("kind", "mode")) == {
            Kind.GAME_STARTED: Mode.OFF, Kind.YOUR_TURN: Mode.DIGEST}
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_unsubscribe_link_asks_then_unsubscribes_without_login(browser, site, artifacts, alice, width):
    context = _context(browser, width)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + f"/notifications/unsubscribe/{unsubscribe_token(user_id=alice.pk, kind=Kind.YOUR_TURN)}/")
        page.get_by_role("button", name="Unsubscribe").wait_for()
        page.screenshot(path=str(artifacts / f"unsubscribe-ask-{width}.png"), full_page=True)
        # Opening the link (as a mail scanner does) changed nothing.
        assert not Preference.objects.exists()

        page.get_by_role("button", name="Unsubscribe").click()
        page.get_by_role("status").wait_for()
        page.screenshot(path=str(artifacts / f"unsubscribe-done-{width}.png"), full_page=True)

        assert Preference.objects.get(user=alice, kind=Kind.YOUR_TURN).mode == Mode.OFF
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
