"""The reads every move and every game page makes, without the ORM's compiling (issue 12).

A move, the game page, its poll and legal.json all read the game with its table, and the table's
seats with their users. Built by the ORM, each of those two queries cost more CPU to compile
(about 1 ms on the bench machine) than the database took to answer it: most of what a move
costs beyond the minimal endpoint that bench/web.py compares it with. Here the same two SELECTs
are written once per process from the models' own fields (every concrete column, in the
models' order, so a new field is read with no change here), and each row becomes model instances
through the same converters and ``Model.from_db`` the ORM uses: the objects are the ones the
ORM would build, related objects cached as ``select_related`` caches them.

``tests/games/test_hot_reads.py`` holds both reads to their ORM versions, field by field:

- ``game_with_table(game_id, lock=...)``:
  ``Game.objects.select_related("table")`` (``.select_for_update()`` with ``lock``: the game's
  row only, where the database can say so; nothing to lock on SQLite, as for the ORM);
- ``seats_with_users(table_id)``: ``Seat.objects.filter(table_id=...).select_related("user")``
  in ``Seat.Meta.ordering``; with ``lockout_at``, each seat's user's lockout as well, held to
  ``moderation.selectors.lockout``;
- ``game_with_seats(game_id, lock=..., lockout_at=...)``: both of them in one query (the seats
  joined to the game's row, which is locked alone): what a move reads, in one round trip;
- ``log_rows(game_id, before=..., limit=...)``: the log's newest rows as the game page reads them
  (``GameAction.objects.filter(...).order_by("-seq").values(..., reason=KT("action__reason"))``),
  its SQL and converters compiled by the ORM once per process and shape (the JSON key read is
  written as each database writes it), where the ORM compiled them at every page, poll and
  move that showed the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connections
from django.db.models import Model
from django.db.models.fields.json import KT

from accounts.models import User
from games.models import Game, GameAction, Seat, Table
from moderation.models import Sanction
from moderation.selectors import LOCKOUT


@dataclass(frozen=True)
class _Columns:
    """One model's concrete columns under a table alias, and how to turn them into an instance."""

    model: type[Model]
    alias: str
    select: str
    names: list[str]
    converters: list[tuple[Any, list]]

    def build(self, values: tuple, connection) -> Model:
        converted = []
        for (col, funcs), value in zip(self.converters, values, strict=True):
            for func in funcs:
                value = func(value, col, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.names, converted)


def _columns(model: type[Model], alias: str, connection) -> _Columns:
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    converters = []
    for f in fields:
        # As the ORM's compiler does (SQLCompiler.get_converters): the backend's, then the field's.
        col = f.get_col(alias)
        converters.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
    return _Columns(model, alias, ", ".join(f"{alias}.{quote(f.column)}" for f in fields),
                    [f.attname for f in fields], converters)


@cache
def _game_sql(alias: str, lock: bool) -> tuple[str, _Columns, _Columns]:
    connection = connections[alias]
    game, table = _columns(Game, "g", connection), _columns(Table, "t", connection)
    quote = connection.ops.quote_name
    sql = (f"SELECT {game.select}, {table.select} FROM {quote(Game._meta.db_table)} g"
           f" INNER JOIN {quote(Table._meta.db_table)} t ON t.{quote(Table._meta.pk.column)} = g.{quote('table_id')}"
           f" WHERE g.{quote(Game._meta.pk.column)} = %s")
    features = connection.features
    if lock and features.has_select_for_update:
        sql += " FOR UPDATE OF g" if features.has_select_for_update_of else " FOR UPDATE"
    return sql, game, table


def _seat_order(connection) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"s.{quote(Seat._meta.get_field(name.lstrip('-')).column)}{' DESC' if name[0] == '-' else ''}"
                     for name in Seat._meta.ordering)


def _user_join(connection) -> str:
    quote = connection.ops.quote_name
    return (f" LEFT OUTER JOIN {quote(User._meta.db_table)} u"
            f" ON u.{quote(User._meta.pk.column)} = s.{quote('user_id')}")


