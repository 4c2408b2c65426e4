"""The strategy bot's shared views of a game, kept on its state (``GameState.views``) and shared
by every seat: the highest rent each seat's deeds may ask (``RentTable``, updated a group at a
time) and what the deeds' owners say about each seat (``Ownership``).
"""

from __future__ import annotations

from itertools import compress
from operator import ne

from ..state import NO_OWNER, GameState
from .board import _SQUARES, board_info


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


class GameViews:
    """The strategy bot's views of one game, kept on its state object (``GameState.views``)
    and shared by every seat's bot: the rents table and the ownership view."""

    __slots__ = ("ownership", "rents")

    def __init__(self) -> None:
        self.rents: RentTable | None = None
        self.ownership: Ownership | None = None


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
    views = st.views
    if views is None:
        views = st.views = GameViews()
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
    those where it holds at least half and one other player all the rest; and, in a
    three-deed group held by three players, each other holder's deed (one step towards it)."""

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
                elif a >= 0 and b >= 0 and c >= 0:
                    # Three owners: each may buy one deed of another towards the group, the
                    # valuation deciding as for any offer. Without it a table whose groups are
                    # all split three ways (six players, two deeds dealt each) never trades,
                    # nobody builds and nobody goes bankrupt: classic-short, which ends only
                    # at the second bankruptcy (RULES.md 12), went on for ever (seed 161).
                    wanted[a].append((b, [y]))
                    wanted[a].append((c, [z]))
                    wanted[b].append((a, [x]))
                    wanted[b].append((c, [z]))
                    wanted[c].append((a, [x]))
                    wanted[c].append((b, [y]))
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
    views = st.views
    if views is None:
        views = st.views = GameViews()
    view = views.ownership
    # (The same list of players: the same seats. The view holds the list, so it is not another
    # list at the same address.)
    if view is None or view.players is not st.players or view.owner != st.owner:
        view = views.ownership = Ownership(st)
    return view
