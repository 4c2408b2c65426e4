"""The whole-game analysis's pure parts (analysis/compute.py): the positions as rounds begin,
the turning points and the dice's luck, on records replayed by the engine."""

from __future__ import annotations

import pytest

from analysis import compute, estimate
from games.engine import GameState, RuleSet, new_game
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


def _replayed_to(record: dict, steps: int) -> GameState:
    """The position after the record's first ``steps`` actions, replayed from its start alone."""
    rules = RuleSet.from_json(record["rules"])
    state, _ = new_game(rules, [str(n) for n in record["names"]], record["seed"], teams=record.get("teams"))
    for action in record["actions"][:steps]:
        compute._apply_recorded(state, action, events=False)
    return state


def test_the_positions_around_an_action_are_those_of_the_replay():
    record = play_record("classic", 3, seed=11)
    replayed = compute.replay(record)
    last = len(record["actions"])
    for step in (1, replayed.starts[3].step, replayed.starts[3].step + 1, last // 2, last):
        before, after, seen = compute.around(record, replayed, step)
        assert before.to_json() == _replayed_to(record, step - 1).to_json()
        assert after.to_json() == _replayed_to(record, step).to_json()
        assert all(k >= 0 for k in seen.values())
    for bad in (0, last + 1):
        with pytest.raises(ValueError):
            compute.around(record, replayed, bad)


@pytest.mark.slow  # (about 15 s of playouts: each candidate's swing, measured)
def test_a_turning_point_names_the_action_whose_own_swing_was_largest(settings):
    settings.ANALYSIS_SWING_PLAYOUTS = 16
    record = play_record("classic", 3, seed=11)
    replayed = compute.replay(record)
    points = []
    for start in replayed.starts:
        est = estimate.chances(start.state, seen=start.seen, seed=5 + start.round)
        points.append({"round": start.round, "step": start.step, "p": [c.p for c in est.chances]})
    points.append(compute.end_point(replayed.final, replayed.sides, len(record["actions"])))

    measured: dict[int, list[float]] = {}

    def swing(step: int) -> list[float]:
        before, after, seen = compute.around(record, replayed, step)
        measured[step] = estimate.swing(before, after, seen=seen, seed=step)
        return measured[step]

    out = compute.turning_points(points, replayed.events, replayed.sides, swing=swing)
    plain = compute.turning_points(points, replayed.events, replayed.sides)
    assert [(t["round"], t["side"]) for t in out] == [(t["round"], t["side"]) for t in plain]
    assert measured, "no turning point had two candidate actions"
    for t in out:
        if t["swing"] is None:
            continue
        first, last = points_step(points, t["round"]), points_step(points, t["to_round"], t["end"])
        span = [s for s in measured if first < s <= last]
        sign = 1 if t["to"] >= t["from"] else -1
        side = t["side"]
        # The named action is the candidate that moved the side most the way its chance went.
        assert t["step"] in span and t["swing"] == round(measured[t["step"]][side], 4)
        assert all(sign * measured[s][side] <= sign * measured[t["step"]][side] for s in span)
        assert 0 <= t["event"] < len(replayed.events[t["step"] - 1])

    # A player's bankruptcy costs that player every chance it had: its swing is never a gain.
    out_at = next(n for n, evs in enumerate(replayed.events, start=1) if any(e.get("e") == "bankrupt" for e in evs))
    loser = next(e["p"] for e in replayed.events[out_at - 1] if e.get("e") == "bankrupt")
    before, after, seen = compute.around(record, replayed, out_at)
    moved = estimate.swing(before, after, seen=seen, seed=1)
    assert moved[loser] <= 0 and abs(sum(moved)) < 1e-9


def points_step(points: list[dict], rnd: int, end: bool = False) -> int:
    """The step of the chart's point of round ``rnd`` (the end point when ``end``)."""
    return next(p["step"] for p in points if p["round"] == rnd and bool(p.get("end")) == end)
