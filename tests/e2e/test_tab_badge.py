"""The browser tab says when games wait on you (issue 14): "(1) Your turn — …" in the title and
a count drawn on the favicon, on every page, from the bell's fragment; none when nothing does."""

from __future__ import annotations

import base64

import pytest

from games import services
from tests.e2e.pages import at_width, signed_in
from tests.games.play_helpers import users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _page_of(browser, site, user, width):
    return signed_in(browser, site, user, **at_width(width))


@pytest.mark.parametrize("width", [1280, 390])
def test_the_tab_title_and_favicon_show_the_games_waiting_on_you(browser, site, artifacts, alice, bob, width):
    table = services.table_create(host=alice, name="Tab table", preset="classic", seat_count=2)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    waited = users_by_seat(game)[game.waiting_seats[0]]
    other = bob if waited == alice else alice

    context, page = _page_of(browser, site, waited, width)
    try:
        for path in ("/", "/notifications/settings/", f"/games/{game.pk}/"):
            page.goto(site + path)
            page.locator("html[data-tab-badge='1']").wait_for(state="attached")
            assert page.title().startswith("(1) Your turn — ")
            href = page.locator("link[rel~='icon']").get_attribute("href")
            assert href.startswith("data:image/png;base64,")
        page.screenshot(path=str(artifacts / f"tab-badge-game-{width}.png"))
        (artifacts / f"tab-badge-favicon-{width}.png").write_bytes(base64.b64decode(href.split(",", 1)[1]))
    finally:
        context.close()

    context, page = _page_of(browser, site, other, width)
    try:
        page.goto(site + "/")
        page.locator(".nav-bell [data-waiting]").wait_for(state="attached")
        assert not page.title().startswith("(")
        assert page.locator("link[rel~='icon']").get_attribute("href").endswith(".svg")
        assert page.evaluate("document.documentElement.dataset.tabBadge") is None
    finally:
        context.close()


def test_a_move_that_ends_the_wait_clears_the_tab_at_once(browser, site, artifacts, alice, bob):
    from games.engine import GameState
    from games.models import Game
    from tests.games.play_helpers import choose, start_game

    game = start_game(alice, bob, pace="correspondence", name="Quick tab")
    seat = game.waiting_seats[0]
    waited = users_by_seat(game)[seat]
    # The waited player's turn, played up to its last decision (only "end turn" left) through
    # the services, so that one click in the page ends the wait.
    for _ in range(20):
        game.refresh_from_db()
        state = GameState.from_json(game.state)
        if state.current == seat and state.phase == "end_turn" and not state.stack:
            break
        assert game.waiting_seats == [seat], "the seed's turn should stay with the waited player"
        services.game_submit_action(game=game, user=waited, action=choose(state, seat),
                                    expected_version=game.version)
    assert Game.objects.get(pk=game.pk).waiting_seats == [seat]

    context, page = _page_of(browser, site, waited, 1280)
    try:
        page.goto(f"{site}/games/{game.pk}/")
        page.locator("html[data-tab-badge='1']").wait_for(state="attached")
        page.locator("button[name=type][value=end_turn]").click()
        # No reload and no minute's wait: the move's answer asks the bell again.
        page.locator("html:not([data-tab-badge])").wait_for(state="attached", timeout=10000)
        assert not page.title().startswith("(")
        assert page.locator("link[rel~='icon']").get_attribute("href").endswith(".svg")
    finally:
        context.close()
