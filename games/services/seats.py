"""A seat let go of while its game lives on (games outlive accounts): an account deleted, or a
player a moderator removed."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.aids import pause
from games.engine import (
    GameState,
    IllegalAction,
)
from games.errors import GameError
from games.models import (
    Game,
    GameAction,
    Seat,
    Table,
)
from games.services.moves import (
    Submission,
    _advance,
    _apply,
    _begin,
    _clock,
    _locked_game,
    _players_seat,
    _seats,
    _write,
)


@transaction.atomic
def account_seats_release(*, user) -> None:
    """Let go of every seat of a user whose account is being deleted, in the deletion's
    transaction (accounts.services.user_delete calls this just before deleting the row).

    Open tables: the user's own are cancelled, elsewhere their seat is free again. Games: the
    seat stays in the game under a neutral name (the player's name leaves the game's state and
    its record); in a game still in play it is forfeited at once, the engine's surrender logged
    as a "system" action, or, where the table says so (RULES.md 15, ``absent_seat``), taken over
    by a strategy bot. Finished games keep their records."""
    Table.objects.filter(host=user, status=Table.Status.OPEN).update(status=Table.Status.CANCELLED)
    for seat in Seat.objects.filter(user=user).order_by("table_id"):
        # Locks are taken as a move takes them, the game (with its table) first, and in the
        # order of the tables' ids, so that a deletion never waits on a move or another
        # deletion that waits on it. A table without a game is locked before its status is
        # read: a game started meanwhile is found then, and its seat forfeited.
        game = Game.objects.filter(table_id=seat.table_id).values_list("pk", flat=True).first()
        if game is None:
            table = Table.objects.select_for_update().get(pk=seat.table_id)
            if table.status in (Table.Status.OPEN, Table.Status.CANCELLED):
                seat.user = None
                seat.save(update_fields=["user"])
                continue
            game = Game.objects.filter(table_id=table.pk).values_list("pk", flat=True).first()
        if game is not None:
            _game_seat_release(game_id=game, position=seat.position)


@transaction.atomic
def game_seat_remove(*, game: Game, user) -> Submission:
    """A moderator's removal of ``user`` from a running game (moderation.services
    .game_remove_player, which writes the audit row): their seat surrenders, as the rules have
    it (RULES.md 10: bankrupt to the bank, or to the creditor of a pending debt), logged as the
    site's action for the moderator (source "moderator", no user, "reason": "moderator_removed"
    in the action and so in the game's record), not as the player's own surrender. Refused as a
    move of theirs would be (no seat, a bot's seat, a paused game, a player already out);
    nothing is written then."""
    game = _locked_game(game.pk)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("this game is over"))
    seats = _seats(game, None)
    seat = _players_seat(seats, user)
    pause.refuse_moves(game)
    sub = _begin(game, seats, timezone.now())
    removal = {"type": "surrender", "player": seat.position, "reason": GameAction.REASON_MODERATOR_REMOVED}
    try:
        _apply(sub, removal, seat=seat.position, source="moderator")
    except IllegalAction as e:
        raise GameError(e) from e
    _advance(sub, seats)
    _write(sub, seats)
    return sub


def _game_seat_release(*, game_id: int, position: int) -> None:
    game = _locked_game(game_id)
    seats = _seats(game, None)
    seat = next(s for s in seats if s.position == position)
    before = game.state
    state = GameState.from_json(before)
    player = state.players[position]
    playing = game.status == Game.Status.ACTIVE and not player.bankrupt
    takeover = playing and game.table.absent_seat == Table.AbsentSeat.BOT
    seat.user = None
    seat.account_deleted = True
    fields = ["user", "account_deleted"]
    if takeover:
        seat.bot = Seat.Bot.STRATEGY
        fields.append("bot")
    seat.save(update_fields=fields)
    # The neutral name in the deleting person's language, as bots' names are the host's (the
    # names are the game's data). Names stay distinct: a record replays only with distinct ones.
    name = str(seat.label)
    others = {p.name for i, p in enumerate(state.players) if i != position}
    if name in others:
        name = f"{name} ({position + 1})"
    player.name = name
    start = GameAction.objects.select_for_update().filter(game=game, seq=0).first()
    if start is not None and position < len(start.action.get("names", [])):
        start.action["names"][position] = name
        start.save(update_fields=["action"])
    if game.status != Game.Status.ACTIVE:
        game.state = state.to_json()
        game.save(update_fields=["state"])
        return
    _clock(game, state, timezone.now())
    sub = Submission(game=game, state=state, before=before)
    if playing and not takeover:
        forfeit = {"type": "surrender", "player": position, "reason": GameAction.REASON_ACCOUNT_DELETED}
        _apply(sub, forfeit, seat=position, source="system")
    # Bots answer whatever waits on them now (the new one in the seat, if it is its turn).
    _advance(sub, seats)
    _write(sub, seats)
