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
import re
import time
from functools import cache
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction

from notifications.models import PushSubscription

logger = logging.getLogger(__name__)

# A push service that never answers must not hold a worker thread: each request gets a short
# timeout, and one notification's pushes together get a budget, past which the user's remaining
# browsers are skipped (e-mail is the reliable path; issue 26).
PUSH_TIMEOUT = 3  # seconds one push service has to answer
PUSH_BUDGET = 8  # seconds all the pushes of one notification may take
PUSH_TTL = 24 * 60 * 60  # how long a push service keeps a push for a browser that is offline
GONE = (404, 410)
# The browsers one account may have push turned on in.
MAX_SUBSCRIPTIONS = 10
_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_clock = time.monotonic  # (a test replaces it: the budget is counted on it)


class BadSubscription(ValueError):
    """A subscription the site does not accept (not a push service's, malformed keys)."""


class SubscriptionTaken(BadSubscription):
    """The endpoint is another account's: it stays theirs (a browser is not moved by a POST)."""


class TooManySubscriptions(BadSubscription):
    """The account has push on in MAX_SUBSCRIPTIONS browsers already."""


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


def public_key() -> str:
    """The application server key browsers subscribe with: the uncompressed P-256 point."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid().public_key.public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    return _b64url(raw)


def _host_allowed(host: str) -> bool:
    return any(host == h or host.endswith("." + h) for h in settings.WEB_PUSH_HOSTS)


def _check_endpoint(endpoint: str) -> None:
    """A push service's address: https (WEB_PUSH_SCHEMES), a known host (WEB_PUSH_HOSTS), its
    port (WEB_PUSH_PORTS: 443), and no user name or password in it."""
    if len(endpoint) > 1000:
        raise BadSubscription("the address is too long")
    parts = urlsplit(endpoint)
    try:
        port = parts.port
    except ValueError as e:
        raise BadSubscription("the address has no valid port") from e
    if parts.scheme not in settings.WEB_PUSH_SCHEMES or not parts.hostname or not _host_allowed(parts.hostname):
        raise BadSubscription("not a push service's address")
    if "@" in parts.netloc:
        raise BadSubscription("the address holds a user name or password")
    if (port if port is not None else {"https": 443, "http": 80}.get(parts.scheme)) not in settings.WEB_PUSH_PORTS:
        raise BadSubscription("not a push service's port")


def _key_bytes(text: str, what: str) -> bytes:
    if not _B64URL.fullmatch(text or ""):
        raise BadSubscription(f"the {what} is not base64url")
    bare = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except (binascii.Error, ValueError) as e:
        raise BadSubscription(f"the {what} is not base64url") from e


def _check_keys(p256dh: str, auth: str) -> None:
    """RFC 8291's keys: p256dh an uncompressed point of P-256 (checked on the curve by
    cryptography, as pywebpush will use it), auth a 16-byte secret."""
    from cryptography.hazmat.primitives.asymmetric import ec

    key, secret = _key_bytes(p256dh, "p256dh key"), _key_bytes(auth, "auth secret")
    if len(key) != 65 or key[0] != 4:
        raise BadSubscription("the p256dh key is not an uncompressed P-256 point")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    except ValueError as e:
        raise BadSubscription("the p256dh key is not a point of P-256") from e
    if len(secret) != 16:
        raise BadSubscription("the auth secret is not 16 bytes")


def subscription_save(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Record a subscription of ``user``'s browser, or renew its keys. Refused: an address that
    is not a push service's, malformed keys, an endpoint another account has (SubscriptionTaken:
    never moved to the poster), an account with MAX_SUBSCRIPTIONS already (TooManySubscriptions)."""
    from accounts.models import User

    endpoint = endpoint or ""
    _check_endpoint(endpoint)
    _check_keys(p256dh, auth)
    with transaction.atomic():
        # The account's row, locked: two subscriptions of theirs at once are counted in turn.
        User.objects.select_for_update().filter(pk=user.pk).first()
        row = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if row is not None and row.user_id != user.pk:
            raise SubscriptionTaken("the endpoint is another account's")
        if row is None:
            if PushSubscription.objects.filter(user=user).count() >= MAX_SUBSCRIPTIONS:
                raise TooManySubscriptions(f"at most {MAX_SUBSCRIPTIONS} browsers")
            try:
                with transaction.atomic():
                    return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
            except IntegrityError as e:  # another account took it at the same moment
                raise SubscriptionTaken("the endpoint is another account's") from e
        row.p256dh, row.auth = p256dh, auth
        row.save(update_fields=["p256dh", "auth"])
    return row


def subscription_delete(*, user, endpoint: str) -> int:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def send(*, user_id: int, payload: dict) -> int:
    """Push ``payload`` (title, body, url) to a user's browsers, newest first; returns how many
    took it. Each browser's failure is its own (logged, the next is tried); the pushes stop
    when PUSH_BUDGET is spent."""
    if not enabled():
        return 0
    from pywebpush import WebPushException, webpush
    from requests import RequestException

    deadline = _clock() + PUSH_BUDGET
    delivered = 0
    subs = list(PushSubscription.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:MAX_SUBSCRIPTIONS])
    for i, sub in enumerate(subs):
        remaining = deadline - _clock()
        if remaining <= 0:
            logger.warning("push budget spent: %s browsers of user %s skipped", len(subs) - i, user_id)
            break
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        try:
            webpush(info, data=json.dumps(payload), vapid_private_key=vapid(),
                    vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=PUSH_TTL,
                    timeout=min(PUSH_TIMEOUT, remaining))
        except WebPushException as e:
            if e.status_code in GONE:
                PushSubscription.objects.filter(pk=sub.pk).delete()
            else:
                logger.warning("push to subscription %s failed: %s", sub.pk, e.status_code)
            continue
        except RequestException as e:
            logger.warning("push to subscription %s failed: %s", sub.pk, type(e).__name__)
            continue
        except Exception:
            # (A row the checks above would refuse today, a library's surprise: this browser's
            # failure, not the others'.)
            logger.exception("push to subscription %s failed", sub.pk)
            continue
        delivered += 1
    return delivered
