"""The auction panel's "Set my maximum" in a real browser (RULES.md 15), on a desktop and a
phone: the form, its one-line meaning and the player's own standing maximum all fit the board's
centre and can be tapped; setting one by htmx shows it to its player, and the other bidder's
page never does."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState, waiting_on
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, reload
from tests.e2e.test_phone_board import open_game
from tests.e2e.test_trade_offer_layout import CENTRE_JS
from tests.games.play_helpers import play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def auction_game(alice, bob, charlie):
    """A world-classic game (rotating auction) where the current player has declined square 39."""
    game = play_until(start_game(alice, bob, charlie, preset="world-classic"), lambda s: s.pending() == "roll")
    state = GameState.from_json(game.state)
    state.stack.append({"k": "buy", "p": state.current, "sq": 39})
    game.state, game.pending, game.waiting_seats = state.to_json(), "buy", waiting_on(state)
    game.save()
    users = users_by_seat(game)
    services.game_submit_action(game=game, user=users[state.current], action={"type": "decline"},
                                expected_version=game.version)
    game.refresh_from_db()
    cur = state.current
    return game, users, (cur + 1) % 3, (cur + 2) % 3


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: str(v["width"]))
def test_setting_a_maximum_in_the_auction_panel(browser, site, artifacts, alice, bob, charlie, viewport):
    game, users, asked, later = auction_game(alice, bob, charlie)
    width = viewport["width"]
    context, page = open_game(browser, site, users[later], game, viewport)
    other_context, other = open_game(browser, site, users[asked], game, viewport)
    try:
        centre = page.locator("#game .centre")
        assert "nobody else sees it" in centre.text_content()
        page.locator("#max-bid-amount").fill("4750")
        page.locator("button[value=max_bid]").first.click()
        page.locator(".my-maximum").wait_for()
        assert page.locator(".my-maximum").text_content().strip() == "Your maximum: $4,750 (only you see it)."
        page.locator("#game .board").screenshot(path=str(artifacts / f"max-bid-{width}.png"))
        assert page_width(page) <= width
        for part in page.evaluate(CENTRE_JS, [".my-maximum", "#max-bid-amount", "button[value=max_bid]",
                                              ".max-bid .help"]):
            assert not part.get("missing"), part
            assert part["inside"], part
            assert part["reachable"], part
        # The bidder asked sees Bid, Pass and Set my maximum, and nothing of charlie's maximum.
        reload(other)
        other.locator("#game .board").screenshot(path=str(artifacts / f"max-bid-other-{width}.png"))
        text = other.locator("#game").text_content()
        assert "4,750" not in text and "Your maximum:" not in text
        assert other.locator("button[value=bid]").count() == 1
        assert other.locator("button[value=max_bid]").count() == 1
        # Withdrawn: the standing maximum is gone from the page.
        page.locator("button[value=max_bid]", has_text="Withdraw it").click()
        page.locator(".my-maximum").wait_for(state="detached")
    finally:
        context.close()
        other_context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: str(v["width"]))
def test_a_maximum_beside_a_trade_offer_made_during_an_auction(browser, site, artifacts, alice, bob, charlie,
                                                              viewport):
    """Issue 26, item 6 (RULES.md 15): while a trade offer made during an (open) auction waits
    for its answer, a bidder may leave a maximum: the form sits in the centre with the offer, and
    setting one shows it to its player."""
    game = play_until(start_game(alice, bob, charlie), lambda s: s.pending() == "roll")
    state = GameState.from_json(game.state)
    state.stack.append({"k": "buy", "p": state.current, "sq": 39})
    game.state, game.pending, game.waiting_seats = state.to_json(), "buy", waiting_on(state)
    game.save()
    users = users_by_seat(game)
    cur = state.current
    services.game_submit_action(game=game, user=users[cur], action={"type": "decline"}, expected_version=game.version)
    game.refresh_from_db()
    side = {"cash": 0, "squares": [], "cards": 0}
    services.game_submit_action(game=game, user=users[(cur + 1) % 3], expected_version=game.version,
                                action={"type": "propose", "to": cur, "give": dict(side, cash=10), "take": side})
    game.refresh_from_db()
    width = viewport["width"]
    context, page = open_game(browser, site, users[cur], game, viewport)
    try:
        page.locator("#max-bid-amount").fill("450")
        page.locator("button[value=max_bid]").first.click()
        page.locator(".my-maximum").wait_for()
        assert page.locator(".my-maximum").text_content().strip() == "Your maximum: $450 (only you see it)."
        page.screenshot(path=str(artifacts / f"max-bid-trade-offer-{width}.png"), full_page=True)
        assert page_width(page) <= width
        for part in page.evaluate(CENTRE_JS, ["#max-bid-amount", "button[value=max_bid]", "button[value=accept]"]):
            assert not part.get("missing"), part
            assert part["inside"], part
            assert part["reachable"], part
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: str(v["width"]))
def test_a_holder_passed_by_maximum_bids_by_hand_in_an_open_auction(browser, site, artifacts, alice, bob, charlie,
                                                                    viewport):
    """Issue 26, item 4 (RULES.md 15, 4): in an open auction the engine's pass for a holder is
    not final: their page offers Bid (no Pass: they have passed), and a bid by hand leads."""
    game = play_until(start_game(alice, bob, charlie), lambda s: s.pending() == "roll")
    state = GameState.from_json(game.state)
    state.stack.append({"k": "buy", "p": state.current, "sq": 39})
    game.state, game.pending, game.waiting_seats = state.to_json(), "buy", waiting_on(state)
    game.save()
    users = users_by_seat(game)
    cur = state.current
    holder, bidder = (cur + 1) % 3, (cur + 2) % 3
    for seat, action in ((cur, {"type": "decline"}), (holder, {"type": "max_bid", "amount": 60}),
                         (bidder, {"type": "bid", "amount": 80})):
        game.refresh_from_db()
        services.game_submit_action(game=game, user=users[seat], action=action, expected_version=game.version)
    width = viewport["width"]
    context, page = open_game(browser, site, users[holder], game, viewport)
    try:
        assert page.locator(".my-maximum").text_content().strip() == "Your maximum: $60 (only you see it)."
        assert page.locator("#game .centre button[value=pass]").count() == 0
        page.locator("#game .board").screenshot(path=str(artifacts / f"max-bid-passed-bids-by-hand-{width}.png"))
        assert page_width(page) <= width
        for part in page.evaluate(CENTRE_JS, ["#bid-amount", "button[value=bid]", "#max-bid-amount"]):
            assert not part.get("missing"), part
            assert part["inside"], part
            assert part["reachable"], part
        page.locator("#bid-amount").fill("85")
        page.locator("button[value=bid]").click()
        page.locator("#game .centre button[value=bid]").wait_for(state="detached")
        f = GameState.from_json(type(game).objects.get(pk=game.pk).state).stack[-1]
        assert (f["leader"], f["high"]) == (holder, 85)
    finally:
        context.close()
