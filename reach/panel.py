"""What the game page's panel of issue 29 shows its viewer: their notes (to them alone), whom
they may nudge and from when, and the nudges of the game (who nudged whom)."""

from __future__ import annotations

from django.utils import timezone

from reach import nudges
from reach.models import NOTE_MAX, Note, Nudge, Wait

NUDGES_SHOWN = 10


def context(*, user, game, seats, me) -> dict:
    """The panel's context; ``me`` is the viewer's seat (None for a spectator, who sees only the
    nudges: who nudged whom is no secret)."""
    now = timezone.now()
    by_seat = {s.position: s for s in seats}
    log = [{"by": by_seat[n.from_seat].label if n.from_seat in by_seat else "?",
            "to": by_seat[n.to_seat].label if n.to_seat in by_seat else "?", "at": n.at}
           for n in Nudge.objects.filter(game_id=game.pk).order_by("-at")[:NUDGES_SHOWN]]
    ctx = {"game": game, "me": me, "nudge_log": log, "note_max": NOTE_MAX, "targets": [], "note": None}
    if me is None:
        return ctx
    ctx["note"] = Note.objects.filter(game_id=game.pk, seat=me.position).first()
    if game.status == game.Status.ACTIVE:
        last = (Nudge.objects.filter(game_id=game.pk, from_seat=me.position).order_by("-at")
                .values_list("at", flat=True).first())
        again = last + nudges.AGAIN_AFTER if last is not None else None
        for wait in Wait.objects.filter(game_id=game.pk, seat__in=game.waiting_seats or []).order_by("seat"):
            seat = by_seat.get(wait.seat)
            if seat is None or seat.position == me.position or seat.user_id is None or seat.bot:
                continue
            at = wait.since + nudges.least_wait(since=wait.since, deadline=game.deadline)
            if again is not None and again > at:
                at = again
            ctx["targets"].append({"seat": seat.position, "name": seat.label, "since": wait.since,
                                   "at": at, "ready": at <= now})
    return ctx
