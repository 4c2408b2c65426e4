"""What a player sees after a game and on a profile, in Debian's Chromium at desktop (1280 px)
and phone (390 px) widths: the game-over summary with its net-worth chart, the profile with a
rating graph, and the leaderboard. Nothing scrolls sideways; screenshots go to
test-artifacts/e2e/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ratings import services
from ratings.models import Rating
from tests.e2e.pages import at_width, signed_in
from tests.ratings.conftest import store_finished
from tests.ratings.helpers import play_record

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _history(alice, bob, charlie):
    """Six rated games over six days (Alice's rating leaves provisional), the last one open."""
    now = timezone.now()
    game = None
    for i, seed in enumerate((1, 2, 3, 4, 5, 7)):
        players = [alice, bob, charlie] if seed == 7 else [alice, bob]
        record = play_record("classic", len(players), seed)
        game = store_finished(record, players, preset="classic", finished_at=now - timedelta(days=6 - i))
        services.game_result_record(game_id=game.pk)
    return game


def _page(browser, site, user, width):
    return signed_in(browser, site, user, **at_width(width))


@pytest.mark.parametrize("width", [1280, 390])
def test_summary_profile_and_leaderboard_read_well(browser, site, artifacts, alice, bob, charlie, width):
    game = _history(alice, bob, charlie)
    context, page = _page(browser, site, alice, width)
    try:
        page.goto(f"{site}/games/{game.pk}/")
        summary = page.locator("#game-summary")
        summary.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert summary.locator("polyline.chart-line").count() == 3
        assert summary.locator("table.standings tbody tr").count() == 3
        assert summary.get_by_role("button", name="Rematch").is_visible()
        chart = summary.locator("figure.chart svg").bounding_box()
        assert chart["width"] > 300 and chart["height"] > 100
        summary.screenshot(path=str(artifacts / f"ratings-summary-{width}.png"))

        page.goto(f"{site}/players/alice/")
        page.locator("#ratings-title").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        rating = Rating.objects.get(user=alice, family="classic")
        assert not rating.provisional
        assert page.locator(".rating-value").first.inner_text().startswith(str(rating.value))
        assert page.locator(".rating-card polyline.chart-line").count() == 1
        assert page.locator(".recent-games tbody tr").count() == 6
        page.screenshot(path=str(artifacts / f"ratings-profile-{width}.png"), full_page=True)

        page.goto(f"{site}/ratings/classic/")
        page.locator("table.leaderboard").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.locator("table.leaderboard tbody tr").count() == 3
        page.screenshot(path=str(artifacts / f"ratings-leaderboard-{width}.png"), full_page=True)
    finally:
        context.close()
