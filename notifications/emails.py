"""The e-mail of a notification: three templates per kind (templates/emails/), in the
recipient's language and time zone, with the one-click unsubscribe headers of RFC 8058."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import notifications as game_emails
from games.links import absolute
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


def send_notification(*, notification: Notification) -> None:
    n = notification
    user = n.user
    if n.kind == Kind.INVITATION:
        from games.models import Invitation

        invitation = Invitation.objects.select_related("table", "invited_by").get(pk=n.data["invitation"])
        game_emails.send_invitation(invitation=invitation, headers=list_headers(user_id=user.pk, kind=n.kind),
                                    extra=footer_context(user_id=user.pk, kind=n.kind))
        return
    game = n.game
    context: dict[str, Any] = {
        **game_emails.game_context(game), "user": user, "kind": n.kind, "deadline": game.deadline,
        **footer_context(user_id=user.pk, kind=n.kind),
    }
    if n.kind == Kind.GAME_OVER:
        from games import selectors

        seats = list(game.table.seats.select_related("user"))
        context["winner"] = selectors.winner_name(game, seats)
        context["you_won"] = game.winner_seat == n.seat
    game_emails.send(
        name=TEMPLATES[n.kind], to=user.email, context=context, language=user.language,
        time_zone=user.time_zone, headers=list_headers(user_id=user.pk, kind=n.kind),
    )
