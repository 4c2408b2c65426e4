"""What a status post says (issue 29): round, whose turn, what the game waits on, the deadline,
the last few log lines and a link. Only what every player's page shows the whole table: the
log as a spectator reads it (no maximum bid, RULES.md 15; no line about a standing order),
players by their public names, never an e-mail address. The providers (chats.providers) each
draw it in their own markup, with the mention of the players waited on who linked that chat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

RECENT_LINES = 4


@dataclass
class Status:
    title: str
    round: int
    whose_turn: str
    decision: str
    waiting: list[str]  # the names of the players waited on
    waiting_users: list[int]  # their user ids (humans only), for the mentions
    deadline: datetime | None
    recent: list[str]
    link: str
    over: bool
    labels: dict[str, str] = field(default_factory=dict)  # the fixed words, in the table's language


def build(game) -> Status:
    """The status of ``game`` now, in its host's language (the table's words)."""
    from games.board_words import localized_board
    from games.engine import GameState, waiting_on
    from games.engine.events import visible_to
    from games.links import absolute, game_path
    from games.models import Seat
    from games.selectors import live_names
    from games.sql import log_rows
    from games.views.page.decision import decision_text
    from games.views.page.log import event_lines

    table = game.table
    host = table.host
    language = (getattr(host, "language", "") or settings.LANGUAGE_CODE) if host is not None else settings.LANGUAGE_CODE
    seats = list(Seat.objects.filter(table_id=table.pk).select_related("user").order_by("position"))
    with translation.override(language):
        data = game.state
        names = live_names([p["name"] for p in data.get("players") or []], seats)
        data = {**data, "players": [{**p, "name": n} for p, n in zip(data["players"], names, strict=True)]}
        state = GameState.from_json(data)
        state.board = localized_board(state.board)
        waiting = [] if state.over else list(waiting_on(state))
        by_position = {s.position: s for s in seats}
        waiting_users = [by_position[p].user_id for p in waiting
                         if p in by_position and by_position[p].user_id and not by_position[p].bot]
        recent: list[str] = []
        for row in log_rows(game.pk, limit=12):
            shown = [e for e in (row.get("events") or []) if visible_to(e, None)]
            # (The spectator's log; a standing order's "By X's standing order" is left out.)
            lines = [line for line in event_lines(shown, names, state.board, reason=row.get("reason")) if line]
            recent[:0] = lines  # oldest first
            if len(recent) >= RECENT_LINES:
                break
        status = Status(
            title=table.name, round=state.round, whose_turn=names[state.current],
            decision=str(decision_text(state)), waiting=[names[p] for p in waiting],
            waiting_users=waiting_users, deadline=None if state.over else game.deadline,
            recent=[_plain(line) for line in recent[-RECENT_LINES:]],
            link=absolute(game_path(game.pk)), over=state.over)
        status.labels = {
            "round": _("Round %(n)d") % {"n": status.round},
            "turn": _("Turn: %(name)s") % {"name": status.whose_turn},
            "waits": _("Waiting on: %(names)s") % {"names": ", ".join(status.waiting)},
            "deadline": _("Deadline"),
            "recent": _("Lately"),
            "open": _("Open the game"),
            "over": _("The game is over."),
        }
    return status


def _plain(text: str) -> str:
    """A log line as plain text: no markup, one line, short."""
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]*>", "", str(text))).strip()
    return text[:200]


def mentions_for(status: Status) -> dict[str, list[str]]:
    """Each provider's handles of the players the game waits on who linked that chat (nobody
    else is ever mentioned): Discord user ids, Slack member ids, Telegram user names."""
    from accounts.adapters import discord_user_id
    from chats.models import Identity

    out: dict[str, list[str]] = {"discord": [], "slack": [], "telegram": []}
    if not status.waiting_users:
        return out
    identities = {i.user_id: i for i in Identity.objects.filter(user_id__in=status.waiting_users)}
    from django.contrib.auth import get_user_model

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=status.waiting_users)}
    for uid in status.waiting_users:
        ident = identities.get(uid)
        discord = ident.discord_id if ident and ident.discord_id else None
        if discord is None and uid in users:
            discord = discord_user_id(users[uid])
        if discord:
            out["discord"].append(discord)
        if ident and ident.slack_id:
            out["slack"].append(ident.slack_id)
        if ident and ident.telegram_username:
            out["telegram"].append(ident.telegram_username)
    return out
