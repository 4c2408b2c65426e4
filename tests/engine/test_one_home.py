"""Each rule has one home in the engine, and whoever else needs it asks there (issue 9).

The full-group doubling of unimproved rent lives in ``street_rent``; which deeds may go into a
trade in the trade check itself (``tradeable_deeds`` asks it). These tests hold the homes to what
the engine does when a game is played: rent charged on landing, proposals accepted or refused.
"""

from __future__ import annotations

import pytest

from games.engine import (
    HOTEL,
    IllegalAction,
    RuleSet,
    apply,
    new_game,
    rent_of,
    street_rent,
    street_rents,
    tradeable_deeds,
)
from games.engine.dice import ScriptedRng


def _game(preset: str, **options):
    rules = RuleSet.build(preset, options)
    names = ["a", "b", "c", "d"][: max(2, rules.seats[0])]
    st, _ = new_game(rules, names, seed=5, roll_for_first=False, events=False)
    return st


def test_street_rent_doubles_only_the_unimproved_rent_of_a_whole_group():
    rents = (6, 30, 90, 270, 400, 550)
    assert street_rent(rents, 0, False) == 6
    assert street_rent(rents, 0, True) == 12
    assert [street_rent(rents, lv, True) for lv in range(1, 6)] == [30, 90, 270, 400, 550]
    assert street_rents(rents, True) == (12, 30, 90, 270, 400, 550)
    assert street_rents(rents, False) == rents


@pytest.mark.parametrize("preset", ["classic", "world-classic"])
def test_landing_charges_the_rent_street_rent_gives(preset):
    st = _game(preset)
    board = st.board
    group = board.group_of[board.streets[0]]
    first, *rest = group
    checks = []
    # Split group, whole group, whole group with another street mortgaged (RULES.md 14), built.
    for owners, mortgaged, level in (
        ([1] + [2] * len(rest), False, 0),
        ([1] * len(group), False, 0),
        ([1] * len(group), True, 0),
        ([1] * len(group), False, 2),
        ([1] * len(group), False, HOTEL),
    ):
        s = _game(preset)
        for sq, o in zip(group, owners, strict=True):
            s.owner[sq] = o
            s.level[sq] = level
        s.mortgaged[rest[0]] = mortgaged
        s.players[0].pos = (first - 4) % 40
        cash = s.players[1].cash
        whole = len(set(owners)) == 1
        expected = street_rent(board[first].rents, level, whole)
        assert rent_of(s, first) == expected
        # Seat 0 moves 4 (a 1 and a 3) onto the street.
        apply(s, {"type": "roll", "player": 0}, ScriptedRng([1, 3]))
        checks.append((s.players[1].cash - cash, expected))
    assert all(got == want for got, want in checks), checks
    assert checks[1][1] == 2 * checks[0][1] == checks[2][1]


def _accepted_alone(st, giver, receiver, sq) -> bool:
    """Whether the engine takes a proposal of the deed alone (against 1 cash, for the balance)."""
    s = st.copy()
    s.current = giver
    try:
        apply(s, {"type": "propose", "player": giver, "to": receiver,
                  "give": {"squares": [sq]}, "take": {"cash": 0}})
    except IllegalAction as e:
        assert "unbalanced" not in str(e)
        return False
    return True


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", {}), ("classic", {"trade_mortgaged": "no"}), ("world-teams", {"trade_balance": False})],
)
def test_tradeable_deeds_are_the_deeds_the_trade_check_accepts(preset, options):
    st = _game(preset, **options)
    deeds = st.board.deeds
    for i, sq in enumerate(deeds):
        st.owner[sq] = i % 4 if len(st.players) == 4 else i % 2
    # Buildings on one whole group of seat 0, mortgages here and there.
    group = st.board.group_of[st.board.streets[-1]]
    for x in group:
        st.owner[x] = 0
        st.level[x] = 1
    for sq in deeds[::3]:
        if st.level[sq] == 0:
            st.mortgaged[sq] = True
    for receiver in range(1, len(st.players)):
        listed = tradeable_deeds(st, 0, receiver)
        assert listed == [sq for sq in deeds if st.owner[sq] == 0 and _accepted_alone(st, 0, receiver, sq)]
    # Without a partner named: the deeds any opponent may receive.
    opponent = next(q for q in range(1, len(st.players)) if not st.teammates(0, q))
    assert tradeable_deeds(st, 0) == tradeable_deeds(st, 0, opponent)
    if preset == "world-teams":
        mate = next(q for q in range(1, 4) if st.teammates(0, q))
        assert set(tradeable_deeds(st, 0, mate)) > set(tradeable_deeds(st, 0, opponent))
