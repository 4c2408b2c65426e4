"""The writes of the correspondence aids (RULES.md 15: standing orders, vacation) and of the live
pause (RULES.md 11), HackSoft style: keyword-only services, each in one transaction, refusing with
a GameError and changing nothing. What a move needs of them at every step (the orders' answers,
whether the game is paused, when a clock starts after a vacation) lives in games/aids/standing.py,
games/aids/pause.py and games/aids/vacation.py, which games/services/ reads; this module writes through
games/services/ (one direction only: tests/test_import_cycles.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import site_notes
from games.aids import pause as pauses
from games.aids import seat_clock, standing, vacation
from games.engine import GameState, waiting_on
from games.errors import GameError, NotAllowed, StaleVersion
from games.models import Game, Pause, Seat, StandingOrder, Table, Vacation
from games.services import moves

# The refusals of a seat that may not use an aid (each aid says which apply to it).
BOT_SEAT = _("a bot plays your seat since your third missed turn")
OUT = _("you are out of this game")


def _locked_seat(game_id: int, user, *, pace: str | None = None, wrong_pace: str = "",
                 bot: str = "", out: str = "") -> tuple[Game, list[Seat], Seat]:
    """The game, locked, its seats and ``user``'s seat, for one of the aids' writes: refused
    (GameError or NotAllowed, before anything is written) for a game that is over, a table of
    another ``pace`` than the aid's (``wrong_pace``, the aid's own words) and someone without a
    seat; with ``bot`` or ``out``, for a seat a bot plays or a player out of the game, in those
    words. The game row is taken first, as a move takes it: an aid and a move of one game are
    serialised."""
    game = moves._locked_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("this game is over"))
    if pace is not None and game.table.pace != pace:
        raise GameError(wrong_pace)
    seats = moves._seats(game, None)
    seat = moves._seat_of(seats, user)
    if seat is None:
        raise NotAllowed(_("you are not playing in this game"))
    if bot and seat.bot:
        raise NotAllowed(bot)
    if out and game.state["players"][seat.position]["bankrupt"]:
        raise GameError(out)
    return game, seats, seat


# ---------------------------------------------------------------------------------------------
# Standing orders (RULES.md 15)
# ---------------------------------------------------------------------------------------------


def standing_orders_set(*, game, user, orders: standing.Orders):
    """Set (or change) ``user``'s standing orders in ``game``; orders with nothing in them cancel
    them. Refused (GameError, nothing written) for someone without a seat, a seat a bot plays,
    a finished game and orders that name no decision of this game. The orders apply at once if
    the game already waits on the player for a decision they name. Returns the Submission of
    what they played (``actions`` 0 if nothing)."""
    with transaction.atomic():
        game, seats, seat = _locked_seat(game.pk, user, bot=BOT_SEAT, out=OUT)
        before = game.state
        state = GameState.from_json(before)
        standing.validate(state=state, orders=orders)
        if orders.any:
            StandingOrder.objects.update_or_create(
                game=game, seat=seat.position,
                defaults={"end_turn": orders.end_turn, "jail": orders.jail, "income_tax": orders.income_tax,
                          "casino_skip": orders.casino_skip, "reject_bot_trades": orders.reject_bot_trades,
                          "auction_percent": orders.auction_percent, "roll": orders.roll,
                          "buy_keep": orders.buy_keep})
        else:
            StandingOrder.objects.filter(game=game, seat=seat.position).delete()
        with_orders = set(game.aids.get("orders", ()))
        with_orders = with_orders | {seat.position} if orders.any else with_orders - {seat.position}
        game.aids = {**game.aids, "orders": sorted(with_orders)}
        game.save(update_fields=["aids"])
        # "The moment the game waits on them": it may already.
        moves._clock(game, state, timezone.now())
        sub = moves.Submission(game=game, state=state, before=before)
        if not pauses.is_paused(game):  # (a paused game plays them when it resumes)
            moves._advance(sub, seats)
        if sub.actions:
            moves._write(sub, seats)
        elif not pauses.is_paused(game):
            moves.queue_site_action(game)  # (played by the bots' task when not inline)
        return sub


def standing_orders_cancel(*, game, user):
    """Cancel every standing order of ``user`` in ``game``."""
    return standing_orders_set(game=game, user=user, orders=standing.Orders())


# ---------------------------------------------------------------------------------------------
# Back from the bot (RULES.md 16)
# ---------------------------------------------------------------------------------------------

def seat_take_back(*, game, user):
    """RULES.md 16, back from the bot: a player whose seat a bot took (``absent_seat: bot``) takes
    it back, once per game, from the next decision on: if the game waits on the seat now, the bot
    finishes that decision first (logged as the bot's). They still count as forfeited for
    ratings and progress (the record keeps the takeover). Refused (GameError or NotAllowed,
    nothing written) on a table that hands no seat to a bot, for a seat its player plays, a
    second time, and for a player out of the game. Returns the Submission."""
    with transaction.atomic():
        game, seats, seat = _locked_seat(game.pk, user, out=OUT)
        if game.table.absent_seat != Table.AbsentSeat.BOT:
            raise GameError(_("no bot takes seats at this table"))
        if not seat.bot or seat.account_deleted:
            raise GameError(_("you play your seat yourself"))
        back = set((game.aids or {}).get("back", ()))
        if seat.position in back:
            raise GameError(_("you took your seat back once already in this game"))
        before = game.state
        state = GameState.from_json(before)
        sub = moves.Submission(game=game, state=state, before=before)
        if seat.position in waiting_on(state) and not pauses.is_paused(game):
            moves._apply(sub, moves._bot_action(sub, seat.position, seat.bot), seat=seat.position,
                            source="bot")
        seat.bot = Seat.Bot.NONE
        seat.save(update_fields=["bot"])
        # The log and the record say it, the player's own doing (games/site_notes.py).
        site_notes.note(sub, seat=seat.position, what="back_from_bot", source="player", user=user)
        game.aids = _outside_the_parts({**(game.aids or {}), "back": sorted(back | {seat.position})},
                                       game.version + 1)
        game.save(update_fields=["aids"])
        if not pauses.is_paused(game):  # (a paused game moves on when it resumes)
            moves._advance(sub, seats)
        moves._write(sub, seats)
        return sub


# ---------------------------------------------------------------------------------------------
# Vacation (RULES.md 15)
# ---------------------------------------------------------------------------------------------

def _player(game_id: int, user):
    game, _seats, seat = _locked_seat(game_id, user, pace=Table.Pace.CORRESPONDENCE,
                                      wrong_pace=_("vacations are for correspondence tables"),
                                      bot=BOT_SEAT, out=OUT)
    return game, seat


@transaction.atomic
def vacation_take(*, game, user, days, now: datetime | None = None, expected_version: int | None = None):
    """``user`` goes on vacation in ``game`` for ``days`` whole days (a vacation under way is
    extended). Refused (GameError, nothing written) on a live table, with no allowance left, for
    a number of days that is not a whole number from 1 to what is left, and (StaleVersion) from
    a page older than the game (``expected_version``: a second click takes no days twice).
    Returns the Vacation."""

    now = now or timezone.now()
    game, seat = _player(game.pk, user)
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(
            _("the game has moved on since your page was drawn; here is the current position"))
    allowance = game.table.vacation_days
    if allowance == 0:
        raise GameError(_("this table gives no vacation"))
    row, _created = Vacation.objects.select_for_update().get_or_create(game=game, seat=seat.position)
    left = allowance - row.days_used
    if left <= 0:
        raise GameError(_("you have no vacation days left in this game"))
    if type(days) is not int or not 1 <= days <= left:
        raise GameError(_("take from 1 to %(n)s whole days"), n=left)
    was_back = row.until if row.until is not None and row.until > now else now
    if row.until is not None and row.until > now:
        row.until += days * vacation.DAY
    else:
        row.started_at, row.until = now, now + days * vacation.DAY
    row.days_used += days
    row.save()
    _move_deadline(game, seat.position, was_back, row.until, now)
    return row


@transaction.atomic
def vacation_auto_set(*, game, user, on: bool):
    """RULES.md 16, auto-vacation: ``user`` chooses whether a timeout that would fall on them in
    ``game`` takes a vacation day instead (on by default). Refused like a vacation (a live table,
    a table without vacation, a seat a bot plays). Returns the Vacation row."""
    game, seat = _player(game.pk, user)
    if type(on) is not bool:
        raise GameError(_("choose on or off"))
    if game.table.vacation_days == 0:
        raise GameError(_("this table gives no vacation"))
    row, _created = Vacation.objects.select_for_update().get_or_create(game=game, seat=seat.position)
    row.auto = on
    row.save(update_fields=["auto"])
    game.aids = _outside_the_parts(game.aids, game.version)
    game.save(update_fields=["aids"])
    return row


@transaction.atomic
def vacation_end(*, game, user, now: datetime | None = None):
    """``user`` is back before the end of their vacation: the whole days not begun go back to
    their allowance, and a deadline waiting on them moves back by as many days."""

    now = now or timezone.now()
    game, seat = _player(game.pk, user)
    row = Vacation.objects.select_for_update().filter(game=game, seat=seat.position, until__gt=now).first()
    if row is None:
        raise GameError(_("you are not on vacation"))
    unused = int((row.until - now) // vacation.DAY)
    was_back = row.until
    row.days_used -= unused
    row.until = now
    row.save()
    # The day under way is spent: the decision's clock stays frozen to its end.
    _move_deadline(game, seat.position, was_back, was_back - unused * vacation.DAY, now)
    return row


def _move_deadline(game, seat: int, was_back: datetime, back: datetime, now: datetime) -> None:
    """The seat's vacation now ends at ``back`` (it ended at ``was_back``, or it was not away:
    ``now``). A decision waiting on the seat has its clock frozen until the last of the players
    it waits on is back (RULES.md 15): its deadline moves by as much as that moment moves, so
    that vacations of two players waited on at once overlap rather than add up, and one ending
    early gives back nothing while another waited-on player is still away (an open auction). Its
    reminder moves with it, as a fresh deadline's would (issue 14: at a quarter of the time
    left; sent again if the one of the old deadline went out already). The version goes up
    either way, so that open pages show the vacation."""
    fields = ["version", "aids", "updated_at"]
    waiting = game.waiting_seats or []
    if game.deadline is not None and seat in waiting and seat_clock.enabled(game.table):
        # RULES.md 16: the seat's own clock stops and restarts when they are back; the others'
        # run on (each waited-on person has a clock of their own).
        game.deadline = seat_clock.vacation(game, seat, back, now) or game.deadline
        game.reminder_at = moves._reminder_at(game)
        fields += ["deadline", "reminder_at"]
    elif game.deadline is not None and seat in waiting:
        others = list(Vacation.objects.filter(game=game, seat__in=waiting, until__gt=now)
                      .exclude(seat=seat).values_list("until", flat=True))
        by = max([now, back, *others]) - max([now, was_back, *others])
        if by:
            game.deadline += by
            game.reminder_at = moves._reminder_at(game)
            fields += ["deadline", "reminder_at"]
    game.version += 1
    game.aids = _outside_the_parts(game.aids, game.version)
    game.save(update_fields=fields)


def _outside_the_parts(aids: dict | None, version: int) -> dict:
    """``Game.aids`` marked with the version that changed what the aids panel shows: the page's
    frame mark changes with it, so that a page from before gets the whole fragment, not only the
    parts a move redraws (games/views/page/parts.py)."""
    return {**(aids or {}), "shown": version}


# ---------------------------------------------------------------------------------------------
# Pause on live tables (RULES.md 11)
# ---------------------------------------------------------------------------------------------

def _locked(game_id: int, user, now: datetime):
    # (A seat a bot plays, or a player out of the game, has no vote: the words say so.)
    game, seats, seat = _locked_seat(game_id, user, pace=Table.Pace.LIVE, wrong_pace=_("only live tables pause"))
    who = pauses.voters(seats, game.state)
    if seat.position not in who:
        raise NotAllowed(_("you have no say in this game any more"))
    pause = Pause.objects.select_for_update().filter(game=game).first()
    if pause is not None and pauses._over(pause, now):
        pause.delete()
        pause = None
    return game, seat.position, who, pause


def _bump(game, pause=None) -> None:
    """Save the game with its pause mark (``Game.aids``); open pages see the change at their
    next poll. The new version makes a queued bot task stale, so the next one is queued here."""

    aids = {k: v for k, v in (game.aids or {}).items() if k != "pause"}
    if pause is not None and pause.status == pause.Status.PAUSED:
        aids["pause"] = "paused"
    elif pause is not None and pause.status == pause.Status.RESUMING:
        aids["pause"] = pause.resume_at.isoformat()
    game.version += 1
    game.aids = _outside_the_parts(aids, game.version)
    game.save(update_fields=["version", "deadline", "aids", "updated_at"])
    if "pause" not in aids:
        moves.queue_site_action(game)  # a bot due before the request plays on
    elif aids["pause"] != "paused":
        # The countdown to resume: the bots' next action comes when it ends.
        moves.queue_site_action(game, after=max((pause.resume_at - timezone.now()).total_seconds(), 0))


def _grant(game, pause, now: datetime) -> None:
    pause.status = pause.Status.PAUSED
    pause.paused_at = now
    pause.remaining = None if game.deadline is None else max(game.deadline - now, timedelta(0))
    pause.save()
    game.deadline = None  # frozen: the sweep finds nothing due


@transaction.atomic
def pause_ask(*, game, user, now: datetime | None = None):

    now = now or timezone.now()
    game, seat, who, pause = _locked(game.pk, user, now)
    if pause is not None:
        raise GameError(_("a pause is already asked") if pause.status == Pause.Status.ASKED
                                 else _("the game is paused"))
    pause = Pause.objects.create(game=game, asked_by=seat, asked_at=now, agreed=[seat])
    if set(pause.agreed) >= who:
        _grant(game, pause, now)
    _bump(game, pause)
    return pause


@transaction.atomic
def pause_answer(*, game, user, agree: bool, now: datetime | None = None):
    """A player's yes or no to the pause asked. A no ends the request."""

    now = now or timezone.now()
    game, seat, who, pause = _locked(game.pk, user, now)
    if pause is None or pause.status != Pause.Status.ASKED:
        raise GameError(_("no pause is asked (a request lapses after %(n)s seconds)"), n=pauses.ASK_SECONDS)
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

    now = now or timezone.now()
    game, seat, who, pause = _locked(game.pk, user, now)
    if pause is None or pause.status != Pause.Status.PAUSED:
        raise GameError(_("the game is not paused"))
    if seat not in pause.confirmed:
        pause.confirmed = [*pause.confirmed, seat]
    if set(pause.confirmed) >= who:
        _resume(game, pause, now)
    pause.save()
    _bump(game, pause)
    return pause


