"""A display name as long as it may be and without a space: every page that shows it stays
within the screen, and the name is not cut off where it shows (it wraps, or in the site's
header it ends in an ellipsis)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games import services
from games.engine import GameState
from tests.e2e.layout_helpers import DESKTOP, PHONE, SMALL_PHONE, page_width, width_id
from tests.e2e.test_phone_board import open_game
from tests.e2e.test_trade_offer_layout import CENTRE_JS
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# As long as a display name may be (accounts.User.display_name), with no space to break at.
LONG_NAME = "Bartholomew_Fitzwilliam_Montgomery_3rd_X"

# Every text that holds the name (its first 20 letters: a line may break inside it), shown on
# the page: where its box lies, and whether its element cuts it off (an ellipsis is allowed:
# the element says it is cut).
NAME_JS = """(name) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.includes(name.slice(0, 20))) continue;
    const el = node.parentElement;
    if (el.closest('[hidden], .visually-hidden, option, script')) continue;
    const style = getComputedStyle(el);
    const range = document.createRange();
    range.selectNodeContents(node);
    // (an ellipsis cuts the text at its element's box: that box is what shows)
    const cut = style.textOverflow === 'ellipsis' && style.overflowX !== 'visible';
    const r = cut ? el.getBoundingClientRect() : range.getBoundingClientRect();
    if (r.width === 0 || style.visibility === 'hidden') continue;
    out.push({tag: el.tagName, cls: el.className, text: node.textContent.trim().slice(0, 60),
              left: r.left, right: r.right,
              clipped: el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible'
                && style.textOverflow !== 'ellipsis'});
  }
  return out;
}"""


def check_page(page, width: int, shot) -> list[dict]:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shot), full_page=True)
    assert page_width(page) <= width, f"{page.url}: the page is {page_width(page)} px wide"
    found = page.evaluate(NAME_JS, LONG_NAME)
    assert found, f"{page.url}: the name is not on the page"
    for el in found:
        assert el["left"] >= -1 and el["right"] <= width + 1, (page.url, el)
        assert not el["clipped"], (page.url, el)
    return found


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, SMALL_PHONE], ids=width_id)
def test_a_long_name_without_spaces_stays_on_the_screen(browser, site, artifacts, alice, bob,
                                                        charlie, viewport):
    width = viewport["width"]
    alice.display_name = LONG_NAME
    alice.save(update_fields=["display_name"])
    assert len(LONG_NAME) == User._meta.get_field("display_name").max_length
    # A game where bob makes alice an offer (the board's centre shows it; her panel, the log and
    # the trade builder name her), and an open table of hers for the lobby and the table page.
    game = play_until(start_game(alice, bob, charlie),
                      lambda st: st.pending() == "roll" and st.current == 1
                      and cheapest_deed(st, 0) is not None and cheapest_deed(st, 1) is not None)
    # Charlie's trade builder open on a trade with her, before any offer is pending: its tab,
    # "... gives", "Offer to ...".
    context, page = open_game(browser, site, charlie, game, viewport)
    try:
        page.goto(f"{site}/games/{game.pk}/?trade_with=0#trade")
        page.locator("#trade[open]").wait_for()
        assert LONG_NAME in page.locator("#trade").text_content()
        check_page(page, width, artifacts / f"long-name-trade-{width}.png")
    finally:
        context.close()
    state = GameState.from_json(game.state)
    services.game_submit_action(
        game=game, user=users_by_seat(game)[1], expected_version=game.version,
        action={"type": "propose", "to": 0, "give": {"cash": 10, "squares": [cheapest_deed(state, 1)]},
                "take": {"squares": [cheapest_deed(state, 0)]}})
    table = services.table_create(host=alice, name="Open table", preset="classic", seat_count=3)
    services.table_join(table=table, user=bob)

    context, page = open_game(browser, site, alice, game, viewport)
    try:
        check_page(page, width, artifacts / f"long-name-game-{width}.png")
        # The offer's answers still fit the board's centre.
        answers = ["button[value=accept]", "button[value=reject]", "a[href*=counter]"]
        for part in page.evaluate(CENTRE_JS, answers):
            assert not part.get("missing") and part["inside"] and part["reachable"], part
        for url, name in ((reverse("games:table", args=[table.pk]), "table"),
                          (reverse("games:lobby"), "lobby")):
            page.goto(site + url)
            check_page(page, width, artifacts / f"long-name-{name}-{width}.png")
    finally:
        context.close()
    # Bob's pages name her too: the game page (her panel, the log, his offer to her) and his
    # My games ("with ...").
    context, page = open_game(browser, site, bob, game, viewport)
    try:
        check_page(page, width, artifacts / f"long-name-game-bob-{width}.png")
        page.goto(site + reverse("games:my_games"))
        check_page(page, width, artifacts / f"long-name-my-games-bob-{width}.png")
    finally:
        context.close()
