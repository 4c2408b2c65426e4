"""How often a correspondence player must visit a game, and how fast it moves, without and with
the correspondence aids of RULES.md 15 (maximum bids and standing orders).

Plays correspondence games of two humans and two strategy bots through the services
(games/services/) with a simulated clock, Celery tasks inline and e-mail in memory. A human
answers each wait some hours after it begins (``--gap``, default 3 h: well inside the 24 h
deadline, so nothing times out) and makes the decisions of one visit 20 s apart; a visit lasts
while the game keeps waiting on them in the same turn. Their choices are the strategy bot's (a simple human
policy), submitted as a person's moves. Prints, per preset and mode, the humans' visits per
round (counting the rounds each human was still in the game) and the simulated days per
round:

- without aids: every decision by hand, each raise of every auction included;
- with aids ("today"): at the start each human sets standing orders (end my turn after my roll,
  income tax flat, casino always skip, in every auction a maximum of ``--percent`` % of the
  printed price), and when an auction waits on them by hand anyway (their order passed, say, or
  a building auction) they leave a maximum, the strategy bot's bid limit, instead of raising;
- with all aids ("all"): the same and the two standing orders of issue 28, roll when my turn
  begins and buy a deed I land on when it leaves me at least ``--keep`` in cash.

Target (issue 10): with the aids, at most one visit per human per round on average; (issue 28)
with all aids at most 0.6, and days per round halved against today's aids.
Also printed: what the game waited on when each visit began. Trade offers from bots still call
for a visit unless ``--reject-bot-trades`` adds that standing order too.
Clocks (issue 28, RULES.md 16), printed after these rows: the same table with all aids, two
humans whose answer times follow a realistic spread (``answer_delay``: 70% within 8 hours, 20%
within 2 days, 10% after 2 to 4 days, so within 2 days 90% of the time), under today's fixed
clock (24 h a decision, no automatic vacation) against a time bank of 3 days with a 4 h increment,
playing hours 08:00-22:00 and automatic vacation (7 days): timeouts per human per 100 rounds,
forfeits (third missed turn) per game, automatic vacation days per game, visits per human per
round and days per round, over ``--clock-games`` games each (the issue's target: 100; forfeits 0
with the bank, days per round at most 10% more). The deadline sweep's service plays every
timeout that falls before a human comes back.
Run: ``.venv/bin/python bench/pace.py [--games 4] [--rounds 40] [--gap 3] [--percent 110]
[--reject-bot-trades] [--clock-games 20]``.
Uses a throwaway SQLite database in a temporary folder.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from datetime import timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from correspondence import Clock, setup, start, table_of_four  # noqa: E402 (bench/, beside this script)

DECISION_GAP = timedelta(seconds=20)  # decisions within one visit
MODES = ("no", "today", "all")  # the aids: none, those of issue 10, those and issue 28's two orders
VISIT_KINDS: dict[str, Counter] = {mode: Counter() for mode in MODES}  # what each visit began with
PRESETS = (("classic", {"income_tax_choice": True}), ("world-classic", {}))


def play(index: int, preset: str, options: dict, mode: str, args, clock: Clock) -> list[dict]:
    from games import services
    from games.aids import services as aid_services
    from games.aids import standing
    from games.engine import GameState, make_bot, waiting_on
    from games.models import Game, GameAction

    aids = mode != "no"
    tag = f"{preset}{index}{mode}"
    table, humans = table_of_four(tag, preset=preset, options=options)
    # The same seed for a game with and without aids: the same deal, the same first dice.
    game, user_at = start(table, humans, seed=5000 + index)
    began = clock.now
    if aids:
        state = GameState.from_json(game.state)
        for user in humans:
            aid_services.standing_orders_set(game=game, user=user, orders=standing.Orders(
                end_turn=True, income_tax="flat", casino_skip=state.rules.casino, auction_percent=args.percent,
                reject_bot_trades=args.reject_bot_trades, roll=mode == "all",
                buy_keep=args.keep if mode == "all" else None))
        game.refresh_from_db()
    bot = make_bot("strategy")
    visits: Counter[int] = Counter()
    kinds = VISIT_KINDS[mode]
    decisions: Counter[int] = Counter()
    out_at: dict[int, int] = {}  # the round in which a human went bankrupt
    staying = None  # the human whose visit goes on (the game still waits on them after their move)
    while game.status == Game.Status.ACTIVE and game.round <= args.rounds:
        state = GameState.from_json(game.state)
        seat = next(p for p in waiting_on(state) if p in user_at)
        if seat == staying:
            clock.now += DECISION_GAP
        else:
            clock.now += timedelta(hours=args.gap)
            visits[seat] += 1
            kinds[state.pending()] += 1
        action = bot.choose(state, seat, random.Random(f"{index}:{state.seq}"))
        action.pop("player", None)
        top = state.stack[-1] if state.stack else None
        if aids and top is not None and top["k"] == "auction" and action["type"] == "bid":
            # A person with the aids does not come back for every raise: they leave the most they
            # would pay (what the strategy bot would still bid up to, at least this bid).
            limit = max(action["amount"], _bot_limit(bot, state, seat, top))
            action = {"type": "max_bid", "amount": min(limit, state.players[seat].cash)}
        sub = services.game_submit_action(game=game, user=user_at[seat], action=action,
                                          expected_version=game.version)
        decisions[seat] += 1
        game = sub.game
        # The visit goes on while the game waits on them in the same turn; a turn of theirs that
        # comes round again (the bots played theirs meanwhile) is a new visit, hours later.
        same_turn = (game.round, game.current_seat) == (state.round, state.current)
        staying = seat if seat in game.waiting_seats and same_turn else None
        for p in user_at:
            if p not in out_at and game.state["players"][p]["bankrupt"]:
                out_at[p] = game.round
    # Rounds completed (the last one, cut short by --rounds, does not count); a human counts the
    # rounds they were still in the game.
    rounds = max(1, min(game.round - 1, args.rounds) if game.status == Game.Status.ACTIVE else game.round)
    standing_actions = GameAction.objects.filter(game=game, source="standing").count()
    return [{"rounds": out_at.get(p, rounds), "visits": visits[p], "decisions": decisions[p],
             "days": (clock.now - began) / timedelta(days=1) / rounds, "standing": standing_actions / 2,
             "over": game.status != Game.Status.ACTIVE} for p in user_at]


CLOCKS = (
    ("fixed 24 h", {"turn_hours": 24, "vacation_days": 7}, False),
    ("bank 3d+4h, 08-22", {"turn_hours": 24, "vacation_days": 7, "time_bank_hours": 72,
                           "time_bank_increment_hours": 4, "playing_hours": "08:00-22:00"}, True),
)


def answer_delay(rng: random.Random) -> timedelta:
    """How long a person takes to come back to a game that waits on them: most within hours, a
    few after days (within 2 days 90% of the time)."""
    roll = rng.random()
    if roll < 0.7:
        return timedelta(hours=rng.uniform(0.5, 8))
    if roll < 0.9:
        return timedelta(hours=rng.uniform(8, 48))
    return timedelta(hours=rng.uniform(48, 96))


def play_clock(index: int, table_options: dict, auto: bool, args, clock: Clock) -> dict:
    """One game with all aids on a table of ``table_options``; humans answer after
    ``answer_delay``, and every deadline that falls before they do is swept as the site sweeps it
    (services.game_timeout: a timeout, or with ``auto`` an automatic vacation day)."""
    from accounts.models import User
    from games import services
    from games.aids import services as aid_services
    from games.aids import standing
    from games.engine import GameState, make_bot, waiting_on
    from games.models import Game, GameAction

    tag = f"clock{index}{'a' if auto else 'f'}"
    humans = [User.objects.create_user(username=f"{tag}_{i}", email=f"{tag}_{i}@example.com", password=None)
              for i in range(2)]
    table = services.table_create(host=humans[0], name=f"Bench {tag}", preset="classic", seat_count=4,
                                  **table_options)
    services.table_join(table=table, user=humans[1])
    for position in (2, 3):
        services.table_set_seat(table=table, by=humans[0], position=position, bot="strategy")
    game, user_at = start(table, humans, seed=7000 + index)
    began = clock.now
    state = GameState.from_json(game.state)
    for user in humans:
        aid_services.standing_orders_set(game=game, user=user, orders=standing.Orders(
            end_turn=True, income_tax="flat", casino_skip=state.rules.casino, auction_percent=args.percent,
            roll=True, buy_keep=args.keep))
        aid_services.vacation_auto_set(game=game, user=user, on=auto)
    game.refresh_from_db()
    bot = make_bot("strategy")
    rng = random.Random(f"clock:{index}")  # the same people in both clocks' game of this index
    visit_at: dict[int, object] = {}
    visits: Counter[int] = Counter()
    out_at: dict[int, int] = {}
    while game.status == Game.Status.ACTIVE and game.round <= args.rounds:
        state = GameState.from_json(game.state)
        waited = [p for p in waiting_on(state) if p in user_at]
        if not waited:
            break  # (the bots play within the move: only a person can be waited on here)
        for p in list(visit_at):
            if p not in waited:
                del visit_at[p]
        for p in waited:
            if p not in visit_at:
                visit_at[p] = clock.now + answer_delay(rng)
                visits[p] += 1
        seat = min(waited, key=lambda p: visit_at[p])
        if game.deadline is not None and game.deadline <= visit_at[seat]:
            clock.now = max(clock.now, game.deadline)
            services.game_timeout(game_id=game.pk, now=clock.now)
            game.refresh_from_db()
        else:
            clock.now = max(clock.now, visit_at[seat])
            action = bot.choose(state, seat, random.Random(f"{index}:{state.seq}"))
            action.pop("player", None)
            top = state.stack[-1] if state.stack else None
            if top is not None and top["k"] == "auction" and action["type"] == "bid":
                limit = max(action["amount"], _bot_limit(bot, state, seat, top))
                action = {"type": "max_bid", "amount": min(limit, state.players[seat].cash)}
            game = services.game_submit_action(game=game, user=user_at[seat], action=action,
                                               expected_version=game.version).game
            same_turn = (game.round, game.current_seat) == (state.round, state.current)
            if seat in game.waiting_seats and same_turn:
                visit_at[seat] = clock.now + DECISION_GAP  # (the visit goes on)
            else:
                del visit_at[seat]
        for p in user_at:
            if p not in out_at and game.state["players"][p]["bankrupt"]:
                out_at[p] = game.round
    rounds = max(1, min(game.round - 1, args.rounds) if game.status == Game.Status.ACTIVE else game.round)
    rows = GameAction.objects.filter(game=game, seat__in=list(user_at))
    forfeits = sum(1 for events in rows.values_list("events", flat=True) for e in events
                   if e.get("e") == "missed" and e.get("count", 0) >= state.rules.missed_turns_limit)
    return {"rounds": sum(out_at.get(p, rounds) for p in user_at), "timeouts": rows.filter(source="timeout").count(),
            "forfeits": forfeits, "auto_days": rows.filter(action__type="note", action__choice="auto_vacation").count(),
            "visits": sum(visits.values()), "days": (clock.now - began) / timedelta(days=1) / rounds}


def _bot_limit(bot, state, seat: int, frame: dict) -> int:
    """The most the strategy bot would bid for this lot (its own limit: a deed's worth to it,
    or half as much again as a building costs, within the cash it may spend)."""
    from games.engine.bots.tables import ownership

    view = ownership(state)
    spare = state.players[seat].cash - bot.reserve(state, seat, view) // 2
    sq = frame["sq"]
    worth = (state.board[sq].build_cost * 3 // 2 if frame["what"] == "building"
             else int(bot.deed_value(state, seat, sq, view)))
    return max(0, min(spare, worth))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per preset and mode (default 4)")
    parser.add_argument("--rounds", type=int, default=40, help="rounds played at most per game (default 40)")
    parser.add_argument("--gap", type=float, default=3.0, help="hours before a human answers a wait (default 3)")
    parser.add_argument("--reject-bot-trades", action="store_true",
                        help="with the aids, the humans also reject every trade offer from a bot")
    parser.add_argument("--percent", type=int, default=110,
                        help="the standing auction maximum, %% of the printed price (default 110)")
    parser.add_argument("--keep", type=int, default=200,
                        help="with all aids, buy a deed when it leaves at least this cash (default 200)")
    parser.add_argument("--clock-games", type=int, default=20,
                        help="games per clock in the clock rows (default 20; the issue's target: 100)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        clock = Clock()
        with mock.patch("django.utils.timezone.now", clock):
            print(f"{args.games} correspondence games per preset and mode, 2 humans + 2 strategy bots, "
                  f"at most {args.rounds} rounds, humans answer {args.gap:g} h after a wait begins; "
                  f"aids: maximum bids, standing orders (auctions {args.percent}%"
                  f"{', reject bot trades' if args.reject_bot_trades else ''}); "
                  f"all: also roll when my turn begins, buy when it leaves at least {args.keep}")
            print(f"{'preset':<14} {'aids':<5} {'rounds':>7} {'visits/human/round':>19} "
                  f"{'decisions/human/round':>22} {'days/round':>11} {'standing actions/human':>23}")
            for preset, options in PRESETS:
                for mode in MODES:
                    rows = []
                    for i in range(args.games):
                        rows += play(i, preset, options, mode, args, clock)
                    if not rows:
                        continue  # (--games 0: the clock rows alone)
                    rounds = sum(r["rounds"] for r in rows)
                    print(f"{preset:<14} {mode:<5} {rounds / len(rows):>7.1f} "  # (rounds in play)
                          f"{sum(r['visits'] for r in rows) / rounds:>19.2f} "
                          f"{sum(r['decisions'] for r in rows) / rounds:>22.2f} "
                          f"{sum(r['days'] for r in rows) / len(rows):>11.2f} "
                          f"{sum(r['standing'] for r in rows) / len(rows):>23.1f}")
            for mode in MODES:
                kinds = ", ".join(f"{k} {n}" for k, n in VISIT_KINDS[mode].most_common())
                print(f"visits began with ({mode} aids): {kinds}")
            print(f"clocks (issue 28): {args.clock_games} classic games per clock, all aids, humans answer "
                  f"within 8 h 70%, within 2 days 90%, after 2-4 days 10% of the time")
            print(f"{'clock':<18} {'timeouts/human/100 rounds':>26} {'forfeits/game':>14} "
                  f"{'auto days/game':>15} {'visits/human/round':>19} {'days/round':>11}")
            for name, options, auto in CLOCKS:
                rows = [play_clock(i, options, auto, args, clock) for i in range(args.clock_games)]
                rounds = sum(r["rounds"] for r in rows)
                print(f"{name:<18} {100 * sum(r['timeouts'] for r in rows) / rounds:>26.2f} "
                      f"{sum(r['forfeits'] for r in rows) / len(rows):>14.2f} "
                      f"{sum(r['auto_days'] for r in rows) / len(rows):>15.2f} "
                      f"{sum(r['visits'] for r in rows) / rounds:>19.2f} "
                      f"{sum(r['days'] for r in rows) / len(rows):>11.2f}")


if __name__ == "__main__":
    main()
