"""The game's event stream (issue 12): server-sent events that tell an open page "the game is at
version V", so that it fetches the game only when it has moved (static/js/game.js, with htmx's
SSE extension). games/live.py holds the one Redis subscription they share.

An async view: under ASGI (uvicorn) an open stream is a waiting coroutine, not a worker. The
stream opens with the game's current version (a page that reconnects catches up at once), then
sends a version when one is published ("chat" when the game's chat has news: the chat's lines
are fetched, moderation/chat/lines.html) and a comment every LIVE_HEARTBEAT_SECONDS; for a player
the heartbeat also marks them present (notifications/presence.py: no e-mail while the page is
open), as each poll did. Without Redis, or under WSGI, the URL answers 404 and the page polls; while this
process has no subscription, 503 (the page polls, and the extension retries later).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from games import live
from games.models import Game
from games.selectors import visible_game
from notifications import presence

# The browser waits this long before reconnecting a stream that dropped (the SSE "retry" field).
RETRY_MS = 3000


def _visible(user, game_id: int) -> tuple[int, bool]:
    """The game's version, and whether the viewer plays in it; 404 where the page would be
    (the page's own rule: selectors.visible_game), and for a game that is over (its page does
    not listen: nothing more happens)."""
    seen = visible_game(game_id=game_id, user=user)
    if seen is None or seen.game.status != Game.Status.ACTIVE:
        raise Http404("no such game")
    return seen.game.version, seen.me is not None


def _released(read):
    """``read``, then this thread's database connection given back (to the pool, or closed): an
    open stream must not hold a connection for hours. (Not inside a transaction: a test's.)"""
    def run(*args, **kwargs):
        try:
            return read(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()
    return run


@require_GET
async def events(request: HttpRequest, game_id: int) -> HttpResponse:
    if not live.pushes_to(request):
        raise Http404("no push on this site: the page polls")
    user = await request.auser()
    version, playing = await sync_to_async(_released(_visible))(user, game_id)
    hub = live.hub()
    try:
        listener = await hub.join(game_id)
    except live.Unavailable:
        return HttpResponse("push is unavailable: the page polls", status=503, content_type="text/plain")
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    mark = sync_to_async(_released(presence.seen))

    async def stream() -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MS}\nevent: version\ndata: {version}\n\n"
            if playing:
                await mark(user_id=user.pk, game_id=game_id)
            beats = 0
            while True:
                try:
                    heard = await listener.next(heartbeat)
                except live.Unavailable:
                    return
                if heard is None:
                    beats += 1
                    yield ": heartbeat\n\n"
                    # Presence lasts ACTIVE_SECONDS: marked every other heartbeat (60 s).
                    if playing and beats % 2 == 0:
                        await mark(user_id=user.pk, game_id=game_id)
                    continue
                new_version, chat = heard
                if new_version is not None:
                    yield f"event: version\ndata: {new_version}\n\n"
                if chat:
                    yield "event: chat\ndata: 1\n\n"
        finally:
            hub.leave(game_id, listener)

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    # A proxy in front (nginx) must pass each event on at once.
    response["X-Accel-Buffering"] = "no"
    return response
