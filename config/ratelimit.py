"""Rate limits of our own endpoints (django-ratelimit), beside allauth's on the account pages."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.decorators import ratelimit


def client_ip(request: HttpRequest) -> str:
    """The address limits are counted by (RATELIMIT_IP_META_KEY): behind our HTTPS proxy the
    last hop of X-Forwarded-For, the one the proxy added (what allauth counts by too, with
    ALLAUTH_TRUSTED_PROXY_COUNT = 1); else the connection's own address."""
    if settings.BEHIND_HTTPS_PROXY:
        forwarded = request.headers.get("x-forwarded-for", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META["REMOTE_ADDR"]


def rate_from_setting(name: str) -> Callable[[str, HttpRequest], str]:
    """A rate for ``@ratelimit(rate=...)`` read from the setting ``name`` at each request (so
    that a deployment, or a test, can change it)."""

    def rate(group: str, request: HttpRequest) -> str:
        return getattr(settings, name)

    return rate


def limit(setting: str) -> Callable:
    """Our limit on a view that writes: counted per signed-in user (per address for visitors),
    POSTs only; over it, django-ratelimit raises Ratelimited and config.views answers 429."""
    return ratelimit(key="user_or_ip", rate=rate_from_setting(setting), method="POST", block=True)
