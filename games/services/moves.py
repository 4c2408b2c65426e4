"""A move, end to end (HackSoft style: keyword-only, typed, ``<entity>_<verb>``).

``game_submit_action`` locks the game row, refuses a stale version, applies the action through
the engine, writes the state, the mirrored rows and the log in the same transaction, bumps the
version, sets the next deadline and queues notifications on commit; bots and standing orders
then answer one action at a time in Celery tasks (``_advance``, ``game_site_action``), or within
the move when bots play inline (tests, eager Celery); ``game_timeout`` plays what a deadline
decides. ``_write`` is the one write of a move (games/sql.py's statements).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chats import hooks as chat_hooks
from config.celery import app as celery_app
from config.celery import queue_on_commit
from games import live, sql
from games.aids import pause, seat_clock, standing, vacation
from games.engine import (
    GameState,
    IllegalAction,
    apply,
    auction_askee,
    set_clock,
    waiting_on,
)
from games.errors import GameError, LockedOut, NotAllowed, NotSeated, StaleVersion
from games.models import (
    AuctionRow,
    DeckRow,
    Game,
    GameAction,
    Seat,
    Table,
    TradeRow,
)
from moderation import selectors as moderation_selectors
from notifications.services import plan_game, waits_over
from reach import waits as reach_waits

# RULES.md 4 and 10: live bidders get 20 s, live debtors 60 s; other decisions the preset's
# turn_seconds. Correspondence tables give every decision the table's hours.
LIVE_BID_SECONDS = 20
LIVE_DEBT_SECONDS = 60
# Bots never loop forever: a submission stops letting bots act after this many bot actions.
MAX_BOT_ACTIONS = 2000
# A game that waits on bots only gets a deadline this long after their task is due: if the task
# is lost, the deadline sweep plays the bot (issue 10: no bot action lost).
BOT_BACKSTOP_SECONDS = 30
# The engine's actions only the site applies (a player's form never names them): RULES.md 11's
# timeout, RULES.md 16's notes and end by agreement (games/agreement.py, games/site_notes.py), and
# a sandbox's fresh dice (analysis/sandbox.py).
SITE_ACTIONS = frozenset({"timeout", "note", "end_agreed", "reseed"})


@dataclass
class Submission:
    game: Game
    state: GameState
    events: list[dict] = field(default_factory=list)
    actions: int = 0
    orders: dict | None = None  # the game's standing orders by seat, read once (_standing_orders)
    # The log rows this submission wrote, oldest first (each inserted by _write, with the
    # game): a move's answer shows them without reading the log again (games/views/page/parts.py).
    rows: list[GameAction] = field(default_factory=list)
    # Whether an action others may know of was applied: a submission of secret maximum bids only
    # (RULES.md 15) leaves the game's version, and all that others see, as it was (_write).
    public: bool = False
    # The seats of the table as the submission read them, and the game's state as it was
    # before it (what _write compares the new one with; None for the start of the game).
    seats: list[Seat] = field(default_factory=list)
    before: dict | None = None


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
    seq = sub.state.seq
    state, events = apply(sub.state, action)
    sub.actions += 1
    # The log keeps the clock each action was applied at, so live games replay exactly.
    logged = dict(action, clock=clock) if clock else action
    if state.seq != seq:
        sub.public = True
        number = 0
    else:
        # RULES.md 15: a maximum bid nothing else came of is secret, and the engine does not
        # count it: its row follows the action before it, numbered after that one's (and any
        # secret ones already there), so the log's numbering shows no gap (GameAction.sub).
        number = 1 + max([r.sub for r in sub.rows if r.seq == seq] or [
            GameAction.objects.filter(game=sub.game, seq=seq).aggregate(m=Max("sub"))["m"] or 0])
    # Written with the game, by _write (in one INSERT for all the submission's actions).
    sub.rows.append(GameAction(game=sub.game, seq=state.seq, sub=number, seat=seat, user=user, action=logged,
                               events=events, source=source))
    sub.events.extend(events)


# ---------------------------------------------------------------------------------------------
# The site's own actions for seats: bots (issue 10)
# ---------------------------------------------------------------------------------------------
#
# After every write (a player's move, a timeout, an action of the site's) the game may wait on a
# seat the site plays for. ``_site_action`` is the one place that decides what the site plays
# next and for whom; ``_advance`` is the one place the game moves on after the actions of a
# write. Bots play one action at a time, each in a Celery task (``games.tasks.play_site_action``)
# queued on commit BOT_DELAY_SECONDS after the write before it, so a person's move returns at
# once and people can follow the bots; with no delay and no worker (tests, eager Celery) they
# play within the write, one action after the other, as before. Anything else the site should
# play for a seat (standing orders, RULES.md 15) belongs in ``_site_action``: one line before
# the bots', returning its own source; both ways of advancing then play it.


def _bots_inline() -> bool:
    """Whether the site plays its actions within the write that made them due: with a delay of
    0 (tests), and always when Celery runs tasks eagerly (an eager task queued on commit would
    run inside the commit of the one before it, one stack frame deeper for every bot action)."""
    return settings.BOT_DELAY_SECONDS <= 0 or bool(celery_app.conf.task_always_eager)


def _bot_action(sub: Submission, p: int, bot: str) -> dict:
    from games.engine import make_bot

    state = sub.state
    rng = random.Random(f"{sub.game.seed}:{state.seq}:{p}")
    return make_bot(bot).choose(state, p, rng)


def _site_action(sub: Submission, seats: list[Seat]) -> tuple[int, dict, str, Any] | None:
    """What the site plays next for a seat the game waits on, as (seat, action, source, user),
    or None when the game waits on people only (or is over): a player's standing order (source
    "standing", their user on the log row), else a bot's move. The single place that decides it: the
    inline loop (``_advance``), the bot task (``game_site_action``), the queueing after a write
    (``_write``) and the deadline sweep's backstop (``game_timeout``) all ask here."""
    state = sub.state
    if state.over:
        return None
    step = _standing_action(sub, seats)
    if step is not None:
        return step
    bots = {s.position: s.bot for s in seats if s.bot}
    if not bots:
        return None
    for p in waiting_on(state):
        if p in bots and not state.players[p].bankrupt:
            return p, _bot_action(sub, p, bots[p]), "bot", None
    return None


