"""Play on from here (issue 30): from any step of a finished game's replay, a private game
against strategy bots that starts at that position, the person in the seat of their choice.

The sandbox's log begins with the finished game's start and its first ``step`` actions, copied:
its record replays to the position exactly (same rule set, seed and actions), so its replay,
download and result work as any game's. Then comes one site action, ``reseed`` (the engine's
rules/site.py), with a fresh seed drawn for the sandbox: from there the dice and the undrawn
cards come from it, not from the finished game's stream, which that game's replay shows to
anyone who looks; the seed is in the log, so the record still replays exactly. Never rated (bots are
seated, RULES.md 13), no XP, achievements or quests (ratings.services asks ``is_sandbox``), and
never listed: its table is private, seen only by the person seated.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.models import Sandbox
from games import records, services
from games.engine import GameState, apply
from games.engine.rules.site import MAX_SEED
from games.models import DeckRow, DeedRow, Game, GameAction, Seat, Table, TradeRow


class SandboxError(ValueError):
    """A refusal, in the reader's words (a forged step or seat, a game still in play)."""


def _position(game: Game, step: int) -> tuple[GameState, int]:
    replay = services.game_replay(game=game)
    if not 0 <= step <= replay.steps:
        raise SandboxError(_("This game has no move %(step)d: its moves run from 0 to %(steps)d.") % {
            "step": step, "steps": replay.steps})
    return records.replay_position(replay=replay, step=step).state, replay.steps


@transaction.atomic
def sandbox_create(*, user, source: Game, step: int, seat: int) -> Game:
    """The sandbox game of ``user`` from step ``step`` of ``source`` (a game the caller checked
    ``user`` may see), ``user`` in seat ``seat``, strategy bots in the others. Raises
    SandboxError, writing nothing, for a game in play, a step or seat that does not exist, a
    seat already out of the game, or a position where the game is over."""
    if source.status == Game.Status.ACTIVE:
        raise SandboxError(_("This game is still being played: play on from its replay once it is over."))
    state, _steps = _position(source, step)
    if not 0 <= seat < len(state.players):
        raise SandboxError(_("This game has no seat %(seat)d.") % {"seat": seat + 1})
    if state.over:
        raise SandboxError(_("The game is over at this move: choose an earlier one."))
    if state.players[seat].bankrupt:
        raise SandboxError(_("That player is out of the game at this move: choose another seat."))
    src_table = source.table
    start_row = GameAction.objects.get(game=source, seq=0)
    start = start_row.action
    n = len(state.players)
    table = Table.objects.create(
        host=user, name=(_("Play on: %(name)s") % {"name": src_table.name})[:80], preset=start["rules"]["preset"],
        options=start["rules"].get("options") or {}, pace=src_table.pace, turn_hours=src_table.turn_hours,
        seat_count=n, is_private=True, vacation_days=0, status=Table.Status.PLAYING, time_zone=src_table.time_zone)
    teams = start.get("teams")
    team_of = {p: t for t, members in enumerate(teams or []) for p in members}
    seats = [Seat.objects.create(table=table, position=p, user=user if p == seat else None,
                                 bot="" if p == seat else Seat.Bot.STRATEGY, team=team_of.get(p))
             for p in range(n)]
    names = [str(s.label) for s in seats]
    if len(set(names)) != len(names):
        names = [f"{name} ({p + 1})" for p, name in enumerate(names)]
    for player, name in zip(state.players, names, strict=True):
        player.name = name
    # Fresh dice and cards from here (see the module's docstring), applied before the game's row
    # holds the state.
    reseed = {"type": "reseed", "player": seat, "amount": secrets.randbelow(MAX_SEED)}
    state, reseed_events = apply(state, reseed)
    game = Game.objects.create(table=table, seed=source.seed, state=state.to_json())
    if table.pace == Table.Pace.LIVE:
        # A live game's play clock counts the minutes since its start (RULES.md 11): the sandbox
        # "started" as long ago as the position's clock says, so the clock never goes back.
        Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - timedelta(minutes=state.clock))
        game.refresh_from_db(fields=["started_at"])
    # The log: the start (with the sandbox's names), then the finished game's first ``step``
    # actions, in the order applied.
    rows = [GameAction(game=game, seq=0, action={**start, "names": names}, events=start_row.events,
                       source="system")]
    copied = (GameAction.objects.filter(game=source).exclude(seq=0).order_by("seq", "sub")
              .values_list("seq", "sub", "seat", "action", "events", "source")[:step] if step else [])
    rows += [GameAction(game=game, seq=q, sub=b, seat=st, action=a, events=e, source=src)
             for q, b, st, a, e, src in copied]
    rows.append(GameAction(game=game, seq=state.seq, seat=seat, action=reseed, events=reseed_events, source="system"))
    GameAction.objects.bulk_create(rows, batch_size=500)
    DeedRow.objects.bulk_create([DeedRow(game=game, square=sq) for sq in state.board.deeds])
    DeckRow.objects.bulk_create([DeckRow(game=game, name=name) for name in state.decks])
    # A trade open at that step is waiting for its answer in the sandbox too.
    TradeRow.objects.bulk_create([TradeRow(game=game, number=t["id"], from_seat=t["from"], to_seat=t["to"],
                                           give=t["give"], take=t["take"]) for t in state.trades.values()])
    Sandbox.objects.create(game=game, source=source, step=step, owner=user, seat=seat)
    services.game_begin_at(game=game, state=state, seats=seats)
    return game
