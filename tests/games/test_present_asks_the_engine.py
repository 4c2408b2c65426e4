"""The game page shows the engine's own figures (issue 9, one home per rule): the sell-back of a
building and of a whole group, the income tax's percentage choice, the casino stake and the deeds
a trade may hold are the engine's queries (games.engine: ``sell_back``, ``sell_all_refund``,
``income_tax_percent``, ``CASINO_STAKE``, ``tradeable_deeds``), and what the page offers is what
the move then pays or charges.
"""

from __future__ import annotations

import pytest

from games.engine import (
    CASINO_STAKE,
    RuleSet,
    apply,
    income_tax_percent,
    make_bot,
    new_game,
    tradeable_deeds,
)
from games.engine.dice import ScriptedRng
from games.engine.simulate import play_game
from games.views.page.decision import choices_for, decision_text
from games.views.page.trade import tradeable

LIGHT_BLUE = (6, 8, 9)  # build cost 50 each


def _game(preset="classic", **options):
    rules = RuleSet.build(preset, options)
    st, _ = new_game(rules, ["Ana", "Bob"], seed=3, roll_for_first=False, events=False)
    return st


def _offered(st, p, sq, kind):
    entry = next(m for m in choices_for(st, p).manage if m["sq"] == sq)
    return next(a["amount"] for a in entry["actions"] if a["type"] == kind)


def test_the_sell_all_offered_is_what_the_bank_pays_each_deed_rounded_down():
    # A sell-back of 35%: each 50 house brings 17.5, paid as 17 per deed (the engine rounds each
    # deed's refund down); the page used to round the group's sum (52) instead of 51.
    st = _game(sell_back=0.35)
    for sq in LIGHT_BLUE:
        st.owner[sq] = 0
        st.level[sq] = 1
    offered = _offered(st, 0, 6, "sell_all")
    cash = st.players[0].cash

    apply(st, {"type": "sell_all", "player": 0, "square": 6}, events=False)

    assert st.players[0].cash - cash == offered == 51


def test_the_sale_of_one_building_offered_is_what_the_bank_pays():
    st = _game(sell_back=0.75)
    for sq in LIGHT_BLUE:
        st.owner[sq] = 1  # not the player whose turn it is: classic sells at any time
        st.level[sq] = 2
    offered = _offered(st, 1, 9, "sell")
    cash = st.players[1].cash

    apply(st, {"type": "sell", "player": 1, "square": 9}, events=False)

    assert st.players[1].cash - cash == offered == 37  # 75% of 50, rounded down


def test_the_income_tax_percentage_offered_is_what_the_engine_charges():
    st = _game(income_tax_choice=True)
    st.owner[39] = 0  # worth 1,500 cash + 400: 10% is 190
    st.stack.append({"k": "income_tax", "p": 0})
    offered = choices_for(st, 0).income_tax["percent"]
    cash = st.players[0].cash

    assert offered == income_tax_percent(st, 0) == 190
    apply(st, {"type": "income_tax", "player": 0, "choice": "percent"}, events=False)

    assert cash - st.players[0].cash == offered


def test_the_casino_stake_the_page_names_is_the_stake_the_engine_takes():
    st = _game("world-classic")
    st.stack.append({"k": "casino", "p": 0})
    cash = st.players[0].cash

    text = decision_text(st)
    # A die the numbers miss: the player pays the stake and wins nothing.
    apply(st, {"type": "casino", "player": 0, "numbers": [6]}, ScriptedRng([1], jackpot=False), events=False)

    assert f"${CASINO_STAKE:,}" in text
    assert cash - st.players[0].cash == CASINO_STAKE


@pytest.mark.parametrize("preset", ["classic", "world-classic", "world-teams"])
def test_the_trade_builder_offers_the_deeds_the_trade_check_accepts(preset):
    rules = RuleSet.build(preset)
    seen = 0

    def watch(st, _action):
        nonlocal seen
        if st.over or st.round % 3:
            return
        for giver in range(len(st.players)):
            for receiver in range(len(st.players)):
                if giver != receiver:
                    assert [d["sq"] for d in tradeable(st, giver, receiver)] == tradeable_deeds(st, giver, receiver)
                    seen += 1

    play_game(rules, [make_bot("strategy") for _ in range(4)], 12, on_action=watch, max_actions=1500)
    assert seen > 100
