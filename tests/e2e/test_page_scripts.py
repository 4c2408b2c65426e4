"""The pages' small scripts, moved out of inline <script> for the Content-Security-Policy, still
do their work from static files: the settings page's time-zone hint, the new-table form's preset
placeholders, the invitation link's select-on-click and Copy button. (Any CSP violation on these
pages fails the test too: tests/e2e/conftest.py.)"""

from __future__ import annotations

import pytest

from games import services
from tests.e2e.pages import signed_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _signed_in(browser, site: str, user, **options):
    return signed_in(browser, site, user, **options)


def test_settings_offer_the_browsers_time_zone(browser, site, artifacts, alice):
    context, page = _signed_in(browser, site, alice, viewport=PHONE, timezone_id="Europe/Madrid")
    page.goto(f"{site}/accounts/settings/")
    hint = page.locator("#browser-time-zone")

    hint.wait_for(state="visible")
    hint.locator("[data-time-zone]").click()

    assert page.locator("#id_time_zone").input_value() == "Europe/Madrid"
    page.screenshot(path=str(artifacts / "settings-time-zone-390.png"))
    context.close()


def test_settings_time_zone_list_at_desktop_width(browser, site, artifacts, alice):
    """The list of zones, grouped by region (issue 26 item 21), on a desktop."""
    context, page = _signed_in(browser, site, alice, viewport=DESKTOP, timezone_id="Asia/Tokyo")
    page.goto(f"{site}/accounts/settings/")
    page.locator("#browser-time-zone").wait_for(state="visible")
    page.locator("#id_time_zone").select_option("Asia/Tokyo")
    assert page.locator("#id_time_zone optgroup[label=Asia] option:checked").text_content() == "Tokyo"
    page.screenshot(path=str(artifacts / "settings-time-zone-1280.png"))
    context.close()


def test_the_new_table_form_shows_the_chosen_presets_values(browser, site, artifacts, alice):
    context, page = _signed_in(browser, site, alice, viewport=DESKTOP)
    page.goto(f"{site}/tables/new/")
    cash = page.locator("#id_start_cash")

    page.locator("select[name=preset]").select_option("classic")
    classic = cash.get_attribute("placeholder")
    page.locator("select[name=preset]").select_option("world-classic")
    world = cash.get_attribute("placeholder")

    assert classic and world and classic != "—"
    assert page.locator("[data-preset='world-classic']").get_attribute("class").count("is-current") == 1
    page.screenshot(path=str(artifacts / "table-form-1280.png"))
    context.close()


def test_the_invitation_link_selects_itself_and_copies(browser, site, artifacts, alice):
    table = services.table_create(host=alice, name="Friends", preset="classic", is_private=True)
    context, page = _signed_in(browser, site, alice, viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page.goto(f"{site}/tables/{table.pk}/")
    link = page.locator("#invite-link")

    link.click()
    selected = page.evaluate("() => { const i = document.getElementById('invite-link');"
                             " return i.selectionEnd - i.selectionStart; }")
    assert selected == len(link.input_value()) > 0

    copy = page.locator("[data-copy='#invite-link']")
    copy.wait_for(state="visible")
    copy.click()
    page.wait_for_function("() => document.querySelector(\"[data-copy='#invite-link']\").textContent !== 'Copy'")
    assert page.evaluate("() => navigator.clipboard.readText()") == link.input_value()
    page.screenshot(path=str(artifacts / "table-invite-1280.png"))
    context.close()
