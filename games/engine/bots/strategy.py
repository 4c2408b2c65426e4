"""The strategy bot: plays by value (see the package docstring)."""

from __future__ import annotations

from itertools import compress
from typing import Any

from ..rules import (
    CASINO_STAKE,
    _money_timing_error,
    _sell_error,
    _trade_error,
    income_tax_percent,
    legal_actions,
    offer_refused,
    rent_of,
    tradeable_deeds,
)
from ..state import HOTEL, NO_OWNER, GameState
from .board import _SQUARES, _UNMORTGAGED, BoardInfo, board_info
from .random_bot import _confirm, _raise_options
from .tables import Ownership, _rent_table_of, ownership

_ANY_CASH = float("inf")


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
            # Its own turn: the most common decisions, answered from the state.
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
            percent = income_tax_percent(st, seat)
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
