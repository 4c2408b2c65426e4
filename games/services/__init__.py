"""Every write of the games app (HackSoft style: keyword-only, typed, ``<entity>_<verb>``), one
module per entity: tables.py (tables, seats before the start, invitations, the start),
moves.py (a move end to end: submit, bots, timeouts, the write), replays.py (records and
uploads), seats.py (a player leaving a game, an account's seats released). The aids' writes
(standing orders, vacation, pause) are games/aids/services.py.

The names below are the services' public face; the errors they raise live in games/errors.py.
"""

from games.errors import GameError, LockedOut, NotAllowed, NotSeated, StaleVersion
from games.services.moves import (
    BOT_BACKSTOP_SECONDS,
    LIVE_BID_SECONDS,
    LIVE_DEBT_SECONDS,
    MAX_BOT_ACTIONS,
    Submission,
    game_site_action,
    game_submit_action,
    game_submit_actions,
    game_timeout,
    queue_site_action,
)
from games.services.replays import game_replay, replay_turns, replay_upload
from games.services.seats import account_seats_release, game_seat_remove
from games.services.tables import (
    INVITATION_WINDOW,
    INVITATIONS_PER_DAY,
    ROUND_LIMIT_MAX,
    Invited,
    game_begin_at,
    invitation_create,
    table_change_seat,
    table_create,
    table_hold_seats,
    table_join,
    table_leave,
    table_set_seat,
    table_set_team,
    table_start,
)

__all__ = [
    "BOT_BACKSTOP_SECONDS", "INVITATIONS_PER_DAY", "INVITATION_WINDOW", "LIVE_BID_SECONDS",
    "LIVE_DEBT_SECONDS", "MAX_BOT_ACTIONS", "ROUND_LIMIT_MAX", "GameError", "Invited", "LockedOut",
    "NotAllowed", "NotSeated", "StaleVersion", "Submission", "account_seats_release",
    "game_begin_at", "game_replay", "game_seat_remove", "game_site_action", "game_submit_action",
    "game_submit_actions", "game_timeout", "invitation_create", "queue_site_action",
    "replay_turns", "replay_upload", "table_change_seat", "table_create", "table_hold_seats",
    "table_join", "table_leave", "table_set_seat", "table_set_team", "table_start",
]
