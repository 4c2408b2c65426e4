"""Sending a status post to each kind of channel, and editing it in place (issue 29).

Each provider answers the same way: ``create`` returns the new message's reference, ``edit``
changes it; failures are one of four exceptions that chats.delivery acts on:
``RateLimited`` (wait ``retry_after`` seconds: Discord's JSON ``retry_after``, Slack's
``Retry-After`` header, Telegram's ``parameters.retry_after``), ``Transient`` (try again with
backoff), ``Gone`` (the message to edit was deleted: post a new one) and ``Refusal`` (a
credential or place the provider refuses: retrying cannot mend it). Slack goes through its
official SDK (slack-sdk); Discord, Telegram and the webhook through httpx, each send inside the
time budget of chats.safety.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from datetime import UTC, datetime

import httpx
from django.utils.translation import gettext as _

from chats import safety
from chats.message import Status

# Discord: content is limited to 2,000 characters, Slack's text to 40,000, Telegram's to 4,096.
DISCORD_LIMIT = 2000
TELEGRAM_LIMIT = 4096
SIGNATURE_HEADER = "X-Monopoly-Signature"
TIMESTAMP_HEADER = "X-Monopoly-Timestamp"


class DeliveryError(Exception):
    """A send that did not go through; ``str()`` is short and safe to show the host."""


class RateLimited(DeliveryError):
    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited for {retry_after:.0f} s")
        self.retry_after = max(0.0, min(float(retry_after), 3600.0))


class Transient(DeliveryError):
    pass


class Gone(DeliveryError):
    pass


class Refusal(DeliveryError):
    pass


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def render(status: Status, provider: str, mentions: list[str]) -> str:
    """The post's text in the provider's markup."""
    lab = status.labels
    esc = _slack_escape if provider == "slack" else (lambda s: s)
    bold = {"discord": "**{}**", "slack": "*{}*"}.get(provider, "{}")
    lines = [bold.format(esc(f"{status.title} · {lab['round']}"))]
    if status.over:
        lines.append(esc(status.decision))
    else:
        lines.append(esc(lab["turn"]))
        waits = esc(lab["waits"])
        if mentions:
            tag = {"discord": "<@{}>", "slack": "<@{}>", "telegram": "@{}"}[provider]
            waits += " " + " ".join(tag.format(m) for m in mentions)
        lines.append(waits)
        lines.append(esc(status.decision))
        if status.deadline is not None:
            ts = int(status.deadline.timestamp())
            when = {"discord": f"<t:{ts}:f> (<t:{ts}:R>)",
                    "slack": f"<!date^{ts}^{{date_short_pretty}} {{time}}|{_stamp(status.deadline)}>"
                    }.get(provider, _stamp(status.deadline))
            lines.append(f"{esc(lab['deadline'])}: {when}")
    if status.recent:
        lines.append(esc(lab["recent"]) + ":")
        lines += ["• " + esc(line) for line in status.recent]
    lines.append(f"<{status.link}|{esc(lab['open'])}>" if provider == "slack" else status.link)
    return "\n".join(lines)


def _slack_escape(text: str) -> str:
    # Slack's three control characters (a name like "<!channel>" pings nobody).
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _retry_after(headers: dict[str, str], body: dict | None = None) -> float:
    for value in ((body or {}).get("retry_after"), ((body or {}).get("parameters") or {}).get("retry_after"),
                  headers.get("retry-after")):
        try:
            if value is not None:
                return float(value)
        except (TypeError, ValueError):
            continue
    return 30.0


def _json(body: bytes) -> dict:
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _http(call) -> tuple[int, dict, bytes]:
    try:
        return call()
    except httpx.TimeoutException:
        raise Transient("no answer within the time limit") from None
    except httpx.HTTPError as error:
        if isinstance(error.__cause__, safety.RefusedConnect):  # (httpx wraps httpcore's errors)
            raise Refusal(str(error.__cause__)) from None
        raise Transient(f"cannot connect ({type(error).__name__})") from None


def _check(status: int, headers: dict, body: bytes, *, gone_ok: bool = False) -> dict:
    data = _json(body)
    if status == 429:
        raise RateLimited(_retry_after(headers, data))
    if 200 <= status < 300:
        return data
    if gone_ok and status == 404:
        raise Gone("the message was deleted")
    if status in (408, 425) or status >= 500:
        raise Transient(f"the service answered {status}")
    raise Refusal(f"the service refused the message ({status})")


# ---------------------------------------------------------------------------------------------
# Discord: a channel's webhook (no bot needed); PATCH edits the webhook's own message
# ---------------------------------------------------------------------------------------------

DISCORD_URL = re.compile(r"^https://(?P<host>[a-z.]+)/api(?:/v\d+)?/webhooks/(?P<id>\d{5,25})/(?P<token>[A-Za-z0-9_-]{20,120})/?$")


def discord_parse(url: str) -> dict:
    m = DISCORD_URL.match((url or "").strip())
    if m is None or m["host"] not in safety.DISCORD_HOSTS:
        raise safety.Refused(_("This is not a Discord webhook address (https://discord.com/api/webhooks/…)."))
    return {"id": m["id"], "token": m["token"]}


def _discord(creds: dict, text: str, mentions: list[str], ref: str | None) -> str:
    url = f"{safety.base('discord')}/api/webhooks/{creds['id']}/{creds['token']}"
    payload = {"content": text[:DISCORD_LIMIT],
               # Nobody is pinged but the players named: not @everyone, not a role, not a name
               # someone typed into their display name.
               "allowed_mentions": {"parse": [], "users": mentions[:100]}}
    with safety.client(guarded=False) as http:
        if ref:
            status, headers, body = _http(lambda: safety.send(http, "PATCH", f"{url}/messages/{ref}", json=payload))
            _check(status, headers, body, gone_ok=True)
            return ref
        status, headers, body = _http(lambda: safety.send(http, "POST", url, params={"wait": "true"}, json=payload))
        data = _check(status, headers, body)
    if not str(data.get("id", "")).isdigit():
        raise Transient("the service's answer had no message id")
    return str(data["id"])


# ---------------------------------------------------------------------------------------------
# Slack: an app's bot token and a channel id, through slack-sdk (chat.postMessage, chat.update)
# ---------------------------------------------------------------------------------------------

SLACK_TOKEN = re.compile(r"^xoxb-[A-Za-z0-9-]{10,200}$")
SLACK_CHANNEL = re.compile(r"^[CGD][A-Z0-9]{6,20}$")


def _slack(creds: dict, text: str, ref: str | None) -> str:
    from slack_sdk import WebClient
    from slack_sdk.errors import SlackApiError, SlackRequestError

    ctx = safety.ssl_context()
    web = WebClient(token=creds["token"], base_url=f"{safety.base('slack')}/api/", timeout=int(safety.SEND_BUDGET),
                    ssl=ctx if not isinstance(ctx, bool) else None,
                    retry_handlers=[])  # (retries are the delivery task's, with its backoff)
    try:
        if ref:
            channel, ts = ref.split(" ", 1)
            web.chat_update(channel=channel, ts=ts, text=text)
            return ref
        answer = web.chat_postMessage(channel=creds["channel"], text=text, unfurl_links=False, unfurl_media=False)
        return f"{answer['channel']} {answer['ts']}"
    except SlackApiError as error:
        response = error.response
        if response.status_code == 429:
            raise RateLimited(_retry_after({k.lower(): v for k, v in (response.headers or {}).items()})) from None
        code = (response.data or {}).get("error", "") if isinstance(response.data, dict) else ""
        if ref and code in ("message_not_found", "cant_update_message", "edit_window_closed"):
            raise Gone(code) from None
        if response.status_code >= 500 or code in ("internal_error", "fatal_error", "service_unavailable",
                                                    "request_timeout", "ratelimited"):
            raise Transient(f"Slack answered {code or response.status_code}") from None
        raise Refusal(f"Slack refused the message: {code or response.status_code}") from None
    except (SlackRequestError, OSError) as error:
        raise Transient(f"cannot connect ({type(error).__name__})") from None


# ---------------------------------------------------------------------------------------------
# Telegram: a bot's token and a chat (sendMessage, editMessageText), plain text
# ---------------------------------------------------------------------------------------------

TELEGRAM_TOKEN = re.compile(r"^\d{3,15}:[A-Za-z0-9_-]{30,60}$")
TELEGRAM_CHAT = re.compile(r"^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$")


def _telegram(creds: dict, text: str, ref: str | None) -> str:
    url = f"{safety.base('telegram')}/bot{creds['token']}"
    payload = {"chat_id": creds["chat"], "text": text[:TELEGRAM_LIMIT],
               "link_preview_options": {"is_disabled": True}}
    with safety.client(guarded=False) as http:
        if ref:
            status, headers, body = _http(lambda: safety.send(
                http, "POST", f"{url}/editMessageText", json={**payload, "message_id": int(ref)}))
            data = _json(body)
            description = str(data.get("description", ""))
            if status == 400 and "message is not modified" in description:
                return ref
            if status == 400 and "message to edit not found" in description:
                raise Gone("the message was deleted")
            _check(status, headers, body)
            return ref
        status, headers, body = _http(lambda: safety.send(http, "POST", f"{url}/sendMessage", json=payload))
        data = _check(status, headers, body)
    message_id = (data.get("result") or {}).get("message_id")
    if not isinstance(message_id, int):
        raise Transient("the service's answer had no message id")
    return str(message_id)


# ---------------------------------------------------------------------------------------------
# A generic webhook: JSON, signed with HMAC-SHA256 (Matrix bridges, Home Assistant, ntfy, ...)
# ---------------------------------------------------------------------------------------------

def signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=`` and the hex HMAC-SHA256 of "<timestamp>.<body>" under the table's secret: the
    receiver recomputes it, compares in constant time and refuses an old timestamp (replays)."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def webhook_payload(status: Status, text: str, *, post_id: str, action: str) -> dict:
    return {
        "type": "monopoly.status", "action": action, "post": post_id, "text": text,
        "game": {"title": status.title, "round": status.round, "turn": status.whose_turn,
                 "waiting": status.waiting, "decision": status.decision, "over": status.over,
                 "deadline": status.deadline.isoformat() if status.deadline else None,
                 "recent": status.recent, "url": status.link},
    }


def _webhook(creds: dict, payload: dict) -> None:
    url = safety.check_webhook_url(creds["url"])
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    ts = str(int(time.time()))
    headers = {"Content-Type": "application/json", TIMESTAMP_HEADER: ts,
               SIGNATURE_HEADER: signature(creds["secret"], ts, body), "User-Agent": "Monopoly-play-by-web"}
    with safety.client(guarded=True) as http:
        status, answer_headers, answer = _http(lambda: safety.send(http, "POST", url, content=body, headers=headers))
    _check(status, answer_headers, answer)


# ---------------------------------------------------------------------------------------------
# The one door
# ---------------------------------------------------------------------------------------------

def deliver(provider: str, creds: dict, status: Status, mentions: list[str], *, ref: str | None,
            post_id: str) -> str:
    """Create (``ref`` None) or edit the status post; the message's reference."""
    if not creds:
        raise Refusal("the channel's credentials cannot be read: connect it again")
    if provider == "webhook":
        text = render(status, "webhook", [])
        _webhook(creds, webhook_payload(status, text, post_id=post_id, action="update" if ref else "create"))
        return post_id
    text = render(status, provider, mentions)
    if provider == "discord":
        return _discord(creds, text, mentions, ref)
    if provider == "slack":
        return _slack(creds, text, ref)
    if provider == "telegram":
        return _telegram(creds, text, ref)
    raise Refusal("unknown provider")


def send_test(provider: str, creds: dict, text: str) -> None:
    """One plain message that proves the connection (the table page's button)."""
    if provider == "webhook":
        _webhook(creds, {"type": "monopoly.test", "text": text})
    elif provider == "discord":
        _discord(creds, text, [], None)
    elif provider == "slack":
        _slack(creds, _slack_escape(text), None)
    elif provider == "telegram":
        _telegram(creds, text, None)
    else:
        raise Refusal("unknown provider")
