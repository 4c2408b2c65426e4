"""Issue 26 item 32: a game page shown again from the browser's page cache (Back, Forward:
``pageshow`` with ``persisted``) asks for its version at once, not at its next poll tick (15 s
apart by correspondence), so that it never shows an old position."""

from __future__ import annotations

import pytest

from tests.e2e.test_keyboard import current_user, open_page, version
from tests.games.play_helpers import autoplay, start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SHOWN_AGAIN = """() => window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: true}))"""


def test_a_page_shown_again_checks_its_version_at_once(browser, site, alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    watcher = bob if current_user(game) == alice else alice
    context, page = open_page(browser, site, watcher, game)
    try:
        assert page.locator("#game").get_attribute("hx-trigger") == "every 15s"
        polls = []
        page.on("request", lambda r: polls.append(r.url) if "/poll/" in r.url else None)
        # Right after a poll tick the next is 15 s away: the move made now is not fetched by it.
        page.wait_for_event("request", lambda r: "/poll/" in r.url, timeout=20000)
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        before = version(page)
        autoplay(game, 1)
        game.refresh_from_db()
        assert game.version > before
        ticks = len(polls)
        page.evaluate(SHOWN_AGAIN)
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before,
                               timeout=5000)
        assert len(polls) == ticks + 1
        assert version(page) == game.version
        # A page shown for the first time (not from the cache) asks nothing more.
        page.evaluate("""() => window.dispatchEvent(new PageTransitionEvent("pageshow", {persisted: false}))""")
        page.wait_for_timeout(500)
        assert len(polls) == ticks + 1
    finally:
        context.close()
