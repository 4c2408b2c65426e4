"""Since when each game waits on each seat, and the games that wait on a person, longest first
(issue 29: the "next game waiting" control, My games, nudges, the calendar).

``record`` is the one hook in the move's write (games.services.moves._write): it runs in the move's
transaction only when whom the game waits on changed, with at most two statements (the ended
waits deleted, the new ones inserted). Reads take one query whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import F

from reach.models import Wait


def record(*, game_id: int, before: Iterable[int] | None, waiting: Iterable[int], now: datetime,
           people: Iterable[int], over: bool = False) -> None:
    """The waits of one written move: ``before`` is whom the game waited on before it (None at
    the start; a seat whose decision timed out and that is waited on again is left out of it by
    the caller, its new decision being a new wait), ``waiting`` whom it waits on now. Only the
    seats of ``people`` (humans) count: nobody nudges a bot or is sent to a bot's game, and a
    move that hands the turn to a bot costs one statement, not two."""
    people = set(people)
    before = set(before or ()) & people
    waiting = set() if over else set(waiting) & people
    ended = before - waiting
    if over:
        Wait.objects.filter(game_id=game_id).delete()
    elif ended:
        Wait.objects.filter(game_id=game_id, seat__in=ended).delete()
    new = waiting - before
    if new:
        # A seat told again (a timed-out decision followed by a new one) starts a new wait: its
        # row, if any, takes the new moment.
        Wait.objects.bulk_create([Wait(game_id=game_id, seat=p, since=now) for p in sorted(new)],
                                 update_conflicts=True, unique_fields=["game", "seat"], update_fields=["since"])


def waiting_on(user):
    """The waits of the active games that wait on ``user`` (as a human in a seat), longest
    first: one query, with the game and its table."""
    from games.models import Game

    return (Wait.objects.filter(game__status=Game.Status.ACTIVE, game__table__seats__user=user,
                                game__table__seats__bot="", game__table__seats__position=F("seat"))
            .select_related("game__table").defer("game__state").order_by("since", "game_id"))


def next_game(user, *, after: int | None = None) -> int | None:
    """The game that has waited on ``user`` longest; with ``after`` (the game they are looking
    at), the one after it in that order, and the first again after the last. One query."""
    ids = list(waiting_on(user).values_list("game_id", flat=True))
    # (A game waiting on two of one's seats is not possible: one seat per person and table.)
    if not ids:
        return None
    if after in ids:
        return ids[(ids.index(after) + 1) % len(ids)]
    return ids[0]


def since_by_game(user) -> dict[int, datetime]:
    """For My games: since when each game waits on ``user``. One query."""
    return dict(waiting_on(user).values_list("game_id", "since"))


def since(*, game_id: int, seat: int) -> datetime | None:
    return Wait.objects.filter(game_id=game_id, seat=seat).values_list("since", flat=True).first()
