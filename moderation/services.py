"""Every write of the moderation app (HackSoft style: keyword-only, typed, ``<entity>_<verb>``).

Each moderator action checks its rule (moderation/permissions.py), does its work and writes its
``AuditEntry`` inside one ``transaction.atomic()`` block: an action that fails leaves neither its
effect nor an audit row, and an audit row never describes something that did not happen.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import live
from games.errors import SiteRefusal
from games.models import Game, GameAction, Table, TradeRow
from moderation import selectors
from moderation.models import (
    CHAT_MAX_LENGTH,
    AuditEntry,
    Block,
    ChatMessage,
    ChatOption,
    Report,
    Sanction,
    ScanCursor,
)
from moderation.permissions import can

REASON_MAX_LENGTH = 1000
REPORT_TEXT_MAX_LENGTH = 2000
# Chat: at most this many messages per user per minute, counted from the chat rows themselves.
CHAT_RATE_COUNT = 5
CHAT_RATE_WINDOW = timedelta(minutes=1)
# Reports: at most this many per user per hour (a person, not a script, fills the form).
REPORT_RATE_COUNT = 10
REPORT_RATE_WINDOW = timedelta(hours=1)
MAX_DURATION = timedelta(days=365)
# The collusion flag (issue 11, after Monopoly One's ban on "draining"): an accepted trade
# between non-teammates whose larger side, valued as RULES.md 9 values a side (cash + printed
# prices + 500 per jail card), is at least twice the smaller one and larger by this much.
COLLUSION_RATIO = 2
COLLUSION_MIN_GAP = 300
# "Soon after": the player who gave the larger side goes bankrupt within this many rounds.
COLLUSION_BANKRUPT_ROUNDS = 3
COLLUSION_SCAN_BATCH = 5000
JAIL_CARD_VALUE = 500  # RULES.md 9

User = get_user_model()


class ModerationError(SiteRefusal):
    """A refused moderation request, with a message for the person who made it."""


class NotPermitted(ModerationError):
    pass


def _require(rule: str, user, obj=None) -> None:
    if not can(rule, user, obj):
        raise NotPermitted(_("You may not do that."))


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (a NUL byte, which PostgreSQL cannot store,
    a bell, an escape): never part of what a person writes, once newlines and tabs are read."""
    return any(unicodedata.category(c) == "Cc" for c in text)


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if _has_control(reason.replace("\n", "").replace("\r", "").replace("\t", "")):
        raise ModerationError(_("The reason holds a control character: write plain text."))
    if not reason:
        raise ModerationError(_("Give a reason: it is shown to the player and kept in the audit log."))
    if len(reason) > REASON_MAX_LENGTH:
        raise ModerationError(_("The reason is too long (at most %(n)s characters)."), n=REASON_MAX_LENGTH)
    return reason


def _name(user) -> str:
    return user.public_name if user is not None else ""


def _audit(*, moderator, action: str, reason: str, target=None, until=None, game=None, message=None,
           report=None, details: dict[str, Any] | None = None, key: str = "") -> AuditEntry:
    fields = dict(moderator=moderator, moderator_name=_name(moderator), action=action, target=target,
                  target_name=_name(target), reason=reason, until=until, game=game, message=message,
                  report=report, details=details or {}, request_key=key)
    if not key:
        return AuditEntry.objects.create(**fields)
    # The unique key is the last guard: _done_before, under the target's locked row, has already
    # answered a second post of the same form.
    try:
        with transaction.atomic():
            return AuditEntry.objects.create(**fields)
    except IntegrityError as e:
        raise ModerationError(_("This form was sent already: reload the page to act again.")) from e


def _done_before(*, key: str, moderator, target, action: str) -> AuditEntry | None:
    """The audit row of the action this form's ``key`` already did, if any (issue 26: the same
    form posted fifty times at once acts once). Called with the target's row locked, so that
    the posts of one form are checked one after the other."""
    if not key:
        return None
    entry = AuditEntry.objects.filter(request_key=key).first()
    if entry is not None and (entry.moderator_id != moderator.pk or entry.target_id != target.pk
                              or entry.action != action):
        raise ModerationError(_("This form was sent already: reload the page to act again."))
    return entry


def _locked_user(user):
    return User.objects.select_for_update().get(pk=user.pk)


