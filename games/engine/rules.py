"""The rules of RULES.md applied to a GameState.

Public API (python-chess style): ``new_game``, ``legal_actions(state, player)`` and
``apply(state, action, rng=None) -> (state, events)``.

``apply`` validates the whole action before it changes anything, so an illegal action raises
``IllegalAction`` and leaves the state untouched; a legal one mutates the state in place and
returns it (copy it first to keep the old position). All randomness comes from ``rng``; without
one, the game's own seeded generator (whose state lives in ``state.rng``) is used, so a game
replays exactly from its rule set, seed and actions.

How play is driven: ``state.stack`` holds frames. A *decision* frame (``buy``, ``auction``,
``debt``...) waits for a player; a *task* frame (``land``, ``pay``, ``m1``...) is work the engine
does as soon as it reaches the top. After each action the engine runs tasks until a decision is
on top or the stack is empty; an empty stack means the current player is to ``roll`` or to
``end_turn`` (``state.phase``).
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from .cards import JAIL_CARDS, card_deck, card_effect, deck_order
from .dice import StateRng, seed_to_state
from .errors import IllegalAction
from .ruleset import RuleSet
from .state import BANK, HOTEL, NO_OWNER, GameState, _new_turn

DECISIONS = frozenset({"buy", "auction", "debt", "casino", "income_tax", "bus", "teleport", "destroy",
                       "mortgage_transfer", "trade_response"})
# Decisions _run leaves alone (it settles covered debts and closes finished auctions).
_WAITING = DECISIONS - {"debt", "auction"}
CASINO_STAKE = 1000
CASINO_POOL_ADD = 500
JAIL_CARD_VALUE = 500  # RULES.md 9: a jail card counts 500 in the world balance check.


class Ctx:
    """What one ``apply`` call works with: the state, the generator and the event list."""

    __slots__ = ("state", "rng", "events", "rules", "board", "own_rng")

    def __init__(self, state: GameState, rng, events: list | None):
        self.state = state
        self.own_rng = StateRng(state)  # the game's own seeded generator
        self.rng = rng if rng is not None else self.own_rng
        self.events = events
        self.rules = state.rules
        self.board = state.board

    def ev(self, kind: str, **fields: Any) -> None:
        # The frequent events' call sites test ``ctx.events is not None`` first: without events
        # (simulations, replays) that skips building the keyword arguments.
        if self.events is not None:
            fields["e"] = kind
            self.events.append(fields)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _frac(amount: int, fraction: float) -> int:
    """The bank pays fractions rounded down (RULES.md preamble)."""
    return (amount * round(fraction * 10000)) // 10000


# ---------------------------------------------------------------------------------------------
# Game creation
# ---------------------------------------------------------------------------------------------

def new_game(rules: RuleSet, names: list[str], seed: int | str = 0, *, teams: list[list[int]] | None = None,
             rng=None, roll_for_first: bool = True, shuffle: bool = True, events: bool = True
             ) -> tuple[GameState, list]:
    """A fresh game: decks shuffled, deeds dealt as the rule set says, first player rolled for.

    ``teams`` lists the seats of each team (team games); by default seats 0 and 2 play against
    1 and 3.
    """
    lo, hi = rules.seats
    if not lo <= len(names) <= hi:
        raise IllegalAction(f"this rule set seats {lo}-{hi} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise IllegalAction("player names must be different")
    if rules.teams:
        teams = teams or [[0, 2], [1, 3]]
        members = sorted(m for t in teams for m in t)
        if len(teams) != 2 or members != list(range(len(names))) or any(len(t) != 2 for t in teams):
            raise IllegalAction("a team game needs two teams of two covering every seat")
    elif teams:
        raise IllegalAction("teams are only for team rule sets")
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


# ---------------------------------------------------------------------------------------------
# Small helpers over the state
# ---------------------------------------------------------------------------------------------

def _eff(st: GameState, level: int) -> int:
    """A hotel counts one level above 'houses before hotel' (RULES.md 8)."""
    return st.rules.houses_before_hotel + 1 if level == HOTEL else level


# These two run on every rent and build check: plain loops over the (2-4 squares) group cost less
# than any()/all() over a generator.
def _group_has_buildings(st: GameState, sq: int) -> bool:
    lv = st.level
    for s in st.board.group_of[sq]:  # noqa: SIM110
        if lv[s]:
            return True
    return False


def _owns_group(st: GameState, p: int, sq: int) -> bool:
    ow = st.owner
    for s in st.board.group_of[sq]:  # noqa: SIM110
        if ow[s] != p:
            return False
    return True


def unmortgage_cost(st: GameState, sq: int) -> int:
    """RULES.md 9: mortgage + 10%, or 60% of the price; owed to the bank, so rounded up."""
    # (_ceil_div inline: the bots ask for this often)
    if st.rules.unmortgage == "mortgage_plus_10":
        mv = st.board.squares[sq].mortgage
        return mv - (-mv // 10)
    return -(-6 * st.board.price[sq] // 10)


def transfer_fee(st: GameState, sq: int) -> int:
    """RULES.md 9, classic transfer: 10% of the mortgage, paid now to keep it mortgaged."""
    return _ceil_div(st.board.squares[sq].mortgage, 10)


def building_counts(st: GameState, p: int) -> tuple[int, int]:
    """(houses, hotels) owned by p."""
    houses = hotels = 0
    for sq in st.board.streets:
        if st.owner[sq] == p:
            lv = st.level[sq]
            if lv == HOTEL:
                hotels += 1
            else:
                houses += lv
    return houses, hotels


def liquidation_value(st: GameState, p: int) -> int:
    """RULES.md 10: cash + building sell-back + mortgage value of unmortgaged deeds."""
    total = st.players[p].cash
    squares = st.board.squares
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    sb = st.rules.sell_back
    hotel = st.rules.houses_before_hotel + 1  # _eff of a hotel
    for sq in st.board.deeds:
        if owner[sq] == p:
            lv = level[sq]
            if lv:
                total += _frac(squares[sq].build_cost * (hotel if lv == HOTEL else lv), sb)
            if not mortgaged[sq]:
                total += squares[sq].mortgage
    return total


def net_worth(st: GameState, p: int) -> int:
    """RULES.md 12: cash + price of unmortgaged deeds + half price of mortgaged ones + buildings
    at cost (a hotel counts its cost plus the houses it replaced)."""
    total = st.players[p].cash
    board = st.board
    for sq in board.deeds:
        if st.owner[sq] == p:
            total += board[sq].mortgage if st.mortgaged[sq] else board.price[sq]
            total += board[sq].build_cost * _eff(st, st.level[sq])
    return total


def tax_worth(st: GameState, p: int) -> int:
    """RULES.md 6: cash + printed price of every deed, mortgaged or not + buildings at cost."""
    total = st.players[p].cash
    board = st.board
    for sq in board.deeds:
        if st.owner[sq] == p:
            total += board.price[sq] + board[sq].build_cost * _eff(st, st.level[sq])
    return total


def salary_active(st: GameState) -> bool:
    """RULES.md 11, dynamic economy: after the threshold no salary or Start bonus is paid."""
    r = st.rules
    if r.salary_stops_round is not None:
        return st.round <= r.salary_stops_round
    if r.salary_stops_minutes is not None:
        return st.clock < r.salary_stops_minutes
    return True


def rent_tax_rate(st: GameState) -> int:
    """RULES.md 11: 50% from the threshold, +10 points every 5 minutes (or every N rounds), max 99."""
    r = st.rules
    if r.rent_tax_round is not None:
        if st.round < r.rent_tax_round:
            return 0
        step = r.rent_tax_step_rounds or 3
        return min(99, 50 + 10 * ((st.round - r.rent_tax_round) // step))
    if r.rent_tax_minutes is not None:
        if st.clock < r.rent_tax_minutes:
            return 0
        return min(99, 50 + 10 * ((st.clock - r.rent_tax_minutes) // 5))
    return 0


def rent_of(st: GameState, sq: int, dice_total: int | None = None, mode: str | None = None) -> int:
    """The rent due on an owned deed (RULES.md 2 and 5), ignoring who lands on it."""
    board = st.board
    s = board.squares[sq]
    owner = st.owner[sq]
    if s.kind == "street":
        lv = st.level[sq]
        if lv == 0:
            rent = s.rents[0]
            # RULES.md 2 and 14: owning the whole group doubles unimproved rent, even when
            # another street of the group is mortgaged.
            if _owns_group(st, owner, sq):
                rent *= 2
            return rent
        return s.rents[lv]  # (a hotel's level, HOTEL == 5, indexes its rent too)
    ow = st.owner
    n = 0
    for x in board.group_of[sq]:
        if ow[x] == owner:
            n += 1
    if s.kind == "railroad":
        rent = s.rents[n - 1]
        return rent * 2 if mode == "double" else rent
    total = dice_total if dice_total is not None else sum(st.turn.get("dice") or (0,))
    if mode == "ten_times":
        return 10 * total
    return s.multipliers[n - 1] * total


# ---------------------------------------------------------------------------------------------
# Money: every movement goes through these, so the bank's balance is always known.
# ---------------------------------------------------------------------------------------------

def _pay_bank(ctx: Ctx, p: int, amount: int, pot: bool = False) -> None:
    st = ctx.state
    st.players[p].cash -= amount
    if pot and ctx.rules.free_parking_jackpot:
        # RULES.md 6: taxes, jail fines and card payments to the bank feed the pot.
        st.free_parking += amount
    else:
        st.bank += amount


def _bank_pays(ctx: Ctx, p: int, amount: int) -> None:
    st = ctx.state
    st.players[p].cash += amount
    st.bank -= amount


def _charge(ctx: Ctx, payer: int, to: int, amount: int, why: str, pot: bool = False, cut: int = 0) -> None:
    """``payer`` owes ``amount`` to player ``to`` or the bank. Pays at once if the cash covers it,
    else opens debt resolution (RULES.md 10), or bankrupts at once if even liquidation can't."""
    if amount <= 0:
        return
    st = ctx.state
    players = st.players
    if to != BANK and players[to].bankrupt:
        to = BANK
    if players[payer].cash >= amount:
        # (_settle inline: most charges are paid at once)
        if to == BANK:
            _pay_bank(ctx, payer, amount, pot)
        else:
            players[payer].cash -= amount
            players[to].cash += amount - cut
            st.bank += cut
        if ctx.events is not None:
            ctx.ev("pay", p=payer, to=to, amount=amount, why=why, tax=cut)
        return
    if liquidation_value(st, payer) < amount:
        ctx.ev("cannot_pay", p=payer, to=to, amount=amount, why=why)
        _bankrupt(ctx, payer, to)
        return
    st.stack.append({"k": "debt", "p": payer, "to": to, "amt": amount, "why": why, "pot": pot, "cut": cut})
    ctx.ev("debt", p=payer, to=to, amount=amount, why=why)


