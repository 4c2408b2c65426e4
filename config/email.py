"""How the site sends e-mail in production: through an e-mail service provider with
django-anymail (``EMAIL_PROVIDER`` and its key), or plain SMTP (``EMAIL_HOST``), or the
console when neither is set. Anymail's tracking webhooks (bounces, complaints) are under
/anymail/<provider>/tracking/, behind HTTP basic auth with ``ANYMAIL_WEBHOOK_SECRET``.
"""

from __future__ import annotations

import secrets
from html.parser import HTMLParser
from typing import Any, NamedTuple

from django.core.exceptions import ImproperlyConfigured
from django.core.mail.backends import console
from django.utils.html import strip_tags

from config.env import env_choice, env_str


class Provider(NamedTuple):
    backend: str
    key_setting: str  # the ANYMAIL setting the provider's API key goes in
    # A provider that signs its webhooks: the setting of the signing key, if any.
    webhook_key_setting: str | None = None


# The providers whose anymail backends need nothing beyond `requests` (no SDK of their own).
PROVIDERS = {
    "mailgun": Provider("anymail.backends.mailgun.EmailBackend", "MAILGUN_API_KEY", "MAILGUN_WEBHOOK_SIGNING_KEY"),
    "postmark": Provider("anymail.backends.postmark.EmailBackend", "POSTMARK_SERVER_TOKEN"),
    "sendgrid": Provider("anymail.backends.sendgrid.EmailBackend", "SENDGRID_API_KEY"),
    "brevo": Provider("anymail.backends.brevo.EmailBackend", "BREVO_API_KEY"),
    "sparkpost": Provider("anymail.backends.sparkpost.EmailBackend", "SPARKPOST_API_KEY"),
    "mandrill": Provider("anymail.backends.mandrill.EmailBackend", "MANDRILL_API_KEY", "MANDRILL_WEBHOOK_KEY"),
    # Anymail's own test backend: records messages in django.core.mail.outbox (for tests).
    "test": Provider("anymail.backends.test.EmailBackend", "TEST_API_KEY"),
}


def provider_settings(*, debug: bool) -> dict[str, Any]:
    """EMAIL_PROVIDER, the backend it implies (None: SMTP or the console decide) and ANYMAIL."""
    provider = env_choice("EMAIL_PROVIDER", "", ["", *PROVIDERS])
    webhook_secret = env_str("ANYMAIL_WEBHOOK_SECRET", "")
    if webhook_secret and ":" not in webhook_secret:
        raise ImproperlyConfigured("ANYMAIL_WEBHOOK_SECRET must be user:password (HTTP basic auth).")
    anymail: dict[str, Any] = {
        # Without a configured secret the webhooks still demand one, which nobody knows: no one
        # can post forged bounces to a site that does not use them.
        "WEBHOOK_SECRET": webhook_secret or f"unset:{secrets.token_urlsafe(32)}",
    }
    backend = None
    if provider:
        spec = PROVIDERS[provider]
        key = env_str("EMAIL_PROVIDER_KEY", "")
        if not key and provider != "test":
            raise ImproperlyConfigured(f"EMAIL_PROVIDER={provider} needs EMAIL_PROVIDER_KEY (its API key).")
        if not webhook_secret and not debug and provider != "test":
            raise ImproperlyConfigured(f"EMAIL_PROVIDER={provider} needs ANYMAIL_WEBHOOK_SECRET (user:password) "
                                       "for its bounce and complaint webhooks.")
        anymail[spec.key_setting] = key
        webhook_key = env_str("EMAIL_PROVIDER_WEBHOOK_KEY", "")
        if spec.webhook_key_setting and webhook_key:
            anymail[spec.webhook_key_setting] = webhook_key
        sender_domain = env_str("MAILGUN_SENDER_DOMAIN", "")
        if provider == "mailgun" and sender_domain:
            anymail["MAILGUN_SENDER_DOMAIN"] = sender_domain
        backend = spec.backend
    return {"EMAIL_PROVIDER": provider, "backend": backend, "ANYMAIL": anymail}


class _Links(HTMLParser):
    """The targets of an HTML part's links, in order, each once."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href and href not in self.links:
                self.links.append(href)


class ConsoleEmailBackend(console.EmailBackend):
    """Django's console backend (the default without a provider or SMTP, bin/run), printing
    what a developer reads: the headers, the text part and the HTML part's links, where Django's
    prints the whole MIME message, its HTML part included (some 200 lines a mail, issue 26)."""

    def write_message(self, message) -> None:
        lines = [f"From: {message.from_email}", f"To: {', '.join(message.to)}"]
        for name, addresses in (("Cc", message.cc), ("Bcc", message.bcc), ("Reply-To", message.reply_to)):
            if addresses:
                lines.append(f"{name}: {', '.join(addresses)}")
        lines.append(f"Subject: {message.subject}")
        lines += [f"{name}: {value}" for name, value in message.extra_headers.items()]
        html = [content for content, mimetype in getattr(message, "alternatives", []) if mimetype == "text/html"]
        if message.content_subtype == "html":
            html.insert(0, message.body)
            text = strip_tags(message.body)
        else:
            text = message.body
        lines += ["", text.strip()]
        links = _Links()
        for part in html:
            links.feed(str(part))
        if links.links:
            lines += ["", "Links of the HTML part:", *(f"  {link}" for link in links.links)]
        for attachment in message.attachments:
            name = getattr(attachment, "filename", None) or getattr(attachment, "get_filename", lambda: None)()
            lines.append(f"(attached: {name or 'a part without a name'})")
        self.stream.write("\n".join(lines) + "\n")
        self.stream.write("-" * 79 + "\n")