def _standing_action(sub: Submission, seats: list[Seat]) -> tuple[int, dict, str, Any] | None:
    """The first standing order (RULES.md 15, games/aids/standing.py) that answers what the game now
    waits on, as (seat, action, "standing", user), or None."""
    if sub.state.over:
        return None
    orders = _standing_orders(sub, seats)
    if not orders:
        return None
    bots = frozenset(s.position for s in seats if s.bot)
    return standing.next_action(sub.state, orders, bots, seats)


def _standing_orders(sub: Submission, seats: list[Seat]) -> dict:
    """The game's standing orders by seat, read once per write (one query, none for a game
    without orders: standing.orders_of)."""
    if sub.orders is None:
        sub.orders = standing.orders_of(sub.game, seats)
    return sub.orders


def _site_step(sub: Submission, seats: list[Seat]) -> bool:
    """Play the site's next action (``_site_action``), if there is one."""
    step = _site_action(sub, seats)
    if step is None:
        return False
    p, action, source, user = step
    _apply(sub, action, seat=p, user=user, source=source)
    return True


def _advance(sub: Submission, seats: list[Seat]) -> None:
    """The one place a game moves on after the actions of a write, before it is written. Inline
    (``_bots_inline``): the site plays every action due to it now, one after the other (at most
    MAX_BOT_ACTIONS). Otherwise only the standing orders are played here, and ``_write`` queues
    the bots' next action as a task.

    RULES.md 15: a decision a standing order answers is never waited on (no deadline, no
    notification), so the order is played in the transaction that made the decision, whatever
    the bots do: a game written in between would wait on the player, and e-mail them, for the
    second or so until a task played the order (issue 26: 7 e-mails for one auction)."""
    if _bots_inline():
        for _step in range(MAX_BOT_ACTIONS):
            if not _site_step(sub, seats):
                return
    else:
        _advance_standing(sub, seats)


