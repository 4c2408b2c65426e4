"""The names' keys (accounts/names.py, issue 26), and what becomes of the names already taken.

Every account's keys are filled in. Display names that would now be refused keep the account
valid as follows, decided here: accounts are read in the order they joined; a display name
whose key is another account's username, or an earlier account's display name, is cleared (the
account shows its username, unique already), and so is one holding invisible characters (a
bidi override, a control). The first holder of a name keeps it; nobody is renamed to something
new. A data migration only: the site's code has the rules (accounts/models.py).
"""

import unicodedata

import accounts.validators
from django.db import migrations, models

INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def _key(name):
    # (A copy of accounts.names.name_key as it is today: a migration does not import the site.)
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold())
    return " ".join(folded.split())


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    users = list(User.objects.order_by("date_joined", "pk").only("pk", "username", "display_name"))
    usernames = {}
    for user in users:
        usernames.setdefault(_key(user.username), user.pk)
    claimed = {}
    for user in users:
        user.username_key = _key(user.username)
        name = user.display_name
        key = _key(name)
        if name and any(unicodedata.category(c) in INVISIBLE for c in name):
            name, key = "", ""
        if key and (usernames.get(key, user.pk) != user.pk or key in claimed):
            name, key = "", ""
        if key:
            claimed[key] = user.pk
        user.display_name, user.display_key = name, key
    User.objects.bulk_update(users, ["display_name", "display_key", "username_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='display_key',
            field=models.CharField(blank=True, default='', editable=False, max_length=200),
        ),
        migrations.AddField(
            model_name='user',
            name='username_key',
            field=models.CharField(blank=True, db_index=True, default='', editable=False, max_length=600),
        ),
        migrations.AlterField(
            model_name='user',
            name='display_name',
            field=models.CharField(blank=True, help_text='The name other players see. Leave it empty to show your username.', max_length=40, validators=[accounts.validators.validate_visible_name], verbose_name='display name'),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(condition=models.Q(('display_key', ''), _negated=True), fields=('display_key',), name='user_unique_display_key'),
        ),
    ]
