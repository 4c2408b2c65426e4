"""``hidden`` hides: no class's display rule brings an element back. The settings page's hint
of the browser's time zone stays hidden (no empty button) when the account already has that
zone; the invitation link's "Copy" button stays hidden where the clipboard cannot be written."""

from __future__ import annotations

import pytest

from games import services
from tests.e2e.pages import signed_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]




def test_the_time_zone_hint_shows_only_when_the_browser_has_another_zone(browser, site, alice):
    alice.time_zone = "Europe/Madrid"
    alice.save(update_fields=["time_zone"])
    context, page = signed_in(browser, site, alice, timezone_id="Europe/Madrid")
    try:
        page.goto(site + "/accounts/settings/")
        page.locator("#id_time_zone").wait_for()
        assert page.locator("#browser-time-zone").get_attribute("hidden") is not None
        assert not page.locator("#browser-time-zone").is_visible()
    finally:
        context.close()
    context, page = signed_in(browser, site, alice, timezone_id="America/Lima")
    try:
        page.goto(site + "/accounts/settings/")
        page.locator("#browser-time-zone [data-time-zone]").wait_for()
        assert page.locator("#browser-time-zone [data-time-zone]").inner_text() == "America/Lima"
    finally:
        context.close()


def test_a_hidden_button_stays_hidden(browser, site, alice):
    table = services.table_create(host=alice, name="Hidden", preset="classic", seat_count=3,
                                  is_private=True)
    context, page = signed_in(browser, site, alice)
    # No clipboard (as on a page served over plain HTTP from another host): no Copy button.
    context.add_init_script(script="Object.defineProperty(navigator, 'clipboard', {value: undefined});")
    try:
        page.goto(f"{site}/tables/{table.pk}/")
        copy = page.locator("[data-copy]")
        copy.wait_for(state="attached")
        assert copy.get_attribute("hidden") is not None
        assert not copy.is_visible()
    finally:
        context.close()
