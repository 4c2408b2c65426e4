"""Bounces and complaints from the e-mail provider (issue 14): anymail normalises each
provider's tracking webhook into one signal (NOTES.md); a hard bounce, a spam complaint or a
refusal to send that the provider itself treats as permanent marks the address undeliverable
(services.address_mark_undeliverable) and nothing more is e-mailed to it until its owner
confirms it again (allauth's e-mail confirmation, below). Connected in
apps.NotificationsConfig.ready.

A soft bounce (a full mailbox, a server down for a while, a message too large) says nothing
about the address, and neither does a receiver's block of the sender or a timeout: those leave
the address as it is. Anymail's normalised event does not always tell them apart (its Postmark,
Brevo and Mandrill "bounced" include soft bounces, SparkPost's covers every bounce class), so
for those providers the raw event decides (``permanent``).
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.signals import email_confirmed
from anymail.signals import EventType, RejectReason, tracking
from django.dispatch import receiver

from notifications import services
from notifications.models import Undeliverable

logger = logging.getLogger(__name__)

REASONS = {
    EventType.BOUNCED: Undeliverable.Reason.BOUNCED,
    EventType.COMPLAINED: Undeliverable.Reason.COMPLAINED,
    EventType.REJECTED: Undeliverable.Reason.REJECTED,
}

# SparkPost's bounce classes that it calls hard (Invalid Recipient; Generic Bounce: No RCPT);
# the others are soft, blocks, or administrative.
SPARKPOST_HARD_CLASSES = frozenset({"10", "30"})
# A refusal to send for one of these reasons is not about the address: the provider gave up
# retrying (a timeout) or did not say.
NOT_THE_ADDRESS = frozenset({RejectReason.TIMED_OUT, RejectReason.OTHER})


def _raw(event) -> dict[str, Any]:
    raw = event.esp_event
    return raw if isinstance(raw, dict) else {}


def _sparkpost_event(raw: dict[str, Any]) -> dict[str, Any]:
    """The one event in SparkPost's envelope ({"msys": {"message_event": {...}}})."""
    inner = raw.get("msys")
    return next(iter(inner.values()), {}) if isinstance(inner, dict) and inner else {}


def permanent(event, esp_name: str) -> bool:
    """Whether ``event`` (a bounce, complaint or refusal) means the address should get no more
    e-mail: a hard bounce, a recipient's spam complaint, or what the provider itself treats as
    permanent."""
    raw = _raw(event)
    if esp_name == "Postmark":
        # Postmark says "Inactive" when it deactivates the address itself (a hard bounce, a spam
        # complaint, a bad or manually deactivated address); a soft bounce, a virus or spam
        # filter's notice, an ISP's block of the sender or a DMARC refusal leaves it active.
        return raw.get("Type") in ("HardBounce", "SpamComplaint") or raw.get("Inactive") is True
    if event.event_type == EventType.COMPLAINED:
        return True
    if event.event_type == EventType.BOUNCED:
        if esp_name in ("Brevo", "SendinBlue", "Mandrill"):
            return raw.get("event") != "soft_bounce"
        if esp_name == "SparkPost":
            return str(_sparkpost_event(raw).get("bounce_class")) in SPARKPOST_HARD_CLASSES
        if esp_name == "SendGrid":
            # SendGrid's "blocked" bounce is a temporary refusal by the receiver.
            return raw.get("type") != "blocked"
        # Mailgun's temporary failures are anymail's "deferred" already.
        return True
    # A refusal to send: the provider's suppression of the address (an earlier bounce or
    # complaint, an invalid address), not a timeout or a reason it does not give.
    return event.reject_reason not in NOT_THE_ADDRESS


@receiver(tracking, dispatch_uid="notifications.tracking")
def on_tracking(sender, event, esp_name, **kwargs) -> None:
    reason = REASONS.get(event.event_type)
    if reason is None or not event.recipient:
        return
    if not permanent(event, esp_name):
        logger.info("%s reported a temporary %s for %s (%s): the address stays", esp_name,
                    event.event_type, event.recipient, event.reject_reason or "no reason given")
        return
    services.address_mark_undeliverable(email=event.recipient, reason=reason,
                                        description=event.description or event.mta_response or "")
    logger.info("%s reported %s as %s", esp_name, event.recipient, event.event_type)


@receiver(email_confirmed, dispatch_uid="notifications.email_confirmed")
def on_email_confirmed(sender, request, email_address, **kwargs) -> None:
    services.address_confirmed(email=email_address.email)
