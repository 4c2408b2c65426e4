"""classic-short ends at the second bankruptcy (RULES.md 12), so a table where nobody ever
trades, builds or goes bankrupt never ends. With six players and two deeds dealt each, most
groups are split three ways; the strategy bot proposed only trades completing a group at once
(from a single other holder), so at seed 161 no trade was ever made and the game ran past
200,000 actions (round 15,623, every seat with over 20,000 in cash). Now a holder of a three-way
split group may buy another holder's deed as a step towards it.
"""

from __future__ import annotations

from games.engine import RuleSet, make_bot, new_game
from games.engine.bots import ownership
from games.engine.simulate import play_game


def test_classic_short_six_strategy_bots_seed_161_ends_at_the_second_bankruptcy():
    result = play_game(RuleSet.build("classic-short"), [make_bot("strategy") for _ in range(6)], 161,
                       max_actions=100_000)

    st = result.state
    assert st.over
    assert sum(p.bankrupt for p in st.players) == 2  # the short game's end, not a last survivor
    assert result.actions < 100_000


def test_classic_short_with_many_players_always_ends():
    for players in (5, 6, 8):
        for seed in range(150, 170):
            result = play_game(RuleSet.build("classic-short"), [make_bot("strategy") for _ in range(players)],
                               seed, max_actions=100_000)
            assert result.state.over, (players, seed)


def test_each_holder_of_a_three_way_split_group_may_buy_a_step_towards_it():
    st, _ = new_game(RuleSet.build("classic"), ["a", "b", "c", "d"], seed=1, roll_for_first=False, events=False)
    for sq, seat in ((6, 0), (8, 1), (9, 2)):  # the light blues, one each
        st.owner[sq] = seat

    wanted = ownership(st).wanted

    assert (1, [8]) in wanted[0] and (2, [9]) in wanted[0]
    assert (0, [6]) in wanted[1] and (2, [9]) in wanted[1]
    assert (0, [6]) in wanted[2] and (1, [8]) in wanted[2]
    assert wanted[3] == []


def test_a_group_split_two_ways_is_still_wanted_whole():
    st, _ = new_game(RuleSet.build("classic"), ["a", "b", "c"], seed=1, roll_for_first=False, events=False)
    for sq, seat in ((6, 0), (8, 0), (9, 1)):
        st.owner[sq] = seat

    wanted = ownership(st).wanted

    assert wanted[0] == [(1, [9])]
    assert wanted[1] == [] and wanted[2] == []
