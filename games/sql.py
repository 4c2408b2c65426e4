"""The few statements every move and every game page runs, each written once per process and
shape (issue 12, 27), where the ORM compiled it afresh at every request: compiling cost more CPU
than the database took to answer.

One mechanism for all of them: a builder cached per database alias and shape (``@cache``) makes
the statement once, either from the models' own fields (every concrete column, in the models'
order, so a new field is read and written with no change here) or by the ORM's own compiler,
with stand-ins for the parameters that are found again and filled in at each call
(``_Compiled``: the log's read, and the lockout rule, which is moderation's
``active_sanctions`` compiled as a subquery, not restated here). Values go in through the
fields' ``pre_save`` and ``get_db_prep_save``, as ``Model.save`` passes them; rows come out
through the same converters and ``Model.from_db`` the ORM uses, related objects cached as
``select_related`` caches them. ``tests/games/test_sql_reads.py`` and ``test_sql_writes.py``
hold every statement to its ORM version, field by field.

Reads:

- ``game_with_table(game_id, lock=...)``: ``Game.objects.select_related("table")``
  (``.select_for_update()`` with ``lock``: the game's row only, where the database can say so);
- ``seats_with_users(table_id, lockout_at=...)``: ``Seat.objects.filter(table_id=...)
  .select_related("user")`` in ``Seat.Meta.ordering``; with ``lockout_at``, each seat's user's
  lockout as well (``seat.locked_out``), as ``moderation.selectors.lockout`` finds it;
- ``game_with_seats(game_id, lock=..., lockout_at=...)``: both in one query (the game's row
  locked alone): what a move reads, in one round trip;
- ``log_rows(game_id, before=..., limit=...)``: the log's newest rows as the game page reads them.

Writes (neither model has a ``pre_save`` or ``post_save`` receiver: the ORM would send them,
this does not, and a test says so):

- ``update_game(game, fields)``: ``game.save(update_fields=fields)``, DatabaseError when no row
  was updated, as the ORM raises;
- ``insert_actions(rows)``: ``GameAction.objects.create`` for each unsaved row, in one INSERT;
- ``write_move(game, fields, rows)``: both, as one statement on PostgreSQL (the INSERT as a
  data-modifying ``WITH`` of the UPDATE), elsewhere the two of them;
- ``update_deeds(game_id, values)``: the deeds' mirrored rows a move changed, as
  ``DeedRow.objects.filter(game_id=..., square=...).update(**...)`` for each square.

The one PostgreSQL-only statement is ``write_move``'s, kept for a gain measured on two runs of
bench/move_cpu.py's A/B beside a null one (the figures: the commit that dropped the other fork).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import DatabaseError, connections
from django.db.models import Exists, Field, Model, OuterRef
from django.db.models.fields.json import KT

from accounts.models import User
from games.models import DeedRow, Game, GameAction, Seat, Table
from moderation.models import Sanction
from moderation.selectors import LOCKOUT, active_sanctions


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


@dataclass(frozen=True)
class _Compiled:
    """A statement (or part of one) the ORM compiled once, with stand-ins for the values that
    change from call to call: ``slots`` names their places among the parameters."""

    sql: str
    params: tuple
    slots: dict[str, int]

    def fill(self, **values: Any) -> list:
        params = list(self.params)
        for name, value in values.items():
            params[self.slots[name]] = value
        return params


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


def _seat_table(connection) -> str:
    """The seat table's own name, no alias: moderation's lockout subquery, compiled by the ORM,
    refers to the seat's user by it."""
    return connection.ops.quote_name(Seat._meta.db_table)


def _seat_order(connection) -> str:
    quote, seat = connection.ops.quote_name, _seat_table(connection)
    return ", ".join(f"{seat}.{quote(Seat._meta.get_field(name.lstrip('-')).column)}{' DESC' if name[0] == '-' else ''}"
                     for name in Seat._meta.ordering)


def _user_join(connection) -> str:
    quote = connection.ops.quote_name
    return (f" LEFT OUTER JOIN {quote(User._meta.db_table)} u"
            f" ON u.{quote(User._meta.pk.column)} = {_seat_table(connection)}.{quote('user_id')}")


@cache
def _seats_sql(alias: str, lockout: bool) -> tuple[str, _Columns, _Columns]:
    connection = connections[alias]
    seat, user = _columns(Seat, _seat_table(connection), connection), _columns(User, "u", connection)
    quote = connection.ops.quote_name
    locked = f", {_lockout(alias).sql}" if lockout else ""
    sql = (f"SELECT {seat.select}, {user.select}{locked} FROM {_seat_table(connection)}{_user_join(connection)}"
           f" WHERE {_seat_table(connection)}.{quote('table_id')} = %s ORDER BY {_seat_order(connection)}")
    return sql, seat, user