def _resume(game, pause, at: datetime) -> None:
    """The countdown to resume starts ``at``; the decision gets back what it had left, counted
    from the end of the countdown."""
    pause.status = Pause.Status.RESUMING
    pause.resume_at = at + timedelta(seconds=pauses.COUNTDOWN_SECONDS)
    if pause.remaining is not None:
        game.deadline = pause.resume_at + pause.remaining


def pauses_expire(*, now: datetime | None = None) -> int:
    """RULES.md 16, pause length: every pause that has lasted its table's ``pause_max_minutes``
    resumes as if every player had confirmed, its countdown starting when the time ran out
    (however late this sweep). Each game in a transaction of its own, its row locked as a move
    locks it, the pause read again under the lock (a confirmation meanwhile wins). Returns the
    number of pauses ended."""
    now = now or timezone.now()
    due = [p.game_id for p in Pause.objects.filter(status=Pause.Status.PAUSED).select_related("game__table")
           if (at := pauses.expires_at(p, p.game.table)) is not None and at <= now]
    ended = 0
    for game_id in due:
        with transaction.atomic():
            game = moves._locked_game(game_id)
            pause = Pause.objects.select_for_update().filter(game=game).first()
            at = None if pause is None else pauses.expires_at(pause, game.table)
            if at is None or at > now or game.status != Game.Status.ACTIVE:
                continue
            _resume(game, pause, at)
            pause.save()
            # The log and the record say the pause ended by its length, the clock's doing.
            state = GameState.from_json(game.state)
            sub = moves.Submission(game=game, state=state, before=game.state)
            site_notes.note(sub, seat=state.current, what="pause_cap", source="clock")
            site_notes.write_notes(sub)
            _bump(game, pause)
            ended += 1
    return ended
