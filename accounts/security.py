"""Second factors (issue 31): who must have one, and whether they do.

Moderators (the Moderators group's ``access_moderation`` permission), staff and superusers manage
other people's accounts; their password alone must not be enough. Without a second factor (an
authenticator app or a security key / passkey; recovery codes alone are only a way back in) the
moderation pages and the admin answer with ``accounts/second_factor_required.html``, which explains
and links to the setup (accounts.middleware.SecondFactorRequiredMiddleware), and every moderation
rule (moderation.permissions) refuses, so no service acts for them either.

allauth leaves requiring a factor to each project (its maintainers declined a middleware for it:
pennersr/django-allauth issue 3649, pull request 3710), so this small piece is ours; everything
else (the factors, their pages, sign-in) is allauth.mfa's.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

# The factors that count: an authenticator app or a WebAuthn key; recovery codes only back them up.
FACTOR_TYPES = ("totp", "webauthn")
_CACHE_ATTR = "_has_second_factor"


class SecondFactorRequired(PermissionDenied):
    """A moderator or staff member without a second factor asked for a page of theirs."""


def has_second_factor(user: Any) -> bool:
    """Whether ``user`` has an authenticator app or a security key (memoised on the object)."""
    if user is None or not user.is_authenticated:
        return False
    cached = getattr(user, _CACHE_ATTR, None)
    if cached is None:
        from allauth.mfa.utils import is_mfa_enabled

        cached = is_mfa_enabled(user, types=FACTOR_TYPES)
        setattr(user, _CACHE_ATTR, cached)
    return cached


def forget(user: Any) -> None:
    """Drop the memo after a factor was added or removed."""
    if user is not None and hasattr(user, _CACHE_ATTR):
        delattr(user, _CACHE_ATTR)


def must_have_second_factor(user: Any) -> bool:
    """Staff, superusers and moderators: the accounts an attacker wants most."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_staff or user.is_superuser or user.has_perm("moderation.access_moderation"))


def lacks_required_factor(user: Any) -> bool:
    return must_have_second_factor(user) and not has_second_factor(user)
