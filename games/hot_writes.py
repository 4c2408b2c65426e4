"""The writes every move makes, without the ORM's compiling (issue 12): the game's row and the
log rows the move adds. (The reads: games/sql.py.)

Built by the ORM, ``game.save(update_fields=...)`` and ``GameAction.objects.create`` each cost
more CPU to compile than the database took to run them: after the rendering, most of what a move
cost beyond the minimal endpoint that bench/web.py compares it with. Here the same UPDATE and
INSERT are written once per process and set of columns from the models' own fields, and every
value goes through what ``Model.save`` passes it through: the field's ``pre_save`` (``auto_now``
and ``auto_now_add`` set the instance's attribute, as they do for the ORM) and its
``get_db_prep_save`` (JSON adapted by the backend, times made aware and converted). Neither
model has a ``pre_save`` or ``post_save`` receiver (the ORM would send them; this does not: a
test says so).

``tests/games/test_hot_writes.py`` holds both to the ORM: the rows they write are the rows the
ORM writes, column by column.

- ``update_game(game, fields)``: ``game.save(update_fields=fields)``, DatabaseError when no row
  was updated, as the ORM raises;
- ``insert_actions(rows)``: ``GameAction.objects.create`` for each of the unsaved ``rows``, in
  one INSERT; each gets its ``pk`` and is then a saved instance;
- ``write_move(game, fields, rows)``: both, as one statement where the database can (PostgreSQL:
  the INSERT as a data-modifying ``WITH`` of the UPDATE, which returns the new rows' ids), so a
  move's writes take one round trip, not two (each cost the worker more than what it wrote);
- ``update_deeds(game_id, values)``: the deeds' mirrored rows a move changed (a purchase, a
  building, a mortgage), as ``DeedRow.objects.filter(game_id=..., square=...).update(**...)``
  for each square: one UPDATE of them all (PostgreSQL: joined to a ``VALUES`` list of the
  squares' new values, each cast to its column's type; elsewhere one UPDATE by the ORM, a
  CASE on the square for each column, for several deeds). The ORM compiled it afresh at every
  move that changed a deed, one move in five: in-process 0.2 ms a move (bench/move_cpu.py).
"""

from __future__ import annotations

from functools import cache

from django.db import DatabaseError, connections
from django.db.models import Case, Field, Value, When
from django.db.models.functions import Cast

from games.models import DeedRow, Game, GameAction


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
def _deeds_sql(alias: str, squares: int) -> tuple[str, list[Field]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = DeedRow._meta
    fields = [meta.get_field(name) for name in DEED_FIELDS]
    game, square = quote(meta.get_field("game").column), quote(meta.get_field("square").column)
    if squares == 1:
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
        return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {game} = %s AND {square} = %s", fields
    # (Each value cast to its column's type: PostgreSQL types a column of NULLs in VALUES as text.)
    one = "(" + ", ".join(f"CAST(%s AS {f.db_type(connection)})"
                          for f in (meta.get_field("square"), *fields)) + ")"
    names = ", ".join(quote(f.column) for f in (meta.get_field("square"), *fields))
    assignments = ", ".join(f"{quote(f.column)} = v.{quote(f.column)}" for f in fields)
    sql = (f"UPDATE {quote(meta.db_table)} AS d SET {assignments}"
           f" FROM (VALUES {', '.join([one] * squares)}) AS v({names})"
           f" WHERE d.{game} = %s AND d.{square} = v.{square}")
    return sql, fields


def update_deeds(game_id: int, values: dict[int, dict], *, using: str = "default") -> None:
    """Write each square's new ``values`` (its DEED_FIELDS) to the game's deed rows, as the ORM's
    ``filter(game_id=game_id, square=sq).update(**values[sq])`` for each does, in one statement."""
    if not values:
        return
    connection = connections[using]
    if len(values) > 1 and connection.vendor != "postgresql":
        _update_deeds_orm(game_id, values, using)
        return
    sql, fields = _deeds_sql(using, len(values))
    if len(values) == 1:
        [(sq, row)] = values.items()
        params = [*(f.get_db_prep_save(row[f.name], connection) for f in fields), game_id, sq]
    else:
        params = [v for sq, row in values.items()
                  for v in (sq, *(f.get_db_prep_save(row[f.name], connection) for f in fields))]
        params.append(game_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _update_deeds_orm(game_id: int, values: dict[int, dict], using: str) -> None:
    """Several deeds elsewhere than on PostgreSQL: the ORM's one UPDATE, a CASE on the square for
    each column (as bulk_update writes it)."""
    cases = {}
    for name in DEED_FIELDS:
        col = DeedRow._meta.get_field(name)
        case = Case(*(When(square=sq, then=Value(row[name], output_field=col)) for sq, row in values.items()),
                    output_field=col)
        cases[name] = Cast(case, output_field=col) if connections[using].features.requires_casted_case_in_updates \
            else case
    DeedRow.objects.using(using).filter(game_id=game_id, square__in=list(values)).update(**cases)
