"""A trade offer received: on a phone too, all of it fits the board's centre (the dice, the
terms, Accept, Reject and Counter-offer, or why there is no counter-offer), and none of it lies
under the board's squares."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState
from games.models import Game
from tests.e2e.layout_helpers import DESKTOP, PHONE, SMALL_PHONE, page_width
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Each part of the centre (the first of its selector that shows): whether it lies inside the
# centre's box, and whether a tap at its middle reaches it (and not a square drawn over it).
CENTRE_JS = """(selectors) => {
  const centre = document.querySelector('#game .centre');
  const c = centre.getBoundingClientRect();
  return selectors.map(sel => {
    const el = [...document.querySelectorAll('#game .centre ' + sel)]
      .find(e => e.getClientRects().length);
    if (!el) return {sel, missing: true};
    const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return {sel, top: b.top, bottom: b.bottom, centreTop: c.top, centreBottom: c.bottom,
            inside: b.width > 0 && b.left >= c.left - .5 && b.right <= c.right + .5
              && b.top >= c.top - .5 && b.bottom <= c.bottom + .5,
            reachable: !!hit && (hit === el || el.contains(hit))};
  });
}"""


def offered_game(alice, bob, preset: str) -> Game:
    """Bob has just offered alice a deed and cash for one of hers."""
    game = play_until(start_game(alice, bob, preset=preset),
                      lambda st: st.pending() == "roll" and st.current == 1
                      and cheapest_deed(st, 0) is not None and cheapest_deed(st, 1) is not None)
    state = GameState.from_json(game.state)
    services.game_submit_action(
        game=game, user=users_by_seat(game)[1], expected_version=game.version,
        action={"type": "propose", "to": 0, "give": {"cash": 100, "squares": [cheapest_deed(state, 1)]},
                "take": {"squares": [cheapest_deed(state, 0)]}})
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("preset", "viewport"),
    [("classic", PHONE), ("world-classic", PHONE), ("classic", SMALL_PHONE),
     ("world-classic", SMALL_PHONE), ("classic", DESKTOP)],
    ids=lambda v: v if isinstance(v, str) else str(v["width"]),
)
def test_a_received_trade_offer_fits_the_board_centre(browser, site, artifacts, alice, bob, preset,
                                                      viewport):
    game = offered_game(alice, bob, preset)
    width = viewport["width"]
    context, page = open_game(browser, site, alice, game, viewport)
    try:
        page.locator("#game .board").screenshot(path=str(artifacts / f"offer-{preset}-{width}.png"))
        assert page_width(page) <= width
        parts = [".dice", ".offer-title", ".offer-sides", "button[value=accept]",
                 "button[value=reject]"]
        state = GameState.from_json(game.state)
        if state.rules.trade_windows == "any_time":
            parts.append("a[href*=counter]")
        else:  # (no counter-offer outside one's own turn: the offer says why)
            parts.append(".offer .help")
        for part in page.evaluate(CENTRE_JS, parts):
            assert not part.get("missing"), part
            assert part["inside"], part
            assert part["reachable"], part
        # The counter-offer link works from there: it opens the builder with the terms swapped.
        if "a[href*=counter]" in parts:
            page.locator("#game .centre a[href*=counter]").click()
            page.locator("#trade[open]").wait_for()
            assert page.locator("#trade summary").text_content().strip().startswith("Counter-offer")
    finally:
        context.close()
