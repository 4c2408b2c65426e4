"""The centre of the board (page/parts.py: the CENTRE part) for a position of every kind of decision, on
both boards: the form each kind offers, with the game's version, the CSRF token and the act
endpoint, drawn the same by the game fragment (the decision_centre tag) and by a move's answer
(the entry point itself), so a branch of the templates that goes missing fails here."""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from games.engine import GameState, waiting_on
from games.engine.cards import JAIL_CARDS
from games.models import Game, Seat
from games.views.page import parts
from games.views.page.context import game_page
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(r'(<input type="hidden" name="csrfmiddlewaretoken" value=")[^"]+(">)')


def blank(html: str) -> str:
    """``html`` with its CSRF tokens left out (each draw masks the token afresh)."""
    return TOKEN.sub(r"\1\2", html)


def set_position(game: Game, change) -> GameState:
    """Apply ``change(state)`` to the stored state and the game's summary columns."""
    state = GameState.from_json(game.state)
    change(state)
    game.state = state.to_json()
    game.pending = state.pending() or ""
    game.waiting_seats = waiting_on(state)
    game.save()
    return state


def centre(game: Game, seat: int | None, client) -> str:
    """The centre drawn by the entry point from the page's context, after checking that the game
    fragment (the decision_centre tag, what a poll or a page view draws) holds the same markup."""
    game.refresh_from_db()
    user = users_by_seat(game)[seat] if seat is not None else None
    request = RequestFactory().get(reverse("games:game", args=[game.pk]))
    request.user = user
    request.htmx = False
    seats = list(Seat.objects.filter(table_id=game.table_id).select_related("user"))
    me = next((s for s in seats if s.position == seat), None)
    html = str(parts.part_html(parts.CENTRE, game_page(request, game, seats, me)))

    client.force_login(user)
    if user.language != translation.get_language():  # (the page speaks its reader's language)
        user.language = translation.get_language()
        user.save(update_fields=["language"])
    fragment = client.get(reverse("games:game", args=[game.pk]), **HTMX).content.decode()
    assert blank(html) in blank(fragment)
    return html


def assert_forms_post_the_move(html: str, game: Game) -> None:
    """Every form of the centre posts to the act endpoint, with the version and the token."""
    forms = re.findall(r"<form\b.*?</form>", html, re.S)
    assert forms
    act = reverse("games:game_act", args=[game.pk])
    for form in forms:
        assert f'action="{act}"' in form
        assert f'<input type="hidden" name="version" value="{game.version}">' in form
        assert re.search(TOKEN, form), form


@pytest.fixture
def classic(alice, bob):
    return play_until(start_game(alice, bob), lambda s: s.pending() == "roll"
                      and cheapest_deed(s, s.current) is not None)


@pytest.fixture
def world(alice, bob):
    return play_until(start_game(alice, bob, preset="world-classic"), lambda s: s.pending() == "roll"
                      and cheapest_deed(s, s.current) is not None)


@pytest.fixture(params=["classic", "world"])
def board(request, classic, world):
    return {"classic": classic, "world": world}[request.param]


def _debt(s):
    s.players[s.current].cash = 10
    s.stack.append({"k": "debt", "p": s.current, "to": 1 - s.current, "amt": 40, "why": "rent", "pot": False,
                    "cut": 0})


def _transfer(s):
    sq = cheapest_deed(s, s.current)
    s.mortgaged[sq] = True
    s.stack.append({"k": "mortgage_transfer", "p": s.current, "sq": sq})


def _jail(s):
    pl = s.players[s.current]
    pl.pos, pl.in_jail = 10, True
    card = next(c for deck in s.decks.values() for c in deck if c in JAIL_CARDS)
    pl.jail_cards = [card]
    for deck in s.decks.values():
        if card in deck:
            deck.remove(card)


def _placement(s):
    # A house won at auction (RULES.md 7, a building shortage): the winner owns a whole group.
    p = s.current
    for sq in s.board.group_of[s.board.deeds[0]]:
        s.owner[sq], s.mortgaged[sq], s.level[sq] = p, False, 0
    s.stack.append({"k": "auction", "what": "building", "sq": s.board.deeds[0], "style": "open", "bidders": [p],
                    "passed": [], "high": 10, "leader": p, "turn": 0, "opening": 1, "step": 1, "seller": 1 - p,
                    "building": "house", "stage": "place", "winner": p})


