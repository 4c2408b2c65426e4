"""E-mails of the games app: the rendering of every e-mail, and the invitation.

The notifications app decides who hears what (notifications/services.py) and sends through
``send``; invitations to addresses without an account go out from here directly.

Each e-mail is three templates under templates/emails/ (``<name>_subject.txt``, ``<name>.txt``,
``<name>.html``), rendered in the recipient's language and time zone, with absolute links built
from settings.SITE_URL.
"""

from __future__ import annotations

import logging
import re
import unicodedata
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.text import Truncator

from accounts.models import User
from games.links import absolute, game_path, invite_path
from games.models import Game, Invitation, Seat
from games.options import PRESET_LABELS

logger = logging.getLogger(__name__)


def _zone(name: str | None) -> zoneinfo.ZoneInfo | None:
    try:
        return zoneinfo.ZoneInfo(name) if name else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def send(
    *,
    name: str,
    to: str,
    context: dict[str, Any],
    language: str | None = None,
    time_zone: str | None = None,
    headers: dict[str, str] | None = None,
) -> str:
    """Render the three templates of e-mail ``name`` for one recipient and send it (with
    ``headers``: notifications.emails gives every notification its List-Unsubscribe ones).
    Returns the subject (a Web Push of the same notification shows it)."""
    context = {"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL, **context}
    with translation.override(language or settings.LANGUAGE_CODE):
        zone = _zone(time_zone)
        if zone is not None:
            timezone.activate(zone)
        try:
            context["LANGUAGE_CODE"] = translation.get_language()
            # A subject is one line, whatever the template's line breaks, and begins with the
            # site's name in brackets, as allauth's (ACCOUNT_EMAIL_SUBJECT_PREFIX) do.
            subject = " ".join(render_to_string(f"emails/{name}_subject.txt", context).split())
            subject = f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{subject}"
            text = render_to_string(f"emails/{name}.txt", context)
            html = render_to_string(f"emails/{name}.html", context)
        finally:
            if zone is not None:
                timezone.deactivate()
    message = EmailMultiAlternatives(subject=subject, body=text, to=[to], headers=headers)
    message.attach_alternative(html, "text/html")
    message.send()
    return subject


def game_context(game: Game) -> dict[str, Any]:
    table = game.table
    return {
        "game": game,
        "table": table,
        "preset": PRESET_LABELS.get(table.preset, table.preset),
        "game_url": absolute(game_path(game.pk)),
    }


# An invitation goes to an address nobody at the site has checked, with words someone else
# typed (the host's name, the table's): each comes as one short line of plain text that no mail
# program turns into a link.
INVITER_NAME_CHARS = 40  # a display name's length (accounts.models.User)
TABLE_NAME_CHARS = 80  # a table name's length (games.models.Table)
_DOTS = ".\u3002\uff0e\uff61"  # the full stop and the ideographic ones that IDNA reads as dots
_LINK_PARTS = re.compile(
    rf"(?<=[^\W\d_])[{_DOTS}](?=\w)|(?<=\w)[{_DOTS}](?=[^\W\d_])|://"
)


def plain_name(text: str, limit: int) -> str:
    """A name for an e-mail to someone else: one line without control or format characters
    (bidirectional overrides, zero-width ones), at most ``limit`` characters, and with every
    part a mail program could read as a link broken up as "example[.]com", "hxxp[://]".

    Escaping (the HTML body) stops markup; this stops links, which mail programs make of plain
    text too: a dot between letters is every domain name, whatever its top-level domain.
    """
    text = "".join(c for c in str(text) if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace())
    text = Truncator(" ".join(text.split())).chars(limit)
    return _LINK_PARTS.sub(lambda m: f"[{m.group(0)}]", text)


def send_invitation(*, invitation: Invitation, headers: dict[str, str] | None = None,
                    extra: dict[str, Any] | None = None) -> str:
    table = invitation.table
    invitee = User.objects.filter(email__iexact=invitation.email, is_active=True).first()
    # A seat the host keeps for them (a rematch's), while it is kept.
    kept_until = None if invitee is None else (
        table.seats.filter(Seat.kept(), held_for=invitee)
        .values_list("held_until", flat=True).first())
    context = {
        "table": table,
        "table_name": plain_name(table.name, TABLE_NAME_CHARS),
        "preset": PRESET_LABELS.get(table.preset, table.preset),
        # The e-mail speaks for the host, whoever's row it is (only hosts invite).
        "inviter": plain_name(table.host.public_name, INVITER_NAME_CHARS),
        "invite_url": absolute(invite_path(table.invite_code)),
        "invitee": invitee,
        "kept_until": kept_until,
        **(extra or {}),
    }
    language = invitee.language if invitee else invitation.invited_by.language
    return send(
        name="invitation",
        to=invitation.email,
        context=context,
        language=language,
        time_zone=invitee.time_zone if invitee else None,
        headers=headers,
    )
