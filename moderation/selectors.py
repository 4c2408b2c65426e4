"""Reads of the moderation app: a user's restrictions, the queue, histories, a game's chat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from moderation.models import AuditEntry, Block, ChatMessage, ChatOption, Report, Sanction

CHAT_PAGE = 50
# The most severe restriction first: a ban outranks a suspension, which outranks a mute.
_SEVERITY = {Sanction.Kind.BAN: 3, Sanction.Kind.SUSPEND: 2, Sanction.Kind.MUTE: 1}
LOCKOUT = (Sanction.Kind.BAN, Sanction.Kind.SUSPEND)
SILENCE = (Sanction.Kind.BAN, Sanction.Kind.SUSPEND, Sanction.Kind.MUTE)


def active_sanctions(*, user, kinds=SILENCE, at: datetime | None = None) -> QuerySet[Sanction]:
    """The sanctions of ``kinds`` in force for ``user`` at ``at`` (now): not lifted, and without
    an end or ending later. (games/sql.py compiles this rule into the reads of a move.)"""
    now = at if at is not None else timezone.now()
    return Sanction.objects.filter(user=user, kind__in=kinds, lifted_at__isnull=True).filter(
        Q(until__isnull=True) | Q(until__gt=now))


def strongest_sanction(*, user, kinds=SILENCE) -> Sanction | None:
    """The most severe active restriction of ``kinds`` (longest-lasting among equals), or None."""
    if user is None or not user.is_authenticated:
        return None
    found = list(active_sanctions(user=user, kinds=kinds))
    if not found:
        return None
    return max(found, key=lambda s: (_SEVERITY[s.kind], s.until is None, s.until or s.created_at))


WARNING_SHOWN_DAYS = 30


def recent_warnings(*, user) -> list[Sanction]:
    """The warnings a player was given lately: the chat panel shows them to the player."""
    if user is None or not user.is_authenticated:
        return []
    since = timezone.now() - timedelta(days=WARNING_SHOWN_DAYS)
    return list(Sanction.objects.filter(user=user, kind=Sanction.Kind.WARN, created_at__gt=since)[:3])


# Whether a user has no suspension or ban is remembered in the cache (asked on every move):
# saving or deleting any of their sanctions forgets it (moderation/signals.py), at once and again
# once the transaction commits, so a new suspension holds from the next request; a user with
# one is always read, so it ends when it ends. The expiry only bounds a change made some other
# way (a queryset update).
LOCKOUT_FREE_SECONDS = 300


def _lockout_key(user_id: int) -> str:
    return f"moderation:lockout-free:{user_id}"


def lockout(*, user) -> Sanction | None:
    """The suspension or ban that keeps the user out of the site, or None."""
    if user is None or not user.is_authenticated:
        return None
    key = _lockout_key(user.pk)
    if cache.get(key):
        return None
    sanction = strongest_sanction(user=user, kinds=LOCKOUT)
    if sanction is None:
        cache.set(key, True, LOCKOUT_FREE_SECONDS)
    return sanction


def forget_lockout(*, user_id: int) -> None:
    """A sanction of the user changed: their next request reads their sanctions again."""
    key = _lockout_key(user_id)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def sanction_sentence(sanction: Sanction) -> str:
    """What the person is told: what, until when, and why."""
    reason = sanction.reason
    if sanction.kind == Sanction.Kind.BAN:
        return _("Your account is banned; reason: %(reason)s") % {"reason": reason}
    until = formats.date_format(timezone.localtime(sanction.until), "DATETIME_FORMAT")
    if sanction.kind == Sanction.Kind.SUSPEND:
        return _("Your account is suspended until %(until)s; reason: %(reason)s") % {
            "until": until, "reason": reason}
    return _("You are muted in chat until %(until)s; reason: %(reason)s") % {"until": until, "reason": reason}


def lockout_refusal(*, user) -> str | None:
    """The refusal for a suspended or banned user, in the reader's language; None for others."""
    sanction = lockout(user=user)
    return sanction_sentence(sanction) if sanction else None


