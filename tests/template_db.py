"""Every test database is a copy of one migrated template (issue 27).

pytest-xdist gives each worker a test database of its own, and Django made each by running every
migration: the same work once per worker, tens of seconds each on a loaded 2-core machine, before
the worker's first test. Here the first worker to get there migrates a template database; every
worker's database is then ``CREATE DATABASE ... TEMPLATE`` of it, a file copy of a second or so.
Django's ``create_test_db`` goes on as before (its ``migrate`` then finds nothing to apply).

The template's name holds a digest of the migrations and of Django's version, so a changed
migration makes a new template (the old ones of that database name are dropped) and a run with
the same migrations reuses the last one. A PostgreSQL advisory lock serialises the workers, and
runs of other checkouts on the same database name: one migrates, the others wait, then copy.

On SQLite (the embedded defaults, ``bin/test --fast``) each worker's in-memory test database is
filled from a migrated template file in the system's temporary folder, named by the same digest,
with SQLite's backup API (a copy of pages, no SQL run); a file lock plays the advisory lock's part.
A process's test database is then ready in under a second instead of about 10 s of migrations.

The benchmarks' smoke runs (tests/test_bench.py) start from the same templates: ``sqlite_template``
(made by ``manage.py migrate`` when no test of the run made it) and ``postgresql_copy``.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import django

ROOT = Path(__file__).resolve().parent.parent


def migrations_digest() -> str:
    """A digest of every migration file of the project and of Django's version."""
    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def template_name(settings_dict: dict) -> str:
    return f"test_{settings_dict['NAME']}_tpl_{migrations_digest()}"


def _lock_key(prefix: str) -> int:
    # pg_advisory_lock takes a bigint; the prefix (not the digest) so that a run that drops an
    # old template waits for one still copying it.
    return zlib.crc32(prefix.encode())


def _ensure_template(creation, cursor, template: str, verbosity: int) -> None:
    """Migrate the template unless it is there; the caller holds the lock."""
    prefix = template.rsplit("_", 1)[0] + "_"
    cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [prefix.replace("_", r"\_") + "%"])
    found = {row[0] for row in cursor.fetchall()}
    if template in found:
        return
    quote = creation.connection.ops.quote_name
    for old in found:  # (other migrations' templates, and one whose building was cut short)
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(old)}")
    building = template + "_new"
    cursor.execute(f"CREATE DATABASE {quote(building)}")
    _migrate_into(creation, building, verbosity)
    # Renamed once whole: a template is never seen half-migrated.
    cursor.execute(f"ALTER DATABASE {quote(building)} RENAME TO {quote(template)}")


def sqlite_template_path() -> Path:
    """The SQLite template file: in a folder of this checkout's own (as a PostgreSQL template is
    named by its database), so that a checkout with other migrations never removes it."""
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    return Path(tempfile.gettempdir()) / "monopoly-test-templates" / checkout / f"sqlite-{migrations_digest()}.sqlite3"


def _migrate_into(creation, database: str | Path, verbosity: int) -> None:
    """Migrate the new database ``database`` (a PostgreSQL template's name, or an SQLite file),
    through the test connection pointed at it for a while."""
    from django.core.management import call_command

    connection = creation.connection
    name = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = str(database)
    try:
        call_command("migrate", verbosity=max(verbosity - 1, 0), interactive=False,
                     database=connection.alias, run_syncdb=True)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name


# The in-memory databases filled here: one lives only while a connection to it is open.
_KEPT_OPEN: list[sqlite3.Connection] = []


@contextmanager
def _sqlite_template(migrate: Callable[[Path], None]) -> Iterator[Path]:
    """The SQLite template file, made by ``migrate(file)`` if it is not there yet, held under the
    file lock (for the copy the caller makes)."""
    template = sqlite_template_path()
    template.parent.mkdir(parents=True, exist_ok=True)
    with open(template.parent / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file closes)
        if not template.exists():
            for old in template.parent.glob("sqlite-*"):  # (other migrations', one cut short)
                old.unlink()
            building = template.with_name(template.name + ".new")
            migrate(building)
            building.rename(template)  # (whole: a template is never seen half-migrated)
        yield template