@cache
def _seats_sql(alias: str, lockout: bool) -> tuple[str, _Columns, _Columns]:
    connection = connections[alias]
    seat, user = _columns(Seat, "s", connection), _columns(User, "u", connection)
    quote = connection.ops.quote_name
    locked = f", {_lockout_sql(connection)}" if lockout else ""
    sql = (f"SELECT {seat.select}, {user.select}{locked} FROM {quote(Seat._meta.db_table)} s{_user_join(connection)}"
           f" WHERE s.{quote('table_id')} = %s ORDER BY {_seat_order(connection)}")
    return sql, seat, user


@cache
def _game_seats_sql(alias: str, lock: bool, lockout: bool) -> tuple[str, list[_Columns]]:
    connection = connections[alias]
    cols = [_columns(Game, "g", connection), _columns(Table, "t", connection),
            _columns(Seat, "s", connection), _columns(User, "u", connection)]
    quote = connection.ops.quote_name
    locked = f", {_lockout_sql(connection)}" if lockout else ""
    sql = (f"SELECT {', '.join(c.select for c in cols)}{locked} FROM {quote(Game._meta.db_table)} g"
           f" INNER JOIN {quote(Table._meta.db_table)} t ON t.{quote(Table._meta.pk.column)} = g.{quote('table_id')}"
           f" LEFT OUTER JOIN {quote(Seat._meta.db_table)} s ON s.{quote('table_id')} = g.{quote('table_id')}"
           f"{_user_join(connection)}"
           f" WHERE g.{quote(Game._meta.pk.column)} = %s ORDER BY {_seat_order(connection)}")
    features = connection.features
    if lock and features.has_select_for_update:
        # (The game's row only: the seats and users are read, not locked.)
        sql += " FOR UPDATE OF g" if features.has_select_for_update_of else " FOR UPDATE"
    return sql, cols


def _lockout_sql(connection) -> str:
    """Whether the seat's user has a suspension or ban in force at the time given (the one
    parameter): moderation.selectors.active_sanctions with LOCKOUT's kinds, as a column."""
    meta = Sanction._meta
    quote = connection.ops.quote_name

    def col(name: str) -> str:
        return f"x.{quote(meta.get_field(name).column)}"

    kinds = ", ".join(f"'{kind}'" for kind in LOCKOUT)  # (the model's own choices: no quotes in them)
    return (f"EXISTS (SELECT 1 FROM {quote(meta.db_table)} x WHERE {col('user')} = s.{quote('user_id')}"
            f" AND {col('kind')} IN ({kinds}) AND {col('lifted_at')} IS NULL"
            f" AND ({col('until')} IS NULL OR {col('until')} > %s))")


def game_with_table(game_id: int, *, lock: bool = False, using: str = "default") -> Game | None:
    """The game with its table (cached on it, as select_related does), or None; ``lock``: the
    game's row locked for the transaction."""
    sql, game_cols, table_cols = _game_sql(using, lock)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(sql, [int(game_id)])
        row = cursor.fetchone()
    if row is None:
        return None
    return _game(row, game_cols, table_cols, connection)


def _game(row: tuple, game_cols: _Columns, table_cols: _Columns, connection) -> Game:
    """The game from the start of ``row``, its table (the columns after it) cached on it."""
    n = len(game_cols.names)
    game = game_cols.build(row[:n], connection)
    Game._meta.get_field("table").set_cached_value(game, table_cols.build(row[n:n + len(table_cols.names)], connection))
    return game


