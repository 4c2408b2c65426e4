"""A browser page signed in as a user: the session of Django's test client, handed to a fresh
browser context as its cookie (no sign-in form to go through)."""

from __future__ import annotations

from django.conf import settings
from django.test import Client

TIMEOUT_MS = 15000


def signed_in(browser, site: str, user, **options) -> tuple[object, object]:
    """A new browser context (``options``: Playwright's, e.g. viewport, is_mobile) signed in as
    ``user`` on ``site``, and a page of it; the caller closes the context."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return context, page


def at_width(width: int) -> dict:
    """The context options of a desktop (1280) or phone (390) width, 900 high."""
    return {"viewport": {"width": width, "height": 900}, "is_mobile": width < 600}
