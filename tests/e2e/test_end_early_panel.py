"""Ending early by agreement (RULES.md 16) in a real browser, desktop and phone: the proposer's
offer, the panel of an open proposal (who agreed, the time left) reached and answered by
keyboard, and the game-over summary that says how the game ended; the clocks beside it."""

from __future__ import annotations

import pytest

from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width
from tests.e2e.test_phone_board import open_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_proposal_to_end_is_answered_by_keyboard(browser, site, artifacts, alice, bob, charlie, viewport):
    from games import agreement, services
    from games.models import Game
    from ratings import services as ratings_services
    from tests.games.play_helpers import users_by_seat

    table = services.table_create(host=alice, name="Weeks long", preset="classic", turn_hours=24, seat_count=3,
                                  time_bank_hours=72, time_bank_increment_hours=4, playing_hours="08:00-22:00")
    services.table_join(table=table, user=bob)
    services.table_join(table=table, user=charlie)
    game = services.table_start(table=table, by=alice)
    users = users_by_seat(game)
    width = viewport["width"]

    context, page = open_game(browser, site, users[0], game, viewport)
    try:
        offer = page.locator("#end-early")
        offer.locator("summary").click()
        offer.locator("button[value=propose]").wait_for()
        offer.screenshot(path=str(artifacts / f"end-early-offer-{width}.png"))
        offer.locator("button[value=propose]").click()
        page.get_by_text("You proposed to end the game; every player must agree.").wait_for()
        page.locator("#end-early.is-open").wait_for()
        assert page_width(page) <= width
    finally:
        context.close()
    agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)

    context, page = open_game(browser, site, users[2], game, viewport)
    try:
        panel = page.locator("#end-early")
        panel.wait_for()
        text = panel.inner_text()
        assert "proposed it" in text and "agrees" in text and "not yet answered" in text and "Time left" in text
        panel.scroll_into_view_if_needed()
        panel.screenshot(path=str(artifacts / f"end-early-panel-{width}.png"))
        page.screenshot(path=str(artifacts / f"end-early-page-{width}.png"))
        page.locator("#clocks").screenshot(path=str(artifacts / f"end-early-clocks-{width}.png"))
        assert page_width(page) <= width
        # By keyboard: Tab from the Withdraw/Agree form's first control, Enter on it.
        agree = panel.locator("button[value=agree]")
        agree.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert agree.evaluate("b => b === document.activeElement")
        page.keyboard.press("Enter")
        page.get_by_text("The game is over: it ended by agreement.").wait_for()
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        ratings_services.game_result_record(game_id=game.pk)
        page.reload()
        summary = page.get_by_text("Ended by agreement in round")
        summary.wait_for()
        summary.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"end-early-over-{width}.png"))
        assert page_width(page) <= width
    finally:
        context.close()
