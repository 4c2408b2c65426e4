"""What every rule works with: the working context of one ``apply`` call (``Ctx``), the
constants several rules share, the readers of an action's parameters, and ``_schedule``, which
stacks task frames (see ``core`` for how the stack is run).
"""

from __future__ import annotations

from typing import Any

from ..dice import StateRng
from ..errors import IllegalAction
from ..refusals import Refusal
from ..state import GameState

DECISIONS = frozenset({"buy", "auction", "debt", "casino", "income_tax", "bus", "teleport", "destroy",
                       "mortgage_transfer", "trade_response"})


# Decisions _run leaves alone (it settles covered debts and closes finished auctions).
_WAITING = DECISIONS - {"debt", "auction"}


CASINO_STAKE = 1000


CASINO_POOL_ADD = 500


JAIL_CARD_VALUE = 500  # RULES.md 9: a jail card counts 500 in the world balance check.


class Ctx:
    """What one ``apply`` call works with: the state, the generator and the event list."""

    __slots__ = ("state", "rng", "events", "rules", "board", "own_rng", "secret")

    def __init__(self, state: GameState, rng, events: list | None):
        self.state = state
        # Set by a maximum bid that changed nothing anyone else may see (RULES.md 15): the
        # dispatch then does not count it in ``state.seq``.
        self.secret = False
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


def _schedule(st: GameState, *frames: dict) -> None:
    """Push frames so that they run in the order given, before what is already stacked."""
    for f in reversed(frames):
        st.stack.append(f)


def _int_error(v: Any, key: str) -> Refusal | None:
    """Why parameter ``key``'s value v is not a whole number (None: it is; a bool is not)."""
    if isinstance(v, bool) or not isinstance(v, int):
        return Refusal("not_a_whole_number", key=key)
    return None


def _int_param(a: dict, key: str) -> int:
    v = a.get(key)
    if type(v) is int:  # the common case in one test (bool is a subclass of int, not int)
        return v
    err = _int_error(v, key)
    if err:
        raise IllegalAction(err)
    return v


def _square_param(a: dict) -> int:
    sq = a.get("square")
    if type(sq) is int and 0 <= sq < 40:  # the common case, without the _int_param call
        return sq
    sq = _int_param(a, "square")
    if not 0 <= sq < 40:
        raise IllegalAction("bad_square")
    return sq