def _end_sessions(user) -> int:
    """Sign the user out everywhere. Sessions are cached_db (settings.SESSION_ENGINE): each is
    deleted through its store, so that the cached copy goes with the row (a row deleted alone
    would leave the person signed in from the cache)."""
    ended = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            ended.append(session.session_key)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in ended:
        store(session_key=key).delete()
    return len(ended)


# ---------------------------------------------------------------------------------------------
# Account actions
# ---------------------------------------------------------------------------------------------

_OUTCOME_OF = {
    Sanction.Kind.WARN: Report.Outcome.WARNED, Sanction.Kind.MUTE: Report.Outcome.MUTED,
    Sanction.Kind.SUSPEND: Report.Outcome.SUSPENDED, Sanction.Kind.BAN: Report.Outcome.BANNED,
}


@transaction.atomic
def sanction_create(*, moderator, user, kind: str, reason: str, duration: timedelta | None = None,
                    report: Report | None = None, key: str = "") -> Sanction:
    """Warn, mute, suspend or ban ``user``. Mutes and suspensions need a duration (at most a
    year); a ban lasts until lifted; a warning has none. Suspending or banning signs the user
    out everywhere. With ``report``, the report is resolved with the matching outcome."""
    _require("moderation.act_on_user", moderator, user)
    if kind not in Sanction.Kind.values:
        raise ModerationError(_("Unknown action."))
    reason = _reason(reason)
    until = None
    if kind in (Sanction.Kind.MUTE, Sanction.Kind.SUSPEND):
        if duration is None or duration <= timedelta(0) or duration > MAX_DURATION:
            raise ModerationError(_("Choose how long it lasts (at most a year)."))
        until = timezone.now() + duration
    elif duration is not None:
        raise ModerationError(_("Warnings and bans have no duration."))
    user = _locked_user(user)
    done = _done_before(key=key, moderator=moderator, target=user, action=kind)
    if done is not None:
        return Sanction.objects.get(pk=done.details["sanction"])
    sanction = Sanction.objects.create(user=user, kind=kind, reason=reason, until=until, created_by=moderator)
    if report is not None:
        _resolve(moderator=moderator, report=report, outcome=_OUTCOME_OF[kind], note=reason, target=user)
    _audit(moderator=moderator, action=kind, target=user, reason=reason, until=until, report=report,
           details={"sanction": sanction.pk}, key=key)
    if kind in (Sanction.Kind.SUSPEND, Sanction.Kind.BAN):
        _end_sessions(user)
    return sanction


@transaction.atomic
def sanction_lift(*, moderator, user, reason: str, report: Report | None = None, key: str = "") -> list[Sanction]:
    """Lift every active mute, suspension and ban of ``user``."""
    _require("moderation.act_on_user", moderator, user)
    reason = _reason(reason)
    user = _locked_user(user)
    done = _done_before(key=key, moderator=moderator, target=user, action=AuditEntry.Action.LIFT)
    if done is not None:
        return list(Sanction.objects.filter(pk__in=done.details["sanctions"]))
    active = list(selectors.active_sanctions(user=user).select_for_update())
    if not active:
        raise ModerationError(_("This account has no active sanction to lift."))
    now = timezone.now()
    for sanction in active:
        sanction.lifted_at, sanction.lifted_by, sanction.lift_reason = now, moderator, reason
        sanction.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    if report is not None:
        _resolve(moderator=moderator, report=report, outcome=Report.Outcome.LIFTED, note=reason, target=user)
    _audit(moderator=moderator, action=AuditEntry.Action.LIFT, target=user, reason=reason, report=report,
           details={"sanctions": [s.pk for s in active], "kinds": [s.kind for s in active]}, key=key)
    return active


@transaction.atomic
def user_reset_display_name(*, moderator, user, reason: str, report: Report | None = None, key: str = ""):
    """Force a display-name change: the name goes back to a neutral one the player replaces in
    their settings. The old name is kept in the audit row."""
    _require("moderation.act_on_user", moderator, user)
    reason = _reason(reason)
    user = _locked_user(user)
    if _done_before(key=key, moderator=moderator, target=user, action=AuditEntry.Action.RENAME) is not None:
        return user
    from accounts.models import display_name_taken

    old = user.public_name
    neutral = f"Player {user.pk}"
    # (Should someone have taken the neutral name, the account shows its username instead.)
    user.display_name = "" if display_name_taken(neutral, user=user) else neutral
    user.save(update_fields=["display_name"])
    if report is not None:
        _resolve(moderator=moderator, report=report, outcome=Report.Outcome.RENAMED, note=reason, target=user)
    _audit(moderator=moderator, action=AuditEntry.Action.RENAME, target=user, reason=reason, report=report,
           details={"old_name": old, "new_name": user.display_name}, key=key)
    return user


