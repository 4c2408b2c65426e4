"""Bots: players that choose among the engine's legal actions.

A bot is an object with ``choose(state, seat, rng) -> action`` (a dict ``apply`` accepts). Bots
read the state and the engine's read-only helpers and never change the state; whatever they
choose is one of ``legal_actions(state, seat)`` with its free parameters filled in. ``rng`` is
the bot's own generator (a ``random.Random``), never the game's, so a bot's choices cannot
shift the dice.

* ``RandomBot`` picks uniformly among the legal actions, with bounds that make games end: it never
  surrenders unless nothing else is left, takes a few free actions per turn at most, gives up
  value (mortgages, sales) only to pay a debt or to break a building shortage, proposes rarely.
* ``StrategyBot`` plays by value: it buys and bids by what a deed is worth to it (completing or
  blocking a group counts), builds evenly towards three houses on its best groups, keeps a cash
  reserve that grows with the rents it may face, raises money cheaply, trades for groups.

Speed matters (simulations play thousands of games): the strategy bot answers the common
decisions (roll, end the turn, buy, bid) from the state, confirms the free actions it takes in
its own turn with the very checks ``apply`` runs for them, and asks ``legal_actions`` for the
options only at the rarer decisions (debts, transferred mortgages, placing a building).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import compress
from operator import itemgetter, ne
from typing import Any

from .boards import Board, load_board
from .rules import (
    CASINO_STAKE,
    _build_error,
    _build_timing_error,
    _money_timing_error,
    _sell_error,
    _trade_error,
    legal_actions,
    offer_refused,
    rent_of,
    street_rent,
    street_rents,
    tax_worth,
    tradeable_deeds,
    unmortgage_cost,
)
from .state import HOTEL, NO_OWNER, GameState

# Long-run frequency (in %) with which a move ends on each square of the shared layout: the
# landing study of games.engine.simulate (classic, long jail stays, 100,000 turns; square 10
# includes the turns spent in jail). Only used to rank squares and groups, so the world board
# reuses it.
# fmt: off
LANDING = (
    2.74, 1.79, 1.86, 1.88, 2.01, 2.60, 1.93, 2.02, 1.97, 2.04,
    11.08, 2.44, 2.37, 1.99, 2.19, 2.40, 2.47, 2.56, 2.62, 2.62,
    2.64, 2.40, 2.58, 2.34, 2.76, 2.67, 2.40, 2.27, 2.48, 2.23,
    2.37, 2.24, 2.23, 2.38, 2.21, 2.11, 2.03, 1.90, 1.88, 2.28,
)
# fmt: on


class BoardInfo:
    """What the strategy bot precomputes once per board: groups and how good they are."""

    def __init__(self, board: Board):
        self.board = board
        self.groups = board.groups
        self.street_groups = {
            g: sq for g, sq in board.groups.items() if board.kind[sq[0]] == "street"
        }
        self.group_name = tuple(board[sq].group for sq in range(40))
        # A group's quality: the expected rent at three houses per opponent turn, per dollar
        # invested (deeds plus three houses each). It ranks groups for building and sets how
        # much owning the whole group is worth.
        quality = {}
        for g, sqs in self.street_groups.items():
            rent = sum(board[x].rents[3] * LANDING[x] for x in sqs) / 100
            cost = sum(board.price[x] + 3 * board[x].build_cost for x in sqs)
            quality[g] = rent / cost
        mean = sum(quality.values()) / len(quality)
        # Owning a whole group is worth its price times this premium (about 2-3).
        self.premium = {g: 1.6 + q / mean for g, q in quality.items()}
        self.build_rank = sorted(self.street_groups, key=lambda g: -quality[g])
        # What holding ``held`` deeds of a group is worth to its holder, per dollar of their
        # prices, by ``held`` (``StrategyBot.holding_value``): a whole street group its premium,
        # part of one a little more per deed; railroads and utilities more the more are held.
        self.value_factor = {}
        for g, sqs in board.groups.items():
            kind, size = board.kind[sqs[0]], len(sqs)
            factors = [0.0]
            for held in range(1, size + 1):
                if kind == "street":
                    f = self.premium[g] if held == size else 1.0 + 0.15 * (held - 1)
                elif kind == "railroad":
                    f = (1.0, 1.1, 1.3, 1.6)[min(held, 4) - 1]
                else:
                    f = (0.8, 1.0)[min(held, 2) - 1]
                factors.append(f)
            self.value_factor[g] = tuple(factors)
        self.rank = {g: i for i, g in enumerate(self.build_rank)}
        # Each street group's deeds, dearest first (the first of equals first), with a getter
        # of their entries in a per-square list (levels, mortgages) in that order.
        self.build_order = {}
        for g, sqs in self.street_groups.items():
            order = tuple(sorted(sqs, key=lambda x: (-board.price[x], sqs.index(x))))
            self.build_order[g] = (order, _getter(order), {})  # ({}: the build choice's memo)
        # Hot-path tables: street groups best first, every deed group with its kind, and each
        # square's rents and dice multipliers.
        self.ranked = tuple((g, self.street_groups[g]) for g in self.build_rank)
        self.kinded = tuple((board.kind[sqs[0]], sqs) for sqs in board.groups.values())
        self.deed_owners = itemgetter(*board.deeds)  # a per-square list's entries of the deeds
        # For each deed, a getter of its group's entries in a per-square list (a tuple).
        self.group_get = tuple(_getter(sqs) if sqs else None for sqs in board.group_of)
        self.rents = tuple(board[sq].rents for sq in range(40))
        self.multipliers = tuple(board[sq].multipliers for sq in range(40))
        self.build_cost = tuple(board[sq].build_cost for sq in range(40))
        # For the table of the highest rent by owner (``RentTable``), every deed group as
        # (streets?, getter of its squares' entries, (square, rent table, rent) triples): a
        # street's rents by level for the holder of the whole group and its rent in a split
        # group (rules.street_rents), another deed's rents by how many of the group its owner
        # holds (utilities at a roll of 7; the rent: unused); and each square's group in that
        # list (-1: none).
        self.rent_groups = tuple(
            (
                kind == "street",
                _getter(sqs),
                tuple(
                    (
                        x,
                        street_rents(self.rents[x], True)
                        if kind == "street"
                        else self.rents[x]
                        if kind == "railroad"
                        else tuple(7 * m for m in self.multipliers[x]),
                        street_rent(self.rents[x], 0, False) if kind == "street" else 0,
                    )
                    for x in sqs
                ),
            )
            for kind, sqs in self.kinded
        )
        index = [-1] * 40
        for gi, (_, _, pairs) in enumerate(self.rent_groups):
            for x, _, _ in pairs:
                index[x] = gi
        self.rent_group_index = tuple(index)
        # What lifting each deed's mortgage costs under either rule (``unmortgage_cost``,
        # RULES.md 9): mortgage + 10%, or 60% of the price, rounded up; 0 off the deeds.
        self.lift_plus_10 = tuple(
            s.mortgage - (-s.mortgage // 10) if s.is_deed else 0 for s in board.squares
        )
        self.lift_60 = tuple(-(-s.price * 6 // 10) if s.is_deed else 0 for s in board.squares)
        # For each deed, what ``StrategyBot._deed_value`` reads of its group: the group's other
        # deeds and their number, its factors by deeds held and its deeds.
        self.deed_terms = tuple(
            (
                tuple(x for x in sqs if x != sq),
                len(sqs) - 1,
                self.value_factor[board[sq].group],
                sqs,
            )
            if sqs
            else None
            for sq, sqs in enumerate(board.group_of)
        )
        # Each square's place in the order the strategy bot sells buildings to pay a debt: the
        # higher, the sooner (the weakest group first, then the later square).
        self.sell_key = tuple((self.rank.get(self.group_name[sq], 99), sq) for sq in range(40))

    def lift_costs(self, st: GameState) -> tuple[int, ...]:
        """Each square's ``unmortgage_cost`` under st's rules, as a table."""
        return self.lift_plus_10 if st.rules.unmortgage == "mortgage_plus_10" else self.lift_60


def _getter(squares: tuple[int, ...] | list[int]) -> Callable[[list], tuple]:
    """A per-square list's entries at ``squares``, as a tuple, at C speed (``itemgetter``; for
    one square a 1-tuple too, where ``itemgetter`` would give the entry alone)."""
    if len(squares) > 1:
        return itemgetter(*squares)
    sq = squares[0]
    return lambda values: (values[sq],)


@cache
def board_info(name: str) -> BoardInfo:
    return BoardInfo(load_board(name))


_ANY_CASH = float("inf")
_SQUARES = range(40)
_UNMORTGAGED = [False] * 40  # (comparing with it: far cheaper than ``True in mortgaged``)


def _turn_key(st: GameState) -> tuple[int, int]:
    return (st.round, st.current)


# ---------------------------------------------------------------------------------------------
# The random bot
# ---------------------------------------------------------------------------------------------

FREE_TYPES = frozenset({"build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own"})
# Free actions that only give up value: taken only to pay a debt.
RAISE_TYPES = frozenset({"sell", "sell_all", "mortgage"})


class RandomBot:
    """Uniform over the legal actions, bounded so that games end:

    * it never surrenders while anything else is possible;
    * at most ``free_per_turn`` free actions (build, unmortgage...) per turn, and at each
      decision a free action only half the time, so even a fresh bot per decision (as the site
      makes them) soon moves on;
    * it mortgages deeds only to pay a debt, and sells buildings only to pay a debt or when
      the bank has run out of houses or hotels: undoing what it built, or mortgaging and
      lifting in turn, lets random play wander for ever without anyone going bankrupt;
    * rare, small proposals: only when nobody has proposed yet this turn.
    """

    name = "random"
    free_per_turn = 3
    propose_chance = 0.03

    def __init__(self) -> None:
        self._turn: Any = None
        self._free = 0

    def choose(self, state: GameState, seat: int, rng) -> dict:
        st = state
        key = _turn_key(st)
        if key != self._turn:
            self._turn, self._free = key, 0
        acts = legal_actions(st, seat)
        top = st.stack[-1] if st.stack else None
        in_debt = top is not None and top["k"] == "debt" and top["p"] == seat
        main, free = [], []
        can_propose = False
        # When the bank has run out of houses or hotels nobody can build: selling is then the
        # only way the board can change, and without it a game can stall for ever.
        shortage = st.bank_houses == 0 or st.bank_hotels == 0
        for a in acts:
            t = a["type"]
            if t == "propose":
                can_propose = True
            elif t == "surrender":
                continue
            elif t not in FREE_TYPES:
                main.append(a)
            elif in_debt:
                if t in RAISE_TYPES:
                    free.append(a)
            elif self._free < self.free_per_turn and (
                t not in RAISE_TYPES or (t != "mortgage" and shortage)
            ):
                free.append(a)
        if (
            can_propose
            and not in_debt
            and st.turn["proposals"] == 0
            and rng.random() < self.propose_chance
        ):
            offer = self._offer(st, seat, rng)
            if offer is not None:
                return offer
        if free and (in_debt or not main or rng.random() < 0.5):
            options = free if in_debt or not main else main + free
        else:
            options = main
        if not options:
            # Only surrender (or a proposal) is left: a debt nothing can pay.
            return {"type": "surrender", "player": seat}
        a = dict(options[rng.randrange(len(options))])
        t = a["type"]
        if t in FREE_TYPES and not in_debt:
            self._free += 1
        if t == "bid":
            lo, hi = a.pop("min"), a.pop("max")
            # Biased low: most random bids stay near the minimum.
            a["amount"] = lo + int((hi - lo) * rng.random() ** 4)
        elif t == "casino":
            a["numbers"] = rng.sample(range(1, 7), rng.randint(1, 3))
        return a

    def _offer(self, st: GameState, seat: int, rng) -> dict | None:
        """A small random trade: maybe a deed each way and a little cash."""
        others = [q for q in st.active() if q != seat]
        if not others:
            return None
        to = rng.choice(others)
        mine = tradeable_deeds(st, seat)
        theirs = tradeable_deeds(st, to)
        give = {"cash": 0, "squares": [], "cards": 0}
        take = {"cash": 0, "squares": [], "cards": 0}
        if mine and rng.random() < 0.5:
            give["squares"] = [rng.choice(mine)]
        if theirs and rng.random() < 0.6:
            take["squares"] = [rng.choice(theirs)]
        cash = st.players[seat].cash
        if cash > 0 and rng.random() < 0.5:
            give["cash"] = rng.randint(0, max(1, cash // 10))
        if not (give["squares"] or take["squares"] or give["cash"]):
            return None
        t = {"from": seat, "to": to, "give": give, "take": take}
        if _trade_error(st, t) is not None:
            return None
        return {"type": "propose", "player": seat, "to": to, "give": give, "take": take}


def _raise_options(st: GameState, p: int, view: Ownership) -> tuple[list[int], list[int]]:
    """What p may do to raise money around its own debt, as ``legal_actions`` would list it:
    the deeds with buildings (each a sale if ``_sell_error`` allows, and the first of each group
    a sale of the whole group) and the mortgages, found with the engine's own checks square by
    square (the sales are checked by the debt decision, only those it would choose): much
    cheaper than the full list, and the debt decision needs nothing else."""
    built: list[int] = []
    mortgages: list[int] = []
    if _money_timing_error(st, p) is not None:
        return built, mortgages
    group_of = st.board.group_of
    level, mortgaged = st.level, st.mortgaged
    for sq in view.own_of(p):
        if level[sq]:
            built.append(sq)
        elif not mortgaged[sq]:
            for x in group_of[sq]:  # (a loop: cheaper than any() over a generator)
                if level[x]:
                    break
            else:
                mortgages.append(sq)
    return built, mortgages


def _confirm(st: GameState, p: int, kind: str, sq: int) -> dict | None:
    """The action ``kind`` on square sq if the engine accepts it now, asked of the very checks
    ``apply`` runs for it: far cheaper than listing every legal action to find one. Only for
    the free actions the strategy bot takes in its own turn (nothing stacked)."""
    if kind == "build":
        err = _build_timing_error(st, p) or _build_error(st, p, sq)
    elif kind == "sell":
        err = _money_timing_error(st, p) or _sell_error(st, p, sq)
    elif kind == "unmortgage":
        err = _money_timing_error(st, p)
        if err is None and not (
            st.owner[sq] == p and st.mortgaged[sq] and st.players[p].cash >= unmortgage_cost(st, sq)
        ):
            err = "cannot lift that mortgage"
    else:
        raise ValueError(kind)
    return None if err else {"type": kind, "player": p, "square": sq}


# ---------------------------------------------------------------------------------------------
# The strategy bot
# ---------------------------------------------------------------------------------------------

def _group_rents(
    rent_group: tuple, owner: list[int], level: list[int], mortgaged: list[bool]
) -> list[tuple[int, int]]:
    """The highest rent each owner's deeds of one group may ask, as [(owner, rent), ...], read
    from the group's tables of ``BoardInfo.rent_groups`` (made with the rules' street_rents;
    utilities at a roll of 7). tests/engine/test_strategy.py holds it to ``rent_of``."""
    street, get, pairs = rent_group
    held = get(owner)  # (the holders as a tuple, counted with tuple.count)
    out = []
    if street:
        o = held[0]
        if o >= 0 and held.count(o) == len(held):
            # The whole group: rents by level (for the holder of the whole group).
            top = 0
            for x, table, _ in pairs:
                if not mortgaged[x]:
                    r = table[level[x]]
                    if r > top:
                        top = r
            if top:
                out.append((o, top))
            return out
        # (the holders by index, not zip(..., strict=True): a keyword call parses its
        # arguments at every call in 3.11)
        for i, (x, _, split) in enumerate(pairs):
            o = held[i]
            if o >= 0 and not mortgaged[x]:
                out.append((o, split))
        return out
    for i, (x, table, _) in enumerate(pairs):
        o = held[i]
        if o >= 0 and not mortgaged[x]:
            out.append((o, table[held.count(o) - 1]))
    return out


class RentTable:
    """The highest rent each seat's deeds may ask on one landing, worked out a group at a
    time from the owners, buildings and mortgages it was last given: when they change, only
    the groups of the squares that changed are worked out again."""

    __slots__ = (
        "best", "by_group", "first", "info", "level", "log", "mortgaged", "owner", "players", "second", "seen", "top",
    )

    def __init__(self, st: GameState):
        info = self.info = board_info(st.board.name)
        self.players = st.players
        self.log, self.seen = st.board_log, len(st.board_log)
        self.owner, self.level, self.mortgaged = list(st.owner), list(st.level), list(st.mortgaged)
        self.by_group = [
            _group_rents(g, st.owner, st.level, st.mortgaged) for g in info.rent_groups
        ]
        self.best = self._combine(len(st.players))
        self._rank()

    def _rank(self) -> None:
        """The seat with the highest rent (the first of equals), that rent, and the highest
        of every other seat: the worst rent a seat may face without teams is ``top``, or
        ``second`` for the ``first`` seat itself (``StrategyBot.max_rent_against``)."""
        best = self.best
        ranked = sorted(best)  # (C-level: the top two values; equal tops make second = top)
        top = self.top = ranked[-1]
        self.first = best.index(top)
        self.second = ranked[-2] if len(ranked) > 1 else 0

    def _combine(self, n: int) -> list[int]:
        best = [0] * n
        for pairs in self.by_group:
            for o, r in pairs:
                if r > best[o]:
                    best[o] = r
        return best

    def update(self, st: GameState) -> None:
        """Bring the table up to st's board, in place: only the groups of the squares that
        changed are worked out again (usually one or two). A table serves one game (one list
        of players, see ``_rent_table_of``), and a game's state is not used by two threads at
        once, so no thread can read a table while another updates it."""
        owner, level, mortgaged = st.owner, st.level, st.mortgaged
        o, lv, m = self.owner, self.level, self.mortgaged
        # The squares that changed: those the engine noted in the board's log since this table
        # read it, when they account for every change (each list brought up to date from the
        # old one at those squares); else (the lists were written some other way: a test, a
        # tool) those found by comparing the lists.
        log = st.board_log
        changed = log[self.seen :] if log is self.log else None
        if changed is not None and o != owner:
            o = _patched(o, owner, changed)
        if changed is not None and o is not None and lv != level:
            lv = _patched(lv, level, changed)
        if changed is not None and o is not None and lv is not None and m != mortgaged:
            m = _patched(m, mortgaged, changed)
        if changed is None or o is None or lv is None or m is None:
            changed = []
            o, lv, m = self.owner, self.level, self.mortgaged
            if o != owner:
                changed += compress(_SQUARES, map(ne, o, owner))  # (C-level iterators)
                o = list(owner)
            if lv != level:
                changed += compress(_SQUARES, map(ne, lv, level))
                lv = list(level)
            if m != mortgaged:
                changed += compress(_SQUARES, map(ne, m, mortgaged))
                m = list(mortgaged)
        info = self.info
        self.log, self.seen = log, len(log)
        self.owner, self.level, self.mortgaged = o, lv, m
        if len(changed) > 12:  # much of the board at once: every group afresh
            self.by_group = [_group_rents(g, owner, level, mortgaged) for g in info.rent_groups]
            self.best = self._combine(len(self.best))
            self._rank()
            return
        by_group, best = self.by_group, self.best
        index = info.rent_group_index
        # (one changed square, the common case, without building a set)
        groups = (index[changed[0]],) if len(changed) == 1 else {index[sq] for sq in changed}
        lowered = False  # whether some seat's highest rent may have gone down
        for gi in groups:
            if gi < 0:
                continue
            before = by_group[gi]
            after = by_group[gi] = _group_rents(info.rent_groups[gi], owner, level, mortgaged)
            if before == after:
                continue
            # A seat whose highest rent came from this group and is not matched now is counted
            # again (best only rises in this loop, so such a seat is never missed).
            for a, r in before:
                if r == best[a]:
                    for b, s in after:
                        if b == a and s >= r:
                            break
                    else:
                        lowered = True
            for a, r in after:
                if r > best[a]:
                    best[a] = r
        if lowered:
            self.best = self._combine(len(best))
        self._rank()


# The rents table of the last game a strategy bot looked at. Every bot of a game asks about the
# same board, and each seat's worst rent is the highest rent of the other owners' deeds, so one
# table serves all seats (rather than one pass per seat). A pure function of the board, so
# sharing it between bots changes nothing they decide. It is kept on the game's own state
# object (``GameViews``), so bots of games played in threads at once never share one.


class GameViews:
    """The strategy bot's views of one game, kept on its state object (``GameState.views``)
    and shared by every seat's bot: the rents table and the ownership view."""

    __slots__ = ("ownership", "rents")

    def __init__(self) -> None:
        self.rents: RentTable | None = None
        self.ownership: Ownership | None = None


