"""Refusals of the game page's forms without JavaScript, in a browser: a move sent after the
player's session ended (so by someone who is no player) and a form whose CSRF token no longer
fits both get the site's own page, in its layout, saying why and where to go. Screenshots at
desktop and phone widths land in test-artifacts/e2e/."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _no_js_game_page(browser, site: str, user, game: Game, width: int):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 600,
                                  java_script_enabled=False)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site, "value": session}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{site}/games/{game.pk}/")
    page.get_by_role("button", name="Roll the dice").wait_for()
    return context, page


def _drop_cookie(context, name: str) -> None:
    kept = [c for c in context.cookies() if c["name"] != name]
    context.clear_cookies()
    context.add_cookies(kept)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_move_after_the_session_ended_gets_the_sites_403_page(browser, site, artifacts, alice, bob,
                                                                 width):
    game = start_game(alice, bob)
    version = Game.objects.get(pk=game.pk).version
    context, page = _no_js_game_page(browser, site, users_by_seat(game)[game.current_seat], game, width)
    try:
        _drop_cookie(context, settings.SESSION_COOKIE_NAME)  # signed out meanwhile
        page.get_by_role("button", name="Roll the dice").click()
        page.locator("h1").wait_for()
        page.screenshot(path=str(artifacts / f"refused-not-a-player-{width}.png"), full_page=True)

        assert page.locator("h1").inner_text() == "Not allowed"
        assert page.get_by_text("Only the players of this game may make moves.").is_visible()
        assert page.locator(".site-header").is_visible()
        page.get_by_role("link", name="Back to the game").click()
        page.wait_for_url(f"{site}/games/{game.pk}/")  # and its load: the page is there to measure
        assert Game.objects.get(pk=game.pk).version == version
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_form_with_a_stale_csrf_token_gets_the_sites_403_page(browser, site, artifacts, alice, bob,
                                                                 width):
    game = start_game(alice, bob)
    version = Game.objects.get(pk=game.pk).version
    context, page = _no_js_game_page(browser, site, users_by_seat(game)[game.current_seat], game, width)
    try:
        _drop_cookie(context, settings.CSRF_COOKIE_NAME)
        page.get_by_role("button", name="Roll the dice").click()
        page.locator("h1").wait_for()
        page.screenshot(path=str(artifacts / f"refused-stale-form-{width}.png"), full_page=True)

        assert page.locator("h1").inner_text() == "Not allowed"
        assert page.get_by_text("Reload the page and try again.").is_visible()
        assert "CSRF verification failed" not in page.content()
        page.get_by_role("link", name="Reload that page").click()
        page.wait_for_url(f"{site}/games/{game.pk}/")  # and its load: the page is there to measure
        assert Game.objects.get(pk=game.pk).version == version
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
