"""The header shows moderators the queue's badge. Whether the user is one is remembered in the
session at sign-in, so that no other page pays a permissions query for it; the moderation pages
check the real permission every time (moderation/permissions.py)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

SESSION_KEY = "moderation_is_moderator"


@receiver(user_logged_in)
def remember_role(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = bool(user.has_perm("moderation.access_moderation"))