def _rows(sql: str, key: int, lockout_at: datetime | None, connection) -> list[tuple]:
    """The rows of ``sql`` for the id ``key``, with the lockout's time as the first parameter
    when it is asked for (``_lockout_sql`` comes before the WHERE)."""
    params: list[Any] = [int(key)]
    if lockout_at is not None:
        params.insert(0, Sanction._meta.get_field("until").get_db_prep_value(lockout_at, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def seats_with_users(table_id: int, *, lockout_at: datetime | None = None, using: str = "default") -> list[Seat]:
    """The table's seats in their order, each with its user cached (None for a bot's or an
    empty seat, and once the account is gone). With ``lockout_at``, each seat also says whether
    its user is locked out of the site then (``seat.locked_out``: a suspension or ban in force,
    as moderation.selectors.lockout finds it), read in the same query: a move needs no read of
    its own for it."""
    sql, seat_cols, user_cols = _seats_sql(using, lockout_at is not None)
    connection = connections[using]
    return [_seat(row, seat_cols, user_cols, lockout_at is not None, connection)
            for row in _rows(sql, table_id, lockout_at, connection)]


def _seat(row: tuple, seat_cols: _Columns, user_cols: _Columns, lockout: bool, connection) -> Seat:
    """A seat from ``row``: its columns, its user's, then (with ``lockout``) the lockout's."""
    n, m = len(seat_cols.names), len(seat_cols.names) + len(user_cols.names)
    seat = seat_cols.build(row[:n], connection)
    user = user_cols.build(row[n:m], connection) if seat.user_id is not None else None
    Seat._meta.get_field("user").set_cached_value(seat, user)
    if lockout:
        seat.locked_out = bool(row[m])
    return seat


def game_with_seats(game_id: int, *, lock: bool = False, lockout_at: datetime | None = None,
                    using: str = "default") -> tuple[Game, list[Seat]] | None:
    """``game_with_table(game_id, lock=lock)`` and ``seats_with_users(its table, lockout_at=...)``
    in one query (None for no such game)."""
    sql, (game_cols, table_cols, seat_cols, user_cols) = _game_seats_sql(using, lock, lockout_at is not None)
    connection = connections[using]
    rows = _rows(sql, game_id, lockout_at, connection)
    if not rows:
        return None
    game = _game(rows[0], game_cols, table_cols, connection)
    t = len(game_cols.names) + len(table_cols.names)
    # (A table without seats gives one row, its seat's columns all NULL.)
    seats = [_seat(row[t:], seat_cols, user_cols, lockout_at is not None, connection)
             for row in rows if row[t] is not None]
    return game, seats


LOG_FIELDS = ("seq", "seat", "source", "events", "created_at")
# Stand-ins for the two parameters while the ORM compiles the query (in every integer field's
# range: the ORM refuses a value out of it), found again among its
# parameters (which also hold the JSON key, on PostgreSQL).
_GAME, _BEFORE = 2_000_000_011, 2_000_000_013


def _log_queryset(alias: str, game_id: int, before: int | None, limit: int):
    # (Not the rows of secret maximum bids, RULES.md 15: GameAction.sub.)
    qs = GameAction.objects.using(alias).filter(game_id=game_id, sub=0)
    if before is not None:
        qs = qs.filter(seq__lt=before)
    return qs.order_by("-seq").values(*LOG_FIELDS, reason=KT("action__reason"))[:limit]


@cache
def _log_sql(alias: str, before: bool, limit: int) -> tuple[str, tuple, int, int | None, list[str], list]:
    compiler = _log_queryset(alias, _GAME, _BEFORE if before else None, limit).query.get_compiler(alias)
    sql, params = compiler.as_sql()
    game_at = params.index(_GAME)
    before_at = params.index(_BEFORE) if before else None
    names = [*compiler.query.values_select, *compiler.query.annotation_select]
    fields = [s[0] for s in compiler.select[: compiler.col_count]]
    converters = sorted(compiler.get_converters(fields).items())
    return sql, tuple(params), game_at, before_at, names, converters


def log_rows(game_id: int, *, before: int | None = None, limit: int, using: str = "default") -> list[dict]:
    """The game's log rows before ``before`` (all, without), newest first, at most ``limit``:
    dicts of LOG_FIELDS and "reason", as the ORM's ``values()`` gives them."""
    sql, params, game_at, before_at, names, converters = _log_sql(using, before is not None, int(limit))
    params = list(params)
    params[game_at] = int(game_id)
    if before_at is not None:
        params[before_at] = int(before)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        row = list(row)
        for i, (funcs, expression) in converters:
            for func in funcs:
                row[i] = func(row[i], expression, connection)
        out.append(dict(zip(names, row, strict=True)))
    return out
