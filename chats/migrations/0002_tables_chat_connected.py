from django.db import migrations


def mark(apps, schema_editor):
    """Tables that connected a channel before Table.chat_connected existed."""
    Channel = apps.get_model("chats", "Channel")
    Table = apps.get_model("games", "Table")
    Table.objects.filter(pk__in=Channel.objects.values("table_id")).update(chat_connected=True)


class Migration(migrations.Migration):

    dependencies = [
        ("chats", "0001_initial"),
        ("games", "0017_table_chat_connected"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
