"""The table form's clock options and the lobby card's clock lines (RULES.md 16) in a real
browser, desktop and phone: an impossible clock is refused on its field, a good one is listed."""

from __future__ import annotations

import pytest

from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width
from tests.e2e.pages import signed_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_clock_options_on_the_form_and_the_card(browser, site, artifacts, alice, viewport):
    context, page = signed_in(browser, site, alice, viewport=viewport, is_mobile=viewport["width"] < 600)
    try:
        page.goto(f"{site}/tables/new/")
        page.fill("input[name=playing_hours]", "08:00-08:00")
        page.fill("input[name=time_bank_hours]", "72")
        page.fill("input[name=time_bank_increment_hours]", "4")
        page.fill("input[name=round_limit]", "40")
        page.locator("form.table-form button[type=submit]").click()
        page.get_by_text("Playing hours of zero length: no decision could ever be answered.").wait_for()
        field = page.locator("input[name=playing_hours]")
        field.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"table-form-clocks-{viewport['width']}.png"))
        assert page_width(page) <= viewport["width"]
        field.fill("08:00-22:00")
        page.locator("form.table-form button[type=submit]").click()
        page.wait_for_url("**/tables/*/")
        page.goto(f"{site}/")
        card = page.locator(".table-card").first
        card.get_by_text("Time bank 3 d, plus 4 h for each answer in time").wait_for()
        card.screenshot(path=str(artifacts / f"table-card-clocks-{viewport['width']}.png"))
        assert page_width(page) <= viewport["width"]
    finally:
        context.close()
