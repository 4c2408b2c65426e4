"""What the bots know about a board, worked out once per board: how often each square is
landed on, group rankings, build orders, rents and costs in tables (``BoardInfo``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter

from ..boards import Board, load_board
from ..rules import street_rent, street_rents
from ..state import GameState

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


_SQUARES = range(40)


_UNMORTGAGED = [False] * 40  # (comparing with it: far cheaper than ``True in mortgaged``)


def _turn_key(st: GameState) -> tuple[int, int]:
    return (st.round, st.current)
