"""Fake Discord, Slack, Telegram and webhook servers on localhost, over https (a certificate
made for the run), for the group chats' tests and bench/channels.py.

One threaded server answers all four APIs at their own paths and checks each request as the
real service would: Discord's webhook path, its ``allowed_mentions`` and the PATCH of a message
it made; Slack's bot token and channel; Telegram's bot token and the message it edits; the
webhook's HMAC-SHA256 signature. Whatever it finds wrong is kept in ``problems`` (a test asserts
there are none). ``rate_limit(provider, seconds)`` answers that provider's next request with its
429, and ``problems`` notes any request that comes back before the time it asked for.
``down(provider)`` answers 503 until ``up(provider)``.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import ipaddress
import json
import re
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.processes import serving_thread

DISCORD_ID, DISCORD_TOKEN = "112233445566778899", "T" * 68
SLACK_TOKEN, SLACK_CHANNEL = "xoxb-1111-2222-abcdefghijkl", "C0123ABCD"
TELEGRAM_TOKEN, TELEGRAM_CHAT = "123456789:" + "A" * 35, "-1001234567890"
WEBHOOK_SECRET = "s3cret-signing-key-0123456789"


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1: (certificate, key) files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


@dataclass
class Request:
    provider: str
    method: str
    path: str
    body: dict
    headers: dict
    at: float
    kind: str = ""  # "create", "edit", "test"
    message: str = ""  # the message id it made or edited
    text: str = ""
    mentions: list[str] = field(default_factory=list)
    status: int = 200


class FakeChats:
    def __init__(self, clock=time.monotonic) -> None:
        self.requests: list[Request] = []
        self.problems: list[str] = []
        self.messages: dict[str, dict[str, str]] = {"discord": {}, "slack": {}, "telegram": {}, "webhook": {}}
        self._limits: dict[str, float] = {}  # provider -> seconds to ask for on its next request
        self._not_before: dict[str, float] = {}
        self._down: set[str] = set()
        self._lock = threading.Lock()
        self._next = 1000
        self.clock = clock
        self._folder = tempfile.TemporaryDirectory()
        self.cert, key = make_certificate(Path(self._folder.name))
        handler = type("Handler", (_Handler,), {"fake": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.base = f"https://localhost:{self.port}"
        self._thread = serving_thread(self.server)

    def __enter__(self) -> FakeChats:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._folder.cleanup()

    def settings(self) -> dict:
        return {"CHATS_TEST_ENDPOINTS": {p: self.base for p in ("discord", "slack", "telegram")},
                "CHATS_TEST_CA_FILE": str(self.cert), "CHATS_TEST_OPEN_HOSTS": ["localhost"]}

    @property
    def webhook_url(self) -> str:
        return f"{self.base}/hook"

    def rate_limit(self, provider: str, seconds: float) -> None:
        self._limits[provider] = seconds

    def down(self, provider: str) -> None:
        self._down.add(provider)

    def up(self, provider: str) -> None:
        self._down.discard(provider)

    def of(self, provider: str, status: int | None = 200) -> list[Request]:
        return [r for r in self.requests if r.provider == provider and (status is None or r.status == status)]

    def new_id(self) -> int:
        with self._lock:
            self._next += 1
            return self._next


class _Handler(BaseHTTPRequestHandler):
    fake: FakeChats
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        self._handle()

    def do_PATCH(self) -> None:
        self._handle()

    def _answer(self, status: int, body: dict, headers: dict | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _handle(self) -> None:
        fake = self.fake
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path = urlsplit(self.path).path
        provider = ("discord" if path.startswith("/api/webhooks/") else "slack" if path.startswith("/api/chat.")
                    else "telegram" if path.startswith("/bot") else "webhook" if path == "/hook" else "")
        try:
            body = json.loads(raw or b"{}") if self.headers.get("Content-Type", "").startswith("application/json") \
                else {k: v[0] for k, v in parse_qs(raw.decode()).items()}
        except ValueError:
            body = {}
        req = Request(provider, self.command, self.path, body, dict(self.headers), fake.clock())
        with fake._lock:
            fake.requests.append(req)
        if not provider:
            fake.problems.append(f"unknown path {self.path}")
            req.status = 404
            return self._answer(404, {"message": "404: Not Found"})
        not_before = fake._not_before.pop(provider, None)
        if not_before is not None and req.at < not_before - 0.05:
            fake.problems.append(f"{provider}: came back {not_before - req.at:.2f} s before its retry time")
        seconds = fake._limits.pop(provider, None)
        if seconds is not None:
            fake._not_before[provider] = req.at + seconds
            req.status = 429
            if provider == "discord":
                return self._answer(429, {"message": "You are being rate limited.", "retry_after": seconds,
                                          "global": False}, {"Retry-After": str(int(seconds + 0.999))})
            if provider == "telegram":
                return self._answer(429, {"ok": False, "error_code": 429,
                                          "description": f"Too Many Requests: retry after {seconds:g}",
                                          "parameters": {"retry_after": seconds}})
            return self._answer(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": f"{seconds:g}"})
        if provider in fake._down:
            req.status = 503
            return self._answer(503, {"ok": False, "error": "service_unavailable"})
        getattr(self, "_" + provider)(req, raw)

    # Discord ------------------------------------------------------------------------------------
    def _discord(self, req: Request, raw: bytes) -> None:
        fake = self.fake
        m = re.fullmatch(r"/api/webhooks/(\d+)/([^/?]+)(?:/messages/(\d+))?", urlsplit(self.path).path)
        if m is None or m[1] != DISCORD_ID or m[2] != DISCORD_TOKEN:
            req.status = 401
            return self._answer(401, {"message": "Invalid Webhook Token", "code": 50027})
        content = req.body.get("content", "")
        req.text = content
        allowed = req.body.get("allowed_mentions") or {}
        if allowed.get("parse") != []:
            fake.problems.append("discord: allowed_mentions.parse is not [] (@everyone could ping)")
        req.mentions = re.findall(r"<@!?(\d+)>", content)
        if set(req.mentions) != set(allowed.get("users") or []):
            fake.problems.append("discord: mentions in the text differ from allowed_mentions.users")
        if not content or len(content) > 2000:
            fake.problems.append("discord: empty content or over 2000 characters")
        if self.command == "POST" and m[3] is None:
            if "wait=true" not in self.path:
                fake.problems.append("discord: POST without ?wait=true (no message id comes back)")
            mid = str(fake.new_id() * 1000003)
            fake.messages["discord"][mid] = content
            req.kind, req.message = "create", mid
            return self._answer(200, {"id": mid, "content": content, "webhook_id": DISCORD_ID})
        if self.command == "PATCH" and m[3] is not None:
            if m[3] not in fake.messages["discord"]:
                req.status = 404
                return self._answer(404, {"message": "Unknown Message", "code": 10008})
            fake.messages["discord"][m[3]] = content
            req.kind, req.message = "edit", m[3]
            return self._answer(200, {"id": m[3], "content": content})
        fake.problems.append(f"discord: {self.command} {self.path}")
        req.status = 405
        return self._answer(405, {"message": "405: Method Not Allowed"})

    # Slack --------------------------------------------------------------------------------------
    def _slack(self, req: Request, raw: bytes) -> None:
        fake = self.fake
        if self.headers.get("Authorization") != f"Bearer {SLACK_TOKEN}":
            return self._answer(200, {"ok": False, "error": "invalid_auth"})
        method = urlsplit(self.path).path.removeprefix("/api/")
        text = req.body.get("text", "")
        req.text = text
        req.mentions = re.findall(r"<@([UW][A-Z0-9]+)>", text)
        if req.body.get("channel") != SLACK_CHANNEL:
            return self._answer(200, {"ok": False, "error": "channel_not_found"})
        if method == "chat.postMessage":
            ts = f"{1700000000 + fake.new_id()}.000100"
            fake.messages["slack"][ts] = text
            req.kind, req.message = "create", ts
            return self._answer(200, {"ok": True, "channel": SLACK_CHANNEL, "ts": ts, "message": {"text": text}})
        if method == "chat.update":
            ts = req.body.get("ts")
            if ts not in fake.messages["slack"]:
                return self._answer(200, {"ok": False, "error": "message_not_found"})
            fake.messages["slack"][ts] = text
            req.kind, req.message = "edit", ts
            return self._answer(200, {"ok": True, "channel": SLACK_CHANNEL, "ts": ts, "text": text})
        fake.problems.append(f"slack: unknown method {method}")
        return self._answer(200, {"ok": False, "error": "unknown_method"})

    # Telegram -----------------------------------------------------------------------------------
    def _telegram(self, req: Request, raw: bytes) -> None:
        fake = self.fake
        m = re.fullmatch(r"/bot([^/]+)/(\w+)", urlsplit(self.path).path)
        if m is None or m[1] != TELEGRAM_TOKEN:
            req.status = 401
            return self._answer(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        text = req.body.get("text", "")
        req.text = text
        req.mentions = re.findall(r"@([A-Za-z][A-Za-z0-9_]{4,31})", text)
        if str(req.body.get("chat_id")) != TELEGRAM_CHAT:
            req.status = 400
            return self._answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"})
        if "parse_mode" in req.body:
            fake.problems.append("telegram: a parse_mode (names would be read as markup)")
        if m[2] == "sendMessage":
            mid = fake.new_id()
            fake.messages["telegram"][str(mid)] = text
            req.kind, req.message = "create", str(mid)
            return self._answer(200, {"ok": True, "result": {"message_id": mid, "text": text}})
        if m[2] == "editMessageText":
            mid = str(req.body.get("message_id"))
            if mid not in fake.messages["telegram"]:
                req.status = 400
                return self._answer(400, {"ok": False, "error_code": 400,
                                          "description": "Bad Request: message to edit not found"})
            fake.messages["telegram"][mid] = text
            req.kind, req.message = "edit", mid
            return self._answer(200, {"ok": True, "result": {"message_id": int(mid), "text": text}})
        fake.problems.append(f"telegram: unknown method {m[2]}")
        req.status = 404
        return self._answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})

    # The generic webhook ------------------------------------------------------------------------
    def _webhook(self, req: Request, raw: bytes) -> None:
        fake = self.fake
        ts = self.headers.get("X-Monopoly-Timestamp", "")
        expected = "sha256=" + hmac.new(WEBHOOK_SECRET.encode(), ts.encode() + b"." + raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, self.headers.get("X-Monopoly-Signature", "")):
            fake.problems.append("webhook: bad signature")
            req.status = 401
            return self._answer(401, {"error": "bad signature"})
        if not ts.isdigit() or abs(time.time() - int(ts)) > 300:
            fake.problems.append("webhook: timestamp missing or stale")
        req.text = req.body.get("text", "")
        post = req.body.get("post", "")
        if req.body.get("type") == "monopoly.test":
            req.kind = "test"
        else:
            req.kind = "create" if req.body.get("action") == "create" else "edit"
            if req.kind == "edit" and post not in fake.messages["webhook"]:
                fake.problems.append(f"webhook: update of an unknown post {post}")
            fake.messages["webhook"][post] = req.text
            req.message = post
        return self._answer(200, {"ok": True})


def channel_view_html(fake: FakeChats, provider: str, names: dict[str, str] | None = None) -> str:
    """The fake server's view of a channel as a chat client would show it: each message as it
    stands now, with how many times it was edited (for screenshots; no script, no styles from
    outside)."""
    import html

    names = names or {}
    edits: dict[str, int] = {}
    for r in fake.of(provider):
        if r.kind == "edit":
            edits[r.message] = edits.get(r.message, 0) + 1

    def show(text: str) -> str:
        out = html.escape(text)
        out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
        out = re.sub(r"&lt;@!?(\w+)&gt;",
                     lambda m: f'<span class="mention">@{html.escape(names.get(m[1], m[1]))}</span>', out)
        out = re.sub(r"&lt;t:(\d+):f&gt;", lambda m: datetime.datetime.fromtimestamp(int(m[1]), datetime.UTC)
                     .strftime("%a %d %b %Y %H:%M UTC"), out)
        out = re.sub(r"&lt;t:(\d+):R&gt;", "in a while", out)
        out = re.sub(r"(https?://\S+)", r'<a href="#">\1</a>', out)
        return out.replace("\n", "<br>")

    items = "".join(
        f'<li><div class="who">Monopoly <span class="tag">APP</span></div><div class="text">{show(text)}</div>'
        f'<div class="meta">{"(edited " + str(edits[mid]) + " times)" if edits.get(mid) else ""}</div></li>'
        for mid, text in fake.messages[provider].items())
    return f"""<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<style>body{{margin:0;background:#313338;color:#dbdee1;font:15px/1.4 system-ui,sans-serif}}
h1{{font-size:16px;margin:0;padding:12px 16px;border-bottom:1px solid #1f2023;color:#f2f3f5}}
ul{{list-style:none;margin:0;padding:8px 16px}}li{{padding:8px 0}}.who{{font-weight:600;color:#f2f3f5}}
.tag{{background:#5865f2;color:#fff;font-size:10px;padding:1px 4px;border-radius:3px}}
.mention{{background:#3c4270;color:#c9cdfb;border-radius:3px;padding:0 2px}}a{{color:#00a8fc}}
.meta{{font-size:11px;color:#949ba4}}.text{{overflow-wrap:anywhere}}</style></head>
<body><h1># game-night ({html.escape(provider)}, fake server)</h1><ul>{items}</ul></body></html>"""
