"""The profile and blocks (issue 13) in Debian's Chromium at desktop (1280 px) and phone (390 px)
widths: a player blocks another from their profile and unblocks them again, a moderator finds the
account's moderation history there, and a player the owner blocks finds no profile at all.
Nothing scrolls sideways; screenshots go to test-artifacts/e2e/."""

from __future__ import annotations

import pytest

from moderation import services
from moderation.models import Block
from ratings import services as rating_services
from tests.e2e.pages import at_width, signed_in
from tests.moderation.conftest import make_moderator
from tests.ratings.conftest import store_finished
from tests.ratings.helpers import play_record

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _page(browser, site, user, width):
    return signed_in(browser, site, user, **at_width(width))


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", [1280, 390])
def test_blocking_from_the_profile_and_what_each_viewer_sees(browser, site, artifacts, alice, bob, charlie, width):
    game = store_finished(play_record("classic", 2, 1), [alice, bob], preset="classic")
    rating_services.game_result_record(game_id=game.pk)
    url = f"{site}/players/alice/"

    # Bob, any signed-in player: a Block button; a click blocks Alice and says so.
    context, page = _page(browser, site, bob, width)
    try:
        page.goto(url)
        block = page.get_by_role("button", name="Block", exact=True)
        assert block.is_visible() and _fits(page)
        page.screenshot(path=str(artifacts / f"profile-other-viewer-{width}.png"))
        block.click()
        page.get_by_text("You have blocked this player").wait_for()
        assert page.url == url and Block.objects.filter(blocker=bob, blocked=alice).exists()
        unblock = page.get_by_role("button", name="Unblock")
        assert unblock.is_visible() and _fits(page)
        page.screenshot(path=str(artifacts / f"profile-blocker-{width}.png"))
        unblock.click()
        block.wait_for()
        assert not Block.objects.exists()
    finally:
        context.close()

    # Mona, a moderator: the account's moderation history, one click away.
    mona = make_moderator("mona")
    context, page = _page(browser, site, mona, width)
    try:
        page.goto(url)
        link = page.get_by_role("link", name="Moderation history")
        assert link.is_visible() and _fits(page)
        page.screenshot(path=str(artifacts / f"profile-moderator-{width}.png"))
        link.click()
        page.wait_for_url(f"{site}/moderation/users/{alice.pk}/")
    finally:
        context.close()

    # Charlie, whom Alice blocks: the page of an account that does not exist.
    services.block_create(user=alice, blocked=charlie)
    context, page = _page(browser, site, charlie, width)
    try:
        response = page.goto(url)
        assert response.status == 404
        page.get_by_role("heading", name="Page not found").wait_for()
        assert _fits(page)
        page.screenshot(path=str(artifacts / f"profile-blocked-viewer-{width}.png"))
    finally:
        context.close()
