"""tests/template_db.py: each worker's test database is a copy of one migrated template (a
PostgreSQL database, or a SQLite file for the in-memory databases), named by a digest of the
migrations, so a changed migration never meets an old copy."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests import template_db


def _migrations(root, text: str) -> None:
    folder = root / "games" / "migrations"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "0001_initial.py").write_text(text)


def test_the_templates_name_changes_with_any_migration(tmp_path, monkeypatch):
    monkeypatch.setattr(template_db, "ROOT", tmp_path)
    _migrations(tmp_path, "operations = []\n")
    first = template_db.template_name({"NAME": "monopoly"})
    assert first.startswith("test_monopoly_tpl_")
    assert template_db.template_name({"NAME": "monopoly"}) == first

    _migrations(tmp_path, "operations = ['changed']\n")
    changed = template_db.template_name({"NAME": "monopoly"})
    assert changed != first
    (tmp_path / "games" / "migrations" / "0002_more.py").write_text("operations = []\n")
    assert template_db.template_name({"NAME": "monopoly"}) not in {first, changed}


@pytest.mark.django_db
def test_the_test_database_has_every_migration_applied():
    # (A copy of a template that missed a migration would show here, on PostgreSQL.)
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


@pytest.mark.django_db
def test_on_postgresql_the_worker_database_is_not_the_template():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's template (SQLite's is a file: the test below)")
    name = connection.settings_dict["NAME"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname = %s", [template_db.template_name(
            {"NAME": name.removeprefix("test_").rsplit("_gw", 1)[0]})])
        assert cursor.fetchall() != [], "the template database is kept for the next run"
    assert "_tpl_" not in name


@pytest.mark.django_db
def test_on_sqlite_the_in_memory_database_is_a_copy_of_the_template_file():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's template file (PostgreSQL's is a database: the test above)")
    assert connection.creation.is_in_memory_db(connection.settings_dict["NAME"])
    # (Filled from the template by this process, not migrated: its copy's connection is kept open.)
    assert len(template_db._KEPT_OPEN) == 1
    template = template_db.sqlite_template_path()
    assert template.parent.parent.name == "monopoly-test-templates"
    with closing(sqlite3.connect(template)) as kept:
        migrated = set(kept.execute("SELECT app, name FROM django_migrations"))
        tables = {row[0] for row in kept.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                  if not row[0].startswith("sqlite_")}
    with connection.cursor() as cursor:
        cursor.execute("SELECT app, name FROM django_migrations")
        assert set(cursor.fetchall()) == migrated
    # (Every table of the template is here; Django adds its cache table after the copy.)
    assert len(migrated) > 20 and tables <= set(connection.introspection.table_names())
