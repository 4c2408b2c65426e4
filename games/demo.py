"""The demo that `bin/run` sets up (``manage.py demo_setup``, games/management/commands/): the
demo login and its game against three strategy bots.

The command runs on every start, so both are idempotent: the login is reset to the printed
password, and while the user's demo game is in play it is returned as it is.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.db import transaction

from accounts.models import User
from games import services
from games.models import Game, Seat, Table

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_EMAIL = "demo@example.com"
DEMO_TABLE_NAME = "Demo"
DEMO_BOTS = 3


def demo_user_ensure() -> User:
    """The demo user, created or reset so that the printed login always works."""
    with transaction.atomic():
        user, _created = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"email": DEMO_EMAIL, "display_name": "Demo"},
        )
        user.email = DEMO_EMAIL
        user.is_active = True
        user.set_password(DEMO_PASSWORD)
        user.save()
        # Sign-up demands a verified address; the demo account's is verified up front.
        EmailAddress.objects.filter(user=user).exclude(email__iexact=DEMO_EMAIL).delete()
        EmailAddress.objects.update_or_create(
            user=user,
            email=DEMO_EMAIL,
            defaults={"verified": True, "primary": True},
        )
    return user


@transaction.atomic
def create_demo_game(user: User) -> Game:
    """The user's demo game in play, or a new one: a public correspondence table (classic
    rules, 24 h per turn) with the user in seat 0 and strategy bots in the other seats."""
    # Lock the user's row so that two concurrent runs cannot both create a demo table.
    User.objects.select_for_update().get(pk=user.pk)
    game = (
        Game.objects.filter(
            table__host=user, table__name=DEMO_TABLE_NAME, status=Game.Status.ACTIVE
        )
        .select_related("table")
        .order_by("-pk")
        .first()
    )
    if game is not None:
        return game
    # A demo table left open (say the start failed half-way on an earlier run) is reused.
    table = (
        Table.objects.filter(host=user, name=DEMO_TABLE_NAME, status=Table.Status.OPEN)
        .order_by("-pk")
        .first()
    )
    if table is None:
        table = services.table_create(
            host=user,
            name=DEMO_TABLE_NAME,
            preset="classic",
            pace=Table.Pace.CORRESPONDENCE,
            turn_hours=24,
            seat_count=DEMO_BOTS + 1,
            is_private=False,
        )
    for seat in table.seats.all():
        if seat.is_empty:
            services.table_set_seat(
                table=table, by=user, position=seat.position, bot=Seat.Bot.STRATEGY
            )
    return services.table_start(table=table, by=user)
