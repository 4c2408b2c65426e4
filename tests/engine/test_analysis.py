"""Win chances by playouts (games/engine/analysis.py, issue 30): what a playout may know, the
intervals' statistical properties, common random numbers and sequential stopping."""

from __future__ import annotations

import random

import pytest

from games.engine import RuleSet, apply, invariants, new_game, waiting_on
from games.engine.analysis import (
    DECISIVE_RATIO,
    MIN_PLAYOUTS,
    AnalysisError,
    _decisive_side,
    bot_game_positions,
    compare,
    playout,
    playout_key,
    public_position,
    seen_cards,
    unseen_counts,
    wilson,
    win_chances,
)
from games.engine.bots import StrategyBot
from games.engine.cards import JAIL_CARDS, card_deck
from games.engine.dice import StateRng
from games.engine.state import GameState

pytestmark = pytest.mark.slow

CLASSIC = RuleSet.build("classic")


def _give(st: GameState, p: int, amount: int) -> None:
    """Money from outside the game, the ledger kept (sum(cash) + pots + bank == money)."""
    st.players[p].cash += amount
    st.money += amount


def _hidden_future_changed(st: GameState) -> GameState:
    """The same position with another future: the game's generator and the order of every
    deck's cards (none seen yet) differ."""
    other = st.copy()
    other.rng = (st.rng * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    for pile in other.decks.values():
        before = list(pile)
        while pile == before:
            random.Random(len(pile)).shuffle(pile)
    return other


def _own_dice(st: GameState, n: int = 5) -> list[tuple[int, int]]:
    """The next n rolls the game's own generator holds."""
    rng = StateRng(st.copy())
    return [rng.dice() for _ in range(n)]


# -- what a playout knows ------------------------------------------------------------------------


def test_the_games_own_future_never_reaches_the_estimate(positions):
    a = positions[8]
    b = _hidden_future_changed(a)
    # The two games really go on differently: their own generators roll other dice.
    assert _own_dice(a) != _own_dice(b)
    assert a.decks != b.decks and a.rng != b.rng

    est_a = win_chances(a, 24, seed=5, round_cap=6)
    est_b = win_chances(b, 24, seed=5, round_cap=6)

    assert est_a == est_b
    # The seed does matter: another seed, another sample.
    assert win_chances(a, 24, seed=6, round_cap=6) != est_a


def test_cards_seen_at_the_bottom_of_a_classic_deck_keep_their_order(positions):
    st = positions[8]
    pub = public_position(st, {"chance": 5})

    assert pub.decks["chance"][-5:] == st.decks["chance"][-5:]
    assert pub.decks["chance"][:-5] == sorted(st.decks["chance"][:-5])
    assert pub.decks["chest"] == sorted(st.decks["chest"])  # none seen: all unknown
    assert st.to_json() == positions[8].to_json()  # the game itself is left alone


@pytest.mark.parametrize("seed", [31, 32, 33, 34, 35, 36])
def test_the_cards_seen_are_counted_from_the_log_as_the_deck_holds_them(seed):
    # A bot game's events, action by action: the cards the log shows going to the bottom of
    # each deck are the deck's bottom cards, in order (so public_position keeps them).
    st, events = new_game(CLASSIC, ["a", "b", "c", "d"], seed=seed, events=True)
    bots = [StrategyBot() for _ in range(4)]
    rng = random.Random(seed)
    bottom: dict[str, list[str]] = {"chance": [], "chest": []}
    seen: dict[str, int] = {}
    for _ in range(3000):
        if st.over:
            break
        seat = waiting_on(st)[0]
        _, new = apply(st, bots[seat].choose(st, seat, rng))
        events += new
        if not any(e["e"] in ("card", "leave_jail", "bankrupt") for e in new):
            continue
        for e in new:
            obeyed = e["e"] == "card" and e["card"] not in JAIL_CARDS
            if obeyed or (e["e"] == "leave_jail" and e.get("how") == "card"):
                bottom[card_deck(e["card"])].append(e["card"])
        seen = seen_cards(events)
        for deck, pile in st.decks.items():
            k = min(seen.get(deck, 0), len(pile))
            assert k <= len(bottom[deck])
            assert pile[len(pile) - k :] == bottom[deck][len(bottom[deck]) - k :]
    assert len(bottom["chance"]) + len(bottom["chest"]) >= 15  # the test saw the decks go round


def test_a_maximum_bid_is_never_used():
    # Seat 0 declines a deed; seat 2 leaves a secret maximum of 150, and the engine bids the
    # opening 1 for it at once (RULES.md 15). Everyone sees that bid, not the maximum: the
    # position is the one in which seat 2 bid 1 by hand.
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

    assert public_position(with_max).to_json() == public_position(by_hand).to_json()
    assert win_chances(with_max, 16, seed=2, round_cap=3) == win_chances(by_hand, 16, seed=2, round_cap=3)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"playouts": 0},
        {"playouts": 2.5},
        {"seed": "x"},
        {"round_cap": 0},
        {"target": 0.7},
        {"target": 0},
        {"seen": {"chance": -1}},
        {"seen": {"nope": 1}},
        {"batch": 0},
        {"decisive": 1},
        {"decisive": 0.5},
        {"decisive": "3"},
        {"decisive": True},
        {"decisive": float("nan")},
        {"decisive": float("inf")},
    ],
)
def test_bad_arguments_are_refused_and_change_nothing(positions, kwargs):
    st = positions[8]
    before = st.to_json()
    with pytest.raises(AnalysisError):
        win_chances(st, **{"playouts": 10, **kwargs})
    assert st.to_json() == before


