"""User-written names are isolated on the pages a browser draws (issue 26, item 29): a name
written right to left, or a chat line or table name written before the names were checked with
a right-to-left override in it, does not reorder the words beside it. The browser says each
name's element is a bidi isolate (its computed unicode-bidi), and the words after a name keep
their place; screenshots of the lobby and the game page with its chat land in
test-artifacts/e2e/ (desktop and phone)."""

from __future__ import annotations

import pytest

from games import services
from moderation import services as moderation_services
from moderation.models import ChatMessage
from tests.e2e.pages import at_width, signed_in
from tests.games.play_helpers import start_game
from tests.moderation.conftest import make_moderator

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ARABIC = "\u0623\u0644\u064a\u0633"  # "Alice" in Arabic letters

ISOLATION_JS = """(selector) => [...document.querySelectorAll(selector)].map(
  e => ({text: e.textContent.trim(), bidi: getComputedStyle(e).unicodeBidi}))"""


@pytest.mark.parametrize("width", [1280, 390])
def test_names_on_the_lobby_and_the_game_page_are_isolated(browser, site, artifacts, alice, bob, width):
    alice.display_name = ARABIC
    alice.save(update_fields=["display_name"])
    services.table_create(host=alice, name=f"{ARABIC} 7", preset="classic")
    game = start_game(alice, bob, pace="correspondence", name="Duel")
    moderation_services.chat_post(user=alice, game=game, text="123 hello", is_player=True)
    ChatMessage.objects.create(game=game, author=bob, author_name="np3\u202ebob", text="hi, it's me")

    context, page = signed_in(browser, site, bob, **at_width(width))
    try:
        page.goto(f"{site}/")
        cards = page.evaluate(ISOLATION_JS, ".table-card h2 bdi")
        assert {"text": f"{ARABIC} 7", "bidi": "isolate"} in cards, cards
        page.screenshot(path=str(artifacts / f"bidi-lobby-{width}.png"), full_page=False)

        page.goto(f"{site}/games/{game.pk}/")
        page.locator("#chat-lines .chat-author").first.wait_for()
        names = page.evaluate(ISOLATION_JS, "#game .player-name bdi")
        assert {"text": ARABIC, "bidi": "isolate"} in names, names
        authors = page.evaluate(ISOLATION_JS, "#chat-lines .chat-author")
        assert [a["bidi"] for a in authors] == ["isolate", "isolate"], authors
        # The override inside the old name ends with its element: the text after it reads as written.
        texts = page.evaluate(ISOLATION_JS, "#chat-lines .chat-text")
        assert [t["bidi"] for t in texts] == ["isolate", "isolate"], texts
        log = page.evaluate(ISOLATION_JS, "#game .log-entry bdi")
        assert log and all(e["bidi"] == "isolate" for e in log), log
        waiting = page.evaluate(ISOLATION_JS, "#decision .waiting bdi")
        assert waiting == [{"text": ARABIC, "bidi": "isolate"}], waiting
        page.locator("#decision").screenshot(path=str(artifacts / f"bidi-centre-{width}.png"))
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"bidi-game-{width}.png"), full_page=False)

        page.goto(f"{site}/players/{alice.username}/")
        assert page.evaluate(ISOLATION_JS, "h1 bdi") == [{"text": ARABIC, "bidi": "isolate"}]
        page.screenshot(path=str(artifacts / f"bidi-profile-{width}.png"), full_page=False)
    finally:
        context.close()
    moderation_services.report_create(reporter=bob, reason="name", target=alice)
    context, page = signed_in(browser, site, make_moderator("mona"), **at_width(width))
    try:
        page.goto(f"{site}/moderation/")
        found = page.evaluate(ISOLATION_JS, "main bdi")
        assert {"text": ARABIC, "bidi": "isolate"} in found, found
        page.screenshot(path=str(artifacts / f"bidi-queue-{width}.png"), full_page=False)
    finally:
        context.close()
