"""Reminders on correspondence tables (issue 14): when a quarter of a decision's time is left,
the humans the game still waits on are reminded, and warned instead when a timeout of this
decision would be their third missed turn in a row, the forfeit of RULES.md 11 (or the seat
handed to a bot, RULES.md 15).

No task per deadline (NOTES.md: distant ETAs are held in worker memory and redelivered): each
move writes the game's indexed ``reminder_at`` (games.services.moves._reminder_at) and a periodic
task sweeps the games whose moment has come. A game is claimed with a conditional UPDATE of
that column, so two sweeps never remind for it twice; the notification's unique key (the
deadline) keeps a reminder from going out twice even so.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from notifications import services
from notifications.models import Kind

# Games reminded per run of the sweep; the rest wait for the next run, a minute later.
REMINDER_BATCH = 200


def quarter(table) -> timedelta:
    return timedelta(hours=table.turn_hours or 24) / 4


def plan_reminders(*, game, seats, now: datetime) -> list[services.Item]:
    """The reminders (or warnings) of the decision a game waits on: one per human waited on."""
    from games.engine import GameState

    state = GameState.from_json(game.state)
    humans = {s.position: s.user_id for s in seats if s.user_id and not s.bot}
    limit = state.rules.missed_turns_limit
    key = f"g{game.pk}:remind:{int(game.deadline.timestamp())}"
    items: list[services.Item] = []
    for p in game.waiting_seats or []:
        player = state.players[p]
        if p not in humans or player.bankrupt:
            continue
        data = {"deadline": game.deadline.isoformat()}
        # A player counts one miss per turn (RULES.md 11): only a first timeout this turn counts.
        if player.missed + 1 >= limit and p not in state.turn["timed_out"]:
            items.append([Kind.FORFEIT_WARNING, humans[p], key, p,
                          {**data, "missed": player.missed, "limit": limit,
                           "bot": game.table.absent_seat == "bot", "decisive": True}])
        else:
            items.append([Kind.REMINDER, humans[p], key, p, data])
    return items


def send_reminders(*, now: datetime | None = None) -> int:
    """Every reminder due now; returns the e-mails sent."""
    from games.aids import seat_clock
    from games.models import Game, Table

    now = now or timezone.now()
    due = list(Game.objects.filter(status=Game.Status.ACTIVE, reminder_at__lte=now)
               .order_by("reminder_at").values_list("pk", "reminder_at")[:REMINDER_BATCH])
    sent = 0
    for game_id, moment in due:
        # The claim: of two sweeps, or a sweep and a move that set a new moment, one wins.
        if Game.objects.filter(pk=game_id, reminder_at=moment).update(reminder_at=None) != 1:
            continue
        game = Game.objects.select_related("table").get(pk=game_id)
        table = game.table
        if table.pace != Table.Pace.CORRESPONDENCE or game.deadline is None:
            continue
        if seat_clock.time_left(table, game.deadline, now) > quarter(table):
            # The deadline moved on since the moment was written (a vacation, RULES.md 15):
            # the reminder waits for the new quarter (in playing hours, RULES.md 16), unless a
            # move has set a moment meanwhile.
            Game.objects.filter(pk=game_id, reminder_at__isnull=True).update(
                reminder_at=seat_clock.reminder_at(table, game.deadline, left=quarter(table), now=now))
            continue
        seats = list(table.seats.all())
        sent += services.notify(game_id=game_id, items=plan_reminders(game=game, seats=seats, now=now), now=now)
    return sent
