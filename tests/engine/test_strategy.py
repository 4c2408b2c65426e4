"""The strategy bot: it beats random play, and its single decisions follow its policy."""

from __future__ import annotations

import random

from games.engine import legal_actions
from games.engine.bots import RandomBot, StrategyBot
from games.engine.simulate import run
from games.engine.state import HOTEL


def test_strategy_seats_win_most_four_player_classic_games_against_random_seats():
    # Seats 0 and 2 play strategy, 1 and 3 random: half the seats, so a fair share is 0.5.
    summary = run("classic", 4, 60, 2024, ["strategy", "random"], check=False)

    share = summary.kind_wins["strategy"] / summary.games
    assert share > 0.5, summary.figures()


def test_strategy_seats_win_most_world_games_against_random_seats():
    summary = run("world-classic", 4, 30, 7, ["random", "strategy"], check=False)

    assert summary.kind_wins["strategy"] / summary.games > 0.5, summary.figures()


def _choose(bot, state, seat):
    action = bot.choose(state, seat, random.Random(0))
    # Whatever it chose is one of the legal actions, free parameters aside.
    templates = {(a["type"], a.get("square"), a.get("choice")) for a in legal_actions(state, seat)}
    assert (action["type"], action.get("square"), action.get("choice")) in templates
    return action


def test_strategy_buys_an_affordable_deed_early(classic_game):
    st = classic_game
    st.stack.append({"k": "buy", "p": 0, "sq": 6})
    assert _choose(StrategyBot(), st, 0)["type"] == "buy"


def test_strategy_declines_a_deed_that_would_eat_its_reserve(classic_game):
    st = classic_game
    st.owner[39] = 1
    st.owner[37] = 1
    st.level[37] = st.level[39] = HOTEL
    st.bank_hotels -= 2
    st.players[0].cash = 400
    st.stack.append({"k": "buy", "p": 0, "sq": 6})
    assert _choose(StrategyBot(), st, 0)["type"] == "decline"


def test_strategy_takes_the_cheaper_income_tax(classic_game):
    st = classic_game
    st.rules = st.rules.with_options(income_tax_choice=True)
    st.stack.append({"k": "income_tax", "p": 0})
    st.players[0].cash = 900  # 10% of 900 = 90 < 200
    assert _choose(StrategyBot(), st, 0)["choice"] == "percent"
    st.players[0].cash = 5000
    assert _choose(StrategyBot(), st, 0)["choice"] == "flat"


def test_strategy_pays_to_leave_jail_early_and_stays_late(classic_game):
    st = classic_game
    st.players[0].in_jail = True
    st.players[0].pos = 10
    assert _choose(StrategyBot(), st, 0)["type"] == "pay_fine"
    # Late: every deed owned and an opponent has hotels on the dark blues.
    for sq in st.board.deeds:
        st.owner[sq] = 2
    st.level[37] = st.level[39] = HOTEL
    st.bank_hotels -= 2
    assert _choose(StrategyBot(), st, 0)["type"] == "roll"


def test_strategy_builds_evenly_on_a_whole_group(classic_game):
    st = classic_game
    for sq in (16, 18, 19):
        st.owner[sq] = 0
    st.level[16] = 1
    st.bank_houses -= 1
    # Classic lets it build any time: it weighs building after its move, not before the roll.
    assert _choose(StrategyBot(), st, 0)["type"] == "roll"
    st.phase = "end_turn"
    # Evenly (16 already has a house), and the dearer of the bare deeds first.
    assert _choose(StrategyBot(), st, 0) == {"type": "build", "player": 0, "square": 19}


def test_strategy_raises_debt_money_by_mortgaging_idle_deeds_before_selling_houses(classic_game):
    st = classic_game
    for sq in (1, 3):
        st.owner[sq] = 0
        st.level[sq] = 2
    st.bank_houses -= 4
    st.owner[12] = 0  # a utility: earns little
    st.players[0].cash = 10
    st.stack.append(
        {"k": "debt", "p": 0, "to": 1, "amt": 60, "why": "rent", "pot": False, "cut": 0}
    )
    assert _choose(StrategyBot(), st, 0) == {"type": "mortgage", "player": 0, "square": 12}


