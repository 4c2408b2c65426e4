"""Pause on live tables (RULES.md 11, site level): any player may ask; the pause is granted
only if every active player agrees within ASK_SECONDS (silence is no: the request lapses);
while paused no move is taken and the pending decision's deadline is frozen (what was left is
kept); to resume every player confirms, and play restarts after a countdown of
COUNTDOWN_SECONDS, the decision getting back the time it had left.

"Every player" is every person still in the game: bots never object, and a seat a bot plays
since its player's third missed turn has no say. Bankrupt players have no say either.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

ASK_SECONDS = 30
COUNTDOWN_SECONDS = 10


def voters(seats, state: dict) -> set[int]:
    players = state["players"]
    return {s.position for s in seats
            if s.user_id is not None and not s.bot and not players[s.position]["bankrupt"]}


def current(game, now: datetime | None = None):
    """The game's pause as it stands now, or None: a request past its window has lapsed, and a
    countdown that has run out has resumed play."""
    from games.models import Pause

    now = now or timezone.now()
    pause = Pause.objects.filter(game_id=game.pk).first()
    if pause is None or _over(pause, now):
        return None
    return pause


def _over(pause, now: datetime) -> bool:
    if pause.status == pause.Status.ASKED:
        return now > pause.asked_at + timedelta(seconds=ASK_SECONDS)
    if pause.status == pause.Status.RESUMING:
        return pause.resume_at is not None and now >= pause.resume_at
    return False


def is_paused(game, now: datetime | None = None) -> bool:
    """Whether moves wait now (paused, or the countdown to resume runs), from the game's own
    row (``Game.aids``): no query."""
    mark = (game.aids or {}).get("pause")
    if not mark:
        return False
    if mark == "paused":
        return True
    return (now or timezone.now()) < datetime.fromisoformat(mark)


def refuse_moves(game, now: datetime | None = None) -> None:
    """Raise GameError if the game is paused (services.game_submit_actions)."""
    from games import services

    if is_paused(game, now):
        raise services.GameError(_("the game is paused"))


def _locked(game_id: int, user, now: datetime):
    from games import services
    from games.models import Game, Pause, Table

    game = services._locked_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise services.GameError(_("this game is over"))
    if game.table.pace != Table.Pace.LIVE:
        raise services.GameError(_("only live tables pause"))
    seats = list(game.table.seats.select_related("user"))
    seat = services._seat_of(seats, user)
    if seat is None:
        raise services.NotAllowed(_("you are not playing in this game"))
    who = voters(seats, game.state)
    if seat.position not in who:
        raise services.NotAllowed(_("you have no say in this game any more"))
    pause = Pause.objects.select_for_update().filter(game=game).first()
    if pause is not None and _over(pause, now):
        pause.delete()
        pause = None
    return game, seat.position, who, pause


def _bump(game, pause=None) -> None:
    """Save the game with its pause mark (``Game.aids``); open pages see the change at their
    next poll. The new version makes a queued bot task stale, so the next one is queued here."""
    from games import services

    aids = {k: v for k, v in (game.aids or {}).items() if k != "pause"}
    if pause is not None and pause.status == pause.Status.PAUSED:
        aids["pause"] = "paused"
    elif pause is not None and pause.status == pause.Status.RESUMING:
        aids["pause"] = pause.resume_at.isoformat()
    game.aids = aids
    game.version += 1
    game.save(update_fields=["version", "deadline", "aids", "updated_at"])
    if "pause" not in aids:
        services.queue_site_action(game)  # a bot due before the request plays on
    elif aids["pause"] != "paused":
        # The countdown to resume: the bots' next action comes when it ends.
        services.queue_site_action(game, after=max((pause.resume_at - timezone.now()).total_seconds(), 0))


def _grant(game, pause, now: datetime) -> None:
    pause.status = pause.Status.PAUSED
    pause.remaining = None if game.deadline is None else max(game.deadline - now, timedelta(0))
    pause.save()
    game.deadline = None  # frozen: the sweep finds nothing due


@transaction.atomic
def pause_ask(*, game, user, now: datetime | None = None):
    from games import services
    from games.models import Pause

    now = now or timezone.now()
    game, seat, who, pause = _locked(game.pk, user, now)
    if pause is not None:
        raise services.GameError(_("a pause is already asked") if pause.status == Pause.Status.ASKED
                                 else _("the game is paused"))
    pause = Pause.objects.create(game=game, asked_by=seat, asked_at=now, agreed=[seat])
    if set(pause.agreed) >= who:
        _grant(game, pause, now)
    _bump(game, pause)
    return pause


@transaction.atomic
def pause_answer(*, game, user, agree: bool, now: datetime | None = None):
    """A player's yes or no to the pause asked. A no ends the request."""
    from games import services
    from games.models import Pause

    now = now or timezone.now()
    game, seat, who, pause = _locked(game.pk, user, now)
    if pause is None or pause.status != Pause.Status.ASKED:
        raise services.GameError(_("no pause is asked (a request lapses after %(n)s seconds)"), n=ASK_SECONDS)
    if not agree:
        pause.delete()
        _bump(game)
        return None
    if seat not in pause.agreed:
        pause.agreed = [*pause.agreed, seat]
    if set(pause.agreed) >= who:
        _grant(game, pause, now)
    else:
        pause.save()
    _bump(game, pause)
    return pause


@transaction.atomic
def pause_confirm(*, game, user, now: datetime | None = None):
    """A player is ready to play on; once every player is, the countdown starts."""
    from games import services
    from games.models import Pause

    now = now or timezone.now()
    game, seat, who, pause = _locked(game.pk, user, now)
    if pause is None or pause.status != Pause.Status.PAUSED:
        raise services.GameError(_("the game is not paused"))
    if seat not in pause.confirmed:
        pause.confirmed = [*pause.confirmed, seat]
    if set(pause.confirmed) >= who:
        pause.status = Pause.Status.RESUMING
        pause.resume_at = now + timedelta(seconds=COUNTDOWN_SECONDS)
        if pause.remaining is not None:
            # The decision gets back what it had left, counted from the end of the countdown.
            game.deadline = pause.resume_at + pause.remaining
    pause.save()
    _bump(game, pause)
    return pause