def test_compare_refuses_positions_of_different_games(positions):
    three, _ = new_game(CLASSIC, ["a", "b", "c"], seed=1, events=False)
    with pytest.raises(AnalysisError, match="same players"):
        compare(positions[8], three, 10)


# -- the estimate's statistical properties -------------------------------------------------------


def test_wilson_interval_matches_the_textbook_value():
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    # At 0 or 1 it still has a width: a sample never proves a certainty.
    assert wilson(1.0, 100)[0] == pytest.approx(0.963, abs=1e-3)


def _certain_win() -> GameState:
    """Seat 0 owns every deed, hotels on the four dearest groups, and is rich; seat 1 has $1."""
    st, _ = new_game(CLASSIC, ["rich", "poor"], seed=9, roll_for_first=False, events=False)
    for sq in st.board.deeds:
        st.owner[sq] = 0
    for sq in (21, 23, 24, 26, 27, 29, 31, 32, 34, 37, 39):
        st.level[sq] = 5
    st.bank_hotels -= 11
    _give(st, 0, 100_000)
    _give(st, 1, 1 - st.players[1].cash)
    st.current = 1
    assert invariants.check(st) == []
    return st


def test_a_certain_winner_gets_a_chance_of_one_within_its_interval():
    est = win_chances(_certain_win(), 100, seed=1)

    rich, poor = est.chances
    assert rich.p == 1.0 and rich.high == 1.0 and 0.95 < rich.low < 1.0
    assert poor.p == 0.0 and poor.low == 0.0 and 0 < poor.high < 0.05
    assert est.finished + est.decided == est.playouts == 100 and est.capped == 0


def test_a_game_already_over_is_certain():
    st = _certain_win()
    st.players[1].bankrupt = True
    st.over, st.winner = True, 0

    est = win_chances(st, 100, seed=1)
    assert [(c.p, c.low, c.high) for c in est.chances] == [(1.0, 1.0, 1.0), (0.0, 0.0, 0.0)]
    assert est.playouts == 0