def test_strategy_destroys_the_most_valuable_building():
    from games.engine import RuleSet, new_game

    st, _ = new_game(
        RuleSet.build("world-duel"), ["a", "b", "c"], seed=3, roll_for_first=False, events=False
    )
    for sq in st.board.deeds:
        st.owner[sq] = 1 if sq in (1, 3, 37, 39) else 0
    st.level[1] = st.level[3] = 1
    st.level[37] = st.level[39] = 2
    st.stack.append({"k": "destroy", "p": 0})
    assert _choose(StrategyBot(), st, 0)["square"] == 39


def test_strategy_takes_the_bus_to_the_better_square():
    from games.engine import RuleSet, new_game

    st, _ = new_game(
        RuleSet.build("world-quick"), ["a", "b"], seed=3, roll_for_first=False, events=False
    )
    for sq in (21, 23, 24, 12, 28):
        st.owner[sq] = 1
    for sq in (21, 23, 24):
        st.level[sq] = HOTEL
    st.players[0].pos = 21
    # first: 23, an Airlines corporation; second: 26, for sale; sum: 28, an industrial company.
    st.stack.append({"k": "bus", "p": 0, "dice": [2, 5]})
    assert _choose(StrategyBot(), st, 0)["choice"] == "second"


def test_random_bot_never_surrenders_while_it_can_do_something_else(classic_game):
    st = classic_game
    bot = RandomBot()
    rng = random.Random(5)
    for _ in range(200):
        assert bot.choose(st, 0, rng)["type"] != "surrender"


def test_strategy_sells_a_weak_house_when_the_bank_has_none_left_and_it_is_rich(classic_game):
    # Every house stands at three per deed and none is left: without making room, nobody can
    # ever build again and a game between rich players would go on for ever.
    st = classic_game
    for sq in (1, 3, 16, 18, 19):
        st.owner[sq] = 0
    st.level[1] = st.level[3] = 2
    st.level[16] = st.level[18] = st.level[19] = 3
    st.bank_houses = 0
    st.players[0].cash = 100_000
    st.phase = "end_turn"  # the bot weighs building after its move (classic)

    assert _choose(StrategyBot(), st, 0) == {"type": "sell", "player": 0, "square": 3}


def test_the_shared_tables_follow_the_board_through_whole_games():
    # The strategy bot's rents table is updated a group at a time and its ownership view is
    # shared by every seat: after every action both must equal what the rules say afresh.
    from games.engine.bots import StrategyBot, _owner_rents, make_bot, ownership
    from games.engine.rules import rent_of
    from games.engine.ruleset import PRESET_NAMES, RuleSet
    from games.engine.simulate import play_game

    fresh = StrategyBot()
    last = {}

    def check(st, action):
        # The engine notes in its log every square whose owner, buildings or mortgage changed.
        board = (list(st.owner), list(st.level), list(st.mortgaged))
        if last.get("log") is st.board_log:
            noted = set(st.board_log[last["seen"] :])
            for before, now in zip(last["board"], board, strict=True):
                assert {sq for sq in range(40) if before[sq] != now[sq]} <= noted, action
        last.update(log=st.board_log, seen=len(st.board_log), board=board)
        best = _owner_rents(st)
        rents_of = []
        for o in range(len(st.players)):
            rents = [
                rent_of(st, sq, 7)
                for sq in st.board.deeds
                if st.owner[sq] == o and not st.mortgaged[sq]
            ]
            rents_of.append(max(rents, default=0))
            assert best[o] == rents_of[o], (o, action)
        # The worst rent each seat may face: the highest of its opponents' (not teammates').
        for p in range(len(st.players)):
            worst = max(
                (r for o, r in enumerate(rents_of) if o != p and not st.teammates(p, o)), default=0
            )
            assert fresh.max_rent_against(st, p) == worst, (p, action)
        view = ownership(st)
        for o in range(len(st.players)):
            assert view.own_of(o) == [sq for sq in st.board.deeds if st.owner[sq] == o]
            for g in view.full[o]:
                assert all(st.owner[x] == o for x in st.board.groups[g])

    for seed, preset in enumerate(PRESET_NAMES, 11):
        lo, hi = RuleSet.build(preset).seats
        kinds = ("strategy", "random")
        bots = [make_bot(kinds[s % 2]) for s in range(min(max(4, lo), hi))]
        play_game(RuleSet.build(preset), bots, seed, on_action=check)


