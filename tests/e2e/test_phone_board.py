"""The board on a phone: every square says which it is, the page does not scroll sideways, and
a tap on a square shows its full name, price, owner, buildings and rent.

A game is played on a little through the service, a few buildings and a mortgage are added to
its position (so that the board shows what a real game's does), and the game page is opened in
phone-sized windows of Debian's Chromium. The screenshots are saved in test-artifacts/e2e/.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games.engine import HOTEL, GameState
from games.models import Game
from tests.games.play_helpers import autoplay, start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# What the page's own script measures of every square: its short label (or a corner's words),
# where it is drawn, and whether it fits its square.
SQUARES_JS = """() => [...document.querySelectorAll('.board .sq')].map((sq, index) => {
  const box = sq.getBoundingClientRect();
  const label = sq.querySelector('.sq-short') || sq.querySelector(
    '.corner-text, .go-text, .jail-cell span');
  const lbox = label.getBoundingClientRect();
  const style = getComputedStyle(label);
  // The text's own width against its box's, unrounded (scrollWidth and clientWidth round a
  // 21.2 px word in a 20.3 px box to 21 and 20).
  const range = document.createRange();
  range.selectNodeContents(label);
  const text = range.getBoundingClientRect();
  const room = lbox.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
  return {
    index, corner: sq.classList.contains('corner'), text: label.textContent.trim(),
    shown: style.display !== 'none' && style.visibility !== 'hidden' && lbox.width > 0,
    fontPx: parseFloat(style.fontSize),
    clipped: label.scrollWidth > label.clientWidth + 1 || text.width > room + .25,
    textWidth: text.width, room,
    inside: lbox.left >= box.left - .5 && lbox.right <= box.right + .5
      && lbox.top >= box.top - .5 && lbox.bottom <= box.bottom + .5,
    right: lbox.right,
    name: (sq.querySelector('.sq-name, .corner-text, .go-text') || {}).textContent || '',
  };
})"""


def furnish(game: Game) -> None:
    """Houses on the first street, a hotel on the last one, the second railroad mortgaged: the
    board's busiest look, whatever the dice did."""
    state = GameState.from_json(game.state)
    board = state.board
    streets = [s.index for s in board.squares if s.kind == "street"]
    rails = [s.index for s in board.squares if s.kind == "railroad"]
    for sq, level in ((streets[0], 3), (streets[1], 2), (streets[-1], HOTEL)):
        state.owner[sq], state.level[sq] = 0, level
    state.owner[rails[1]], state.mortgaged[rails[1]] = 1, True
    game.state = state.to_json()
    game.save(update_fields=["state"])


def open_game(browser, site: str, user, game: Game, viewport: dict) -> tuple[object, object]:
    """A signed-in phone-like window on the game page."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        viewport=viewport, is_mobile=viewport["width"] < 600, has_touch=True
    )
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site, "value": session}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{site}/games/{game.pk}/")
    page.locator("#game .board").wait_for()
    return context, page


# 390 px: a common phone; 360 px and 320 px: small ones; 560 px: a phone held sideways, where
# the board also shows prices. Both boards at 390 and 320 px.
@pytest.mark.parametrize(
    ("preset", "width"),
    [("classic", 390), ("world-classic", 390), ("world-classic", 360), ("classic", 320),
     ("world-classic", 320), ("classic", 560)],
)
def test_every_square_has_a_readable_label_on_a_phone(
    browser, site, artifacts, alice, bob, charlie, preset, width
):
    game = autoplay(start_game(alice, bob, charlie, preset=preset), 60)
    furnish(game)
    context, page = open_game(browser, site, alice, game, {"width": width, "height": 844})
    try:
        # The page fits the screen: nothing scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        squares = page.evaluate(SQUARES_JS)
        assert len(squares) == 40
        for sq in squares:
            assert sq["text"], sq
            assert sq["shown"], sq
            assert not sq["clipped"], sq
            assert sq["inside"], sq
            assert sq["right"] <= width, sq
            assert sq["fontPx"] >= 5.5, sq
        labels = [sq for sq in squares if not sq["corner"]]
        assert len(labels) == 36
        # Short labels, in the larger type: the square of index 1 first.
        first = page.locator(".board .sq").nth(1).locator(".sq-short")
        assert first.is_visible()
        box = first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        # (7 px from 360 px up; a 320 px phone's squares are 23 px wide, room for 6.5 px type)
        smallest = 7 if width >= 360 else 6.4
        assert all(len(sq["text"]) <= 5 and sq["fontPx"] >= smallest for sq in labels), labels
        # The full names are hidden from sight only: a screen reader still reads them, and not
        # the short labels.
        tree = page.locator(".board").aria_snapshot()
        state = GameState.from_json(game.state)
        names = [s.name for s in state.board.squares if s.index not in (0, 10, 20, 30)]
        assert all(name in tree for name in names), tree
        # (the labels that are not a word of a full name: "Med", "N.Y.", "Inc"...)
        def word(label: str) -> re.Pattern:
            return re.compile(rf"(?<![\w.]){re.escape(label)}(?![\w.])")

        own = [sq["text"] for sq in labels if not word(sq["text"]).search(" ".join(names))]
        assert len(own) > 20 and not [label for label in own if word(label).search(tree)], tree
        hidden = page.locator(".board .sq-name").first.bounding_box()
        assert hidden["width"] <= 1 and hidden["height"] <= 1
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"board-phone-{width}-{preset}.png"))

        # A tap on a deed opens its card (game.js); closed, focus is back on the square, which
        # shows what there is to know about it over the board's centre.
        street = next(s for s in state.board.squares if s.kind == "street")
        square = page.locator(".board .sq").nth(street.index)
        square.tap()
        page.locator("#deed-dialog .deed-card").wait_for()
        assert page.locator("#deed-card-title").text_content().strip() == street.name
        page.locator("#deed-dialog [data-close]").tap()
        page.locator("#deed-dialog").wait_for(state="hidden")
        assert page.evaluate("document.activeElement.classList.contains('sq')")
        card = page.evaluate(
            "i => getComputedStyle(document.querySelectorAll('.board .sq')[i], '::before').content",
            street.index,
        )
        # (in the board's own word for its buildings: the world board builds branches)
        built = "3 branches" if state.board.level_names[0] == "branch" else "3 houses"
        assert street.name in card and built in card and "rent $" in card, card
        tapped = artifacts / f"board-phone-{width}-{preset}-tap.png"
        page.locator(".board").screenshot(path=str(tapped))
        # A tap elsewhere closes it.
        page.locator(".board .decision-text").tap()
        page.wait_for_function("() => !document.activeElement.classList.contains('sq')")
    finally:
        context.close()


def test_the_desktop_board_keeps_its_full_names(browser, site, artifacts, alice, bob):
    game = autoplay(start_game(alice, bob), 20)
    context, page = open_game(browser, site, alice, game, {"width": 1400, "height": 1000})
    try:
        assert page.locator(".board .sq-name").first.is_visible()
        assert not page.locator(".board .sq-short").first.is_visible()
        page.locator(".board").screenshot(path=str(artifacts / "board-desktop.png"))
    finally:
        context.close()
