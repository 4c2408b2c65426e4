"""The console e-mail backend of the default setup (config/email.py, issue 26 item 28) prints what a
developer reads: the headers, the text part and the HTML part's links, not the whole MIME message
with its HTML (some 200 lines a mail)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from config.email import ConsoleEmailBackend

ROOT = Path(__file__).resolve().parent.parent


def test_the_default_setup_prints_mails_with_this_backend(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "VAR_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.EMAIL_BACKEND)"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "config.email.ConsoleEmailBackend", result.stderr


def _printed(message) -> str:
    stream = io.StringIO()
    ConsoleEmailBackend(stream=stream).send_messages([message])
    return stream.getvalue()


def test_a_mail_prints_its_text_part_and_its_links_not_its_html():
    message = EmailMultiAlternatives(
        subject="[Monopoly] Ünïcode subject",
        body="Hello Dora,\n\nIt is your turn: https://monopoly.example/games/7/\n",
        from_email="Monopoly <noreply@localhost>",
        to=["dora@example.com"],
        headers={"List-Unsubscribe": "<https://monopoly.example/u/abc/>"},
    )
    message.attach_alternative(
        "<html><head><style>body { color: #123456 }</style></head><body><p>Hello Dora,</p>"
        '<p><a href="https://monopoly.example/games/7/">Play</a> · '
        '<a href="https://monopoly.example/u/abc/">Unsubscribe</a> · '
        '<a href="https://monopoly.example/games/7/">again</a></p></body></html>',
        "text/html",
    )

    printed = _printed(message)

    assert "Subject: [Monopoly] Ünïcode subject" in printed  # readable, not =?utf-8?...
    assert "To: dora@example.com" in printed and "List-Unsubscribe: <https://monopoly.example/u/abc/>" in printed
    assert "Hello Dora,\n\nIt is your turn: https://monopoly.example/games/7/" in printed
    links = printed.split("Links of the HTML part:\n", 1)[1].split("\n-----", 1)[0]
    assert links.split() == ["https://monopoly.example/games/7/", "https://monopoly.example/u/abc/"]
    for html_or_mime in ("<html", "<p>", "color: #123456", "Content-Type", "Content-Transfer-Encoding", "=?utf-8?"):
        assert html_or_mime not in printed


def test_an_html_only_mail_prints_its_text_without_tags():
    message = EmailMultiAlternatives(
        subject="Hi",
        body='<p>Go <a href="https://x.example/a">there</a></p>',
        from_email="a@example.com",
        to=["b@example.com"],
    )
    message.content_subtype = "html"

    printed = _printed(message)

    assert "Go there" in printed and "<p>" not in printed
    assert "  https://x.example/a" in printed


@pytest.mark.django_db
def test_a_real_sign_up_mail_shows_its_confirmation_link(client, settings, capsys):
    settings.EMAIL_BACKEND = "config.email.ConsoleEmailBackend"
    client.post(
        reverse("account_signup"),
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a-long-and-unusual-passw0rd",
            "password2": "a-long-and-unusual-passw0rd",
        },
    )

    printed = capsys.readouterr().out
    assert "To: dora@example.com" in printed
    assert re.search(r"https?://testserver/accounts/confirm-email/\S+/", printed), printed
    assert "<html" not in printed.lower() and "Content-Type" not in printed