def _settle(ctx: Ctx, payer: int, to: int, amount: int, why: str, pot: bool, cut: int) -> None:
    st = ctx.state
    if to == BANK:
        _pay_bank(ctx, payer, amount, pot)
    else:
        st.players[payer].cash -= amount
        st.players[to].cash += amount - cut
        st.bank += cut
    if ctx.events is not None:
        ctx.ev("pay", p=payer, to=to, amount=amount, why=why, tax=cut)


# ---------------------------------------------------------------------------------------------
# The run loop and tasks
# ---------------------------------------------------------------------------------------------

def _run(ctx: Ctx) -> None:
    st = ctx.state
    stack = st.stack
    while stack and not st.over:
        top = stack[-1]
        k = top["k"]
        if k == "debt":
            # RULES.md 10: the debt is settled automatically the moment cash covers it.
            if st.players[top["p"]].cash >= top["amt"]:
                stack.pop()
                _settle(ctx, top["p"], top["to"], top["amt"], top["why"], top["pot"], top["cut"])
                ctx.ev("debt_settled", p=top["p"])
                continue
            return
        if k == "auction":
            # (_auction_over inline: this runs after every bid and pass)
            stage = top.get("stage")
            if stage == "place":
                return
            if stage != "done":
                passed = top["passed"]
                leader = top["leader"]
                for b in top["bidders"]:
                    if b != leader and b not in passed:
                        return  # still bidding
            stack.pop()
            _finish_auction(ctx, top)
            continue
        if k in DECISIONS:
            return
        stack.pop()
        _TASKS[k](ctx, top)


def _schedule(st: GameState, *frames: dict) -> None:
    """Push frames so that they run in the order given, before what is already stacked."""
    for f in reversed(frames):
        st.stack.append(f)


def _task_land(ctx: Ctx, f: dict) -> None:
    _land(ctx, f["p"], f.get("mode"))


def _task_pay(ctx: Ctx, f: dict) -> None:
    if ctx.state.players[f["p"]].bankrupt:
        return
    _charge(ctx, f["p"], f["to"], f["amt"], f["why"], f.get("pot", False))


def _task_move(ctx: Ctx, f: dict) -> None:
    """After the mandatory jail fine (RULES.md 7): leave jail and move by the roll."""
    pl = ctx.state.players[f["p"]]
    if pl.bankrupt:
        return
    pl.in_jail = False
    pl.jail_turns = 0
    ctx.ev("leave_jail", p=f["p"], how="fine")
    _advance(ctx, f["p"], f["steps"])
    _land(ctx, f["p"], None)


def _task_next_turn(ctx: Ctx, f: dict) -> None:
    _next_turn(ctx)


def _task_m1(ctx: Ctx, f: dict) -> None:
    """RULES.md 11, speed die M1: advance to the nearest unowned deed ahead, else the nearest
    rival deed ahead, and resolve it."""
    st = ctx.state
    p = f["p"]
    pl = st.players[p]
    if pl.bankrupt or pl.in_jail:
        return
    board = st.board
    pos = pl.pos
    target = None
    for i in range(1, 40):
        sq = (pos + i) % 40
        if board.is_deed[sq] and st.owner[sq] == NO_OWNER:
            target = i
            break
    if target is None:
        for i in range(1, 40):
            sq = (pos + i) % 40
            o = st.owner[sq]
            if board.is_deed[sq] and o not in (NO_OWNER, p) and not st.teammates(p, o):
                target = i
                break
    if target is None:
        ctx.ev("m1_none", p=p)
        return
    ctx.ev("m1", p=p, to=(pos + target) % 40)
    _advance(ctx, p, target)
    _land(ctx, p, None)


_TASKS = {"land": _task_land, "pay": _task_pay, "move": _task_move, "next_turn": _task_next_turn,
          "m1": _task_m1}


# ---------------------------------------------------------------------------------------------
# Movement and squares
# ---------------------------------------------------------------------------------------------

def _advance(ctx: Ctx, p: int, steps: int) -> None:
    """Move forward; passing or landing on GO/Start pays the salary, landing exactly on it the
    bonus too (RULES.md 3), unless the dynamic economy has stopped salaries (11)."""
    pl = ctx.state.players[p]
    new = pl.pos + steps
    if new >= 40:
        new -= 40
        _pass_start(ctx, p, new)
    pl.pos = new
    if ctx.events is not None:
        ctx.ev("move", p=p, to=new)


def _pass_start(ctx: Ctx, p: int, new: int) -> None:
    """The salary (and bonus) of a move that passes or lands on GO/Start, to square ``new``."""
    r = ctx.rules
    if (r.salary_stops_round is None and r.salary_stops_minutes is None) or salary_active(ctx.state):
        amount = r.salary + (r.start_bonus if new == 0 else 0)
        if amount:
            _bank_pays(ctx, p, amount)
            if ctx.events is not None:  # (hot path: skip building the record's fields)
                ctx.ev("salary", p=p, amount=amount)


def _advance_to(ctx: Ctx, p: int, target: int) -> None:
    steps = (target - ctx.state.players[p].pos) % 40
    _advance(ctx, p, steps or 40)


def _land(ctx: Ctx, p: int, mode: str | None) -> None:
    """Resolve the square the player stands on (RULES.md 4-8, 11)."""
    st = ctx.state
    pl = st.players[p]
    if pl.bankrupt:
        return
    pos = pl.pos
    board = ctx.board
    s = board.squares[pos]  # (hot path: the tables, not Board.__getitem__ and Square.is_deed)
    kind = s.kind
    if board.is_deed[pos]:
        owner = st.owner[pos]
        if owner == NO_OWNER:
            st.stack.append({"k": "buy", "p": p, "sq": pos})
            return
        if owner == p:
            return
        if st.mortgaged[pos]:
            ctx.ev("no_rent", p=p, sq=pos, why="mortgaged")
            return
        if st.players[owner].in_jail and not ctx.rules.rent_in_jail:
            ctx.ev("no_rent", p=p, sq=pos, why="owner_in_jail")
            return
        if pl.team is not None and pl.team == st.players[owner].team:  # (st.teammates, inline)
            ctx.ev("no_rent", p=p, sq=pos, why="teammate")
            return
        if kind == "street":
            # (rent_of's street case inline: the most common rent)
            lv = st.level[pos]
            if lv:
                rent = s.rents[lv]
            else:
                rent = s.rents[0]
                ow = st.owner
                for x in board.group_of[pos]:
                    if ow[x] != owner:
                        break
                else:
                    rent *= 2  # the whole group (RULES.md 2 and 14)
        else:
            dice_total = None
            if kind == "utility" and mode in ("ten_times", "usual"):
                # RULES.md 5: the utility cards throw the dice afresh.
                d1, d2 = ctx.rng.die(), ctx.rng.die()
                dice_total = d1 + d2
                ctx.ev("dice", p=p, dice=[d1, d2])
            rent = rent_of(st, pos, dice_total, mode)
        rules = ctx.rules
        if rules.rent_tax_round is None and rules.rent_tax_minutes is None:
            cut = 0  # (no rent tax in this rule set: rent_tax_rate would say 0)
        else:
            rate = rent_tax_rate(st)
            cut = _ceil_div(rent * rate, 100) if rate else 0
        if ctx.events is not None:
            ctx.ev("rent", p=p, owner=owner, sq=pos, amount=rent, tax=cut)
        _charge(ctx, p, owner, rent, "rent", False, cut)
        return
    if kind in ("chance", "chest", "luck"):
        _draw(ctx, p, s.deck)
    elif kind == "tax":
        if s.tax == "income":
            if ctx.rules.income_tax_choice:
                st.stack.append({"k": "income_tax", "p": p})
            else:
                _charge(ctx, p, BANK, ctx.rules.income_tax, "tax", pot=True)
        else:
            _charge(ctx, p, BANK, ctx.rules.luxury_tax, "tax", pot=True)
    elif kind == "go_to_jail":
        _send_to_jail(ctx, p)
    elif kind == "free_parking":
        if ctx.rules.free_parking_jackpot and st.free_parking:
            amount = st.free_parking
            st.free_parking = 0
            pl.cash += amount
            ctx.ev("free_parking", p=p, amount=amount)
    elif kind == "casino" and ctx.rules.casino:
        st.stack.append({"k": "casino", "p": p})


