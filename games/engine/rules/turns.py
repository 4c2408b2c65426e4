"""A game from its start to its end: creating it (dealing, rolling for first), the turn's own
actions (RULES.md 3, 4, 6, 7, 11: rolling, jail, buying, taxes, the casino, the bus, teleports,
destruction, surrender), the next turn and each round's world events, and the end (12).
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from ..cards import deck_order
from ..dice import StateRng, seed_to_state
from ..errors import IllegalAction
from ..refusals import Refusal
from ..ruleset import RuleSet
from ..state import BANK, HOTEL, NO_OWNER, GameState, _new_turn
from .auctions import _start_auction
from .context import CASINO_POOL_ADD, CASINO_STAKE, Ctx, _schedule, _square_param
from .money import _bank_pays, _charge, _pay_bank
from .queries import income_tax_percent, net_worth
from .squares import _advance, _destroy_targets, _land, _return_jail_card, _send_to_jail


def new_game(rules: RuleSet, names: list[str], seed: int | str = 0, *, teams: list[list[int]] | None = None,
             rng=None, roll_for_first: bool = True, shuffle: bool = True, events: bool = True
             ) -> tuple[GameState, list]:
    """A fresh game: decks shuffled, deeds dealt as the rule set says, first player rolled for.

    ``teams`` lists the seats of each team (team games); by default seats 0 and 2 play against
    1 and 3.
    """
    lo, hi = rules.seats
    if not lo <= len(names) <= hi:
        raise IllegalAction("seat_count", lo=lo, hi=hi, count=len(names))
    if len(set(names)) != len(names):
        raise IllegalAction("duplicate_names")
    if rules.teams:
        teams = teams or [[0, 2], [1, 3]]
        members = sorted(m for t in teams for m in t)
        if len(teams) != 2 or members != list(range(len(names))) or any(len(t) != 2 for t in teams):
            raise IllegalAction("bad_teams")
    elif teams:
        raise IllegalAction("teams_not_allowed")
    state = GameState(rules, names, teams, seed_to_state(seed))
    ctx = Ctx(state, rng or StateRng(state), [] if events else None)
    for name, order in deck_order(rules.deck).items():
        if shuffle:
            ctx.rng.shuffle(order)
        state.decks[name] = order
        state.discards[name] = []
    _deal(ctx)
    if roll_for_first:
        state.current = state.first = _roll_for_first(ctx)
    ctx.ev("start", first=state.current)
    ctx.ev("turn", p=state.current, round=state.round)
    return state, ctx.events or []


def _deal(ctx: Ctx) -> None:
    """RULES.md 1, deal_at_start: two deeds each at printed price, or every deed free."""
    st = ctx.state
    mode = ctx.rules.deal_at_start
    if mode == "none":
        return
    deeds = list(ctx.board.deeds)
    ctx.rng.shuffle(deeds)
    n = len(st.players)
    if mode == "two_paid":
        for i in range(2 * n):
            p, sq = i % n, deeds[i]
            st.owner[sq] = p
            st.board_log.append(sq)
            _pay_bank(ctx, p, ctx.board.price[sq])
            ctx.ev("dealt", p=p, sq=sq, price=ctx.board.price[sq])
    else:
        # When the deeds don't divide evenly, who gets the extra ones is drawn too.
        offset = ctx.rng.below(n)
        for i, sq in enumerate(deeds):
            p = (i + offset) % n
            st.owner[sq] = p
            st.board_log.append(sq)
            ctx.ev("dealt", p=p, sq=sq, price=0)


def _roll_for_first(ctx: Ctx) -> int:
    """RULES.md 3: highest roll of both dice goes first; ties roll again."""
    contenders = list(range(len(ctx.state.players)))
    while True:
        rolls = {p: ctx.rng.die() + ctx.rng.die() for p in contenders}
        ctx.ev("first_roll", rolls={str(k): v for k, v in rolls.items()})
        best = max(rolls.values())
        contenders = [p for p, v in rolls.items() if v == best]
        if len(contenders) == 1:
            return contenders[0]


def _next_turn(ctx: Ctx, p: int | None = None, a: dict | None = None) -> None:
    """On to the next player. Also the end_turn action's handler (``a`` given), whose checks
    come first: a call less on every turn."""
    st = ctx.state
    cur = st.current
    if a is not None and (p != cur or st.stack or st.phase != "end_turn"):
        _require_turn(st, p, "end_turn")  # raises, with the reason
    players = st.players
    pl = players[cur]
    if not pl.bankrupt and cur not in st.turn["timed_out"]:
        # RULES.md 11: a turn of their own played without a timeout resets the count.
        pl.missed = 0
    limit = ctx.rules.time_limit_minutes
    if limit is not None and st.clock >= limit:
        ctx.ev("time_up")
        _finish(ctx, _richest(st))
        return
    n = len(players)
    nxt = (cur + 1) % n
    while players[nxt].bankrupt and nxt != cur:
        nxt = (nxt + 1) % n
    first = st.first
    new_round = (nxt - first) % n <= (cur - first) % n
    st.current = nxt
    st.phase = "roll"
    st.turn = _new_turn()
    if new_round:
        st.round += 1
        cap = ctx.rules.round_limit
        if cap is not None and st.round > cap:
            # RULES.md 16: the round limit is over; net worth ranks the players (section 12).
            ctx.ev("round_limit", round=cap)
            _finish(ctx, _richest(st))
            return
    if ctx.events is not None:
        ctx.ev("turn", p=nxt, round=st.round)
    if new_round and ctx.rules.mortgage_expiry_rounds is not None:  # (else _round_start has nothing to do)
        _round_start(ctx)


def _round_start(ctx: Ctx) -> None:
    """RULES.md 9, world expiry: a deed mortgaged in round r, still mortgaged when round r + N
    starts, is auctioned (rotating; opening its full price; everyone may bid, the owner too)."""
    st = ctx.state
    expiry = ctx.rules.mortgage_expiry_rounds
    if expiry is None:
        return
    # Only deeds are ever mortgaged (an invariant), so the mortgaged squares in square order are
    # the mortgaged deeds in deed order: compress finds them without a Python-level walk of
    # every deed each round.
    mround = st.mround
    last = st.round - expiry  # mortgaged in this round or before: due
    due = []  # (a loop, not a comprehension: no call of its own once a round)
    for sq in compress(range(40), st.mortgaged):
        if mround[sq] is not None and mround[sq] <= last:
            due.append(sq)
    for sq in reversed(due):
        former = st.owner[sq]
        st.owner[sq] = NO_OWNER
        st.board_log.append(sq)
        st.mortgaged[sq] = False
        st.mround[sq] = None
        ctx.ev("expired", sq=sq, owner=former)
        _start_auction(ctx, "expiry", sq, style="rotating", opening=st.board.price[sq],
                       start=st.current, include_start=True)


def _richest(st: GameState) -> int:
    return max(st.active(), key=lambda p: (net_worth(st, p), -p))


def _finish(ctx: Ctx, winner: int) -> None:
    st = ctx.state
    st.over = True
    st.winner = winner
    st.stack.clear()
    st.phase = "over"
    ctx.ev("game_over", winner=winner)


def _check_end(ctx: Ctx) -> bool:
    """RULES.md 12: last player (team) standing; classic-short ends at the second bankruptcy."""
    st = ctx.state
    active = st.active()
    if st.teams:
        alive = {st.players[i].team for i in active}
        if len(alive) == 1:
            team = alive.pop()
            _finish(ctx, st.teams[team][0])
            return True
        return False
    if len(active) == 1:
        _finish(ctx, active[0])
        return True
    # RULES.md 12: count every bankrupt player, including those a position starts with
    # (bankrupt_order only records bankruptcies that happened in this state's history).
    if ctx.rules.end == "second_bankruptcy" and len(st.players) - len(active) >= 2:
        _finish(ctx, _richest(st))
        return True
    return False


def set_clock(state: GameState, minutes: int) -> None:
    """Elapsed play time in minutes (live tables), for the dynamic economy and time limits."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise IllegalAction("bad_clock_minutes", value=repr(minutes))
    state.clock = minutes


