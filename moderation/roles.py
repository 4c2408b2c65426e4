"""The Moderators role: a group with explicit permissions, not superusers. Staff make a person a
moderator by adding them to the group in the admin.

The group is made by migration 0002 and made again after every ``migrate`` (and ``flush``, as
tests do) by the post_migrate hook in apps.py, so that it always holds exactly these
permissions of the moderation app."""

from __future__ import annotations

MODERATORS_GROUP = "Moderators"
PERMISSIONS = (
    "access_moderation", "act_on_accounts", "act_on_games", "hide_chat_messages",
    "view_report", "change_report", "view_auditentry", "view_sanction", "add_sanction", "view_chatmessage",
)


def ensure_moderators_group(group_model, permission_model) -> None:
    group, _created = group_model.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(*permission_model.objects.filter(content_type__app_label="moderation",
                                                           codename__in=PERMISSIONS))


def on_post_migrate(sender, apps=None, **kwargs) -> None:
    # ``migrate`` passes the migrated state's apps; ``flush`` (as transactional tests do after
    # each test) passes none, and the installed models are the ones to use then.
    if apps is None:
        from django.apps import apps
    try:
        group_model = apps.get_model("auth", "Group")
        permission_model = apps.get_model("auth", "Permission")
    except LookupError:
        return
    ensure_moderators_group(group_model, permission_model)