# Each kind: how to set it up, and what its form must offer (the types and the words).
KINDS = {
    "buy": (lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}),
            ['value="buy"', 'value="decline"', "Buy for $"]),
    "jail": (_jail, ['value="pay_fine"', 'value="use_card"', 'value="roll"', "Pay the $"]),
    # (The ways to raise the money are the tools slot's: test_a_debt_...)
    "debt": (_debt, ["Raise $30 more"]),
    "casino": (lambda s: (setattr(s.players[s.current], "pos", 20), s.stack.append({"k": "casino", "p": s.current})),
               ['name="numbers" value="1"', 'name="numbers" value="6"', 'value="casino"', 'value="casino_skip"',
                "Walk past"]),
    "bus": (lambda s: s.stack.append({"k": "bus", "p": s.current, "dice": [2, 5]}),
            ['name="type" value="bus"', "First die: 2", "Second die: 5", "Both: 7"]),
    "teleport": (lambda s: s.stack.append({"k": "teleport", "p": s.current, "default": 7}),
                 ['id="pick-square"', 'id="pick-board" hidden', 'name="type" value="teleport"', "Jump there",
                  'id="pick-square-select"']),
    "income_tax": (lambda s: s.stack.append({"k": "income_tax", "p": s.current}),
                   ['name="type" value="income_tax"', 'value="flat"', 'value="percent"', "Pay 10% ("]),
    "transfers": (_transfer, ['value="unmortgage"', 'value="keep_mortgaged"', "Lift the mortgage (",
                              "Keep it mortgaged (pay "]),
    "placements": (_placement, ['name="type" value="build"', 'id="place-square"', "Place it on"]),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_decision_offers_its_form(client, board, kind):
    change, fragments = KINDS[kind]
    if kind == "casino" and board.table.preset == "classic":
        pytest.skip("the casino is the world board's (RULES.md 2)")
    st = set_position(board, change)

    html = centre(board, st.current, client)

    for fragment in fragments:
        assert fragment in html, fragment
    if kind != "debt":
        assert_forms_post_the_move(html, board)
    # The other player is not asked: their centre has the position, and no form.
    other = centre(board, 1 - st.current, client)
    assert 'class="decision-text"' in other and "<form" not in other


def test_an_auction_offers_bids_passing_and_a_secret_maximum(client, board):
    st = set_position(board, lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}))
    client.force_login(users_by_seat(board)[st.current])
    board.refresh_from_db()
    client.post(reverse("games:game_act", args=[board.pk]), {"version": board.version, "type": "decline"}, **HTMX)
    board.refresh_from_db()
    asked = waiting_on(GameState.from_json(board.state))[0]

    html = centre(board, asked, client)

    assert 'id="bid-amount" name="amount"' in html and 'name="type" value="bid"' in html
    assert 'name="type" value="pass"' in html
    assert 'id="max-bid-amount"' in html and "Set my maximum" in html
    assert_forms_post_the_move(html, board)


def test_a_trade_offer_shows_its_sides_and_each_player_their_answers(client, board):
    st = GameState.from_json(board.state)
    me, other = st.current, 1 - st.current
    deed = cheapest_deed(st, me)
    client.force_login(users_by_seat(board)[me])
    client.post(reverse("games:game_act", args=[board.pk]),
                {"version": board.version, "type": "propose", "to": str(other), "give_squares": str(deed),
                 "take_cash": str(st.board.price[deed])}, **HTMX)
    board.refresh_from_db()
    assert board.pending == "trade_response"

    receiver = centre(board, other, client)
    proposer = centre(board, me, client)

    assert 'class="offer"' in receiver and "Trade offer #" in receiver
    assert 'name="trade"' in receiver and 'value="reject"' in receiver
    assert 'value="accept"' in receiver or "can no longer be carried out" in receiver
    assert_forms_post_the_move(receiver, board)
    assert 'class="offer"' in proposer and 'value="cancel"' in proposer and 'value="accept"' not in proposer
    assert_forms_post_the_move(proposer, board)


def test_the_centre_of_a_watcher_has_the_position_and_no_form(client, board, charlie):
    set_position(board, lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}))
    board.table.is_private = False
    board.table.save()

    client.force_login(charlie)
    fragment = client.get(reverse("games:game", args=[board.pk]), **HTMX).content.decode()

    assert 'id="decision"' in fragment and 'class="status-row"' in fragment and "Round " in fragment
    assert 'name="type" value="buy"' not in fragment and "csrfmiddlewaretoken" not in fragment.split(
        'class="centre"')[1].split('class="game-side"')[0]


def test_a_debt_puts_the_figures_and_the_ways_to_raise_it_in_the_tools_slot(client, board):
    st = set_position(board, _debt)
    board.refresh_from_db()
    user = users_by_seat(board)[st.current]
    request = RequestFactory().get(reverse("games:game", args=[board.pk]))
    request.user = user
    request.htmx = False
    seats = list(Seat.objects.filter(table_id=board.table_id).select_related("user"))
    me = next(s for s in seats if s.position == st.current)
    page = game_page(request, board, seats, me)

    tools = str(parts.part_html(parts.TOOLS, page))
    surrender = str(parts.part_html(parts.SURRENDER, page))

    assert "You are in debt" in tools and "Still to raise" in tools and "$30" in tools
    deed = cheapest_deed(st, st.current)
    assert f'<input type="hidden" name="square" value="{deed}">' in tools and 'value="mortgage"' in tools
    assert_forms_post_the_move(tools, board)
    assert 'name="type" value="surrender"' in surrender and 'id="confirm-surrender"' in surrender
    assert_forms_post_the_move(surrender, board)
    client.force_login(user)
    fragment = blank(client.get(reverse("games:game", args=[board.pk]), **HTMX).content.decode())
    assert blank(tools) in fragment
    assert blank(surrender) in fragment
    assert blank(tools).startswith('<div id="game-tools" class="game-slot">')
    assert blank(surrender).startswith('<div id="game-surrender" class="game-slot">')


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_centre_speaks_the_readers_language(client, classic, language):
    st = set_position(classic, lambda s: s.stack.append({"k": "buy", "p": s.current, "sq": 39}))
    with translation.override(language):
        html = centre(classic, st.current, client)
        words = [translation.gettext("Buy for %(price)s") % {"price": "$400"}, translation.gettext("Decline (auction)"),
                 translation.gettext("Round %(n)s") % {"n": st.round}]

    assert words[0] != "Buy for $400"
    for w in words:
        assert w in html, w
