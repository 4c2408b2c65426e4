"""The game log in words: each log row's events as lines, the site's own lines (timeouts, bots,
standing orders), a move's label, and the last card drawn. Reads rows, never writes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.names import isolated
from games.engine import (
    describe,
    visible_to,
)
from games.formats import number
from games.models import GameAction
from games.views.page.board import dice_view
from games.views.page.players import PLAYER_COLOURS

# How many log entries the game page shows; older ones come with its "Older moves" link.
LOG_PAGE = 20

def log_entries(rows: list[dict[str, Any]], names: list[str], board, *,
                viewer: int | None = None) -> list[dict[str, Any]]:
    """Game log rows (newest first) in words: who acted and what happened, as the player at
    ``viewer`` (None: a spectator) may read it. A secret event (RULES.md 15: a maximum bid) is
    left out for everyone but its player, and so is a row with nothing else in it: nobody
    learns that someone left a maximum."""
    out = []
    for row in rows:
        events = row.get("events") or []
        shown = [e for e in events if visible_to(e, viewer)]
        if events and not shown:
            continue
        events = shown
        dice = next((e["dice"] for e in events if e.get("e") == "roll"), None)
        seat = row.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
        lines = _site_lines(row, who) + event_lines(events, names, board, reason=row.get("reason"))
        out.append({
            "seq": row["seq"], "source": row.get("source", ""),
            "who": who,
            "colour": PLAYER_COLOURS[seat % len(PLAYER_COLOURS)] if isinstance(seat, int) else None,
            "lines": lines,
            # The same as markup, each player's name isolated (<bdi>: issue 26), for the page.
            "marked": [isolated(line, names) for line in lines],
            "dice": dice_view(dice) if dice else None,
            "at": row.get("created_at"),
        })
    return out


def event_lines(events: list[dict[str, Any]], names: list[str], board, *, reason: str | None = None) -> list[str]:
    """The events of one action in words. ``reason`` is the action's (GameAction.REASONS): the
    surrender the site played for a moderator's removal is said as the removal, not as the
    player's surrender (the engine's event is the same: RULES.md 10)."""
    lines = []
    for e in events:
        if reason == GameAction.REASON_MODERATOR_REMOVED and e.get("e") == "surrender":
            p = e.get("p")
            name = names[p] if isinstance(p, int) and 0 <= p < len(names) else "?"
            lines.append(_("%(name)s is removed from the game by a moderator.") % {"name": name})
        else:
            lines.append(describe(e, names, board, gettext=_, number=number, ngettext=ngettext))
    return lines


def action_label(action: dict[str, Any]) -> str:
    """The name of an action of a game record (the replay viewer), in the reader's language: a
    moderator's removal is named as such, not as the player's surrender."""
    if action.get("reason") == GameAction.REASON_MODERATOR_REMOVED:
        return pgettext("move", "removed by a moderator")
    if action.get("type") == "note" and action.get("choice") == "nudge":
        return pgettext("move", "nudge")
    return move_label(str(action.get("type", "")))


def action_seat(action: dict[str, Any]) -> Any:
    """Who acted in an action of a game record: its player, but for a nudge (a note about the
    seat nudged, issue 29) its nudger."""
    if action.get("type") == "note" and action.get("choice") == "nudge":
        return action.get("by")
    return action.get("player")


def _site_lines(row: dict[str, Any], who: str = "") -> list[str]:
    """What the site says of an action it played itself (GameAction.action["reason"])."""
    if row.get("source") == "system" and row.get("reason") == GameAction.REASON_ACCOUNT_DELETED:
        return [_("The player deleted their account: the seat is forfeited.")]
    if row.get("source") == "standing":
        # RULES.md 15: the site played it by the player's standing order.
        return [_("By %(name)s's standing order:") % {"name": who}]
    return []


def move_label(kind: str) -> str:
    """The name of a move of a game record (the replay viewer), in the reader's language."""
    labels = {
        "roll": pgettext("move", "roll"),
        "end_turn": pgettext("move", "end turn"),
        "buy": pgettext("move", "buy"),
        "decline": pgettext("move", "decline"),
        "bid": pgettext("move", "bid"),
        "pass": pgettext("move", "pass"),
        "pay_fine": pgettext("move", "pay fine"),
        "use_card": pgettext("move", "use card"),
        "build": pgettext("move", "build"),
        "sell": pgettext("move", "sell"),
        "sell_all": pgettext("move", "sell all"),
        "mortgage": pgettext("move", "mortgage"),
        "unmortgage": pgettext("move", "unmortgage"),
        "keep_mortgaged": pgettext("move", "keep mortgaged"),
        "propose": pgettext("move", "propose"),
        "accept": pgettext("move", "accept"),
        "reject": pgettext("move", "reject"),
        "cancel": pgettext("move", "cancel"),
        "surrender": pgettext("move", "surrender"),
        "income_tax": pgettext("move", "income tax"),
        "casino": pgettext("move", "casino"),
        "casino_skip": pgettext("move", "casino skip"),
        "bus": pgettext("move", "bus"),
        "teleport": pgettext("move", "teleport"),
        "destroy": pgettext("move", "destroy"),
        "auction_own": pgettext("move", "auction own"),
        "max_bid": pgettext("move", "maximum bid"),
        "timeout": pgettext("move", "timeout"),
        "note": pgettext("move", "note"),
    }
    return labels.get(kind, kind.replace("_", " "))


def last_card(events: list[dict], names: list[str]) -> str | None:
    from games.engine import card_text

    for e in reversed(events or []):
        if e.get("e") == "card":
            return _(card_text(e["card"]))
    return None
