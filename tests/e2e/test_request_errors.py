"""A move whose request fails says so on the page, with a Retry that sends it again.

Before, htmx swapped nothing in on a 5xx or with the network down, and the click seemed to do
nothing. Three failures are staged against the real site in Debian's Chromium: the server
failing once (a real 500 from the view), the network refusing the request (Playwright aborts
it), and the move rate limit (a real 429). Screenshots at desktop and phone widths land in
test-artifacts/e2e/.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, GameAction
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import next_move, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def _page_version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def _move_button(page):
    """The first button of the decision the page offers (a roll, as the game starts)."""
    return page.locator("#game .choices form[hx-post] button[type=submit]").first


def _on_turn(game: Game):
    seat, _move = next_move(game)
    return users_by_seat(game)[seat]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_server_error_shows_a_message_and_retry_makes_the_move(browser, site, artifacts, alice, bob,
                                                                 monkeypatch, viewport):
    game = start_game(alice, bob)
    context, page = open_game(browser, site, _on_turn(game), game, viewport)
    real = services.game_submit_actions
    calls = []

    def fails_once(**kwargs):
        calls.append(kwargs["actions"])
        if len(calls) == 1:
            raise RuntimeError("injected failure: the database went away")
        return real(**kwargs)

    monkeypatch.setattr(services, "game_submit_actions", fails_once)
    before = _version(game)
    bar = page.locator("#request-error")
    assert bar.is_hidden()

    _move_button(page).click()

    bar.wait_for(state="visible")
    assert "The server could not answer" in bar.inner_text()
    assert bar.locator("[data-retry]").is_visible()
    assert bar.locator("[data-reload]").is_hidden()  # a retry is the way out here, not a reload
    assert _version(game) == before and _page_version(page) == before
    page.screenshot(path=str(artifacts / f"request-error-server-{viewport['width']}.png"))

    bar.locator("[data-retry]").click()

    page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before)
    assert bar.is_hidden()
    assert len(calls) == 2 and calls[0] == calls[1]  # the same move, sent again
    assert _version(game) > before
    assert GameAction.objects.filter(game=game).exists()
    context.close()


def test_with_the_network_down_the_page_says_so_and_retry_goes_through(browser, site, artifacts, alice, bob):
    game = start_game(alice, bob)
    context, page = open_game(browser, site, _on_turn(game), game, PHONE)
    page.route("**/act/", lambda route: route.abort("internetdisconnected"))
    before = _version(game)
    bar = page.locator("#request-error")

    _move_button(page).click()

    bar.wait_for(state="visible")
    assert "could not be reached" in bar.inner_text()
    assert _version(game) == before
    page.screenshot(path=str(artifacts / "request-error-network-390.png"))

    page.unroute("**/act/")
    bar.locator("[data-retry]").click()

    page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before)
    assert bar.is_hidden()
    context.close()


def test_a_rate_limited_move_says_to_wait(browser, site, artifacts, alice, bob, settings):
    settings.RATE_LIMIT_MOVES = "0/m"  # every move is over the limit
    game = start_game(alice, bob)
    context, page = open_game(browser, site, _on_turn(game), game, DESKTOP)
    before = _version(game)
    bar = page.locator("#request-error")

    _move_button(page).click()

    bar.wait_for(state="visible")
    assert "Too many requests" in bar.inner_text()
    assert _version(game) == before
    page.screenshot(path=str(artifacts / "request-error-busy-1280.png"))
    bar.locator("[data-dismiss]").click()
    assert bar.is_hidden()
    context.close()
