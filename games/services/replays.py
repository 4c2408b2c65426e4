"""Replays: a finished game's replay prepared at its first viewing, and records users upload
(games/records.py reads, checks and replays them)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import records
from games.models import (
    Game,
    Replay,
    ReplayChunk,
)


def _replay_create(record: dict, chunks: list[records.Checkpoint], **owner: Any) -> Replay:
    replay = Replay.objects.create(start=records.start_of(record), steps=len(record["actions"]),
                                   turns=records.turn_starts(chunks), **owner)
    ReplayChunk.objects.bulk_create(
        [ReplayChunk(replay=replay, index=c.index, state=c.state, actions=c.actions) for c in chunks],
        batch_size=100)
    return replay


def game_replay(*, game: Game) -> Replay:
    """A finished game's replay: prepared at its first viewing (the game replayed once from its
    log), then read a chunk at a time (games/records.py)."""
    replay = Replay.objects.filter(game=game).first()
    if replay is not None:
        return replay
    record = records.game_record(game)
    chunks = records.checkpoints(record)
    try:
        with transaction.atomic():
            return _replay_create(record, chunks, game=game)
    except IntegrityError:
        # Another viewer prepared it in the meantime.
        return Replay.objects.get(game=game)


def replay_turns(*, replay: Replay) -> list[list[int]]:
    """Where the replay's turns start ([step, round, seat] each). A replay prepared before they
    were kept gets them now, from its own chunks (its record replayed once more), and keeps them."""
    if replay.turns is not None:
        return replay.turns
    chunks = replay.chunks.order_by("index").values_list("actions", flat=True)
    record = {**replay.start, "actions": [a for actions in chunks for a in actions]}
    turns = records.turn_starts(records.checkpoints(record))
    Replay.objects.filter(pk=replay.pk, turns__isnull=True).update(turns=turns)
    replay.turns = turns
    return turns


def replay_upload(*, owner, record: dict) -> Replay:
    """A record ``owner`` uploaded (shaped as ``records.parse_record`` checks), prepared for the
    replay viewer in place of the one they uploaded before. Raises records.RecordError, writing
    nothing, when the engine refuses the record."""
    chunks = records.checkpoints(record)  # the one replay of the record, before any lock is taken
    with transaction.atomic():
        # One upload of a user at a time (a double click): the later one replaces the earlier.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        Replay.objects.filter(owner=owner).delete()
        return _replay_create(record, chunks, owner=owner)