def _send_to_jail(ctx: Ctx, p: int) -> None:
    """RULES.md 7: never pays the salary; the turn ends there."""
    st = ctx.state
    pl = st.players[p]
    pl.pos = 10
    pl.in_jail = True
    pl.jail_turns = 0
    ctx.ev("jail", p=p)
    if p == st.current:
        stack = st.stack
        if stack:
            stack[:] = [f for f in stack if not (f["k"] in ("land", "m1", "move") and f["p"] == p)]
        st.phase = "end_turn"
        if not stack or not any(f["k"] == "next_turn" for f in stack):
            stack.insert(0, {"k": "next_turn"})


def _draw(ctx: Ctx, p: int, deck: str) -> None:
    """RULES.md 5: obey at once; the card goes to the bottom (classic) or to the discards (world),
    except a jail card, which the player keeps."""
    st = ctx.state
    pile = st.decks[deck]
    if not pile and st.discards.get(deck):
        pile.extend(st.discards[deck])
        st.discards[deck].clear()
        ctx.rng.shuffle(pile)
        ctx.ev("reshuffle", deck=deck)
    if not pile:
        ctx.ev("deck_empty", p=p, deck=deck)
        return
    cid = pile.pop(0)
    if ctx.events is not None:
        ctx.ev("card", p=p, card=cid)
    if cid in JAIL_CARDS:
        st.players[p].jail_cards.append(cid)
        return
    if ctx.rules.deck_without_replacement:
        st.discards[deck].append(cid)
    else:
        pile.append(cid)
    _card(ctx, p, card_effect(cid))


def _return_jail_card(st: GameState, cid: str) -> None:
    deck = card_deck(cid)
    if st.rules.deck_without_replacement:
        st.discards[deck].append(cid)
    else:
        st.decks[deck].append(cid)


def _card(ctx: Ctx, p: int, effect: tuple) -> None:
    st = ctx.state
    kind = effect[0]
    if kind == "move_to":
        _advance_to(ctx, p, effect[1])
        _land(ctx, p, None)
    elif kind == "nearest":
        pos = st.players[p].pos
        squares = st.board.railroads if effect[1] == "railroad" else st.board.utilities
        target = min(squares, key=lambda sq: (sq - pos) % 40 or 40)
        _advance_to(ctx, p, target)
        _land(ctx, p, effect[2])
    elif kind == "back":
        pl = st.players[p]
        pl.pos = (pl.pos - effect[1]) % 40
        ctx.ev("move", p=p, to=pl.pos)
        _land(ctx, p, None)
    elif kind == "go_to_jail":
        _send_to_jail(ctx, p)
    elif kind == "collect":
        _bank_pays(ctx, p, effect[1])
        ctx.ev("collect", p=p, amount=effect[1])
    elif kind == "pay":
        _charge(ctx, p, BANK, effect[1], "card", pot=True)
    elif kind == "repairs":
        houses, hotels = building_counts(st, p)
        amount = houses * effect[1] + hotels * effect[2]
        _charge(ctx, p, BANK, amount, "repairs", pot=True)
    elif kind in ("collect_each", "pay_each"):
        n = len(st.players)
        others = [(p + i) % n for i in range(1, n) if not st.players[(p + i) % n].bankrupt]
        if kind == "collect_each":
            frames = [{"k": "pay", "p": q, "to": p, "amt": effect[1], "why": "card"} for q in others]
        else:
            frames = [{"k": "pay", "p": p, "to": q, "amt": effect[1], "why": "card"} for q in others]
        _schedule(st, *frames)
    elif kind == "destroy":
        targets = _destroy_targets(st, p)
        if targets:
            st.stack.append({"k": "destroy", "p": p})
        else:
            ctx.ev("destroy_none", p=p)


def _destroy_targets(st: GameState, p: int) -> list[int]:
    """RULES.md 5, w_destroy_building: any opponent's property with buildings. Even building
    (section 8) binds builds and sales only, so the drawer's pick is not limited to the highest
    deed of its group."""
    out = []
    for sq in st.board.streets:
        o = st.owner[sq]
        if o in (NO_OWNER, p) or st.teammates(p, o) or not st.level[sq]:
            continue
        out.append(sq)
    return out


# ---------------------------------------------------------------------------------------------
# Turns, rounds, the end
# ---------------------------------------------------------------------------------------------

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
    if ctx.events is not None:  # (hot path: skip building the record's fields)
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
        raise IllegalAction(f"clock minutes must be a whole number >= 0, got {minutes!r}")
    state.clock = minutes


# ---------------------------------------------------------------------------------------------
# Bankruptcy
# ---------------------------------------------------------------------------------------------

def _bankrupt(ctx: Ctx, p: int, creditor: int) -> None:
    """RULES.md 10."""
    st = ctx.state
    pl = st.players[p]
    if pl.bankrupt:
        return
    board = ctx.board
    if creditor != BANK and st.players[creditor].bankrupt:
        creditor = BANK
    ctx.ev("bankrupt", p=p, to=creditor)
    # Buildings go back to the bank at the sell-back rate.
    for sq in board.streets:
        if st.owner[sq] == p and st.level[sq]:
            _sell_levels(ctx, p, sq, all_levels=True)
    pl.bankrupt = True
    st.bankrupt_order.append(p)
    deeds = [sq for sq in board.deeds if st.owner[sq] == p]
    cards, pl.jail_cards = pl.jail_cards, []
    cash, pl.cash = pl.cash, 0
    new_frames: list[dict] = []
    if creditor != BANK:
        cr = st.players[creditor]
        cr.cash += cash
        cr.jail_cards.extend(cards)
        for sq in deeds:
            st.owner[sq] = creditor
            st.board_log.append(sq)
            if st.mortgaged[sq] and ctx.rules.trade_mortgaged == "yes":
                new_frames.append({"k": "mortgage_transfer", "p": creditor, "sq": sq})
    else:
        st.bank += cash
        for cid in cards:
            _return_jail_card(st, cid)
        mate = None
        if st.teams:
            mate = next((i for i in st.teams[pl.team] if i != p and not st.players[i].bankrupt), None)
        for sq in deeds:
            if mate is not None:
                st.owner[sq] = mate
                st.board_log.append(sq)
                continue
            st.owner[sq] = NO_OWNER
            st.board_log.append(sq)
            st.mortgaged[sq] = False
            st.mround[sq] = None
        if mate is None and ctx.rules.bank_bankruptcy == "auction":
            new_frames.extend({"k": "_auction", "sq": sq} for sq in deeds)
    _purge(ctx, p)
    for t in [tid for tid, t in st.trades.items() if p in (t["from"], t["to"])]:
        del st.trades[t]
    st.rejected = [r for r in st.rejected if p not in (r["from"], r["to"])]
    if _check_end(ctx):
        return
    for f in reversed(new_frames):
        if f["k"] == "_auction":
            _start_auction(ctx, "deed", f["sq"], start=st.current, include_start=True)
        else:
            st.stack.append(f)


def _purge(ctx: Ctx, p: int) -> None:
    """Drop every frame that waits on or works for a bankrupt player."""
    st = ctx.state
    kept = []
    for f in st.stack:
        k = f["k"]
        if k == "trade_response":
            t = st.trades.get(str(f["trade"]))
            if t is None or p in (t["from"], t["to"]):
                continue
        elif k == "auction":
            if f["what"] == "own" and f["seller"] == p:
                continue
            _drop_bidder(f, p)
        elif f.get("p") == p or f.get("to") == p:
            # Its decisions and work go; so do payments owed to a player who left the game.
            continue
        kept.append(f)
    st.stack[:] = kept
    if p == st.current and not any(f["k"] == "next_turn" for f in kept):
        st.stack.insert(0, {"k": "next_turn"})


# ---------------------------------------------------------------------------------------------
# Auctions (RULES.md 4, 8, 9, 11)
# ---------------------------------------------------------------------------------------------

def _start_auction(ctx: Ctx, what: str, sq: int, *, style: str | None = None, opening: int | None = None,
                   step: int | None = None, start: int, include_start: bool, exclude: int | None = None,
                   seller: int | None = None, building: str | None = None) -> None:
    st = ctx.state
    rules = ctx.rules
    players = st.players
    n = len(players)
    first = 0 if include_start else 1
    bidders = []
    for i in range(first, n + first):
        q = (start + i) % n
        if not players[q].bankrupt and q != exclude:
            bidders.append(q)
    if opening is None:
        opening = st.board.price[sq] if rules.auction_opening == "price" else rules.auction_opening
    frame = {"k": "auction", "what": what, "sq": sq, "style": style or rules.auction_style,
             "bidders": bidders, "passed": [], "high": 0, "leader": -1, "turn": 0,
             "opening": opening, "step": step or rules.auction_step, "seller": seller,
             "building": building, "stage": "bid"}
    if ctx.events is not None:
        ctx.ev("auction", what=what, sq=sq, opening=opening)
    st.stack.append(frame)


def _drop_bidder(f: dict, p: int) -> None:
    if p not in f["bidders"]:
        return
    i = f["bidders"].index(p)
    f["bidders"].pop(i)
    if i < f["turn"]:
        f["turn"] -= 1
    if p in f["passed"]:
        f["passed"].remove(p)
    if f["leader"] == p:
        f["leader"] = -1
        f["high"] = 0
    if f.get("stage") == "place" and f.get("winner") == p:
        f["stage"] = "done"
    _fix_turn(f)


