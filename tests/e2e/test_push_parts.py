"""The other page's fetch after a push (issue 12, "updates pushed, not polled"): two players'
pages of one game, served by uvicorn as in tests/e2e/test_push.py. A move on one page reaches the
other, which fetches only the parts that changed since the version it shows (games/views/play.py:
poll) and applies them in place: the game's element, and what the move did not change, stay the
same elements (a property set on them from JavaScript is still there), and the page reads as a
fresh render. Without push the poll's tick gets the same answer.
"""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game
from tests.e2e.test_phone_board import open_game
from tests.e2e.test_push import (  # noqa: F401
    DESKTOP,
    MOVE_BUTTON,
    _shown,
    _version,
    _wait_version,
    asgi_site,
    mover_of,
    players_pages,
)
from tests.games.play_helpers import next_move, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Marks set on elements of the page before a move, read after it: an element replaced by a swap
# has lost its mark.
MARK = """() => {
  const game = document.getElementById("game");
  game.keptMark = "kept";
  game.querySelector(".log-list").keptMark = "kept";
  game.querySelector(".board").keptMark = "kept";
  return true;
}"""
MARKS = """() => {
  const game = document.getElementById("game");
  return [game.keptMark, game.querySelector(".log-list").keptMark, game.querySelector(".board").keptMark];
}"""


SHOWN_MARKS = "() => document.getElementById('game').getAttribute('data-marks')"


def _fresh(page, site: str, game: Game) -> dict:
    fresh = page.context.new_page()
    try:
        fresh.goto(f"{site}/games/{game.pk}/")
        fresh.locator("#game .board").wait_for()
        assert _version(fresh) == _version(page)
        return _shown(fresh)
    finally:
        fresh.close()


def test_a_move_reaches_the_other_page_as_the_parts_it_changed(browser, asgi_site, artifacts, alice, bob):  # noqa: F811
    game = start_game(alice, bob)
    contexts, pages = players_pages(browser, asgi_site, game)
    try:
        moves = 0
        while moves < 6:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            mover = mover_of(pages)
            other = pages[1 - mover]
            assert other.evaluate(MARK)
            shows = other.evaluate(SHOWN_MARKS)
            with other.expect_response(re.compile(r"/poll/\?v=\d+$")) as fetched:
                pages[mover].locator(MOVE_BUTTON).first.click()
            answer = fetched.value
            # The page's script asks with the marks of what the page shows (move_parts.py).
            assert shows and answer.request.headers.get("x-game-parts") == shows
            assert "hx-swap-oob" in answer.text() and 'id="game"' not in answer.text()
            version = Game.objects.get(pk=game.pk).version
            _wait_version(other, version)
            other.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping, .htmx-added')")
            # No whole-fragment swap: the same #game, log list and board as before the move.
            assert other.evaluate(MARKS) == ["kept", "kept", "kept"]
            moves += 1
        assert moves >= 4

        other.screenshot(path=str(artifacts / "push-parts-other-page-desktop.png"), full_page=True)
        for seat, page in pages.items():
            assert _shown(page) == _fresh(page, asgi_site, game), f"seat {seat}'s page differs from a fresh render"
            # And its marks are a fresh page's (what its next request sends).
            fresh = page.context.new_page()
            fresh.goto(f"{asgi_site}/games/{game.pk}/")
            assert page.evaluate(SHOWN_MARKS) == fresh.evaluate(SHOWN_MARKS), seat
            fresh.close()
    finally:
        for context in contexts:
            context.close()


def test_without_push_the_polls_tick_fetches_the_parts_too(browser, asgi_site, settings, alice, bob):  # noqa: F811
    settings.LIVE_REDIS_URL = ""
    game = start_game(alice, bob)
    seat, _move = next_move(game)
    watcher = users_by_seat(game)[1 - seat]
    context, page = open_game(browser, asgi_site, watcher, game, DESKTOP)
    try:
        assert page.locator("#game-live[sse-connect]").count() == 0
        assert page.evaluate(MARK)
        for _ in range(3):
            game.refresh_from_db()
            seat, move = next_move(game)
            with page.expect_response(lambda r: "/poll/" in r.url and r.status == 200) as fetched:
                services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=move,
                                            expected_version=game.version)
            assert "hx-swap-oob" in fetched.value.text()
            _wait_version(page, Game.objects.get(pk=game.pk).version)
            page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping, .htmx-added')")
            assert page.evaluate(MARKS) == ["kept", "kept", "kept"]
        assert _shown(page) == _fresh(page, asgi_site, game)
    finally:
        context.close()
