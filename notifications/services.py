"""Every write of the notifications app, and the one path every notification takes.

A game's move (games.services.moves._write) calls ``plan_game`` in its transaction: what the move
means for each human (a wait that begins, a forfeit, the start or the end), as plain items, which
``tasks.notify`` turns into rows on commit. ``notify`` writes each row once (the unique key) and
``deliver`` then claims it with a conditional UPDATE and decides: e-mail now, keep it for the
digest, or nothing (switched off, on the game page, the wait already over).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from notifications import presence
from notifications.models import Kind, Mode, Notification, Preference, Undeliverable

# (The one-click links' tokens, which the e-mails and the views read through this module too.)
from notifications.tokens import DIGEST_KIND, unsubscribe_target, unsubscribe_token  # noqa: F401

logger = logging.getLogger(__name__)

# The kinds about one game that the game page itself shows: no e-mail while the person has it open.
SHOWN_ON_THE_PAGE = {Kind.YOUR_TURN, Kind.TRADE_OFFERED, Kind.AUCTION_OPEN, Kind.GAME_OVER, Kind.FORFEITED,
                     Kind.REMINDER, Kind.FORFEIT_WARNING, Kind.OUTBID, Kind.WARNING, Kind.NUDGE,
                     Kind.END_PROPOSED}  # (RULES.md 16: the page shows the proposal's panel)
# The kinds that are about a wait: once the game no longer waits on the seat, they are stale.
# An auction's opening is stale only once the auction is over: the game never waits on a holder
# of a maximum, whom it is told to as well (the engine bids for them, RULES.md 15).
WAITS = {Kind.YOUR_TURN, Kind.TRADE_OFFERED, Kind.AUCTION_OPEN, Kind.REMINDER, Kind.WARNING, Kind.NUDGE}
AUCTIONS = {"auction", "building_auction"}

# An item of a plan: [kind, user id, key, seat or None, data].
Item = list


# ---------------------------------------------------------------------------------------------
# What a move means for each human
# ---------------------------------------------------------------------------------------------

def plan_game(*, game, seats, previous_waiting: Iterable[int] | None, state, events: list[dict],
              started: bool, over: bool, version: int, before: dict | None = None) -> list[Item]:
    """The notifications of one written move of a correspondence game (issue 14).

    "Your turn" goes to a human the game starts to wait on after waiting on someone else:
    once per wait, not for each of their consecutive decisions (``previous_waiting`` is who the
    game waited on before this move; ``None`` at the start). A wait that begins with a trade
    offered to them, or an auction they may bid in, is told as that instead (with the maximum
    they left, if any: the e-mail goes to them alone, RULES.md 15); a decision a standing order
    answered (played in the same write) is no wait and is not told. The game's start, its end, a
    forfeit by missed turns (RULES.md 11; or the seat handed to a bot, RULES.md 15), the second
    miss in a row when the next forfeits, and the engine passing for a holder of a maximum the
    auction went past (RULES.md 15: outbid above their maximum) are told to the humans
    concerned. ``before`` is the state before the move (for the maximum that was passed)."""
    gid = game.pk
    items: list[Item] = []
    # A seat handed to a bot by this move (games.services.moves._bot_takes_over) is a forfeit.
    for s in seats:
        if getattr(s, "taken_over", False) and s.user_id:
            items.append([Kind.FORFEITED, s.user_id, f"g{gid}:forfeit", s.position, {"bot": True}])
    humans = {s.position: s.user_id for s in seats if s.user_id and not s.bot}
    if not humans:
        return items
    players = state.players
    if over:
        for p, uid in humans.items():
            items.append([Kind.GAME_OVER, uid, f"g{gid}:over", p, {"winner": state.winner}])
        return items
    previous = set(previous_waiting or ())
    from games.engine import standing_maximum, waiting_on

    top = state.stack[-1] if state.stack else None
    auction_opened = any(e.get("e") == "auction" for e in events)
    for p in waiting_on(state):
        if p in previous or p not in humans or players[p].bankrupt:
            continue
        kind = Kind.YOUR_TURN
        data: dict[str, Any] = {}
        if top is not None and top["k"] == "trade_response" and top["p"] == p:
            kind, data = Kind.TRADE_OFFERED, {"trade": top["trade"]}
        elif top is not None and top["k"] == "auction" and auction_opened and p in top["bidders"]:
            kind, data = Kind.AUCTION_OPEN, {"square": top["sq"]}
            if top["what"] == "building":
                data["building"] = True  # (a house or hotel for sale, not the deed it stands on)
            held = standing_maximum(state, p)
            if held is not None:
                data["maximum"] = held
        # One wait, one key: the version at which it began.
        items.append([kind, humans[p], f"g{gid}:v{version}", p, data])
    # A holder of a maximum left by a standing order as the auction opened is not told of it:
    # a decision a standing order answers is never waited on, nor notified (RULES.md 15).
    limit = state.rules.missed_turns_limit
    # The auction this move's events are about: the one under way before it, else the one it
    # opened (an "auction" event); its maxima as they stood, for the outbid notice.
    auction = _auction_frame(before)
    before_maxima = {q: amount for q, amount in auction.get("max", ())} if auction else {}
    for e in events:
        if e.get("e") == "auction":
            auction, before_maxima = {"sq": e.get("sq"), "what": e.get("what"), "style": None}, {}
            continue
        p = e.get("p")
        if p not in humans:
            continue
        if e.get("e") == "bankrupt" and players[p].missed >= limit:
            items.append([Kind.FORFEITED, humans[p], f"g{gid}:forfeit", p, {}])
        elif e.get("e") == "missed" and limit > 1 and e.get("count") == limit - 1:
            # The next miss in a row forfeits (RULES.md 11): said now, and again at the
            # reminder of the decisive wait (notifications.reminders).
            items.append([Kind.FORFEIT_WARNING, humans[p], f"g{gid}:v{version}:missed", p,
                          {"missed": limit - 1, "limit": limit, "bot": game.table.absent_seat == "bot"}])
        elif e.get("e") == "max_bid":
            before_maxima[p] = e.get("amount")
        elif e.get("e") == "pass" and e.get("by") == "max" and auction is not None:
            # RULES.md 15: the engine passes for a holder when the bidding went past their
            # maximum (or their cash); in an open auction they may still bid by hand. Told once
            # per auction and player (issue 26: it went out at every bid): the key names the
            # auction, not the move.
            style = auction.get("style") or state.rules.auction_style
            items.append([Kind.OUTBID, humans[p], f"g{gid}:{_auction_key(game, auction)}:outbid", p,
                          {"maximum": before_maxima.get(p), "square": auction.get("sq"),
                           "open": style == "open"}])
    if started:
        waited = {item[1] for item in items}
        host = game.table.host_id
        for p, uid in humans.items():
            if uid not in waited and uid != host:
                items.append([Kind.GAME_STARTED, uid, f"g{gid}:start", p, {}])
    return items


def _auction_frame(before: dict | None) -> dict | None:
    """The auction under way in a state (as JSON) before a move: the topmost auction frame (a
    trade offer may wait above it, RULES.md 15), or None."""
    stack = (before or {}).get("stack") or ()
    return next((f for f in reversed(stack) if f.get("k") == "auction"), None)


def _auction_key(game, auction: dict) -> str:
    """What names one auction of a game for as long as it runs: its row (games.models.AuctionRow,
    written by the move before its notifications are planned), by the action that opened it."""
    from games.models import AuctionRow

    opened = (AuctionRow.objects.filter(game_id=game.pk, square=auction.get("sq"), what=auction.get("what"))
              .order_by("-opened_seq").values_list("opened_seq", flat=True).first())
    return f"auction{auction.get('sq')}.{auction.get('what')}.{opened}"


# ---------------------------------------------------------------------------------------------
# Rows, written once, then delivered once
# ---------------------------------------------------------------------------------------------

def notification_create(*, user_id: int, kind: str, key: str, game_id: int | None = None,
                        seat: int | None = None, data: dict | None = None) -> Notification | None:
    """The row of one notification, or None when it exists already (the task ran before, or
    another worker is at it): the unique (user, kind, key) is the claim."""
    try:
        with transaction.atomic():
            return Notification.objects.create(user_id=user_id, kind=kind, key=key, game_id=game_id,
                                               seat=seat, data=data or {})
    except IntegrityError:
        return None


def mode_of(*, user_id: int, kind: str) -> str:
    mode = Preference.objects.filter(user_id=user_id, kind=kind).values_list("mode", flat=True).first()
    return mode or Mode.IMMEDIATELY


def preference_set(*, user, kind: str, mode: str) -> Preference:
    if kind not in Kind.values or mode not in Mode.values:
        raise ValueError(f"unknown kind or mode: {kind!r}, {mode!r}")
    pref, _created = Preference.objects.update_or_create(user=user, kind=kind, defaults={"mode": mode})
    return pref


def notification_mark_read(*, user, ids: Iterable[int] | None = None, game_id: int | None = None) -> int:
    """Mark a user's notifications read (those ``ids``, or those of the game ``game_id``, or
    all); another user's are untouched."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    return rows.update(read_at=timezone.now())


