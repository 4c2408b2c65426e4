"""Two people sign up, meet at a table and play a live classic game in a real browser.

Everything goes through the pages as a person would use them: the sign-up form, the link in the
verification e-mail, the sign-in form, the create-table form, the invitation link, the start
button, then the game page's buttons, bid form and trade builder, in two browser windows (a
desktop one and a phone-sized one). The dice are random, so the players react to whatever
decision their page shows; the loop is bounded, and the database is checked at the end for a
purchase, a declined purchase and its auction (with bids and a pass from the page), rent, and a
trade proposed by one and accepted by the other.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core import mail

from accounts.models import User
from games.models import AuctionRow, Game, GameAction, TradeRow

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-staple-42"
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
MAX_MOVES = 400  # each click of the game page is a move; the game needs about 100-150
MAX_SECONDS = 100  # of play, after the sign-ups
TURNS_EACH = 10
POLL_WAIT_MS = 6000  # the live page polls every 2 s


@dataclass
class Player:
    name: str
    email: str
    window: str  # "desktop" or "phone", for the screenshots' names
    page: object
    clicks: Counter = field(default_factory=Counter)
    bids_this_auction: int = 0


# ---------------------------------------------------------------------------------------------
# Accounts and the table
# ---------------------------------------------------------------------------------------------


def sign_up(page, base: str, username: str, email: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    form = page.locator("main form").first
    form.locator("input[name=email]").fill(email)
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/accounts/confirm-email/")


def verify_email(page, base: str, email: str) -> None:
    """Follow the link of the verification e-mail, as the person would from their mailbox."""
    message = next(m for m in reversed(mail.outbox) if m.to == [email])
    match = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", message.body)
    assert match, message.body
    page.goto(base + match.group(1))
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def sign_in(page, base: str, username: str) -> None:
    # Confirming the address may have signed the person in already: sign out to use the form.
    sign_out = page.locator("header form button[type=submit]")
    if sign_out.count():
        sign_out.click()
        page.wait_for_load_state()
    page.goto(f"{base}/accounts/login/")
    form = page.locator("main form").first
    form.locator("input[name=login]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    assert page.locator("header .nav-user .nav-label").text_content().strip() == username


def create_table(page, base: str) -> str:
    """A live classic table for two; returns the invitation link shown on the table page."""
    page.goto(f"{base}/tables/new/")
    form = page.locator("form.table-form")
    form.locator("input[name=name]").fill("E2E table")
    form.locator("select[name=preset]").select_option("classic")
    form.locator("select[name=seat_count]").select_option("2")
    form.locator("input[name=pace][value=live]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return page.locator("#invite-link").input_value()


# ---------------------------------------------------------------------------------------------
# The game page
# ---------------------------------------------------------------------------------------------


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> str:
    """Let the page's own poll bring the position at ``at_least`` (a reload if it never comes).
    Returns how the page caught up: "poll" or "reload"."""
    if version(page) >= at_least:
        return "current"
    try:
        page.wait_for_function(
            "v => { const g = document.getElementById('game');"
            " return g && +g.dataset.version >= v; }",
            arg=at_least,
            timeout=POLL_WAIT_MS,
        )
        return "poll"
    except Exception:
        page.reload()
        assert version(page) >= at_least
        return "reload"


def submit(page, button) -> None:
    """Click a button of the game page and wait for its answer: the parts the move changed (the
    page's version moves on, games/views/move_parts.py) or, for a refusal, a fresh #game."""
    before = version(page)
    page.evaluate("document.getElementById('game').dataset.old = 'yes'")
    button.click()
    page.wait_for_function(
        "v => { const g = document.getElementById('game');"
        " return g && (!g.dataset.old || +g.dataset.version > v); }",
        arg=before,
        timeout=10000,
    )


def shot(page, path: Path, *, full_page: bool = False) -> None:
    """A screenshot from the top of the page (clicks scroll it)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=full_page)


def flash(page) -> str:
    note = page.locator("#game .game-flash")
    return note.inner_text() if note.count() else ""


def pick_move(me: Player, state: dict) -> tuple[str, object] | None:
    """What this player does with the decision their page shows: (label, button), or None when
    the page offers nothing. ``state`` carries what the run still needs."""
    page = me.page
    game = page.locator("#game")

    def button(css: str):
        found = game.locator(css)
        return found.first if found.count() else None

    # A trade offered to me: the run proposes only the one trade it wants accepted.
    if accept := button(".offer button[value=accept]"):
        return "accept", accept
    if reject := button(".offer button[value=reject]"):
        return "reject", reject
    # In debt: sell or mortgage until the debt is paid.
    if game.locator("#manage .debt").count():
        for kind in ("sell_all", "sell", "mortgage"):
            if b := button(f"#manage button[value={kind}]"):
                return kind, b
    # The first deed offered for sale is declined, so that it goes to auction; later ones are
    # bought.
    buy, decline = button(".choices button[value=buy]"), button(".choices button[value=decline]")
    if decline and not state["declined"]:
        state["declined"] = True
        return "decline", decline
    if buy:
        return "buy", buy
    if decline:
        return "decline", decline
    # An auction: everyone bids the minimum once, then passes.
    bid, pass_ = button(".choices button[value=bid]"), button(".choices button[value=pass]")
    if bid and me.bids_this_auction == 0:
        me.bids_this_auction += 1
        return "bid", bid
    if pass_:
        return "pass", pass_
    if bid:
        return "bid", bid
    # A trade, through the builder, once the run has seen an auction: a deed of mine for one of
    # theirs (or for a little cash when they have none).
    if (
        state["trade"] is None
        and state["auction_done"]
        and button(".choices button[value=end_turn]")
        and page.locator("details#trade").count()
        and page.locator("details#trade input[name=give_squares]").count()
    ):
        return "propose", None
    for kind in ("keep_mortgaged", "roll", "pay_fine", "use_card", "end_turn", "casino_skip"):
        if b := button(f".choices button[value={kind}]"):
            return kind, b
    if b := button(".choices button[name=choice]"):  # income tax (flat first) or the bus
        return "choice", b
    return None


def propose_trade(me: Player) -> None:
    page = me.page
    builder = page.locator("details#trade")
    builder.locator("summary").click()
    builder.locator("input[name=give_squares]").first.check()
    theirs = builder.locator("input[name=take_squares]")
    if theirs.count():
        theirs.first.check()
    else:
        builder.locator("input[name=take_cash]").fill("10")
    submit(page, builder.locator("button[type=submit]"))


def play(players: list[Player], deadline: float, artifacts: Path) -> dict:
    state = {
        "declined": False,
        "auction_done": False,
        "trade": None,
        "rent": False,
        "caught_up": Counter(),
        "moves": 0,
        "shots": set(),
    }
    latest = max(version(p.page) for p in players)
    actor = 0
    for _ in range(MAX_MOVES):
        done = (
            state["auction_done"]
            and state["trade"] == "accepted"
            and state["rent"]
            and all(p.clicks["end_turn"] >= TURNS_EACH for p in players)
            and players[0].clicks["buy"]
            and players[1].clicks["buy"]
        )
        if done or time.monotonic() > deadline:
            break
        me = players[actor]
        state["caught_up"][wait_for_version(me.page, latest)] += 1
        move = pick_move(me, state)
        if move is None:
            other = players[1 - actor]
            state["caught_up"][wait_for_version(other.page, latest)] += 1
            move = pick_move(other, state)
            if move is None:
                me.page.screenshot(path=str(artifacts / "stuck.png"), full_page=True)
                pytest.fail(f"neither page offers a move at version {latest}")
            actor, me = 1 - actor, other
        kind, target = move
        if kind in ("bid", "pass"):
            state["in_auction"] = True
        elif state.pop("in_auction", False):
            # The auction is over: everyone may bid in the next one.
            state["auction_done"] = True
            for p in players:
                p.bids_this_auction = 0
        if kind in ("bid", "accept") and kind not in state["shots"]:
            # The decision as the player sees it: the bid form, the trade offered to them.
            state["shots"].add(kind)
            shot(me.page, artifacts / f"game-{kind}-{me.window}.png")
        if kind == "propose":
            propose_trade(me)
            state["trade"] = "proposed"
        else:
            submit(me.page, target)
        if kind == "accept":
            state["trade"] = "accepted"
        me.clicks[kind] += 1
        state["moves"] += 1
        refused = flash(me.page)
        assert not refused or "moved on" in refused, f"{me.name}'s {kind} was refused: {refused}"
        latest = max(latest, version(me.page))
        if " rent to " in me.page.locator("#log").inner_text():
            state["rent"] = True
    return state


def test_two_people_sign_up_meet_at_a_table_and_play_a_game(browser, site, mailoutbox, artifacts):
    base = site
    windows = [
        browser.new_context(viewport=DESKTOP),
        browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
    ]
    ana = Player("ana", "ana@example.com", "desktop", windows[0].new_page())
    ben = Player("ben", "ben@example.com", "phone", windows[1].new_page())
    server_errors: list[str] = []
    for p in (ana, ben):
        p.page.set_default_timeout(15000)
        # Every response counts, the polls' too: none may be a server error.
        p.page.on(
            "response",
            lambda r: server_errors.append(f"{r.status} {r.url}") if r.status >= 500 else None,
        )
    try:
        # Both sign up, confirm their address from the e-mail and sign in.
        for p in (ana, ben):
            sign_up(p.page, base, p.name, p.email)
            assert not User.objects.get(username=p.name).emailaddress_set.get().verified
            verify_email(p.page, base, p.email)
            assert User.objects.get(username=p.name).emailaddress_set.get().verified
            sign_in(p.page, base, p.name)
        assert len(mailoutbox) == 2

        # Ana opens a live classic table for two and sends Ben the link; Ben sits down.
        invite = create_table(ana.page, base)
        assert "/t/" in invite
        ben.page.goto(invite)
        ben.page.locator("#table-body form button", has_text="Join the table").click()
        ben.page.wait_for_load_state()
        # Ana's table page sees the seat filled (its poll, or a reload) and she starts the game.
        start = ana.page.locator("#table-body button", has_text="Start the game")
        try:
            start.and_(ana.page.locator("button:enabled")).wait_for(timeout=6000)
        except Exception:
            ana.page.reload()
        start.click()
        ana.page.wait_for_url(re.compile(r"/games/\d+/$"))
        # Ben's table page follows to the game by itself.
        ben.page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=10000)
        assert ana.page.url == ben.page.url
        game = Game.objects.get()
        assert game.table.pace == "live" and game.table.preset == "classic"
        shot(ana.page, artifacts / "game-start-desktop.png")

        # Seat 0 is the host; the pages say whose turn it is and each player acts on their own.
        state = play([ana, ben], time.monotonic() + MAX_SECONDS, artifacts)

        wait_for_version(ben.page, version(ana.page))
        for p in (ana, ben):
            shot(p.page, artifacts / f"game-{p.window}.png")
            shot(p.page, artifacts / f"game-{p.window}-full.png", full_page=True)
    except Exception:
        for p in (ana, ben):
            p.page.screenshot(path=str(artifacts / f"failure-{p.name}.png"), full_page=True)
        raise
    finally:
        for w in windows:
            w.close()

    assert server_errors == []
    print(
        f"moves: {state['moves']}; ana {dict(ana.clicks)}; ben {dict(ben.clicks)}; "
        f"pages caught up by {dict(state['caught_up'])}"
    )
    # What the run went through, as the database recorded it.
    actions = list(
        GameAction.objects.filter(game=game, source="player").values_list("seat", "action")
    )
    by_type = Counter((seat, a["type"]) for seat, a in actions)
    assert by_type[(0, "end_turn")] >= TURNS_EACH and by_type[(1, "end_turn")] >= TURNS_EACH, (
        by_type
    )
    assert by_type[(0, "buy")] + by_type[(1, "buy")] >= 2, by_type
    assert by_type[(0, "decline")] + by_type[(1, "decline")] >= 1, by_type
    assert by_type[(0, "bid")] >= 1 and by_type[(1, "bid")] >= 1, by_type
    assert by_type[(0, "pass")] + by_type[(1, "pass")] >= 1, by_type
    closed = AuctionRow.objects.filter(game=game, is_open=False, what="deed")
    assert closed.exists() and closed.first().leader_seat is not None
    events = [
        e
        for evs in GameAction.objects.filter(game=game).values_list("events", flat=True)
        for e in evs
    ]
    assert any(e["e"] == "rent" for e in events)
    trade = TradeRow.objects.get(game=game)
    assert trade.status == TradeRow.Status.ACCEPTED
    proposer, accepter = trade.from_seat, trade.to_seat
    assert by_type[(proposer, "propose")] == 1 and by_type[(accepter, "accept")] == 1
    # Both windows were kept up to date by the page's own poll at least once.
    assert state["caught_up"]["poll"] >= 1
