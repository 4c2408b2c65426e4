"""Standing orders (RULES.md 15): each order answers the decision it names, with the answer it
names, and nothing else; the site plays them as the player's own actions, logged as standing
orders, and the game replays exactly from its record."""

from __future__ import annotations

import json
import random

import pytest

from games import services
from games.aids import services as aids
from games.aids.standing import Orders, order_action
from games.engine import GameState, RuleSet, apply, new_game, set_clock, waiting_on
from games.engine.bots import make_bot
from games.models import GameAction, StandingOrder
from games.records import game_record, start_of
from tests.games.play_helpers import play_until, start_game, users_by_seat

ALL = Orders(end_turn=True, jail="pay_fine", income_tax="flat", casino_skip=True, reject_bot_trades=True,
             auction_percent=50)


def reach(preset: str, done, *, options: dict | None = None, seeds=range(1, 40), limit: int = 3000) -> GameState:
    """A position of a bots' game (strategy bots) where ``done(state)`` holds."""
    rules = RuleSet.build(preset, options or {})
    for seed in seeds:
        state, _ = new_game(rules, ["a", "b", "c"], seed)
        bot = make_bot("strategy")
        rng = random.Random(seed)
        for _ in range(limit):
            if state.over:
                break
            if done(state):
                return state
            p = waiting_on(state)[0]
            apply(state, bot.choose(state, p, rng))
    raise AssertionError("no such position found")


def waited(state: GameState) -> int:
    return waiting_on(state)[0]


# --- each order, when named and never otherwise ----------------------------------------------

def test_end_turn_order_ends_the_turn_once_the_roll_is_resolved():
    st = reach("classic", lambda s: not s.stack and s.phase == "end_turn")
    p = st.current
    assert order_action(st, p, Orders(end_turn=True)) == {"type": "end_turn", "player": p}
    assert order_action(st, p, Orders(casino_skip=True, jail="roll", income_tax="flat")) is None
    assert order_action(st, (p + 1) % 3, Orders(end_turn=True)) is None


def test_end_turn_order_never_rolls_for_the_player():
    st = reach("classic", lambda s: not s.stack and s.phase == "roll" and not s.players[s.current].in_jail)
    assert order_action(st, st.current, Orders(end_turn=True, auction_percent=100)) is None


@pytest.mark.parametrize("choice", ["pay_fine", "roll"])
def test_jail_order_at_the_start_of_the_turn(choice):
    st = reach("classic", lambda s: not s.stack and s.phase == "roll" and s.players[s.current].in_jail)
    p = st.current
    assert order_action(st, p, Orders(jail=choice)) == {"type": choice, "player": p}


def test_jail_order_to_use_a_card_waits_without_a_card_and_never_applies_outside_jail():
    st = reach("classic", lambda s: not s.stack and s.phase == "roll" and s.players[s.current].in_jail
               and not s.players[s.current].jail_cards)
    assert order_action(st, st.current, Orders(jail="use_card")) is None
    free = reach("classic", lambda s: not s.stack and s.phase == "roll" and not s.players[s.current].in_jail)
    for choice in ("pay_fine", "use_card", "roll"):
        assert order_action(free, free.current, Orders(jail=choice)) is None


@pytest.mark.parametrize("choice", ["flat", "percent"])
def test_income_tax_order_pays_as_named(choice):
    st = reach("classic", lambda s: s.pending() == "income_tax", options={"income_tax_choice": True})
    p = waited(st)
    assert order_action(st, p, Orders(income_tax=choice)) == {"type": "income_tax", "player": p, "choice": choice}
    assert order_action(st, p, Orders(end_turn=True, casino_skip=True, auction_percent=0)) is None


def test_casino_order_skips_and_only_the_casino():
    st = reach("world-classic", lambda s: s.pending() == "casino")
    p = waited(st)
    assert order_action(st, p, Orders(casino_skip=True)) == {"type": "casino_skip", "player": p}
    assert order_action(st, p, Orders(end_turn=True, income_tax="flat", auction_percent=0)) is None


def test_trade_order_rejects_offers_from_bots_only():
    st = reach("classic", lambda s: s.pending() == "trade_response", seeds=range(1, 200))
    p = waited(st)
    trade = st.stack[-1]["trade"]
    proposer = st.trades[str(trade)]["from"]
    assert order_action(st, p, Orders(reject_bot_trades=True), bot_seats=frozenset({proposer})) == \
        {"type": "reject", "player": p, "trade": trade}
    # The same offer from a person is theirs to answer.
    assert order_action(st, p, Orders(reject_bot_trades=True), bot_seats=frozenset()) is None


