"""The site's own actions that the record keeps (RULES.md 16): facts of the site's clocks and the
end by agreement, applied by the site (never listed by ``legal_actions``, like ``timeout``) so
that a game's record says what happened and when, and replays exactly.

``{"type": "note", "player": p, "choice": what}`` changes nothing in the position but the count of
actions; its event (``"note"``, with ``what``) is the log's line: a vacation day taken instead of
a timeout, a seat taken back from the bot, a pause that reached its length, a proposal to end
the game and each answer to it, a nudge (``{"type": "note", "player": p, "choice": "nudge", "by":
b}``: seat ``b`` nudged ``p``, the seat the game waits on; the one note that names two seats).
``{"type": "end_agreed", "player": p}`` (``p``: the player whose
agreement completed it) ends the game by agreement: net worth ranks the players still in and the
richest wins (RULES.md 12), as at the round limit.

``{"type": "reseed", "player": p, "amount": seed}`` (issue 30, play on from here): the game's own
generator starts again from ``seed`` and every deck's undrawn pile is shuffled by it. A sandbox
that starts at a finished game's position does this first, so its dice and cards are its own, not
the ones the finished game's replay already showed; the seed is in the record, so the sandbox
still replays exactly. ``p`` is the seat of the person who plays on.
"""

from __future__ import annotations

from ..dice import seed_to_state
from ..errors import IllegalAction
from .context import Ctx
from .turns import _finish, _richest

# What a note may say (the site's words for each live in events.describe).
NOTES = frozenset({"auto_vacation", "back_from_bot", "pause_cap", "end_proposed", "end_agree", "end_decline",
                   "end_withdraw", "end_lapsed", "nudge"})


def _act_note(ctx: Ctx, p: int, a: dict) -> None:
    what = a.get("choice")
    if what not in NOTES:
        raise IllegalAction("malformed_action")
    if what == "nudge":
        # Issue 29: ``p`` is the seat nudged (one the game waits on, so still playing); ``by``
        # the nudger, another seat, who may be out of the game already and still nudge.
        by = a.get("by")
        if type(by) is not int or not 0 <= by < len(ctx.state.players) or by == p:
            raise IllegalAction("malformed_action")
        ctx.ev("note", p=p, what=what, by=by)
        return
    ctx.ev("note", p=p, what=what)


MAX_SEED = 2**64


def _act_reseed(ctx: Ctx, p: int, a: dict) -> None:
    seed = a.get("amount")
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        raise IllegalAction("malformed_action")
    st = ctx.state
    st.rng = seed_to_state(seed)
    for name in sorted(st.decks):
        ctx.rng.shuffle(st.decks[name])
    ctx.ev("reseed", p=p)


def _act_end_agreed(ctx: Ctx, p: int, a: dict) -> None:
    """RULES.md 16, ending early: every active player agreed; net worth ranks them (section 12)."""
    st = ctx.state
    ctx.ev("agreed_end", p=p, round=st.round)
    _finish(ctx, _richest(st))
