"""A fake OAuth2 provider on localhost for the social sign-in tests (issue 31): the authorise
endpoint (consents, or refuses with ``deny=1``, by redirecting back with a code or an error),
the token endpoint (a code for an access token, once) and the user-info endpoint (the profile
the test chose, for that token). A real HTTP server in a thread, which the site reaches with
allauth's own requests session."""

from __future__ import annotations

import json
import secrets
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

from tests.processes import serving_thread


class FakeProvider:
    def __init__(self, profile: dict[str, Any], client_id: str = "test-client", secret: str = "test-secret") -> None:
        self.profile = profile
        self.client_id = client_id
        self.secret = secret
        self.codes: dict[str, str] = {}  # code -> redirect_uri
        self.tokens: set[str] = set()
        self.token_requests: list[dict[str, list[str]]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = serving_thread(self.server)

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeProvider:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def _handler(self):
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                url = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path == "/authorize":
                    if query.get("client_id") != provider.client_id or query.get("response_type") != "code":
                        return self._json(400, {"error": "invalid_request"})
                    back = {"state": query.get("state", "")}
                    if query.get("deny"):
                        back["error"] = "access_denied"
                    else:
                        code = secrets.token_urlsafe(8)
                        provider.codes[code] = query["redirect_uri"]
                        back["code"] = code
                    self.send_response(302)
                    self.send_header("Location", f"{query['redirect_uri']}?{urlencode(back)}")
                    self.end_headers()
                    return None
                if url.path == "/userinfo":
                    token = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    if token not in provider.tokens:
                        return self._json(401, {"error": "invalid_token"})
                    return self._json(200, provider.profile)
                return self._json(404, {"error": "not_found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                form = parse_qs(self.rfile.read(length).decode())
                provider.token_requests.append(form)
                if urlparse(self.path).path != "/token":
                    return self._json(404, {"error": "not_found"})
                code = (form.get("code") or [""])[0]
                redirect_uri = (form.get("redirect_uri") or [""])[0]
                if provider.codes.pop(code, None) != redirect_uri:
                    return self._json(400, {"error": "invalid_grant"})
                token = secrets.token_urlsafe(12)
                provider.tokens.add(token)
                return self._json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600})

        return Handler
