"""Site-wide middleware of our own."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware
from django.shortcuts import render
from django.utils.log import log_response


class UnreadableFormMiddleware:
    """Answer 400 with the site's error page to a POST whose form cannot be read.

    A form declared in another charset than UTF-8 (``application/x-www-form-urlencoded;
    charset=latin-1``) makes ``request.POST`` raise BadRequest, and raise again at every later
    read. Django's 400 and 500 handlers re-run the CSRF check, which reads the form again: the
    400 became a 500 with every traceback logged three times over. Reading the form here, before
    any view and before ``CsrfViewMiddleware.process_view``, turns that (and the other refusals of
    a body: too large, too many fields) into one answer and one log line.

    Multipart bodies are left to the view that reads them: an upload may be refused by its size
    before anything parses it (games.views.records.record_upload), and Django already marks a broken
    multipart body as read (later reads see an empty form), so it cannot raise twice.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.content_type != "multipart/form-data":
            try:
                request.POST  # noqa: B018 (read for its side effect: parsing the body)
            except (BadRequest, SuspiciousOperation, MultiPartParserError) as error:
                # Later reads (templates, error handlers) see an empty form instead of raising.
                request._mark_post_parse_error()
                response = render(request, "400.html", status=400)
                # django.request's one line for this 400 (it then logs no other), with the reason.
                log_response("Unreadable form refused (400): %s: %s", request.path, error,
                             response=response, request=request)
                return response
        return self.get_response(request)


class GZipMiddleware(DjangoGZipMiddleware):
    """Django's gzip of HTML answers (a game fragment shrinks about six times), except for streamed
    answers: the game's event stream (games/views/live.py) must reach the page event by event,
    and Django would compress each of its chunks as a gzip stream of its own. Static files come
    compressed from WhiteNoise already.

    BREACH (secrets guessed from the size of compressed answers that also reflect what the
    attacker sent): the CSRF token in every form is masked afresh for each answer (Django's
    ``get_token`` salts it), and Django's gzip adds up to 100 random bytes to each answer
    (Heal-the-Breach, ``max_random_bytes``), so the sizes give nothing away."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.streaming:
            return response
        return super().process_response(request, response)