def _advance_standing(sub: Submission, seats: list[Seat]) -> None:
    """Play every standing order that answers what the game waits on, one after the other."""
    for _step in range(MAX_BOT_ACTIONS):
        step = _standing_action(sub, seats)
        if step is None:
            return
        p, action, source, user = step
        _apply(sub, action, seat=p, user=user, source=source)


def _queue_site_action(sub: Submission, seats: list[Seat]) -> None:
    """After a write (not inline): the task that plays the site's next action, on commit, for
    the version just written; a task that finds the game at another version does nothing."""
    if _bots_inline() or _site_action(sub, seats) is None:
        return
    queue_site_action(sub.game)


def queue_site_action(game: Game, *, after: float = 0) -> None:
    """On commit, queue the task that plays the site's next action for ``game`` at its current
    version, ``after`` seconds later (plus BOT_DELAY_SECONDS): for writes outside a move that
    change the version (a pause, new standing orders). The task does nothing if nothing is due."""
    if _bots_inline():
        return
    game_id, version = game.pk, game.version
    delay = settings.BOT_DELAY_SECONDS + after
    queue_on_commit("games.tasks.play_site_action", game_id, version, countdown=delay)


@transaction.atomic
def game_site_action(*, game_id: int, seen_version: int) -> int:
    """Play one action of the site's for a seat (a bot's move): the bot task's service. Locks the
    game and does nothing unless it is still at ``seen_version``, the version the task was
    queued for: a duplicate delivery, a task that lost to a player's move, a timeout or another
    copy of itself finds a newer version. Writes one version and queues the next task. Returns
    the number of actions applied (0 or 1, more inline)."""
    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE or game.version != seen_version:
        return 0
    if pause.is_paused(game):
        # RULES.md 11: nothing moves while paused; confirming the resume queues this task again
        # for the end of the countdown (pause._bump).
        return 0
    seats = _seats(game, None)
    sub = _begin(game, seats, timezone.now())
    if not _site_step(sub, seats):
        return 0
    _advance(sub, seats)
    _write(sub, seats)
    return sub.actions


def _deadline(game: Game, state: GameState, now: datetime, seats: list[Seat] | None = None) -> datetime | None:
    if state.over:
        return None
    table = game.table
    if seats is not None and not _bots_inline():
        waiting = waiting_on(state)
        bots = {s.position for s in seats if s.bot}
        if waiting and all(p in bots for p in waiting):
            # Only bots are waited on: their task plays within BOT_DELAY_SECONDS. Should it be
            # lost (a broker restart), the deadline sweep plays the bot instead (game_timeout).
            return now + timedelta(seconds=settings.BOT_DELAY_SECONDS + BOT_BACKSTOP_SECONDS)
    kind = state.pending()
    if table.pace == Table.Pace.CORRESPONDENCE:
        # RULES.md 15, vacation: the clock of someone away starts when they are back.
        start = vacation.deadline_start(game, waiting_on(state), now)  # issue 10
        return start + timedelta(hours=table.turn_hours or 24)
    if kind == "auction" or kind == "building_auction":
        seconds = LIVE_BID_SECONDS
    elif kind == "debt":
        seconds = LIVE_DEBT_SECONDS
    else:
        seconds = state.rules.turn_seconds
    return now + timedelta(seconds=seconds)


def _reminder_at(game: Game) -> datetime | None:
    """Issue 14: on a correspondence table, the reminder of a decision goes out when a quarter
    of its time is left (notifications.reminders sweeps this indexed column)."""
    if game.deadline is None or game.table.pace != Table.Pace.CORRESPONDENCE:
        return None
    # RULES.md 16: a quarter counted in the table's playing hours (seat_clock.reminder_at).
    return seat_clock.reminder_at(game.table, game.deadline, left=timedelta(hours=game.table.turn_hours or 24) / 4,
                                  now=timezone.now())