def _views(st: GameState) -> GameViews:
    views = st.views
    if views is None:
        views = st.views = GameViews()
    return views


def _patched(old: list, new: list, squares: list[int]) -> list | None:
    """``old`` brought up to ``new`` at ``squares`` (a new list, or ``old`` itself if equal),
    or None if ``new`` differs elsewhere too."""
    if old == new:
        return old
    copy = list(old)
    for sq in squares:
        copy[sq] = new[sq]
    return copy if copy == new else None


def _rent_table_of(st: GameState) -> RentTable:
    """The table of the highest rent each seat's deeds may ask on one landing now (see
    ``RentTable``): the shared one, brought up to date. The same list of players means the
    same game (the table holds it, so it is not another list at the same address)."""
    views = _views(st)
    table = views.rents
    if table is None or table.players is not st.players:
        table = views.rents = RentTable(st)
    elif table.owner != st.owner or table.level != st.level or table.mortgaged != st.mortgaged:
        table.update(st)
    return table


def _owner_rents(st: GameState) -> list[int]:
    """The highest rent each seat's deeds may ask on one landing now."""
    return _rent_table_of(st).best


class Ownership:
    """What the deeds' owners alone say about every seat: the deeds each holds, its whole
    street groups (best first) and the groups a trade could complete, as (holder, missing):
    those where it holds at least half and one other player all the rest."""

    __slots__ = ("board", "full", "info", "own", "owner", "players", "unowned", "values", "wanted")

    def __init__(self, st: GameState):
        info = self.info = board_info(st.board.name)
        owner = st.owner
        n = len(st.players)
        self.board = st.board
        self.players = st.players
        self.owner = list(owner)
        self.own: list[list[int] | None] = [None] * n  # filled in when asked (``own_of``)
        # (C-level list building: cheaper than comprehensions, which are frames in 3.11)
        self.full: list[list[str]] = list(map(list, [()] * n))
        self.wanted: list[list[tuple[int, list[int]]]] = list(map(list, [()] * n))
        self.unowned = info.deed_owners(owner).count(NO_OWNER)
        # Deed values worked out under these owners (StrategyBot.deed_value).
        self.values: dict[tuple[int, int, bool], float] = {}
        full, wanted = self.full, self.wanted
        # Two- and three-deed groups (nearly all) are settled by comparing their holders.
        for g, sqs in info.ranked:
            size = len(sqs)
            if size == 2:
                a, b = owner[sqs[0]], owner[sqs[1]]
                if a == b:
                    if a >= 0:
                        full[a].append(g)
                elif a >= 0 and b >= 0:
                    wanted[a].append((b, [sqs[1]]))
                    wanted[b].append((a, [sqs[0]]))
                continue
            if size == 3:
                x, y, z = sqs
                a, b, c = owner[x], owner[y], owner[z]
                if a == b:
                    if a == c:
                        if a >= 0:
                            full[a].append(g)
                    elif a >= 0 and c >= 0:
                        wanted[a].append((c, [z]))
                elif a == c:
                    if a >= 0 and b >= 0:
                        wanted[a].append((b, [y]))
                elif b == c and b >= 0 and a >= 0:
                    wanted[b].append((a, [x]))
                continue
            holders = [owner[x] for x in sqs]
            for o in set(holders):
                if o < 0:
                    continue
                mine = holders.count(o)
                if mine == size:
                    full[o].append(g)
                elif 2 * mine >= size:
                    missing = [x for x in sqs if owner[x] != o]
                    q = owner[missing[0]]
                    if q != NO_OWNER and holders.count(q) == len(missing):
                        wanted[o].append((q, missing))


    def own_of(self, p: int) -> list[int]:
        """The deeds p holds."""
        deeds = self.own[p]
        if deeds is None:
            owner = self.owner
            deeds = self.own[p] = [sq for sq in self.board.deeds if owner[sq] == p]
        return deeds


