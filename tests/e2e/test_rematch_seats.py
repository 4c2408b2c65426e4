"""A rematch table and a moderator's removal in Debian's Chromium, at desktop (1280 px) and phone
(390 px) widths: a stranger sees the seats kept for the last game's players, with nothing to
sit on, while a kept player sits down in their own seat; a game's log says a moderator removed
a player. Nothing scrolls sideways; screenshots go to test-artifacts/e2e/."""

from __future__ import annotations

import pytest

from moderation import services as moderation_services
from ratings import services
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, width_id
from tests.e2e.test_deleted_player import signed_in
from tests.factories import UserFactory
from tests.games.play_helpers import start_game
from tests.moderation.conftest import make_moderator
from tests.ratings.conftest import store_finished
from tests.ratings.helpers import play_record

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_a_stranger_finds_the_rematch_seats_kept_and_a_kept_player_sits_in_theirs(
    browser, site, artifacts, alice, bob, charlie, viewport
):
    game = store_finished(play_record("classic", 3, 7), [alice, bob, charlie], preset="classic")
    table, _created = services.rematch_create(game=game, by=alice)
    bobs = game.table.seats.get(user=bob).position
    dave = UserFactory(username="dave", display_name="Dave")
    url = f"{site}/tables/{table.pk}/"

    context, page = signed_in(browser, site, dave, viewport)
    other_context, other = signed_in(browser, site, bob, viewport)
    try:
        page.goto(url)
        kept = page.locator(".seat", has_text="Kept for Bob until")
        kept.wait_for()
        assert page.locator(".seat", has_text="Kept for Charlie until").count() == 1
        assert page.get_by_role("button", name="Sit here").count() == 0
        assert page.get_by_role("button", name="Join the table").count() == 0
        assert page_width(page) <= viewport["width"]
        page.locator("#seats-title").locator("xpath=ancestor::section").screenshot(
            path=str(artifacts / f"rematch-kept-seats-{viewport['width']}.png"))

        other.goto(url)
        seat = other.locator(".seat").nth(bobs)
        seat.get_by_role("button", name="Sit here").click()
        other.locator(".seat-mine", has_text="Bob").wait_for()
        assert "seat-mine" in (other.locator(".seat").nth(bobs).get_attribute("class") or "")
        # The stranger's page polls the table: Bob's seat shows him, Charlie's is still kept.
        kept.wait_for(state="detached")
        assert "Bob" in page.locator(".seat").nth(bobs).inner_text()
        assert page.locator(".seat", has_text="Kept for Charlie until").count() == 1
        page.locator("#seats-title").locator("xpath=ancestor::section").screenshot(
            path=str(artifacts / f"rematch-one-seated-{viewport['width']}.png"))
    finally:
        context.close()
        other_context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_the_log_says_a_moderator_removed_the_player(browser, site, artifacts, alice, bob, charlie, viewport):
    game = start_game(alice, bob, charlie, pace="correspondence")
    moderation_services.game_remove_player(moderator=make_moderator("mona"), game=game, user=charlie,
                                           reason="Abusive")

    context, page = signed_in(browser, site, alice, viewport)
    try:
        page.goto(f"{site}/games/{game.pk}/")
        entry = page.locator(".log-entry", has_text="Charlie is removed from the game by a moderator.")
        entry.wait_for()
        assert page.locator(".log-entry", has_text="Charlie surrenders.").count() == 0
        assert page_width(page) <= viewport["width"]
        entry.screenshot(path=str(artifacts / f"moderator-removal-log-{viewport['width']}.png"))
    finally:
        context.close()