# ---------------------------------------------------------------------------------------------
# Game actions
# ---------------------------------------------------------------------------------------------

@transaction.atomic
def game_remove_player(*, moderator, game: Game, user, reason: str, report: Report | None = None) -> Game:
    """Remove ``user`` from a running game: their seat surrenders (RULES.md 10, bankruptcy to
    the bank or to the creditor of a pending debt), logged as a moderator's removal rather than
    their own surrender (games.services.game_seat_remove), and the game goes on without them."""
    from games import services as game_services

    _require("moderation.act_on_game", moderator, game)
    _require("moderation.act_on_user", moderator, user)
    reason = _reason(reason)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.ACTIVE:
        raise ModerationError(_("This game is over."))
    try:
        sub = game_services.game_seat_remove(game=game, user=user)
    except game_services.GameError as e:
        raise ModerationError(_("The player cannot be removed: %(reason)s"), reason=str(e)) from e
    if report is not None:
        _resolve(moderator=moderator, report=report, outcome=Report.Outcome.REMOVED, note=reason, target=user,
                 game=game)
    _audit(moderator=moderator, action=AuditEntry.Action.FORFEIT, target=user, reason=reason, game=game,
           report=report)
    return sub.game


@transaction.atomic
def game_close(*, moderator, game: Game, reason: str, report: Report | None = None) -> Game:
    """End a running game with no winner: aborted, so it is never rated (RULES.md 13)."""
    _require("moderation.act_on_game", moderator, game)
    reason = _reason(reason)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.ACTIVE:
        raise ModerationError(_("This game is over."))
    now = timezone.now()
    game.status, game.deadline, game.finished_at, game.winner_seat = Game.Status.ABORTED, None, now, None
    game.version += 1  # open pages refresh and show the game as over
    game.save(update_fields=["status", "deadline", "finished_at", "winner_seat", "version", "updated_at"])
    live.publish_on_commit(game.pk, game.version)
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
    if report is not None:
        _resolve(moderator=moderator, report=report, outcome=Report.Outcome.CLOSED, note=reason, game=game)
    _audit(moderator=moderator, action=AuditEntry.Action.CLOSE_GAME, reason=reason, game=game, report=report)
    return game


# ---------------------------------------------------------------------------------------------
# Chat
# ---------------------------------------------------------------------------------------------

def chat_refusal(*, user, game: Game, is_player: bool, read_only: bool | None = None) -> str | None:
    """Why ``user`` may not write in this game's chat (in the reader's language), or None.
    ``read_only`` is the table's spectators option, when the caller has read it already."""
    from django.utils.translation import gettext

    if not user.is_authenticated:
        return gettext("Sign in to write in the chat.")
    sanction = selectors.strongest_sanction(user=user)
    if sanction is not None:
        return selectors.sanction_sentence(sanction)
    if read_only is None:
        read_only = not is_player and selectors.spectators_read_only(table_id=game.table_id)
    if not is_player and read_only:
        return gettext("At this table spectators read the chat but do not write in it.")
    return None