@cache
def _game_seats_sql(alias: str, lock: bool, lockout: bool) -> tuple[str, list[_Columns]]:
    connection = connections[alias]
    cols = [_columns(Game, "g", connection), _columns(Table, "t", connection),
            _columns(Seat, _seat_table(connection), connection), _columns(User, "u", connection)]
    quote = connection.ops.quote_name
    locked = f", {_lockout(alias).sql}" if lockout else ""
    seat = _seat_table(connection)
    sql = (f"SELECT {', '.join(c.select for c in cols)}{locked} FROM {quote(Game._meta.db_table)} g"
           f" INNER JOIN {quote(Table._meta.db_table)} t ON t.{quote(Table._meta.pk.column)} = g.{quote('table_id')}"
           f" LEFT OUTER JOIN {seat} ON {seat}.{quote('table_id')} = g.{quote('table_id')}"
           f"{_user_join(connection)}"
           f" WHERE g.{quote(Game._meta.pk.column)} = %s ORDER BY {_seat_order(connection)}")
    features = connection.features
    if lock and features.has_select_for_update:
        # (The game's row only: the seats and users are read, not locked.)
        sql += " FOR UPDATE OF g" if features.has_select_for_update_of else " FOR UPDATE"
    return sql, cols


# A stand-in for the lockout's time while the ORM compiles moderation's rule (found again among
# the parameters, and replaced at each call).
_AT = datetime(2000, 1, 1, 0, 0, 13, tzinfo=UTC)


def _at(value: datetime, connection) -> Any:
    return Sanction._meta.get_field("until").get_db_prep_value(value, connection)


@cache
def _lockout(alias: str) -> _Compiled:
    """Whether the seat's user is locked out of the site at a time (the one slot, "at"), as a
    column: ``moderation.selectors.active_sanctions`` with LOCKOUT's kinds (the rule
    ``moderation.selectors.lockout`` applies), compiled by the ORM as an EXISTS on the seat's
    user. The rule stays moderation's: a change to it changes this column."""
    connection = connections[alias]
    query = Seat.objects.using(alias).annotate(
        locked_out=Exists(active_sanctions(user=OuterRef("user"), kinds=LOCKOUT, at=_AT))).query
    sql, params = query.get_compiler(alias).compile(query.annotations["locked_out"])
    return _Compiled(sql, tuple(params), {"at": list(params).index(_at(_AT, connection))})


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
    """The rows of ``sql`` for the id ``key``, after the lockout's parameters when it is asked
    for (its column comes before the WHERE)."""
    params: list[Any] = [int(key)]
    if lockout_at is not None:
        params[:0] = _lockout(connection.alias).fill(at=_at(lockout_at, connection))
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
def _log_sql(alias: str, before: bool, limit: int) -> tuple[_Compiled, list[str], list]:
    compiler = _log_queryset(alias, _GAME, _BEFORE if before else None, limit).query.get_compiler(alias)
    sql, params = compiler.as_sql()
    slots = {"game": params.index(_GAME), **({"before": params.index(_BEFORE)} if before else {})}
    names = [*compiler.query.values_select, *compiler.query.annotation_select]
    fields = [s[0] for s in compiler.select[: compiler.col_count]]
    converters = sorted(compiler.get_converters(fields).items())
    return _Compiled(sql, tuple(params), slots), names, converters


def log_rows(game_id: int, *, before: int | None = None, limit: int, using: str = "default") -> list[dict]:
    """The game's log rows before ``before`` (all, without), newest first, at most ``limit``:
    dicts of LOG_FIELDS and "reason", as the ORM's ``values()`` gives them."""
    statement, names, converters = _log_sql(using, before is not None, int(limit))
    params = statement.fill(game=int(game_id), **({"before": int(before)} if before is not None else {}))
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        row = list(row)
        for i, (funcs, expression) in converters:
            for func in funcs:
                row[i] = func(row[i], expression, connection)
        out.append(dict(zip(names, row, strict=True)))
    return out


# ---------------------------------------------------------------------------------------------
# Writes
# ---------------------------------------------------------------------------------------------

@cache
def _update_sql(alias: str, names: tuple[str, ...]) -> tuple[str, list[Field]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = [Game._meta.get_field(name) for name in names]
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(Game._meta.db_table)} SET {assignments} WHERE {quote(Game._meta.pk.column)} = %s"
    return sql, fields