def waits_over(*, game_id: int, seats: Iterable[int], now=None) -> int:
    """The game no longer waits on ``seats`` (their wait was answered, or timed out): the bell's
    items about those waits are read (issue 26: 105 unread "A game waits on you" after a week).
    One UPDATE, in the move's transaction (games.services.moves._write)."""
    seats = list(seats)
    if not seats:
        return 0
    return Notification.objects.filter(game_id=game_id, seat__in=seats, kind__in=WAITS,
                                       read_at__isnull=True).update(read_at=now or timezone.now())


def _finish(n: Notification, status: str, **fields: Any) -> None:
    Notification.objects.filter(pk=n.pk).update(status=status, **fields)
    n.status = status


def deliver(*, notification: Notification, now=None) -> str:
    """Decide and, if so, e-mail one notification; returns its final status, or "" when another
    delivery had it already. Claimed from PENDING with a conditional UPDATE: of two deliveries,
    only one gets past it."""
    from notifications import emails

    n = notification
    if Notification.objects.filter(pk=n.pk, status=Notification.Status.PENDING).update(
            status=Notification.Status.SENDING) != 1:
        return ""
    now = now or timezone.now()
    user = n.user
    if not user.is_active or not user.email:
        _finish(n, Notification.Status.OFF)
        return n.status
    if address_undeliverable(user.email):
        # A bounce or a complaint (webhooks.py): nothing more to it until it is confirmed again.
        _finish(n, Notification.Status.BOUNCED)
        return n.status
    mode = mode_of(user_id=user.pk, kind=n.kind)
    if mode == Mode.OFF:
        _finish(n, Notification.Status.OFF)
        return n.status
    game = n.game
    if game is not None and n.kind in WAITS and (
            game.status != game.Status.ACTIVE
            or (n.seat not in (game.waiting_seats or []) and not (
                n.kind == Kind.AUCTION_OPEN and game.pending in AUCTIONS))):
        # (Read too: the wait it was about is over, issue 26.)
        _finish(n, Notification.Status.STALE, read_at=now)
        return n.status
    if game is not None and n.kind in SHOWN_ON_THE_PAGE and presence.is_active(
            user_id=user.pk, game_id=game.pk, now=now):
        _finish(n, Notification.Status.ACTIVE)
        return n.status
    if mode == Mode.DIGEST:
        _finish(n, Notification.Status.DIGEST)
        return n.status
    # Issue 29: quiet hours hold it; the person's channels (e-mail, push, bell) say where it goes.
    from reach.delivery import intercept

    instead = intercept(n, user=user, now=now)
    if instead is not None:
        _finish(n, instead)
        return n.status
    try:
        subject, url = emails.send_notification(notification=n)
    except Exception:
        # Back to PENDING, so that the task's retry (or the next delivery) can send it.
        _finish(n, Notification.Status.PENDING)
        raise
    _finish(n, Notification.Status.SENT, emailed_at=now)
    _push(n, subject=subject, url=url)
    return n.status


