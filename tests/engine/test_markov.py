"""The Markov model of the classic board (games/engine/markov.py) against the engine's own
landing study, and the playouts' win chances (issue 30) against the model's rents."""

from __future__ import annotations

import itertools

import pytest

from games.engine import RuleSet, invariants, load_board, new_game
from games.engine.analysis import win_chances
from games.engine.markov import landings_per_turn, rent_per_opponent_turn, study_frequencies
from games.engine.simulate import landing_study
from games.engine.state import GameState

pytestmark = pytest.mark.slow

CLASSIC = RuleSet.build("classic")


@pytest.mark.parametrize("jail", ["long", "short"])
def test_the_model_lands_where_the_engine_lands(jail):
    model = study_frequencies(jail)
    study = landing_study(20_000, jail, seed=7)

    for sq, row in enumerate(study["squares"]):
        assert model["squares"][sq] == pytest.approx(row["frequency"], abs=0.005), sq
    assert model["in_jail"] == pytest.approx(study["in_jail"]["frequency"], abs=0.008)


def test_landings_per_turn_count_the_rolls_after_doubles():
    land = landings_per_turn("long")
    # A turn is 1 + 1/6 + 1/36 rolls at most, less the rolls spent failing in jail.
    assert 1.0 < sum(land) < 1 + 1 / 6 + 1 / 36
    assert land[30] == 0  # Go to Jail is never where a move ends: the token goes on to jail
    streets = load_board("classic").streets
    assert max(streets, key=lambda sq: land[sq]) == 24  # Illinois Avenue, the famous one


def test_rents_rise_with_every_building_level():
    rents = rent_per_opponent_turn()
    assert set(rents) == {"brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue"}
    for levels in rents.values():
        assert levels == sorted(levels) and levels[0] > 0


def _owning(groups: dict[str, int], houses: int = 3) -> GameState:
    """A fresh four-player game in which each given group belongs whole to its seat, with
    ``houses`` on every street; seat 1 is to roll."""
    st, _ = new_game(CLASSIC, ["a", "b", "c", "d"], seed=4, roll_for_first=False, events=False)
    for group, seat in groups.items():
        for sq in st.board.groups[group]:
            st.owner[sq] = seat
            st.level[sq] = houses
            st.bank_houses -= houses
    st.current = 1
    assert invariants.check(st) == []
    return st


def test_a_lone_owner_of_three_houses_wins_more_the_more_the_group_earns():
    rents = rent_per_opponent_turn()
    groups = sorted(("brown", "light_blue", "pink", "orange", "green"), key=lambda g: rents[g][3])
    chances = [win_chances(_owning({g: 0}), 150, seed=1, round_cap=30).chances[0] for g in groups]

    # Never a higher-earning group significantly below a lower-earning one...
    for lower, higher in itertools.pairwise(chances):
        assert higher.high >= lower.low, (groups, chances)
    # ...and the lowest clearly apart (the others win nearly surely).
    assert chances[0].high < chances[1].low, chances
    assert min(c.p for c in chances[1:]) > 0.9, chances


@pytest.mark.parametrize("better, worse", [("orange", "light_blue"), ("orange", "pink"), ("green", "orange")])
def test_head_to_head_the_group_that_earns_more_wins_more(better, worse):
    rents = rent_per_opponent_turn()
    assert rents[better][3] > rents[worse][3]
    # Each group once in seat 0 and once in seat 2, so that seat order favours neither.
    one = win_chances(_owning({better: 0, worse: 2}), 150, seed=1, round_cap=30)
    two = win_chances(_owning({worse: 0, better: 2}), 150, seed=2, round_cap=30)

    p_better = (one.chances[0].p + two.chances[2].p) / 2
    p_worse = (one.chances[2].p + two.chances[0].p) / 2
    assert p_better > p_worse + 0.1, (p_better, p_worse)
