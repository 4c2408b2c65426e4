"""games/sql.py writes the game's row and the log's rows as the ORM does: held here to
``game.save(update_fields=...)`` and ``GameAction.objects.create``, column by column, on the
database the tests run on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import sql
from games.models import DeedRow, Game, GameAction
from tests.games.play_helpers import autoplay, start_game

pytestmark = pytest.mark.django_db


def _row(model, pk) -> dict:
    """The row as the database holds it (through the ORM's reading of it)."""
    obj = model.objects.get(pk=pk)
    return {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields}


def test_neither_model_has_save_receivers_for_the_raw_writes_to_skip():
    for model in (Game, GameAction):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model)


def test_the_games_row_as_save_with_update_fields_writes_it(alice, bob):
    game = autoplay(start_game(alice, bob), 12)
    twin = autoplay(start_game(alice, bob), 12)
    deadline = timezone.now() + timedelta(hours=3)
    fields = ["state", "version", "round", "current_seat", "pending", "waiting_seats", "deadline",
              "updated_at", "reminder_at"]
    for g in (game, twin):
        g.state = {**game.state, "note": "ünïcode ✓", "nested": {"a": [1, None, True]}}
        g.version += 7
        g.round, g.current_seat, g.pending, g.waiting_seats = 9, 1, "buy", [1]
        g.deadline, g.reminder_at = deadline, None
    before = timezone.now()

    with CaptureQueriesContext(connection) as ctx:
        sql.update_game(game, fields)
    twin.save(update_fields=fields)

    assert len(ctx) == 1 and ctx.captured_queries[0]["sql"].startswith("UPDATE")
    fast, orm = _row(Game, game.pk), _row(Game, twin.pk)
    # (auto_now: set on the instance, as the ORM sets it.)
    assert before <= game.updated_at == fast["updated_at"] and orm["updated_at"] >= before
    for name in ("id", "table_id", "updated_at", "started_at", "seed"):
        fast.pop(name), orm.pop(name)
    assert fast == orm
    assert fast["state"]["note"] == "ünïcode ✓" and fast["deadline"] == deadline


def test_a_game_row_that_is_gone_raises_as_the_orm_does(alice, bob):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(version=0)
    ghost = Game(pk=10**9, table_id=game.table_id, state={}, seed=1)
    with pytest.raises(DatabaseError):
        sql.update_game(ghost, ["version"])
    with pytest.raises(DatabaseError):
        ghost.save(update_fields=["version"])


def test_log_rows_as_create_writes_them(alice, bob):
    game = start_game(alice, bob)
    twin = start_game(alice, bob)
    last = GameAction.objects.filter(game=game).order_by("-seq").first().seq
    last_twin = GameAction.objects.filter(game=twin).order_by("-seq").first().seq

    def rows(g, start):
        return [GameAction(game=g, seq=start + 1, seat=0, user=alice, action={"type": "roll", "clock": 3},
                           events=[{"e": "rolled", "dice": [3, 4]}], source="player"),
                GameAction(game=g, seq=start + 2, seat=None, user=None, action={"type": "buy", "x": "ü"},
                           events=[], source="bot")]

    fast = rows(game, last)
    with CaptureQueriesContext(connection) as ctx:
        sql.insert_actions(fast)
    orm = [GameAction.objects.create(game=r.game, seq=r.seq, seat=r.seat, user=r.user, action=r.action,
                                     events=r.events, source=r.source) for r in rows(twin, last_twin)]

    assert len(ctx) == 1 and ctx.captured_queries[0]["sql"].startswith("INSERT")
    for a, b in zip(fast, orm, strict=True):
        assert a.pk is not None and a._state.adding is False and a._state.db == "default"
        assert a.created_at is not None
        got, want = _row(GameAction, a.pk), _row(GameAction, b.pk)
        for name in ("id", "game_id", "seq", "created_at"):
            got.pop(name), want.pop(name)
        assert got == want
        assert _row(GameAction, a.pk)["created_at"] == a.created_at
    assert [r.seq for r in GameAction.objects.filter(game=game).order_by("-seq")[:2]] == [last + 2, last + 1]
    sql.insert_actions([])  # nothing to write: no query


