"""axe-core (tests/e2e/axe.py) on the site's main pages, in light and dark mode, at desktop and
phone widths: no serious or critical violation. The pages: the lobby, a table's page, the game
page (with its dialogs open too), My games, the settings, a replay, a deed's card, and the
pages around them (the create-table form, the bell's list, a profile, the leaderboards)."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState
from tests.e2e import pages
from tests.e2e.axe import FAILING, axe_violations, describe
from tests.e2e.layout_helpers import DESKTOP, PHONE
from tests.games.play_helpers import autoplay, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def signed_in(browser, site, user, viewport, scheme):
    return pages.signed_in(browser, site, user, viewport=viewport, is_mobile=viewport["width"] < 600,
                           color_scheme=scheme)


@pytest.mark.parametrize(("viewport", "scheme"), [(DESKTOP, "light"), (DESKTOP, "dark"), (PHONE, "light"),
                                                  (PHONE, "dark")], ids=["1280-light", "1280-dark", "390-light",
                                                                         "390-dark"])
def test_the_main_pages_have_no_serious_accessibility_violation(browser, site, artifacts, alice, bob, charlie,
                                                                 viewport, scheme):
    # A game under way (deeds owned, a log), a finished one (its replay), an open table.
    game = autoplay(start_game(alice, bob, name="Axe game"), 40)
    state = GameState.from_json(game.state)
    deed = next(sq for sq in state.board.deeds if state.owner[sq] >= 0)
    done = start_game(alice, bob, name="Axe finished")
    autoplay(done, 12)
    done.refresh_from_db()
    services.game_submit_action(game=done, user=users_by_seat(done)[done.waiting_seats[0]],
                                action={"type": "surrender"}, expected_version=done.version)
    table = services.table_create(host=charlie, name="Axe open table", preset="world-classic", seat_count=3)
    services.table_join(table=table, user=alice)

    pages = [
        ("lobby", "/"),
        ("table", f"/tables/{table.pk}/"),
        ("new table", "/tables/new/"),
        ("game", f"/games/{game.pk}/"),
        ("deed card page", f"/games/{game.pk}/deeds/{deed}/"),
        ("my games", "/me/games/"),
        ("settings", "/accounts/settings/"),
        # The account pages of issue 31: second factors, sessions, the data export.
        ("two-factor", "/accounts/2fa/"),
        ("sessions", "/accounts/sessions/"),
        ("your data", "/accounts/data/"),
        ("replay", f"/games/{done.pk}/replay/?step=5"),
        ("finished game", f"/games/{done.pk}/"),
        ("notifications", "/notifications/"),
        ("profile", f"/players/{alice.username}/"),
        ("leaderboards", "/ratings/"),
    ]
    context, page = signed_in(browser, site, alice, viewport, scheme)
    tag = f"{viewport['width']}-{scheme}"
    failures = []

    def assert_no_serious_violation(page, what):
        # (Every page is checked before the test fails: one run lists all there is to fix.)
        found = axe_violations(page)
        if any(v["impact"] in FAILING for v in found):
            failures.append(f"{what} ({page.url}):\n{describe(found)}")

    try:
        for name, path in pages:
            page.goto(site + path)
            page.wait_for_load_state("networkidle")
            assert_no_serious_violation(page, name)
            page.screenshot(path=str(artifacts / f"axe-{name.replace(' ', '-')}-{tag}.png"), full_page=True)

        # The game page's dialogs, open.
        page.goto(f"{site}/games/{game.pk}/")
        page.locator(f'.board .sq[data-deed="{deed}"]').click()
        page.locator("#deed-dialog .deed-card").wait_for()
        assert_no_serious_violation(page, "the deed card dialog")
        page.keyboard.press("Escape")
        page.locator(".site-header .brand").focus()
        page.keyboard.press("?")
        page.locator("#shortcut-help").wait_for(state="visible")
        assert_no_serious_violation(page, "the shortcut list")
        page.screenshot(path=str(artifacts / f"axe-shortcuts-{tag}.png"))
    finally:
        context.close()
    assert not failures, "axe-core found serious or critical violations:\n" + "\n".join(failures)
