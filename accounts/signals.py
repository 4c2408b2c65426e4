"""Account security hooks (issue 31): security notices by e-mail, and the sign-in time of a
session for the list of sessions. allauth already mails a factor added or removed, a password
or e-mail change (the old address too); a recovery code used, and being made a moderator without
a second factor, are ours. Every notice goes through the account adapter's mail (the site's
e-mail system, in the person's language), never to a list one can unsubscribe from."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts import security
from accounts.middleware import SEEN_KEY


def on_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # The session's row in allauth.usersessions was written at this moment (its own receiver).
    request.session[SEEN_KEY] = time.time()


def on_authenticator_used(sender: Any, request: Any, user: Any, authenticator: Any, **kwargs: Any) -> None:
    from allauth.account.adapter import get_adapter
    from allauth.mfa.models import Authenticator

    if authenticator.type != Authenticator.Type.RECOVERY_CODES:
        return
    # The instance allauth hands over may predate the code being marked used: read it again.
    left = len(Authenticator.objects.get(pk=authenticator.pk).wrap().get_unused_codes())
    with translation.override(getattr(user, "language", None) or settings.LANGUAGE_CODE):
        get_adapter(request).send_notification_mail("mfa/email/recovery_code_used", user, context={"codes_left": left})


def on_authenticators_changed(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    security.forget(user)


def on_groups_changed(sender: Any, instance: Any, action: str, pk_set: Any, **kwargs: Any) -> None:
    """Someone made a moderator is sent, by e-mail, to the second factor's setup they need."""
    from django.contrib.auth.models import Group

    from moderation.roles import MODERATORS_GROUP

    if action != "post_add" or not pk_set or kwargs.get("reverse"):
        return
    if not Group.objects.filter(pk__in=pk_set, name=MODERATORS_GROUP).exists():
        return
    if security.has_second_factor(instance):
        return
    send_second_factor_needed(instance)


def send_second_factor_needed(user: Any) -> None:
    from allauth.account.adapter import get_adapter
    from allauth.account.models import EmailAddress

    from games.links import absolute

    email = EmailAddress.objects.get_primary_email(user) or user.email
    if not email:
        return
    with translation.override(getattr(user, "language", None) or settings.LANGUAGE_CODE):
        get_adapter().send_mail(
            "accounts/email/second_factor_needed", email, {"user": user, "setup_url": absolute(reverse("mfa_index"))}
        )


# What is kept of a linked account's profile (SocialAccount.extra_data): its id, for the game
# chat's mentions (Discord), and the name that tells the player which account is linked.
SOCIAL_FIELDS_KEPT = {
    "discord": ("id", "username", "global_name"),
    "google": ("id", "sub", "name", "email"),
}


def on_social_account_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    kept = SOCIAL_FIELDS_KEPT.get(instance.provider, ("id",))
    data = instance.extra_data if isinstance(instance.extra_data, dict) else {}
    instance.extra_data = {key: data[key] for key in kept if key in data}


def connect() -> None:
    from allauth.account.signals import user_logged_in
    from allauth.mfa.signals import authenticator_added, authenticator_removed, authenticator_used
    from allauth.socialaccount.models import SocialAccount
    from django.contrib.auth import get_user_model
    from django.db.models.signals import m2m_changed, pre_save

    user_logged_in.connect(on_logged_in, dispatch_uid="accounts.session_seen")
    pre_save.connect(on_social_account_saved, sender=SocialAccount, dispatch_uid="accounts.social_fields_kept")
    authenticator_used.connect(on_authenticator_used, dispatch_uid="accounts.recovery_code_used")
    authenticator_added.connect(on_authenticators_changed, dispatch_uid="accounts.factor_added")
    authenticator_removed.connect(on_authenticators_changed, dispatch_uid="accounts.factor_removed")
    m2m_changed.connect(
        on_groups_changed, sender=get_user_model().groups.through, dispatch_uid="accounts.moderator_needs_factor"
    )
