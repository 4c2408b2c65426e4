"""Rate limits count in the shared cache and answer 429 with the site's page (RATE_LIMIT_*)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

import config.settings as site_settings
from games.models import Game
from tests.games.play_helpers import start_game


@pytest.fixture
def shared_cache(settings):
    """The cache the site is configured with (Redis with CACHE_URL, else the database table),
    instead of the tests' in-memory one, under a key prefix of this test's own."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"} for name, config in site_settings.CACHES.items()
    }


@pytest.fixture
def tight(settings):
    settings.RATE_LIMIT_MOVES = "3/m"
    settings.RATE_LIMIT_INVITATIONS = "2/m"
    settings.RATE_LIMIT_UPLOADS = "2/m"


def test_the_cache_is_shared_between_processes():
    backend = site_settings.CACHES["default"]["BACKEND"]
    if site_settings.CACHE_URL:
        assert backend == "config.cache.RedisCache"
    else:
        # Not the per-process memory cache Django falls back to without a CACHES setting.
        assert backend == "config.cache.DatabaseCache"


@pytest.mark.django_db
def test_moves_over_the_limit_get_429_and_change_nothing(client, alice, bob, shared_cache, tight):
    game = start_game(alice, bob)
    client.force_login(bob)  # not on turn: each move is refused (403), but counted
    url = reverse("games:game_act", args=[game.pk])
    for _ in range(3):
        assert client.post(url, {"type": "roll", "version": game.version}).status_code != 429

    client.force_login(alice)  # another user has a count of her own
    response = client.post(url, {"type": "roll", "version": game.version}, headers={"HX-Request": "true"})
    assert response.status_code == 200

    client.force_login(bob)
    version = Game.objects.get(pk=game.pk).version
    response = client.post(url, {"type": "end_turn", "version": version})
    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    page = response.content.decode()
    assert "Too many requests" in page and 'class="site-header"' in page
    assert Game.objects.get(pk=game.pk).version == version


@pytest.mark.django_db
def test_a_program_over_the_move_limit_gets_json(client, alice, bob, tight):
    game = start_game(alice, bob)
    client.force_login(bob)
    url = reverse("games:game_act", args=[game.pk])
    for _ in range(3):
        client.post(url, {"type": "roll"}, headers={"Accept": "application/json"})

    response = client.post(url, {"type": "roll"}, headers={"Accept": "application/json"})

    assert response.status_code == 429
    assert response.json()["error"] == "Too many requests: wait a minute, then try again."


@pytest.mark.django_db
def test_invitations_over_the_limit_get_429_and_send_nothing(client, alice, make_table, tight, celery_eager,
                                                            mailoutbox, django_capture_on_commit_callbacks):
    table = make_table(alice, is_private=True)
    client.force_login(alice)
    url = reverse("games:table_invite_email", args=[table.pk])
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(2):
            assert client.post(url, {"email": f"friend{n}@example.com"}).status_code == 302

        response = client.post(url, {"email": "third@example.com"}, headers={"HX-Request": "true"})

    assert response.status_code == 429
    assert not table.invitations.filter(email="third@example.com").exists()
    assert len(mailoutbox) == 2


@pytest.mark.django_db
def test_uploads_over_the_limit_get_429_per_user(client, alice, bob, tight):
    # (Uploads need a login: games.views.records.record_upload.)
    url = reverse("games:record_upload")
    client.force_login(alice)
    for _ in range(2):
        assert client.post(url, {}).status_code == 400  # no file: refused, but counted
    assert client.get(url).status_code == 200  # looking at the form is not limited

    assert client.post(url, {}).status_code == 429
    # Another user has their own count.
    client.force_login(bob)
    assert client.post(url, {}).status_code == 400


@pytest.mark.django_db
def test_the_login_page_counts_failures_in_the_shared_cache(client, alice, password, shared_cache):
    # allauth's own limits (ACCOUNT_RATE_LIMITS) use the default cache: here they are counted
    # where every process sees them, not in one process's memory.
    for _ in range(6):
        client.post(reverse("account_login"), {"login": "alice", "password": "wrong"})

    # Even the right password is refused now, by the count kept in the default cache.
    response = client.post(reverse("account_login"), {"login": "alice", "password": password})

    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_rate_limits_can_be_turned_off(client, alice, settings, tight):
    settings.RATELIMIT_ENABLE = False
    url = reverse("games:record_upload")
    client.force_login(alice)

    assert all(client.post(url, {}).status_code == 400 for _ in range(5))


@pytest.mark.django_db(transaction=True)
def test_the_database_cache_counts_every_increment_of_concurrent_requests(settings):
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("the in-memory test database is one connection shared by every thread")
    # The server-less cache, also where CI runs on Redis: its table is made here if need be.
    settings.CACHES = {"default": {"BACKEND": "config.cache.DatabaseCache", "LOCATION": "django_cache",
                                   "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    call_command("createcachetable", verbosity=0)
    counter = caches["default"]
    counter.add("hits", 0)
    start = threading.Barrier(8)

    def hit() -> None:
        start.wait()
        try:
            for _ in range(10):
                counter.incr("hits")
        finally:
            connection.close()

    threads = [threading.Thread(target=hit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert counter.get("hits") == 80