def test_a_move_writes_the_log_rows_and_the_games_row_in_one_statement_as_the_two_writes_do(alice, bob):
    game = autoplay(start_game(alice, bob), 12)
    twin = autoplay(start_game(alice, bob), 12)
    fields = ["state", "version", "round", "current_seat", "pending", "waiting_seats", "deadline", "updated_at"]

    def rows(g):
        last = GameAction.objects.filter(game=g).order_by("-seq").first().seq
        return [GameAction(game=g, seq=last + 1 + i, seat=i % 2, user=alice if i % 2 == 0 else None,
                           action={"type": "roll", "i": i}, events=[{"e": "rolled", "n": i}], source="player")
                for i in range(3)]

    deadline = timezone.now() + timedelta(hours=1)
    for g in (game, twin):
        g.state = {**game.state, "note": "ü"}
        g.version += 1
        g.pending, g.waiting_seats = "buy", [1]
        g.deadline = deadline
    fast = rows(game)
    with CaptureQueriesContext(connection) as ctx:
        sql.write_move(game, fields, fast)
    slow = rows(twin)
    sql.insert_actions(slow)
    sql.update_game(twin, fields)

    assert len(ctx) == (1 if connection.vendor == "postgresql" else 2)
    got, want = _row(Game, game.pk), _row(Game, twin.pk)
    for name in ("id", "table_id", "updated_at", "started_at", "seed"):
        got.pop(name), want.pop(name)
    assert got == want and got["state"]["note"] == "ü"
    # Each row has its own id, in the order of the rows, and reads as the plain INSERT wrote it.
    assert [r.seq for r in fast] == [GameAction.objects.get(pk=r.pk).seq for r in fast]
    for a, b in zip(fast, slow, strict=True):
        assert a._state.adding is False and a._state.db == "default"
        x, y = _row(GameAction, a.pk), _row(GameAction, b.pk)
        for name in ("id", "game_id", "created_at"):
            x.pop(name), y.pop(name)
        assert x == y


def test_a_move_on_a_game_row_that_is_gone_raises_and_writes_no_log_rows(alice, bob):
    from django.db import transaction

    game = start_game(alice, bob)
    ghost = Game(pk=10**9, table_id=game.table_id, state={}, seed=1, version=1)
    rows = [GameAction(game=game, seq=999, seat=0, action={"type": "roll"}, events=[], source="player")]
    with pytest.raises(DatabaseError), transaction.atomic():
        sql.write_move(ghost, ["version"], rows)
    assert not GameAction.objects.filter(game=game, seq=999).exists()


def _deeds(game) -> dict:
    return {d.square: (d.owner_seat, d.level, d.mortgaged, d.mortgaged_round)
            for d in DeedRow.objects.filter(game=game)}


@pytest.mark.parametrize("squares", [[1], [1, 3, 39], "all"])
def test_the_deeds_rows_as_the_orm_updates_them(alice, bob, squares):
    game = start_game(alice, bob)
    twin = start_game(alice, bob)
    other = start_game(alice, bob)
    if squares == "all":
        squares = sorted(_deeds(game))
    # Every kind of value: a seat and none, levels, both flags, a round and none.
    values = {sq: {"owner_seat": None if i % 3 == 0 else i % 2, "level": i % 6, "mortgaged": i % 2 == 1,
                   "mortgaged_round": None if i % 2 == 0 else 100 + i} for i, sq in enumerate(squares)}
    untouched = _deeds(other)

    with CaptureQueriesContext(connection) as ctx:
        sql.update_deeds(game.pk, values)
    for sq, row in values.items():
        DeedRow.objects.filter(game_id=twin.pk, square=sq).update(**row)

    assert _deeds(game) == _deeds(twin)
    assert {sq: _deeds(game)[sq] for sq in squares} == {
        sq: (v["owner_seat"], v["level"], v["mortgaged"], v["mortgaged_round"]) for sq, v in values.items()}
    assert _deeds(other) == untouched  # (the game's rows only)
    # One statement, sent once for the deeds (executemany: one round trip), on any database.
    assert len(ctx) == 1 and ctx.captured_queries[0]["sql"].startswith(f"{len(squares)} times: UPDATE")
    sql.update_deeds(game.pk, {})  # (nothing changed: nothing written)
