"""The game page's conveniences (issue 12): a deed's card (rents by level from the engine's
tables, build cost, mortgage value, owner, group progress), and the trade builder's preview
(each side's value, the balance rule's verdict from the engine's predicate, the groups a trade
completes). Both only read: a forged or malformed request gets a clear answer and changes
nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import HOTEL, GameState, rent_of, street_rents, trade_balanced, unmortgage_cost
from games.models import GameAction
from games.views.deed_card import deed_card
from games.views.trade_values import completed_groups, completes_alone, trade_summary
from tests.games.play_helpers import autoplay, cheapest_deed, play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _state(preset="classic"):
    from games.engine import RuleSet, new_game

    st, _ = new_game(RuleSet.build(preset, {}), ["Ann", "Ben"], seed=3, roll_for_first=False, events=False)
    return st


# ---------------------------------------------------------------------------------------------
# The deed card
# ---------------------------------------------------------------------------------------------

def test_a_street_card_lists_the_engines_rents_by_level_and_its_costs():
    st = _state()
    sq = 39  # Boardwalk
    s = st.board.squares[sq]
    card = deed_card(st, sq)
    amounts = [row["amount"] for row in card["rows"]]
    whole = street_rents(s.rents, True)
    assert amounts == [street_rents(s.rents, False)[0], whole[0], *whole[1:st.rules.houses_before_hotel + 1],
                       whole[HOTEL]]
    assert card["build_cost"] == s.build_cost and card["mortgage"] == s.mortgage
    assert card["unmortgage"] == unmortgage_cost(st, sq)
    assert card["owner"] is None and card["group_held"] == 0 and card["group_size"] == 2
    assert not any(row.get("now") for row in card["rows"])


def test_a_card_marks_the_rent_that_applies_now_and_the_groups_progress():
    st = _state()
    st.owner[37] = 0
    card = deed_card(st, 37)
    assert card["owner"]["name"] == "Ann" and card["group_held"] == 1
    assert [row["label"] for row in card["rows"] if row.get("now")] == ["Rent"]
    assert card["current_rent"] == rent_of(st, 37)
    st.owner[39] = 0
    card = deed_card(st, 37)
    assert card["group_held"] == 2
    now = [row for row in card["rows"] if row.get("now")]
    assert len(now) == 1 and now[0].get("whole") and now[0]["amount"] == rent_of(st, 37)
    st.level[37] = 2
    now = [row for row in deed_card(st, 37)["rows"] if row.get("now")]
    assert [row["level"] for row in now] == [2] and now[0]["amount"] == rent_of(st, 37)


def test_a_shorter_build_ladder_shows_only_its_levels():
    st = _state("classic-short")  # RULES.md: three houses before the hotel
    levels = [row["level"] for row in deed_card(st, 39)["rows"]]
    assert levels == [0, 0, 1, 2, 3, HOTEL]


def test_railroad_and_utility_cards_go_by_the_number_owned():
    st = _state()
    rail = deed_card(st, 5)
    assert [row["amount"] for row in rail["rows"]] == list(st.board.squares[5].rents)
    assert rail["build_cost"] is None
    st.owner[12] = 1
    st.owner[28] = 1
    util = deed_card(st, 12)
    assert [row["times"] for row in util["rows"]] == list(st.board.squares[12].multipliers)
    assert [row["count"] for row in util["rows"] if row["now"]] == [2]


def test_no_card_for_a_square_that_is_no_deed():
    st = _state()
    assert deed_card(st, 0) is None and deed_card(st, 2) is None and deed_card(st, 40) is None


def test_the_card_page_and_fragment(client, alice, bob, charlie):
    game = start_game(alice, bob)
    client.force_login(charlie)  # a spectator of a public game may read the cards
    url = reverse("games:game_deed", args=[game.pk, 39])
    page = client.get(url)
    assert page.status_code == 200 and "<html" in page.content.decode() and "Boardwalk" in page.content.decode()
    fragment = client.get(url, **HTMX)
    html = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in html
    assert 'id="deed-card-title"' in html and "$2,000" in html  # the hotel's rent
    assert client.get(reverse("games:game_deed", args=[game.pk, 0])).status_code == 404
    assert client.post(url).status_code == 405


def test_a_private_games_cards_are_hidden_from_others(client, alice, bob, charlie):
    game = start_game(alice, bob, private=True)
    client.force_login(charlie)
    assert client.get(reverse("games:game_deed", args=[game.pk, 39])).status_code == 404


def test_the_players_panels_link_each_deed_to_its_card(client, alice, bob):
    game = autoplay(start_game(alice, bob), 40)
    state = GameState.from_json(game.state)
    sq = next(sq for sq in state.board.deeds if state.owner[sq] >= 0)
    client.force_login(alice)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'href="{reverse("games:game_deed", args=[game.pk, sq])}" data-deed="{sq}"' in html
    assert 'id="deed-dialog"' in html and 'id="shortcut-help"' in html and 'id="game-announcer"' in html


# ---------------------------------------------------------------------------------------------
# The trade builder's preview
# ---------------------------------------------------------------------------------------------

def test_values_and_the_balance_verdict_come_from_the_engine():
    st = _state("world-classic")
    st.owner[1] = 0
    st.owner[39] = 1
    give, take = {"cash": 0, "squares": [1], "cards": 0}, {"cash": 0, "squares": [39], "cards": 0}
    s = trade_summary(st, 0, 1, give, take)
    assert s["give_value"] == st.board.price[1] and s["take_value"] == st.board.price[39]
    assert s["balance"] and s["balanced"] is False is trade_balanced(st, 0, 1, give, take)
    give["cash"] = st.board.price[39]
    s = trade_summary(st, 0, 1, give, take)
    assert s["balanced"] is True and s["error"] is None


def test_a_classic_table_shows_values_without_a_verdict():
    st = _state()
    st.owner[1] = 0
    s = trade_summary(st, 0, 1, {"cash": 0, "squares": [1], "cards": 0}, {"cash": 1000, "squares": [], "cards": 0})
    assert not s["balance"] and s["take_value"] == 1000


def test_the_groups_a_trade_completes():
    st = _state()
    st.owner[1] = 0
    st.owner[3] = 1
    assert completes_alone(st, 0, 3) and not completes_alone(st, 1, 3)
    assert completed_groups(st, 0, [3], []) == ["Brown"]
    assert completed_groups(st, 1, [1], [3]) == []  # Ben gives 3 away: no whole group
    st.owner[3] = 0
    assert completed_groups(st, 0, [], []) == []  # already whole: nothing new


def test_a_deed_the_giver_does_not_hold_is_named():
    st = _state()
    st.owner[1] = 1
    s = trade_summary(st, 0, 1, {"cash": 0, "squares": [1], "cards": 0}, {"cash": 0, "squares": [], "cards": 0})
    assert "Mediterranean Avenue" in s["error"] and "Ann" in s["error"]


@pytest.fixture
def world(alice, bob):
    def both_own(state):
        return state.pending() == "roll" and state.current == 0 and cheapest_deed(state, 0) is not None \
            and cheapest_deed(state, 1) is not None
    return play_until(start_game(alice, bob, preset="world-classic"), both_own)


def test_the_preview_endpoint_answers_the_builders_fields_and_writes_nothing(client, world,
                                                                             django_assert_max_num_queries):
    state = GameState.from_json(world.state)
    users = users_by_seat(world)
    client.force_login(users[0])
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    before = (world.version, GameAction.objects.filter(game=world).count())
    url = reverse("games:game_trade_preview", args=[world.pk])
    fields = {"version": world.version, "type": "propose", "to": 1, "give_cash": 0, "give_squares": [mine],
              "take_cash": 0, "take_squares": [theirs]}
    with django_assert_max_num_queries(6):
        response = client.get(url, fields, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    expected = trade_balanced(state, 0, 1, {"squares": [mine]}, {"squares": [theirs]})
    assert ("does not allow" in html) is (not expected) and ("allows this trade" in html) is expected
    assert f"${state.board.price[mine]:,}" in html and f"${state.board.price[theirs]:,}" in html
    # All cash and nothing asked: unbalanced.
    all_cash = {**fields, "give_cash": 1000, "give_squares": [], "take_squares": []}
    html = client.get(url, all_cash, **HTMX).content.decode()
    assert "does not allow" in html
    # Malformed: said, not a server error.
    bad = client.get(url, {**fields, "give_cash": "lots"}, **HTMX)
    assert bad.status_code == 200 and "whole number" in bad.content.decode()
    # Someone else's deed on my side: named.
    forged = client.get(url, {**fields, "give_squares": [theirs]}, **HTMX).content.decode()
    assert state.board.squares[theirs].name in forged
    assert client.get(url, {**fields, "to": 0}, **HTMX).status_code == 404  # oneself
    game = world
    game.refresh_from_db()
    assert (game.version, GameAction.objects.filter(game=game).count()) == before


def test_only_a_player_previews(client, world, charlie):
    client.force_login(charlie)
    url = reverse("games:game_trade_preview", args=[world.pk])
    assert client.get(url, {"version": world.version, "type": "propose", "to": 1}, **HTMX).status_code == 404


def test_the_builder_shows_the_summary_and_marks_a_completing_deed(client, world):
    users = users_by_seat(world)
    client.force_login(users[0])
    html = client.get(reverse("games:game", args=[world.pk])).content.decode()
    assert 'id="trade-summary"' in html and "You give" in html
    assert 'hx-get="' + reverse("games:game_trade_preview", args=[world.pk]) + '"' in html


def test_a_deed_that_would_complete_the_receivers_group_is_marked(client, world):
    state = GameState.from_json(world.state)
    theirs = cheapest_deed(state, 1)
    for sq in state.board.group_of[theirs]:
        if sq != theirs:
            state.owner[sq] = 0
    world.state = state.to_json()
    world.save(update_fields=["state"])
    client.force_login(users_by_seat(world)[0])
    html = client.get(reverse("games:game", args=[world.pk])).content.decode()
    mark = html.index(f'name="take_squares" value="{theirs}"')
    assert "completes a group for you" in html[mark:mark + 600]
