"""Optional Web Push (issue 14): a notification that is e-mailed is also pushed to the browsers
its user turned push on in (the notification settings). E-mail stays the reliable path
(NOTES.md: lila #6391): a push that fails is logged and forgotten, and a subscription the push
service answers with 404 or 410 (gone: the browser unsubscribed, or it expired) is removed.

VAPID (RFC 8292): the site signs each push with ``VAPID_PRIVATE_KEY`` (from the environment;
the public key the browsers subscribe with is derived from it). Without a key, push is off and
the settings page offers nothing. The push services are a known set of hosts
(``WEB_PUSH_HOSTS``): the site never posts to an address a browser merely claims.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from functools import cache
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from notifications.models import PushSubscription

logger = logging.getLogger(__name__)

PUSH_TIMEOUT = 10  # seconds a push service has to answer
PUSH_TTL = 24 * 60 * 60  # how long a push service keeps a push for a browser that is offline
GONE = (404, 410)


class BadSubscription(ValueError):
    """A subscription the site does not accept (not a push service's, malformed keys)."""


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


@cache
def _vapid(private_key: str):
    from py_vapid import Vapid

    return Vapid.from_string(private_key=private_key)


def vapid():
    return _vapid(settings.VAPID_PRIVATE_KEY)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key() -> str:
    """The application server key browsers subscribe with: the uncompressed P-256 point."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid().public_key.public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    return _b64url(raw)


def _host_allowed(host: str) -> bool:
    return any(host == h or host.endswith("." + h) for h in settings.WEB_PUSH_HOSTS)


def subscription_save(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Record (or take over: the same browser, another account signed in) a subscription."""
    parts = urlsplit(endpoint or "")
    if parts.scheme not in settings.WEB_PUSH_SCHEMES or not parts.hostname or not _host_allowed(parts.hostname):
        raise BadSubscription("not a push service's address")
    if len(endpoint) > 1000:
        raise BadSubscription("the address is too long")
    try:
        key, secret = _unb64url(p256dh or ""), _unb64url(auth or "")
    except (binascii.Error, ValueError) as e:
        raise BadSubscription("the keys are not base64url") from e
    if len(key) != 65 or key[0] != 4 or len(secret) != 16:
        raise BadSubscription("the keys are not a P-256 point and a 16-byte secret")
    with transaction.atomic():
        row, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth})
    return row


def subscription_delete(*, user, endpoint: str) -> int:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def send(*, user_id: int, payload: dict) -> int:
    """Push ``payload`` (title, body, url) to every browser of a user; returns how many took it."""
    if not enabled():
        return 0
    from pywebpush import WebPushException, webpush
    from requests import RequestException

    delivered = 0
    for sub in PushSubscription.objects.filter(user_id=user_id):
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        try:
            webpush(info, data=json.dumps(payload), vapid_private_key=vapid(),
                    vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=PUSH_TTL, timeout=PUSH_TIMEOUT)
        except WebPushException as e:
            if e.status_code in GONE:
                PushSubscription.objects.filter(pk=sub.pk).delete()
            else:
                logger.warning("push to subscription %s failed: %s", sub.pk, e.status_code)
            continue
        except RequestException as e:
            logger.warning("push to subscription %s failed: %s", sub.pk, type(e).__name__)
            continue
        delivered += 1
    return delivered
