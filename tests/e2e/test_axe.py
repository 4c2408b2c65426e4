"""axe-core (tests/e2e/axe.py) on the site's main pages, in light and dark mode, at desktop and
phone widths: no serious or critical violation. The pages: the lobby, a table's page, the game
page (with its dialogs open too), My games, the settings, a replay, a deed's card, and the
pages around them (the create-table form, the bell's list, a profile, the leaderboards).

Each page is loaded once per width and checked in both colour schemes: the site's dark mode is
CSS alone (``prefers-color-scheme`` media queries, no script reads it), so switching the emulated
scheme on the loaded page (``page.emulate_media``) gives the page a dark load would, for half the
page loads. One browser context per person and width, its page reused from one check to the next."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState
from tests.e2e import pages
from tests.e2e.axe import FAILING, axe_violations, describe
from tests.e2e.layout_helpers import DESKTOP, PHONE
from tests.games.play_helpers import autoplay, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SCHEMES = ("light", "dark")
WIDTHS = [DESKTOP, PHONE]
WIDTH_IDS = ["1280", "390"]


def signed_in(browser, site, user, viewport):
    return pages.signed_in(browser, site, user, viewport=viewport, is_mobile=viewport["width"] < 600)


class Checker:
    """Runs axe on a page in each colour scheme in turn, noting the serious or critical violations
    (every page is checked before the test fails: one run lists all there is to fix) and saving a
    screenshot of each (test-artifacts/e2e/axe-<what>-<width>-<scheme>.png)."""

    def __init__(self, artifacts, viewport):
        self.artifacts = artifacts
        self.width = viewport["width"]
        self.failures: list[str] = []
        self.checked: list[tuple[str, str]] = []

    def __call__(self, page, what: str, *, full_page: bool = True) -> None:
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
            found = axe_violations(page)
            if any(v["impact"] in FAILING for v in found):
                self.failures.append(f"{what}, {self.width}-{scheme} ({page.url}):\n{describe(found)}")
            name = f"axe-{what.replace(' ', '-')}-{self.width}-{scheme}.png"
            page.screenshot(path=str(self.artifacts / name), full_page=full_page)
            self.checked.append((what, scheme))

    def assert_none_failed(self) -> None:
        assert not self.failures, "axe-core found serious or critical violations:\n" + "\n".join(self.failures)


@pytest.mark.parametrize("viewport", WIDTHS, ids=WIDTH_IDS)
def test_the_main_pages_have_no_serious_accessibility_violation(browser, site, artifacts, alice, bob, charlie,
                                                                 viewport):
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
    context, page = signed_in(browser, site, alice, viewport)
    check = Checker(artifacts, viewport)
    try:
        for name, path in pages:
            page.goto(site + path)
            page.wait_for_load_state("networkidle")
            check(page, name)

        # The game page's dialogs, open.
        page.goto(f"{site}/games/{game.pk}/")
        page.locator(f'.board .sq[data-deed="{deed}"]').click()
        page.locator("#deed-dialog .deed-card").wait_for()
        check(page, "deed card dialog", full_page=False)
        page.keyboard.press("Escape")
        page.locator(".site-header .brand").focus()
        page.keyboard.press("?")
        page.locator("#shortcut-help").wait_for(state="visible")
        check(page, "shortcuts", full_page=False)
    finally:
        context.close()
    assert len(check.checked) == 2 * (len(pages) + 2)
    check.assert_none_failed()


# Issue 26 item 19: the pages and decision kinds the test above skipped, where dark mode's
# contrast failed (the auction's help line 1.9:1, the debt note 3.5:1 and heading 4.0:1, the
# danger button 3.5:1, the chat's moderation summary 3.7:1, the Chance glyph 2.7:1), a link was a
# 140 x 16 px target (the notifications page) and the deed page had no h1.
def _open_auction(s):
    s.stack.append({"k": "buy", "p": s.current, "sq": 39})


@pytest.mark.parametrize("viewport", WIDTHS, ids=WIDTH_IDS)
def test_every_decision_kind_and_the_other_pages_have_no_serious_violation(browser, site, artifacts, alice, bob,
                                                                           charlie, viewport):
    from tests.e2e.test_trade_offer_layout import offered_game
    from tests.games.play_helpers import cheapest_deed, play_until
    from tests.games.test_centre_html import KINDS, set_position

    check = Checker(artifacts, viewport)
    # One context per person (None: signed out), its page reused for each of their checks.
    opened: dict[object, object] = {}

    def page_of(user):
        if user not in opened:
            if user is None:
                context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 600)
                page = context.new_page()
                page.set_default_timeout(pages.TIMEOUT_MS)
            else:
                context, page = signed_in(browser, site, user, viewport)
            opened[user] = page
        return opened[user]

    # Each kind of decision, on the board it belongs to, seen by the player it waits on.
    positions = []
    for preset in ("classic", "world-classic"):
        base = play_until(start_game(alice, bob, preset=preset, name=f"Axe {preset}"),
                          lambda s: s.pending() == "roll" and cheapest_deed(s, s.current) is not None)
        kinds = dict(KINDS)
        kinds["open auction"] = (_open_auction, None)
        for kind, (change, _fragments) in kinds.items():
            if kind == "casino" and preset == "classic":
                continue
            game = start_game(alice, bob, preset=preset, name=f"Axe {preset} {kind}")
            game.state, game.pending, game.waiting_seats = base.state, base.pending, base.waiting_seats
            game.save()
            state = set_position(game, change)
            if kind == "open auction":
                services.game_submit_action(game=game, user=users_by_seat(game)[state.current],
                                            action={"type": "decline"}, expected_version=game.version)
                game.refresh_from_db()
            positions.append((f"{preset} {kind}", game, users_by_seat(game)[game.waiting_seats[0]]))
        offer = offered_game(alice, bob, preset)
        positions.append((f"{preset} trade offer", offer, users_by_seat(offer)[0]))
    try:
        for what, game, user in positions:
            page = page_of(user)
            page.goto(f"{site}/games/{game.pk}/")
            page.locator("#game .board").wait_for()
            page.wait_for_load_state("networkidle")
            check(page, what)
        others(page_of, check, site, positions[0][1], alice, bob)
    finally:
        for page in opened.values():
            page.context.close()
    assert len(positions) >= 20
    assert len(check.checked) == 2 * (len(positions) + len(OTHER_PAGES))
    check.assert_none_failed()


# The pages around the game of the test above, each seen by the person it is for (None: signed out).
OTHER_PAGES = [
    ("bob", "report form", "/report/?message={message}"),
    ("bob", "notifications with items", "/notifications/"),
    ("bob", "watch", "/watch/"),
    ("bob", "deed page", "/games/{game}/deeds/{deed}/"),
    ("bob", "game history", "/players/{alice}/games/"),
    ("bob", "notification settings", "/notifications/settings/"),
    ("bob", "blocked players", "/me/blocks/"),
    ("bob", "account record", "/me/standing/"),
    ("bob", "record upload", "/games/records/upload/"),
    ("bob", "game log page", "/games/{game}/log/"),
    ("mona", "moderation queue", "/moderation/"),
    ("mona", "moderation account", "/moderation/users/{alice_pk}/"),
    ("mona", "moderation audit log", "/moderation/log/"),
    ("mona", "moderation report", "/moderation/reports/{report}/"),
    ("mona", "game chat for a moderator", "/games/{game}/"),
    (None, "sign in", "/accounts/login/"),
    (None, "sign up", "/accounts/signup/"),
    (None, "password reset", "/accounts/password/reset/"),
]


def others(page_of, check, site, game, alice, bob):
    """A trade offer to answer, a chat the moderator sees (its moderation menu), the report form,
    the moderators' queue and a report's page, the bell's list with items, Watch and a deed page."""
    from moderation import services as moderation
    from notifications import services as notification_services
    from tests.moderation.conftest import make_moderator

    state = GameState.from_json(game.state)
    moderation.chat_post(user=bob, game=game, text="Good luck!", is_player=True)
    message = moderation.chat_post(user=alice, game=game, text="You too.", is_player=True)
    report = moderation.report_create(reporter=bob, reason="abuse", text="Rude.", game=game, message=message)
    for kind in ("game_started", "your_turn"):
        notification_services.notification_create(user_id=bob.pk, kind=kind, key=f"g{game.pk}:{kind}",
                                                  game_id=game.pk)
    people = {"bob": bob, "mona": make_moderator("mona"), None: None}
    names = {"message": message.pk, "game": game.pk, "deed": state.board.deeds[0], "alice": alice.username,
             "alice_pk": alice.pk, "report": report.pk}
    for who, what, path in OTHER_PAGES:
        page = page_of(people[who])
        page.goto(site + path.format(**names))
        if what == "game chat for a moderator":
            page.locator("#chat .chat-moderate summary").first.wait_for()
        if what == "deed page" and page.locator("h1").count() != 1:
            check.failures.append(f"the deed page ({page.url}) has {page.locator('h1').count()} h1")
        page.wait_for_load_state("networkidle")
        check(page, what)
