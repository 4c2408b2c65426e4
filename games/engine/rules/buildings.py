"""Buildings (RULES.md 8): when and where a player may build or sell, the building supply, and
the shortage auctions it starts (``auctions`` runs them). Also when money may be raised at
all (``_money_timing_error``), which mortgages share.
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..refusals import Refusal
from ..state import HOTEL, GameState
from .context import Ctx, _square_param
from .money import _bank_pays, _pay_bank
from .queries import _eff, _group_has_buildings, sell_back


def _in_debt(st: GameState, p: int) -> bool:
    return any(f["k"] == "debt" and f["p"] == p for f in st.stack)


DEBT_ONLY = Refusal("debt_only")


def _transfer_error(st: GameState, p: int) -> Refusal | None:
    """RULES.md 9, classic transfer: the receiver of a mortgaged deed decides on it "at once"
    (lift it or keep it), so until then they may not build, sell, mortgage or lift other
    mortgages (nor trade: ``_trade_window_error``); legal_actions lists only the decision."""
    stack = st.stack
    if stack and stack[-1]["k"] == "mortgage_transfer" and stack[-1]["p"] == p:
        return Refusal("transfer_first")
    return None


def _build_timing_error(st: GameState, p: int) -> Refusal | None:
    if st.stack:
        err = _transfer_error(st, p)
        if err:
            return err
        if _in_debt(st, p):
            # RULES.md 10: the debtor raises money; spending it on buildings would deepen the
            # debt.
            return DEBT_ONLY
    if st.rules.build_before_roll:
        if p != st.current or st.stack or st.phase != "roll":
            return Refusal("build_before_roll")
    else:
        for f in st.stack:
            if f["k"] == "auction" and f["what"] == "building":
                return Refusal("building_auction_under_way")
    return None


def _build_error(st: GameState, p: int, sq: int, free: bool = False, building: str | None = None) -> Refusal | None:
    # (Hot for the bots too: plain loops over the group, checks in the order of the messages.)
    board = st.board
    s = board.squares[sq]
    if s.kind != "street":
        return Refusal("cannot_build_here", square=s.name)
    if st.owner[sq] != p:
        return Refusal("not_owner", square=s.name)
    group = board.group_of[sq]
    owner = st.owner
    mortgaged = st.mortgaged
    pledged = False
    for x in group:  # (one walk: an unowned deed is reported before a mortgaged one)
        if owner[x] != p:
            return Refusal("group_incomplete")
        if mortgaged[x]:
            pledged = True
    if pledged:
        return Refusal("group_mortgaged")
    level = st.level
    lv = level[sq]
    if lv == HOTEL:
        return Refusal("top_level", square=s.name)
    rules = st.rules
    hbh = rules.houses_before_hotel
    hotel = lv >= hbh
    if building is not None and (building == "hotel") != hotel:
        return Refusal("needs_hotel" if hotel else "needs_house", square=s.name)
    if hotel:
        for x in group:
            if level[x] < hbh:
                return Refusal("hotel_needs_houses", n=hbh)
        # (then no deed of the group has fewer buildings: the even-building check passes)
    elif rules.even_building:
        # _eff(lv) > the group's lowest _eff. _eff keeps the order of the levels (a hotel, level
        # HOTEL, is above every house count, and counts one above the most houses), so the raw
        # levels compare the same way.
        for x in group:
            if level[x] < lv:
                return Refusal("build_evenly")
    if not free:
        limit = rules.builds_per_turn
        if limit is not None and st.turn["builds"].get(s.group, 0) >= limit:
            return Refusal("build_limit", n=limit)
        if hotel and st.bank_hotels == 0:
            return Refusal("no_hotels_left")
        if not hotel and st.bank_houses == 0:
            return Refusal("no_houses_left")
        if st.players[p].cash < s.build_cost:
            return Refusal("building_unaffordable", cost=s.build_cost)
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
            raise IllegalAction("building_being_placed")
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
            # Started by the run loop at once (core's ``building_auction`` task: auctions sit
            # above this module, as a building auction places through it).
            st.stack.append({"k": "building_auction", "p": p, "sq": sq, "building": building,
                             "able": sorted(able)})
            return
    cost = st.board.squares[sq].build_cost
    _pay_bank(ctx, p, cost)
    _place_building(ctx, p, sq)


def _money_timing_error(st: GameState, p: int) -> Refusal | None:
    """RULES.md 9: mortgages and building sales any time (classic), or during one's own turn or
    one's own debt resolution (world, where building waits for one's own turn too); never
    while one's own transferred mortgage waits for its decision (``_transfer_error``)."""
    if st.stack:
        err = _transfer_error(st, p)
        if err:
            return err
    if not st.rules.build_before_roll:
        return None
    if p == st.current:
        return None
    top = st.stack[-1] if st.stack else None
    if top is not None and top["k"] == "debt" and top["p"] == p:
        return None
    return Refusal("money_timing")


def _sell_error(st: GameState, p: int, sq: int) -> Refusal | None:
    s = st.board.squares[sq]
    if s.kind != "street" or st.owner[sq] != p:
        return Refusal("not_owner" if s.kind == "street" else "no_buildings", square=s.name)
    level = st.level
    lv = level[sq]
    if not lv:
        return Refusal("no_buildings", square=s.name)
    hbh = st.rules.houses_before_hotel
    if st.rules.even_building:
        # _eff(lv) < the group's highest _eff: the raw levels compare the same way (see
        # _build_error)
        for x in st.board.group_of[sq]:
            if level[x] > lv:
                return Refusal("sell_evenly")
    if lv == HOTEL and st.bank_houses is not None and st.bank_houses < hbh:
        return Refusal("hotel_break_short", n=hbh)
    return None


def _sell_levels(ctx: Ctx, p: int, sq: int, all_levels: bool = False) -> int:
    """Sell one level (or all of them) of ``sq`` back to the bank; returns the refund."""
    st = ctx.state
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
    refund = sell_back(st, sq, levels)
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


def _sell_all_error(st: GameState, p: int, sq: int) -> Refusal | None:
    """Selling every building of sq's group at once (RULES.md 8: always even)."""
    err = _money_timing_error(st, p)
    s = st.board[sq]
    if err is None and (s.kind != "street" or st.owner[sq] != p):
        err = Refusal("not_owner", square=s.name)
    if err is None and not _group_has_buildings(st, sq):
        err = Refusal("group_has_no_buildings")
    return err


def _act_sell_all(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _sell_all_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    for x in st.board.group_of[sq]:
        if st.level[x] and st.owner[x] == p:
            _sell_levels(ctx, p, x, all_levels=True)
