"""Every write of the games app (HackSoft style: keyword-only, typed, ``<entity>_<verb>``).

One move, end to end: ``game_submit_action`` locks the game row, refuses a stale version, applies
the action through the engine, lets bots answer, writes the state, the mirrored rows and the log
in the same transaction, bumps the version, sets the next deadline and queues notifications on
commit.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, Value, When
from django.db.models.functions import Cast
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.engine import GameState, IllegalAction, RuleSet, apply, new_game, set_clock, waiting_on
from games.engine.errors import EngineError, InvalidRules
from games.models import AuctionRow, DeckRow, DeedRow, Game, GameAction, Invitation, Seat, Table, TradeRow
from games.refusals import SiteRefusal

# RULES.md 4 and 10: live bidders get 20 s, live debtors 60 s; other decisions the preset's
# turn_seconds. Correspondence tables give every decision the table's hours.
LIVE_BID_SECONDS = 20
LIVE_DEBT_SECONDS = 60
# Bots never loop forever: a submission stops letting bots act after this many bot actions.
MAX_BOT_ACTIONS = 2000
# Correspondence defaults for thresholds counted in rounds (RULES.md 1, pace).
CORRESPONDENCE_ROUNDS = {"salary_stops_round": 40, "rent_tax_round": 50, "rent_tax_step_rounds": 3}


class GameError(SiteRefusal):
    """A refused request, with a message for the person who made it: the site's own words as a
    lazy gettext message (``str()`` gives the English, ``localized()`` the reader's language),
    or an engine's refusal passed on in its English (games.refusals translates it)."""


class StaleVersion(GameError):
    pass


class NotAllowed(GameError):
    pass


@dataclass
class Submission:
    game: Game
    state: GameState
    events: list[dict] = field(default_factory=list)
    actions: int = 0


# ---------------------------------------------------------------------------------------------
# Rule sets for tables
# ---------------------------------------------------------------------------------------------

def table_rules(*, preset: str, options: dict[str, Any], pace: str) -> RuleSet:
    """The engine rule set of a table. On correspondence tables every threshold the presets give
    in minutes is counted in rounds instead (RULES.md 1, pace), unless the host set rounds."""
    rules = RuleSet.build(preset, options)
    if pace == Table.Pace.CORRESPONDENCE:
        # No clock runs on these tables, so minutes never apply: a threshold the host gave in
        # rounds replaces them, else the defaults in rounds do.
        changes: dict[str, Any] = {}
        if rules.salary_stops_minutes is not None:
            changes["salary_stops_minutes"] = None
            if rules.salary_stops_round is None:
                changes["salary_stops_round"] = CORRESPONDENCE_ROUNDS["salary_stops_round"]
        if rules.rent_tax_minutes is not None:
            changes["rent_tax_minutes"] = None
            if rules.rent_tax_round is None:
                changes["rent_tax_round"] = CORRESPONDENCE_ROUNDS["rent_tax_round"]
        if (rules.rent_tax_round is not None or "rent_tax_round" in changes) and rules.rent_tax_step_rounds is None:
            changes["rent_tax_step_rounds"] = CORRESPONDENCE_ROUNDS["rent_tax_step_rounds"]
        if changes:
            rules = rules.with_options(**changes)
    return rules


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

@transaction.atomic
def table_create(*, host, name: str, preset: str, options: dict[str, Any] | None = None,
                 pace: str = Table.Pace.CORRESPONDENCE, turn_hours: int | None = 24,
                 seat_count: int | None = None, is_private: bool = False) -> Table:
    options = dict(options or {})
    try:
        rules = table_rules(preset=preset, options=options, pace=pace)
    except InvalidRules as e:
        raise GameError(str(e)) from e
    lo, hi = rules.seats
    seat_count = seat_count or hi
    if not lo <= seat_count <= hi:
        raise GameError(_("this rule set seats %(lo)s to %(hi)s players"), lo=lo, hi=hi)
    if pace not in Table.Pace.values:
        raise GameError(_("pace must be live or correspondence"))
    if pace == Table.Pace.CORRESPONDENCE:
        if turn_hours not in Table.TURN_HOURS:
            raise GameError(_("choose 1, 12, 24 or 72 hours per turn"))
    else:
        turn_hours = None
    # The default name is in the host's language (the request's), as they would type it.
    default = translation.gettext("%(name)s's table") % {"name": host.display_name or host.username}
    name = (name or "").strip() or default
    table = Table.objects.create(host=host, name=name[:80], preset=preset, options=options, pace=pace,
                                 turn_hours=turn_hours, seat_count=seat_count, is_private=is_private)
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
    table = _open_table(table.pk)
    seats = list(table.seats.select_for_update())
    if any(s.user_id == user.pk for s in seats):
        raise GameError(_("you already have a seat at this table"))
    free = [s for s in seats if s.is_empty and (position is None or s.position == position)]
    if not free:
        raise GameError(_("that seat is taken") if position is not None else _("the table is full"))
    seat = free[0]
    seat.user = user
    fields = ["user"]
    if table.rules.teams:
        seat.team = _lighter_team(seats, seat)
        fields.append("team")
    seat.save(update_fields=fields)
    return seat


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


@transaction.atomic
def invitation_create(*, table: Table, by, email: str) -> Invitation:
    if table.host_id != by.pk and not table.seats.filter(user=by).exists():
        raise NotAllowed(_("only players at the table may invite"))
    inv, _created = Invitation.objects.get_or_create(table=table, email=email.strip().lower(),
                                                     defaults={"invited_by": by})
    from games import tasks
    transaction.on_commit(lambda: tasks.send_invitation.delay(inv.pk))
    return inv


@transaction.atomic
def table_start(*, table: Table, by) -> Game:
    table = _open_table(table.pk)
    if table.host_id != by.pk:
        raise NotAllowed(_("only the host may start the game"))
    seats = list(table.seats.select_related("user"))
    if any(s.is_empty for s in seats):
        raise GameError(_("every seat must be filled (add bots to empty seats)"))
    rules = table_rules(preset=table.preset, options=table.options, pace=table.pace)
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
        raise GameError(str(e)) from e
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
    sub = Submission(game=game, state=state)
    _bots(sub, seats)
    _write(sub, seats, before=None)
    return game


# ---------------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------------

def _seat_of(seats: list[Seat], user) -> Seat | None:
    return next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)


