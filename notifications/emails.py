"""The e-mail of a notification: three templates per kind (templates/emails/), in the
recipient's language and time zone, with the one-click unsubscribe headers of RFC 8058."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import notifications as game_emails
from games.links import absolute, invite_path
from notifications.models import Kind, Notification
from notifications.tokens import unsubscribe_token

# The template of each kind (the your-turn one says why the game waits when it is a trade or
# an auction).
TEMPLATES = {
    Kind.YOUR_TURN: "your_turn",
    Kind.TRADE_OFFERED: "your_turn",
    Kind.AUCTION_OPEN: "your_turn",
    Kind.FORFEITED: "forfeited",
    Kind.GAME_STARTED: "game_started",
    Kind.GAME_OVER: "game_over",
    Kind.REMINDER: "reminder",
    Kind.FORFEIT_WARNING: "forfeit_warning",
    Kind.OUTBID: "outbid",
    Kind.END_PROPOSED: "end_proposed",

    # Issue 29 (reach/)
    Kind.WARNING: "deadline_warning",
    Kind.NUDGE: "nudge",
}


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id=user_id, kind=kind)]))


def list_headers(*, user_id: int, kind: str) -> dict[str, str]:
    """RFC 2369 and RFC 8058: mail programs show an unsubscribe button that POSTs to the URL."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(user_id=user_id, kind=kind)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def footer_context(*, user_id: int, kind: str) -> dict[str, Any]:
    return {
        "unsubscribe_url": unsubscribe_url(user_id=user_id, kind=kind),
        "preferences_url": absolute(reverse("notifications:preferences")),
        "kind_label": Kind(kind).label,
    }


def send_notification(*, notification: Notification) -> tuple[str, str]:
    """E-mail one notification; returns its subject and the address it links to."""
    n = notification
    user = n.user
    if n.kind == Kind.INVITATION:
        from games.models import Invitation

        invitation = Invitation.objects.select_related("table", "invited_by").get(pk=n.data["invitation"])
        subject = game_emails.send_invitation(
            invitation=invitation, headers=list_headers(user_id=user.pk, kind=n.kind),
            extra=footer_context(user_id=user.pk, kind=n.kind))
        return subject, absolute(invite_path(invitation.table.invite_code))
    game = n.game
    context: dict[str, Any] = {
        **game_emails.game_context(game), "user": user, "kind": n.kind, "deadline": game.deadline,
        **footer_context(user_id=user.pk, kind=n.kind),
        # The notification's own facts; a maximum bid is the recipient's own secret (RULES.md 15).
        "data": n.data, "maximum": n.data.get("maximum"),
    }
    if n.data.get("square") is not None:
        from games.engine import GameState

        context["square_name"] = GameState.from_json(game.state).board.name_of(n.data["square"])
    if n.kind == Kind.GAME_OVER:
        from games import selectors

        seats = list(game.table.seats.select_related("user"))
        context["winner"] = selectors.winner_name(game, seats)
        context["you_won"] = game.winner_seat == n.seat
    subject = game_emails.send(
        name=TEMPLATES[n.kind], to=user.email, context=context, language=user.language,
        time_zone=user.time_zone, headers=list_headers(user_id=user.pk, kind=n.kind),
    )
    return subject, context["game_url"]
