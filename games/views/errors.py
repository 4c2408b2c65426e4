"""The site's own pages for refused requests that never reach a view's form handling: a form
whose CSRF token no longer fits (settings.CSRF_FAILURE_VIEW) and a request too malformed to read
(config/urls.py's handler400: too many fields, a body too large). Django's own answers there are
bare pages outside the site's layout; these say what happened and where to go, in the reader's
language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token


def refused_page(request: HttpRequest, *, reason: str, status: int, back_url: str = "",
                 back_label: str = "") -> HttpResponse:
    """The 403 page with the reason of this refusal (and a way back), for a form sent without
    JavaScript."""
    context = {"reason": reason, "back_url": back_url, "back_label": back_label}
    return render(request, "403.html", context, status=status)


@requires_csrf_token
def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # Django's reason ("CSRF token missing") is for developers: people get what to do, and a
    # way back to the page the form was on (when the browser said which, on this site).
    referer = request.headers.get("Referer", "")
    back = referer if url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()) else ""
    return refused_page(request, status=403, back_url=back, back_label=_("Reload that page"), reason=_(
        "The form was sent from a page that is out of date (you may have signed in or out in "
        "another tab). Reload the page and try again."))


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "400.html", status=400)