def _clock(game: Game, state: GameState, now: datetime) -> None:
    """Live tables: elapsed minutes drive the dynamic economy (RULES.md 11)."""
    if game.table.pace == Table.Pace.LIVE:
        minutes = max(0, int((now - game.started_at).total_seconds() // 60))
        if minutes != state.clock:
            set_clock(state, minutes)


def _apply(sub: Submission, action: dict, *, seat: int | None, user=None, source: str) -> None:
    clock = sub.state.clock
    state, events = apply(sub.state, action)
    sub.actions += 1
    # The log keeps the clock each action was applied at, so live games replay exactly.
    logged = dict(action, clock=clock) if clock else action
    GameAction.objects.create(game=sub.game, seq=state.seq, seat=seat, user=user, action=logged, events=events,
                              source=source)
    sub.events.extend(events)


def _bots(sub: Submission, seats: list[Seat]) -> None:
    """Let bots take every decision that waits on them."""
    from games.engine.bots import make_bot

    bots = {s.position: s.bot for s in seats if s.bot}
    if not bots:
        return
    state = sub.state
    for _step in range(MAX_BOT_ACTIONS):
        if state.over:
            return
        todo = [p for p in waiting_on(state) if p in bots and not state.players[p].bankrupt]
        if not todo:
            return
        p = todo[0]
        rng = random.Random(f"{sub.game.seed}:{state.seq}:{p}")
        action = make_bot(bots[p]).choose(state, p, rng)
        _apply(sub, action, seat=p, source="bot")


def _deadline(game: Game, state: GameState, now: datetime) -> datetime | None:
    if state.over:
        return None
    table = game.table
    kind = state.pending()
    if table.pace == Table.Pace.CORRESPONDENCE:
        return now + timedelta(hours=table.turn_hours or 24)
    if kind == "auction" or kind == "building_auction":
        seconds = LIVE_BID_SECONDS
    elif kind == "debt":
        seconds = LIVE_DEBT_SECONDS
    else:
        seconds = state.rules.turn_seconds
    return now + timedelta(seconds=seconds)


def _write(sub: Submission, seats: list[Seat], *, before: dict | None) -> None:
    """Write the state, the mirrored rows and the game's summary columns; bump the version."""
    game, state = sub.game, sub.state
    now = timezone.now()
    new = state.to_json()
    waiting = waiting_on(state)
    moved = before is None or before["current"] != new["current"] or before["stack"] != new["stack"] \
        or before["phase"] != new["phase"]
    game.state = new
    game.version += 1
    game.round = state.round
    game.current_seat = state.current
    game.pending = state.pending() or ""
    game.waiting_seats = waiting
    if moved or game.deadline is None:
        game.deadline = _deadline(game, state, now)
    fields = ["state", "version", "round", "current_seat", "pending", "waiting_seats", "deadline", "updated_at"]
    if state.over and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.FINISHED
        game.winner_seat = state.winner
        game.finished_at = now
        fields += ["status", "winner_seat", "finished_at"]
        Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
        # Ratings, XP and achievements come from the record once it is committed (ratings app).
        from ratings import tasks as ratings_tasks
        result_id = game.pk
        transaction.on_commit(lambda: ratings_tasks.record_game_result.delay(result_id))
        if game.table.pace == Table.Pace.CORRESPONDENCE:
            from games import tasks
            finished_id = game.pk
            transaction.on_commit(lambda: tasks.notify_game_over.delay(finished_id))
    game.save(update_fields=fields)
    _sync_rows(game, state, before, sub.events, now)
    if moved:
        humans = {s.position: s.user_id for s in seats if s.user_id and not s.bot}
        to_notify = [humans[p] for p in waiting if p in humans]
        if to_notify and game.table.pace == Table.Pace.CORRESPONDENCE:
            from games import tasks
            gid, version = game.pk, game.version
            transaction.on_commit(lambda: tasks.notify_turn.delay(gid, version))


def _sync_rows(game: Game, state: GameState, before: dict | None, events: list[dict], now: datetime) -> None:
    new_owner, new_level, new_mort, new_mround = state.owner, state.level, state.mortgaged, state.mround
    if before is not None:
        changed = [sq for sq in state.board.deeds
                   if (before["owner"][sq], before["level"][sq], before["mortgaged"][sq], before["mround"][sq])
                   != (new_owner[sq], new_level[sq], new_mort[sq], new_mround[sq])]
    else:
        changed = list(state.board.deeds)
    if changed:
        # One UPDATE, without reading the rows first: a single deed's values, else a CASE on
        # the square for each column.
        values = {sq: {"owner_seat": None if new_owner[sq] < 0 else new_owner[sq], "level": new_level[sq],
                       "mortgaged": new_mort[sq], "mortgaged_round": new_mround[sq]} for sq in changed}
        rows = DeedRow.objects.filter(game=game, square__in=changed)
        if len(changed) == 1:
            rows.update(**values[changed[0]])
        else:
            cases = {}
            for name in ("owner_seat", "level", "mortgaged", "mortgaged_round"):
                col = DeedRow._meta.get_field(name)
                case = Case(*(When(square=sq, then=Value(values[sq][name], output_field=col)) for sq in changed),
                            output_field=col)
                # As bulk_update does: PostgreSQL types a CASE of NULLs as text unless cast.
                cases[name] = Cast(case, output_field=col) if connection.features.requires_casted_case_in_updates \
                    else case
            rows.update(**cases)
    if before is None or before["decks"] != state.decks or before["discards"] != state.discards:
        for row in DeckRow.objects.filter(game=game):
            row.cards = state.decks.get(row.name, [])
            row.discards = state.discards.get(row.name, [])
            row.save(update_fields=["cards", "discards"])
    # Auctions: the engine's auction frames are the open auctions. With none before and none
    # now, no row is open (the rows follow the frames in this same transaction): no query.
    frames = [f for f in state.stack if f["k"] == "auction"]
    if frames or before is None or any(f["k"] == "auction" for f in before["stack"]):
        _sync_auctions(game, state, frames, events)
    _sync_trades(game, state, before, events, now)


def _sync_auctions(game: Game, state: GameState, frames: list[dict], events: list[dict]) -> None:
    open_rows = list(AuctionRow.objects.filter(game=game, is_open=True))
    unmatched = list(open_rows)
    for f in frames:
        row = next((r for r in unmatched if r.square == f["sq"] and r.what == f["what"]), None)
        if row is None:
            row = AuctionRow(game=game, square=f["sq"], what=f["what"], opened_seq=state.seq)
        else:
            unmatched.remove(row)
        row.high_bid = f["high"]
        row.leader_seat = None if f["leader"] < 0 else f["leader"]
        row.bidders = f["bidders"]
        row.passed = f["passed"]
        row.save()
    for row in unmatched:
        won = next((e for e in reversed(events) if e["e"] in ("auction_won", "auction_unsold")
                    and e.get("sq") == row.square), None)
        row.is_open = False
        if won and won["e"] == "auction_won":
            row.high_bid = won["amount"]
            row.leader_seat = won["p"]
        row.save()


def _sync_trades(game: Game, state: GameState, before: dict | None, events: list[dict], now: datetime) -> None:
    """Trades, from the events of this submission; with no trade open before, none now and none
    proposed meanwhile, there is nothing to write."""
    proposed = any(e["e"] == "trade_proposed" for e in events)
    if before is not None and not before["trades"] and not state.trades and not proposed:
        return
    for e in events:
        kind = e["e"]
        if kind == "trade_proposed":
            TradeRow.objects.create(game=game, number=e["trade"], from_seat=e["p"], to_seat=e["to"],
                                    give=e["give"], take=e["take"])
        elif kind in ("trade_accepted", "trade_rejected", "trade_cancelled"):
            status = {"trade_accepted": TradeRow.Status.ACCEPTED, "trade_rejected": TradeRow.Status.REJECTED,
                      "trade_cancelled": TradeRow.Status.CANCELLED}[kind]
            TradeRow.objects.filter(game=game, number=e["trade"]).update(status=status, closed_at=now)
    open_ids = {int(t) for t in state.trades}
    TradeRow.objects.filter(game=game, status=TradeRow.Status.OPEN).exclude(number__in=open_ids).update(
        status=TradeRow.Status.VOID, closed_at=now)


def _locked_game(game_id: int) -> Game:
    return Game.objects.select_for_update().select_related("table").get(pk=game_id)


def _seats(game: Game, seats: list[Seat] | None) -> list[Seat]:
    """The game's seats: the caller's, if it read them for this very game (seats change only
    while a table is open), else read now."""
    if seats and all(s.table_id == game.table_id for s in seats):
        return seats
    return list(game.table.seats.select_related("user"))


def game_submit_action(*, game: Game, user, action: dict, expected_version: int,
                       seats: list[Seat] | None = None) -> Submission:
    """Apply one player's action. Raises StaleVersion, NotAllowed or GameError (with the engine's
    reason for an illegal action); nothing is written then. ``seats`` are the table's seats when
    the caller has just read them (they do not change once the game has started)."""
    return game_submit_actions(game=game, user=user, actions=[action], expected_version=expected_version,
                               seats=seats)


@transaction.atomic
def game_submit_actions(*, game: Game, user, actions: list[dict], expected_version: int,
                        seats: list[Seat] | None = None) -> Submission:
    """Apply several actions of one player as a single move, all or none of them: a counter-offer
    is ``reject`` then ``propose`` (RULES.md 9). Bots answer only after the last action, and the
    version goes up once. Raises like ``game_submit_action``; nothing is written then."""
    game = _locked_game(game.pk)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("this game is over"))
    if expected_version != game.version:
        raise StaleVersion(
            _("the game has moved on since your page was drawn; here is the current position"))
    seats = _seats(game, seats)
    seat = _seat_of(seats, user)
    if seat is None:
        raise NotAllowed(_("you are not playing in this game"))
    if not actions or any(not isinstance(a, dict) or a.get("type") == "timeout" for a in actions):
        raise GameError(_("unknown action"))
    before = game.state
    state = GameState.from_json(before)
    _clock(game, state, timezone.now())
    sub = Submission(game=game, state=state)
    for action in actions:
        try:
            _apply(sub, dict(action, player=seat.position), seat=seat.position, user=user, source="player")
        except IllegalAction as e:
            # The atomic block rolls back the log rows of the actions already applied.
            raise GameError(str(e)) from e
    _bots(sub, seats)
    _write(sub, seats, before=before)
    return sub


@transaction.atomic
def game_timeout(*, game_id: int, now: datetime | None = None) -> int:
    """Apply the defaults of RULES.md 11 to every decision whose deadline has passed. Claims the
    game with a locked read and does nothing if another worker already moved it."""
    now = now or timezone.now()
    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE or game.deadline is None or game.deadline > now:
        return 0
    seats = list(game.table.seats.select_related("user"))
    before = game.state
    state = GameState.from_json(before)
    _clock(game, state, now)
    sub = Submission(game=game, state=state)
    waiting = waiting_on(state)
    for p in waiting:
        if state.over or p not in waiting_on(state):
            continue
        _apply(sub, {"type": "timeout", "player": p}, seat=p, source="timeout")
    _bots(sub, seats)
    game.deadline = None  # recomputed by _write
    _write(sub, seats, before=before)
    return sub.actions


def game_replay(*, record: dict) -> list[GameState]:
    """States after each action of a game record (rules, seed, names, teams, actions)."""
    rules = RuleSet.from_json(record["rules"])
    state, _events = new_game(rules, record["names"], record["seed"], teams=record.get("teams"))
    states = [state.copy()]
    for a in record["actions"]:
        if a.get("clock") is not None:
            set_clock(state, a["clock"])
        apply(state, {k: v for k, v in a.items() if k != "clock"}, events=False)
        states.append(state.copy())
    return states
