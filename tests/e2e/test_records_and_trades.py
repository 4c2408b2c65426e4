"""What a person sees of a trade in the log and of a game record: the game page's log says what
each side of a trade gave; the upload page refuses a bad file with a message and stores nothing;
a good record opens in the replay viewer, whose steps say what the trade contained. At a desktop
width (1280 px) and a phone's (390 px) in Debian's Chromium; screenshots in test-artifacts/e2e/.
"""

from __future__ import annotations

import json

import pytest

from games import services
from games.engine import GameState
from games.models import Game, GameAction, Replay
from games.records import game_record
from tests.e2e.pages import signed_in
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def traded_game(alice, bob) -> tuple[Game, str]:
    """A classic game in which seat 0 gave $10 and a deed for one of seat 1's; the accepted
    trade's log line as the page should show it."""
    game = play_until(start_game(alice, bob), lambda s: s.pending() == "roll" and cheapest_deed(s, 0) is not None
                      and cheapest_deed(s, 1) is not None)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    services.game_submit_action(game=game, user=users[0], expected_version=game.version, action={
        "type": "propose", "to": 1, "give": {"cash": 10, "squares": [mine]}, "take": {"squares": [theirs]}})
    game.refresh_from_db()
    services.game_submit_action(game=game, user=users[1], expected_version=game.version,
                                action={"type": "accept", "trade": 1})
    game.refresh_from_db()
    names = [p.name for p in state.players]
    board = state.board
    line = (f"Trade #1 is accepted: {names[0]} gives $10 and {board.name_of(mine)}; "
            f"{names[1]} gives {board.name_of(theirs)}.")
    return game, line


def signed_in_page(browser, site: str, user, viewport: dict):
    return signed_in(browser, site, user, viewport=viewport, is_mobile=viewport["width"] < 600,
                     has_touch=viewport["width"] < 600)


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("window", WIDTHS)
def test_the_game_log_shows_what_a_trade_contained(browser, site, artifacts, alice, bob, window):
    game, line = traded_game(alice, bob)
    context, page = signed_in_page(browser, site, alice, WIDTHS[window])
    try:
        page.goto(f"{site}/games/{game.pk}/")
        entry = page.locator(".log-entry p", has_text=line)
        entry.scroll_into_view_if_needed()
        assert entry.is_visible()
        offer = page.locator(".log-entry p", has_text="offers").first
        assert "a trade (#1): $10 and " in offer.inner_text()
        assert fits(page)
        box = entry.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTHS[window]["width"]
        page.screenshot(path=str(artifacts / f"trade-log-{window}.png"), full_page=False)
    finally:
        context.close()


@pytest.mark.parametrize("window", WIDTHS)
def test_upload_refuses_a_bad_file_then_replays_a_good_one(browser, site, artifacts, alice, bob, tmp_path,
                                                           window):
    game, line = traded_game(alice, bob)
    users = users_by_seat(game)
    services.game_submit_action(game=game, user=users[game.waiting_seats[0]], action={"type": "surrender"},
                                expected_version=game.version)
    game.refresh_from_db()
    good = tmp_path / "game.json"
    good.write_text(json.dumps(game_record(game)))
    bad = tmp_path / "nested.json"
    bad.write_text("[" * 100_000 + "]" * 100_000)
    accept = GameAction.objects.get(game=game, action__type="accept").seq
    context, page = signed_in_page(browser, site, alice, WIDTHS[window])
    try:
        page.goto(f"{site}/games/records/upload/")
        page.set_input_files("#record-file", str(bad))
        page.get_by_role("button", name="View it").click()
        alert = page.get_by_role("alert")
        assert "That file nests too deeply to be a game record." in alert.inner_text()
        assert fits(page)
        page.screenshot(path=str(artifacts / f"record-upload-refused-{window}.png"), full_page=True)
        assert not Replay.objects.filter(owner=alice).exists()

        page.set_input_files("#record-file", str(good))
        page.get_by_role("button", name="View it").click()
        page.wait_for_url("**/games/records/replay/**")
        assert page.locator(".replay-step").inner_text().startswith("Move ")
        page.goto(f"{site}/games/records/replay/?step={accept}")
        assert page.locator(".replay-events li", has_text=line).is_visible()
        page.locator("#replay").get_by_role("link", name="Next", exact=True).first.click()
        page.wait_for_url(f"**step={accept + 1}")
        assert f"Move {accept + 1} of" in page.locator(".replay-step").inner_text()
        page.locator("#replay").get_by_role("link", name="Previous", exact=True).first.click()
        page.wait_for_url(f"**step={accept}")
        page.locator(".replay-events li", has_text=line).wait_for()
        assert fits(page)
        page.screenshot(path=str(artifacts / f"record-replay-trade-{window}.png"), full_page=True)
    finally:
        context.close()
