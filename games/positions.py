"""Recent positions of each game, kept in the cache for the poll (issue 12, "updates pushed, not
polled"): an open page that hears of a new version asks for the game "from the version I show"
(games/views/play.py: poll), and the answer is only what changed between the two
(games/views/move_parts.py), which needs the position the page shows.

- ``remember_on_commit`` (services._write, where a move bumps the version) stores, once the
  transaction has committed, what the page's parts are drawn from at that version: the state and
  the game's summary columns (deadline, status, who is waited on), and the seats as they were.
- A version bumped anywhere else (a vacation, a pause, a moderator's close) stores nothing: what
  those change is drawn outside the parts (the aids panel, the banner). So a diff is only made
  across versions that were all moves: a page at version ``v`` of a game now at ``w`` gets the
  parts only when the positions of every version from ``v`` to ``w`` are kept (one read of them
  all), and only when it is at most ``MAX_BEHIND`` versions behind. A page whose position, or a
  later one, is gone (``KEEP_SECONDS``, or evicted), or was never kept, gets the whole fragment,
  as before.

A move writes its own position and nothing else (one write, no read: issue 12's move CPU), so
two moves' callbacks running out of order, or a lost write, can only leave a version missing:
the page gets the whole fragment, never a wrong diff. The cache failing (Redis down) costs the
same: a committed move is never undone, nor its answer broken, by the cache.

Keys carry the game's start time as well as its id: a database restored or recreated (a test run
after another) reuses ids, never a start.
"""

from __future__ import annotations

import logging
import pickle
from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.models import Game, Seat

log = logging.getLogger(__name__)

# Long enough for an open page to catch up (a push arrives within a second; a poll within 15 s);
# a page asleep longer gets the whole fragment.
KEEP_SECONDS = 10 * 60
# A page further behind than this many versions gets the whole fragment (what reading every
# position since would cost is then more than drawing it).
MAX_BEHIND = 50


def _prefix(game: Game) -> str:
    return f"position:{game.pk}:{game.started_at.timestamp():.6f}"


def _seats(seats: list[Seat]) -> list[tuple[int, int | None, str]]:
    """What of the seats the page shows: who sits where, and which seats a bot plays (a player's
    seat taken over by a bot: their page offers no move, and says why)."""
    return sorted((s.position, s.user_id, s.bot) for s in seats)


def remember_on_commit(game: Game, seats: list[Seat]) -> None:
    """Keep the position ``game`` is at now (just written by a move), once it is committed."""
    # Taken now, in the transaction: later code of the request never changes what is kept.
    shown = pickle.dumps({
        "state": game.state, "status": game.status, "deadline": game.deadline,
        "waiting_seats": list(game.waiting_seats or []), "pending": game.pending, "round": game.round,
        "current_seat": game.current_seat, "aids": dict(game.aids or {}), "seats": _seats(seats),
    }, protocol=pickle.HIGHEST_PROTOCOL)
    prefix, version = _prefix(game), game.version
    transaction.on_commit(lambda: _store(prefix, version, shown))


def _store(prefix: str, version: int, shown: bytes) -> None:
    try:
        cache.set(f"{prefix}:{version}", shown, KEEP_SECONDS)
    except Exception as error:  # (whatever the cache backend raises)
        log.warning("positions: could not keep %s at version %s: %s", prefix, version, error)


def position_at(game: Game, seats: list[Seat], version: int) -> Game | None:
    """``game`` as a page showed it at ``version`` (an unsaved copy, for display only), if every
    version since was a move, those positions are all still kept and the seats are as they were
    then; else None (the page gets the whole fragment)."""
    if not 0 < version < game.version or game.version - version > MAX_BEHIND:
        return None
    prefix = _prefix(game)
    keys = [f"{prefix}:{v}" for v in range(version, game.version + 1)]
    try:
        found = cache.get_many(keys)
    except Exception as error:
        log.warning("positions: could not read %s at version %s: %s", prefix, version, error)
        return None
    if len(found) != len(keys):
        return None
    blob = found[keys[0]]
    shown: dict[str, Any] = pickle.loads(blob)
    if shown["status"] != Game.Status.ACTIVE or shown["seats"] != _seats(seats):
        return None
    return Game(pk=game.pk, table=game.table, seed=game.seed, version=version, started_at=game.started_at,
                state=shown["state"], status=shown["status"], deadline=shown["deadline"],
                waiting_seats=shown["waiting_seats"], pending=shown["pending"], round=shown["round"],
                current_seat=shown["current_seat"], aids=shown["aids"])
