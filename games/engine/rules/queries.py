"""Read-only questions about a position, asked by the rules, the bots and the site: rents
(RULES.md 4, 11), what lifting a mortgage or taking over a mortgaged deed costs (9), what a
player is worth (10, 12), and the dynamic economy's state (11).
"""

from __future__ import annotations

from ..state import HOTEL, GameState
from .context import _ceil_div, _frac


def street_rent(rents: tuple[int, ...], level: int, whole_group: bool) -> int:
    """A street's rent at a building level (a hotel's level, HOTEL == 5, indexes its rent too)
    from its printed rents. RULES.md 2 and 14: owning the whole colour group doubles the
    unimproved rent, even when another street of the group is mortgaged. The one home of that
    rule: ``rent_of`` (and so landing) and the bots' tables ask it."""
    if level:
        return rents[level]
    return 2 * rents[0] if whole_group else rents[0]


def street_rents(rents: tuple[int, ...], whole_group: bool) -> tuple[int, ...]:
    """``street_rent`` at every level, for tables."""
    return tuple(street_rent(rents, level, whole_group) for level in range(len(rents)))


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
    if st.rules.unmortgage == "mortgage_plus_10":
        mv = st.board.squares[sq].mortgage
        return mv + _ceil_div(mv, 10)
    return _ceil_div(6 * st.board.price[sq], 10)


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


def sell_back(st: GameState, sq: int, levels: int = 1) -> int:
    """What the bank pays for ``levels`` building levels of ``sq`` (RULES.md 8: the rule set's
    sell-back share of the building cost, rounded down as every fraction the bank pays)."""
    return _frac(st.board.squares[sq].build_cost * levels, st.rules.sell_back)


def sell_all_refund(st: GameState, p: int, sq: int) -> int:
    """What ``sell_all`` on ``sq`` brings ``p``: every level of each of p's deeds in the group,
    each deed sold back at once (a hotel counts its houses too)."""
    level, owner = st.level, st.owner
    total = 0
    for x in st.board.group_of[sq]:
        if level[x] and owner[x] == p:
            total += sell_back(st, x, _eff(st, level[x]))
    return total


def income_tax_percent(st: GameState, p: int) -> int:
    """RULES.md 6, the income-tax choice: 10% of the player's worth (``tax_worth``), rounded
    up."""
    return _ceil_div(tax_worth(st, p), 10)


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
        # (whether the owner holds the whole group is asked only where it counts: no buildings)
        return street_rent(s.rents, lv, not lv and _owns_group(st, owner, sq))
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
