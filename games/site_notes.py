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

from games import sql
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
