"""Every kind of decision is offered on the page as buttons or a form, and the form the page
draws is accepted by the move endpoint. Positions are set up by editing the stored state, the
way the scenario files set up theirs."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import GameState, waiting_on
from games.models import GameAction
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def set_position(game, change) -> GameState:
    """Apply ``change(state)`` to the stored state and the game's summary columns."""
    state = GameState.from_json(game.state)
    change(state)
    game.state = state.to_json()
    game.pending = state.pending() or ""
    game.waiting_seats = waiting_on(state)
    game.save()
    return state


def page_and_client(client, game, seat):
    client.force_login(users_by_seat(game)[seat])
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


def post(client, game, **fields):
    game.refresh_from_db()
    return client.post(reverse("games:game_act", args=[game.pk]), {"version": game.version, **fields}, **HTMX)


def stored(game) -> GameState:
    game.refresh_from_db()
    return GameState.from_json(game.state)


@pytest.fixture
def world(alice, bob):
    return play_until(start_game(alice, bob, preset="world-classic"), lambda s: s.pending() == "roll")


@pytest.fixture
def classic(alice, bob):
    return play_until(start_game(alice, bob), lambda s: s.pending() == "roll"
                      and cheapest_deed(s, s.current) is not None)


def test_casino_offers_numbers_and_walking_past(client, world):
    st = set_position(world, lambda s: (setattr(s.players[s.current], "pos", 20),
                                        s.stack.append({"k": "casino", "p": s.current})))
    html = page_and_client(client, world, st.current)
    assert html.count('name="numbers"') == 6
    assert 'value="casino"' in html and 'value="casino_skip"' in html

    response = post(client, world, type="casino", numbers=["2", "5"])

    assert response.status_code == 200
    assert stored(world).pending() != "casino"
    assert "stakes on 2, 5" in response.content.decode()


def test_teleport_makes_every_square_clickable(client, world):
    st = set_position(world, lambda s: s.stack.append({"k": "teleport", "p": s.current, "default": 7}))
    html = page_and_client(client, world, st.current)
    assert html.count('class="sq-pick"') == 40
    assert html.count('form="pick-board"') == 40
    assert 'id="pick-square-select"' in html

    # What a click on a square sends: the board form's hidden fields and that square.
    form = re.search(r'<form method="post" action="[^"]+" id="pick-board" hidden>(.*?)</form>', html, re.S).group(1)
    fields = dict(re.findall(r'name="(version|type)" value="([^"]+)"', form))
    response = client.post(reverse("games:game_act", args=[world.pk]), {**fields, "square": "24"}, **HTMX)

    assert response.status_code == 200
    assert stored(world).players[st.current].pos == 24


def test_bus_offers_first_second_or_both_dice(client, world):
    st = set_position(world, lambda s: s.stack.append({"k": "bus", "p": s.current, "dice": [2, 5]}))
    start = st.players[st.current].pos
    html = page_and_client(client, world, st.current)
    assert "First die: 2" in html and "Second die: 5" in html and "Both: 7" in html

    assert post(client, world, type="bus", choice="first").status_code == 200
    events = GameAction.objects.filter(game=world).latest("seq").events
    assert {"e": "move", "p": st.current, "to": (start + 2) % 40} in events


def test_income_tax_choice_shows_both_amounts(client, alice, bob):
    game = play_until(start_game(alice, bob), lambda s: s.pending() == "roll")
    st = set_position(game, lambda s: s.stack.append({"k": "income_tax", "p": s.current}))
    cash = st.players[st.current].cash
    html = page_and_client(client, game, st.current)
    assert "Pay $200" in html and "Pay 10%" in html

    assert post(client, game, type="income_tax", choice="flat").status_code == 200
    assert stored(game).players[st.current].cash == cash - 200


def test_debt_panel_shows_what_is_owed_and_the_ways_to_raise_it(client, classic):
    def owe(s):
        s.players[s.current].cash = 10
        s.stack.append({"k": "debt", "p": s.current, "to": 1 - s.current, "amt": 40, "why": "rent",
                        "pot": False, "cut": 0})
    st = set_position(classic, owe)
    deed = cheapest_deed(st, st.current)
    html = page_and_client(client, classic, st.current)
    assert "You are in debt" in html
    assert "$40" in html and "Still to raise" in html and "$30" in html
    assert "Everything you could raise" in html
    assert f'name="square" value="{deed}"' in html and 'value="mortgage"' in html

    assert post(client, classic, type="mortgage", square=str(deed)).status_code == 200
    after = stored(classic)
    assert after.pending() != "debt"
    assert after.mortgaged[deed]


