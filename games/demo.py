"""The demo game that `bin/run` sets up: the demo user against three strategy bots.

``accounts/management/commands/demo_setup.py`` calls ``create_demo_game(user)`` on every run, so
it is idempotent: while the user's demo game is in play it is returned as it is.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games import services
from games.models import Game, Seat, Table

DEMO_TABLE_NAME = "Demo"
DEMO_BOTS = 3


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
