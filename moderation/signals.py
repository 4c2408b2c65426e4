"""The header shows moderators the queue's badge. Whether the user is one is remembered in the
session at sign-in, so that no other page pays a permissions query for it; the moderation pages
check the real permission every time (moderation/permissions.py).

A user's sanctions changed, however it was done (the moderation services, the admin): the cache
that remembers they have no suspension or ban forgets it (selectors.lockout)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from moderation.models import Sanction
from moderation.selectors import forget_lockout as _forget

SESSION_KEY = "moderation_is_moderator"


@receiver(user_logged_in)
def remember_role(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = bool(user.has_perm("moderation.access_moderation"))


@receiver(post_save, sender=Sanction, dispatch_uid="moderation-sanction-saved")
@receiver(post_delete, sender=Sanction, dispatch_uid="moderation-sanction-deleted")
def forget_lockout(sender, instance: Sanction, **kwargs) -> None:
    _forget(user_id=instance.user_id)