def _push(n: Notification, *, subject: str, url: str) -> None:
    """The same news to the user's browsers (push.py), if they turned it on; never in the way
    of the e-mail, which has gone out already."""
    from django.conf import settings

    from notifications import push
    from reach.delivery import wants_push

    if not push.enabled() or not wants_push(n.user_id):  # (issue 29: the person's channels)
        return
    try:
        push.send(user_id=n.user_id, payload={"title": settings.SITE_NAME, "body": subject, "url": url,
                                              "tag": f"notification-{n.pk}"})
    except Exception:
        logger.exception("push of notification %s failed", n.pk)


def address_undeliverable(email: str) -> bool:
    return Undeliverable.objects.filter(email=email.strip().lower()).exists()


def address_mark_undeliverable(*, email: str, reason: str, description: str = "") -> Undeliverable:
    """The provider reported a bounce, a complaint or a refusal: no more notifications to it
    until its owner confirms it again (``address_reconfirm``, then ``address_confirmed``)."""
    row, _created = Undeliverable.objects.update_or_create(
        email=email.strip().lower(), defaults={"reason": reason, "description": description[:200]})
    return row


def address_confirmed(*, email: str) -> int:
    """Its owner confirmed the address again (allauth's e-mail confirmation): it is deliverable."""
    deleted, _ = Undeliverable.objects.filter(email=email.strip().lower()).delete()
    return deleted


def address_reconfirm(*, request, user) -> bool:
    """Send the allauth confirmation link to a user's undeliverable address. The address is
    marked unverified first: allauth confirms only unverified addresses, and its confirmation
    (the ``email_confirmed`` signal) is what lifts the mark. Returns whether a link went out."""
    from allauth.account.models import EmailAddress

    if not user.email or not address_undeliverable(user.email):
        return False
    address, _created = EmailAddress.objects.get_or_create(
        user=user, email__iexact=user.email, defaults={"email": user.email, "primary": True})
    if address.verified:
        address.verified = False
        address.save(update_fields=["verified"])
    address.send_confirmation(request)
    return True


def notify(*, game_id: int | None, items: Iterable[Item], now=None) -> int:
    """Write the rows of ``items`` (each once) and deliver the new ones; returns e-mails sent."""
    sent = 0
    for kind, user_id, key, seat, data in items:
        # The row exists already when the task runs again: delivered then, unless its e-mail
        # failed (back to PENDING), in which case this run tries again; deliver's claim decides.
        notification_create(user_id=user_id, kind=kind, key=key, game_id=game_id, seat=seat, data=data)
        n = Notification.objects.select_related("user", "game__table").get(user_id=user_id, kind=kind, key=key)
        if deliver(notification=n, now=now) == Notification.Status.SENT:
            sent += 1
    return sent