def _fill_from_sqlite_template(creation, test_name: str, verbosity: int) -> None:
    with _sqlite_template(lambda building: _migrate_into(creation, building, verbosity)) as template:
        if verbosity >= 1:
            creation.log(f"Copying {template} to {test_name}...")
        source = sqlite3.connect(template)
        target = sqlite3.connect(test_name, uri=True)
        try:
            source.backup(target)
        finally:
            source.close()
    _KEPT_OPEN.append(target)


def _migrate_by_manage(building: Path) -> None:
    # (A process without an SQLite test connection to borrow: the site's own migrate, on a file.)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": "", "VAR_DIR": folder}
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "--run-syncdb", "--verbosity", "0"],
                       cwd=ROOT, env=env, check=True, timeout=600)
        shutil.move(Path(folder) / "db.sqlite3", building)


def sqlite_template() -> Path:
    """The SQLite template file, made first if no test of the run has made it: a migrated
    database for a site to start from (tests/test_bench.py's benchmarks on SQLite copy it)."""
    with _sqlite_template(_migrate_by_manage) as template:
        return template


def postgresql_copy(url: str, name: str) -> bool:
    """``CREATE DATABASE name`` as a copy of the migrated template of ``url``'s database, once
    this run's test databases were made from it (false, and nothing made, when it is not
    there: the caller's ``migrate`` then does the work)."""
    import psycopg

    parts = urlsplit(url)
    template = template_name({"NAME": parts.path.lstrip("/")})
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        key = _lock_key(template.rsplit("_", 1)[0])
        conn.execute("SELECT pg_advisory_lock(%s)", [key])
        try:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template]).fetchone() is None:
                return False
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}" WITH TEMPLATE "{template}"')
            return True
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", [key])


def install() -> None:
    """Make the PostgreSQL backend's test databases copies of the template, and SQLite's in-memory
    ones copies of the template file."""
    from django.db.backends.postgresql.creation import DatabaseCreation
    from django.db.backends.sqlite3.creation import DatabaseCreation as SQLiteCreation

    if not getattr(SQLiteCreation, "_copied_from_template", False):
        sqlite_each = SQLiteCreation._create_test_db

        def _create_sqlite_test_db(self, verbosity, autoclobber, keepdb=False):
            test_name = sqlite_each(self, verbosity, autoclobber, keepdb)
            if (not keepdb and self.connection.settings_dict["TEST"].get("MIGRATE") is not False
                    and self.is_in_memory_db(test_name)):
                _fill_from_sqlite_template(self, test_name, verbosity)
            return test_name

        SQLiteCreation._create_test_db = _create_sqlite_test_db
        SQLiteCreation._copied_from_template = True

    if getattr(DatabaseCreation, "_copied_from_template", False):
        return
    migrate_each = DatabaseCreation._create_test_db

    def _create_test_db(self, verbosity, autoclobber, keepdb=False):
        if keepdb or self.connection.settings_dict["TEST"].get("MIGRATE") is False:
            return migrate_each(self, verbosity, autoclobber, keepdb)
        test_name = self._get_test_db_name()
        template = template_name(self.connection.settings_dict)
        quote = self.connection.ops.quote_name
        with self._nodb_cursor() as cursor:
            key = _lock_key(template.rsplit("_", 1)[0])
            cursor.execute("SELECT pg_advisory_lock(%s)", [key])
            try:
                _ensure_template(self, cursor, template, verbosity)
                if verbosity >= 1:
                    self.log(f"Copying {template} to {test_name}...")
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(test_name)}")
                cursor.execute(f"CREATE DATABASE {quote(test_name)} WITH TEMPLATE {quote(template)}")
            finally:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
        return test_name

    DatabaseCreation._create_test_db = _create_test_db
    DatabaseCreation._copied_from_template = True