def test_the_intervals_cover_the_chance_at_their_rate(positions):
    # Sixteen small estimates against a reference of many playouts (other seeds): a 95%
    # interval misses about one time in twenty. Four rounds per playout keep it quick.
    st = positions[20]
    reference = win_chances(st, 1200, seed=10_000, round_cap=4)
    covered = total = 0
    for seed in range(16):
        est = win_chances(st, 50, seed=seed, round_cap=4)
        assert sum(c.p for c in est.chances) == pytest.approx(1.0)
        for c, ref in zip(est.chances, reference.chances, strict=True):
            total += 1
            covered += c.low <= ref.p <= c.high
    assert covered / total >= 0.85, (covered, total)


def _rotated(st: GameState, k: int) -> GameState:
    """The same position with every seat moved on by k: the same game, players relabelled."""
    n = len(st.players)
    assert not st.stack and not st.trades
    d = st.to_json()
    new = lambda p: (p + k) % n  # noqa: E731
    d["players"] = [d["players"][(i - k) % n] for i in range(n)]
    d["owner"] = [new(o) if o >= 0 else o for o in d["owner"]]
    d["proposed"] = [[d["proposed"][(i - k) % n][(j - k) % n] for j in range(n)] for i in range(n)]
    d["current"], d["first"] = new(d["current"]), new(d["first"])
    d["bankrupt_order"] = [new(p) for p in d["bankrupt_order"]]
    d["rejected"] = []
    return GameState.from_json(d)


def test_relabelled_seats_get_the_same_chances_within_the_intervals(positions):
    st = positions[20]
    rotated = _rotated(st, 1)

    est = win_chances(st, 300, seed=1, round_cap=15)
    rot = win_chances(rotated, 300, seed=2, round_cap=15)

    for i, c in enumerate(est.chances):
        r = rot.chances[(i + 1) % 4]
        # Two independent estimates: their difference within three standard errors.
        assert abs(c.p - r.p) <= 1.5 * (c.half_width**2 + r.half_width**2) ** 0.5, (i, c, r)


def test_sequential_stopping_stops_once_the_intervals_are_narrow(positions):
    est = win_chances(_certain_win(), 5000, seed=1, target=0.03)
    assert est.playouts == MIN_PLAYOUTS and est.half_width <= 0.03

    est = win_chances(positions[20], 5000, seed=1, target=0.08, round_cap=10)
    assert MIN_PLAYOUTS <= est.playouts < 5000 and est.half_width <= 0.08


def test_antithetic_pairs_are_counted_and_sum_to_one(positions):
    est = win_chances(positions[20], 40, seed=3, round_cap=5, antithetic=True)
    assert est.antithetic and est.playouts == 40
    assert est.finished + est.capped + est.tied + est.decided == 40
    assert sum(c.p for c in est.chances) == pytest.approx(1.0)


def test_a_team_game_gives_one_chance_per_team():
    rules = RuleSet.build("world-teams")
    st = bot_game_positions(rules, 4, 21, [6])[6]
    est = win_chances(st, 20, seed=1, round_cap=3)
    assert [c.seats for c in est.chances] == [(0, 2), (1, 3)]
    assert sum(c.p for c in est.chances) == pytest.approx(1.0)


def test_a_playout_marked_at_a_round_tells_what_that_cap_would_have(positions):
    # bench/analysis.py measures what the round cap costs from one long playout per key.
    pub = public_position(positions[20])
    unseen = unseen_counts(pub, None)
    for index in range(3):
        key = playout_key(8, index)
        marks = dict.fromkeys((3, 6, 500))
        share, _end, turns = playout(pub, unseen, key, 600, marks=marks)
        for cap in (3, 6):
            capped_share, _, capped_turns = playout(pub, unseen, key, cap)
            assert marks[cap] == (capped_share, capped_turns)
        assert marks[500] == (share, turns)  # a game over before the mark: its result


# -- compare: common random numbers ----------------------------------------------------------------


