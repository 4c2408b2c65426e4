"""The Moderators role: a group with explicit permissions (moderation/roles.py)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from moderation.roles import MODERATORS_GROUP, ensure_moderators_group


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations; this one needs them now.
    config = apps.get_app_config("moderation")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    ensure_moderators_group(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
