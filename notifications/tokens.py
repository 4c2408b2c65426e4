"""The signed tokens of the one-click unsubscribe links (RFC 8058): a module of their own, as
both the e-mails that carry them and the services that act on them need them."""

from __future__ import annotations

from django.core import signing

from notifications.models import Kind

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
DIGEST_KIND = "digest"  # an unsubscribe token's kind for the daily digest itself


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    """A signed token naming a user and a kind: the one-click link of every e-mail (RFC 8058).
    It never expires: an old e-mail's link must still work."""
    return signing.dumps([user_id, kind], salt=UNSUBSCRIBE_SALT, compress=False)


def unsubscribe_target(token: str) -> tuple[int, str] | None:
    """The (user id, kind) of a token, or None for a forged or garbled one."""
    try:
        user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(user_id, int) or kind not in (*Kind.values, DIGEST_KIND):
        return None
    return user_id, kind