def _decision(state: dict) -> tuple | None:
    """What the game waits on, as a value that changes exactly when a decision is newly waited
    on: each one gets a fresh deadline (RULES.md 11) and its "your turn" e-mail.

    Without a stacked decision it is the current player's turn step: a roll after doubles
    (RULES.md 3.4) is a new decision though player, stack and phase are the same as before the
    roll. A stacked decision is the frame on top (at its depth, so that the one below it, met
    again, is new again), except that an auction's frame changes with every bid and pass: there
    the decision is the bid to beat (a new bid is new for every other bidder; a pass is not new
    for those still deciding, RULES.md 4) and, in a rotating auction, the bidder asked.
    Building, mortgaging or trading while a decision waits leaves it as it was."""
    if state["over"]:
        return None
    stack = state["stack"]
    if not stack:
        turn = state["turn"]
        return ("turn", state["round"], state["current"], state["phase"], turn["doubles"], turn["rolled"])
    top = stack[-1]
    if top["k"] == "auction":
        return (len(stack), "auction", top["what"], top["sq"], top["stage"], top["high"], top["leader"],
                top.get("winner"), auction_askee(top))
    # (Sorted keys: PostgreSQL's jsonb gives the stored state's keys back in an order of its own.)
    return (len(stack), json.dumps(top, sort_keys=True))


def _write(sub: Submission, seats: list[Seat], *, fresh: bool = False) -> None:
    """Write the state, the mirrored rows and the game's summary columns; bump the version.
    A decision newly waited on (``_decision``; or ``fresh``, after a timeout, which always leaves
    a new decision) gets a fresh deadline; any other move keeps the deadline. A person newly
    waited on gets their e-mail (notifications.services.plan_game: once per wait)."""
    game, state, before = sub.game, sub.state, sub.before
    new = state.to_json()
    if before is not None and sub.actions and not sub.public and not fresh:
        # RULES.md 15: only secret maximum bids (left, changed or withdrawn, nothing else came
        # of them): the position and their rows are written, and nothing anyone else sees
        # changes: not the version (pushed to the other pages, quoted by their forms), the
        # deadline, the waits, the log's numbering nor the time of the last move.
        game.state = new
        sql.write_move(game, ["state"], [row for row in sub.rows if row.pk is None])
        return
    now = timezone.now()
    waiting = waiting_on(state)
    moved = fresh or before is None or _decision(before) != _decision(new)
    previous_waiting = None if before is None else set(game.waiting_seats or [])
    waited_before = set(previous_waiting or ())
    if fresh and previous_waiting:
        # A player whose decision timed out and who is still waited on faces a new decision the
        # site took them to (a timed-out roll that threw doubles): a new wait, told again.
        previous_waiting -= {e.get("p") for e in sub.events if e["e"] == "timeout"}
    game.state = new
    game.version += 1
    game.round = state.round
    game.current_seat = state.current
    game.pending = state.pending() or ""
    game.waiting_seats = waiting
    fields = ["state", "version", "round", "current_seat", "pending", "waiting_seats", "deadline", "updated_at"]
    fields.append("reminder_at")
    if seat_clock.enabled(game.table):
        # RULES.md 16: each waited-on person's own clock and bank; the column holds the earliest.
        deadline = seat_clock.update(
            game, humans={s.position for s in seats if s.user_id is not None and not s.bot}, waiting=waiting,
            moved=moved, answered={r.seat for r in sub.rows if r.source in ("player", "standing")},
            backs=vacation.on_vacation(game, now) if waiting else {}, now=now)
        if state.over:
            deadline = None
        elif deadline is None:  # (only bots are waited on)
            deadline = _deadline(game, state, now, seats) if moved or game.deadline is None else game.deadline
        game.deadline = deadline
        game.reminder_at = _reminder_at(game)
        fields.append("aids")
    elif moved or game.deadline is None:
        game.deadline = _deadline(game, state, now, seats)
        game.reminder_at = _reminder_at(game)
    if state.over and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.FINISHED
        game.winner_seat = state.winner
        game.finished_at = now
        fields += ["status", "winner_seat", "finished_at"]
        Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
        # Ratings, XP and achievements come from the record once it is committed (ratings app).
        queue_on_commit("ratings.tasks.record_game_result", game.pk)
        # Issue 30: the whole-game analysis (win chances, turning points, luck), on its own queue.
        queue_on_commit("analysis.tasks.analyse_game", game.pk)
    # The log rows the move added and game.save(update_fields=fields), compiled once: one statement.
    sql.write_move(game, fields, [row for row in sub.rows if row.pk is None])
    live.publish_on_commit(game.pk, game.version)
    if previous_waiting != set(waiting) or state.over:
        # Issue 29: since when the game waits on each seat (the next game waiting, nudges).
        reach_waits.record(game_id=game.pk, before=previous_waiting, waiting=waiting, now=now, over=state.over,
                           people={s.position for s in seats if s.user_id is not None and not s.bot})
    _sync_rows(game, state, before, sub.events, now)
    if game.table.pace == Table.Pace.CORRESPONDENCE:
        # Issue 14: who hears what about this move (a wait that begins, a forfeit, the start or
        # the end), written and e-mailed once each by a task after the commit.
        items = plan_game(game=game, seats=seats, previous_waiting=previous_waiting, state=state,
                          events=sub.events, started=before is None, over="finished_at" in fields,
                          version=game.version, before=before)
        if items:
            queue_on_commit("notifications.tasks.notify", game.pk, items)
        # Issue 29: the table's group-chat status post is marked for an update (chats app).
        chat_hooks.game_moved(game=game, started=before is None)
        if waited_before - set(waiting):
            # The waits this move answered: their items in the bell are read (issue 26).
            waits_over(game_id=game.pk, seats=waited_before - set(waiting), now=now)
    _queue_site_action(sub, seats)


