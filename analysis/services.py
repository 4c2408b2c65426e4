"""Every write of the analysis app (issue 30, "after every game").

``analysis_request`` makes a finished game's analysis row and queues its task on commit (the
games' services call it where a game ends; a periodic catch-up calls it for any game missed).
``analysis_run`` is the task's service: it claims the row with a conditional UPDATE (a lease,
renewed at every round), so a second task for the same game does nothing while the first runs,
and resumes after the rounds already stored when the run before it died: no work or row twice.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from analysis import compute, estimate
from analysis.models import GameAnalysis
from config.celery import queue_on_commit
from games import records
from games.models import Game

logger = logging.getLogger(__name__)


def lease() -> timedelta:
    """How long a run's claim lasts: it renews it at every round (a few seconds each), so one
    that has not for this long died, and the next task takes the game over (settings
    ANALYSIS_LEASE_SECONDS, 90: shorter than the broker's redelivery, 120 s on Redis)."""
    return timedelta(seconds=settings.ANALYSIS_LEASE_SECONDS)

# The analysis's own seeds: round r's playouts use SEED_BASE + r, never anything of the game; the
# swing of the record's action n (a turning point's candidate), SWING_SEED_BASE + n.
SEED_BASE = 30_000
SWING_SEED_BASE = 1_000_000
TASK = "analysis.tasks.analyse_game"


def analysis_request(*, game_id: int) -> bool:
    """Make the analysis row of a finished game (once) and queue its task on commit. Returns
    whether a task was queued (not for a game in play, nor for one already analysed)."""
    if not Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
        return False
    row = _row_of(game_id)
    if row.status == GameAnalysis.Status.DONE:
        return False
    queue_on_commit(TASK, game_id)
    return True


def _row_of(game_id: int) -> GameAnalysis:
    try:
        with transaction.atomic():
            row, _created = GameAnalysis.objects.get_or_create(game_id=game_id)
    except IntegrityError:  # (another task or page made it in the meantime)
        row = GameAnalysis.objects.get(game_id=game_id)
    return row


def _claim(game_id: int, now) -> str | None:
    token = secrets.token_hex(8)
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    claimed = GameAnalysis.objects.filter(
        free, game_id=game_id, status__in=[GameAnalysis.Status.PENDING, GameAnalysis.Status.RUNNING],
        game__status=Game.Status.FINISHED,
    ).update(status=GameAnalysis.Status.RUNNING, claim=token, claimed_until=now + lease(), runs=F("runs") + 1)
    return token if claimed == 1 else None


def held_for(*, game_id: int) -> float | None:
    """Seconds until the claim another run holds on this game's analysis lapses, or None when
    none is held (or the analysis is over)."""
    until = GameAnalysis.objects.filter(
        game_id=game_id, status=GameAnalysis.Status.RUNNING).values_list("claimed_until", flat=True).first()
    if until is None:
        return None
    return max(0.0, (until - timezone.now()).total_seconds())


class _Lost(Exception):
    """The run's claim lapsed to another run while it measured the turning points' swings."""


def analysis_run(*, game_id: int) -> str:
    """Compute (or finish) a finished game's analysis. Returns what it did: "done", "held"
    (another run holds the claim: ``held_for`` says how long), "busy" (done already, or a game
    not finished), "lost" (the claim lapsed to another run midway) or "failed" (the record does
    not replay: kept as the row's error)."""
    if not Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
        return "busy"  # (a game in play is never analysed: RULES.md's fairness, issue 30)
    _row_of(game_id)
    token = _claim(game_id, timezone.now())
    if token is None:
        return "held" if held_for(game_id=game_id) is not None else "busy"
    row = GameAnalysis.objects.select_related("game").get(game_id=game_id)
    mine = GameAnalysis.objects.filter(pk=row.pk, claim=token)
    try:
        record = records.game_record(row.game)
        replayed = compute.replay(record)
    except Exception as e:  # a record the engine refuses: kept, never retried forever
        logger.exception("analysing game %s: the record does not replay", game_id)
        mine.update(status=GameAnalysis.Status.FAILED, error=str(e)[:300], claimed_until=None)
        return "failed"
    points = [p for p in row.points if not p.get("end")]
    if not mine.update(sides=replayed.sides, rounds_total=len(replayed.starts)):
        return "lost"
    for start in replayed.starts[len(points):]:
        est = estimate.chances(start.state, seen=start.seen, seed=SEED_BASE + start.round)
        points.append({"round": start.round, "step": start.step, "p": [round(c.p, 4) for c in est.chances],
                       "low": [round(c.low, 4) for c in est.chances], "high": [round(c.high, 4) for c in est.chances],
                       "playouts": est.playouts})
        # Stored at once, the claim renewed: the page shows the progress, a later run resumes here.
        if not mine.update(points=points, claimed_until=timezone.now() + lease()):
            return "lost"
    steps = len(record["actions"])
    points.append(compute.end_point(replayed.final, replayed.sides, steps))

    def swing(step: int) -> list[float]:
        before, after, seen = compute.around(record, replayed, step)
        moved = estimate.swing(before, after, seen=seen, seed=SWING_SEED_BASE + step)
        if not mine.update(claimed_until=timezone.now() + lease()):  # (renewed: a few seconds each)
            raise _Lost
        return moved

    try:
        turning = compute.turning_points(points, replayed.events, replayed.sides, swing=swing)
    except _Lost:
        return "lost"
    luck = compute.luck(record, replayed.events) or []
    done = mine.update(points=points, turning=turning, luck=luck, status=GameAnalysis.Status.DONE,
                       claimed_until=None, finished_at=timezone.now(), error="")
    return "done" if done else "lost"


def analyses_catch_up(*, limit: int = 20) -> int:
    """Queue the analysis of finished games that have none, or whose run died and nobody took
    up (a task lost with its broker). Returns how many were queued."""
    now = timezone.now()
    missing = list(Game.objects.filter(status=Game.Status.FINISHED, analysis__isnull=True)
                   .order_by("-finished_at").values_list("pk", flat=True)[:limit])
    stalled = list(GameAnalysis.objects.filter(
        Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
        status__in=[GameAnalysis.Status.PENDING, GameAnalysis.Status.RUNNING],
        created_at__lt=now - lease()).values_list("game_id", flat=True)[:limit])
    return sum(analysis_request(game_id=g) for g in [*missing, *stalled])
