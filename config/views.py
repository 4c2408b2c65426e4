"""Site-wide views: the answer to a rate-limited request."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# Programs match the English; people read it in their language.
TOO_MANY = gettext_noop("Too many requests: wait a minute, then try again.")


def rate_limited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """429 for a request over one of our rate limits (RATELIMIT_VIEW). Programs asking for JSON
    get JSON (as the move endpoint answers them); htmx requests get the same page, which htmx
    does not swap in: the page's error bar (static/js/errors.js) says what happened instead."""
    if not getattr(request, "htmx", False) and request.get_preferred_type(
        ["text/html", "application/json"]
    ) == "application/json":
        return JsonResponse({"error": TOO_MANY, "message": _(TOO_MANY)}, status=429)
    response = render(request, "429.html", {"message": _(TOO_MANY)}, status=429)
    response["Retry-After"] = "60"
    return response
