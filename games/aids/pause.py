"""Pause on live tables (RULES.md 11, site level): any player may ask; the pause is granted
only if every active player agrees within ASK_SECONDS (silence is no: the request lapses);
while paused no move is taken and the pending decision's deadline is frozen (what was left is
kept); to resume every player confirms, and play restarts after a countdown of
COUNTDOWN_SECONDS, the decision getting back the time it had left.

"Every player" is every person still in the game: bots never object, and a seat a bot plays
since its player's third missed turn has no say. Bankrupt players have no say either.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import GameError

ASK_SECONDS = 30
COUNTDOWN_SECONDS = 10
# RULES.md 16, pause length: a pause lasts at most the table's ``pause_max_minutes`` (this by
# default, from 1 to PAUSE_MAX_MINUTES_MAX); then the countdown to resume starts by itself, as
# if every player had confirmed (aids.pauses_expire, swept by games.tasks.expire_pauses).
PAUSE_MAX_MINUTES_DEFAULT = 15
PAUSE_MAX_MINUTES_MAX = 120


def expires_at(pause, table) -> datetime | None:
    """When a granted pause ends by itself (RULES.md 16), or None for one not (yet) granted."""
    if pause.status != pause.Status.PAUSED or pause.paused_at is None:
        return None
    return pause.paused_at + timedelta(minutes=table.pause_max_minutes)


def voters(seats, state: dict) -> set[int]:
    players = state["players"]
    return {s.position for s in seats
            if s.user_id is not None and not s.bot and not players[s.position]["bankrupt"]}


def current(game, now: datetime | None = None):
    """The game's pause as it stands now, or None: a request past its window has lapsed, and a
    countdown that has run out has resumed play."""
    from games.models import Pause

    now = now or timezone.now()
    pause = Pause.objects.filter(game_id=game.pk).first()
    if pause is None or _over(pause, now):
        return None
    return pause


def _over(pause, now: datetime) -> bool:
    if pause.status == pause.Status.ASKED:
        return now > pause.asked_at + timedelta(seconds=ASK_SECONDS)
    if pause.status == pause.Status.RESUMING:
        return pause.resume_at is not None and now >= pause.resume_at
    return False


def is_paused(game, now: datetime | None = None) -> bool:
    """Whether moves wait now (paused, or the countdown to resume runs), from the game's own
    row (``Game.aids``): no query."""
    mark = (game.aids or {}).get("pause")
    if not mark:
        return False
    if mark == "paused":
        return True
    return (now or timezone.now()) < datetime.fromisoformat(mark)


def refuse_moves(game, now: datetime | None = None) -> None:
    """Raise GameError if the game is paused (services.game_submit_actions)."""
    if is_paused(game, now):
        raise GameError(_("the game is paused"))