def _auction_over(f: dict) -> bool:
    """Over when nobody is left bidding, or only the leader is (checked after every bid and
    pass: a loop rather than building the list of the bidders left; _run has it inline)."""
    stage = f.get("stage")
    if stage == "done":
        return True
    if stage == "place":
        return False
    passed = f["passed"]
    leader = f["leader"]  # -1 (no bid yet) is never a bidder
    for b in f["bidders"]:  # noqa: SIM110 (a loop: cheaper than all() over a generator)
        if b != leader and b not in passed:
            return False
    return True


def _fix_turn(f: dict) -> None:
    """Rotating auctions: point at the next bidder who has not passed and is not leading."""
    bidders = f["bidders"]
    n = len(bidders)
    if not n:
        f["turn"] = 0
        return
    start = f["turn"] % n
    passed = f["passed"]
    leader = f["leader"]
    # (after every bid and pass: a walk round the table, cheaper than a modulo per step)
    j = start
    while True:
        b = bidders[j]
        if b != leader and b not in passed:
            f["turn"] = j
            return
        j += 1
        if j == n:
            j = 0
        if j == start:
            f["turn"] = start
            return


def auction_askee(f: dict) -> int | None:
    """The bidder a rotating auction waits on (None for open auctions)."""
    if f["style"] != "rotating" or f.get("stage") == "place" or not f["bidders"]:
        return None
    return f["bidders"][f["turn"]]


def auction_min_bid(f: dict) -> int:
    return f["opening"] if f["leader"] == -1 else f["high"] + f["step"]


def _finish_auction(ctx: Ctx, f: dict) -> None:
    """The auction frame has already been popped."""
    st = ctx.state
    sq, w, amount, what = f["sq"], f["leader"], f["high"], f["what"]
    if what == "building":
        if w == -1:
            ctx.ev("auction_unsold", what=what, sq=sq)
        return  # a won building was placed (or had nowhere to go) before the frame closed
    if w == -1:
        ctx.ev("auction_unsold", what=what, sq=sq)
        return
    ctx.ev("auction_won", p=w, what=what, sq=sq, amount=amount)
    if what == "own":
        # RULES.md 11, duel: the bank keeps the unmortgage cost, the owner gets the rest.
        seller = f["seller"]
        st.owner[sq] = w
        st.board_log.append(sq)
        st.mortgaged[sq] = False
        st.mround[sq] = None
        _charge(ctx, w, seller, amount, "auction", cut=min(amount, unmortgage_cost(st, sq)))
        return
    st.owner[sq] = w
    st.board_log.append(sq)
    st.mortgaged[sq] = False
    st.mround[sq] = None
    _charge(ctx, w, BANK, amount, "auction")


def _act_bid(ctx: Ctx, p: int, a: dict) -> None:
    # (Frequent, as are passes: the frame lookup, _int_param and auction_min_bid inline.)
    st = ctx.state
    stack = st.stack
    if not stack or stack[-1]["k"] != "auction":  # (apply has already refused a game over)
        raise IllegalAction("there is no auction under way")
    f = stack[-1]
    if f["stage"] != "bid":
        raise IllegalAction("the bidding is over; the winner is placing the building")
    amount = a.get("amount")
    if type(amount) is not int:
        amount = _int_param(a, "amount")  # raises unless a subclass of int
    if p not in f["bidders"]:
        raise IllegalAction("you are not a bidder in this auction")
    if p in f["passed"]:
        raise IllegalAction("you have passed; a pass is final")
    leader = f["leader"]
    if p == leader:
        raise IllegalAction("you already hold the highest bid")
    if f["style"] == "rotating" and f["bidders"][f["turn"]] != p:  # (auction_askee inline)
        raise IllegalAction("it is not your turn to bid")
    low = f["opening"] if leader == -1 else f["high"] + f["step"]
    if amount < low:
        raise IllegalAction(f"the lowest bid now is {low}")
    if amount > st.players[p].cash:
        raise IllegalAction(f"a bid of {amount} is above your cash ({st.players[p].cash})")
    f["high"] = amount
    f["leader"] = p
    if f["style"] == "open":
        # RULES.md 4, open auction: it ends when every other bidder has passed *after* the
        # highest bid, so a new bid reopens it for those who passed before (only in the
        # rotating style is a pass final).
        f["passed"].clear()
    if ctx.events is not None:
        ctx.ev("bid", p=p, amount=amount)
    _fix_turn(f)
    if f["what"] == "building":
        _after_bid_step(ctx, f)