def _update_values(game: Game, columns: list[Field], connection) -> list:
    return [*(f.get_db_prep_save(f.pre_save(game, False), connection) for f in columns), game.pk]


def update_game(game: Game, fields: list[str], *, using: str = "default") -> None:
    """Write ``fields`` of ``game``'s row, as ``game.save(update_fields=fields)`` does."""
    connection = connections[using]
    sql, columns = _update_sql(using, tuple(dict.fromkeys(fields)))
    values = _update_values(game, columns, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


@cache
def _insert_sql(alias: str, rows: int) -> tuple[str, list[Field], bool]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = GameAction._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
           f" VALUES {', '.join([one] * rows)}")
    returning = connection.features.can_return_rows_from_bulk_insert
    if returning:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return sql, fields, returning


def insert_actions(rows: list[GameAction], *, using: str = "default") -> None:
    """Insert the unsaved ``rows`` (in one statement), as ``GameAction.objects.create`` inserts
    each: afterwards each has its ``pk`` and is a saved instance of the database ``using``."""
    if not rows:
        return
    connection = connections[using]
    sql, fields, returning = _insert_sql(using, len(rows))
    values = _insert_values(rows, fields, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if returning:
            ids = [r[0] for r in cursor.fetchall()]
        else:
            # (A backend without RETURNING for several rows: read them back by their sequence.)
            game_ids = {row.game_id for row in rows}
            found = {(seq, sub): pk for seq, sub, pk in GameAction.objects.using(using).filter(
                game_id__in=game_ids, seq__in=[row.seq for row in rows]).values_list("seq", "sub", "pk")}
            ids = [found[row.seq, row.sub] for row in rows]
    _saved(rows, ids, using)


def _insert_values(rows: list[GameAction], fields: list[Field], connection) -> list:
    return [f.get_db_prep_save(f.pre_save(row, True), connection) for row in rows for f in fields]


def _saved(rows: list[GameAction], ids: list[int], using: str) -> None:
    for row, pk in zip(rows, ids, strict=True):
        row.pk = pk
        row._state.adding = False
        row._state.db = using


@cache
def _move_sql(alias: str, names: tuple[str, ...], rows: int) -> tuple[str, list[Field], list[Field]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    update, columns = _update_sql(alias, names)
    insert, fields, _returning = _insert_sql(alias, rows)
    # (The ids in the order the rows were inserted: their sequence's, which is VALUES order.)
    sql = (f"WITH new_rows AS ({insert}) {update}"
           f" RETURNING (SELECT array_agg({quote(GameAction._meta.pk.column)}"
           f" ORDER BY {quote(GameAction._meta.pk.column)}) FROM new_rows)")
    return sql, columns, fields


def write_move(game: Game, fields: list[str], rows: list[GameAction], *, using: str = "default") -> None:
    """``insert_actions(rows)`` and ``update_game(game, fields)``, in one statement on PostgreSQL
    (elsewhere the two of them): the same rows, and the same DatabaseError when the game's row
    is gone (the log rows are then not written either, with the transaction rolled back)."""
    connection = connections[using]
    if not rows or connection.vendor != "postgresql":
        insert_actions(rows, using=using)
        update_game(game, fields, using=using)
        return
    sql, columns, row_fields = _move_sql(using, tuple(dict.fromkeys(fields)), len(rows))
    values = [*_insert_values(rows, row_fields, connection), *_update_values(game, columns, connection)]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        found = cursor.fetchone()
    if found is None:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    _saved(rows, found[0], using)


DEED_FIELDS = ("owner_seat", "level", "mortgaged", "mortgaged_round")


@cache
def _deed_sql(alias: str) -> tuple[str, list[Field]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = DeedRow._meta
    fields = [meta.get_field(name) for name in DEED_FIELDS]
    game, square = quote(meta.get_field("game").column), quote(meta.get_field("square").column)
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {game} = %s AND {square} = %s", fields


def update_deeds(game_id: int, values: dict[int, dict], *, using: str = "default") -> None:
    """Write each square's new ``values`` (its DEED_FIELDS) to the game's deed rows, as the ORM's
    ``filter(game_id=game_id, square=sq).update(**values[sq])`` for each does: the statement
    above once per deed, sent together (``executemany``; psycopg pipelines it into one round
    trip). Most moves change one deed; a game's start writes every one."""
    if not values:
        return
    connection = connections[using]
    sql, fields = _deed_sql(using)
    params = [[*(f.get_db_prep_save(row[f.name], connection) for f in fields), game_id, sq]
              for sq, row in values.items()]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
