"""What the trade builder says about a trade before it is sent (issue 12, conveniences): each
side's value, whether the balance rule allows it (RULES.md 9, world tables), and the colour
groups it would complete for the player receiving the deeds.

The value is the engine's (``trade_side_value``): cash + printed prices + a jail card at
JAIL_CARD_VALUE. A mortgaged deed counts at its printed price too, as the balance rule counts
it, so the figure shown is the figure checked; the builder says beside such a deed that it is
mortgaged (what taking it over costs is its card's). The verdict is the engine's predicate
(``trade_balanced``), the one the trade check itself asks: the page never copies the rule.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import JAIL_CARD_VALUE, NO_OWNER, GameState, trade_balanced, trade_side_value, tradeable_deeds


def completed_groups(st: GameState, receiver: int, gets: list[int], gives: list[int]) -> list[str]:
    """The names of the groups ``receiver`` would hold whole after getting the deeds ``gets``
    and giving away ``gives``, that they do not hold whole now (RULES.md 2: a whole group)."""
    board = st.board
    after = {sq for sq in board.deeds if st.owner[sq] == receiver} - set(gives) | set(gets)
    out = []
    for sq in gets:
        group = board.groups[board.squares[sq].group]
        name = board.group_info.get(board.squares[sq].group, {}).get("name", board.squares[sq].group)
        whole_now = all(st.owner[x] == receiver for x in group)
        if not whole_now and all(x in after for x in group) and name not in out:
            out.append(name)
    return out


def completes_alone(st: GameState, receiver: int, sq: int) -> bool:
    """Whether deed ``sq`` alone would complete its group for ``receiver``."""
    group = st.board.groups[st.board.squares[sq].group]
    return st.owner[sq] != receiver and all(st.owner[x] == receiver for x in group if x != sq)


def trade_summary(st: GameState, me: int, other: int, give: dict[str, Any], take: dict[str, Any]) -> dict[str, Any]:
    """What the builder shows for ``me`` giving ``give`` to ``other`` for ``take`` (sides as in a
    proposal: cash, squares, cards). ``error``: a deed that cannot be in this trade."""
    error = None
    for giver, receiver, side in ((me, other, give), (other, me, take)):
        allowed = set(tradeable_deeds(st, giver, receiver))
        for sq in side.get("squares") or []:
            if sq not in allowed:
                name = st.board.squares[sq].name
                error = _("%(name)s can't be in this trade.") % {"name": name}
                if st.owner[sq] == NO_OWNER or st.owner[sq] != giver:
                    error = _("%(name)s is not %(player)s's to trade.") % {"name": name,
                                                                          "player": st.players[giver].name}
    gives, gets = list(give.get("squares") or []), list(take.get("squares") or [])
    return {
        "error": error,
        "give_value": trade_side_value(st, give), "take_value": trade_side_value(st, take),
        "other_name": st.players[other].name, "card_value": JAIL_CARD_VALUE,
        "balance": st.rules.trade_balance and not st.teammates(me, other),
        "balanced": trade_balanced(st, me, other, give, take),
        "mine_completes": completed_groups(st, me, gets, gives),
        "theirs_completes": completed_groups(st, other, gives, gets),
    }
