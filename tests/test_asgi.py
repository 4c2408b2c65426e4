"""The site under ASGI (config/asgi.py), as uvicorn calls it: the middleware chain runs as one
synchronous block in the request's thread, entered once, and every behaviour of the middleware
is the same as under WSGI (Django's test client, the other tests).

Each behaviour is checked twice: through the site's ASGI application, called with the messages a
server sends (asgiref's ApplicationCommunicator), and through Django's AsyncClient, whose handler
builds the chain for async (where the sync-only middlewares are reached through asgiref). Both
run in the test's thread and transaction (the request's thread-sensitive parts go back to the
thread that called async_to_sync).
"""

from __future__ import annotations

import asyncio
import gzip
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import asgiref.sync
import pytest
from asgiref.sync import async_to_sync
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import AsyncClient, Client
from django.urls import reverse

import config.asgi
from games.models import Game
from tests.games.live_helpers import redis_url_or_skip
from tests.games.play_helpers import start_game

pytestmark = pytest.mark.django_db
WAIT = 10  # seconds before a test that hears nothing gives up (never a measured time)
# A CSRF secret of the allowed length and alphabet, sent as the cookie and as the form's token.
CSRF = "a1" * 16
LATIN1 = "application/x-www-form-urlencoded; charset=latin-1"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()


def _scope(method: str, path: str, headers: dict[str, str]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }


async def _site(app, method: str, path: str, headers: dict[str, str], body: bytes = b"",
                chunks: int | None = None) -> Answer:
    """One request as uvicorn sends it. ``chunks``: read that many body messages of a streamed
    answer, then hang up (as a browser leaving the page). The application runs in a task of
    this context (asgiref's ApplicationCommunicator would start it in an empty one, where the
    request's thread would not be the test's)."""
    incoming: asyncio.Queue[dict] = asyncio.Queue()
    outgoing: asyncio.Queue[dict] = asyncio.Queue()
    await incoming.put({"type": "http.request", "body": body, "more_body": False})
    task = asyncio.create_task(app(_scope(method, path, headers), incoming.get, outgoing.put))

    async def sent() -> dict:
        return await asyncio.wait_for(outgoing.get(), WAIT)

    start = await sent()
    assert start["type"] == "http.response.start", start
    answer = Answer(start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}, b"")
    read = 0
    while True:
        message = await sent()
        answer.body += message.get("body", b"")
        read += 1
        if not message.get("more_body") or read == chunks:
            break
    # The client is gone (after a whole answer, uvicorn says so too when the connection closes).
    await incoming.put({"type": "http.disconnect"})
    await asyncio.wait_for(task, WAIT)
    return answer


Serve = Callable[..., Answer]


@pytest.fixture
def no_connection_closing() -> Iterator[None]:
    """As Django's test clients do around their requests: the request's start and end must not
    close the test's database connection (it holds the test's transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(params=["site", "async_client"])
def serve(request, no_connection_closing) -> Serve:
    """``serve(method, path, user=None, headers={}, body=b"")``: the answer, through the site's
    ASGI application ("site") or Django's AsyncClient. Each request gets a handler of its own, as
    the AsyncClient does, built with the test's settings."""

    def run(method: str, path: str, *, user=None, headers: dict[str, str] | None = None,
            body: bytes = b"", content_type: str = "") -> Answer:
        headers = dict(headers or {})
        cookies = {"csrftoken": CSRF}
        if user is not None:
            signed_in = Client()
            signed_in.force_login(user)
            cookies["sessionid"] = signed_in.cookies["sessionid"].value
        if content_type:
            headers["Content-Type"] = content_type
        if request.param == "site":
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
            return async_to_sync(_site)(config.asgi.ASGIHandler(), method, path, headers, body)

        async def via_async_client() -> Answer:
            client = AsyncClient(enforce_csrf_checks=True, raise_request_exception=False)
            for k, v in cookies.items():
                client.cookies[k] = v
            response = await client.generic(method, path, body, content_type=content_type or None,
                                            headers={k: v for k, v in headers.items() if k != "Content-Type"})
            content = b"".join(response.streaming_content) if response.streaming else response.content
            return Answer(response.status_code, {k.lower(): v for k, v in response.items()}, content)

        return async_to_sync(via_async_client)()

    return run


