"""Where the site may send a channel's messages, and how long a send may take (issue 29).

- Only https. For the named providers the site builds the address itself from constants
  (``PROVIDER_BASES``) and keeps only the ids and tokens of what the host pasted, so a message
  can only go to Discord, Slack or Telegram.
- A generic webhook's address is the host's: https, no user name or password in it, no
  address literal, and before every send (each connection, redirects not followed) its name is
  resolved and every address checked: private, loopback, link-local, shared, reserved or
  multicast addresses are refused (server-side request forgery), and the connection goes to
  the address that was checked (no second lookup for a rebinding DNS server to answer).
- A time budget per send (``SEND_BUDGET`` seconds in all; answers larger than 64 KB cut).

Tests point the providers at fake servers on localhost, over https with a certificate of
their own, through three settings that are read from code only, never from the environment,
and that production leaves unset:
``CHATS_TEST_ENDPOINTS`` ({provider: "https://localhost:PORT"}), ``CHATS_TEST_CA_FILE`` (the
fake servers' certificate) and ``CHATS_TEST_OPEN_HOSTS`` (host names whose loopback addresses a
webhook may reach; other private addresses stay refused).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import ssl
import time
from urllib.parse import urlsplit

import httpcore
import httpx
from django.conf import settings
from django.utils.translation import gettext as _

SEND_BUDGET = 8.0  # seconds for one send: resolve, connect, TLS, request and answer
TIMEOUT = httpx.Timeout(5.0, connect=3.0, pool=1.0)
MAX_ANSWER = 64 * 1024

PROVIDER_BASES = {
    "discord": "https://discord.com",
    "slack": "https://slack.com",
    "telegram": "https://api.telegram.org",
}
DISCORD_HOSTS = {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com",
                 "ptb.discordapp.com", "canary.discordapp.com"}


class Refused(Exception):
    """An address the site will not send to; the message is for the host."""


def base(provider: str) -> str:
    endpoints = getattr(settings, "CHATS_TEST_ENDPOINTS", None) or {}
    return endpoints.get(provider, PROVIDER_BASES.get(provider, "")).rstrip("/")


def ssl_context() -> ssl.SSLContext | bool:
    ca = getattr(settings, "CHATS_TEST_CA_FILE", None)
    if ca:
        return ssl.create_default_context(cafile=str(ca))
    return True


def _open_hosts() -> set[str]:
    return {h.lower() for h in (getattr(settings, "CHATS_TEST_OPEN_HOSTS", None) or ())}


def check_webhook_url(url: str) -> str:
    """The address as it will be used, or Refused with the reason (checked when the host saves
    it; the addresses it resolves to are checked again at every send)."""
    url = (url or "").strip()
    if len(url) > 500:
        raise Refused(_("The address is too long."))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(_("This is not a web address.")) from None
    if parts.scheme != "https":
        raise Refused(_("Only https addresses are accepted."))
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise Refused(_("No user name or password in the address: the signature proves the sender."))
    host = (parts.hostname or "").lower()
    if not host:
        raise Refused(_("This is not a web address."))
    if port is not None and not 0 < port < 65536:
        raise Refused(_("This is not a web address."))
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not _public(literal):
        raise Refused(_("This address is on a private network."))
    if (host == "localhost" or host.endswith((".localhost", ".local", ".internal"))) and host not in _open_hosts():
        raise Refused(_("This address is on a private network."))
    if any(host == d or host.endswith("." + d) for d in (*DISCORD_HOSTS, "slack.com", "telegram.org")):
        raise Refused(_("This is a Discord, Slack or Telegram address: choose that provider instead."))
    return url


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def allowed_address(host: str, ip: str) -> bool:
    address = ipaddress.ip_address(ip.split("%", 1)[0])
    if _public(address):
        return True
    # Tests only: the fake webhook server on this machine, by the name the test gave it.
    return address.is_loopback and host.lower() in _open_hosts()


class _GuardedBackend(httpcore.SyncBackend):
    """Resolves the host itself, refuses it unless every address is allowed, and connects to
    the address it checked (TLS still verifies the certificate against the host's name)."""

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as error:
            raise httpcore.ConnectError(f"cannot resolve the host ({error.strerror or error})") from None
        addresses = list(dict.fromkeys(info[4][0] for info in infos))
        if not addresses or not all(allowed_address(host, a) for a in addresses):
            raise RefusedConnect("the host resolves to a private or reserved address")
        error: Exception | None = None
        for address in addresses:  # (each one checked above; the first that answers)
            try:
                return super().connect_tcp(address, port, timeout=timeout, local_address=local_address,
                                           socket_options=socket_options)
            except httpcore.ConnectError as failed:
                error = failed
        raise error or httpcore.ConnectError("cannot connect")


class RefusedConnect(httpcore.ConnectError):
    pass


class _GuardedTransport(httpx.HTTPTransport):
    def __init__(self, verify) -> None:
        super().__init__(verify=verify, retries=0)
        # The same pool httpx builds, with the guarded network backend (httpx has no public
        # parameter for one; tests/chats/test_safety.py proves the guard is in the path).
        ctx = verify if isinstance(verify, ssl.SSLContext) else httpx.create_ssl_context()
        self._pool = httpcore.ConnectionPool(ssl_context=ctx, max_connections=1, retries=0,
                                             network_backend=_GuardedBackend())


def client(*, guarded: bool) -> httpx.Client:
    """An httpx client for one send: redirects never followed (a redirect could lead anywhere),
    no proxy from the environment; ``guarded`` (the generic webhook) checks every address."""
    verify = ssl_context()
    if guarded:
        return httpx.Client(transport=_GuardedTransport(verify), timeout=TIMEOUT, follow_redirects=False,
                            trust_env=False)
    return httpx.Client(verify=verify, timeout=TIMEOUT, follow_redirects=False, trust_env=False)


def send(http: httpx.Client, method: str, url: str, **kwargs) -> tuple[int, dict[str, str], bytes]:
    """One request within the time budget: status, headers and at most MAX_ANSWER bytes."""
    deadline = time.monotonic() + SEND_BUDGET
    with http.stream(method, url, **kwargs) as answer:
        body = b""
        for chunk in answer.iter_bytes():
            body += chunk
            if len(body) > MAX_ANSWER or time.monotonic() > deadline:
                break
        if time.monotonic() > deadline:
            raise httpx.ReadTimeout("the send took longer than its time budget")
        return answer.status_code, {k.lower(): v for k, v in answer.headers.items()}, body[:MAX_ANSWER]


# ---------------------------------------------------------------------------------------------
# No token in the logs
# ---------------------------------------------------------------------------------------------

_TOKENS = re.compile(r"(/bot)[0-9]+:[A-Za-z0-9_-]+|(/webhooks/[0-9]+/)[A-Za-z0-9_.-]+")


class _Redact(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # (a record that cannot format is left to logging)
            return True
        if _TOKENS.search(message):
            record.msg = _TOKENS.sub(lambda m: (m.group(1) or m.group(2)) + "[redacted]", message)
            record.args = ()
        return True


def install_log_redaction() -> None:
    for name in ("httpx", "httpcore", "slack_sdk"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _Redact) for f in logger.filters):
            logger.addFilter(_Redact())
