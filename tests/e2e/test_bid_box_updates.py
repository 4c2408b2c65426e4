"""Issue 26 item 18: while focus sits in the bid box (where the page itself puts it after a
decline or a bid), the other player's moves still arrive, and what the player is typing there,
its value and its caret, is kept across the swap; their bid then goes through, not refused as
stale."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState, waiting_on
from games.models import Game
from tests.e2e.test_keyboard import open_page, version
from tests.games.play_helpers import play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def open_auction(alice, bob) -> tuple[Game, dict]:
    """A classic game (open auction, the decliner bids too) whose current player declined square
    39: both may bid."""
    game = play_until(start_game(alice, bob), lambda s: s.pending() == "roll")
    state = GameState.from_json(game.state)
    state.stack.append({"k": "buy", "p": state.current, "sq": 39})
    game.state, game.pending, game.waiting_seats = state.to_json(), "buy", waiting_on(state)
    game.save()
    users = users_by_seat(game)
    services.game_submit_action(game=game, user=users[state.current], action={"type": "decline"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert sorted(game.waiting_seats) == [0, 1], game.waiting_seats
    return game, users


def high_bid(game: Game) -> tuple[int, int]:
    game.refresh_from_db()
    f = GameState.from_json(game.state).stack[-1]
    assert f["k"] == "auction", f
    return f["high"], f["leader"]


def test_updates_arrive_while_typing_a_bid_and_keep_it(browser, site, alice, bob):
    game, users = open_auction(alice, bob)
    context, page = open_page(browser, site, users[0], game)
    other_context, other = open_page(browser, site, users[1], game)
    try:
        box = page.locator("#bid-amount")
        box.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("25")
        page.keyboard.press("ArrowLeft")  # the caret between 2 and 5
        before = version(page)
        # The other player bids 10 from their page.
        other.locator("#bid-amount").fill("10")
        other.locator("#decision button[value=bid]").click()
        other.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before)
        assert high_bid(game) == (10, 1)
        # It arrives on the page of the one typing, focus staying in the box...
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before,
                               timeout=20000)
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        assert "$10" in page.locator("#log").text_content()
        assert page.evaluate("() => document.activeElement.id") == "bid-amount"
        # ...with what they typed, the caret where it was, and the fresh bounds (at least $11).
        assert box.input_value() == "25"
        assert "At least $11;" in page.locator("#bid-help").text_content()
        page.keyboard.type("0")
        assert box.input_value() == "205"
        # Their bid goes through: not refused as stale.
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v + 1", arg=before)
        assert high_bid(game) == (205, 0)
        assert page.locator(".flash-error, .refusal").count() == 0
    finally:
        context.close()
        other_context.close()