def _sync_rows(game: Game, state: GameState, before: dict | None, events: list[dict], now: datetime) -> None:
    new_owner, new_level, new_mort, new_mround = state.owner, state.level, state.mortgaged, state.mround
    if before is not None:
        changed = [sq for sq in state.board.deeds
                   if (before["owner"][sq], before["level"][sq], before["mortgaged"][sq], before["mround"][sq])
                   != (new_owner[sq], new_level[sq], new_mort[sq], new_mround[sq])]
    else:
        changed = list(state.board.deeds)
    if changed:
        # One UPDATE, without reading the rows first (compiled once: games/sql.py).
        sql.update_deeds(game.pk, {
            sq: {"owner_seat": None if new_owner[sq] < 0 else new_owner[sq], "level": new_level[sq],
                 "mortgaged": new_mort[sq], "mortgaged_round": new_mround[sq]} for sq in changed})
    if before is None:
        for row in DeckRow.objects.filter(game=game):
            row.cards = state.decks.get(row.name, [])
            row.discards = state.discards.get(row.name, [])
            row.save(update_fields=["cards", "discards"])
    elif before["decks"] != state.decks or before["discards"] != state.discards:
        # Only the decks a card was drawn from (or put back to): one UPDATE each, unread.
        for name in sorted(set(before["decks"]) | set(state.decks) | set(before["discards"]) | set(state.discards)):
            cards, discards = state.decks.get(name, []), state.discards.get(name, [])
            if (before["decks"].get(name, []), before["discards"].get(name, [])) != (cards, discards):
                DeckRow.objects.filter(game=game, name=name).update(cards=cards, discards=discards)
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
    """The game with its table, its row locked (games/sql.py: the ORM's
    ``select_for_update().select_related("table").get(pk=game_id)``)."""
    game = sql.game_with_table(game_id, lock=True)
    if game is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return game


def _locked_game_and_seats(game_id: int, *, lockout_at: datetime | None = None) -> tuple[Game, list[Seat]]:
    """``_locked_game`` and ``_seats(game, None, lockout_at=...)``, in one query
    (sql.game_with_seats)."""
    found = sql.game_with_seats(game_id, lock=True, lockout_at=lockout_at)
    if found is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return found


def _seats(game: Game, seats: list[Seat] | None, *, lockout_at: datetime | None = None) -> list[Seat]:
    """The game's seats: the caller's, if it read them for this very game (seats change only
    while a table is open), else read now (with ``lockout_at``, each with its user's lockout:
    sql.seats_with_users)."""
    if seats and all(s.table_id == game.table_id for s in seats):
        return seats
    return sql.seats_with_users(game.table_id, lockout_at=lockout_at)