@transaction.atomic
def chat_post(*, user, game: Game, text: str, is_player: bool) -> ChatMessage:
    """Post a message. Plain text only: it is stored as typed and escaped wherever it is shown."""
    refusal = chat_refusal(user=user, game=game, is_player=is_player)
    if refusal:
        raise NotPermitted(refusal)
    text = " ".join((text or "").split())  # one line: newlines and runs of spaces collapse
    if not text:
        raise ModerationError(_("Write something first."))
    if _has_control(text):
        raise ModerationError(_("A message holds only text: no control characters."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ModerationError(_("A message is at most %(n)s characters long."), n=CHAT_MAX_LENGTH)
    # The user's row is locked so that two posts at once (a double click) count each other.
    user = _locked_user(user)
    since = timezone.now() - CHAT_RATE_WINDOW
    if ChatMessage.objects.filter(author=user, created_at__gt=since).count() >= CHAT_RATE_COUNT:
        raise ModerationError(_("You are writing too fast: wait a minute before the next message."))
    message = ChatMessage.objects.create(game=game, author=user, author_name=user.public_name, text=text)
    live.publish_chat_on_commit(game.pk)  # the game's open pages fetch the chat (games/live.py)
    return message


@transaction.atomic
def message_set_hidden(*, moderator, message: ChatMessage, hidden: bool, reason: str,
                       report: Report | None = None) -> ChatMessage:
    """Hide a message from everyone but moderators (kept, never deleted), or show it again."""
    _require("moderation.hide_message", moderator, message)
    reason = _reason(reason)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.is_hidden == hidden:
        raise ModerationError(_("The message is already hidden.") if hidden else _("The message is not hidden."))
    message.hidden_at, message.hidden_by = (timezone.now(), moderator) if hidden else (None, None)
    message.save(update_fields=["hidden_at", "hidden_by"])
    live.publish_chat_on_commit(message.game_id)
    if report is not None:
        _resolve(moderator=moderator, report=report, outcome=Report.Outcome.HIDDEN, note=reason, message=message)
    _audit(moderator=moderator,
           action=AuditEntry.Action.HIDE_MESSAGE if hidden else AuditEntry.Action.UNHIDE_MESSAGE,
           target=message.author, reason=reason, game=message.game, message=message, report=report,
           details={"text": message.text})
    return message


@transaction.atomic
def chat_set_spectators_read_only(*, by, table: Table, read_only: bool) -> ChatOption:
    if table.host_id != by.pk:
        raise NotPermitted(_("Only the host may change the chat's settings."))
    option, _created = ChatOption.objects.update_or_create(table=table, defaults={"spectators_read_only": read_only})
    return option


# ---------------------------------------------------------------------------------------------
# Reports and the queue
# ---------------------------------------------------------------------------------------------

@transaction.atomic
def report_create(*, reporter, reason: str, text: str = "", target=None, game: Game | None = None,
                  message: ChatMessage | None = None) -> Report:
    """A player reports another player, a chat message or a game. The caller has checked that
    the reporter may see the game and the message."""
    _require("moderation.report", reporter)
    if reason not in Report.PLAYER_REASONS:
        raise ModerationError(_("Choose a reason from the list."))
    text = (text or "").strip()
    if len(text) > REPORT_TEXT_MAX_LENGTH:
        raise ModerationError(_("The description is too long (at most %(n)s characters)."),
                              n=REPORT_TEXT_MAX_LENGTH)
    if message is not None:
        if game is not None and message.game_id != game.pk:
            raise ModerationError(_("That message is not in this game."))
        game = message.game
        target = message.author
        kind = Report.Kind.MESSAGE
    elif target is not None:
        kind = Report.Kind.PLAYER
    elif game is not None:
        kind = Report.Kind.GAME
    else:
        raise ModerationError(_("Say whom or what you are reporting."))
    if target is not None and target.pk == reporter.pk:
        raise ModerationError(_("You cannot report yourself."))
    reporter = _locked_user(reporter)
    since = timezone.now() - REPORT_RATE_WINDOW
    if Report.objects.filter(reporter=reporter, created_at__gt=since).count() >= REPORT_RATE_COUNT:
        raise ModerationError(_("You have sent many reports in the last hour: wait a while before the next."))
    duplicate = Report.objects.filter(reporter=reporter, kind=kind, target=target, game=game, message=message)
    if duplicate.exclude(state=Report.State.RESOLVED).exists() or (message and duplicate.exists()):
        raise ModerationError(_("You have already reported this; moderators will look at it."))
    try:
        with transaction.atomic():
            return Report.objects.create(kind=kind, reason=reason, text=text, reporter=reporter, target=target,
                                         game=game, message=message)
    except IntegrityError as e:  # the same message reported twice at once
        raise ModerationError(_("You have already reported this; moderators will look at it.")) from e


@transaction.atomic
def appeal_create(*, user, sanction: Sanction, text: str) -> Report:
    """The one appeal a sanctioned player may send against a sanction; it enters the queue."""
    if sanction.user_id != user.pk or not sanction.is_active():
        raise ModerationError(_("There is nothing to appeal."))
    text = (text or "").strip()
    if not text:
        raise ModerationError(_("Say why the sanction should be lifted."))
    if len(text) > REPORT_TEXT_MAX_LENGTH:
        raise ModerationError(_("The description is too long (at most %(n)s characters)."),
                              n=REPORT_TEXT_MAX_LENGTH)
    if Report.objects.filter(kind=Report.Kind.APPEAL, sanction=sanction).exists():
        raise ModerationError(_("You have already appealed against this sanction."))
    try:
        with transaction.atomic():
            return Report.objects.create(kind=Report.Kind.APPEAL, reason=Report.Reason.APPEAL, text=text,
                                         reporter=user, target=user, sanction=sanction)
    except IntegrityError as e:  # two appeals at once
        raise ModerationError(_("You have already appealed against this sanction.")) from e


def _locked_report(report: Report) -> Report:
    return Report.objects.select_for_update().get(pk=report.pk)


@transaction.atomic
def report_claim(*, moderator, report: Report) -> Report:
    """A moderator takes an open report, so that two moderators do not handle it at once."""
    _require("moderation.view_queue", moderator)
    report = _locked_report(report)
    if report.state != Report.State.OPEN:
        raise ModerationError(_("This report is no longer open: another moderator has it, or it is resolved."))
    _require("moderation.handle_report", moderator, report)
    report.state, report.claimed_by, report.claimed_at = Report.State.CLAIMED, moderator, timezone.now()
    report.save(update_fields=["state", "claimed_by", "claimed_at"])
    _audit(moderator=moderator, action=AuditEntry.Action.CLAIM, target=report.target,
           reason=str(_("Claimed from the queue")), report=report, game=report.game)
    return report


def _is_about(report: Report, *, target=None, game: Game | None = None, message: ChatMessage | None = None) -> bool:
    """Whether an action on ``target`` (in ``game``), on ``game`` or on ``message`` answers
    ``report``: it must be about the same account, game or message (issue 26: a report about
    staff was resolved as "muted" by bob's mute)."""
    if message is not None:
        return report.message_id == message.pk or (
            report.message_id is None and report.target_id is not None and report.target_id == message.author_id)
    if target is not None:
        return report.target_id == target.pk or (
            game is not None and report.target_id is None and report.game_id == game.pk)
    if game is not None:
        return report.game_id == game.pk
    return True


def _resolve(*, moderator, report: Report, outcome: str, note: str, target=None, game: Game | None = None,
             message: ChatMessage | None = None) -> Report:
    report = _locked_report(report)
    if report.state == Report.State.RESOLVED:
        raise ModerationError(_("This report is already resolved."))
    _require("moderation.handle_report", moderator, report)
    if not _is_about(report, target=target, game=game, message=message):
        raise ModerationError(_("That report is about someone or something else: it was left as it is."))
    if outcome not in Report.Outcome.values:
        raise ModerationError(_("Choose an outcome from the list."))
    now = timezone.now()
    if report.claimed_by_id is None:
        report.claimed_by, report.claimed_at = moderator, now
    report.state, report.resolved_by, report.resolved_at = Report.State.RESOLVED, moderator, now
    report.outcome, report.resolution = outcome, note
    report.save(update_fields=["state", "claimed_by", "claimed_at", "resolved_by", "resolved_at", "outcome",
                               "resolution"])
    return report


@transaction.atomic
def report_resolve(*, moderator, report: Report, outcome: str, note: str) -> Report:
    """Close a report with an outcome (the action itself, if any, was its own audited service)."""
    _require("moderation.view_queue", moderator)
    note = _reason(note)
    report = _resolve(moderator=moderator, report=report, outcome=outcome, note=note)
    _audit(moderator=moderator, action=AuditEntry.Action.RESOLVE, target=report.target, reason=note,
           report=report, game=report.game, details={"outcome": outcome})
    return report


# ---------------------------------------------------------------------------------------------
# Blocks
# ---------------------------------------------------------------------------------------------

@transaction.atomic
def block_create(*, user, blocked) -> Block:
    _require("moderation.block", user, blocked)
    block, _created = Block.objects.get_or_create(blocker=user, blocked=blocked)
    return block


@transaction.atomic
def block_delete(*, user, blocked) -> None:
    Block.objects.filter(blocker=user, blocked=blocked).delete()


# ---------------------------------------------------------------------------------------------
# Collusion: lopsided trades ("draining")
# ---------------------------------------------------------------------------------------------

def side_value(side: dict, prices) -> int:
    """A trade side as RULES.md 9 values it: cash + printed prices + 500 per jail card."""
    cards = side.get("cards", 0) or 0
    if isinstance(cards, list):
        cards = len(cards)
    return (side.get("cash", 0) or 0) + sum(prices[sq] for sq in side.get("squares", []) or []) \
        + JAIL_CARD_VALUE * cards


def is_lopsided(give: int, take: int) -> bool:
    low, high = sorted((give, take))
    return high - low >= COLLUSION_MIN_GAP and high >= COLLUSION_RATIO * low


@transaction.atomic
def collusion_scan(*, batch: int = COLLUSION_SCAN_BATCH) -> int:
    """Read the game log past the cursor: flag every lopsided accepted trade between
    non-teammates, and mark a flag when the player who gave the larger side goes bankrupt
    within a few rounds. Returns the number of flags written or updated."""
    from games.engine import GameState

    cursor, _created = ScanCursor.objects.get_or_create(name="collusion")
    cursor = ScanCursor.objects.select_for_update().get(pk=cursor.pk)
    rows = list(GameAction.objects.filter(pk__gt=cursor.last_id).order_by("pk")
                .values("pk", "game_id", "seq", "events")[:batch])
    if not rows:
        return 0
    changed = 0
    states: dict[int, Any] = {}
    for row in rows:
        for event in row["events"] or []:
            kind = event.get("e")
            if kind == "trade_accepted":
                game_id = row["game_id"]
                if game_id not in states:
                    states[game_id] = GameState.from_json(Game.objects.get(pk=game_id).state)
                changed += _flag_trade(game_id, event["trade"], row["seq"], states[game_id])
            elif kind == "bankrupt":
                changed += _mark_bankruptcy(row["game_id"], event["p"], row["seq"])
    cursor.last_id = rows[-1]["pk"]
    cursor.save(update_fields=["last_id"])
    return changed


def _flag_trade(game_id: int, number: int, seq: int, state) -> int:
    trade = TradeRow.objects.filter(game_id=game_id, number=number).first()
    if trade is None or state.teammates(trade.from_seat, trade.to_seat):
        return 0
    prices = state.board.price
    give, take = side_value(trade.give, prices), side_value(trade.take, prices)
    if not is_lopsided(give, take):
        return 0
    # The drained side: the seat that gave more than it got.
    drained = trade.from_seat if give > take else trade.to_seat
    details = {"seq": seq, "round": _round_at(game_id, seq), "from_seat": trade.from_seat, "to_seat": trade.to_seat,
               "give_value": give, "take_value": take, "drained_seat": drained,
               "names": [p.name for p in state.players], "bankrupt_seq": None}
    seats = {s.position: s.user for s in Game.objects.get(pk=game_id).table.seats.select_related("user")}
    _report, created = Report.objects.get_or_create(
        kind=Report.Kind.TRADE, trade=trade,
        defaults={"reason": Report.Reason.COLLUSION, "game_id": game_id, "target": seats.get(drained),
                  "details": details})
    return int(created)


def _round_at(game_id: int, seq: int) -> int:
    """The round a game was in at action ``seq``: that of the last turn that began by then."""
    rows = GameAction.objects.filter(game_id=game_id, seq__lte=seq).order_by("-seq").values_list("events", flat=True)
    for events in rows[:400]:
        for event in reversed(events or []):
            if event.get("e") == "turn":
                return int(event.get("round", 1))
    return 1


def _mark_bankruptcy(game_id: int, seat: int, seq: int) -> int:
    """A flagged trade whose drained seat goes bankrupt soon after is the clearest sign."""
    flags = [f for f in Report.objects.filter(kind=Report.Kind.TRADE, game_id=game_id)
             if f.details.get("drained_seat") == seat and f.details.get("bankrupt_seq") is None]
    if not flags:
        return 0
    bankrupt_round = _round_at(game_id, seq)
    updated = 0
    for flag in flags:
        if bankrupt_round - flag.details.get("round", 0) > COLLUSION_BANKRUPT_ROUNDS:
            continue
        flag.details = {**flag.details, "bankrupt_seq": seq, "bankrupt_round": bankrupt_round}
        flag.save(update_fields=["details"])
        updated += 1
    return updated
