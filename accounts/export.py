""" "Download my data" (issue 31): one ZIP with a JSON file per kind of data a player has here,
built by a Celery task (accounts/tasks.py) and mailed as a signed link that lasts a day and opens
only for its owner.

Only the player's own data goes in: other people appear by their public name at most, never by
e-mail address, and no moderator's notes (a report's resolution, a sanction's audit) are in it.

Issue 29's data: each game's entry carries the player's private note in it (reach.models.Note,
kept with the seat), and "reach.json" their chat names (chats.models.Identity), warnings, quiet
hours and whether their calendar feed is on. Not the feed's secret address: like a second
factor's secret (only its kind is listed), it is a key, not a fact about them; a ZIP kept or
forwarded would go on opening their calendar. Settings → "Reminders and calendar" shows it.
"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone

SALT = "accounts.data_export"
FILES = (
    "profile.json",
    "games.json",
    "chat_messages.json",
    "reports_and_blocks.json",
    "notifications.json",
    "ratings.json",
    "reach.json",
)


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def _public_name(user) -> str | None:
    if user is None:
        return None
    return user.display_name or user.username


def profile(user) -> dict[str, Any]:
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator
    from allauth.socialaccount.models import SocialAccount

    return {
        "username": user.username,
        "display_name": user.display_name,
        "language": user.language,
        "time_zone": user.time_zone,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("-primary", "email")
        ],
        "second_factors": sorted({a.type for a in Authenticator.objects.filter(user=user)}),
        "linked_accounts": [
            {"provider": s.provider, "uid": s.uid, "date_joined": _when(s.date_joined)}
            for s in SocialAccount.objects.filter(user=user).order_by("provider")
        ],
    }


def games(user) -> list[dict[str, Any]]:
    from games.models import Game, Seat
    from games.records import game_record
    from reach.models import Note

    out = []
    seats = list(Seat.objects.filter(user=user).select_related("table").order_by("table_id"))
    notes = {(n.game_id, n.seat): n for n in Note.objects.filter(game__table_id__in=[s.table_id for s in seats])}
    for seat in seats:
        game = Game.objects.filter(table_id=seat.table_id).first()
        entry: dict[str, Any] = {
            "table": seat.table.name,
            "table_id": seat.table_id,
            "pace": seat.table.pace,
            "seat": seat.position,
            "joined_at": _when(seat.joined_at),
            "game": None,
        }
        if game is not None:
            entry["game"] = {
                "id": game.pk,
                "status": game.status,
                "round": game.round,
                "winner_seat": game.winner_seat,
                "record": game_record(game),
                # Issue 29: the player's private notepad in this game (only theirs).
                "my_note": _note(notes.get((game.pk, seat.position))),
            }
        out.append(entry)
    return out


def _note(note) -> dict[str, Any] | None:
    if note is None:
        return None
    return {"text": note.text, "shown_in_replay": note.reveal, "updated_at": _when(note.updated_at)}


def reach(user) -> dict[str, Any]:
    """Issue 29: the player's names in group chats and their reminders and calendar choices."""
    from chats.models import Identity
    from reach import choices

    identity = Identity.objects.filter(user=user).first()
    row = choices.of(user.pk)
    return {
        "chat_names": None if identity is None else {
            "discord_user_id": identity.discord_id,
            "slack_member_id": identity.slack_id,
            "telegram_username": identity.telegram_username,
        },
        "warnings_before_a_deadline_hours": row.warning_hours,
        "channels": {"email": row.email, "push": row.push, "bell": row.bell},
        "quiet_hours": {"from": row.quiet_start.isoformat(timespec="minutes"),
                        "until": row.quiet_end.isoformat(timespec="minutes"),
                        "time_zone": user.time_zone} if row.has_quiet_hours else None,
        # Whether the private feed is on; never its secret address (the module's docstring).
        "calendar_feed": bool(row.calendar_token),
    }


def chat_messages(user) -> list[dict[str, Any]]:
    from moderation.models import ChatMessage

    return [
        {"game": m.game_id, "text": m.text, "written_at": _when(m.created_at), "hidden": m.hidden_at is not None}
        for m in ChatMessage.objects.filter(author=user).order_by("created_at", "pk")
    ]