def test_a_difference_no_pair_showed_still_has_an_interval(positions):
    # $1 more for a player far from any debt changes no playout, but the positions differ:
    # the difference is 0 and its interval the rule of three's, not a certainty.
    st = positions[20]
    richer = st.copy()
    rich = max(range(4), key=lambda p: richer.players[p].cash)
    _give(richer, rich, 1)
    cmp = compare(st, richer, 20, seed=4, round_cap=2)
    assert any(d.delta == 0 for d in cmp.differences)
    for d in cmp.differences:
        if d.delta == 0:
            assert d.low == pytest.approx(-3 / 20) and d.high == pytest.approx(3 / 20)


def test_a_position_compared_with_itself_differs_by_exactly_nothing(positions):
    cmp = compare(positions[20], positions[20], 30, seed=4, round_cap=8)
    assert all(d.delta == 0 and d.low == d.high == 0 for d in cmp.differences)
    assert cmp.a == cmp.b


def test_common_random_numbers_see_a_gift_surer_than_two_separate_estimates(positions):
    st = positions[20]
    gift = st.copy()
    _give(gift, 2, 200)

    cmp = compare(st, gift, 200, seed=4, round_cap=15)

    assert cmp.differences[2].low > 0  # the gift helps its receiver, and the comparison sees it
    # Each difference's interval against the one two independent estimates would give.
    ratios = [
        d.half_width / (a.half_width**2 + b.half_width**2) ** 0.5
        for d, a, b in zip(cmp.differences, cmp.a.chances, cmp.b.chances, strict=True)
    ]
    assert max(ratios) < 0.7, ratios
    assert sum(x.delta for x in cmp.differences) == pytest.approx(0.0, abs=1e-9)


# -- the late-game shortcut (decisive) -------------------------------------------------------------


def test_the_shortcut_names_only_a_side_three_times_as_rich_as_the_others_together():
    rich = _certain_win()  # seat 0: every deed, hotels and $100,000; seat 1: $1
    assert _decisive_side(rich, 3.0) == 0

    st, _ = new_game(CLASSIC, ["a", "b", "c", "d"], seed=3, events=False)
    _give(st, 2, 100_000)
    # Four players still in: never asked (the shortcut's rule: at most three sides in).
    assert _decisive_side(st, 3.0) is None
    st.players[0].bankrupt = True  # out of the game: counts for nothing
    st.players[0].cash = 0
    assert _decisive_side(st, 3.0) == 2

    # Seat 2 with three times the other two's $1,500 each, less a dollar: not yet; with it: decided.
    _give(st, 2, 3 * 2 * 1500 - st.players[2].cash - 1)
    assert _decisive_side(st, 3.0) is None
    _give(st, 2, 1)
    assert _decisive_side(st, 3.0) == 2
    assert _decisive_side(st, 4.0) is None
    # Deeds count at their net worth (RULES.md 12): the others' deeds can undo a lead in cash.
    st.owner[39] = 1  # Boardwalk, $400
    assert _decisive_side(st, 3.0) is None


def test_the_shortcut_weighs_teams_as_one_side():
    rules = RuleSet.build("world-teams")
    st = bot_game_positions(rules, 4, 21, [6])[6]
    _give(st, 0, 50 * sum(p.cash for p in st.players) + 100_000)  # seat 0 of team (0, 2): far ahead
    assert _decisive_side(st, 3.0) == 0  # the first side: team (0, 2); two sides in, always asked
    est = win_chances(st, 20, seed=1, round_cap=3, decisive=DECISIVE_RATIO)
    assert est.decided > 0 and est.chances[0].seats == (0, 2) and est.chances[0].p > 0.9


