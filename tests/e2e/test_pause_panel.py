"""The pause of a live game in two real browsers (RULES.md 11): one asks, the other's polling
page shows the request and agrees; both are ready to resume, and the countdown shows."""

from __future__ import annotations

import pytest

from games.aids import pause as pause_rules
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_pause_asked_agreed_and_resumed_with_a_countdown(browser, site, artifacts, alice, bob, monkeypatch):
    # The countdown's length is not what this test is about (tests/games/test_pause.py holds
    # the services to it): a shorter one than the rule's lets the page's own redraw at its end be
    # seen sooner.
    monkeypatch.setattr(pause_rules, "COUNTDOWN_SECONDS", 4)
    game = start_game(alice, bob, pace="live")
    users = users_by_seat(game)
    context, page = open_game(browser, site, users[0], game, DESKTOP)
    other_context, other = open_game(browser, site, users[1], game, PHONE)
    try:
        page.locator("#pause button[value=ask]").click()
        page.locator("#pause", has_text="asks for a pause").wait_for()
        # The other page polls (a live table): the request reaches it without a reload.
        other.locator("#pause button[value=agree]").wait_for()
        other.locator("#pause").screenshot(path=str(artifacts / "pause-asked-390.png"))
        other.locator("#pause button[value=agree]").click()
        other.locator("#pause", has_text="The game is paused").wait_for()
        page.locator("#pause", has_text="The game is paused").wait_for()
        page.locator(".game-side").screenshot(path=str(artifacts / "pause-paused-1280.png"))
        page.locator("#pause button[value=ready]").click()
        other.locator("#pause button[value=ready]").wait_for()
        other.locator("#pause button[value=ready]").click()
        other.locator("#pause", has_text="Play resumes in").wait_for()
        other.locator("#pause").screenshot(path=str(artifacts / "pause-resuming-390.png"))
        assert page_width(other) <= PHONE["width"]
        # After the countdown the page redraws itself: no pause left, the moves are back.
        other.locator("#pause button[value=ask]").wait_for(timeout=20000)
    finally:
        context.close()
        other_context.close()
