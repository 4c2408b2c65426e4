from __future__ import annotations

import time
import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation

from accounts.security import SecondFactorRequired, lacks_required_factor

# The time (epoch seconds) this session's row in allauth.usersessions was last touched.
SEEN_KEY = "accounts_session_seen"


class UserPreferencesMiddleware:
    """Activate a signed-in user's language and time zone for the request.

    It runs after LocaleMiddleware, which has picked the browser's language; the user's own
    choice overrides it. Anonymous visitors keep the browser's language and the site's zone.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                # A zone removed from the tz database since it was saved: fall back quietly.
                timezone.deactivate()
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def second_factor_page(request: HttpRequest) -> HttpResponse:
    """The page a moderator or staff member without a second factor gets instead of the tools."""
    return render(request, "accounts/second_factor_required.html", status=403)


class SecondFactorRequiredMiddleware:
    """The admin, and any view that raises ``SecondFactorRequired`` (the moderators' pages,
    moderation/views.py), answer a moderator or staff member who has no second factor with a
    page that explains and links to its setup (issue 31)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.admin_prefix = "/admin/"

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(self.admin_prefix):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and lacks_required_factor(user):
                return second_factor_page(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, SecondFactorRequired):
            return second_factor_page(request)
        return None


class SessionActivityMiddleware:
    """Keeps each signed-in session's "last used" (allauth.usersessions' row) roughly current.

    allauth's own tracking writes on every request; here a session signed in through allauth
    carries the time its row was last touched (``SEEN_KEY``, set at sign-in by accounts/signals.py)
    and the row is written again only when that is ``SESSION_SEEN_EVERY`` seconds old: no query
    at all on the other requests, moves and polls included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is None or user is None or not user.is_authenticated:
            return response
        seen = session.get(SEEN_KEY)
        now = time.time()
        if seen is not None and now - seen >= settings.SESSION_SEEN_EVERY and session.session_key:
            from allauth.usersessions.models import UserSession

            UserSession.objects.filter(session_key=session.session_key, user_id=user.pk).update(
                last_seen_at=timezone.now())
            session[SEEN_KEY] = now
        return response
