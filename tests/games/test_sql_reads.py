"""games/sql.py reads the game with its table, and the seats with their users, as the ORM
does: held here to the ORM's own queries, field by field, for games of every kind of seat (a
person, a bot, an empty seat, an account that has gone), on the database the tests run on."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services, sql
from games.models import Game, GameAction, Seat, Table
from tests.games.play_helpers import autoplay, start_game

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _same(fast, orm) -> None:
    assert type(fast) is type(orm)
    assert _fields(fast) == _fields(orm)
    assert fast._state.adding is False and fast._state.db == orm._state.db


@pytest.fixture
def games(alice, bob, charlie):
    table = services.table_create(host=alice, name="With a bot", preset="classic", pace="live", seat_count=3)
    services.table_join(table=table, user=bob)
    services.table_set_seat(table=table, by=alice, position=2, bot="strategy")
    played = autoplay(services.table_start(table=table, by=alice), 25)
    corr = start_game(charlie, bob, pace="correspondence", name="Letters")
    open_table = services.table_create(host=charlie, name="Still open", preset="classic", seat_count=4)
    return [played, corr], open_table


def test_the_game_and_its_table_as_the_orm_reads_them(games):
    for game in games[0]:
        orm = Game.objects.select_related("table").get(pk=game.pk)
        fast = sql.game_with_table(game.pk)
        _same(fast, orm)
        _same(fast.table, orm.table)
        with CaptureQueriesContext(connection) as ctx:
            assert fast.table.pk == game.table_id  # cached: no query
        assert not ctx.captured_queries
        assert isinstance(fast.state, dict) and fast.state == orm.state
    assert sql.game_with_table(10**9) is None


def test_the_locked_read_locks_the_games_row_where_the_database_can(games):
    game = games[0][0]
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        fast = sql.game_with_table(game.pk, lock=True)
    _same(fast, Game.objects.select_related("table").get(pk=game.pk))
    text = ctx.captured_queries[-1]["sql"]
    if connection.features.has_select_for_update_of:
        assert text.endswith('FOR UPDATE OF g')
    elif connection.features.has_select_for_update:
        assert text.endswith("FOR UPDATE")
    else:
        assert "FOR UPDATE" not in text


def test_the_seats_and_their_users_as_the_orm_reads_them(games, django_user_model):
    (played, corr), open_table = games
    # An account that has gone: its seat stays, without its user (games outlive accounts).
    gone = Seat.objects.filter(table_id=corr.table_id).exclude(user=None).last()
    django_user_model.objects.filter(pk=gone.user_id).delete()
    for table_id in (played.table_id, corr.table_id, open_table.pk):
        orm = list(Seat.objects.filter(table_id=table_id).select_related("user"))
        fast = sql.seats_with_users(table_id)
        assert [s.pk for s in fast] == [s.pk for s in orm] and fast
        for a, b in zip(fast, orm, strict=True):
            _same(a, b)
            with CaptureQueriesContext(connection) as ctx:
                user = a.user
            assert not ctx.captured_queries
            if b.user is None:
                assert user is None
            else:
                _same(user, b.user)
    assert any(s.bot for s in sql.seats_with_users(played.table_id))
    assert any(s.user is None and not s.bot for s in sql.seats_with_users(open_table.pk))
    assert sql.seats_with_users(10**9) == []
    assert Table.objects.filter(pk=open_table.pk).exists()


def test_the_seats_lockout_is_what_moderation_finds(alice):
    """seats_with_users(lockout_at=...) says, in its one query, whether each seat's user is
    locked out: held to moderation.selectors.lockout for every kind of sanction and its end."""
    from datetime import timedelta

    from django.utils import timezone

    from moderation.models import Sanction
    from moderation.selectors import lockout
    from tests.factories import UserFactory

    now = timezone.now()
    cases = {
        "none": [], "warned": [("warn", None, None)], "muted": [("mute", now + timedelta(days=1), None)],
        "suspended": [("suspend", now + timedelta(days=1), None)],
        "suspension over": [("suspend", now - timedelta(minutes=1), None)],
        "suspension lifted": [("suspend", now + timedelta(days=1), now - timedelta(hours=1))],
        "banned": [("ban", None, None)], "ban lifted": [("ban", None, now)],
        "lifted and suspended": [("ban", None, now), ("suspend", now + timedelta(hours=2), None)],
    }
    expected = {}
    tables = []
    for k, (name, sanctions) in enumerate(cases.items()):
        if k % 4 == 0:
            host = alice if k == 0 else UserFactory()
            tables.append(services.table_create(host=host, name=f"T{k}", preset="classic", seat_count=4))
            user = host
        else:
            user = UserFactory()
            services.table_join(table=tables[-1], user=user)
        for kind, until, lifted in sanctions:
            Sanction.objects.create(user=user, kind=kind, reason="x", until=until, lifted_at=lifted)
        expected[user.pk] = name
    for table in tables:
        with CaptureQueriesContext(connection) as ctx:
            seats = sql.seats_with_users(table.pk, lockout_at=now)
        assert len(ctx) == 1
        assert [_fields(s) for s in seats] == [_fields(s) for s in sql.seats_with_users(table.pk)]
        for seat in seats:
            if seat.user_id is None:
                assert seat.locked_out is False
                continue
            assert seat.locked_out == (lockout(user=seat.user) is not None), expected[seat.user_id]
    by_name = {expected[s.user_id]: s.locked_out for t in tables
               for s in sql.seats_with_users(t.pk, lockout_at=now) if s.user_id}
    assert {n for n, locked in by_name.items() if locked} == {"suspended", "banned", "lifted and suspended"}
    assert not hasattr(sql.seats_with_users(tables[0].pk)[0], "locked_out")


def test_the_game_with_its_seats_in_one_query_is_the_two_reads(games, django_user_model):
    """game_with_seats: game_with_table and seats_with_users (with and without the lockout) in one
    query, the game's row locked as the locked read locks it."""
    from django.utils import timezone

    from moderation.models import Sanction

    (played, corr), _open = games
    gone = Seat.objects.filter(table_id=corr.table_id).exclude(user=None).last()
    django_user_model.objects.filter(pk=gone.user_id).delete()
    suspended = Seat.objects.filter(table_id=played.table_id).exclude(user=None).first().user
    Sanction.objects.create(user=suspended, kind="suspend", reason="x", until=None)
    now = timezone.now()
    for game in (played, corr):
        for lockout_at in (None, now):
            with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
                fast, seats = sql.game_with_seats(game.pk, lock=True, lockout_at=lockout_at)
            assert len(ctx) == 1
            if connection.features.has_select_for_update_of:
                assert ctx.captured_queries[0]["sql"].endswith("FOR UPDATE OF g")
            _same(fast, sql.game_with_table(game.pk))
            _same(fast.table, sql.game_with_table(game.pk).table)
            apart = sql.seats_with_users(game.table_id, lockout_at=lockout_at)
            assert [s.pk for s in seats] == [s.pk for s in apart] and seats
            for a, b in zip(seats, apart, strict=True):
                _same(a, b)
                assert (a.user is None) == (b.user is None)
                if a.user is not None:
                    _same(a.user, b.user)
                assert getattr(a, "locked_out", None) == getattr(b, "locked_out", None)
    assert any(s.locked_out for s in sql.game_with_seats(played.pk, lockout_at=now)[1])
    assert sql.game_with_seats(10**9) is None


def test_the_log_rows_as_the_orm_reads_them(alice, bob):
    """sql.log_rows: the page's ORM query of the log, compiled once: the same rows, the JSON
    read and converted as the ORM does, for every shape (with and without ``before``)."""
    from games.sql import _log_queryset

    game = autoplay(start_game(alice, bob), 30)
    empty = start_game(alice, bob)
    GameAction.objects.filter(game=empty).delete()
    for g in (game, empty):
        for before in (None, 1, 7, 10**6):
            for limit in (1, 5, 21, 200):
                with CaptureQueriesContext(connection) as ctx:
                    fast = sql.log_rows(g.pk, before=before, limit=limit)
                assert len(ctx) == 1
                assert fast == list(_log_queryset("default", g.pk, before, limit)), (before, limit)
    rows = sql.log_rows(game.pk, limit=40)
    assert rows and isinstance(rows[0]["events"], list) and rows[0]["created_at"].tzinfo is not None
    assert [r["seq"] for r in rows] == sorted((r["seq"] for r in rows), reverse=True)
    assert any(r["reason"] for r in rows) or all(r["reason"] is None for r in rows)
