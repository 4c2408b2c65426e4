"""The simulator's command line: figures, failures, and the landing study."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalAction, RuleSet, apply, new_game, simulate
from games.engine.bots import make_bot
from games.engine.rules import stepper, waiting_on


def test_simulate_plays_whole_games_and_prints_the_figures(capsys):
    code = simulate.main(
        [
            "--preset",
            "classic",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "5",
            "--bots",
            "strategy,random",
        ]
    )

    out = capsys.readouterr().out
    assert code == 0
    for figure in (
        "games/s",
        "actions/s",
        "player turns/s",
        "mean rounds",
        "win share per seat",
        "win share per bot",
        "0:strategy",
        "1:random",
        "2:strategy",
    ):
        assert figure in out


def test_simulate_json_win_shares_add_up_to_one(capsys):
    code = simulate.main(
        [
            "--preset",
            "world-teams",
            "--games",
            "4",
            "--seed",
            "2",
            "--bots",
            "strategy,random",
            "--json",
        ]
    )

    figures = json.loads(capsys.readouterr().out)
    assert code == 0
    assert figures["games"] == 4
    assert abs(sum(figures["seat_win_share"]) - 1) < 1e-9
    assert abs(sum(figures["kind_win_share"].values()) - 1) < 1e-9


def test_simulate_reports_a_game_that_does_not_end(capsys):
    code = simulate.main(["--preset", "classic", "--games", "1", "--max-actions", "50"])

    assert code == 1
    assert "did not end within 50 actions" in capsys.readouterr().err


def test_simulate_reports_a_broken_invariant(capsys, monkeypatch):
    monkeypatch.setattr(
        simulate.invariants, "check", lambda state: ["money ledger: broken on purpose"]
    )

    code = simulate.main(["--preset", "classic", "--games", "1"])

    err = capsys.readouterr().err
    assert code == 1
    assert "money ledger: broken on purpose" in err and "after action 0" in err


def test_simulate_refuses_a_player_count_the_preset_does_not_seat(capsys):
    assert simulate.main(["--preset", "world-duel", "--players", "4"]) == 2
    assert "seats 3-3" in capsys.readouterr().err


def test_simulate_refuses_an_unknown_bot(capsys):
    assert simulate.main(["--games", "1", "--bots", "genius"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err


def _study(capsys, jail: str) -> dict:
    code = simulate.main(["--landing-study", "--turns", "20000", "--jail", jail, "--json"])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def test_landing_study_frequencies_sum_to_one(capsys):
    study = _study(capsys, "short")

    total = sum(r["frequency"] for r in study["squares"]) + study["in_jail"]["frequency"]
    assert abs(total - 1) < 1e-9
    assert study["squares"][30]["count"] > 0  # the roll that lands on Go to Jail counts there
    assert study["moves"] > study["turns"]  # doubles and card moves add moves


def test_landing_study_long_jail_makes_jail_illinois_and_go_among_the_most_visited(capsys):
    study = _study(capsys, "long")
    freq = {r["square"]: r["frequency"] for r in study["squares"]}
    freq[10] += study["in_jail"]["frequency"]  # Jail: in jail and just visiting
    top = sorted(freq, key=freq.get, reverse=True)

    assert top[0] == 10
    assert 24 in top[:5] and 0 in top[:8]
    # Staying in jail for long makes the jail itself far more frequent than with short stays.
    assert study["in_jail"]["frequency"] > 2 * _study(capsys, "short")["in_jail"]["frequency"]


def test_landing_study_prints_a_table(capsys):
    assert simulate.main(["--landing-study", "--turns", "500"]) == 0
    out = capsys.readouterr().out
    assert "In jail" in out and "Illinois Avenue" in out


def _strategy_actions(state, seed: int, limit: int = 300):
    """The seat and the strategy bot's action for each step of ``state`` (one bot per seat, one
    generator seeded ``seed``), until the game ends or ``limit`` actions: the caller applies each."""
    bots = [make_bot("strategy") for _ in state.players]
    rng = random.Random(seed)
    for _ in range(limit):
        if state.over:
            return
        seat = waiting_on(state)[0]
        yield seat, bots[seat].choose(state, seat, rng)


def test_stepper_plays_as_apply_does():
    # The play loop's stepper: the same states and events as apply, and an illegal action
    # raises with the state untouched.
    rules = RuleSet.build("classic")
    a, _ = new_game(rules, ["a", "b", "c"], seed=5)
    b, _ = new_game(rules, ["a", "b", "c"], seed=5)
    step = stepper(b, events=True)
    for seat, action in _strategy_actions(a, 5):
        _, events = apply(a, action)
        assert step(dict(action)) == events
        assert a.to_json() == b.to_json()
        before = b.to_json()
        for bad in ({"type": "end_turn", "player": (b.current + 1) % 3}, {"type": "fly", "player": seat},
                    {"type": "roll", "player": True}, {"type": "roll", "player": -1}, ["roll"]):
            with pytest.raises(IllegalAction):
                step(bad)
        assert b.to_json() == before
    assert a.seq == b.seq > 100
    assert stepper(b)({"type": "surrender", "player": b.current}) is None  # no events asked for


def test_apply_leaves_nothing_on_the_state_which_is_freed_by_its_last_reference():
    # apply keeps no working context on the position (python-chess's push leaves nothing to
    # release): after a whole game the state holds only its data, and a state that was played
    # is freed with its last reference, the garbage collector not needed.
    import gc
    import weakref

    class Marker:
        pass

    rules = RuleSet.build("classic")
    a, _ = new_game(rules, ["a", "b", "c"], seed=7)
    fresh = set(dir(a))
    for _seat, action in _strategy_actions(a, 7):
        apply(a, action)
    assert a.seq > 100 and set(dir(a)) == fresh
    assert not hasattr(a, "_ctx")

    gc.disable()
    try:
        state = new_game(rules, ["a", "b"], seed=1)[0]
        apply(state, {"type": "roll", "player": state.current})
        state.views = Marker()  # (a slot the engine leaves alone; a Player takes no weak reference)
        watch = weakref.ref(state.views)
        del state
        assert watch() is None
    finally:
        gc.enable()


def test_a_new_turn_starts_with_the_record_new_turn_makes():
    # Ending a turn starts the next with a fresh record, as state._new_turn makes it.
    from games.engine.state import _new_turn

    state, _ = new_game(RuleSet.build("classic"), ["a", "b"], seed=3)
    while state.phase != "end_turn" or state.stack:
        seat = waiting_on(state)[0]
        apply(state, make_bot("strategy").choose(state, seat, random.Random(1)))
    old = state.turn
    apply(state, {"type": "end_turn", "player": state.current})
    assert state.turn == _new_turn() and list(state.turn) == list(_new_turn())
    assert state.turn["builds"] is not old["builds"] and state.turn["timed_out"] is not old["timed_out"]


@pytest.mark.parametrize("bad", [{"type": "end_turn", "player": 0}, {"type": "roll", "player": True},
                                 {"type": "fly", "player": 0}, ["roll"], {"type": "roll", "player": 9}])
def test_play_game_reports_a_bot_choosing_an_illegal_action(bad):
    class Stubborn:
        name = "stubborn"

        def choose(self, state, seat, rng):
            return bad

    with pytest.raises(simulate.SimulationError, match="chose an illegal action"):
        simulate.play_game(RuleSet.build("classic"), [Stubborn(), Stubborn()], 1)


def test_play_game_cap_counts_the_actions_applied():
    bots = [make_bot("random"), make_bot("random")]
    with pytest.raises(simulate.SimulationError, match="did not end within 7 actions"):
        simulate.play_game(RuleSet.build("classic"), bots, 1, max_actions=7)
    seen = []
    result = simulate.play_game(RuleSet.build("classic"), [make_bot("strategy"), make_bot("strategy")], 2,
                                on_action=lambda state, action: seen.append(state.seq), keep_log=True)
    assert result.actions == len(seen) == len(result.log) == result.state.seq
    assert seen == list(range(1, result.actions + 1))
    again = simulate.play_game(RuleSet.build("classic"), [make_bot("strategy"), make_bot("strategy")], 2,
                               max_actions=result.actions)
    assert again.actions == result.actions and again.state.over
