"""invariants.check finds each kind of broken state (a check that cannot fail proves nothing)."""

from __future__ import annotations

from games.engine.invariants import check
from games.engine.state import HOTEL


def test_a_fresh_game_breaks_no_invariant(classic_game):
    assert check(classic_game) == []


def test_money_appearing_from_nowhere_breaks_the_ledger(classic_game):
    classic_game.players[1].cash += 1

    assert any("money ledger" in p for p in check(classic_game))


def test_negative_cash_needs_a_pending_debt(classic_game):
    st = classic_game
    st.players[2].cash -= 1600
    st.bank += 1600

    assert any("cash -100 < 0" in p for p in check(st))
    st.stack.append(
        {"k": "debt", "p": 2, "to": -1, "amt": 10, "why": "tax", "pot": False, "cut": 0}
    )
    assert check(st) == []


def test_buildings_need_a_whole_unmortgaged_group_built_evenly(classic_game):
    st = classic_game
    st.owner[1] = st.owner[3] = 0
    st.level[1] = 2
    st.bank_houses -= 2
    assert any("built unevenly" in p for p in check(st))
    st.level[3] = 1
    st.bank_houses -= 1
    assert check(st) == []
    st.owner[3] = 1
    assert any("not held whole" in p for p in check(st))


def test_the_building_supply_is_conserved(classic_game):
    st = classic_game
    for sq in (37, 39):
        st.owner[sq] = 0
        st.level[sq] = HOTEL
    st.bank_hotels -= 1

    assert any("hotels: 2 placed + 11 in the bank != supply 12" in p for p in check(st))


def test_a_deed_of_a_bankrupt_player_or_a_non_deed_with_an_owner_is_caught(classic_game):
    st = classic_game
    st.owner[0] = 1
    st.players[3].bankrupt = True
    st.players[3].cash = 0
    st.money -= 1500
    st.owner[5] = 3
    problems = check(st)

    assert any("square 0 is not a deed" in p for p in problems)
    assert any("deed 5 is owned by seat 3" in p for p in problems)


def test_every_card_is_in_exactly_one_place(classic_game):
    st = classic_game
    st.players[0].jail_cards.append(st.decks["chance"][0])

    assert any("is in 2 places" in p or "not a jail card" in p for p in check(st))


def test_the_game_waits_on_a_known_decision(classic_game):
    st = classic_game
    st.stack.append({"k": "land", "p": 0})

    assert any("unknown decision 'land'" in p for p in check(st))