def ownership(st: GameState) -> Ownership:
    """The ownership view of the game's board now. Like the rents table, one view serves every
    seat (deeds change hands far less often than seats decide), kept on the game's state; it is
    a pure function of the owners, so sharing it changes nothing the bots decide."""
    views = _views(st)
    view = views.ownership
    # (The same list of players: the same seats. The view holds the list, so it is not another
    # list at the same address.)
    if view is None or view.players is not st.players or view.owner != st.owner:
        view = views.ownership = Ownership(st)
    return view


def _weakest_sale(st: GameState, p: int, built: list[int], sell_key: tuple) -> int | None:
    """Of p's deeds ``built``, the one whose building the strategy bot sells first to pay a
    debt, among those the engine lets p sell: the highest in ``BoardInfo.sell_key``."""
    ranked = []  # (the keys themselves sorted: cheaper than a key function)
    for sq in built:
        ranked.append(sell_key[sq])
    ranked.sort(reverse=True)
    for _, sq in ranked:
        if _sell_error(st, p, sq) is None:
            return sq
    return None


def _sweeteners(
    bot: StrategyBot, st: GameState, q: int, tradeable: list[int], groups: set, view: Ownership
) -> list[int]:
    """The deeds the strategy bot may add to an offer to q (``StrategyBot._find_offer``): of
    its ``tradeable`` deeds, up to three of groups q already holds a part of (not ``groups``),
    those q values most first. Valuing them is the dear part, so they are listed only when
    cash alone does not do."""
    info = view.info
    owner, group_name, group_get = st.owner, info.group_name, info.group_get
    ranked = []  # (minus q's value, square): sorted, those q values most first
    for x in tradeable:
        if group_name[x] not in groups and q in group_get[x](owner):
            ranked.append((-bot.deed_value(st, q, x, view), x))
    ranked.sort()
    return [x for _, x in ranked[:3]]


