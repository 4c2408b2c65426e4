"""The aids panel of the game page in a real browser (RULES.md 15), desktop and phone: a player
sets a standing order and sees it played at once, marked in the log; takes a vacation, and the
other player sees until when."""

from __future__ import annotations

import pytest

from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, reload
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: str(v["width"]))
def test_a_standing_order_set_on_the_page_is_played_and_logged(browser, site, artifacts, alice, bob, viewport):
    game = play_until(start_game(alice, bob, pace="correspondence"),
                      lambda s: not s.stack and s.phase == "end_turn")
    users = users_by_seat(game)
    me, other = users[game.current_seat], users[1 - game.current_seat]
    width = viewport["width"]
    context, page = open_game(browser, site, me, game, viewport)
    other_context, other_page = open_game(browser, site, other, game, viewport)
    try:
        assert page.locator("button[value=end_turn]").count() == 1
        page.locator("#standing-orders summary").click()
        page.locator("#so-end-turn").check()
        page.locator("#so-jail").select_option("fine")
        page.locator("#standing-orders").screenshot(path=str(artifacts / f"standing-orders-{width}.png"))
        assert page_width(page) <= width
        page.locator("#standing-orders button[type=submit]", has_text="Save my standing orders").click()
        page.locator(".game-flash", has_text="played at once").wait_for()
        # The game no longer waits on this player's end of turn: the order ended it.
        assert page.locator("button[value=end_turn]").count() == 0
        assert "standing order:" in page.locator("#log").text_content()
        assert page.locator("#so-end-turn").is_checked()
        assert page.locator("#so-jail").input_value() == "fine"
        page.screenshot(path=str(artifacts / f"standing-orders-played-{width}.png"), full_page=True)

        page.locator("#vacation summary").click()
        page.locator("#vacation-days").fill("2")
        page.locator("#vacation button", has_text="Take a vacation").click()
        # (Issue 26 item 31: on the player's own card, not in a panel below the trade button.)
        page.locator(".player.is-me .player-away", has_text="On vacation until").wait_for()
        page.locator(".players").screenshot(path=str(artifacts / f"vacation-{width}.png"))
        reload(other_page)
        note = other_page.locator(".player:not(.is-me) .player-away").text_content()
        assert "On vacation until" in note
        other_page.locator(".players").screenshot(path=str(artifacts / f"vacation-other-{width}.png"))
        assert page_width(other_page) <= width
    finally:
        context.close()
        other_context.close()
