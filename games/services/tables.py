"""The writes of a table before its game: create, join, seats and teams, holds, invitations by
e-mail, and the start (which hands the first position to games/services/moves.py)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import without_invisible
from config.celery import queue_on_commit
from games import clock, meter
from games.aids import pause
from games.engine import (
    EngineError,
    GameState,
    InvalidRules,
    new_game,
)
from games.errors import GameError, NotAllowed
from games.models import (
    DeckRow,
    DeedRow,
    Game,
    GameAction,
    Invitation,
    Seat,
    Table,
)
from games.options import clock_refusal, table_rules
from games.services.moves import Submission, _advance, _write
from moderation.selectors import is_blocked

# RULES.md 16: the largest round limit a table may set.
ROUND_LIMIT_MAX = 1000

@transaction.atomic
def table_create(*, host, name: str, preset: str, options: dict[str, Any] | None = None,
                 pace: str = Table.Pace.CORRESPONDENCE, turn_hours: int | None = 24,
                 seat_count: int | None = None, is_private: bool = False,
                 absent_seat: str = Table.AbsentSeat.OUT, vacation_days: int = 7,
                 pause_max_minutes: int = pause.PAUSE_MAX_MINUTES_DEFAULT, time_bank_hours: int = 0,
                 time_bank_increment_hours: int = 0, playing_hours: str = "", count_weekends: bool = True,
                 time_zone: str | None = None, round_limit: int | None = None,
                 advisor: bool = False) -> Table:
    options = dict(options or {})
    meter.table_check(preset=preset, options=options, advisor=advisor)  # issue 30, the trade meter
    try:
        rules = table_rules(preset=preset, options=options, pace=pace)
    except InvalidRules as e:
        raise GameError(e) from e
    lo, hi = rules.seats
    seat_count = seat_count or hi
    if not lo <= seat_count <= hi:
        raise GameError(_("this rule set seats %(lo)s to %(hi)s players"), lo=lo, hi=hi)
    if pace not in Table.Pace.values:
        raise GameError(_("pace must be live or correspondence"))
    if absent_seat not in Table.AbsentSeat.values:
        raise GameError(_("choose what becomes of an absent player's seat"))
    if pace == Table.Pace.CORRESPONDENCE:
        if turn_hours not in Table.TURN_HOURS:
            raise GameError(_("choose 1, 12, 24 or 72 hours per turn"))
        if type(vacation_days) is not int or not 0 <= vacation_days <= 60:
            raise GameError(_("vacation days per player: from 0 to 60"))
        # RULES.md 16: the table's zone is its host's unless said; a clock no decision can
        # live with is refused (games/clock.py), in the words of games/options.py.
        time_zone = time_zone or getattr(host, "time_zone", "") or "UTC"
        playing_hours = (playing_hours or "").strip()
        try:
            if any(type(v) is not int for v in (time_bank_hours, time_bank_increment_hours)):
                raise clock.ClockError("whole hours", "hours_whole")
            clock.check(own=timedelta(hours=turn_hours), bank=timedelta(hours=time_bank_hours),
                        increment=timedelta(hours=time_bank_increment_hours))
            hours = clock.table_hours(playing_hours, time_zone, bool(count_weekends))
        except clock.ClockError as e:
            raise GameError(clock_refusal(e)) from e
        playing_hours = hours.text if hours is not None and playing_hours else ""
    else:
        # The clocks of RULES.md 16 are for correspondence tables.
        time_bank_hours = time_bank_increment_hours = 0
        playing_hours, count_weekends, time_zone = "", True, time_zone or "UTC"
        turn_hours = None
        vacation_days = 0  # RULES.md 15: vacations are for correspondence tables
        if type(pause_max_minutes) is not int or not 1 <= pause_max_minutes <= pause.PAUSE_MAX_MINUTES_MAX:
            raise GameError(_("a pause lasts from 1 to %(n)s minutes"), n=pause.PAUSE_MAX_MINUTES_MAX)
    if round_limit is not None and (type(round_limit) is not int or not 1 <= round_limit <= ROUND_LIMIT_MAX):
        raise GameError(_("a round limit is a whole number of rounds from 1 to %(n)s"), n=ROUND_LIMIT_MAX)
    # The default name is in the host's language (the request's), as they would type it.
    default = translation.gettext("%(name)s's table") % {"name": host.display_name or host.username}
    # A table's name loses its invisible characters (issue 26: a U+202E in it reversed the text
    # after it on every page that showed it).
    name = without_invisible(" ".join((name or "").split())) or default
    table = Table.objects.create(host=host, name=name[:80], preset=preset, options=options, pace=pace,
                                 turn_hours=turn_hours, seat_count=seat_count, is_private=is_private,
                                 absent_seat=absent_seat, vacation_days=vacation_days,
                                 pause_max_minutes=pause_max_minutes, time_bank_hours=time_bank_hours,
                                 time_bank_increment_hours=time_bank_increment_hours,
                                 playing_hours=playing_hours, count_weekends=bool(count_weekends),
                                 time_zone=time_zone, round_limit=round_limit, advisor=advisor)
    Seat.objects.bulk_create([
        Seat(table=table, position=i, user=host if i == 0 else None,
             team=(i % 2) if rules.teams else None)
        for i in range(seat_count)
    ])
    return table


def _open_table(table_id: int) -> Table:
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status != Table.Status.OPEN:
        raise GameError(_("this table is no longer open"))
    return table


@transaction.atomic
def table_join(*, table: Table, user, position: int | None = None) -> Seat:
    """``user`` sits at an empty seat (``position``, or the one kept for them, or the first
    free one). A seat kept for someone else (``Seat.held_for``, a rematch's) is not free until
    its hold ends; whoever sits down gives up any other seat kept for them at the table."""
    table = _open_table(table.pk)
    seats = list(table.seats.select_for_update())
    if any(s.user_id == user.pk for s in seats):
        raise GameError(_("you already have a seat at this table"))
    now = timezone.now()
    empty = [s for s in seats if s.is_empty and (position is None or s.position == position)]
    if not empty:
        raise GameError(_("that seat is taken") if position is not None else _("the table is full"))
    free = [s for s in empty if s.held_for_at(now) in (None, user.pk)]
    if not free:
        raise GameError(_("that seat is kept for a player of the last game") if position is not None
                        else _("the free seats are kept for the players of the last game"))
    seat = next((s for s in free if s.held_for_at(now) == user.pk), free[0])
    seat.user = user
    seat.held_for, seat.held_until = None, None  # (kept for them, or a hold that has ended)
    fields = ["user", "held_for", "held_until"]
    if table.rules.teams:
        seat.team = _lighter_team(seats, seat)
        fields.append("team")
    seat.save(update_fields=fields)
    _holds_release(table, user)
    return seat


def _holds_release(table: Table, user) -> None:
    """The seats kept for ``user`` at ``table`` are kept no longer (they have sat down)."""
    table.seats.filter(held_for=user).update(held_for=None, held_until=None)


@transaction.atomic
def table_hold_seats(*, table: Table, by, holds: dict[int, Any], until: datetime) -> list[Seat]:
    """The host keeps empty seats (position: user) for those people until ``until``: nobody
    else may sit there before (a rematch keeps each player of the last game their seat). Refused
    for anyone but the host, on a table no longer open, for a seat that is not empty and for a
    moment already past; nothing is written then."""
    table = _open_table(table.pk)
    if table.host_id != by.pk:
        raise NotAllowed(_("only the host may keep seats"))
    if until <= timezone.now():
        raise GameError(_("a seat is kept until a moment to come"))
    seats = {s.position: s for s in table.seats.select_for_update()}
    held = []
    for position, user in holds.items():
        seat = seats.get(position)
        if seat is None:
            raise GameError(_("no such seat"))
        if not seat.is_empty:
            raise GameError(_("that seat is taken"))
        seat.held_for, seat.held_until = user, until
        held.append(seat)
    Seat.objects.bulk_update(held, ["held_for", "held_until"])
    return held


def _lighter_team(seats: list[Seat], seat: Seat) -> int:
    """The team with fewer occupied seats (the seat's own team on a tie), for a newcomer."""
    counts = [sum(1 for s in seats if s.team == t and s.pk != seat.pk and not s.is_empty) for t in (0, 1)]
    if counts[0] == counts[1]:
        return seat.team if seat.team in (0, 1) else 0
    return 0 if counts[0] < counts[1] else 1


@transaction.atomic
def table_change_seat(*, table: Table, user, position: int) -> Seat:
    """A seated player moves to an empty seat (the engine's seat order is the turn order)."""
    table = _open_table(table.pk)
    seats = list(table.seats.select_for_update())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise GameError(_("you have no seat at this table"))
    target = next((s for s in seats if s.position == position), None)
    if target is None:
        raise GameError(_("no such seat"))
    if target.pk == mine.pk:
        return mine
    if not target.is_empty:
        raise GameError(_("that seat is taken"))
    if target.held_for_at(timezone.now()) not in (None, user.pk):
        raise GameError(_("that seat is kept for a player of the last game"))
    mine.user = None
    mine.save(update_fields=["user"])
    target.user = user
    fields = ["user"]
    if table.rules.teams:
        # The player keeps their team; the seat they left takes the other one's.
        target.team, mine.team = mine.team, target.team
        mine.save(update_fields=["team"])
        fields.append("team")
    target.save(update_fields=fields)
    return target


@transaction.atomic
def table_leave(*, table: Table, user) -> None:
    table = _open_table(table.pk)
    if table.host_id == user.pk:
        table.status = Table.Status.CANCELLED
        table.save(update_fields=["status"])
        return
    updated = table.seats.filter(user=user).update(user=None)
    if not updated:
        raise GameError(_("you have no seat at this table"))


@transaction.atomic
def table_set_seat(*, table: Table, by, position: int, bot: str) -> Seat:
    """The host puts a bot in an empty seat, or empties a bot's seat (bot="")."""
    table = _open_table(table.pk)
    if table.host_id != by.pk:
        raise NotAllowed(_("only the host may seat bots"))
    if bot not in Seat.Bot.values:
        raise GameError(_("unknown bot"))
    seats = list(table.seats.select_for_update())
    seat = next((s for s in seats if s.position == position), None)
    if seat is None:
        raise GameError(_("no such seat"))
    if seat.user_id is not None:
        raise GameError(_("a player sits there"))
    seat.bot = bot
    fields = ["bot"]
    if bot and seat.held_for_id is not None:
        # The host's choice: a bot rather than waiting for the player the seat was kept for.
        seat.held_for, seat.held_until = None, None
        fields += ["held_for", "held_until"]
    if bot and table.rules.teams:
        seat.team = _lighter_team(seats, seat)
        fields.append("team")
    seat.save(update_fields=fields)
    return seat


@transaction.atomic
def table_set_team(*, table: Table, user, team: int, position: int | None = None) -> Seat:
    """A player picks their team; the host may also move a bot (``position``) to a team.
    Only occupied seats count towards a team's two places; empty seats follow."""
    table = _open_table(table.pk)
    if not table.rules.teams:
        raise GameError(_("this is not a team game"))
    if team not in (0, 1):
        raise GameError(_("choose team 1 or 2"))
    seats = list(table.seats.select_for_update())
    if position is None:
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise GameError(_("you have no seat at this table"))
    else:
        if table.host_id != user.pk:
            raise NotAllowed(_("only the host may move bots between teams"))
        mine = next((s for s in seats if s.position == position and s.bot), None)
        if mine is None:
            raise GameError(_("no bot sits there"))
    if sum(1 for s in seats if s.team == team and s.pk != mine.pk and not s.is_empty) >= 2:
        raise GameError(_("that team is full"))
    mine.team = team
    mine.save(update_fields=["team"])
    return mine


# Invitations by e-mail go to addresses nobody at the site has checked: only the host sends
# them, at most this many a day (counted from the rows, so the limit holds across restarts and
# processes), and an address gets at most one invitation e-mail a day, whoever invites it.
INVITATIONS_PER_DAY = 20
INVITATION_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Invited:
    """What ``invitation_create`` did: ``status`` is SENT (an e-mail is queued), ALREADY (the
    address was invited to this table before: nothing new) or RECENT (the address may now join,
    but it had an invitation e-mail in the last day, so no second one goes out)."""

    SENT: ClassVar[str] = "sent"
    ALREADY: ClassVar[str] = "already"
    RECENT: ClassVar[str] = "recent"

    invitation: Invitation
    status: str


@transaction.atomic
def invitation_create(*, table: Table, by, email: str) -> Invited:
    """The host invites an address to their open table. Refused for anyone else, on a table that
    is no longer open, and past INVITATIONS_PER_DAY in the last 24 hours; the e-mail is queued
    unless the address was already invited here or e-mailed an invitation in the last day, or
    its account blocks the host (answered as SENT all the same)."""
    now = timezone.now()
    table = _open_table(table.pk)
    if table.host_id != by.pk:
        raise NotAllowed(_("only the host may invite"))
    address = email.strip().lower()
    # Issue 11: a player who blocks another gets no invitations from them, by whatever path.
    # Issue 26: the host is answered as for any invitation (a refusal would tell them of the
    # block); the row is kept, but nothing is e-mailed or notified, now or later.
    blocked = is_blocked(blocker_email=address, blocked=by)
    existing = Invitation.objects.filter(table=table, email=address).first()
    if existing is not None:
        return Invited(existing, Invited.ALREADY)
    # The host's row, locked: two invitations of theirs at once are counted one after the other.
    User.objects.select_for_update().filter(pk=by.pk).first()
    since = now - INVITATION_WINDOW
    if Invitation.objects.filter(invited_by=by, created_at__gte=since).count() >= INVITATIONS_PER_DAY:
        raise NotAllowed(_("you may send at most %(n)s invitations a day; try again later"),
                         n=INVITATIONS_PER_DAY)
    recent = Invitation.objects.filter(email=address, emailed_at__gte=since).exists()
    inv = Invitation.objects.create(table=table, email=address, invited_by=by,
                                    emailed_at=None if recent or blocked else now)
    if recent:
        return Invited(inv, Invited.RECENT)
    if blocked:
        return Invited(inv, Invited.SENT)
    queue_on_commit("games.tasks.send_invitation", inv.pk)
    return Invited(inv, Invited.SENT)


@transaction.atomic
def table_start(*, table: Table, by) -> Game:
    table = _open_table(table.pk)
    if table.host_id != by.pk:
        raise NotAllowed(_("only the host may start the game"))
    seats = list(table.seats.select_related("user"))
    if any(s.is_empty for s in seats):
        raise GameError(_("every seat must be filled (add bots to empty seats)"))
    rules = table_rules(preset=table.preset, options=table.options, pace=table.pace)
    if table.round_limit is not None:
        # RULES.md 16: a site option, carried by the game's rule set (the record replays it).
        rules = rules.with_options(round_limit=table.round_limit)
    teams = None
    if rules.teams:
        teams = [[s.position for s in seats if s.team == t] for t in (0, 1)]
        if any(len(t) != 2 for t in teams):
            raise GameError(_("each team needs two players"))
    names = [s.label for s in seats]
    if len(set(names)) != len(names):
        names = [f"{n} ({s.position + 1})" for n, s in zip(names, seats, strict=True)]
    seed = secrets.randbits(62)
    try:
        state, events = new_game(rules, [str(n) for n in names], seed, teams=teams)
    except EngineError as e:
        raise GameError(e) from e
    game = Game.objects.create(table=table, seed=seed, state=state.to_json())
    GameAction.objects.create(game=game, seq=0, action={"type": "start", "seed": seed, "rules": rules.to_json(),
                                                          "names": names, "teams": teams},
                              events=events, source="system")
    DeedRow.objects.bulk_create([
        DeedRow(game=game, square=sq, owner_seat=None if state.owner[sq] < 0 else state.owner[sq])
        for sq in state.board.deeds
    ])
    DeckRow.objects.bulk_create([DeckRow(game=game, name=n, cards=c, discards=state.discards.get(n, []))
                                 for n, c in state.decks.items()])
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    sub = Submission(game=game, state=state)  # (no position before the start: before is None)
    _advance(sub, seats)
    _write(sub, seats)
    return game


def game_begin_at(*, game: Game, state: GameState, seats: list[Seat]) -> None:
    """Write a game made at a position rather than at the start (issue 30's sandbox,
    analysis/sandbox.py, which makes its table, seats and log first): as table_start does, the
    site plays what is due to it, the rows follow the state, and the deadline is set."""
    sub = Submission(game=game, state=state)
    _advance(sub, seats)
    _write(sub, seats)