def test_a_request_enters_the_thread_three_times_and_never_goes_back_to_the_loop(alice, bob, monkeypatch,
                                                                                  no_connection_closing):
    """request_started's receivers, the middleware chain with the view, and the answer's close
    (request_finished): one hop each. Django's own ASGI handler makes six (five into the thread,
    one back to the loop: the chain's inner end, then the CSRF check's process_view and the view
    each in the thread again)."""
    game = start_game(alice, bob)
    hops = {"into the thread": 0, "back to the loop": 0}
    into, back = asgiref.sync.SyncToAsync.__call__, asgiref.sync.AsyncToSync.__call__

    async def counted_into(self, *args, **kwargs):
        hops["into the thread"] += 1
        return await into(self, *args, **kwargs)

    def counted_back(self, *args, **kwargs):
        hops["back to the loop"] += 1
        return back(self, *args, **kwargs)

    signed_in = Client()
    signed_in.force_login(alice)
    headers = {"Cookie": f"sessionid={signed_in.cookies['sessionid'].value}"}
    app = config.asgi.ASGIHandler()
    monkeypatch.setattr(asgiref.sync.SyncToAsync, "__call__", counted_into)
    monkeypatch.setattr(asgiref.sync.AsyncToSync, "__call__", counted_back)

    answer = async_to_sync(_site)(app, "GET", reverse("games:game_legal", args=[game.pk]), headers)

    assert answer.status == 200
    assert answer.headers["content-type"] == "application/json"
    # (The one way back is the test's own async_to_sync, which runs the request.)
    assert hops == {"into the thread": 3, "back to the loop": 1}


def test_a_signed_in_users_language_wins_over_the_browsers(serve, alice):
    alice.language = "es"
    alice.save()

    answer = serve("GET", reverse("games:lobby"), user=alice, headers={"Accept-Language": "en"})

    assert answer.status == 200
    assert '<html lang="es">' in answer.text
    assert answer.headers["content-language"] == "es"


def test_an_anonymous_visitor_gets_the_browsers_language(serve):
    answer = serve("GET", reverse("account_login"), headers={"Accept-Language": "ca"})

    assert answer.status == 200
    assert '<html lang="ca">' in answer.text


def test_an_unreadable_form_is_a_400_with_the_site_page_and_one_log_line(serve, alice, bob, caplog):
    game = start_game(alice, bob)
    body = f"csrfmiddlewaretoken={CSRF}&type=roll&version={game.version}&name=Jos%E9".encode()

    with caplog.at_level(logging.INFO):
        answer = serve("POST", reverse("games:game_act", args=[game.pk]), user=alice, body=body,
                       content_type=LATIN1, headers={"Referer": "http://testserver/"})

    assert answer.status == 400
    assert "Request not understood" in answer.text and 'class="site-header"' in answer.text
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(problems) == 1, [r.getMessage() for r in problems]
    assert "Unreadable form refused (400)" in problems[0].getMessage()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_moves_over_the_rate_limit_get_429_and_change_nothing(serve, alice, bob, settings):
    settings.RATE_LIMIT_MOVES = "3/m"
    game = start_game(alice, bob)
    url = reverse("games:game_act", args=[game.pk])
    body = f"type=end_turn&version={game.version}".encode()
    headers = {"X-CSRFToken": CSRF}
    form = "application/x-www-form-urlencoded"
    for _ in range(3):  # bob is not on turn: refused, but counted
        assert serve("POST", url, user=bob, body=body, content_type=form, headers=headers).status != 429

    answer = serve("POST", url, user=bob, body=body, content_type=form, headers=headers)

    assert answer.status == 429
    assert answer.headers["retry-after"] == "60"
    assert "Too many requests" in answer.text and 'class="site-header"' in answer.text
    assert Game.objects.get(pk=game.pk).version == game.version


def test_pages_carry_the_security_policy_and_come_compressed(serve, alice):
    answer = serve("GET", reverse("games:lobby"), user=alice, headers={"Accept-Encoding": "gzip"})

    assert answer.status == 200
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["content-encoding"] == "gzip"
    assert 'class="site-header"' in gzip.decompress(answer.body).decode()


def test_static_files_come_from_whitenoise_with_the_policy(serve, settings):
    # WhiteNoise reads its settings when the handler is built: the files from the finders, as
    # under DEBUG (the tests have no collected STATIC_ROOT).
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True

    answer = serve("GET", "/static/js/site.js")

    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "content-security-policy" in answer.headers
    assert answer.body  # the file itself


def test_the_event_stream_is_served_from_the_loop_through_the_sync_chain(alice, bob, settings,
                                                                         no_connection_closing):
    """The one async view (games/views/live.py) runs on the event loop (its hub lives there),
    reached from the chain's thread, and its stream is sent as it comes."""
    settings.LIVE_REDIS_URL = redis_url_or_skip()
    settings.LIVE_CHANNEL_PREFIX = f"test-asgi-{alice.pk}-{bob.pk}"
    game = start_game(alice, bob)
    signed_in = Client()
    signed_in.force_login(alice)
    headers = {"Cookie": f"sessionid={signed_in.cookies['sessionid'].value}"}
    url = reverse("games:game_events", args=[game.pk])

    answer = async_to_sync(_site)(config.asgi.ASGIHandler(), "GET", url, headers, chunks=1)

    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/event-stream")
    assert "content-encoding" not in answer.headers
    assert answer.body == f"retry: 3000\nevent: version\ndata: {game.version}\n\n".encode()