def _players_seat(seats: list[Seat], user) -> Seat:
    """The seat ``user`` plays in the game; refused for someone without a seat (NotSeated), and
    once a bot plays it (RULES.md 15)."""
    seat = _seat_of(seats, user)
    if seat is None:
        raise NotSeated(_("you are not playing in this game"))
    if seat.bot:
        raise NotAllowed(_("a bot plays your seat since your third missed turn"))
    return seat


def _begin(game: Game, seats: list[Seat], now: datetime) -> Submission:
    """A submission on the locked ``game``: its position, on the clock at ``now``, and what it
    was before (the state, the deadline: what its pages showed)."""
    state = GameState.from_json(game.state)
    _clock(game, state, now)
    return Submission(game=game, state=state, seats=seats, before=game.state)


def game_submit_action(*, game: Game | int, user, action: dict, expected_version: int,
                       seats: list[Seat] | None = None) -> Submission:
    """Apply one player's action. Raises StaleVersion, NotAllowed or GameError (with the engine's
    reason for an illegal action), and Game.DoesNotExist for no such game; nothing is written
    then. ``game`` is the game or its id (the game is read again, locked, either way); ``seats``
    are the table's seats when the caller has just read them (they do not change once the game
    has started)."""
    return game_submit_actions(game=game, user=user, actions=[action], expected_version=expected_version,
                               seats=seats)


@transaction.atomic
def game_submit_actions(*, game: Game | int, user, actions: list[dict], expected_version: int,
                        seats: list[Seat] | None = None) -> Submission:
    """Apply several actions of one player as a single move, all or none of them: a counter-offer
    is ``reject`` then ``propose`` (RULES.md 9). Bots answer only after the last action, and the
    version goes up once. Raises like ``game_submit_action``; nothing is written then."""
    now = timezone.now()
    game_id = game if isinstance(game, int) else game.pk
    if seats:
        game = _locked_game(game_id)
        seats = _seats(game, seats, lockout_at=now)
    else:
        # The game locked and its seats, in one read; the seats say whether their users are
        # locked out (no read of its own).
        game, seats = _locked_game_and_seats(game_id, lockout_at=now)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("this game is over"))
    if expected_version != game.version:
        raise StaleVersion(
            _("the game has moved on since your page was drawn; here is the current position"))
    seat = _players_seat(seats, user)
    locked = getattr(seat, "locked_out", None)
    if locked is None:  # (seats the caller read)
        locked = moderation_selectors.lockout(user=user) is not None
    if locked:
        raise LockedOut("the player's account is suspended or banned")  # (worded by the view)
    if not actions or any(not isinstance(a, dict) or a.get("type") in SITE_ACTIONS for a in actions):
        raise GameError(_("unknown action"))
    pause.refuse_moves(game)  # RULES.md 11: none while paused (issue 10)
    sub = _begin(game, seats, now)
    for action in actions:
        try:
            _apply(sub, dict(action, player=seat.position), seat=seat.position, user=user, source="player")
        except IllegalAction as e:
            # The atomic block rolls back the log rows of the actions already applied.
            raise GameError(e) from e
    _advance(sub, seats)
    _write(sub, seats)
    return sub


