"""The site's ASGI application (uvicorn; bin/run, README "Production").

Django's ASGI handler builds the middleware chain for an async server: each middleware that
cannot run async, and each of Django's own (MiddlewareMixin), is reached through asgiref's
sync_to_async or async_to_sync, and every such switch is a hop between the event loop and a
thread. Every middleware of ours and of the libraries we use can run synchronously, so the chain
ran as one synchronous block already, but it went back to the event loop at its inner end
(async_to_sync, to Django's async view path) only to hop into the thread again for the CSRF
check's process_view and again for the view: six hops a request where three do. ``ASGIHandler``
here builds the chain synchronously (as the WSGI handler does) and enters it once, in the
request's thread; an async view (the game's event stream, games/views/live.py) is still awaited
on the event loop (Django's sync path runs it with async_to_sync, which hands it to the loop),
and its streamed answer is sent from the loop as before. What is left: Django's request_started
signal, the chain, and the answer's close (request_finished), each one hop.
"""

import os

from asgiref.sync import sync_to_async
from django.core.handlers import asgi
from django.http import HttpRequest, HttpResponseBase

from config import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class ASGIHandler(asgi.ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # BaseHandler.get_response: the chain, the request's close at the answer's, and the log
        # line of an error answer, all in the request's thread (thread_sensitive: the same one
        # as request_started's and request_finished's receivers).
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> ASGIHandler:
    """django.core.asgi.get_asgi_application, with the handler above."""
    import django

    django.setup(set_prefix=False)
    heap.install()  # (the heap frozen once warm: config/heap.py)
    return ASGIHandler()


application = get_asgi_application()
