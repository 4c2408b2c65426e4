"""The Moderators role: a group with explicit permissions (not superusers). Staff make a person a
moderator by adding them to this group in the admin."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    "access_moderation", "act_on_accounts", "act_on_games", "hide_chat_messages",
    "view_report", "change_report", "view_auditentry", "view_sanction", "add_sanction", "view_chatmessage",
]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations; this one needs them now.
    config = apps.get_app_config("moderation")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="moderation", codename__in=PERMISSIONS))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
