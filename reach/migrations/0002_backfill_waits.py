"""The games under way when issue 29 arrived: each seat they wait on is taken to wait since the
game's last write (the best that is known of it)."""

from django.db import migrations


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Wait = apps.get_model("reach", "Wait")
    rows = []
    for game_id, waiting, updated in Game.objects.filter(status="active").values_list("pk", "waiting_seats",
                                                                                      "updated_at"):
        rows += [Wait(game_id=game_id, seat=p, since=updated) for p in (waiting or [])]
    Wait.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("reach", "0001_initial")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
