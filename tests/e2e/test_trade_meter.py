"""The trade meter in a browser (issue 30): on a table with the option, the proposer ticks the
deeds of a trade, asks for the meter and, once the estimate is done (the part polls its row),
reads both players' chances without and with the trade and the verdict; after the offer is
sent, its receiver sees the same figures beside it. The table form offers the option."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from config.celery import app as celery_app
from games import meter
from games.engine import GameState
from games.models import Game, TradeMeter
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, width_id
from tests.e2e.test_keyboard import open_page
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def inline_meter(monkeypatch):
    """The meter's task run as its row commits (no worker here), with few playouts."""
    monkeypatch.setattr(meter, "METER_PLAYOUTS", 40)
    monkeypatch.setattr(meter, "METER_TARGET", None)
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


def _meter_game(alice, bob) -> Game:
    game = start_game(alice, bob, preset="classic-short")
    game.table.advisor = True
    game.table.save(update_fields=["advisor"])
    return play_until(game, lambda st: st.pending() == "roll" and cheapest_deed(st, 0) is not None
                      and cheapest_deed(st, 1) is not None)


def ask_meter(page, mine: int, theirs: int) -> None:
    """In the trade builder: give the deed ``mine`` for ``theirs`` and ask for the meter."""
    page.locator("#trade summary").click()
    page.locator(f'input[name="give_squares"][value="{mine}"]').check()
    page.locator(f'input[name="take_squares"][value="{theirs}"]').check()
    page.get_by_role("button", name="Estimate win chances").click()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_both_players_read_the_meter_of_a_trade(browser, site, artifacts, alice, bob, inline_meter, viewport):
    game = _meter_game(alice, bob)
    state = GameState.from_json(game.state)
    me, other = state.current, 1 - state.current
    mine, theirs = cheapest_deed(state, me), cheapest_deed(state, other)
    users = users_by_seat(game)
    names = [p.name for p in state.players]
    width = viewport["width"]

    context, page = open_page(browser, site, users[me], game, viewport)
    try:
        ask_meter(page, mine, theirs)
        table = page.locator("#trade-meter table.meter-table")
        table.wait_for(timeout=60000)
        text = page.locator("#trade-meter").inner_text()
        assert "Trade meter:" in text and names[me] in text and names[other] in text
        assert "Without the trade" in text and "With the trade" in text
        page.locator("#trade-meter").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"trade-meter-builder-{width}.png"), full_page=True)
        assert page_width(page) <= width
        figures = table.inner_text()
        # Sent: the proposer's own page shows the offer with the same meter.
        page.get_by_role("button", name=f"Offer to {names[other]}").click()
        page.locator(".offer .trade-meter .meter-verdict").wait_for(timeout=30000)
    finally:
        context.close()
    assert TradeMeter.objects.count() == 1

    context, page = open_page(browser, site, users[other], game, viewport)
    try:
        if width >= 1000:
            offered = page.locator(".offer .trade-meter table.meter-table")
            offered.wait_for(timeout=30000)
            assert offered.inner_text() == figures
        else:
            # A phone's board centre: the verdict and each side's chance in one line, the table a
            # link away; the answer's buttons stay inside the centre.
            compact = page.locator(".offer .meter-compact")
            compact.wait_for(timeout=30000)
            row = TradeMeter.objects.get()
            view = meter.meter_view(row, names=names)
            for side in view["sides"]:
                assert f"{side['name']} {side['now']['p']}% → {side['after']['p']}%" in compact.inner_text()
            assert not page.locator(".offer .meter-table").is_visible()
            centre = page.locator("#game .centre").bounding_box()
            accept = page.get_by_role("button", name="Accept").bounding_box()
            assert accept["y"] + accept["height"] <= centre["y"] + centre["height"] + 0.5
        page.screenshot(path=str(artifacts / f"trade-meter-offer-{width}.png"), full_page=True)
        assert page_width(page) <= width
        assert page.get_by_role("button", name="Accept").is_visible()
    finally:
        context.close()
    assert TradeMeter.objects.count() == 1


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_the_table_form_offers_the_meter_and_says_why_it_refuses_it(browser, site, artifacts, alice, viewport):
    client = Client()
    client.force_login(alice)
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    try:
        page.goto(f"{site}/tables/new/")
        page.get_by_label("Trade meter").check()
        page.locator("form button[type=submit]").last.click()
        page.get_by_text("only for unrated tables").first.wait_for()
        page.locator(".field-error").first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"trade-meter-form-{viewport['width']}.png"))
        assert page_width(page) <= viewport["width"]
        assert not alice.hosted_tables.exists()
    finally:
        context.close()
