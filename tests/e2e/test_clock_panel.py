"""The clocks of RULES.md 16 on the game page in a real browser, desktop and phone: each player's
own time and bank, and "counting from" outside playing hours; the panel stays within the page."""

from __future__ import annotations

import pytest

from games import services
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_clock_panel_shows_own_time_and_bank(browser, site, artifacts, alice, bob, viewport):
    # Playing hours that exclude now whatever the hour: a quarter of an hour, eight hours on.
    from django.utils import timezone

    start = (timezone.now().hour + 8) % 24
    table = services.table_create(
        host=alice,
        name="Clocks",
        preset="classic",
        turn_hours=24,
        seat_count=2,
        time_bank_hours=72,
        time_bank_increment_hours=4,
        playing_hours=f"{start:02d}:00-{start:02d}:15",
    )
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    users = users_by_seat(game)
    context, page = open_game(browser, site, users[game.waiting_seats[0]], game, viewport)
    try:
        panel = page.locator("#clocks")
        panel.wait_for()
        assert "own time 1 d · bank 3 d" in panel.inner_text()
        assert "counting from" in panel.inner_text()
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"clocks-{viewport['width']}.png"), full_page=False)
        panel.screenshot(path=str(artifacts / f"clocks-panel-{viewport['width']}.png"))
        assert page_width(page) <= viewport["width"]
        # RULES.md 16, auto-vacation: the player's choice, on by default, in the vacation panel.
        page.locator("#vacation summary").click()
        page.locator("#vacation button[name=auto][value=off]").wait_for()
        page.locator("#vacation").screenshot(path=str(artifacts / f"auto-vacation-{viewport['width']}.png"))
        assert page_width(page) <= viewport["width"]
    finally:
        context.close()
