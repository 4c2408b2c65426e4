"""Auctions (RULES.md 4, 8, 9, 11): deeds declined or left by a bankrupt, buildings in short
supply, a player's own mortgaged deed, and deeds whose mortgage expired.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from ..refusals import Refusal
from ..state import BANK, GameState
from .buildings import _build_error, _place_building, _placements
from .context import DECISIONS, Ctx, _int_error
from .money import _charge
from .queries import unmortgage_cost


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
    _forget_maximum(f, p)
    if f.get("stage") == "place" and f.get("winner") == p:
        f["stage"] = "done"
    _fix_turn(f)


def _auction_over(f: dict) -> bool:
    """Over when nobody is left bidding, or only the leader is (checked after every bid and
    pass: a loop rather than building the list of the bidders left)."""
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


LOWEST_BID = object()  # legal_actions' question to _bid_error: may p bid at all?


def auction_under_way(st: GameState) -> dict | None:
    """The auction frame under way: the one on top, or the topmost one below decisions that wait
    on another answer (a trade offer made during the auction, say: RULES.md 15, a maximum may be
    left then and acts when the auction goes on). None when there is none."""
    stack = st.stack
    i = len(stack) - 1
    while i >= 0:
        k = stack[i]["k"]
        if k == "auction":
            return stack[i]
        if k not in DECISIONS:
            return None
        i -= 1
    return None


def _bidder_error(st: GameState, p: int, amount: Any, f: dict | None) -> Refusal | None:
    """What a bid (RULES.md 4) and a maximum (15) both need: an auction ``f`` under way and
    still in its bidding, a whole-number amount (unless legal_actions asks with ``LOWEST_BID``),
    and ``p`` among its bidders."""
    if f is None:
        return Refusal("no_auction")
    if f["stage"] != "bid":
        return Refusal("bidding_over_placing")
    if amount is not LOWEST_BID and type(amount) is not int:
        err = _int_error(amount, "amount")
        if err:
            return err
    if p not in f["bidders"]:
        return Refusal("not_a_bidder")
    return None


def _bid_error(st: GameState, p: int, amount: Any = LOWEST_BID) -> Refusal | None:
    """RULES.md 4: a bidder still in (in turn, in a rotating auction) bids at least the
    opening or the high bid plus the step, and no more than their cash. A pass is final only in
    a rotating auction: in an open one a bidder who passed (by hand, or the engine for their
    maximum, RULES.md 15) may still bid while the auction is open."""
    stack = st.stack
    f = stack[-1] if stack and stack[-1]["k"] == "auction" else None  # (bids: only on top)
    err = _bidder_error(st, p, amount, f)
    if err:
        return err
    if f["style"] == "rotating" and p in f["passed"]:
        return Refusal("passed")
    leader = f["leader"]
    if p == leader:
        return Refusal("holds_highest_bid")
    if f["style"] == "rotating" and auction_askee(f) != p:
        return Refusal("not_your_bid")
    low = auction_min_bid(f)
    if amount is LOWEST_BID:
        amount = low
    if amount < low:
        return Refusal("bid_too_low", low=low)
    if amount > st.players[p].cash:
        return Refusal("bid_above_cash", amount=amount, cash=st.players[p].cash)
    return None


def _act_bid(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    amount = a.get("amount")
    err = _bid_error(st, p, amount)
    if err:
        raise IllegalAction(err)
    _do_bid(ctx, st.stack[-1], p, amount)


def _do_bid(ctx: Ctx, f: dict, p: int, amount: int, by_max: bool = False) -> None:
    f["high"] = amount
    f["leader"] = p
    if f["style"] == "open" and f["passed"]:
        # RULES.md 4, open auction: it ends when every other bidder has passed *after* the
        # highest bid, so a new bid reopens it for those who passed before (only in the
        # rotating style is a pass final). A holder of a maximum who passed stays passed: their
        # maximum answers every bid (RULES.md 15), and is below this one as it was below the
        # last (the settlement after this bid looks at every holder again).
        maxima = f.get("max")
        if maxima is None:
            f["passed"].clear()
        else:
            f["passed"][:] = [q for q in f["passed"] if q != p and any(h == q for h, _ in maxima)]
    if ctx.events is not None:
        if by_max:
            ctx.ev("bid", p=p, amount=amount, by="max")
        else:
            ctx.ev("bid", p=p, amount=amount)
    _fix_turn(f)
    if f["what"] == "building":
        _after_bid_step(ctx, f)


def _pass_error(st: GameState, p: int) -> Refusal | None:
    stack = st.stack
    if not stack or stack[-1]["k"] != "auction":
        return Refusal("no_auction")
    f = stack[-1]
    if f["stage"] != "bid":
        return Refusal("bidding_over")
    if p not in f["bidders"] or p in f["passed"]:
        return Refusal("not_bidding")
    if p == f["leader"]:
        return Refusal("highest_bidder_cannot_pass")
    if f["style"] == "rotating" and auction_askee(f) != p:
        return Refusal("not_your_bid")
    return None


def _act_pass(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    err = _pass_error(st, p)
    if err:
        raise IllegalAction(err)
    f = st.stack[-1]
    # A pass by hand is the player's own answer: it withdraws their maximum (RULES.md 15).
    _forget_maximum(f, p)
    _do_pass(ctx, f, p)


def _do_pass(ctx: Ctx, f: dict, p: int, by_max: bool = False) -> None:
    f["passed"].append(p)
    if ctx.events is not None:
        if by_max:
            ctx.ev("pass", p=p, by="max")
        else:
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
# Maximum bids (RULES.md 15)
# ---------------------------------------------------------------------------------------------
#
# A frame keeps its maxima under "max", a list of [seat, amount] in the order they were left
# (a replaced maximum counts as left anew), only while at least one stands: a frame without
# the key is an auction nobody left a maximum in, and plays exactly as before. The list is
# secret game data: the site never shows the raw state, shows a player only their own
# maximum (``standing_maximum``) and hides the ``max_bid`` events from everyone else
# (``events.visible_to``).


def standing_maximum(st: GameState, p: int) -> int | None:
    """The maximum ``p`` has left in the auction under way (``auction_under_way``), or None."""
    f = auction_under_way(st)
    if f is None:
        return None
    for q, amount in f.get("max", ()):
        if q == p:
            return amount
    return None


def _forget_maximum(f: dict, p: int) -> None:
    maxima = f.get("max")
    if not maxima:
        return
    for i, (q, _amount) in enumerate(maxima):
        if q == p:
            del maxima[i]
            break
    if not maxima:
        del f["max"]


def _max_bid_error(st: GameState, p: int, amount: Any = LOWEST_BID) -> Refusal | None:
    """RULES.md 15: any player who may still bid in the auction under way (in or out of turn,
    and while the game waits on another answer above it, a trade offer say) leaves a maximum of
    at least the lowest bid and at most their cash; 0 withdraws it. In an open auction a pass is
    not final (section 4), so a bidder who passed may leave one too."""
    f = auction_under_way(st)
    err = _bidder_error(st, p, amount, f)
    if err:
        return err
    if f["style"] == "rotating" and p in f["passed"]:
        return Refusal("passed")
    held = standing_maximum(st, p)
    low = auction_min_bid(f)
    cash = st.players[p].cash
    if amount is LOWEST_BID:
        # (legal_actions' question: may p leave a maximum, or withdraw the one left?)
        return None if held is not None or low <= cash else Refusal("bid_too_low", low=low)
    if amount == 0:
        return None if held is not None else Refusal("no_maximum")
    if amount < low:
        return Refusal("maximum_too_low", low=low)
    if amount > cash:
        return Refusal("maximum_above_cash", amount=amount, cash=cash)
    return None


def _act_max_bid(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    amount = a.get("amount")
    err = _max_bid_error(st, p, amount)
    if err:
        raise IllegalAction(err)
    f = auction_under_way(st)
    seen = (f["high"], f["leader"], len(f["passed"]), f["turn"], f["stage"])
    _forget_maximum(f, p)
    if amount:
        f.setdefault("max", []).append([p, amount])
    # Secret (RULES.md 15): the site shows this event to ``p`` only. A bidder who passed stays
    # passed: the settlement counts their maximum all the same, and passes nobody twice.
    ctx.ev("max_bid", p=p, amount=amount)
    if st.stack[-1] is f and "max" in f:
        # Settled at once (the run loop's settlement after this finds nothing more to do);
        # while an answer waits above the auction, when it is on top again.
        _settle_maxima(ctx, f)
    # Whether anything came of it that others see (a bid or pass by maximum): if not, nobody
    # may learn that it was left, changed or withdrawn, not even from the count of actions.
    ctx.secret = seen == (f["high"], f["leader"], len(f["passed"]), f["turn"], f["stage"])


def _settle_maxima(ctx: Ctx, f: dict) -> None:
    """RULES.md 15: the engine bids and passes for the holders of maxima. The run loop calls
    this whenever the auction is on top, after every action: settling a settled auction
    changes nothing, so that covers "each time a maximum is left and after each bid" (open)
    and "whenever it is a holder's turn" (rotating)."""
    if f["stage"] != "bid":
        return
    if f["style"] == "rotating":
        _settle_rotating(ctx, f)
    else:
        _settle_open(ctx, f)


def _settle_rotating(ctx: Ctx, f: dict) -> None:
    """The holder asked bids the lowest bid if it is within their maximum and cash, and passes
    (finally) otherwise; then the next one is asked, so holders among themselves play it out."""
    players = ctx.state.players
    while "max" in f and f["stage"] == "bid" and not _auction_over(f):
        q = auction_askee(f)
        held = next((amount for s, amount in f["max"] if s == q), None)
        if held is None:
            return
        low = auction_min_bid(f)
        if min(held, players[q].cash) >= low:
            _do_bid(ctx, f, q, low, by_max=True)
        else:
            _forget_maximum(f, q)
            _do_pass(ctx, f, q, by_max=True)


def _settle_open(ctx: Ctx, f: dict) -> None:
    """RULES.md 15, open auction, for every holder (whether or not they passed before), each
    maximum counted as the smaller of it and the holder's cash now. A holder below the lowest
    bid passes. Of the others the favourite has the highest maximum (equal maxima: the one left
    first; the leader keeps its place, its bid standing); the other holders pass. The favourite
    leads at the larger of the lowest bid and the next highest maximum plus the minimum raise,
    at most at its own; leading already with at least the next maximum plus the raise (at most
    its own), its bid stands.
    Nobody already passed is passed again: after this, every holder leads or has passed, so
    the game never waits on one (a timeout never falls on a holder)."""
    players = ctx.state.players
    holders = [(q, min(amount, players[q].cash)) for q, amount in f["max"]]
    leader = f["leader"]
    low = auction_min_bid(f)
    fav = None
    for q, limit in holders:
        if (q == leader or limit >= low) and (fav is None or limit > fav[1]):
            fav = (q, limit)
    if fav is not None:
        fq, flimit = fav
        second = max((limit for q, limit in holders if q != fq), default=None)
        if fq == leader:
            # Its bid stands if it is at least the next maximum plus the minimum raise (capped at
            # its own); else it rises to that, as a bid (at least the lowest bid).
            if second is not None:
                needed = min(second + f["step"], flimit)
                if f["high"] < needed and min(max(low, needed), flimit) >= low:
                    _do_bid(ctx, f, fq, min(max(low, needed), flimit), by_max=True)
        else:
            target = low if second is None else max(low, second + f["step"])
            _do_bid(ctx, f, fq, min(target, flimit), by_max=True)
    for q, _limit in holders:
        if f["stage"] != "bid":
            return
        if q != f["leader"] and q not in f["passed"]:
            _do_pass(ctx, f, q, by_max=True)
