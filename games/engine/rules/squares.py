"""Movement and squares (RULES.md 3-7, 11): passing and landing on the start, what each square
does on landing (rent, taxes, Free Parking, jail, the casino, the bus), the luck cards.
"""

from __future__ import annotations

from ..cards import JAIL_CARDS, card_deck, card_effect
from ..state import BANK, NO_OWNER, GameState
from .context import Ctx, _ceil_div, _schedule
from .money import _bank_pays, _charge
from .queries import building_counts, rent_of, rent_tax_rate, salary_active


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
            if ctx.events is not None:
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
    s = board.squares[pos]
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
        if st.teammates(p, owner):
            ctx.ev("no_rent", p=p, sq=pos, why="teammate")
            return
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