def test_transferred_mortgage_offers_lifting_or_keeping(client, classic):
    def transfer(s):
        sq = cheapest_deed(s, s.current)
        s.mortgaged[sq] = True
        s.stack.append({"k": "mortgage_transfer", "p": s.current, "sq": sq})
    st = set_position(classic, transfer)
    html = page_and_client(client, classic, st.current)
    assert "Lift the mortgage" in html and "Keep it mortgaged" in html

    sq = st.stack[-1]["sq"]
    assert post(client, classic, type="keep_mortgaged", square=str(sq)).status_code == 200
    assert stored(classic).mortgaged[sq]


def test_jail_offers_the_fine_and_the_card(client, classic):
    def jail(s):
        pl = s.players[s.current]
        pl.pos, pl.in_jail, pl.jail_cards = 10, True, ["jail_free_cc"]
        s.decks["chest"].remove("jail_free_cc")
    st = set_position(classic, jail)
    html = page_and_client(client, classic, st.current)
    assert 'value="pay_fine"' in html and 'value="use_card"' in html and 'value="roll"' in html

    assert post(client, classic, type="use_card").status_code == 200
    assert not stored(classic).players[st.current].in_jail


def test_buying_shows_the_price(client, classic):
    st = set_position(classic, lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}))
    html = page_and_client(client, classic, st.current)
    assert "Buy for $400" in html and 'value="decline"' in html

    assert post(client, classic, type="buy").status_code == 200
    assert stored(classic).owner[39] == st.current


def test_auction_bid_form_has_the_minimum_and_the_cash(client, classic):
    st = set_position(classic, lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}))
    client.force_login(users_by_seat(classic)[st.current])
    post(client, classic, type="decline")
    cash = stored(classic).players[st.current].cash

    html = client.get(reverse("games:game", args=[classic.pk])).content.decode()

    # (A text box for numbers, whose caret a fetched update keeps: game.js; its bounds in words.)
    assert 'id="bid-amount" name="amount" value="1" inputmode="numeric"' in html
    assert f"At least $1; your cash: ${cash:,}." in html
    assert post(client, classic, type="bid", amount=str(cash + 1)).status_code == 400
    assert post(client, classic, type="bid", amount="15").status_code == 200


@pytest.mark.parametrize("amount", ["-1", "lots", "1.5", "1234567890"])
def test_a_bid_that_is_no_number_is_refused_saying_what_is_allowed(client, classic, amount):
    st = set_position(classic, lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}))
    client.force_login(users_by_seat(classic)[st.current])
    post(client, classic, type="decline")
    before = stored(classic).to_json()
    cash = before["players"][st.current]["cash"]

    response = post(client, classic, type="bid", amount=amount)

    assert response.status_code == 400
    assert (f"The bid must be a whole number from $1 to ${cash:,}, not “{amount}”."
            in response.content.decode())
    assert stored(classic).to_json() == before


def test_trade_numbers_that_are_no_numbers_say_what_each_side_holds(client, classic):
    st = stored(classic)
    me, other = st.current, 1 - st.current
    client.force_login(users_by_seat(classic)[me])
    mine, theirs = st.players[me].cash, st.players[other].cash

    give = post(client, classic, type="propose", to=str(other), give_cash="-1").content.decode()
    take = post(client, classic, type="propose", to=str(other), take_cash="-20").content.decode()
    cards = post(client, classic, type="propose", to=str(other), take_cards="x").content.decode()
    square = post(client, classic, type="mortgage", square="-1").content.decode()

    assert f"The cash you give must be a whole number from $0 to ${mine:,}, not “-1”." in give
    assert f"The cash you ask for must be a whole number from $0 to ${theirs:,}, not “-20”." in take
    assert ("The jail cards you ask for must be a whole number from 0 to "
            f"{len(st.players[other].jail_cards)}, not “x”.") in cards
    assert "The square must be a whole number from 0 to 39, not “-1”." in square
    assert stored(classic).to_json() == st.to_json()
