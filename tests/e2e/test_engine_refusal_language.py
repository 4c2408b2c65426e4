"""An engine refusal in the reader's language, in a browser: a Spanish-speaking player offers a
trade with nothing in it; the engine refuses it with its code ("empty_trade") and the page says so
in Spanish, changing nothing. Screenshots at desktop and phone widths land in test-artifacts/e2e/."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.models import Game
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_an_empty_trade_is_refused_in_spanish(browser, site, artifacts, alice, bob, width):
    game = start_game(alice, bob)
    mover = users_by_seat(game)[game.current_seat]
    mover.language = "es"
    mover.save(update_fields=["language"])
    version = Game.objects.get(pk=game.pk).version
    client = Client()
    client.force_login(mover)
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{site}/games/{game.pk}/")
        page.get_by_text("Proponer un intercambio").click()
        page.get_by_role("button", name="Ofrecer a").click()
        refusal = page.get_by_text("Rechazado: un intercambio vacío.")
        refusal.wait_for()
        refusal.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"refused-empty-trade-es-{width}.png"), full_page=False)

        assert refusal.is_visible()
        assert "an empty trade" not in page.content()
        assert Game.objects.get(pk=game.pk).version == version
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
