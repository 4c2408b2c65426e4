"""Truncated playouts scored by a value function (games/engine/analysis.py ``leaf``, issue 30):
the value's properties, the playouts' determinism, the interval on the mean of the values, and
the fairness of the estimate (what a playout may know) with them on."""

from __future__ import annotations

import pytest

from games.engine import RuleSet, apply, new_game
from games.engine.analysis import (
    VALUE_COEF,
    AnalysisError,
    compare,
    playout,
    playout_key,
    public_position,
    unseen_counts,
    value,
    value_features,
    wilson,
    win_chances,
)
from games.engine.state import GameState

from .test_analysis import _certain_win, _hidden_future_changed, _own_dice

pytestmark = pytest.mark.slow

CLASSIC = RuleSet.build("classic")


def _swapped(st: GameState, a: int, b: int) -> GameState:
    """The position with seats a and b exchanging everything they have (cash, deeds, buildings,
    squares): the same position seen with the two labels swapped."""
    out = st.copy()
    pa, pb = out.players[a], out.players[b]
    for attr in ("cash", "pos", "in_jail", "jail_turns", "jail_cards", "bankrupt"):
        x, y = getattr(pa, attr), getattr(pb, attr)
        setattr(pa, attr, y)
        setattr(pb, attr, x)
    out.owner = [b if o == a else a if o == b else o for o in out.owner]
    return out


# -- the value -----------------------------------------------------------------------------------


def test_the_value_is_a_share_of_one_for_every_side(positions):
    for st in positions.values():
        v = value(st)
        assert len(v) == 4
        assert all(0 < x < 1 for x in v)
        assert sum(v) == pytest.approx(1.0, abs=1e-12)


def test_a_richer_side_is_worth_more(positions):
    st = positions[20].copy()
    before = value(st)
    st.players[2].cash += 2000
    st.money += 2000
    after = value(st)
    assert after[2] > before[2]
    assert all(after[p] < before[p] for p in (0, 1, 3))


def test_a_bankrupt_player_is_worth_nothing(positions):
    st = positions[20].copy()
    st.players[1].bankrupt = True
    for sq, o in enumerate(st.owner):
        if o == 1:
            st.owner[sq] = None
    v = value(st)
    assert v[1] == 0.0
    assert value_features(st)[1] is None
    assert sum(v) == pytest.approx(1.0, abs=1e-12) and all(v[p] > 0 for p in (0, 2, 3))


def test_a_symmetric_position_gets_symmetric_values(positions):
    start, _ = new_game(CLASSIC, ["a", "b", "c", "d"], seed=4, events=False)
    assert value(start) == [0.25] * 4

    st = positions[20]
    v = value(st)
    assert len(set(v)) == 4  # a position that is not symmetric: every seat its own value
    swapped = value(_swapped(st, 0, 2))
    assert swapped == pytest.approx([v[2], v[1], v[0], v[3]], abs=1e-12)


def test_a_game_over_is_worth_its_result():
    st = _certain_win()
    assert value(st)[0] > 0.99  # every deed, hotels and $100,000 against $1
    st.players[1].bankrupt = True
    st.over, st.winner = True, 0
    assert value(st) == [1.0, 0.0]


def test_every_playout_ending_alike_still_has_an_interval():
    # Every truncated playout ends in the rich seat's win: no spread to measure, so the interval
    # is the Wilson interval of that many wins, not a point.
    est = win_chances(_certain_win(), 100, seed=1, leaf=10)
    rich, poor = est.chances
    assert rich.p == 1.0 and 0.95 < rich.low < 1.0
    assert poor.p == 0.0 and 0 < poor.high < 0.05


def test_the_coefficients_are_fitted_not_left_at_nought():
    # A value of all-zero coefficients would say 1/n for every side, whatever the position.
    assert any(c != 0 for c in VALUE_COEF)


# -- truncated playouts ----------------------------------------------------------------------------


def test_truncated_playouts_are_the_same_for_the_same_seed(positions):
    st = positions[8]
    a = win_chances(st, 48, seed=3, leaf=4)
    b = win_chances(st, 48, seed=3, leaf=4)
    assert a == b
    assert a.leaf == 4 and a.valued > 0
    assert a.valued + a.finished + a.capped + a.tied + a.decided == 48
    assert sum(c.p for c in a.chances) == pytest.approx(1.0)
    assert win_chances(st, 48, seed=4, leaf=4) != a


def test_a_playout_valued_on_the_way_tells_what_the_truncated_one_returns(positions):
    # bench/analysis.py's check pairs each full playout with its truncated self this way.
    pub = public_position(positions[20])
    unseen = unseen_counts(pub, None)
    for index in range(3):
        key = playout_key(9, index)
        verdict: list = []
        full, _end, full_turns = playout(pub, unseen, key, 100, leaf=5, verdict=verdict)
        short, end, turns = playout(pub, unseen, key, 100, leaf=5)
        if end == "valued":
            assert verdict == [(short, turns)] and full_turns > turns
        else:
            assert verdict == [] and (short, turns) == (full, full_turns)


def test_the_interval_is_the_mean_values_and_narrower_than_a_wins(positions):
    st = positions[20]
    est = win_chances(st, 200, seed=2, leaf=10)
    full = win_chances(st, 200, seed=2, leaf=None)
    for c, f in zip(est.chances, full.chances, strict=True):
        assert c.low <= c.p <= c.high
        # A value in [0, 1] varies less than a 0/1 outcome: the same playouts, a narrower interval
        # than the Wilson interval of as many wins.
        low, high = wilson(c.p, 200)
        assert c.half_width < max(c.p - low, high - c.p)
        assert f.half_width > c.half_width


def test_the_target_is_reached_with_truncated_playouts(positions):
    est = win_chances(positions[20], 3000, seed=1, target=0.05, leaf=10)
    assert est.half_width <= 0.05 and est.playouts < 3000


@pytest.mark.parametrize("leaf", [0, -1, 2.5, True, "10"])
def test_a_bad_leaf_is_refused_and_changes_nothing(positions, leaf):
    st = positions[8]
    before = st.to_json()
    with pytest.raises(AnalysisError, match="leaf"):
        win_chances(st, 10, leaf=leaf)
    with pytest.raises(AnalysisError, match="leaf"):
        compare(st, st, 10, leaf=leaf)
    assert st.to_json() == before


def test_a_position_compared_with_itself_differs_by_nothing_with_truncation(positions):
    cmp = compare(positions[20], positions[20], 40, seed=1, leaf=4)
    assert all(d.delta == 0 and d.half_width == 0 for d in cmp.differences)


# -- fairness with truncated playouts on ------------------------------------------------------------


def test_the_games_own_future_never_reaches_the_truncated_estimate(positions):
    # Future dice drawn afresh, undrawn cards shuffled anew, the game's seed never used.
    a = positions[8]
    b = _hidden_future_changed(a)
    assert _own_dice(a) != _own_dice(b) and a.decks != b.decks

    est_a = win_chances(a, 24, seed=5, leaf=4)
    assert est_a.valued > 0
    assert win_chances(b, 24, seed=5, leaf=4) == est_a
    assert win_chances(a, 24, seed=6, leaf=4) != est_a


def test_a_maximum_bid_is_never_used_by_truncated_playouts():
    def auction(by_maximum: bool) -> GameState:
        st, _ = new_game(CLASSIC, ["a", "b", "c", "d"], seed=3, roll_for_first=False, events=False)
        st.stack.append({"k": "buy", "p": 0, "sq": 39})
        apply(st, {"type": "decline", "player": 0}, events=False)
        if by_maximum:
            apply(st, {"type": "max_bid", "player": 2, "amount": 150}, events=False)
        else:
            apply(st, {"type": "bid", "player": 2, "amount": 1}, events=False)
        return st

    with_max, by_hand = auction(True), auction(False)
    assert "max" in with_max.stack[-1]
    assert win_chances(with_max, 16, seed=2, leaf=2) == win_chances(by_hand, 16, seed=2, leaf=2)