def test_auction_order_leaves_its_percentage_of_the_printed_price():
    st = reach("classic", lambda s: s.pending() == "auction" and s.stack[-1]["leader"] == -1)
    p = waited(st)
    frame = st.stack[-1]
    price = st.board.price[frame["sq"]]
    assert order_action(st, p, Orders(auction_percent=80)) == {"type": "max_bid", "player": p,
                                                               "amount": price * 80 // 100}
    assert order_action(st, p, Orders(auction_percent=0)) == {"type": "pass", "player": p}
    assert order_action(st, p, Orders(end_turn=True, casino_skip=True, income_tax="flat")) is None


def test_auction_order_passes_below_the_minimum_and_is_done_once_answered():
    st = reach("classic", lambda s: s.pending() == "auction" and s.stack[-1]["leader"] != -1
               and s.stack[-1]["high"] > 20)
    p = waited(st)
    frame = st.stack[-1]
    price = st.board.price[frame["sq"]]
    low = max(0, (frame["high"] * 100) // price - 1)  # a percentage below the bid to beat
    assert order_action(st, p, Orders(auction_percent=low)) == {"type": "pass", "player": p}
    # Once the player's maximum stands, the engine answers for them; the order adds nothing.
    frame.setdefault("max", []).append([p, frame["high"] + 50])
    assert order_action(st, p, Orders(auction_percent=300)) is None


def test_roll_order_rolls_when_the_turn_begins_and_again_after_doubles():
    st = reach("classic", lambda s: not s.stack and s.phase == "roll" and not s.players[s.current].in_jail
               and not s.turn["rolled"])
    p = st.current
    assert order_action(st, p, Orders(roll=True)) == {"type": "roll", "player": p}
    assert order_action(st, (p + 1) % 3, Orders(roll=True)) is None
    assert order_action(st, p, ALL) is None  # no other order rolls
    again = reach("classic", lambda s: not s.stack and s.phase == "roll" and s.turn["doubles"] > 0
                  and not s.players[s.current].in_jail)
    assert order_action(again, again.current, Orders(roll=True)) == {"type": "roll", "player": again.current}


def test_roll_order_never_decides_in_jail():
    st = reach("classic", lambda s: not s.stack and s.phase == "roll" and s.players[s.current].in_jail)
    p = st.current
    assert order_action(st, p, Orders(roll=True)) is None
    # The jail order decides there, as before.
    assert order_action(st, p, Orders(roll=True, jail="pay_fine")) == {"type": "pay_fine", "player": p}


def test_buy_order_buys_when_the_cash_left_is_at_least_its_amount_else_waits():
    st = reach("classic", lambda s: s.pending() == "buy")
    p = waited(st)
    price = st.board.price[st.stack[-1]["sq"]]
    left = st.players[p].cash - price
    assert left >= 0
    assert order_action(st, p, Orders(buy_keep=left)) == {"type": "buy", "player": p}
    assert order_action(st, p, Orders(buy_keep=0)) == {"type": "buy", "player": p}
    assert order_action(st, p, Orders(buy_keep=left + 1)) is None
    assert order_action(st, p, Orders(end_turn=True, roll=True, auction_percent=100)) is None
    # A deed the player cannot pay at all: the order never buys (it waits for them).
    st.players[p].cash = price - 1
    assert order_action(st, p, Orders(buy_keep=0)) is None


def test_no_order_ever_answers_a_decision_it_does_not_name():
    """Through whole games on both boards: every answer an order gives is the one it names, for
    the decision it names."""
    named = {"end_turn": "end_turn", "roll": "pay_fine", "income_tax": "income_tax", "casino": "casino_skip",
             "trade_response": "reject", "auction": ("max_bid", "pass")}
    seen = set()
    for preset in ("classic", "world-classic"):
        rules = RuleSet.build(preset, {"income_tax_choice": True} if preset == "classic" else {})
        state, _ = new_game(rules, ["a", "b", "c"], 7)
        bot = make_bot("strategy")
        rng = random.Random(7)
        for _ in range(4000):
            if state.over:
                break
            for p in waiting_on(state):
                action = order_action(state, p, ALL, bot_seats=frozenset({0, 1, 2}))
                if action is None:
                    continue
                kind = state.pending()
                assert action["type"] in named[kind] if isinstance(named[kind], tuple) \
                    else action["type"] == named[kind], (kind, action)
                if kind == "roll":
                    assert state.players[p].in_jail
                seen.add(kind)
            apply(state, bot.choose(state, waiting_on(state)[0], rng))
    assert seen >= {"end_turn", "roll", "income_tax", "casino", "auction"}


# --- the site: stored, played, logged, cancelled, refused ------------------------------------

def stored(game) -> GameState:
    game.refresh_from_db()
    return GameState.from_json(game.state)


@pytest.mark.django_db
def test_orders_are_played_as_the_players_own_actions_logged_as_standing(alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    users = users_by_seat(game)
    seat = game.current_seat
    services_user = users[seat]
    aids.standing_orders_set(game=game, user=services_user, orders=Orders(end_turn=True))
    game.refresh_from_db()
    services.game_submit_action(game=game, user=services_user, action={"type": "roll"}, expected_version=game.version)
    game = play_until(game, lambda s: GameAction.objects.filter(game=game, source="standing").exists())
    rows = GameAction.objects.filter(game=game, source="standing")
    assert rows.exists()
    row = rows.first()
    assert (row.action["type"], row.seat, row.user_id) == ("end_turn", seat, services_user.pk)


@pytest.mark.django_db
def test_orders_set_while_the_game_waits_apply_at_once(alice, bob):
    game = play_until(start_game(alice, bob, pace="correspondence"),
                      lambda s: not s.stack and s.phase == "end_turn")
    seat = game.current_seat
    users = users_by_seat(game)
    version = game.version

    sub = aids.standing_orders_set(game=game, user=users[seat], orders=Orders(end_turn=True))

    assert sub.actions >= 1
    st = stored(game)
    assert game.version == version + 1
    assert st.current != seat or st.phase == "roll"
    assert GameAction.objects.filter(game=game, source="standing", action__type="end_turn").count() == 1


@pytest.mark.django_db
def test_cancelled_orders_play_nothing(alice, bob):
    game = play_until(start_game(alice, bob, pace="correspondence"),
                      lambda s: not s.stack and s.phase == "roll")
    seat = game.current_seat
    user = users_by_seat(game)[seat]
    aids.standing_orders_set(game=game, user=user, orders=Orders(end_turn=True, auction_percent=50))
    aids.standing_orders_cancel(game=game, user=user)
    assert not StandingOrder.objects.filter(game=game).exists()
    game = play_until(game, lambda s: not s.stack and s.phase == "end_turn" and s.current == seat)

    # The game waits for the player's own end of turn: no order answers it.
    assert game.pending == "end_turn" and game.waiting_seats == [seat]
    assert not GameAction.objects.filter(game=game, source="standing").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("orders", [
    Orders(auction_percent=-1), Orders(auction_percent=301), Orders(jail="bribe"), Orders(income_tax="half"),
    Orders(income_tax="percent"),  # classic without the 10% option
    Orders(casino_skip=True),  # classic has no casino
    Orders(buy_keep=-1), Orders(buy_keep=100_001), Orders(buy_keep="200"),  # type: ignore[arg-type]
])
def test_forged_orders_are_refused_and_change_nothing(alice, bob, orders):
    game = start_game(alice, bob, pace="correspondence")
    user = users_by_seat(game)[0]
    aids.standing_orders_set(game=game, user=user, orders=Orders(end_turn=True))
    game.refresh_from_db()
    before = (game.version, game.state)

    with pytest.raises(services.GameError):
        aids.standing_orders_set(game=game, user=user, orders=orders)

    game.refresh_from_db()
    assert (game.version, game.state) == before
    row = StandingOrder.objects.get(game=game)
    assert (row.end_turn, row.auction_percent, row.jail, row.casino_skip) == (True, None, "", False)


@pytest.mark.django_db
def test_orders_of_someone_without_a_seat_are_refused(alice, bob, charlie):
    game = start_game(alice, bob, pace="correspondence")
    with pytest.raises(services.NotAllowed):
        aids.standing_orders_set(game=game, user=charlie, orders=Orders(end_turn=True))
    assert not StandingOrder.objects.exists()


@pytest.mark.django_db
def test_a_game_with_standing_orders_replays_exactly_from_its_record(alice, bob, charlie):
    game = start_game(alice, bob, charlie, preset="world-classic", pace="correspondence")
    users = users_by_seat(game)
    for seat, user in users.items():
        aids.standing_orders_set(game=game, user=user, orders=Orders(
            end_turn=True, casino_skip=True, income_tax="flat", auction_percent=110 + 20 * seat))
    # Someone declines a deed: its auction is played by the bidders' orders.
    game = play_until(game, lambda s: s.pending() == "buy")
    services.game_submit_action(game=game, user=users[game.waiting_seats[0]], action={"type": "decline"},
                                expected_version=game.version)
    game = play_until(game, lambda s: s.round >= 6 or s.over, limit=400)
    kinds = set(GameAction.objects.filter(game=game, source="standing").values_list("action__type", flat=True))
    assert {"end_turn", "max_bid"} <= kinds

    record = json.loads(json.dumps(game_record(game)))
    start = start_of(record)
    state, _ = new_game(RuleSet.from_json(start["rules"]), start["names"], start["seed"], teams=start["teams"])
    for a in record["actions"]:
        if a.get("clock") is not None:
            set_clock(state, a["clock"])
        apply(state, {k: v for k, v in a.items() if k != "clock"})
    assert state.to_json() == game.state
