"""A form the site cannot read is a 400 with the site's error page and one log line.

Django refuses a urlencoded form in another charset than UTF-8; its 400 and 500 handlers then
re-ran the CSRF check, which read the form again and raised again: a 500 and three tracebacks
(config/middleware.py reads the form first).
"""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.games.play_helpers import start_game

LATIN1 = "application/x-www-form-urlencoded; charset=latin-1"


@pytest.fixture
def browser_client(alice) -> Client:
    """A client that checks CSRF as browsers meet it: signed in, with the cookie and token."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(alice)
    client.get(reverse("games:lobby"))
    return client


def _urls(alice, bob) -> list[str]:
    game = start_game(alice, bob)
    return [
        reverse("account_login"),
        reverse("account_signup"),
        reverse("games:game_act", args=[game.pk]),
        reverse("games:record_upload"),
        reverse("set_language"),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_latin1_form_is_a_400_with_the_site_page_and_one_log_line(browser_client, alice, bob, settings, caplog,
                                                                   debug):
    settings.DEBUG = debug
    token = browser_client.cookies["csrftoken"].value
    body = f"csrfmiddlewaretoken={token}&login=Jos%E9&password=x&language=es&type=roll".encode()
    urls = _urls(alice, bob)
    versions = list(Game.objects.values_list("pk", "version"))

    for url in urls:
        caplog.clear()
        with caplog.at_level(logging.INFO):
            response = browser_client.post(url, data=body, content_type=LATIN1)

        assert response.status_code == 400, url
        page = response.content.decode()
        assert "Request not understood" in page and 'class="site-header"' in page, url
        problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(problems) == 1, [r.getMessage() for r in problems]
        assert problems[0].exc_info is None
        assert "Unreadable form refused (400)" in problems[0].getMessage()
        assert url in problems[0].getMessage()
    # Nothing was changed by any of them.
    assert list(Game.objects.values_list("pk", "version")) == versions


@pytest.mark.django_db
def test_a_form_over_the_size_limit_stays_a_400_with_one_log_line(browser_client, settings, caplog):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    token = browser_client.cookies["csrftoken"].value

    response = browser_client.post(
        reverse("set_language"),
        data=f"csrfmiddlewaretoken={token}&language=es&next=/{'x' * 5000}",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 400
    assert "Request not understood" in response.content.decode()
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1


@pytest.mark.django_db
def test_a_utf8_form_is_read_as_before(browser_client):
    token = browser_client.cookies["csrftoken"].value

    response = browser_client.post(
        reverse("set_language"),
        data=f"csrfmiddlewaretoken={token}&language=es&next=/",
        content_type="application/x-www-form-urlencoded; charset=utf-8",
    )

    assert response.status_code == 302
