"""Maximum bids on the site (RULES.md 15): the auction panel offers "Set my maximum" beside
"Bid", shows a player their own standing maximum, takes the form with and without JavaScript,
refuses bad input without changing anything, and never shows a maximum to anyone else: not on
the page, its fragment, the poll, the log, the JSON of legal actions, nor to a spectator."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import GameState, RuleSet, apply, new_game, set_clock, waiting_on
from games.models import GameAction
from games.records import game_record, start_of
from tests.games.play_helpers import play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SECRET = 4357  # cy's maximum: a number nothing else on the page shows
SECRET_WORDS = ("4,357", "4357", "maximum bid of", "Your maximum:")


def stored(game) -> GameState:
    game.refresh_from_db()
    return GameState.from_json(game.state)


def auction(game) -> GameState:
    """The current player lands on the last deed (39) and declines it: an auction."""
    state = GameState.from_json(game.state)
    state.stack.append({"k": "buy", "p": state.current, "sq": 39})
    game.state = state.to_json()
    game.pending = state.pending() or ""
    game.waiting_seats = waiting_on(state)
    game.save()
    return state


def post(client, game, user, headers=HTMX, **fields):
    game.refresh_from_db()
    client.force_login(user)
    return client.post(reverse("games:game_act", args=[game.pk]), {"version": game.version, **fields}, **headers)


@pytest.fixture
def world(alice, bob, charlie):
    """A world-classic game (rotating auctions) in an auction of square 39 (opening $4,000): seat
    ``asked`` is asked first, ``later`` after them; ``decliner`` is excluded."""
    game = play_until(start_game(alice, bob, charlie, preset="world-classic"), lambda s: s.pending() == "roll")
    st = auction(game)
    return game, users_by_seat(game), st.current


def _decline(client, game, users, cur):
    assert post(client, game, users[cur], type="decline").status_code == 200
    return (cur + 1) % 3, (cur + 2) % 3


def _everything_others_see(client, game, seat_user):
    """The page, its htmx fragment, the poll (from an older version), the log page and the
    JSON of legal actions, as one string, for ``seat_user`` (None: a visitor)."""
    if seat_user is None:
        client.logout()
    else:
        client.force_login(seat_user)
    game.refresh_from_db()
    urls = [reverse("games:game", args=[game.pk]), reverse("games:game_log", args=[game.pk]),
            reverse("games:game_poll", args=[game.pk]) + f"?v={game.version - 1}",
            reverse("games:game_legal", args=[game.pk])]
    out = [client.get(u).content.decode() for u in urls]
    out.append(client.get(urls[0], **HTMX).content.decode())
    out.append(client.get(urls[1], **HTMX).content.decode())
    return "\n".join(out)


def test_the_auction_panel_offers_bid_and_set_my_maximum_with_what_it_means(client, world):
    game, users, cur = world
    asked, later = _decline(client, game, users, cur)
    client.force_login(users[asked])
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()

    assert 'value="bid"' in html and 'value="max_bid"' in html
    assert "Set my maximum" in html
    assert "the site bids for you, just enough each time, never above it; nobody else sees it." in html
    # Out of turn in a rotating auction: no Bid, but a maximum may be left.
    client.force_login(users[later])
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'value="bid"' not in html and 'value="max_bid"' in html
    assert 'name="amount" min="4000" max="15000" value="4000"' in html
    # The decliner takes no part in a rotating auction.
    client.force_login(users[cur])
    assert 'value="max_bid"' not in client.get(reverse("games:game", args=[game.pk])).content.decode()


def test_a_maximum_is_shown_to_its_player_and_to_nobody_else(client, world):
    game, users, cur = world
    asked, later = _decline(client, game, users, cur)

    response = post(client, game, users[later], type="max_bid", amount=str(SECRET))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Your maximum: $4,357 (only you see it)." in html
    # Nothing came of it (she is not asked yet): a secret action, which no log shows, hers
    # included (issue 26, item 7: not even its number).
    assert "leaves a maximum bid of" not in html
    assert "Change my maximum" in html and "Withdraw it" in html
    assert stored(game).stack[-1]["max"] == [[later, SECRET]]
    mine = _everything_others_see(client, game, users[later])
    assert '"held": 4357' in mine
    for viewer in (users[asked], users[cur], None):
        seen = _everything_others_see(client, game, viewer)
        assert not any(w in seen for w in SECRET_WORDS), viewer
    # The engine answers for the holder on her turn, ordinary bids marked as made by maximum,
    # in everyone's log; the maximum itself still shows to nobody else.
    assert post(client, game, users[asked], type="bid", amount="4000").status_code == 200
    st = stored(game)
    assert st.stack[-1]["leader"] == later and st.stack[-1]["high"] == 4100
    for viewer in (users[asked], users[cur], None):
        seen = _everything_others_see(client, game, viewer)
        assert "bids $4,100 (by maximum)." in seen
        assert not any(w in seen for w in SECRET_WORDS), viewer


def test_the_form_works_without_javascript_and_zero_withdraws(client, world):
    game, users, cur = world
    _asked, later = _decline(client, game, users, cur)

    response = post(client, game, users[later], headers={}, type="max_bid", amount="5000")

    assert response.status_code == 302
    assert stored(game).stack[-1]["max"] == [[later, 5000]]
    page = client.get(response["Location"]).content.decode()
    assert "Your maximum: $5,000 (only you see it)." in page
    assert post(client, game, users[later], headers={}, type="max_bid", amount="0").status_code == 302
    assert "max" not in stored(game).stack[-1]
    assert "Your maximum:" not in client.get(reverse("games:game", args=[game.pk])).content.decode()


@pytest.mark.parametrize(("amount", "words"), [
    ("lots", "Your maximum must be a whole number from $0 to $15,000, not “lots”."),
    ("-1", "Your maximum must be a whole number from $0 to $15,000, not “-1”."),
    ("3999", "a maximum must be at least the lowest bid now ($3,999)"),
    ("15001", "a maximum of $15,001 is above your cash ($15,000)"),
    ("0", "you have left no maximum to withdraw"),
])
def test_a_bad_maximum_is_refused_and_changes_nothing(client, world, amount, words):
    game, users, cur = world
    _asked, later = _decline(client, game, users, cur)
    before = stored(game).to_json()
    actions = GameAction.objects.filter(game=game).count()

    response = post(client, game, users[later], type="max_bid", amount=amount)

    assert response.status_code == 400
    assert words.replace("($3,999)", "($4,000)") in response.content.decode()
    assert stored(game).to_json() == before
    assert GameAction.objects.filter(game=game).count() == actions


def test_a_stale_or_outsiders_maximum_changes_nothing(client, world, django_user_model):
    game, users, cur = world
    _asked, later = _decline(client, game, users, cur)
    before = stored(game).to_json()
    client.force_login(users[later])

    stale = client.post(reverse("games:game_act", args=[game.pk]),
                        {"version": game.version - 1, "type": "max_bid", "amount": "5000"}, **HTMX)
    outsider = django_user_model.objects.create_user("eve", "eve@example.com", "pw")
    forbidden = post(client, game, outsider, type="max_bid", amount="5000")
    decliner = post(client, game, users[cur], type="max_bid", amount="5000")

    assert (stale.status_code, forbidden.status_code, decliner.status_code) == (409, 403, 400)
    assert stored(game).to_json() == before


def test_a_game_with_maxima_replays_exactly_from_its_record(client, alice, bob, charlie):
    game = play_until(start_game(alice, bob, charlie, preset="world-classic"), lambda s: s.pending() == "buy")
    users = users_by_seat(game)
    st = stored(game)
    cur, sq = st.current, st.stack[-1]["sq"]
    price = st.board.price[sq]
    asked, later = _decline(client, game, users, cur)
    assert post(client, game, users[later], type="max_bid", amount=str(price + 250)).status_code == 200
    assert post(client, game, users[asked], type="max_bid", amount=str(price + 150)).status_code == 200
    # Only holders remain, so it plays out at once: asked bids the opening, later 100 more;
    # asked's maximum does not reach the next 100: she passes, and later wins.
    st = stored(game)
    assert st.owner[sq] == later and st.players[later].cash == 15000 - (price + 100)
    record = json.loads(json.dumps(game_record(game)))
    start = start_of(record)
    state, _ = new_game(RuleSet.from_json(start["rules"]), start["names"], start["seed"], teams=start["teams"])
    for a in record["actions"]:
        if a.get("clock") is not None:
            set_clock(state, a["clock"])
        apply(state, {k: v for k, v in a.items() if k != "clock"})

    assert state.to_json() == game.state
    # Each engine bid is in the log of the action that called for it, marked as by maximum.
    by_max = [(e["e"], e.get("p"), e.get("amount")) for row in GameAction.objects.filter(game=game)
              for e in row.events if e.get("by") == "max"]
    assert by_max == [("bid", asked, price), ("bid", later, price + 100), ("pass", asked, None)]


def _log_numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="log-seq">(\d+)</span>', html)]


def test_the_log_keeps_no_trace_of_a_secret_maximum_not_even_its_number(client, alice, bob, charlie):
    """Issue 26, item 7: the log hid the row of a maximum but showed the gap in its numbering."""
    game = play_until(start_game(alice, bob, charlie, preset="world-classic"), lambda s: s.pending() == "buy")
    users = users_by_seat(game)
    st = stored(game)
    cur, price = st.current, st.board.price[st.stack[-1]["sq"]]
    asked, later = _decline(client, game, users, cur)
    post(client, game, users[later], type="max_bid", amount=str(price + 250))
    post(client, game, users[later], type="max_bid", amount=str(price + 260))  # changed: secret too
    post(client, game, users[asked], type="bid", amount=str(price))  # later answers by maximum

    rows = list(GameAction.objects.filter(game=game).values_list("seq", "sub", "action__type"))
    assert rows[-4:] == [(rows[-4][0], 0, "decline"), (rows[-4][0], 1, "max_bid"), (rows[-4][0], 2, "max_bid"),
                         (rows[-4][0] + 1, 0, "bid")]
    for viewer in (users[later], users[asked], users[cur], None):
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        numbers = _log_numbers(client.get(reverse("games:game_log", args=[game.pk])).content.decode())
        assert numbers == list(range(numbers[0], numbers[0] - len(numbers), -1)), viewer
        assert numbers[0] == rows[-1][0]
    # The record keeps the secret rows in the order they were applied: it replays exactly.
    record = json.loads(json.dumps(game_record(game)))
    assert [a["type"] for a in record["actions"][-4:]] == ["decline", "max_bid", "max_bid", "bid"]
    start = start_of(record)
    state, _ = new_game(RuleSet.from_json(start["rules"]), start["names"], start["seed"], teams=start["teams"])
    for a in record["actions"]:
        if a.get("clock") is not None:
            set_clock(state, a["clock"])
        apply(state, {k: v for k, v in a.items() if k != "clock"})
    game.refresh_from_db()
    assert state.to_json() == game.state


def test_a_secret_maximum_changes_nothing_another_page_can_see(client, world, monkeypatch):
    """Issue 26, item 7: a maximum left, changed or withdrawn that nothing came of bumped the
    game's version: every other page was pushed a new version with nothing new in it, and a
    move from a page drawn before it was refused as stale."""
    from games import live

    game, users, cur = world
    asked, later = _decline(client, game, users, cur)
    pushed = []
    monkeypatch.setattr(live, "publish_on_commit", lambda game_id, version: pushed.append(version))
    game.refresh_from_db()
    version, deadline, waiting = game.version, game.deadline, game.waiting_seats

    def shown(viewer):
        """The fragment and the legal actions as ``viewer`` sees them (the CSRF token aside:
        Django masks it anew in every answer)."""
        client.logout() if viewer is None else client.force_login(viewer)
        fragment = client.get(reverse("games:game", args=[game.pk]), **HTMX).content.decode()
        return [re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", fragment),
                client.get(reverse("games:game_legal", args=[game.pk])).content.decode()]

    seen = {viewer: shown(viewer) for viewer in (users[asked], users[cur], None)}

    from django.contrib.auth.models import AnonymousUser

    from games.selectors import watch_games

    last_move = next(e.last_move for e in watch_games(viewer=AnonymousUser()) if e.game.pk == game.pk)
    for amount in ("5000", "6000", "0", "4500"):
        assert post(client, game, users[later], type="max_bid", amount=amount).status_code == 200
    # The Watch list's "last move" is the decline still.
    assert next(e.last_move for e in watch_games(viewer=AnonymousUser()) if e.game.pk == game.pk) == last_move

    game.refresh_from_db()
    assert (game.version, game.deadline, game.waiting_seats, pushed) == (version, deadline, waiting, [])
    assert stored(game).stack[-1]["max"] == [[later, 4500]]
    for viewer in (users[asked], users[cur], None):
        assert shown(viewer) == seen[viewer], viewer
        assert client.get(reverse("games:game_poll", args=[game.pk]) + f"?v={version}").status_code == 204
    # A form drawn before the maximum still moves, and what came of the maximum is then public.
    client.force_login(users[asked])
    moved = client.post(reverse("games:game_act", args=[game.pk]),
                        {"version": version, "type": "bid", "amount": "4000"}, **HTMX)
    assert moved.status_code == 200
    game.refresh_from_db()
    assert game.version == version + 1 and pushed == [version + 1]
    assert stored(game).stack[-1]["high"] == 4100


def test_a_maximum_may_be_left_on_the_page_while_a_trade_offer_waits_during_the_auction(client, alice, bob, charlie):
    """Issue 26, item 6 (RULES.md 15): while the game waits on the answer to a trade offer made
    during an auction, "Set my maximum" is offered and taken (it was refused: "there is no
    auction under way"); nothing acts until the auction goes on, then the maximum does."""
    from games import services

    game = play_until(start_game(alice, bob, charlie), lambda s: s.pending() == "roll")  # classic: open
    cur = auction(game).current
    users = users_by_seat(game)
    assert post(client, game, users[cur], type="decline").status_code == 200
    proposer, partner = (cur + 1) % 3, (cur + 2) % 3
    side = {"cash": 0, "squares": [], "cards": 0}
    game.refresh_from_db()
    services.game_submit_action(game=game, user=users[proposer], expected_version=game.version,
                                action={"type": "propose", "to": partner, "give": dict(side, cash=10), "take": side})
    game.refresh_from_db()
    assert game.pending == "trade_response"
    version = game.version
    client.force_login(users[cur])
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Set my maximum" in html and 'value="bid"' not in html

    response = post(client, game, users[cur], type="max_bid", amount="500")

    assert response.status_code == 200 and "Your maximum: $500 (only you see it)." in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and stored(game).stack[-2]["max"] == [[cur, 500]]
    services.game_submit_action(game=game, user=users[partner], expected_version=game.version,
                                action={"type": "reject", "trade": 1})
    f = stored(game).stack[-1]
    assert (f["k"], f["leader"], f["high"]) == ("auction", cur, 1)


def test_a_write_without_any_action_still_takes_a_new_version(alice, bob):
    """Only a write of secret maximum bids keeps the version: one that applied no action at all
    (the deadline sweep finding nothing to play) still takes a new version and deadline."""
    from django.utils import timezone

    from games.services import moves

    game = play_until(start_game(alice, bob), lambda s: s.pending() == "roll")
    seats = list(game.table.seats.all())
    version = game.version
    sub = moves._begin(game, seats, timezone.now())
    moves._write(sub, seats, fresh=True)
    game.refresh_from_db()
    assert game.version == version + 1
