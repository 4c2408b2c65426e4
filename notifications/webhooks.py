"""Bounces and complaints from the e-mail provider (issue 14): anymail normalises each
provider's tracking webhook into one signal (NOTES.md); a bounce, a complaint or a refusal to
send marks the address undeliverable (services.address_mark_undeliverable) and nothing more is
e-mailed to it until its owner confirms it again (allauth's e-mail confirmation, below).
Connected in apps.NotificationsConfig.ready."""

from __future__ import annotations

import logging

from allauth.account.signals import email_confirmed
from anymail.signals import tracking
from django.dispatch import receiver

from notifications import services
from notifications.models import Undeliverable

logger = logging.getLogger(__name__)

REASONS = {
    "bounced": Undeliverable.Reason.BOUNCED,
    "complained": Undeliverable.Reason.COMPLAINED,
    "rejected": Undeliverable.Reason.REJECTED,
}


@receiver(tracking, dispatch_uid="notifications.tracking")
def on_tracking(sender, event, esp_name, **kwargs) -> None:
    reason = REASONS.get(event.event_type)
    if reason is None or not event.recipient:
        return
    services.address_mark_undeliverable(email=event.recipient, reason=reason,
                                        description=event.description or event.mta_response or "")
    logger.info("%s reported %s as %s", esp_name, event.recipient, event.event_type)


@receiver(email_confirmed, dispatch_uid="notifications.email_confirmed")
def on_email_confirmed(sender, request, email_address, **kwargs) -> None:
    services.address_confirmed(email=email_address.email)