def test_the_rents_table_sees_a_board_written_without_the_engine(classic_game):
    # The rents table catches up from the engine's log of changed squares (GameState.board_log);
    # lists written some other way (a test, a tool) are found by comparing the board.
    from games.engine.bots import StrategyBot

    st = classic_game
    bot = StrategyBot()
    assert bot.max_rent_against(st, 0) == 0
    st.owner[39] = 1  # Boardwalk, written directly: nothing in the log
    assert bot.max_rent_against(st, 0) == 50
    st.owner[37] = 1
    st.level[37] = st.level[39] = 3
    st.board_log.append(37)  # a log that accounts for part of the change only
    assert bot.max_rent_against(st, 0) == 1400


def test_the_lift_cost_tables_match_the_rules():
    # The strategy bot reads what lifting a mortgage costs from a table per board and rule.
    from games.engine.bots import board_info
    from games.engine.rules import new_game, unmortgage_cost
    from games.engine.ruleset import PRESETS, RuleSet

    for preset in PRESETS:
        for rule in ("mortgage_plus_10", "sixty_percent"):
            rules = RuleSet.build(preset, {"unmortgage": rule})
            names = ["a", "b", "c", "d", "e", "f"][: rules.seats[0]]
            st, _ = new_game(rules, names, seed=1)
            costs = board_info(st.board.name).lift_costs(st)
            assert [costs[sq] for sq in st.board.deeds] == [
                unmortgage_cost(st, sq) for sq in st.board.deeds
            ]


def test_strategy_games_in_threads_play_as_they_do_one_after_another():
    # The bots share their views of the board between seats, and a game's views are replaced,
    # never changed, when another game is asked about: games played by bots in several threads
    # at once (a threaded server) must go exactly as they do alone.
    import sys
    import threading

    from games.engine.bots import make_bot
    from games.engine.ruleset import RuleSet
    from games.engine.simulate import play_game

    jobs = [("classic", 21), ("world-classic", 22), ("classic", 23), ("world-teams", 24)]

    def play(preset, seed):
        bots = [make_bot("strategy") for _ in range(4)]
        return play_game(RuleSet.build(preset), bots, seed, keep_log=True).log

    alone = [play(preset, seed) for preset, seed in jobs]
    together: list = [None] * len(jobs)

    def worker(i):
        together[i] = play(*jobs[i])

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (switch threads as often as the interpreter allows)
    try:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert together == alone


def test_strategy_games_played_action_by_action_in_turn_go_as_alone():
    # The same in one thread, exactly: two games advanced an action each in turn (the bots'
    # shared views switch game at every step) go as each goes alone.
    from games.engine.bots import make_bot
    from games.engine.rules import apply, new_game, waiting_on
    from games.engine.ruleset import RuleSet
    from games.engine.simulate import default_names

    def game(preset, seed):
        state, _ = new_game(RuleSet.build(preset), default_names(4), seed=seed, events=False)
        bots = [make_bot("strategy") for _ in range(4)]
        rng = random.Random(seed)
        log = []
        while not state.over:
            who = waiting_on(state)
            seat = who[0] if len(who) == 1 else who[rng.randrange(len(who))]
            action = bots[seat].choose(state, seat, rng)
            apply(state, action, None, False)
            log.append(action)
            yield log

    jobs = [("classic", 21), ("world-classic", 22)]
    alone = [list(game(*job))[-1] for job in jobs]
    steps = [game(*job) for job in jobs]
    logs: list = [None] * len(jobs)
    live = set(range(len(jobs)))
    while live:
        for i in sorted(live):
            try:
                logs[i] = next(steps[i])
            except StopIteration:
                live.discard(i)
    assert logs == alone


def test_the_bots_views_are_kept_on_each_games_state():
    # The rents table and the ownership view the strategy bot shares between seats belong to one
    # game's state object, not to the module (where games in threads once shared them).
    from games.engine import bots
    from games.engine.rules import new_game
    from games.engine.ruleset import RuleSet

    games = [new_game(RuleSet.build("classic"), ["a", "b", "c"], seed=s, events=False)[0] for s in (1, 2)]
    for st in games:
        st.owner[37] = 1
        st.owner[39] = 2
        StrategyBot().choose(st, st.current, random.Random(1))  # its own turn: asks the view
        assert StrategyBot().max_rent_against(st, 0) == 50
    a, b = games
    assert a.views is not b.views
    assert a.views.ownership.players is a.players and b.views.rents.players is b.players
    assert not hasattr(bots, "_ownership") and not hasattr(bots, "_rent_table")
    assert a.copy().views is None  # not game data: a copy starts without