def reports_and_blocks(user) -> dict[str, Any]:
    from moderation.models import Block, Report

    reports = Report.objects.filter(reporter=user).select_related("target").order_by("created_at", "pk")
    blocks = Block.objects.filter(blocker=user).select_related("blocked").order_by("created_at", "pk")
    return {
        # What the player wrote and what became of it; the moderators' own notes stay out.
        "reports": [
            {
                "kind": r.kind,
                "reason": r.reason,
                "text": r.text,
                "about": _public_name(r.target),
                "game": r.game_id,
                "state": r.state,
                "outcome": r.outcome or None,
                "made_at": _when(r.created_at),
            }
            for r in reports
        ],
        "blocks": [{"blocked": _public_name(b.blocked), "since": _when(b.created_at)} for b in blocks],
    }


def notifications(user) -> dict[str, Any]:
    from notifications.models import Notification, Preference

    return {
        "notifications": [
            {
                "kind": n.kind,
                "game": n.game_id,
                "status": n.status,
                "created_at": _when(n.created_at),
                "emailed_at": _when(n.emailed_at),
                "read_at": _when(n.read_at),
            }
            for n in Notification.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "preferences": {p.kind: p.mode for p in Preference.objects.filter(user=user).order_by("kind")},
    }


def ratings(user) -> dict[str, Any]:
    from ratings.models import Achievement, PlayerResult, Progress, QuestCompletion, Rating

    progress = Progress.objects.filter(user=user).first()
    return {
        "ratings": [
            {
                "family": r.family,
                "rating": r.value,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "updated_at": _when(r.updated_at),
            }
            for r in Rating.objects.filter(user=user).order_by("family")
        ],
        "history": [
            {
                "game": p.game_id,
                "family": p.family,
                "rank": p.rank,
                "players": p.players,
                "forfeited": p.forfeited,
                "net_worth": p.net_worth,
                "xp": p.xp,
                "mu_before": p.mu_before,
                "mu_after": p.mu_after,
                "sigma_before": p.sigma_before,
                "sigma_after": p.sigma_after,
            }
            for p in PlayerResult.objects.filter(user=user).order_by("game_id")
        ],
        "progress": None
        if progress is None
        else {
            f.name: getattr(progress, f.name)
            for f in progress._meta.concrete_fields
            if f.name not in ("id", "user") and not f.is_relation
        },
        "achievements": [
            {"code": a.code, "game": a.game_id, "awarded_at": _when(a.awarded_at)}
            for a in Achievement.objects.filter(user=user).order_by("awarded_at", "pk")
        ],
        "quests": [
            {
                "week": _when(q.week),
                "code": q.code,
                "game": q.game_id,
                "xp": q.xp,
                "completed_at": _when(q.completed_at),
            }
            for q in QuestCompletion.objects.filter(user=user).order_by("completed_at", "pk")
        ],
    }


def build_zip(user) -> bytes:
    parts = {
        "profile.json": profile(user),
        "games.json": games(user),
        "chat_messages.json": chat_messages(user),
        "reports_and_blocks.json": reports_and_blocks(user),
        "notifications.json": notifications(user),
        "ratings.json": ratings(user),
        "reach.json": reach(user),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in FILES:
            archive.writestr(name, json.dumps(parts[name], ensure_ascii=False, indent=2, default=str))
    return buffer.getvalue()


def download_token(export) -> str:
    return signing.dumps({"export": export.pk, "user": export.user_id}, salt=SALT)


def read_token(token: str) -> dict[str, int]:
    """The export and user a link names; ``signing.BadSignature`` (or its ``SignatureExpired``)
    when it was altered or is older than a day."""
    return signing.loads(token, salt=SALT, max_age=settings.DATA_EXPORT_MAX_AGE)


def download_path(export) -> str:
    return reverse("accounts:data_download", args=[download_token(export)])


def expired_before():
    return timezone.now() - timedelta(seconds=settings.DATA_EXPORT_MAX_AGE)