class StrategyBot:
    """Plays by value; see the module docstring. Tunables are class attributes."""

    name = "strategy"
    build_target = 3  # houses per deed it builds towards before keeping cash
    proposals_per_turn = 1  # counted by the engine in state.turn
    retry_offer_rounds = 8  # an offer searched for is not looked at again for this many rounds
    # At most one proposal to a given player in this many rounds, counted from the game's own
    # record (state.proposed), so a bot made afresh for each decision keeps to it too. Each
    # offer can hold a correspondence game for a day; three rounds lets the bot come back to a
    # partner with a better offer a few times in a game while the partner plays two turns of
    # their own in peace between two offers.
    propose_every_rounds = 3
    rival_weight = 0.5  # how much a trade partner's gain counts against its own

    def __init__(self) -> None:
        # Memory is only an optimisation: a fresh bot per decision (as the site makes them)
        # plays the same, bar looking at an offer searched in vain again sooner. What must hold
        # across decisions (no refused offer again, a pause between proposals to a player)
        # comes from the game's own record of offers (state.proposed, state.rejected).
        self._offers: dict[tuple, tuple] = {}  # (partner, deeds) -> (round, ownership, budget)
        self._propose_idle: Any = None  # (seat, ownership view, levels, round when an offer is due)
        self._reserves: dict[int, tuple] = {}  # seat -> (turn, ownership view, reserve)
        self._gain_memo: dict | None = None  # set only while _price_offer runs
        # The tunables, copied onto the instance: hot paths read them, and in 3.11 reading an
        # instance attribute is several times cheaper than a class attribute through self. (A
        # subclass's values are the ones copied; set a tunable on the instance to change it.)
        self.build_target = self.build_target
        self.proposals_per_turn = self.proposals_per_turn
        self.retry_offer_rounds = self.retry_offer_rounds
        self.propose_every_rounds = self.propose_every_rounds
        self.rival_weight = self.rival_weight

    # -- entry point ---------------------------------------------------------------------------
    def choose(self, state: GameState, seat: int, rng) -> dict:
        st = state
        stack = st.stack
        if not stack:
            # Its own turn (inline: the most common decisions).
            p = seat
            if p != st.current:
                return next(a for a in legal_actions(st, p) if a["type"] != "surrender")
            # Building and lifting mortgages are weighed once a turn: after the move, with the
            # turn's income in hand and before the opponents roll, or before the roll where the
            # rule set allows building only then (RULES.md 1, ``build_before_roll``).
            if st.phase == "roll":
                if st.players[p].in_jail and not st.turn["rolled"]:
                    choice = self._jail(st, p)
                    if choice is not None:
                        return choice
                if st.rules.build_before_roll:
                    action = self._improve(st, p)
                    if action is not None:
                        return action
                offer = self._propose(st, p)
                if offer is not None:
                    return offer
                return {"type": "roll", "player": p}
            if not st.rules.build_before_roll:
                action = self._improve(st, p)
                if action is not None:
                    return action
            return {"type": "end_turn", "player": p}
        top = stack[-1]
        k = top["k"]
        if k == "auction":
            return self._auction(st, seat, top)
        if k == "debt":
            return self._debt(st, seat, top)
        if k == "buy":
            return self._buy(st, seat, top)
        if k == "trade_response":
            return self._trade_response(st, seat, top)
        if k == "casino":
            return self._casino(st, seat, rng)
        if k == "income_tax":
            flat = st.rules.income_tax
            percent = -(-tax_worth(st, seat) // 10)
            return {
                "type": "income_tax",
                "player": seat,
                "choice": "flat" if flat <= percent else "percent",
            }
        if k == "bus":
            return self._bus(st, seat, top)
        if k == "teleport":
            return self._teleport(st, seat)
        if k == "destroy":
            return self._destroy(st, seat)
        if k == "mortgage_transfer":
            return self._transfer(st, seat)
        # A decision this bot does not know: take the first legal action that is not surrender.
        acts = legal_actions(st, seat)
        return next((a for a in acts if a["type"] != "surrender"), acts[-1])

    # -- valuation -----------------------------------------------------------------------------
    def max_rent_against(self, st: GameState, p: int) -> int:
        """The highest rent p may owe on one landing now (utilities at a roll of 7): the
        highest rent any opponent's deed asks, from the board's table of rents by owner."""
        table = _rent_table_of(st)
        players = st.players
        team = players[p].team
        if team is None:
            return table.second if p == table.first else table.top
        top = 0
        for o, r in enumerate(table.best):
            if r > top and o != p and players[o].team != team:
                top = r
        return top

    def reserve(self, st: GameState, p: int, view: Ownership | None = None) -> int:
        """Cash kept back: a small base plus most of the worst rent it may face. The bot sizes
        it once a turn (and again when deeds change hands): what the opponents build or
        mortgage during the turn counts from the next one. A caller that holds the ownership
        view for st passes it (``view``): the same view means the same owners."""
        known = self._reserves.get(p)
        if known is not None and known[0] is st.turn and (known[1] is view or known[1].owner == st.owner):
            return known[2]
        if view is None:
            view = ownership(st)
        value = st.rules.start_cash // 20 + (self.max_rent_against(st, p) * 3) // 4
        self._reserves[p] = (st.turn, view, value)
        return value

    def holding_values(
        self, st: GameState, p: int, q: int, after: list[int], groups, info: BoardInfo | None = None
    ) -> tuple[float, float, float, float]:
        """What p's and q's deeds in ``groups`` are worth to them under the owners ``after``
        and now, as (p after, p now, q after, q now): each the deeds' prices times the group's
        factor for as many as the seat holds (``BoardInfo.value_factor``), minus what lifting
        its mortgages would cost. (The four in one pass over the squares.) ``info``: the
        board's, when the caller has it."""
        if info is None:
            info = board_info(st.board.name)
        price = st.board.price
        owner, mortgaged = st.owner, st.mortgaged
        groups_of, value_factor = info.groups, info.value_factor
        pa = pn = qa = qn = 0.0
        for g in groups:
            sqs = groups_of[g]
            held_pa = held_pn = held_qa = held_qn = 0
            worth_pa = worth_pn = worth_qa = worth_qn = 0
            pledged = False
            for x in sqs:  # (plain loops: cheaper than lists and sum() for 2-4 squares)
                o, cost = after[x], price[x]
                if o == p:
                    held_pa += 1
                    worth_pa += cost
                elif o == q:
                    held_qa += 1
                    worth_qa += cost
                o = owner[x]
                if o == p:
                    held_pn += 1
                    worth_pn += cost
                elif o == q:
                    held_qn += 1
                    worth_qn += cost
                if mortgaged[x]:
                    pledged = True
            factor = value_factor[g]
            if held_pa:
                pa += worth_pa * factor[held_pa]
            if held_pn:
                pn += worth_pn * factor[held_pn]
            if held_qa:
                qa += worth_qa * factor[held_qa]
            if held_qn:
                qn += worth_qn * factor[held_qn]
            if pledged:
                costs = info.lift_costs(st)
                for x in sqs:
                    if mortgaged[x]:
                        o = after[x]
                        if o == p:
                            pa -= costs[x]
                        elif o == q:
                            qa -= costs[x]
                        o = owner[x]
                        if o == p:
                            pn -= costs[x]
                        elif o == q:
                            qn -= costs[x]
        return pa, pn, qa, qn

    def deed_value(self, st: GameState, p: int, sq: int, view: Ownership | None = None) -> float:
        """What gaining deed sq is worth to p: its value in p's hands, plus half of what it
        would be worth to an opponent who needs it to complete a group (blocking). It depends
        on the deeds' owners and on whether sq is mortgaged alone, so it is remembered with
        the ownership view (auctions ask again at every bid, debts for every deed); a caller
        that asks about several deeds passes ``ownership(st)`` as ``view``."""
        if view is None:
            view = ownership(st)
        key = (p, sq, st.mortgaged[sq])
        value = view.values.get(key)
        if value is None:
            value = view.values[key] = self._deed_value(st, p, sq, view.info)
        return value

    def _deed_value(self, st: GameState, p: int, sq: int, info: BoardInfo) -> float:
        others, rest, factor, group = info.deed_terms[sq]
        owner, price = st.owner, st.board.price
        cost = price[sq]
        lift = info.lift_costs(st)[sq] if st.mortgaged[sq] else 0
        # What sq adds to p's holding of the group (its other deeds as they are).
        held = worth = 0
        for x in others:
            if owner[x] == p:
                held += 1
                worth += price[x]
        value = (worth + cost) * factor[held + 1] - worth * factor[held] - lift
        # Blocking: half of what sq would add beyond its price for an opponent who holds all
        # the rest of the group. (Such a seat holds the group's first or second deed, but for
        # a one-deed group, where it is any seat; only one seat holds all but one of three or
        # more deeds. Counted with plain loops: cheaper than a getter and tuple.count.)
        block = 0.0
        players = st.players
        for q in (owner[group[0]], owner[group[1]]) if rest else range(len(players)):
            if q < 0 or q == p:
                continue
            held = 0
            for x in group:
                if owner[x] == q:
                    held += 1
            if held != rest:
                continue
            pl = players[q]
            team = players[p].team
            if pl.bankrupt or (team is not None and pl.team == team):
                continue
            held = worth = 0
            for x in others:
                if owner[x] == q:
                    held += 1
                    worth += price[x]
            gain = (worth + cost) * factor[held + 1] - worth * factor[held] - lift
            gain = (gain - cost) / 2
            if gain > block:  # (comparisons rather than max(): block is never below 0.0)
                block = gain
            if rest > 1:
                break
        return value + block

    # -- the turn ------------------------------------------------------------------------------
    def _jail(self, st: GameState, p: int) -> dict | None:
        """Leave jail early in the game, while deeds are for sale and rents are low; stay late,
        when the opponents' buildings make every move expensive."""
        board = st.board
        unowned = ownership(st).unowned
        danger = self.max_rent_against(st, p)
        early = unowned * 3 >= len(board.deeds) or danger < st.rules.salary
        if not early:
            return None
        pl = st.players[p]
        if pl.jail_cards:
            return {"type": "use_card", "player": p}
        if pl.cash - st.rules.jail_fine >= self.reserve(st, p) // 2:
            return {"type": "pay_fine", "player": p}
        return None

    def _improve(self, st: GameState, p: int) -> dict | None:
        """Unmortgage when rich, build on the best groups. This runs at every roll or end of
        turn, so the choice is made from the state and the engine's checks confirm it. (Finding
        nothing to do is not remembered: checking such a memo costs about what it saves.)"""
        view = ownership(st)
        full = view.full[p]
        info = view.info
        cash = st.players[p].cash
        # What the bot might do given its cash alone (the reserve, dearer to work out, only
        # when there is something): the mortgages of p it could pay off, p's among the few
        # mortgaged squares (C-level compress; a plain loop, cheaper than a comprehension).
        lift = []
        pledged = st.mortgaged != _UNMORTGAGED  # (else no mortgage to lift, nor a group to skip)
        if pledged:
            owner = st.owner
            costs = info.lift_costs(st)
            mortgages = False
            for sq in compress(_SQUARES, st.mortgaged):
                if owner[sq] == p:
                    mortgages = True
                    if costs[sq] < cash:
                        lift.append(sq)
            if not mortgages and not full:
                return None  # nothing to lift or build on, whatever the cash
        elif not full:
            return None
        # Being rich (below) needs more than the start cash; so does making room by selling
        # houses when the bank has none left.
        maybe_rich = cash > st.rules.start_cash
        first = None  # the build choice with all the cash, reused below when it still holds
        if not lift:
            first = self._build_choice(st, info, full, cash, maybe_rich, pledged)
            if first is None and not (maybe_rich and st.bank_houses == 0):
                return None
        reserve = self.reserve(st, p, view)
        if cash <= reserve:
            return None
        if lift:
            # Lift mortgages of whole groups first (so they can be built on), cheapest first.
            best = None
            for sq in lift:
                cost = costs[sq]
                whole = info.group_name[sq] in full
                if cash - cost >= reserve + (0 if whole else st.rules.start_cash // 3):
                    rank = (not whole, cost, sq)
                    if best is None or rank < best:
                        best = rank
            if best is not None:
                action = _confirm(st, p, "unmortgage", best[2])
                if action is not None:
                    return action
        if not full:
            return None
        rich = cash > 2 * reserve + st.rules.start_cash
        if first is not None and rich == maybe_rich and info.build_cost[first] <= cash - reserve:
            # The same groups are skipped for the same reasons with less to spend: same choice.
            sq = first
        elif first is None and not lift:
            # Nothing with all the cash and (if rich) rich: nothing with less either.
            sq = None
        else:
            sq = self._build_choice(st, info, full, cash - reserve, rich, pledged)
        if sq is not None:
            return _confirm(st, p, "build", sq)
        if rich and st.bank_houses == 0:
            return self._consolidate(st, p, full)
        return None

    def _build_choice(
        self, st: GameState, info: BoardInfo, full: list[str], spendable: int, rich: bool, pledged: bool
    ) -> int | None:
        """The deed to build on next: the lowest of the best group that may still grow (up to
        ``build_target`` unless rich; the dearer deed first), with the cost within ``spendable``
        and a building in the bank. The engine's own checks (even building, builds per turn)
        are mirrored here, and ``_confirm`` has the last word. ``pledged``: whether any deed
        is mortgaged (else no group is skipped for a mortgage)."""
        level, mortgaged = st.level, st.mortgaged
        rules = st.rules
        hbh = rules.houses_before_hotel
        limit = rules.builds_per_turn
        builds = st.turn["builds"]
        if not builds:
            limit = None  # (nothing built yet this turn: no group is at the limit)
        # The level a deed may not be built beyond: a hotel, or the target unless rich.
        cap = HOTEL if rich else self.build_target if self.build_target < HOTEL else HOTEL
        for g in full:
            order, get, lowest = info.build_order[g]
            if pledged:
                blocked = False  # a deed of the group is mortgaged (a loop: cheaper than any())
                for x in order:
                    if mortgaged[x]:
                        blocked = True
                        break
                if blocked:
                    continue
            if limit is not None and builds.get(g, 0) >= limit:
                continue
            # The lowest deed, the dearer first on a tie, the first of equals: the group's
            # deeds stand dearest first, so it is the first with the lowest level (a hotel
            # counts above hbh houses).
            levels = get(level)
            if hbh + 1 == HOTEL:
                # (remembered per group by its levels: a few hundred cases at most)
                low = lowest.get(levels)
                if low is None:
                    lv = min(levels)
                    low = lowest[levels] = (order[levels.index(lv)], lv)
                sq, lv = low
            else:
                sq, low = -1, 0
                for x, lx in zip(order, levels, strict=True):
                    if lx == HOTEL:
                        lx = hbh + 1
                    if sq < 0 or lx < low:
                        sq, low = x, lx
                lv = level[sq]
            if lv >= cap or info.build_cost[sq] > spendable:
                continue
            if lv >= hbh:
                # (A hotel needs hbh houses on every deed: sq is the lowest, so they have.)
                if st.bank_hotels == 0:
                    continue
            elif st.bank_houses == 0:
                continue
            return sq
        return None

    def _consolidate(self, st: GameState, p: int, full: list[str]) -> dict | None:
        """When the bank's houses have run out, sell one from the weakest built group so that
        the best group can go on to hotels, which give houses back to the bank. Without this,
        houses all standing at three per deed can stall a game for ever."""
        if st.bank_houses is None:
            return None
        info = board_info(st.board.name)
        level = st.level
        # The best group that is not all hotels yet, and sales from groups ranked below it.
        target = next(
            (g for g in full if any(level[x] != HOTEL for x in info.street_groups[g])), None
        )
        if target is None:
            return None
        for g in reversed(full[full.index(target) + 1 :]):
            sqs = info.street_groups[g]
            if any(level[x] == HOTEL for x in sqs) or not any(level[x] for x in sqs):
                continue
            sq = max(sqs, key=lambda x: (level[x], x))
            action = _confirm(st, p, "sell", sq)
            if action is not None:
                return action
        return None

    # -- deeds -----------------------------------------------------------------------------------
    def _buy(self, st: GameState, p: int, f: dict) -> dict:
        if f["p"] != p:
            return next(a for a in legal_actions(st, p) if a["type"] != "surrender")
        sq = f["sq"]
        price = st.board.price[sq]
        cash = st.players[p].cash
        if cash >= price:
            view = ownership(st)  # (asked once, for the reserve and the deed's value)
            reserve = self.reserve(st, p, view)
            if cash - price >= reserve:
                return {"type": "buy", "player": p}
            if cash - price >= reserve // 3 and self.deed_value(st, p, sq, view) >= 1.3 * price:
                return {"type": "buy", "player": p}
        return {"type": "decline", "player": p}

    def _auction(self, st: GameState, p: int, f: dict) -> dict:
        if f["stage"] == "place":
            # The building this bot won goes to its best group.
            info = board_info(st.board.name)
            options = [a for a in legal_actions(st, p) if a["type"] == "build"]
            rank = {g: i for i, g in enumerate(info.build_rank)}
            return min(
                options,
                key=lambda a: (rank.get(info.group_name[a["square"]], 99), st.level[a["square"]]),
            )
        low = f["opening"] if f["leader"] == -1 else f["high"] + f["step"]
        cash = st.players[p].cash
        if cash < low:
            return {"type": "pass", "player": p}
        sq = f["sq"]
        view = ownership(st)  # (asked once, for the reserve and the deed's value)
        # The cash it may spend first: when that is too little, whatever the deed is worth.
        spare = cash - self.reserve(st, p, view) // 2
        if low > spare:
            return {"type": "pass", "player": p}
        # Up to half as much again as a building costs; a deed's worth to the bot.
        limit = (
            st.board[sq].build_cost * 3 // 2
            if f["what"] == "building"
            else int(self.deed_value(st, p, sq, view))
        )
        if spare < limit:
            limit = spare
        if low > limit:
            return {"type": "pass", "player": p}
        amount = low
        if f["style"] == "open":
            # Jump bids keep open auctions short: about a tenth of the price at a time (never
            # above the limit, which is at least the lowest bid).
            amount += st.board.price[sq] // 10
            if amount > limit:
                amount = limit
        return {"type": "bid", "player": p, "amount": amount}

    # -- money -----------------------------------------------------------------------------------
    def _debt(self, st: GameState, p: int, f: dict) -> dict:
        """Raise the money as cheaply as the rule set allows. Where buildings sell back at
        (nearly) full cost, sell them first; where they sell at half, first mortgage the deeds
        that earn little (outside whole groups), then sell buildings, then mortgage the rest."""
        if f["p"] != p:
            return next(a for a in legal_actions(st, p) if a["type"] != "surrender")
        view = ownership(st)  # (asked once: every deed below is valued under it)
        info = view.info
        # (the sales checked only when one would be chosen: none, or not yet)
        if st.rules.sell_back >= 0.75:
            # A sale comes first: the mortgages are looked for only if none is allowed.
            level = st.level
            built = []
            for sq in view.own_of(p):
                if level[sq]:
                    built.append(sq)
            if built and _money_timing_error(st, p) is None:
                sq = _weakest_sale(st, p, built, info.sell_key)
                if sq is not None:
                    return {"type": "sell", "player": p, "square": sq}
            built, mortgages = _raise_options(st, p, view)
            unsold = []
        else:
            built, mortgages = _raise_options(st, p, view)
            unsold = built
        options = None
        if mortgages:
            # Deeds outside whole street groups earn little: mortgaged first.
            full = view.full[p]
            group_name = info.group_name
            options = []  # (a loop: a comprehension is a call of its own)
            for x in mortgages:
                if group_name[x] not in full:
                    options.append(x)
        if not options:
            if unsold:
                sq = _weakest_sale(st, p, unsold, info.sell_key)
                if sq is not None:
                    return {"type": "sell", "player": p, "square": sq}
            options = mortgages
        if options:
            # The least valued, the first square of equals (a loop: cheaper than min() with a
            # key function).
            best = None
            for x in options:
                rank = (self.deed_value(st, p, x, view), x)
                if best is None or rank < best:
                    best = rank
            return {"type": "mortgage", "player": p, "square": best[1]}
        if built:
            # No sale allowed: one of a whole group, named by its first built deed.
            seen = set()
            firsts = []
            for sq in built:
                g = info.group_name[sq]
                if g not in seen:
                    seen.add(g)
                    firsts.append(sq)
            sq = max(firsts, key=info.sell_key.__getitem__)
            return {"type": "sell_all", "player": p, "square": sq}
        return {"type": "surrender", "player": p}

    def _transfer(self, st: GameState, p: int) -> dict:
        """Lift a transferred mortgage (the first that leaves the reserve intact), else keep
        the first mortgaged: the transfers stacked for p, read as ``legal_actions`` lists them."""
        squares = []
        for f in reversed(st.stack):
            if f["k"] != "mortgage_transfer" or f["p"] != p:
                break
            squares.append(f["sq"])
        if not squares:
            return next(a for a in legal_actions(st, p) if a["type"] != "surrender")
        reserve = self.reserve(st, p)
        cash = st.players[p].cash
        costs = board_info(st.board.name).lift_costs(st)
        for sq in squares:
            cost = costs[sq]
            if cash >= cost and cash - cost >= reserve:
                return {"type": "unmortgage", "player": p, "square": sq}
        return {"type": "keep_mortgaged", "player": p, "square": squares[0]}

    def _casino(self, st: GameState, p: int, rng) -> dict:
        """Stake on three numbers (even money plus a chance at the pool) only when cash-rich."""
        cash = st.players[p].cash
        if (
            cash >= CASINO_STAKE
            and cash - CASINO_STAKE >= 2 * self.reserve(st, p) + st.rules.start_cash // 2
        ):
            return {"type": "casino", "player": p, "numbers": sorted(rng.sample(range(1, 7), 3))}
        return {"type": "casino_skip", "player": p}

    # -- moves -----------------------------------------------------------------------------------
    def square_score(self, st: GameState, p: int, target: int, steps: int) -> float:
        """How good ending a move of ``steps`` on ``target`` is for p."""
        board = st.board
        pl = st.players[p]
        score = 0.0
        if pl.pos + steps >= 40 and steps:
            score += st.rules.salary
        kind = board.kind[target]
        if board.is_deed[target]:
            o = st.owner[target]
            if o == NO_OWNER:
                if pl.cash >= board.price[target]:
                    score += self.deed_value(st, p, target) - board.price[target] * 0.5
            elif o != p and not st.teammates(p, o) and not st.mortgaged[target]:
                score -= rent_of(st, target, 7)
        elif kind == "tax":
            score -= st.rules.income_tax if board[target].tax == "income" else st.rules.luxury_tax
        elif kind == "go_to_jail":
            score -= st.rules.jail_fine * 2
        return score

    def _bus(self, st: GameState, p: int, f: dict) -> dict:
        d1, d2 = f["dice"]
        pos = st.players[p].pos
        best = max(
            (("first", d1), ("second", d2), ("sum", d1 + d2)),
            key=lambda c: self.square_score(st, p, (pos + c[1]) % 40, c[1]),
        )
        return {"type": "bus", "player": p, "choice": best[0]}

    def _teleport(self, st: GameState, p: int) -> dict:
        pos = st.players[p].pos
        best = max(range(40), key=lambda sq: (self.square_score(st, p, sq, (sq - pos) % 40), -sq))
        return {"type": "teleport", "player": p, "square": best}

    def _destroy(self, st: GameState, p: int) -> dict:
        options = [a for a in legal_actions(st, p) if a["type"] == "destroy"]
        return max(options, key=lambda a: (rent_of(st, a["square"], 7), a["square"]))

    # -- trades ----------------------------------------------------------------------------------
    def trade_gain(self, st: GameState, p: int, t: dict) -> float:
        """How much trade t improves p's position, by this bot's valuation: p's own gain less a
        share of the partner's (helping one rival hurts less with more rivals)."""
        a, b = t["from"], t["to"]
        partner = b if p == a else a
        mine, theirs = (t["give"], t["take"]) if p == a else (t["take"], t["give"])
        cash = theirs["cash"] - mine["cash"] + 50 * (theirs["cards"] - mine["cards"])
        return self._gain(
            st, p, partner, tuple(mine["squares"]), tuple(theirs["squares"]), cash
        )

    def _gain(
        self, st: GameState, p: int, partner: int, mine: tuple, theirs: tuple, cash: int
    ) -> float:
        """``trade_gain`` of p giving the deeds ``mine`` for ``theirs`` and ``cash`` (net, with
        the cards), without the trade's dicts."""
        # The deeds' worth before and after depends on the deeds alone, and p's rivals and
        # reserve on the state alone: _price_offer asks about the same deeds with several
        # amounts of cash, so it lends a memo for the call (one partner per seat in it).
        memo = self._gain_memo
        if memo is None:
            memo = {}
        key = (p, partner, mine, theirs)
        worth = memo.get(key)  # (p's worth after less now, the partner's)
        if worth is None:
            info = board_info(st.board.name)
            after = list(st.owner)
            groups = set()
            for sq in mine:
                after[sq] = partner
                groups.add(info.group_name[sq])
            for sq in theirs:
                after[sq] = p
                groups.add(info.group_name[sq])
            pa, pn, qa, qn = self.holding_values(st, p, partner, after, groups, info)
            worth = memo[key] = (pa - pn, qa - qn)
            # The same trade seen from the partner's side: the same values, swapped.
            memo[(partner, p, theirs, mine)] = (qa - qn, pa - pn)
        # (the opponents p counts, its reserve less its cash, the weight of the partner's gain:
        # a tunable, read once as its lookup through self is slow); () for teammates
        seat = memo.get(p)
        if seat is None:
            if st.teammates(p, partner):
                seat = memo[p] = ()
            else:
                rivals = 0
                team = st.players[p].team
                for q, pl in enumerate(st.players):  # the opponents, counted
                    if q != p and not pl.bankrupt and (team is None or pl.team != team):
                        rivals += 1
                short = self.reserve(st, p) - st.players[p].cash
                seat = memo[p] = (rivals or 1, short, self.rival_weight)
        me = worth[0] + cash
        them = worth[1] - cash
        if not seat:  # teammates
            return me + them
        # The partner's gain counts half, even with a single rival: a game whose groups stay
        # split never ends, and swaps that give both sides a group are how it moves on.
        gain = me - them * seat[2] / seat[0]
        # Cash below the reserve is worth more than its face value. (A comparison rather than
        # max(): no penalty is the same as subtracting 0.0.)
        short = seat[1] - cash
        if short > 0:
            gain -= short * 0.5
        return gain

    def _trade_response(self, st: GameState, p: int, f: dict) -> dict:
        t = st.trades[str(f["trade"])]
        if t["to"] != p:
            return next(a for a in legal_actions(st, p) if a["type"] != "surrender")
        margin = st.rules.start_cash // 100
        if self.trade_gain(st, p, t) > margin and _trade_error(st, t) is None:
            return {"type": "accept", "player": p, "trade": t["id"]}
        return {"type": "reject", "player": p, "trade": t["id"]}

    def _propose(self, st: GameState, p: int) -> dict | None:
        """Offer cash, and where it helps a deed the partner wants, for the deeds that would
        complete one of p's groups. Only offers p gains from and the partner should accept by
        the same valuation; at most one per turn and one to a given partner every
        ``propose_every_rounds`` rounds; never one the partner rejected, or one no better for
        the partner than a rejected one (the game's record, rules.offer_refused)."""
        # (Most rolls have no group to complete: that is asked first, as the ownership view
        # answers it at once.)
        view = ownership(st)
        wanted = view.wanted[p]
        if not wanted:
            return None
        # Nothing to offer last time, with the same deeds and buildings, and no offer due again
        # before round ``idle[3]``: nothing now either.
        idle = self._propose_idle
        if (
            idle is not None
            and st.round < idle[3]
            and idle[0] == p
            and (idle[1] is view or idle[1].owner == view.owner)  # (the same owners)
            and idle[2] == st.level
        ):
            return None
        if st.turn["proposals"] >= self.proposals_per_turn:
            return None
        level, price, group_of = st.level, st.board.price, st.board.group_of
        limit = tradeable = None
        due = _ANY_CASH  # the first round in which a skipped offer may be looked at again
        for q, missing in wanted:
            if st.players[q].bankrupt:
                continue
            built = False  # buildings in the group: no trade (a loop: cheaper than any())
            for x in group_of[missing[0]]:
                if level[x]:
                    built = True
                    break
            if built:
                continue
            # The last proposal to q, whatever it was: the next one waits a few rounds.
            asked = st.proposed[p][q]
            if asked:
                again = asked + self.propose_every_rounds
                if st.round < again:
                    if again < due:
                        due = again
                    continue
            sig = (q, tuple(missing))
            last = self._offers.get(sig)
            if last is not None:
                again = last[0] + self.retry_offer_rounds
                if st.round < again:
                    if again < due:
                        due = again
                    continue
            # The most cash it would offer (see _find_offer): searched in vain with these
            # deeds and as much or more to offer, there is no point in searching again.
            cap = 0
            for x in missing:  # (a loop: cheaper than sum() over a map for a deed or two)
                cap += price[x]
            cap *= 3
            # (The same owners: the same view, or one made afresh for them, as when bots of
            # other games asked in between.)
            same = last is not None and (last[1] is view or last[1].owner == view.owner)
            if same and cap <= last[2]:
                continue
            if limit is None:
                limit = st.players[p].cash - self.reserve(st, p)
            most = cap if cap < limit else limit  # (comparisons rather than min())
            if same and most <= last[2]:
                continue
            if tradeable is None:
                # Below the reserve no amount of cash can be offered, and so no deed either.
                tradeable = tradeable_deeds(st, p, None, view.own_of(p)) if limit >= 0 else []
            t = self._price_offer(st, p, q, missing, limit, tradeable)
            # Found or not, this offer waits a few rounds before it is looked at again.
            self._offers[sig] = (st.round, view, most)
            if t is None:
                again = st.round + self.retry_offer_rounds
                if again < due:
                    due = again
                continue
            return {"type": "propose", "player": p, "to": q, "give": t["give"], "take": t["take"]}
        self._propose_idle = (p, view, list(level), due)
        return None

    def _price_offer(
        self, st: GameState, p: int, q: int, wanted: list[int], limit: int, tradeable: list[int]
    ) -> dict | None:
        """The least cash, alone or with one of p's deeds (those q values most first), that
        both sides value as a gain and the engine accepts as a trade."""
        self._gain_memo = {}  # the state does not change during the call (see trade_gain)
        try:
            return self._find_offer(st, p, q, wanted, limit, tradeable)
        finally:
            self._gain_memo = None

    def _find_offer(
        self, st: GameState, p: int, q: int, wanted: list[int], limit: int, tradeable: list[int]
    ) -> dict | None:
        view = ownership(st)
        info = view.info
        group_name, board_price = info.group_name, st.board.price
        groups = set()
        price = 0
        for x in wanted:  # (a loop: cheaper than set() and sum() over maps for a deed or two)
            groups.add(group_name[x])
            price += board_price[x]
        margin = st.rules.start_cash // 100
        amounts = []  # (a loop: a comprehension is a call of its own)
        for c in (0, price // 4, price // 2, price, (3 * price) // 2, 2 * price, 3 * price):
            if c <= limit:
                amounts.append(c)
        if not amounts:
            return None

        # (the gains asked of _gain directly: no trade dicts until one is worth offering)
        take = tuple(wanted)
        gain = self._gain
        most = amounts[-1]
        give = ()  # nothing, then each of the sweeteners (listed when cash alone does not do)
        sweets = None
        while True:
            # q values more cash more: if the most p would pay is not enough, nothing is.
            if gain(st, q, p, take, give, most) > margin:
                for c in amounts:
                    if gain(st, q, p, take, give, c) > margin:
                        # The least cash q accepts: offer it if p still gains.
                        if gain(st, p, q, give, take, -c) > margin:
                            t = {
                                "from": p,
                                "to": q,
                                "give": {"cash": c, "squares": list(give), "cards": 0},
                                "take": {"cash": 0, "squares": list(wanted), "cards": 0},
                            }
                            if offer_refused(st, p, q, t["give"], t["take"]):
                                # q turned this down (or a better one): never asked again;
                                # more cash may still do.
                                continue
                            if _trade_error(st, t) is None:
                                return t
                        break
            if sweets is None:
                sweets = _sweeteners(self, st, q, tradeable, groups, view)
            if not sweets:
                return None
            give = (sweets.pop(0),)


BOTS = {"random": RandomBot, "strategy": StrategyBot}


def make_bot(name: str):
    """A new bot of the named kind ('random' or 'strategy')."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOTS)}") from None


__all__ = ["BOTS", "RandomBot", "StrategyBot", "board_info", "make_bot"]