def test_a_playout_played_on_past_the_shortcut_keeps_its_verdict(positions):
    # bench/analysis.py checks the shortcut against the same playouts played to their end.
    pub = public_position(positions[20])
    unseen = unseen_counts(pub, None)
    decided = 0
    for index in range(12):
        key = playout_key(5, index)
        short = playout(pub, unseen, key, 100, decisive=DECISIVE_RATIO)
        full = playout(pub, unseen, key, 100)
        verdict: list = []
        assert playout(pub, unseen, key, 100, decisive=DECISIVE_RATIO, verdict=verdict) == full
        if short[1] == "decided":
            decided += 1
            assert verdict == [(short[0], short[2])] and short[2] <= full[2]
            assert sum(short[0]) == 1.0 and max(short[0]) == 1.0
        else:
            assert verdict == [] and short == full  # never triggered: the very same playout
    assert decided >= 6  # from round 20 most playouts end with one player far ahead


def test_the_shortcut_agrees_with_playouts_played_to_the_end(positions):
    # The same random numbers: the two estimates differ only in playouts whose verdict the end
    # contradicted (bench/analysis.py measures that on 200 positions of other games).
    for rnd in (8, 20):
        fast = win_chances(positions[rnd], 150, seed=11, decisive=DECISIVE_RATIO)
        full = win_chances(positions[rnd], 150, seed=11)
        assert fast.decisive == DECISIVE_RATIO and full.decisive is None
        assert fast.decided > 0 and full.decided == 0
        assert fast.turns < full.turns
        assert fast.finished + fast.decided + fast.capped + fast.tied == fast.playouts == full.playouts
        for a, b in zip(fast.chances, full.chances, strict=True):
            assert abs(a.p - b.p) <= 0.02, (rnd, a, b)


def test_compare_uses_the_shortcut_on_both_sides_alike(positions):
    st = positions[20]
    gift = st.copy()
    _give(gift, 2, 200)
    fast = compare(st, gift, 60, seed=4, decisive=DECISIVE_RATIO)
    full = compare(st, gift, 60, seed=4)
    assert fast.a.decided > 0 and fast.b.decided > 0 and full.a.decided == full.b.decided == 0
    for a, b in zip(fast.differences, full.differences, strict=True):
        assert abs(a.delta - b.delta) <= 0.04


def test_compare_reports_each_batch_as_the_first_playouts_of_the_final_one(positions):
    """The trade meter's progress (issue 30): after every batch but the last, ``on_batch`` gets
    the comparison so far, which is what a comparison of that many playouts gives (the same
    public position, the same random numbers); the final comparison is the one without it."""
    st = positions[20]
    gift = st.copy()
    _give(gift, 2, 200)
    seen = []
    cmp = compare(st, gift, 100, seed=4, round_cap=15, batch=20, on_batch=seen.append)
    assert cmp == compare(st, gift, 100, seed=4, round_cap=15, batch=20)
    assert [c.a.playouts for c in seen] == [20, 40, 60, 80]
    assert seen[1] == compare(st, gift, 40, seed=4, round_cap=15)
    assert seen[0].half_width > cmp.half_width  # the interval narrows as playouts come


def test_compare_stopped_by_its_target_reports_only_the_batches_before(positions):
    st = positions[20]
    gift = st.copy()
    _give(gift, 2, 200)
    seen = []
    cmp = compare(st, gift, 2000, seed=4, round_cap=15, target=0.1, batch=32, on_batch=seen.append)
    assert cmp.a.playouts < 2000 and cmp.half_width <= 0.1
    assert [c.a.playouts for c in seen] == list(range(32, cmp.a.playouts, 32))
    assert all(c.half_width > 0.1 for c in seen if c.a.playouts >= MIN_PLAYOUTS)


def test_an_error_in_on_batch_ends_the_comparison(positions):
    calls = []

    def stop(c):
        calls.append(c.a.playouts)
        raise LookupError("no longer wanted")

    with pytest.raises(LookupError):
        compare(positions[20], positions[8], 100, seed=4, round_cap=5, batch=10, on_batch=stop)
    assert calls == [10]
    with pytest.raises(AnalysisError, match="on_batch must be callable"):
        compare(positions[20], positions[8], 10, on_batch="yes")