@transaction.atomic
def game_timeout(*, game_id: int, now: datetime | None = None, seen_version: int | None = None) -> int:
    """Apply the defaults of RULES.md 11 to every decision whose deadline has passed.

    Claims the game with a locked read and does nothing if it has moved on meanwhile: another
    worker's timeout or a player's move, committed between the sweep's read (``seen_version``,
    the version whose deadline it found due) and this lock. A timeout and a move never both
    apply to one decision: the move that loses the lock to the timeout finds a newer version
    and gets StaleVersion."""
    now = now or timezone.now()
    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE or game.deadline is None or game.deadline > now:
        return 0
    if seen_version is not None and game.version != seen_version:
        return 0
    seats = _seats(game, None)
    sub = _begin(game, seats, now)
    # RULES.md 15: a decision a standing order answers is never timed out, nor counted as a
    # miss: the order is played (one set while the game was paused, or whose play was lost).
    _advance_standing(sub, seats)
    if sub.actions and _decision(game.state) != _decision(sub.state.to_json()):
        # The orders answered the decision that was due: what follows is a decision of its own,
        # with its own deadline.
        _advance(sub, seats)
        _write(sub, seats)
        return sub.actions
    state = sub.state
    waiting = waiting_on(state)
    bots = {s.position for s in seats if s.bot}
    # RULES.md 16: with banks each waited-on person has a deadline of their own; only theirs
    # that have passed time out.
    due = seat_clock.due(game, now) if seat_clock.enabled(game.table) else None
    away: dict[int, datetime] = {}
    for p in waiting:
        if state.over or p not in waiting_on(state) or p in bots:
            # (Bots are never timed out: the site plays them, below or in their task.)
            continue
        if due is not None and p not in due:
            continue
        back = vacation.auto_day(game, p, json.dumps(_decision(game.state)), now)
        if back is not None:
            # RULES.md 16: a day of vacation instead of the timeout; no miss is counted. The
            # log and the record say so (games/site_notes.py), the clock's doing.
            away[p] = back
            _apply(sub, {"type": "note", "player": p, "choice": "auto_vacation"}, seat=p, source="clock")
            continue
        if _bot_takes_over(game, state, seats, p):
            # The bot takes this decision at once, logged as the takeover (RULES.md 15).
            bot = next(s.bot for s in seats if s.position == p)
            _apply(sub, _bot_action(sub, p, bot), seat=p, source="takeover")
            continue
        _apply(sub, {"type": "timeout", "player": p}, seat=p, source="timeout")
    if away and sub.actions == len(away):
        # Only automatic vacation days: the decision waits on, its deadline a day later.
        _auto_vacation_write(sub, away, now)
        return 0
    if not sub.actions:
        # Only bots were waited on and their task is overdue (lost with a broker or a worker):
        # the sweep plays the bot's action itself, the one the task would have played.
        _site_step(sub, seats)
    _advance(sub, seats)
    # Whatever the timeout left to decide is newly waited on, even when it is the same player's
    # same kind of decision again (a timed-out roll that threw doubles rolls again, RULES.md 3).
    _write(sub, seats, fresh=True)
    return sub.actions


def _auto_vacation_write(sub: Submission, away: dict[int, datetime], now: datetime) -> None:
    """RULES.md 16, auto-vacation: the seats in ``away`` took a day instead of their timeout;
    their deadline moves on by that day (with RULES.md 16's clocks, each seat's clock restarts
    when they are back), and open pages see "on vacation until ..." (a new version). ``sub``
    holds the days' notes for the log and the record."""
    game = sub.game
    if seat_clock.enabled(game.table):
        for p, back in away.items():
            game.deadline = seat_clock.vacation(game, p, back, now) or game.deadline
    else:
        game.deadline = max(game.deadline, now) + vacation.DAY
    game.reminder_at = _reminder_at(game)
    game.version += 1
    game.aids = {**game.aids, "shown": game.version}
    game.state = sub.state.to_json()
    sql.write_move(game, ["state", "deadline", "reminder_at", "version", "aids", "updated_at"],
                   [row for row in sub.rows if row.pk is None])
    live.publish_on_commit(game.pk, game.version)


def _bot_takes_over(game: Game, state: GameState, seats: list[Seat], p: int) -> bool:
    """RULES.md 15, absent players: on a table with ``absent_seat`` "bot", the timeout that would
    be a player's third miss in a row (RULES.md 11, bankruptcy) hands their seat to a strategy
    bot instead, which takes this decision and every later one. The player keeps the seat's
    name and may watch, but no longer moves."""
    if game.table.absent_seat != Table.AbsentSeat.BOT:
        return False
    seat = next((s for s in seats if s.position == p), None)
    if seat is None or seat.user_id is None or seat.bot:
        return False
    player = state.players[p]
    if p in state.turn["timed_out"] or player.missed + 1 < state.rules.missed_turns_limit:
        return False
    seat.bot = Seat.Bot.STRATEGY
    seat.save(update_fields=["bot"])
    # Read by notifications.services.plan_game in this move's _write: the player is told they
    # were forfeited (issue 14), though no bankruptcy is logged.
    seat.taken_over = True
    return True
