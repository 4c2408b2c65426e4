"""The site's facts of RULES.md 16 in the game's own log and record (games/engine/rules/site.py):
an automatic vacation day, a seat taken back from the bot, a pause that reached its length, a
proposal to end the game and its answers. Each is an engine ``note`` action on a log row with
its source, as every site action is ("clock" for what the clocks did by themselves, "player"
for a player's own choice, with their user), so that the record replays exactly and the log
says who did what and why.

``note`` adds one to a Submission that ``services.moves._write`` writes with the rest of a move;
``write_notes`` writes the position and the rows of a Submission that holds notes only, for
the writes that keep the deadline and version as they handle them themselves (an automatic
vacation day alone, a pause's end).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from chats import hooks as chat_hooks
from games import live, sql
from games.engine import GameState
from games.services import moves


def note(sub: moves.Submission, *, seat: int, what: str, source: str, user=None) -> None:
    """Log ``what`` (one of the engine's NOTES) for ``seat`` in ``sub``."""
    moves._apply(sub, {"type": "note", "player": seat, "choice": what}, seat=seat, user=user, source=source)


def write_notes(sub: moves.Submission) -> None:
    """Write ``sub``'s position and its new log rows (notes only); the caller saves the game's
    other fields (version, deadline) itself."""
    game = sub.game
    game.state = sub.state.to_json()
    sql.write_move(game, ["state"], [row for row in sub.rows if row.pk is None])


def write_nudge(game, *, by: int, to: int, user) -> None:
    """Issue 29: log that seat ``by`` (``user``) nudged seat ``to`` in ``game``, whose row the
    caller holds locked and has checked the nudge against (reach.nudges). A note changes nothing
    in the position but the count of actions: the deadline, the waits, each seat's clock and the
    time of the last move stay as they were. The version goes up so that open pages show the
    line, and the table's group-chat status post is marked for an update (its last log lines).
    The new version makes a queued bot task stale, so the next one is queued again, as a pause's
    change of version does (games/aids/services.py, ``_bump``): a bot waited on beside the
    nudged player plays on when it would have."""
    sub = moves.Submission(game=game, state=GameState.from_json(game.state), before=game.state)
    moves._apply(sub, {"type": "note", "player": to, "choice": "nudge", "by": by}, seat=by, user=user,
                 source="player")
    game.state = sub.state.to_json()
    game.version += 1
    sql.write_move(game, ["state", "version"], [row for row in sub.rows if row.pk is None])
    live.publish_on_commit(game.pk, game.version)
    chat_hooks.game_moved(game=game, started=False)
    mark = (game.aids or {}).get("pause")
    if not mark:
        moves.queue_site_action(game)
    elif mark != "paused":  # (the countdown to resume: the bots' next action comes when it ends)
        ends = datetime.fromisoformat(mark)
        moves.queue_site_action(game, after=max((ends - timezone.now()).total_seconds(), 0))
