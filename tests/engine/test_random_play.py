"""Random legal play on every preset: invariants after every action, games end, states
round-trip through JSON, replays are exact and illegal actions change nothing."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.engine import PRESET_NAMES, GameState, IllegalAction, RuleSet, apply
from games.engine.bots import RandomBot, make_bot
from games.engine.invariants import check
from games.engine.simulate import play_actions, play_game, replay

# Whole games are slow examples: few of them, and no shrinking (a failure names its seed, which
# replays the game exactly).
SETTINGS = settings(
    max_examples=8,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
# "random_max": the random bot that also leaves and withdraws maximum bids (RULES.md 15).
BOT_MIXES = [("random",), ("strategy",), ("strategy", "random"), ("random", "random", "strategy"),
             ("random_max", "random"), ("random_max", "strategy", "random_max")]


def _bot(name: str):
    return RandomBot(max_bids=True) if name == "random_max" else make_bot(name)


def _players(rules: RuleSet, draw: int) -> int:
    lo, hi = rules.seats
    return lo + draw % (min(hi, 4) - lo + 1)


def _play(preset: str, seed: int, mix: tuple, players_draw: int, **kw):
    rules = RuleSet.build(preset)
    n = _players(rules, players_draw)
    bots = [_bot(mix[i % len(mix)]) for i in range(n)]
    return rules, n, play_game(rules, bots, seed, **kw)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@SETTINGS
@given(seed=st.integers(0, 2**31), mix=st.sampled_from(BOT_MIXES), players=st.integers(0, 7))
def test_random_legal_play_keeps_every_invariant_and_ends(preset, seed, mix, players):
    # play_game(check=True) raises with the broken invariants after the first bad action, and
    # when a bot's choice is refused or the game outlasts the action cap.
    _, n, result = _play(preset, seed, mix, players, check=True)

    assert result.state.over
    assert result.state.pending() is None
    # The winner is the last player (or team: one member may have gone bankrupt) still in.
    assert any(not result.state.players[w].bankrupt for w in result.winners)
    if result.state.rules.end == "last_standing":
        assert all(result.state.players[q].bankrupt for q in range(n) if q not in result.winners)
    assert check(result.state) == []


@pytest.mark.parametrize("preset", PRESET_NAMES)
@SETTINGS
@given(
    seed=st.integers(0, 2**31),
    mix=st.sampled_from(BOT_MIXES),
    players=st.integers(0, 7),
    cuts=st.lists(st.floats(0, 1), min_size=1, max_size=3),
)
def test_json_round_trip_at_random_points_continues_identically(preset, seed, mix, players, cuts):
    rules, n, result = _play(preset, seed, mix, players, keep_log=True)
    log = result.log
    for cut in cuts:
        k = int(cut * len(log))
        state = replay(rules, n, seed, log[:k])
        data = state.to_json()
        copy = GameState.from_json(json.loads(json.dumps(data)))

        assert copy.to_json() == data
        # Both continue with the rest of the game's actions to the game's own end.
        play_actions(state, log[k:])
        play_actions(copy, log[k:])
        assert copy.to_json() == state.to_json() == result.state.to_json()


@pytest.mark.parametrize("preset", PRESET_NAMES)
@SETTINGS
@given(seed=st.integers(0, 2**31), mix=st.sampled_from(BOT_MIXES), players=st.integers(0, 7))
def test_same_seed_and_actions_replay_to_the_same_final_state(preset, seed, mix, players):
    rules, n, first = _play(preset, seed, mix, players, keep_log=True)
    _, _, second = _play(preset, seed, mix, players, keep_log=True)

    assert second.log == first.log  # the bots are deterministic given the seed
    assert replay(rules, n, seed, first.log).to_json() == first.state.to_json()
    assert second.state.to_json() == first.state.to_json()


# Forged actions: every kind of action, with parameters that are often wrong. Whatever apply
# says about them, an action it refuses must leave the state exactly as it was.
def _forgeries(state, rng: random.Random) -> list:
    n = len(state.players)
    seats = [*list(range(n)), n, -1]
    squares = [rng.randrange(40), rng.randrange(-2, 42), 0, 39]
    out: list = [
        None,
        [],
        {"type": "roll"},
        {"player": 0},
        {"type": "fly", "player": 0},
        {"type": "roll", "player": True},
        {"type": "roll", "player": "0"},
    ]
    for _ in range(25):
        p = rng.choice(seats)
        kind = rng.choice(
            (
                "roll",
                "end_turn",
                "buy",
                "decline",
                "bid",
                "pass",
                "pay_fine",
                "use_card",
                "build",
                "sell",
                "sell_all",
                "mortgage",
                "unmortgage",
                "keep_mortgaged",
                "propose",
                "accept",
                "reject",
                "cancel",
                "income_tax",
                "casino",
                "casino_skip",
                "bus",
                "teleport",
                "destroy",
                "auction_own",
                "max_bid",
            )
        )
        a = {"type": kind, "player": p}
        if kind in ("bid", "max_bid"):
            a["amount"] = rng.choice((-5, 0, 1, 10**9, "10", True, None, rng.randrange(0, 5000)))
        elif kind in (
            "build",
            "sell",
            "sell_all",
            "mortgage",
            "unmortgage",
            "keep_mortgaged",
            "teleport",
            "destroy",
            "auction_own",
        ):
            a["square"] = rng.choice([*squares, "3", None])
        elif kind == "propose":
            a["to"] = rng.choice([*seats, None, True])
            a["give"] = rng.choice(
                (
                    {"cash": -1},
                    {"cash": 10**9},
                    {"squares": [rng.randrange(40)]},
                    {"squares": [1, 1]},
                    {"cards": 3},
                    {"bogus": 1},
                    "x",
                    {},
                )
            )
            a["take"] = rng.choice(({"squares": [rng.randrange(40)]}, {"cash": 1}, {}, None))
        elif kind in ("accept", "reject", "cancel"):
            a["trade"] = rng.choice((None, 0, 999, "1"))
        elif kind == "income_tax":
            a["choice"] = rng.choice(("flat", "percent", "half", None))
        elif kind == "casino":
            a["numbers"] = rng.choice(([], [7], [1, 1], [1, 2, 3, 4], "1", [True], [2, 5]))
        elif kind == "bus":
            a["choice"] = rng.choice(("first", "second", "sum", "both", None))
        out.append(a)
    return out


@pytest.mark.parametrize("preset", PRESET_NAMES)
@SETTINGS
@given(
    seed=st.integers(0, 2**31),
    mix=st.sampled_from(BOT_MIXES),
    players=st.integers(0, 7),
    cuts=st.lists(st.floats(0, 1), min_size=3, max_size=6),
)
def test_an_illegal_action_leaves_the_state_unchanged(preset, seed, mix, players, cuts):
    rules, n, result = _play(preset, seed, mix, players, keep_log=True)
    rng = random.Random(seed)
    refused = 0
    state = replay(rules, n, seed, [])
    done = 0
    for k in sorted(int(c * len(result.log)) for c in cuts):
        play_actions(state, result.log[done:k])
        done = k
        before = state.to_json()
        for forged in _forgeries(state, rng):
            trial = GameState.from_json(before)
            try:
                apply(trial, forged, events=False)
            except IllegalAction:
                refused += 1
                assert trial.to_json() == before, f"{forged} was refused but changed the state"
    assert refused > 0