# ---------------------------------------------------------------------------------------------
# The queue
# ---------------------------------------------------------------------------------------------

def _visible_reports(viewer) -> QuerySet[Report]:
    """The reports ``viewer`` may see: all for staff; for other moderators, none about a
    moderator or staff (moderation.view_report)."""
    from moderation.permissions import protected_users

    qs = Report.objects.all()
    if viewer is not None and not (viewer.is_staff or viewer.is_superuser):
        qs = qs.exclude(target__in=protected_users().values("pk"))
    return qs


def open_report_count(*, viewer=None) -> int:
    return _visible_reports(viewer).exclude(state=Report.State.RESOLVED).count()


def queue(*, state: str = "", reason: str = "", kind: str = "", viewer=None) -> QuerySet[Report]:
    """Reports, the unresolved ones by default, oldest first (first come, first served); those
    ``viewer`` may see."""
    qs = _visible_reports(viewer).select_related("reporter", "target", "claimed_by", "game__table", "message")
    qs = qs.filter(state=state) if state else qs.exclude(state=Report.State.RESOLVED)
    if reason:
        qs = qs.filter(reason=reason)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.order_by("created_at", "id") if state != Report.State.RESOLVED else qs.order_by("-resolved_at")


@dataclass
class AccountHistory:
    sanctions: list[Sanction]
    audit: list[AuditEntry]
    reports_against: list[Report]
    active: list[Sanction]


def account_history(*, user) -> AccountHistory:
    sanctions = list(Sanction.objects.filter(user=user).select_related("created_by", "lifted_by"))
    now = timezone.now()
    return AccountHistory(
        sanctions=sanctions,
        audit=list(AuditEntry.objects.filter(target=user).select_related("game__table")[:200]),
        reports_against=list(Report.objects.filter(target=user).select_related("reporter")[:100]),
        active=[s for s in sanctions if s.is_active(now)],
    )


# ---------------------------------------------------------------------------------------------
# Chat and blocks
# ---------------------------------------------------------------------------------------------

def blocked_ids(*, user) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocks(*, blocker, blocked) -> bool:
    """Whether ``blocker`` blocks ``blocked`` (False for a visitor on either side)."""
    if blocker is None or blocked is None or not blocker.is_authenticated or not blocked.is_authenticated:
        return False
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def is_blocked(*, blocker_email: str, blocked) -> bool:
    """Whether the account with this e-mail address blocks ``blocked`` (for invitations)."""
    from allauth.account.models import EmailAddress

    owner_ids = EmailAddress.objects.filter(email__iexact=blocker_email).values_list("user_id", flat=True)
    return Block.objects.filter(blocker_id__in=owner_ids, blocked=blocked).exists()


def spectators_read_only(*, table_id: int) -> bool:
    return ChatOption.objects.filter(table_id=table_id, spectators_read_only=True).exists()


def chat_stamp(*, game_id: int) -> str:
    """Changes whenever the chat shows something new: a message, a hidden or shown one."""
    agg = ChatMessage.objects.filter(game_id=game_id).aggregate(
        last=Max("id"), hidden=Count("id", filter=Q(hidden_at__isnull=False)))
    return f"{agg['last'] or 0}-{agg['hidden']}"


def chat_messages(*, game_id: int, viewer, moderator: bool) -> list[ChatMessage]:
    """The last messages of a game's chat as ``viewer`` sees them: hidden ones only for
    moderators (marked), none from the accounts the viewer blocks."""
    qs = ChatMessage.objects.filter(game_id=game_id)
    if not moderator:
        qs = qs.filter(hidden_at__isnull=True)
    blocked = blocked_ids(user=viewer)
    if blocked:
        qs = qs.exclude(author_id__in=blocked)
    return list(reversed(qs.order_by("-id")[:CHAT_PAGE]))
