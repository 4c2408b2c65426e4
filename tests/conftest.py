"""Fixtures shared by all tests: alice, bob and charlie are ordinary, verified users."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.utils import translation
from pytest_django.fixtures import Settings

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, UserFactory


@pytest.fixture(autouse=True, scope="session")
def _flush_by_delete() -> Iterator[None]:
    """On PostgreSQL a transactional test (the browser's, the real workers', the races') ends with
    Django's flush: one TRUNCATE of every table, which makes new files for each of them and their
    indexes, about 2 s a test on this machine. A DELETE of every row in the same transaction
    leaves the same empty tables (the foreign keys, deferred, are checked at its commit; the
    sequences go on as after a TRUNCATE without RESTART IDENTITY) for a fraction of that."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;", *(f"DELETE FROM {self.quote_name(table)};" for table in tables)]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    """pytest-django's hook before the test databases are made (its own, the xdist suffix, first):
    on PostgreSQL each worker's database is a copy of one migrated template (tests/template_db.py)."""
    from tests import template_db

    template_db.install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    """The browser tests share one Chromium per test process (tests/e2e/conftest.py). Playwright's
    sync API marks its event loop as running in this thread between its calls, and the browser
    fixture lets Django's ORM run beside it (DJANGO_ALLOW_ASYNC_UNSAFE). Every other test runs,
    from its first fixture to its last teardown, as in a process without a browser: that loop not
    running and the variable unset (under a running loop asgiref would even hand it another
    database connection than the one its transaction wraps); both are put back after it for the
    next browser test."""
    import asyncio
    import os

    if "browser" in getattr(item, "fixturenames", ()):
        return (yield)
    loop = asyncio._get_running_loop()
    if loop is not None:
        # The browser tests' database connections, which asgiref keeps apart from this test's
        # under a running loop: closed while they can still be reached (an open one would keep
        # the test database from being dropped at the end).
        from django.db import connections

        connections.close_all()
    unsafe = os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        # (Unless the browser was closed meanwhile: the session's fixtures end with a last test.)
        if loop is not None and not loop.is_closed():
            asyncio._set_running_loop(loop)
            if unsafe is not None:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = unsafe


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Settings) -> None:
    # The real hasher is deliberately slow; tests only need passwords to round-trip.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    # A request leaves its language active in the thread (LocaleMiddleware and the user's
    # preference activate one, nothing deactivates it), so a Spanish page would make the next
    # test's words Spanish: every test starts and ends in the site's default language.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _cache_of_its_own(settings: Settings) -> None:
    # Each test gets an empty in-memory cache of its own: rate-limit counts never leak from one
    # test to the next, and the database cache's queries stay out of the query counts. The
    # shared cache the site runs on is tested where it matters (tests/games/test_rate_limits.py).
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        }
    }


@pytest.fixture(autouse=True)
def _bots_play_within_the_move(settings: Settings) -> None:
    # Bots play in Celery tasks after BOT_DELAY_SECONDS (issue 10); tests play them within the
    # move (a delay of 0), unless a test sets a delay to see the tasks (tests/games/test_bot_tasks.py,
    # and the real worker's tests in tests/workers/).
    settings.BOT_DELAY_SECONDS = 0


@pytest.fixture(autouse=True)
def _cheap_analysis(settings: Settings) -> None:
    # A finished game's analysis (issue 30) runs as soon as the game ends wherever tasks run
    # inline: at the site's 1,000 playouts a round, a test that only finishes a game spent most of
    # its CPU on it (tests/ratings/test_hook.py: 17 s of 21). A few playouts a round exercise the
    # same code; the estimate's precision is tested on the engine (tests/engine/test_analysis.py).
    settings.ANALYSIS_MAX_PLAYOUTS = 6
    settings.ANALYSIS_TARGET = None
    settings.ANALYSIS_SWING_PLAYOUTS = 4


@pytest.fixture
def password() -> str:
    """The password every factory-made user has."""
    return DEFAULT_PASSWORD


@pytest.fixture
def alice(db: None) -> User:
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db: None) -> User:
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def charlie(db: None) -> User:
    return UserFactory(username="charlie", display_name="Charlie")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The slow group first (a stable sort: each group keeps its order): under pytest-xdist the
    # long tests start at once, side by side, rather than one of them last on one worker.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def celery_eager() -> Iterator[None]:
    """Run .delay() inline (as CELERY_TASK_ALWAYS_EAGER=true would), for this test only. (On the
    Celery app's own conf: a Django setting changed after the app read its conf does not reach it.)"""
    from config.celery import app as celery_app

    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous
