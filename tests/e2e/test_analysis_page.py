"""Issue 30 in Debian's Chromium at desktop (1280 px) and phone (390 px) widths: the analysis page
follows its computation (the progress swapped for the chart by its poll, no reload), the chart
and its table read well without sideways scrolling, and "play on from here" on a replay step
takes the person to their own game against bots at that position."""

from __future__ import annotations

import pytest

from analysis import services
from analysis.models import GameAnalysis, Sandbox
from games.models import Seat
from tests.e2e.axe import assert_no_serious_violation
from tests.e2e.pages import at_width, signed_in
from tests.ratings.conftest import store_finished
from tests.ratings.helpers import play_record

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _cheap_estimate(settings) -> None:
    settings.ANALYSIS_MAX_PLAYOUTS = 12
    settings.ANALYSIS_TARGET = None
    settings.ANALYSIS_SWING_PLAYOUTS = 8


@pytest.mark.parametrize("width", [1280, 390])
def test_the_analysis_page_follows_the_computation_and_reads_well(browser, site, artifacts, alice, bob, charlie,
                                                                  width):
    game = store_finished(play_record("classic", 3, 7), [alice, bob, charlie], preset="classic")
    # As a task that has not begun yet leaves it (runs=1: the page does not queue another).
    GameAnalysis.objects.create(game=game, rounds_total=0, runs=1)
    context, page = signed_in(browser, site, bob, **at_width(width))
    try:
        page.goto(f"{site}/games/{game.pk}/")
        page.get_by_role("link", name="Win chances and turning points").click()
        page.get_by_text("The analysis is waiting for its turn").wait_for()
        assert services.analysis_run(game_id=game.pk) == "done"
        # The page's poll (every 2 s) swaps the progress for the analysis.
        chart = page.locator("figure.analysis-chart svg")
        chart.wait_for()
        assert page.locator("polyline.chart-line").count() == 3
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = chart.bounding_box()
        assert box["width"] > 300 and box["height"] > 100
        # The table for screen readers: a row per round and the end, a column per player.
        rows = GameAnalysis.objects.get(game=game).points
        assert page.locator("details.analysis-table tbody tr").count() == len(rows)
        assert page.locator("details.analysis-table thead th bdi").all_text_contents() == ["Alice", "Bob", "Charlie"]
        assert 1 <= page.locator("ol.turning-points > li").count() <= 3
        assert page.locator("ol.turning-points a").first.get_attribute("href").startswith(f"/games/{game.pk}/replay/")
        page.screenshot(path=str(artifacts / f"analysis-{width}.png"), full_page=True)
        page.locator("details.analysis-table summary").click()
        page.locator("details.analysis-table table").screenshot(path=str(artifacts / f"analysis-table-{width}.png"))
        # axe-core: nothing serious, light and dark (the table open, its contrast checked too).
        assert_no_serious_violation(page, "analysis page, light")
        page.emulate_media(color_scheme="dark")
        assert_no_serious_violation(page, "analysis page, dark")
        page.screenshot(path=str(artifacts / f"analysis-dark-{width}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_play_on_from_a_replay_step(browser, site, artifacts, alice, bob, width):
    game = store_finished(play_record("classic", 2, 7), [alice, bob], preset="classic")
    context, page = signed_in(browser, site, bob, **at_width(width))
    try:
        page.goto(f"{site}/games/{game.pk}/replay/?step=80")
        page.get_by_label("Play on from here as").select_option(label="Bob")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.locator("form.play-on").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"analysis-play-on-form-{width}.png"))
        page.get_by_role("button", name="Play on against bots").click()
        page.wait_for_url(lambda url: "/replay/" not in url)
        sandbox = Sandbox.objects.get()
        assert page.url.rstrip("/").endswith(f"/games/{sandbox.game_id}")
        assert (sandbox.step, sandbox.seat) == (80, 1)
        seats = list(sandbox.game.table.seats.order_by("position"))
        assert [(s.user_id, s.bot) for s in seats] == [(None, Seat.Bot.STRATEGY), (bob.pk, "")]
        page.locator("#game").wait_for()
        page.screenshot(path=str(artifacts / f"analysis-play-on-game-{width}.png"))
    finally:
        context.close()
