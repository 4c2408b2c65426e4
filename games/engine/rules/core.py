"""The run loop and the dispatch: how play is driven, and ``apply``, the one way to change a state.

``state.stack`` holds frames. A *decision* frame (``buy``, ``auction``, ``debt``...) waits for a
player; a *task* frame (``land``, ``pay``, ``m1``...) is work the engine does as soon as it
reaches the top. After each action the engine runs tasks until a decision is on top or the stack
is empty; an empty stack means the current player is to ``roll`` or to ``end_turn``
(``state.phase``).
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from ..state import NO_OWNER, GameState
from .auctions import _act_bid, _act_max_bid, _act_pass, _auction_over, _finish_auction, _settle_maxima, _start_auction
from .buildings import _act_build, _act_sell, _act_sell_all
from .context import _WAITING, DECISIONS, Ctx
from .debt import _bankrupt
from .money import _charge, _settle
from .mortgages import _act_auction_own, _act_keep_mortgaged, _act_mortgage, _act_unmortgage
from .site import _act_end_agreed, _act_note, _act_reseed
from .squares import _advance, _land
from .timeouts import _act_timeout
from .trades import _act_accept, _act_cancel, _act_propose, _act_reject
from .turns import (
    _act_bus,
    _act_buy,
    _act_casino,
    _act_casino_skip,
    _act_decline,
    _act_destroy,
    _act_income_tax,
    _act_pay_fine,
    _act_roll,
    _act_surrender,
    _act_teleport,
    _act_use_card,
    _next_turn,
)


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
            if "max" in top:
                _settle_maxima(ctx, top)  # RULES.md 15: the engine answers for the holders
            if not _auction_over(top):
                return  # still bidding, or the winner is placing the building
            stack.pop()
            _finish_auction(ctx, top)
            continue
        if k in DECISIONS:
            return
        stack.pop()
        _TASKS[k](ctx, top)


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


def _task_bankrupt(ctx: Ctx, f: dict) -> None:
    """RULES.md 10: a charge that even liquidation cannot cover, or a surrender (left on the
    stack by money and turns, which sit below the rules bankruptcy goes through)."""
    _bankrupt(ctx, f["p"], f["to"])


def _task_building_auction(ctx: Ctx, f: dict) -> None:
    """RULES.md 8, shortage: the building is auctioned among those able to build one legally
    (left on the stack by buildings, which sits below auctions)."""
    st = ctx.state
    sq, p = f["sq"], f["p"]
    _start_auction(ctx, "building", sq, style=ctx.rules.auction_style, opening=st.board[sq].build_cost,
                   step=1, start=p, include_start=True, seller=p, building=f["building"])
    able = f["able"]
    st.stack[-1]["bidders"] = [q for q in st.stack[-1]["bidders"] if q in able]


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
          "m1": _task_m1, "bankrupt": _task_bankrupt,
          "building_auction": _task_building_auction}


_HANDLERS = {
    "roll": _act_roll, "end_turn": _next_turn, "buy": _act_buy, "decline": _act_decline,
    "bid": _act_bid, "pass": _act_pass, "pay_fine": _act_pay_fine, "use_card": _act_use_card,
    "build": _act_build, "sell": _act_sell, "sell_all": _act_sell_all, "mortgage": _act_mortgage,
    "unmortgage": _act_unmortgage, "keep_mortgaged": _act_keep_mortgaged, "propose": _act_propose,
    "accept": _act_accept, "reject": _act_reject, "cancel": _act_cancel, "surrender": _act_surrender,
    "income_tax": _act_income_tax, "casino": _act_casino, "casino_skip": _act_casino_skip,
    "bus": _act_bus, "teleport": _act_teleport, "destroy": _act_destroy, "auction_own": _act_auction_own,
    "max_bid": _act_max_bid, "timeout": _act_timeout,
    # The site's (RULES.md 16; never in legal_actions): a note for the record, the end by agreement.
    "note": _act_note, "end_agreed": _act_end_agreed, "reseed": _act_reseed,
}


ACTION_TYPES = tuple(_HANDLERS)


def _step(ctx: Ctx, action: Any) -> None:
    """The one dispatch: check the action's form and seat, run its handler (which checks the
    rest before it changes anything), then the tasks it left. ``apply``, ``stepper`` and the
    simulations' play loop all come through here."""
    state = ctx.state
    # The common case in a few cheap tests (a plain dict naming a known action and a seat still
    # playing); anything else, well-formed or not, goes through _checked, whose checks (and
    # messages) come in their documented order.
    try:
        handler = _HANDLERS[action["type"]]
        p = action["player"]
        ok = type(action) is dict and type(p) is int and p >= 0 and not state.players[p].bankrupt
    except Exception:
        ok = False
    if not ok or state.over:
        handler, p = _checked(state, action)
    handler(ctx, p, action)
    stack = state.stack
    if stack and stack[-1]["k"] not in _WAITING:  # (a buy or trade decision on top: nothing to run)
        _run(ctx)
    if handler is _act_max_bid and ctx.secret:
        # RULES.md 15: a maximum left, changed or withdrawn that nothing else came of is
        # secret, its numbering included: ``seq`` counts the actions others may know of.
        ctx.secret = False
        return
    state.seq += 1


def apply(state: GameState, action: dict, rng=None, events: bool = True) -> tuple[GameState, list]:
    """Apply one action. Raises IllegalAction (state untouched) if it is not legal now."""
    # A working context of its own, left on nothing: the state stays plain data (a play loop
    # that applies many actions to one state uses ``stepper``, which builds its context once).
    ctx = Ctx(state, rng, [] if events else None)
    _step(ctx, action)
    return state, ctx.events if events else []


def stepper(state: GameState, events: bool = False):
    """``apply`` bound to one state, for a play loop: ``step(action)`` does what
    ``apply(state, action, None, events)`` does (the same checks, the same IllegalAction with
    the state untouched) and returns the events (None with ``events`` false).

    It sets up its working context once, not on every action, so the caller must not swap the
    state's rule set or board while it uses the stepper. (``apply`` calls on the same state in
    between are fine: the stepper's context is its own.)"""
    ctx = Ctx(state, None, None)  # (rng: the game's own generator; rules and board: the state's)

    def step(action):
        if events:
            ctx.events = []
        _step(ctx, action)
        return ctx.events

    return step


def _checked(state: GameState, action: Any) -> tuple[Any, int]:
    """The dispatch's checks of the action and the seat: raises IllegalAction, or returns the
    handler and the seat."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed_action")
    kind = action.get("type")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction("unknown_action", kind=repr(kind))
    p = action.get("player")
    # ``type(p) is int`` settles the common case in one cheap test (and excludes bool).
    if (type(p) is not int and (isinstance(p, bool) or not isinstance(p, int))) or not 0 <= p < len(state.players):
        raise IllegalAction("bad_player")
    if state.over:
        raise IllegalAction("game_over")
    if state.players[p].bankrupt:
        raise IllegalAction("player_out", player=state.players[p].name)
    return handler, p
