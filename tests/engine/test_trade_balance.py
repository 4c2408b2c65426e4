"""The balance rule's home (RULES.md 9, world balance): ``trade_balanced`` and
``trade_side_value`` answer the trade builder before a proposal is sent, and the trade check
asks the same predicate, so the page's verdict and the engine's refusal never disagree."""

from __future__ import annotations

import pytest

from games.engine import JAIL_CARD_VALUE, IllegalAction, RuleSet, apply, new_game, trade_balanced, trade_side_value


def _game(preset: str):
    rules = RuleSet.build(preset, {})
    st, _ = new_game(rules, ["a", "b", "c", "d"][: max(2, rules.seats[0])], seed=5, roll_for_first=False,
                     events=False)
    st.current = 0
    for sq in (1, 3):  # the first colour group: two cheap streets for seat 0
        st.owner[sq] = 0
    st.owner[39] = 1
    return st


def _refused_as_unbalanced(st, give, take) -> bool:
    s = st.copy()
    try:
        apply(s, {"type": "propose", "player": 0, "to": 1, "give": give, "take": take})
    except IllegalAction as e:
        assert "unbalanced" in str(e), e
        return True
    return False


def test_a_side_is_worth_cash_printed_prices_and_jail_cards():
    st = _game("world-classic")
    price = st.board.price[1] + st.board.price[3]
    assert trade_side_value(st, {"cash": 100, "squares": [1, 3], "cards": 1}) == 100 + price + JAIL_CARD_VALUE
    assert trade_side_value(st, {}) == 0
    st.mortgaged[1] = True  # still its printed price
    assert trade_side_value(st, {"squares": [1]}) == st.board.price[1]


@pytest.mark.parametrize(("give_cash", "take_cash"), [(100, 200), (100, 201), (300, 150), (301, 150), (0, 1)])
def test_the_predicate_and_the_trade_check_agree_on_world_tables(give_cash, take_cash):
    st = _game("world-classic")
    give, take = {"cash": give_cash}, {"cash": take_cash}
    balanced = trade_balanced(st, 0, 1, give, take)
    assert balanced == (max(give_cash, take_cash) <= 2 * min(give_cash, take_cash))
    assert _refused_as_unbalanced(st, give, take) is not balanced


def test_classic_tables_have_no_balance_check():
    st = _game("classic")
    assert trade_balanced(st, 0, 1, {"cash": 0}, {"cash": 1000})
    assert not _refused_as_unbalanced(st, {"cash": 0}, {"cash": 1000})