# Each action's legality is one ``_<action>_error(state, player, ...)`` predicate (None: legal),
# which its handler raises and legal_actions (checks.py) asks: the two cannot disagree.

def _turn_error(st: GameState, p: int, phase: str) -> Refusal | None:
    """roll (phase "roll") and end_turn (phase "end_turn"): p's own turn, nothing pending."""
    if p != st.current:
        return Refusal("not_your_turn", player=st.players[st.current].name)
    if st.stack:
        return Refusal("decision_pending", decision=st.pending())
    if st.phase != phase:
        return Refusal("already_rolled" if phase == "roll" else "roll_first")
    return None


def _require_turn(st: GameState, p: int, phase: str) -> None:
    err = _turn_error(st, p, phase)
    if err:
        raise IllegalAction(err)


def _act_roll(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    if p != st.current or st.stack or st.phase != "roll":
        _require_turn(st, p, "roll")  # raises, with the reason
    # The roll itself follows here, not in a function of its own: the most common action.
    pl = st.players[p]
    rng = ctx.rng
    turn = st.turn
    turn["rolled"] = True
    if pl.in_jail:
        # RULES.md 7: a try for doubles (the speed die is not thrown from jail).
        d1, d2 = rng.dice()
        turn["dice"] = st.last_dice = [d1, d2]
        ctx.ev("roll", p=p, dice=[d1, d2], jail=True)
        st.phase = "end_turn"
        if d1 == d2:
            pl.in_jail = False
            pl.jail_turns = 0
            ctx.ev("leave_jail", p=p, how="doubles")
            _advance(ctx, p, d1 + d2)
            _land(ctx, p, None)
            return
        pl.jail_turns += 1
        if pl.jail_turns >= 3:
            # After the third failed try the fine is mandatory, then the player moves.
            pl.jail_turns = 0
            ctx.ev("jail_fine_due", p=p)
            _schedule(st, {"k": "pay", "p": p, "to": BANK, "amt": ctx.rules.jail_fine, "why": "jail fine",
                           "pot": True}, {"k": "move", "p": p, "steps": d1 + d2})
        return
    sdr = ctx.rules.speed_die_from_round
    d1, d2 = rng.dice()
    if sdr is None or st.round < sdr:
        speed = None
        turn["dice"] = st.last_dice = [d1, d2]  # (one list: neither is ever changed in place)
    else:
        speed = rng.speed_die()
        turn["dice"] = [d1, d2]
        st.last_dice = [d1, d2, speed]
    if ctx.events is not None:
        ctx.ev("roll", p=p, dice=list(st.last_dice))
    if d1 == d2 and speed != d1:  # doubles (RULES.md 11: a triple is not doubles)
        turn["doubles"] += 1
        if turn["doubles"] >= 3:
            ctx.ev("third_doubles", p=p)
            _send_to_jail(ctx, p)
            return
        st.phase = "roll"
    else:
        st.phase = "end_turn"
    steps = d1 + d2
    if speed is not None:
        if d1 == d2 == speed:  # a triple
            st.stack.append({"k": "teleport", "p": p, "default": (pl.pos + steps + speed) % 40})
            return
        if speed == "bus":
            st.stack.append({"k": "bus", "p": p, "dice": [d1, d2]})
            return
        if speed == "m1":
            st.stack.append({"k": "m1", "p": p})
            _advance(ctx, p, steps)
            st.stack.append({"k": "land", "p": p})  # the square first, then the M1 move
            return
        steps += speed
    _advance(ctx, p, steps)
    # Nothing is stacked (a roll needs an empty stack): resolve the square now, as _run would
    # at once; skipping the land frame matters on this, the most common action.
    _land(ctx, p, None)


def _jail_error(st: GameState, p: int) -> Refusal | None:
    """RULES.md 7: leaving jail by fine or card, before the turn's first roll."""
    err = _turn_error(st, p, "roll")
    if err:
        return err
    if not st.players[p].in_jail:
        return Refusal("not_in_jail")
    if st.turn["rolled"]:
        return Refusal("jail_exit_too_late")
    return None


def _pay_fine_error(st: GameState, p: int) -> Refusal | None:
    err = _jail_error(st, p)
    if err:
        return err
    fine = st.rules.jail_fine
    if st.players[p].cash < fine:
        return Refusal("fine_unaffordable", fine=fine)
    return None


def _use_card_error(st: GameState, p: int) -> Refusal | None:
    err = _jail_error(st, p)
    if err:
        return err
    if not st.players[p].jail_cards:
        return Refusal("no_jail_card")
    return None


def _act_pay_fine(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    err = _pay_fine_error(st, p)
    if err:
        raise IllegalAction(err)
    fine = ctx.rules.jail_fine
    _pay_bank(ctx, p, fine, pot=True)
    pl = st.players[p]
    pl.in_jail = False
    pl.jail_turns = 0
    ctx.ev("leave_jail", p=p, how="fine", amount=fine)


def _act_use_card(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    err = _use_card_error(st, p)
    if err:
        raise IllegalAction(err)
    pl = st.players[p]
    cid = pl.jail_cards.pop(0)
    _return_jail_card(st, cid)
    pl.in_jail = False
    pl.jail_turns = 0
    ctx.ev("leave_jail", p=p, how="card", card=cid)


def _decision_error(st: GameState, p: int, kind: str) -> Refusal | None:
    """A decision of this kind waits on p (decline, casino_skip; the others ask more)."""
    top = st.stack[-1] if st.stack else None
    if top is None or top["k"] != kind:
        return Refusal("no_such_decision", decision=kind)
    if top["p"] != p:
        return Refusal("decision_of_another", decision=kind, player=st.players[top['p']].name)
    return None


def _decision(st: GameState, p: int, kind: str) -> dict:
    err = _decision_error(st, p, kind)
    if err:
        raise IllegalAction(err)
    return st.stack[-1]


def _buy_error(st: GameState, p: int) -> Refusal | None:
    err = _decision_error(st, p, "buy")
    if err:
        return err
    price = st.board.price[st.stack[-1]["sq"]]
    if st.players[p].cash < price:
        return Refusal("price_unaffordable", price=price)
    return None


def _act_buy(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    err = _buy_error(st, p)
    if err:
        raise IllegalAction(err)
    f = st.stack[-1]
    price = st.board.price[f["sq"]]
    st.stack.pop()
    _pay_bank(ctx, p, price)
    st.owner[f["sq"]] = p
    st.board_log.append(f["sq"])
    if ctx.events is not None:
        ctx.ev("buy", p=p, sq=f["sq"], price=price)


def _act_decline(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    f = _decision(st, p, "buy")
    st.stack.pop()
    _decline(ctx, p, f["sq"])


def _decline(ctx: Ctx, p: int, sq: int) -> None:
    if ctx.events is not None:
        ctx.ev("decline", p=p, sq=sq)
    rules = ctx.rules
    # RULES.md 4: open auctions include the decliner where allowed; rotating ones start after them.
    _start_auction(ctx, "deed", sq, start=p, include_start=rules.auction_style == "open",
                   exclude=None if rules.auction_decliner_bids else p)


def _income_tax_error(st: GameState, p: int, choice: Any) -> Refusal | None:
    err = _decision_error(st, p, "income_tax")
    if err:
        return err
    if choice not in ("flat", "percent"):
        return Refusal("bad_tax_choice")
    return None


def _act_income_tax(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    choice = a.get("choice")
    err = _income_tax_error(st, p, choice)
    if err:
        raise IllegalAction(err)
    st.stack.pop()
    _pay_income_tax(ctx, p, choice)


def _pay_income_tax(ctx: Ctx, p: int, choice: str) -> None:
    amount = ctx.rules.income_tax if choice == "flat" else income_tax_percent(ctx.state, p)
    ctx.ev("income_tax", p=p, choice=choice, amount=amount)
    _charge(ctx, p, BANK, amount, "tax", pot=True)


ANY_NUMBERS = object()  # legal_actions' question to _casino_error: may p stake at all?


def _casino_error(st: GameState, p: int, numbers: Any = ANY_NUMBERS) -> Refusal | None:
    """RULES.md 11, the casino: a stake of CASINO_STAKE on 1 to 3 different numbers."""
    err = _decision_error(st, p, "casino")
    if err:
        return err
    if numbers is not ANY_NUMBERS and (
            not isinstance(numbers, list) or not 1 <= len(numbers) <= 3 or len(set(numbers)) != len(numbers)
            or any(isinstance(x, bool) or x not in (1, 2, 3, 4, 5, 6) for x in numbers)):
        return Refusal("bad_casino_numbers")
    if st.players[p].cash < CASINO_STAKE:
        return Refusal("stake_unaffordable", stake=CASINO_STAKE)
    return None


def _act_casino(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    numbers = a.get("numbers")
    err = _casino_error(st, p, numbers)
    if err:
        raise IllegalAction(err)
    die = ctx.rng.die()
    pool_win = ctx.rng.jackpot()
    st.stack.pop()
    # RULES.md 11: each stake adds 500 from the bank to the pool.
    _pay_bank(ctx, p, CASINO_STAKE)
    st.bank -= CASINO_POOL_ADD
    st.jackpot += CASINO_POOL_ADD
    won = 0
    if die in numbers:
        won = CASINO_STAKE * 6 // len(numbers)
        _bank_pays(ctx, p, won)
    pool = 0
    if pool_win:
        pool = st.jackpot
        st.jackpot = 0
        st.players[p].cash += pool
    ctx.ev("casino", p=p, numbers=sorted(numbers), die=die, won=won, pool=pool)


def _act_casino_skip(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "casino")
    st.stack.pop()
    ctx.ev("casino_skip", p=p)


BUS_CHOICES = ("first", "second", "sum")


def _bus_error(st: GameState, p: int, choice: Any) -> Refusal | None:
    """RULES.md 11, the bus: move by the first die, the second or their sum."""
    err = _decision_error(st, p, "bus")
    if err:
        return err
    if choice not in BUS_CHOICES:
        return Refusal("bad_bus_choice")
    return None


def _act_bus(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    choice = a.get("choice")
    err = _bus_error(st, p, choice)
    if err:
        raise IllegalAction(err)
    d1, d2 = st.stack[-1]["dice"]
    steps = {"first": d1, "second": d2, "sum": d1 + d2}[choice]
    st.stack.pop()
    ctx.ev("bus", p=p, choice=choice)
    _advance(ctx, p, steps)
    _land(ctx, p, None)


def _teleport_error(st: GameState, p: int, sq: int) -> Refusal | None:
    """RULES.md 11: a teleport goes to any square (0-39, as the parameter reader checks)."""
    return _decision_error(st, p, "teleport")


def _act_teleport(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "teleport")
    sq = _square_param(a)
    err = _teleport_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    st.stack.pop()
    _teleport(ctx, p, sq)


def _teleport(ctx: Ctx, p: int, sq: int) -> None:
    ctx.ev("teleport", p=p, sq=sq)
    steps = (sq - ctx.state.players[p].pos) % 40
    if steps:
        _advance(ctx, p, steps)
    _land(ctx, p, None)


def _destroy_error(st: GameState, p: int, sq: int) -> Refusal | None:
    err = _decision_error(st, p, "destroy")
    if err:
        return err
    if sq not in _destroy_targets(st, p):
        return Refusal("bad_destroy_target")
    return None


def _act_destroy(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "destroy")
    sq = _square_param(a)
    err = _destroy_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    st.stack.pop()
    _destroy(ctx, p, sq)


def _destroy(ctx: Ctx, p: int, sq: int) -> None:
    st = ctx.state
    lv = st.level[sq]
    hbh = ctx.rules.houses_before_hotel
    if lv == HOTEL:
        st.level[sq] = hbh
        st.board_log.append(sq)
        if st.bank_hotels is not None:
            st.bank_hotels += 1
        if st.bank_houses is not None:
            take = min(hbh, st.bank_houses)
            st.bank_houses -= take
            st.level[sq] = take
    else:
        st.level[sq] = lv - 1
        st.board_log.append(sq)
        if st.bank_houses is not None:
            st.bank_houses += 1
    ctx.ev("destroy", p=p, sq=sq, owner=st.owner[sq], level=st.level[sq])


def _act_surrender(ctx: Ctx, p: int, a: dict) -> None:
    """RULES.md 10: bankruptcy to the bank, or to the creditor of a pending debt to a player."""
    st = ctx.state
    creditor = BANK
    for f in reversed(st.stack):
        if f["k"] == "debt" and f["p"] == p:
            creditor = f["to"]
            break
    ctx.ev("surrender", p=p)
    # Settled by the run loop at once (core's ``bankrupt`` task), as a charge nobody can pay is.
    st.stack.append({"k": "bankrupt", "p": p, "to": creditor})
