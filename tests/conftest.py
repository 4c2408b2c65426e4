"""Fixtures shared by all tests: alice, bob and charlie are ordinary, verified users."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.utils import translation
from pytest_django.fixtures import Settings

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, UserFactory


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
