"""The whole-game analysis's pure parts (analysis/compute.py): the positions as rounds begin,
the turning points and the dice's luck, on records replayed by the engine."""

from __future__ import annotations

from analysis import compute
from games.engine import GameState
from ratings.record import analyse
from tests.ratings.helpers import play_record


def test_round_starts_are_the_positions_as_each_round_began_and_cards_seen_grow():
    record = play_record("classic", 3, seed=11)
    replayed = compute.replay(record)
    rounds = [s.round for s in replayed.starts]
    assert rounds == list(range(1, len(rounds) + 1))
    assert replayed.starts[0].step == 0 and replayed.starts[0].seen == {}
    steps = [s.step for s in replayed.starts]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    # Each kept position is a copy, the one the replay had at that step.
    for start in replayed.starts[1:]:
        assert isinstance(start.state, GameState) and start.state.round == start.round
    assert replayed.final.over and len(replayed.events) == len(record["actions"])


def test_luck_counts_the_rent_the_record_says_and_expectations_balance():
    record = play_record("classic", 3, seed=11)
    replayed = compute.replay(record)
    luck = compute.luck(record, replayed.events)
    facts = analyse(record)
    # Actual rent: what ratings' own replay counts between players, seat by seat.
    for p in range(3):
        assert luck[p]["paid"] == sum(v for (payer, _o), v in facts.rent.items() if payer == p)
        assert luck[p]["received"] == sum(v for (_p, owner), v in facts.rent.items() if owner == p)
    # Every expected dollar one player may owe is one another may receive.
    assert abs(sum(x["expected_paid"] for x in luck) - sum(x["expected_received"] for x in luck)) <= 3
    assert sum(x["expected_paid"] for x in luck) > 0


def test_luck_is_left_out_off_the_classic_board():
    record = play_record("world-classic", 3, seed=5)
    replayed = compute.replay(record)
    assert compute.luck(record, replayed.events) is None


def test_turning_points_are_the_three_largest_swings_with_the_action_that_explains_each():
    points = [{"round": r, "step": 10 * (r - 1), "p": p, "low": p, "high": p}
              for r, p in enumerate([[.5, .5], [.55, .45], [.2, .8], [.25, .75], [.3, .7]], start=1)]
    points.append({"round": 5, "step": 45, "p": [0.0, 1.0], "low": [0, 1], "high": [0, 1], "end": True})
    events = [[] for _ in range(45)]
    events[14] = [{"e": "rent", "p": 0, "owner": 1, "amount": 50}]
    events[16] = [{"e": "trade_accepted", "trade": 3}]  # step 17, in round 2's span (10..20]
    events[42] = [{"e": "bankrupt", "p": 0, "to": 1}]
    out = compute.turning_points(points, events, [[0], [1]])
    # (Of two players, the one whose chance rose is named.)
    assert [(t["round"], t["side"]) for t in out] == [(2, 1), (5, 1), (1, 0)]
    assert (out[0]["from"], out[0]["to"], out[0]["step"], out[0]["event"]) == (.45, .8, 17, 0)
    assert out[1]["end"] and out[1]["step"] == 43
    assert compute.turning_points(points[:1], events, [[0], [1]]) == []