def _act_pass(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    stack = st.stack
    if not stack or stack[-1]["k"] != "auction":  # (apply has already refused a game over)
        raise IllegalAction("there is no auction under way")
    f = stack[-1]
    if f["stage"] != "bid":
        raise IllegalAction("the bidding is over")
    if p not in f["bidders"] or p in f["passed"]:
        raise IllegalAction("you are not bidding in this auction")
    if p == f["leader"]:
        raise IllegalAction("you hold the highest bid and cannot pass")
    if f["style"] == "rotating" and f["bidders"][f["turn"]] != p:  # (auction_askee inline)
        raise IllegalAction("it is not your turn to bid")
    _do_pass(ctx, f, p)


def _do_pass(ctx: Ctx, f: dict, p: int) -> None:
    f["passed"].append(p)
    if ctx.events is not None:
        ctx.ev("pass", p=p)
    _fix_turn(f)
    if f["what"] == "building":
        _after_bid_step(ctx, f)


def _after_bid_step(ctx: Ctx, f: dict) -> None:
    """Building auctions end in placement; others end in _run."""
    if f["what"] != "building" or not _auction_over(f):
        return
    st = ctx.state
    w = f["leader"]
    if w == -1:
        f["stage"] = "done"
        return
    ctx.ev("auction_won", p=w, what="building", sq=f["sq"], amount=f["high"])
    f["stage"] = "place"
    f["winner"] = w
    # The winner places it at once: the requester where they asked, anyone else where they choose.
    if w == f["seller"] and _build_error(st, w, f["sq"], free=True, building=f["building"]) is None:
        _place_building(ctx, w, f["sq"])
        f["stage"] = "done"
    elif not _placements(st, w, f["building"]):
        f["stage"] = "done"
    _charge(ctx, w, BANK, f["high"], "auction")


# ---------------------------------------------------------------------------------------------
# Buildings (RULES.md 8)
# ---------------------------------------------------------------------------------------------

def _in_debt(st: GameState, p: int) -> bool:
    return any(f["k"] == "debt" and f["p"] == p for f in st.stack)


DEBT_ONLY = "while you owe a debt you may only sell buildings, mortgage, trade or surrender"


def _build_timing_error(st: GameState, p: int) -> str | None:
    if st.stack and _in_debt(st, p):
        # RULES.md 10: the debtor raises money; spending it on buildings would deepen the debt.
        return DEBT_ONLY
    if st.rules.build_before_roll:
        if p != st.current or st.stack or st.phase != "roll":
            return "you may build only in your own turn, before rolling"
    else:
        for f in st.stack:
            if f["k"] == "auction" and f["what"] == "building":
                return "a building auction is under way"
    return None


def _build_error(st: GameState, p: int, sq: int, free: bool = False, building: str | None = None) -> str | None:
    # (Hot for the bots too: plain loops over the group, checks in the order of the messages.)
    board = st.board
    s = board.squares[sq]
    if s.kind != "street":
        return f"{s.name} cannot take buildings"
    if st.owner[sq] != p:
        return f"you do not own {s.name}"
    group = board.group_of[sq]
    owner = st.owner
    mortgaged = st.mortgaged
    pledged = False
    for x in group:  # (one walk: an unowned deed is reported before a mortgaged one)
        if owner[x] != p:
            return "you need every deed of the group to build"
        if mortgaged[x]:
            pledged = True
    if pledged:
        return "a deed of the group is mortgaged"
    level = st.level
    lv = level[sq]
    if lv == HOTEL:
        return f"{s.name} already has the top level"
    rules = st.rules
    hbh = rules.houses_before_hotel
    hotel = lv >= hbh
    if building is not None and (building == "hotel") != hotel:
        return f"{s.name} needs a {'hotel' if hotel else 'house'}, not a {building}"
    if hotel:
        for x in group:
            if level[x] < hbh:
                return f"a hotel needs {hbh} houses on every deed of the group"
        # (then no deed of the group has fewer buildings: the even-building check passes)
    elif rules.even_building:
        # _eff(lv) > the group's lowest _eff. _eff keeps the order of the levels (a hotel, level
        # HOTEL, is above every house count, and counts one above the most houses), so the raw
        # levels compare the same way.
        for x in group:
            if level[x] < lv:
                return "build evenly: another deed of the group has fewer buildings"
    if not free:
        limit = rules.builds_per_turn
        if limit is not None and st.turn["builds"].get(s.group, 0) >= limit:
            return f"only {limit} build(s) per group per turn"
        if hotel and st.bank_hotels == 0:
            return "the bank has no hotels left"
        if not hotel and st.bank_houses == 0:
            return "the bank has no houses left"
        if st.players[p].cash < s.build_cost:
            return f"not enough cash: a building costs {s.build_cost}"
    return None


def _placements(st: GameState, p: int, building: str) -> list[int]:
    return [sq for sq in st.board.streets
            if st.owner[sq] == p and _build_error(st, p, sq, free=True, building=building) is None]


def _place_building(ctx: Ctx, p: int, sq: int) -> None:
    st = ctx.state
    hbh = ctx.rules.houses_before_hotel
    if st.level[sq] >= hbh:
        st.level[sq] = HOTEL
        st.board_log.append(sq)
        if st.bank_hotels is not None:
            st.bank_hotels -= 1
        if st.bank_houses is not None:
            st.bank_houses += hbh
    else:
        st.level[sq] += 1
        st.board_log.append(sq)
        if st.bank_houses is not None:
            st.bank_houses -= 1
    builds = st.turn["builds"]
    g = st.board.squares[sq].group
    builds[g] = builds.get(g, 0) + 1
    if ctx.events is not None:
        ctx.ev("build", p=p, sq=sq, level=st.level[sq])


def _able_to_build(st: GameState, building: str) -> list[int]:
    out = []
    for q in st.active():
        for sq in st.board.streets:
            if st.owner[sq] == q and _build_error(st, q, sq, building=building) is None:
                out.append(q)
                break
    return out


def _act_build(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = a.get("square")
    if type(sq) is not int or not 0 <= sq < 40:
        sq = _square_param(a)  # raises unless an int subclass in range
    top = st.stack[-1] if st.stack else None
    if top is not None and top["k"] == "auction" and top["what"] == "building" and top["stage"] == "place":
        if top["winner"] != p:
            raise IllegalAction("the winner of the building auction is placing it")
        err = _build_error(st, p, sq, free=True, building=top["building"])
        if err:
            raise IllegalAction(err)
        _place_building(ctx, p, sq)
        top["stage"] = "done"
        return
    err = _build_timing_error(st, p) or _build_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    rules = ctx.rules
    hotel = st.level[sq] >= rules.houses_before_hotel
    building = "hotel" if hotel else "house"
    supply = st.bank_hotels if hotel else st.bank_houses
    # At most every player still in is able to build: a supply that large cannot be short.
    if (rules.building_auctions and supply is not None and supply < len(st.players)
            and supply < len(st.active())):
        able = _able_to_build(st, building)
        if supply < len(able):
            # RULES.md 8, shortage: auctioned among those able to build one legally.
            ctx.ev("shortage", p=p, building=building, supply=supply)
            _start_auction(ctx, "building", sq, style=rules.auction_style, opening=st.board[sq].build_cost,
                           step=1, start=p, include_start=True, seller=p, building=building)
            st.stack[-1]["bidders"] = [q for q in st.stack[-1]["bidders"] if q in able]
            return
    cost = st.board.squares[sq].build_cost
    st.players[p].cash -= cost  # (_pay_bank inline)
    st.bank += cost
    _place_building(ctx, p, sq)


def _money_timing_error(st: GameState, p: int) -> str | None:
    """RULES.md 9: mortgages and building sales any time (classic), or during one's own turn or
    one's own debt resolution (world, where building waits for one's own turn too)."""
    if not st.rules.build_before_roll:
        return None
    if p == st.current:
        return None
    top = st.stack[-1] if st.stack else None
    if top is not None and top["k"] == "debt" and top["p"] == p:
        return None
    return "only during your own turn or while you owe a debt"


def _sell_error(st: GameState, p: int, sq: int) -> str | None:
    s = st.board.squares[sq]
    if s.kind != "street" or st.owner[sq] != p:
        return f"you do not own {s.name}" if s.kind == "street" else f"{s.name} has no buildings"
    level = st.level
    lv = level[sq]
    if not lv:
        return f"{s.name} has no buildings"
    hbh = st.rules.houses_before_hotel
    if st.rules.even_building:
        # _eff(lv) < the group's highest _eff: the raw levels compare the same way (see
        # _build_error)
        for x in st.board.group_of[sq]:
            if level[x] > lv:
                return "sell evenly: another deed of the group has more buildings"
    if lv == HOTEL and st.bank_houses is not None and st.bank_houses < hbh:
        return f"the bank has fewer than {hbh} houses to break the hotel: sell the whole group (sell_all)"
    return None


def _sell_levels(ctx: Ctx, p: int, sq: int, all_levels: bool = False) -> int:
    """Sell one level (or all of them) of ``sq`` back to the bank; returns the refund."""
    st = ctx.state
    s = st.board.squares[sq]
    lv = st.level[sq]
    hbh = ctx.rules.houses_before_hotel
    if all_levels:
        levels = _eff(st, lv)
        if lv == HOTEL:
            if st.bank_hotels is not None:
                st.bank_hotels += 1
        elif st.bank_houses is not None:
            st.bank_houses += lv
        st.level[sq] = 0
        st.board_log.append(sq)
    else:
        levels = 1
        if lv == HOTEL:
            st.level[sq] = hbh
            st.board_log.append(sq)
            if st.bank_hotels is not None:
                st.bank_hotels += 1
            if st.bank_houses is not None:
                st.bank_houses -= hbh
        else:
            st.level[sq] = lv - 1
            st.board_log.append(sq)
            if st.bank_houses is not None:
                st.bank_houses += 1
    refund = _frac(s.build_cost * levels, ctx.rules.sell_back)
    _bank_pays(ctx, p, refund)
    if ctx.events is not None:
        ctx.ev("sell", p=p, sq=sq, level=st.level[sq], refund=refund)
    return refund


def _act_sell(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _money_timing_error(st, p) or _sell_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    _sell_levels(ctx, p, sq)


def _act_sell_all(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _money_timing_error(st, p)
    s = st.board[sq]
    if err is None and (s.kind != "street" or st.owner[sq] != p):
        err = f"you do not own {s.name}"
    if err is None and not _group_has_buildings(st, sq):
        err = "the group has no buildings"
    if err:
        raise IllegalAction(err)
    for x in st.board.group_of[sq]:
        if st.level[x] and st.owner[x] == p:
            _sell_levels(ctx, p, x, all_levels=True)


# ---------------------------------------------------------------------------------------------
# Mortgages (RULES.md 9)
# ---------------------------------------------------------------------------------------------

def _mortgage_error(st: GameState, p: int, sq: int) -> str | None:
    s = st.board.squares[sq]
    if not st.board.is_deed[sq] or st.owner[sq] != p:
        return f"you do not own {s.name}"
    if st.mortgaged[sq]:
        return f"{s.name} is already mortgaged"
    if _group_has_buildings(st, sq):
        return "sell the group's buildings before mortgaging"
    return None


def _act_mortgage(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _money_timing_error(st, p) or _mortgage_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    st.mortgaged[sq] = True
    st.board_log.append(sq)
    st.mround[sq] = st.round
    amount = st.board.squares[sq].mortgage
    _bank_pays(ctx, p, amount)
    if ctx.events is not None:
        ctx.ev("mortgage", p=p, sq=sq, amount=amount)


def _transfer_frame(st: GameState, p: int, sq: int) -> int | None:
    """Index of a pending classic-transfer decision of p on sq among the frames on top."""
    for i in range(len(st.stack) - 1, -1, -1):
        f = st.stack[i]
        if f["k"] != "mortgage_transfer" or f["p"] != p:
            return None
        if f["sq"] == sq:
            return i
    return None


def _act_unmortgage(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    s = st.board.squares[sq]
    idx = _transfer_frame(st, p, sq)
    err = None if idx is not None else _money_timing_error(st, p)
    if err is None and idx is None and _in_debt(st, p):
        err = DEBT_ONLY  # RULES.md 10
    if err is None and (not st.board.is_deed[sq] or st.owner[sq] != p):
        err = f"you do not own {s.name}"
    if err is None and not st.mortgaged[sq]:
        err = f"{s.name} is not mortgaged"
    cost = unmortgage_cost(st, sq)
    if err is None and st.players[p].cash < cost:
        err = f"not enough cash: lifting the mortgage costs {cost}"
    if err:
        raise IllegalAction(err)
    if idx is not None:
        st.stack.pop(idx)
    _pay_bank(ctx, p, cost)
    st.mortgaged[sq] = False
    st.board_log.append(sq)
    st.mround[sq] = None
    ctx.ev("unmortgage", p=p, sq=sq, amount=cost)


def _act_keep_mortgaged(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    idx = _transfer_frame(st, p, sq)
    if idx is None:
        raise IllegalAction("there is no transferred mortgage of yours to decide on that square")
    st.stack.pop(idx)
    fee = transfer_fee(st, sq)
    ctx.ev("keep_mortgaged", p=p, sq=sq, amount=fee)
    _charge(ctx, p, BANK, fee, "transfer fee")


def _act_auction_own(ctx: Ctx, p: int, a: dict) -> None:
    """RULES.md 11, duel: the owner auctions a mortgaged deed of theirs; others bid."""
    st = ctx.state
    sq = _square_param(a)
    s = st.board[sq]
    if not ctx.rules.auction_own:
        raise IllegalAction("this rule set does not allow auctioning your own deeds")
    if p != st.current or st.stack:
        raise IllegalAction("you may auction a deed of yours only in your own turn, with nothing pending")
    if not s.is_deed or st.owner[sq] != p:
        raise IllegalAction(f"you do not own {s.name}")
    if not st.mortgaged[sq]:
        raise IllegalAction(f"{s.name} is not mortgaged")
    _start_auction(ctx, "own", sq, style="rotating", opening=s.price, start=p, include_start=False,
                   exclude=p, seller=p)


# ---------------------------------------------------------------------------------------------
# Trades (RULES.md 9, 11)
# ---------------------------------------------------------------------------------------------

_SIDE_KEYS = frozenset({"cash", "squares", "cards"})


def _not_int(v: Any) -> bool:
    """Not a whole number (a bool is not one); callers test ``type(v) is int`` first, cheaper."""
    return isinstance(v, bool) or not isinstance(v, int)


def _parse_side(st: GameState, side: Any, who: str) -> dict:
    # (The bots propose often: ``type(x) is int`` settles the common case of each number check,
    # and plain loops replace set differences and any() over generators.)
    if side is None:
        side = {}
    if not isinstance(side, dict):
        raise IllegalAction(f"'{who}' must be a mapping with cash, squares and cards")
    if not _SIDE_KEYS.issuperset(side):
        unknown = set(side) - _SIDE_KEYS
        raise IllegalAction(f"'{who}' has unknown keys: {', '.join(sorted(unknown))}")
    cash = side.get("cash", 0) or 0
    squares = side.get("squares", []) or []
    cards = side.get("cards", 0) or 0
    if (type(cash) is not int and _not_int(cash)) or cash < 0:
        raise IllegalAction(f"'{who}.cash' must be a whole number >= 0")
    if not isinstance(squares, list):
        raise IllegalAction(f"'{who}.squares' must be a list of squares 0-39")
    for x in squares:
        if (type(x) is not int and _not_int(x)) or not 0 <= x < 40:
            raise IllegalAction(f"'{who}.squares' must be a list of squares 0-39")
    if len(set(squares)) != len(squares):
        raise IllegalAction(f"'{who}.squares' lists a square twice")
    if isinstance(cards, list):
        cards = len(cards)
    if (type(cards) is not int and _not_int(cards)) or cards < 0:
        raise IllegalAction(f"'{who}.cards' must be a number of jail cards")
    return {"cash": cash, "squares": sorted(squares), "cards": cards}


def _trade_side_error(st: GameState, giver: int, side: dict, mates: bool) -> str | None:
    pl = st.players[giver]
    board = st.board
    level = st.level
    for sq in side["squares"]:
        s = board.squares[sq]
        if not board.is_deed[sq]:
            return f"{s.name} is not a deed"
        if st.owner[sq] != giver:
            return f"{pl.name} does not own {s.name}"
        for x in board.group_of[sq]:  # (_group_has_buildings inline)
            if level[x]:
                return f"{s.name}'s group has buildings: sell them before trading its deeds"
        if st.mortgaged[sq]:
            tm = st.rules.trade_mortgaged
            if tm == "no" or (tm == "teammates" and not mates):
                return f"{s.name} is mortgaged and mortgaged deeds cannot be traded here"
    if side["cash"] > pl.cash:
        return f"{pl.name} has only {pl.cash} in cash"
    if side["cards"] > len(pl.jail_cards):
        return f"{pl.name} holds only {len(pl.jail_cards)} jail card(s)"
    return None


def _side_value(st: GameState, side: dict) -> int:
    return side["cash"] + sum(st.board.price[sq] for sq in side["squares"]) + JAIL_CARD_VALUE * side["cards"]


def _trade_error(st: GameState, t: dict) -> str | None:
    a, b = t["from"], t["to"]
    mates = st.teammates(a, b)
    err = _trade_side_error(st, a, t["give"], mates) or _trade_side_error(st, b, t["take"], mates)
    if err:
        return err
    if st.rules.trade_balance and not mates:
        # RULES.md 9, world balance: the larger side may be at most twice the smaller.
        va, vb = _side_value(st, t["give"]), _side_value(st, t["take"])
        if max(va, vb) > 2 * min(va, vb):
            return f"unbalanced trade: {va} against {vb} (the larger side may be at most twice the smaller)"
    return None


def _trade_window_error(st: GameState, p: int) -> str | None:
    top = st.stack[-1] if st.stack else None
    if top is not None and top["k"] == "trade_response":
        return "a trade offer is already waiting for an answer"
    if top is not None and top["k"] == "mortgage_transfer":
        # RULES.md 9: the receiver decides "at once"; a trade in between could move the deed
        # away and leave the decision about a deed its holder no longer owns.
        return "a transferred mortgage must be decided first"
    rules = st.rules
    if rules.trade_windows == "own_turn":
        # RULES.md 9: before rolling, while deciding a purchase, while a rent or tax payment is
        # pending, or during one's own debt resolution.
        if p != st.current:
            return "only the player whose turn it is may propose trades"
        if top is None:
            if st.phase != "roll":
                return "trades are proposed before rolling"
        elif not (top["k"] in ("buy", "income_tax", "debt") and top["p"] == p):
            return "trades can't be proposed now"
    if rules.trades_per_turn is not None and st.turn["proposals"] >= rules.trades_per_turn:
        return f"at most {rules.trades_per_turn} trade proposals per turn"
    return None


def _act_propose(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    to = a.get("to")
    if (type(to) is not int and _not_int(to)) or not 0 <= to < len(st.players):
        raise IllegalAction("'to' must name another player")
    if to == p or st.players[to].bankrupt:
        raise IllegalAction("trades are with another player still in the game")
    err = _trade_window_error(st, p)
    if err:
        raise IllegalAction(err)
    give = _parse_side(st, a.get("give"), "give")
    take = _parse_side(st, a.get("take"), "take")
    if not (give["cash"] or give["squares"] or give["cards"] or take["cash"] or take["squares"] or take["cards"]):
        raise IllegalAction("an empty trade")
    t = {"id": st.next_trade, "from": p, "to": to, "give": give, "take": take}
    err = _trade_error(st, t)
    if err:
        raise IllegalAction(err)
    st.next_trade += 1
    st.trades[str(t["id"])] = t
    st.turn["proposals"] += 1
    st.proposed[p][to] = st.round
    st.stack.append({"k": "trade_response", "p": to, "trade": t["id"]})
    if ctx.events is not None:
        ctx.ev("trade_proposed", p=p, to=to, trade=t["id"], give=give, take=take)


def _trade_frame(st: GameState, a: dict) -> tuple[dict, dict]:
    tid = a.get("trade")
    top = st.stack[-1] if st.stack else None
    if top is None or top["k"] != "trade_response":
        raise IllegalAction("no trade offer is waiting for an answer")
    if tid is not None and tid != top["trade"]:
        raise IllegalAction(f"trade {tid} is not the offer waiting for an answer")
    return top, st.trades[str(top["trade"])]


def _act_accept(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _top, t = _trade_frame(st, a)
    if t["to"] != p:
        raise IllegalAction("only the player the offer is made to may accept it")
    err = _trade_error(st, t)  # RULES.md 9: checked again when accepted
    if err:
        raise IllegalAction(f"the trade is no longer possible: {err}")
    st.stack.pop()
    del st.trades[str(t["id"])]
    a_, b_ = t["from"], t["to"]
    transfers = []
    for giver, receiver, side in ((a_, b_, t["give"]), (b_, a_, t["take"])):
        gp, rp = st.players[giver], st.players[receiver]
        gp.cash -= side["cash"]
        rp.cash += side["cash"]
        for _ in range(side["cards"]):
            rp.jail_cards.append(gp.jail_cards.pop(0))
        for sq in side["squares"]:
            st.owner[sq] = receiver
            st.board_log.append(sq)
            if st.mortgaged[sq] and st.rules.trade_mortgaged == "yes":
                transfers.append({"k": "mortgage_transfer", "p": receiver, "sq": sq})
    if ctx.events is not None:
        ctx.ev("trade_accepted", trade=t["id"], p=p)
    for f in reversed(transfers):
        st.stack.append(f)


def _act_reject(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _top, t = _trade_frame(st, a)
    if t["to"] != p:
        raise IllegalAction("only the player the offer is made to may reject it")
    st.stack.pop()
    _remember_rejection(st, st.trades.pop(str(t["id"])))
    ctx.ev("trade_rejected", trade=t["id"], p=p)


def _no_better_for_receiver(t: dict, than: dict) -> bool:
    """Trade t offers its receiver nothing more than ``than`` (between the same two players):
    no more cash, cards or deeds given, no less of each asked for."""
    g, tg = t["give"], than["give"]
    k, tk = t["take"], than["take"]
    return (
        g["cash"] <= tg["cash"] and g["cards"] <= tg["cards"] and set(g["squares"]) <= set(tg["squares"])
        and k["cash"] >= tk["cash"] and k["cards"] >= tk["cards"] and set(k["squares"]) >= set(tk["squares"])
    )


def _remember_rejection(st: GameState, t: dict) -> None:
    # An offer the new one covers (no better for the receiver) says nothing more: dropped, so the
    # record stays as short as the offers that matter.
    a, b = t["from"], t["to"]
    st.rejected = [
        r for r in st.rejected if not (r["from"] == a and r["to"] == b and _no_better_for_receiver(r, t))
    ]
    st.rejected.append({"from": a, "to": b, "give": t["give"], "take": t["take"], "round": st.round})


def offer_refused(st: GameState, p: int, to: int, give: dict, take: dict) -> bool:
    """``to`` already rejected an offer from p at least as good for ``to`` as this one (give and
    take as in a proposal, with all three keys)."""
    t = {"give": give, "take": take}
    return any(r["from"] == p and r["to"] == to and _no_better_for_receiver(t, r) for r in st.rejected)


def last_proposal_round(st: GameState, p: int, to: int) -> int:
    """The round of p's last trade proposal to ``to`` (0: none yet)."""
    return st.proposed[p][to]


def _act_cancel(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _top, t = _trade_frame(st, a)
    if t["from"] != p:
        raise IllegalAction("only the proposer may cancel an offer")
    st.stack.pop()
    del st.trades[str(t["id"])]
    ctx.ev("trade_cancelled", trade=t["id"], p=p)


# ---------------------------------------------------------------------------------------------
# The turn's own actions
# ---------------------------------------------------------------------------------------------

def _require_turn(st: GameState, p: int, phase: str) -> None:
    if p != st.current:
        raise IllegalAction(f"it is {st.players[st.current].name}'s turn")
    if st.stack:
        raise IllegalAction(f"the game is waiting for a {st.pending().replace('_', ' ')} decision first")
    if st.phase != phase:
        raise IllegalAction("you have already rolled: end your turn" if phase == "roll" else "roll first")


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
    if ctx.events is not None:  # (hot path: skip building the record's fields)
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
    # (_advance inline: the roll's move)
    new = pl.pos + steps
    if new >= 40:
        new -= 40
        _pass_start(ctx, p, new)
    pl.pos = new
    if ctx.events is not None:
        ctx.ev("move", p=p, to=new)
    # Nothing is stacked (a roll needs an empty stack): resolve the square now, as _run would
    # at once; skipping the land frame matters on this, the most common action.
    _land(ctx, p, None)


def _jail_precheck(st: GameState, p: int) -> None:
    _require_turn(st, p, "roll")
    if not st.players[p].in_jail:
        raise IllegalAction("you are not in jail")
    if st.turn["rolled"]:
        raise IllegalAction("jail can be left this way only at the start of the turn")


def _act_pay_fine(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _jail_precheck(st, p)
    fine = ctx.rules.jail_fine
    if st.players[p].cash < fine:
        raise IllegalAction(f"not enough cash for the {fine} fine")
    _pay_bank(ctx, p, fine, pot=True)
    pl = st.players[p]
    pl.in_jail = False
    pl.jail_turns = 0
    ctx.ev("leave_jail", p=p, how="fine", amount=fine)


def _act_use_card(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _jail_precheck(st, p)
    pl = st.players[p]
    if not pl.jail_cards:
        raise IllegalAction("you hold no jail card")
    cid = pl.jail_cards.pop(0)
    _return_jail_card(st, cid)
    pl.in_jail = False
    pl.jail_turns = 0
    ctx.ev("leave_jail", p=p, how="card", card=cid)


def _decision(st: GameState, p: int, kind: str) -> dict:
    top = st.stack[-1] if st.stack else None
    if top is None or top["k"] != kind:
        raise IllegalAction(f"there is no {kind.replace('_', ' ')} decision pending")
    if top["p"] != p:
        raise IllegalAction(f"the {kind.replace('_', ' ')} decision is {st.players[top['p']].name}'s")
    return top


def _act_buy(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    f = _decision(st, p, "buy")
    price = st.board.price[f["sq"]]
    if st.players[p].cash < price:
        raise IllegalAction(f"not enough cash: the price is {price}")
    st.stack.pop()
    st.players[p].cash -= price  # (_pay_bank inline)
    st.bank += price
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


def _act_income_tax(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "income_tax")
    choice = a.get("choice")
    if choice not in ("flat", "percent"):
        raise IllegalAction("choice must be 'flat' or 'percent'")
    st.stack.pop()
    _pay_income_tax(ctx, p, choice)


def _pay_income_tax(ctx: Ctx, p: int, choice: str) -> None:
    amount = ctx.rules.income_tax if choice == "flat" else _ceil_div(tax_worth(ctx.state, p), 10)
    ctx.ev("income_tax", p=p, choice=choice, amount=amount)
    _charge(ctx, p, BANK, amount, "tax", pot=True)


def _act_casino(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "casino")
    numbers = a.get("numbers")
    if (not isinstance(numbers, list) or not 1 <= len(numbers) <= 3 or len(set(numbers)) != len(numbers)
            or any(isinstance(x, bool) or x not in (1, 2, 3, 4, 5, 6) for x in numbers)):
        raise IllegalAction("stake on 1 to 3 different numbers from 1 to 6")
    if st.players[p].cash < CASINO_STAKE:
        raise IllegalAction(f"the stake is {CASINO_STAKE}")
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


def _act_bus(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    f = _decision(st, p, "bus")
    choice = a.get("choice")
    d1, d2 = f["dice"]
    steps = {"first": d1, "second": d2, "sum": d1 + d2}.get(choice)
    if steps is None:
        raise IllegalAction("choice must be 'first', 'second' or 'sum'")
    st.stack.pop()
    ctx.ev("bus", p=p, choice=choice)
    _advance(ctx, p, steps)
    _land(ctx, p, None)


def _act_teleport(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "teleport")
    sq = _square_param(a)
    st.stack.pop()
    _teleport(ctx, p, sq)


def _teleport(ctx: Ctx, p: int, sq: int) -> None:
    ctx.ev("teleport", p=p, sq=sq)
    steps = (sq - ctx.state.players[p].pos) % 40
    if steps:
        _advance(ctx, p, steps)
    _land(ctx, p, None)


def _act_destroy(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    _decision(st, p, "destroy")
    sq = _square_param(a)
    if sq not in _destroy_targets(st, p):
        raise IllegalAction("pick an opponent's property with buildings")
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
    _bankrupt(ctx, p, creditor)


# ---------------------------------------------------------------------------------------------
# Timeouts (RULES.md 11)
# ---------------------------------------------------------------------------------------------

def waiting_on(st: GameState) -> list[int]:
    """The players the game waits on now (an open auction waits on every bidder who may pass)."""
    if st.over:
        return []
    if not st.stack:
        return [st.current]
    f = st.stack[-1]
    if f["k"] == "auction":
        if f["stage"] == "place":
            return [f["winner"]]
        if f["style"] == "rotating":
            return [auction_askee(f)]
        # (the play loop asks after every bid and pass: a plain loop, cheaper than a comprehension)
        passed = f["passed"]
        leader = f["leader"]
        out = []
        for b in f["bidders"]:
            if b != leader and b not in passed:
                out.append(b)
        return out
    return [f["p"]]


def _act_timeout(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    if p not in waiting_on(st):
        raise IllegalAction("the game is not waiting for this player")
    pl = st.players[p]
    timed = st.turn["timed_out"]
    if p not in timed:
        timed.append(p)
        pl.missed += 1
        ctx.ev("missed", p=p, count=pl.missed)
        if pl.missed >= ctx.rules.missed_turns_limit:
            # RULES.md 11: the third miss in a row is bankruptcy to the bank.
            _bankrupt(ctx, p, BANK)
            return
    f = st.stack[-1] if st.stack else None
    ctx.ev("timeout", p=p, decision=st.pending())
    if f is None:
        if st.phase == "roll":
            _act_roll(ctx, p, a)  # (its checks pass: p is the current player, nothing is stacked)
        else:
            _next_turn(ctx)
        return
    k = f["k"]
    if k == "buy":
        st.stack.pop()
        _decline(ctx, p, f["sq"])
    elif k == "auction":
        if f["stage"] == "place":
            sq = _placements(st, p, f["building"])[0]
            _place_building(ctx, p, sq)
            f["stage"] = "done"
        else:
            _do_pass(ctx, f, p)
    elif k == "debt":
        _auto_raise(ctx, p, f["amt"])
        if st.players[p].cash < f["amt"]:
            st.stack.pop()
            _bankrupt(ctx, p, f["to"])
    elif k == "casino":
        st.stack.pop()
        ctx.ev("casino_skip", p=p)
    elif k == "income_tax":
        st.stack.pop()
        _pay_income_tax(ctx, p, "flat")
    elif k == "bus":
        st.stack.pop()
        d1, d2 = f["dice"]
        _advance(ctx, p, d1 + d2)
        _land(ctx, p, None)
    elif k == "teleport":
        st.stack.pop()
        _teleport(ctx, p, f["default"])
    elif k == "destroy":
        st.stack.pop()
        _destroy(ctx, p, _destroy_targets(st, p)[0])
    elif k == "mortgage_transfer":
        st.stack.pop()
        fee = transfer_fee(st, f["sq"])
        ctx.ev("keep_mortgaged", p=p, sq=f["sq"], amount=fee)
        _charge(ctx, p, BANK, fee, "transfer fee")
    elif k == "trade_response":
        st.stack.pop()
        _remember_rejection(st, st.trades.pop(str(f["trade"])))
        ctx.ev("trade_rejected", trade=f["trade"], p=p)


def _auto_raise(ctx: Ctx, p: int, amount: int) -> None:
    """Raise cash by mortgaging deeds without buildings first (cheapest first), then selling
    buildings evenly (the highest level first) and mortgaging what they stood on."""
    st = ctx.state
    board = st.board
    pl = st.players[p]

    def mortgage_free() -> None:
        for sq in sorted((s for s in board.deeds if st.owner[s] == p), key=lambda s: board.price[s]):
            if pl.cash >= amount:
                return
            if not st.mortgaged[sq] and not _group_has_buildings(st, sq):
                st.mortgaged[sq] = True
                st.board_log.append(sq)
                st.mround[sq] = st.round
                _bank_pays(ctx, p, board[sq].mortgage)
                ctx.ev("mortgage", p=p, sq=sq, amount=board[sq].mortgage)

    mortgage_free()
    while pl.cash < amount:
        built = [sq for sq in board.streets if st.owner[sq] == p and st.level[sq]]
        if not built:
            break
        sq = max(built, key=lambda s: (_eff(st, st.level[s]), board[s].build_cost))
        if _sell_error(st, p, sq) is None:
            _sell_levels(ctx, p, sq)
        else:
            for x in board.group_of[sq]:
                if st.level[x]:
                    _sell_levels(ctx, p, x, all_levels=True)
    mortgage_free()


# ---------------------------------------------------------------------------------------------
# apply / legal_actions
# ---------------------------------------------------------------------------------------------

def _int_param(a: dict, key: str) -> int:
    v = a.get(key)
    if type(v) is int:  # the common case in one test (bool is a subclass of int, not int)
        return v
    if isinstance(v, bool) or not isinstance(v, int):
        raise IllegalAction(f"'{key}' must be a whole number")
    return v


def _square_param(a: dict) -> int:
    sq = a.get("square")
    if type(sq) is int and 0 <= sq < 40:  # the common case, without the _int_param call
        return sq
    sq = _int_param(a, "square")
    if not 0 <= sq < 40:
        raise IllegalAction("'square' must be 0-39")
    return sq


_HANDLERS = {
    "roll": _act_roll, "end_turn": _next_turn, "buy": _act_buy, "decline": _act_decline,
    "bid": _act_bid, "pass": _act_pass, "pay_fine": _act_pay_fine, "use_card": _act_use_card,
    "build": _act_build, "sell": _act_sell, "sell_all": _act_sell_all, "mortgage": _act_mortgage,
    "unmortgage": _act_unmortgage, "keep_mortgaged": _act_keep_mortgaged, "propose": _act_propose,
    "accept": _act_accept, "reject": _act_reject, "cancel": _act_cancel, "surrender": _act_surrender,
    "income_tax": _act_income_tax, "casino": _act_casino, "casino_skip": _act_casino_skip,
    "bus": _act_bus, "teleport": _act_teleport, "destroy": _act_destroy, "auction_own": _act_auction_own,
    "timeout": _act_timeout,
}
ACTION_TYPES = tuple(_HANDLERS)


def apply(state: GameState, action: dict, rng=None, events: bool = True) -> tuple[GameState, list]:
    """Apply one action. Raises IllegalAction (state untouched) if it is not legal now."""
    # The common case in a few cheap steps (a plain dict naming a known action and a seat still
    # playing, a state with its working context); anything else, well-formed or not, goes
    # through _checked, whose checks (and messages) come in their documented order.
    try:
        handler = _HANDLERS[action["type"]]
        p = action["player"]
        ok = type(action) is dict and type(p) is int and p >= 0 and not state.players[p].bankrupt
        ctx = state._ctx
    except Exception:
        ok = False
    if not ok or state.over:
        handler, p, ctx = _checked(state, action)
    ctx.rng = rng if rng is not None else ctx.own_rng
    ctx.events = [] if events else None
    ctx.rules = state.rules
    ctx.board = state.board
    handler(ctx, p, action)
    stack = state.stack
    if stack and stack[-1]["k"] not in _WAITING:  # (a buy or trade decision on top: nothing to run)
        _run(ctx)
    state.seq += 1
    return state, ctx.events if events else []


def stepper(state: GameState, events: bool = False):
    """``apply`` bound to one state, for a play loop: ``step(action)`` does what
    ``apply(state, action, None, events)`` does (the same checks, the same IllegalAction with
    the state untouched) and returns the events (None with ``events`` false).

    It sets up its working context once, not on every action, so the caller must not swap the
    state's rule set or board while it uses the stepper. (``apply`` calls on the same state in
    between are fine: the stepper's context is its own.) simulate.play_game has its body inline:
    keep the two, and apply's fast path, alike."""
    ctx = Ctx(state, None, None)  # (rng: the game's own generator; rules and board: the state's)

    def step(action):
        # apply's fast path and checks, without the per-call context set-up
        try:
            handler = _HANDLERS[action["type"]]
            p = action["player"]
            ok = type(action) is dict and type(p) is int and p >= 0 and not state.players[p].bankrupt
        except Exception:
            ok = False
        if not ok or state.over:
            handler, p, _ = _checked(state, action)
        if events:
            ctx.events = []
        handler(ctx, p, action)
        stack = state.stack
        if stack and stack[-1]["k"] not in _WAITING:
            _run(ctx)
        state.seq += 1
        return ctx.events

    return step


def _checked(state: GameState, action: Any) -> tuple[Any, int, Ctx]:
    """apply's checks of the action and the seat: raises IllegalAction, or returns the handler,
    the seat and the state's working context (made on the first call)."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a mapping with 'type' and 'player'")
    kind = action.get("type")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"unknown action {kind!r}")
    p = action.get("player")
    # ``type(p) is int`` settles the common case in one cheap test (and excludes bool).
    if (type(p) is not int and (isinstance(p, bool) or not isinstance(p, int))) or not 0 <= p < len(state.players):
        raise IllegalAction("'player' must be a seat number of this game")
    if state.over:
        raise IllegalAction("the game is over")
    if state.players[p].bankrupt:
        raise IllegalAction(f"{state.players[p].name} is out of the game")
    # One Ctx (and one generator over the state) per state, reused by every call: building
    # them afresh cost about a tenth of an average action. Rules and board are read again (in
    # apply) as a caller may swap the rule set between actions.
    try:
        ctx = state._ctx
    except AttributeError:
        ctx = state._ctx = Ctx(state, None, None)
    return handler, p, ctx


def legal_actions(state: GameState, p: int) -> list[dict]:
    """Every action ``p`` may take now. Actions with a free parameter come as templates:
    ``bid`` carries ``min``/``max``, ``casino`` stands for any 1-3 numbers, ``propose`` for any
    valid trade. ``timeout`` is not listed: it is the site's (or a scenario's) to apply."""
    st = state
    if st.over or not 0 <= p < len(st.players) or st.players[p].bankrupt:
        return []
    out: list[dict] = []
    pl = st.players[p]
    top = st.stack[-1] if st.stack else None
    if top is None:
        if p == st.current:
            if st.phase == "roll":
                out.append({"type": "roll", "player": p})
                if pl.in_jail and not st.turn["rolled"]:
                    if pl.cash >= st.rules.jail_fine:
                        out.append({"type": "pay_fine", "player": p})
                    if pl.jail_cards:
                        out.append({"type": "use_card", "player": p})
            else:
                out.append({"type": "end_turn", "player": p})
    else:
        k = top["k"]
        if k == "auction":
            if top["stage"] == "place":
                if top["winner"] == p:
                    out.extend({"type": "build", "player": p, "square": sq}
                               for sq in _placements(st, p, top["building"]))
            elif p in waiting_on(st):
                low = auction_min_bid(top)
                if pl.cash >= low:
                    out.append({"type": "bid", "player": p, "min": low, "max": pl.cash})
                out.append({"type": "pass", "player": p})
        elif k == "trade_response":
            t = st.trades[str(top["trade"])]
            if t["to"] == p:
                if _trade_error(st, t) is None:
                    out.append({"type": "accept", "player": p, "trade": t["id"]})
                out.append({"type": "reject", "player": p, "trade": t["id"]})
            elif t["from"] == p:
                out.append({"type": "cancel", "player": p, "trade": t["id"]})
        elif top.get("p") == p:
            if k == "buy":
                if pl.cash >= st.board.price[top["sq"]]:
                    out.append({"type": "buy", "player": p})
                out.append({"type": "decline", "player": p})
            elif k == "casino":
                if pl.cash >= CASINO_STAKE:
                    out.append({"type": "casino", "player": p})
                out.append({"type": "casino_skip", "player": p})
            elif k == "income_tax":
                out.append({"type": "income_tax", "player": p, "choice": "flat"})
                out.append({"type": "income_tax", "player": p, "choice": "percent"})
            elif k == "bus":
                out.extend({"type": "bus", "player": p, "choice": c} for c in ("first", "second", "sum"))
            elif k == "teleport":
                out.extend({"type": "teleport", "player": p, "square": sq} for sq in range(40))
            elif k == "destroy":
                out.extend({"type": "destroy", "player": p, "square": sq} for sq in _destroy_targets(st, p))
            elif k == "mortgage_transfer":
                for i in range(len(st.stack) - 1, -1, -1):
                    f = st.stack[i]
                    if f["k"] != "mortgage_transfer" or f["p"] != p:
                        break
                    if pl.cash >= unmortgage_cost(st, f["sq"]):
                        out.append({"type": "unmortgage", "player": p, "square": f["sq"]})
                    out.append({"type": "keep_mortgaged", "player": p, "square": f["sq"]})
    out.extend(_free_actions(st, p, top))
    return out


def _free_actions(st: GameState, p: int, top: dict | None) -> list[dict]:
    """Building, mortgages and trades, allowed around the pending decision by the rule set."""
    out: list[dict] = []
    board = st.board
    owner, level = st.owner, st.level
    owned = [sq for sq in board.deeds if owner[sq] == p]
    in_transfer = top is not None and top["k"] == "mortgage_transfer" and top["p"] == p
    if owned and not in_transfer:
        build_ok = _build_timing_error(st, p) is None
        money_ok = _money_timing_error(st, p) is None
        lift_ok = not (st.stack and _in_debt(st, p))
        seen_groups = set()
        # Only a player holding the whole group may build on it (RULES.md 8): whether p does is
        # worked out once per group, and the full check runs only for those deeds.
        whole: dict[tuple, bool] = {}
        for sq in owned:
            group = board.group_of[sq]
            if build_ok:
                held = whole.get(group)
                if held is None:
                    held = whole[group] = all(owner[x] == p for x in group)
                if held and _build_error(st, p, sq) is None:
                    out.append({"type": "build", "player": p, "square": sq})
            if not money_ok:
                continue
            if level[sq]:
                if _sell_error(st, p, sq) is None:
                    out.append({"type": "sell", "player": p, "square": sq})
                g = board[sq].group
                if g not in seen_groups:
                    seen_groups.add(g)
                    out.append({"type": "sell_all", "player": p, "square": sq})
            elif st.mortgaged[sq]:
                if lift_ok and st.players[p].cash >= unmortgage_cost(st, sq):
                    out.append({"type": "unmortgage", "player": p, "square": sq})
                if st.rules.auction_own and p == st.current and not st.stack:
                    out.append({"type": "auction_own", "player": p, "square": sq})
            elif not any(level[x] for x in group):
                out.append({"type": "mortgage", "player": p, "square": sq})
    if _trade_window_error(st, p) is None and len(st.active()) > 1:
        out.append({"type": "propose", "player": p})
    out.append({"type": "surrender", "player": p})
    return out
