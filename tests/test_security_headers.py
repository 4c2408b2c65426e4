"""Production settings pass `check --deploy`; every answer carries a strict Content-Security-
Policy, which the pages keep: no inline script, no on*= handler, no eval for htmx."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from tests.games.play_helpers import start_game

ROOT = Path(__file__).resolve().parent.parent


def _deploy_check(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DEBUG", "SECRET_KEY"))}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50),
             "ALLOWED_HOSTS": "monopoly.example", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _deploy_check()

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_turning_hsts_off_is_reported_by_check_deploy():
    # The settings are the environment's: a deployment that turns HSTS off hears about it.
    result = _deploy_check(SECURE_HSTS_SECONDS="0", SECURE_SSL_REDIRECT="false")

    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout
    assert "security.W008" in result.stderr + result.stdout


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.django_db
def test_every_page_sends_a_strict_content_security_policy(client):
    response = client.get(reverse("games:lobby"))
    policy = _policy(response)

    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src-elem"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]
    # Error pages and allauth's pages too.
    assert "Content-Security-Policy" in client.get("/no-such-page/")
    assert "Content-Security-Policy" in client.get(reverse("account_login"))


@pytest.mark.django_db
def test_production_answers_redirect_to_https_and_send_hsts(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000

    plain = client.get(reverse("account_login"))
    secure = client.get(reverse("account_login"), secure=True)

    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


class _InlineCode(HTMLParser):
    """What a strict policy would block: inline scripts, on*= handlers, hx-on, <style>."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.htmx_config: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> element")
        if tag == "meta" and names.get("name") == "htmx-config":
            self.htmx_config = names["content"]
        for name in names:
            if name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"{tag} {name}=")
            if name in {"href", "action", "formaction"} and (names[name] or "").lower().startswith("javascript:"):
                self.found.append(f"{tag} {name}=javascript:")


@pytest.mark.django_db
def test_the_pages_hold_no_inline_code_and_htmx_runs_without_eval(client, alice, bob):
    game = start_game(alice, bob)
    anonymous = [reverse("account_login"), reverse("account_signup"), reverse("games:lobby"),
                 reverse("games:record_upload"), "/no-such-page/"]
    signed_in = [reverse("games:table_new"), reverse("games:table", args=[game.table.pk]),
                 reverse("games:game", args=[game.pk]), reverse("games:my_games"),
                 reverse("accounts:profile"), reverse("games:game_log", args=[game.pk])]
    pages = [(url, None) for url in anonymous] + [(url, alice) for url in signed_in]

    for url, user in pages:
        if user is not None:
            client.force_login(user)
        parser = _InlineCode()
        parser.feed(client.get(url, follow=True).content.decode())

        assert parser.found == [], url
        assert parser.htmx_config is not None, url
        config = json.loads(parser.htmx_config)
        assert config["allowEval"] is False, url
        assert config["includeIndicatorStyles"] is False, url


def test_no_template_holds_inline_script_or_handlers():
    # Templates of pages not rendered above (e-mails are exempt: mail clients ignore CSP).
    for path in (ROOT / "templates").rglob("*.html"):
        if "emails" in path.parts or "email" in path.parts:
            continue
        parser = _InlineCode()
        parser.feed(path.read_text())
        assert parser.found == [], path
