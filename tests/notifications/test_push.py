"""Optional Web Push (issue 14), against a local fake push service: a small HTTP server in the
test that records each push, whose VAPID Authorization header (RFC 8292) the test verifies and
whose encrypted body (RFC 8291) it decrypts with the browser's keys; it answers 410 or 404 for a
subscription that is gone, which the site then removes. E-mail goes out whatever push does."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.urls import reverse

from games.links import absolute, invite_path
from notifications import push
from notifications.models import Kind, PushSubscription
from notifications.services import notify
from tests.processes import serving_thread

SUBJECT = "mailto:push@example.com"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class FakePushService:
    """Records every POST; /gone answers 410, /missing 404, /broken 500, anything else 201; a
    path under /hang/ never answers (until the test ends), calling ``on_hang`` first."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self.on_hang = lambda: None
        self.released = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append({"path": self.path, "headers": headers, "body": body})
                if self.path.startswith("/hang/"):
                    service.on_hang()
                    service.released.wait(30)
                    return
                status = {"/gone": 410, "/missing": 404, "/broken": 500}.get(self.path, 201)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = serving_thread(self.server)
        self.thread.start()

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's push keys: the P-256 key pair and the 16-byte auth secret of RFC 8291."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.p256dh = _b64(point)

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": _b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


@pytest.fixture
def fake_push(settings):
    service = FakePushService()
    server_key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = _b64(server_key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_SUBJECT = SUBJECT
    settings.WEB_PUSH_HOSTS = ["127.0.0.1"]
    settings.WEB_PUSH_SCHEMES = ["http"]
    settings.WEB_PUSH_PORTS = [service.server.server_address[1]]
    yield service
    service.close()


def verify_vapid(authorization: str, *, audience: str) -> dict:
    """The claims of a ``vapid t=<JWT>, k=<key>`` header, after checking its ES256 signature
    with the key it names; raises if the signature or the audience is wrong."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    header, payload, signature = fields["t"].split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(fields["k"]))
    raw = _unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
    assert json.loads(_unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(_unb64(payload))
    assert claims["aud"] == audience
    assert fields["k"] == push.public_key()
    return claims


def _invite(alice, bob, make_table):
    from games import services

    table = make_table(alice, name="Pushy", is_private=True)
    invitation = services.invitation_create(table=table, by=alice, email=bob.email).invitation
    return [[Kind.INVITATION, bob.pk, f"inv{invitation.pk}", None, {"invitation": invitation.pk}]], table


def _subscribe(client, subscription: dict):
    return client.post(reverse("notifications:push_subscribe"), json.dumps(subscription),
                       content_type="application/json")


@pytest.mark.django_db
def test_an_e_mailed_notification_is_pushed_signed_with_vapid_and_encrypted_for_the_browser(
    client, alice, bob, make_table, mailoutbox, fake_push
):
    browser = Browser()
    client.force_login(bob)
    assert _subscribe(client, browser.subscription(fake_push.origin + "/push/abc")).status_code == 201
    items, table = _invite(alice, bob, make_table)
    mailoutbox.clear()

    assert notify(game_id=None, items=items) == 1

    assert len(mailoutbox) == 1
    [request] = fake_push.received
    assert request["path"] == "/push/abc"
    claims = verify_vapid(request["headers"]["authorization"], audience=fake_push.origin)
    assert claims["sub"] == SUBJECT and isinstance(claims["exp"], int)
    assert request["headers"]["content-encoding"] == "aes128gcm"
    message = browser.decrypt(request["body"])
    assert message["body"] == mailoutbox[0].subject
    assert message["url"] == absolute(invite_path(table.invite_code))
    assert message["title"] == "Monopoly"
    assert int(request["headers"]["ttl"]) == push.PUSH_TTL


@pytest.mark.django_db
def test_a_forged_signature_would_not_pass_the_fake_services_check(fake_push):
    # (The check above can fail: a header signed by another key is refused.)
    from py_vapid import Vapid

    other = Vapid()
    other.generate_keys()
    header = other.sign({"sub": SUBJECT, "aud": fake_push.origin, "exp": 1})["Authorization"]
    t = header.split("t=", 1)[1].split(",")[0]
    forged = f"vapid t={t}, k={push.public_key()}"
    with pytest.raises(InvalidSignature):
        verify_vapid(forged, audience=fake_push.origin)


@pytest.mark.django_db
def test_subscriptions_answered_410_or_404_are_removed_and_the_e_mail_goes_anyway(
    client, alice, bob, make_table, mailoutbox, fake_push
):
    client.force_login(bob)
    for path in ("/gone", "/missing", "/broken", "/fine"):
        assert _subscribe(client, Browser().subscription(fake_push.origin + path)).status_code == 201
    items, _table = _invite(alice, bob, make_table)
    mailoutbox.clear()

    assert notify(game_id=None, items=items) == 1

    assert len(mailoutbox) == 1
    assert sorted(r["path"] for r in fake_push.received) == ["/broken", "/fine", "/gone", "/missing"]
    left = sorted(PushSubscription.objects.values_list("endpoint", flat=True))
    assert left == [fake_push.origin + "/broken", fake_push.origin + "/fine"]


@pytest.mark.django_db
def test_bad_subscriptions_are_refused_and_change_nothing(client, alice, bob, fake_push):
    client.force_login(bob)
    good = Browser().subscription(fake_push.origin + "/push/1")

    elsewhere = {**good, "endpoint": "http://10.0.0.1/internal"}
    assert _subscribe(client, elsewhere).status_code == 400
    assert _subscribe(client, {**good, "keys": {"p256dh": "not-a-key", "auth": "x"}}).status_code == 400
    assert client.post(reverse("notifications:push_subscribe"), "{not json",
                       content_type="application/json").status_code == 400
    assert not PushSubscription.objects.exists()

    assert _subscribe(client, good).status_code == 201
    # Another user cannot unsubscribe bob's browser; bob can.
    client.force_login(alice)
    client.post(reverse("notifications:push_unsubscribe"), json.dumps({"endpoint": good["endpoint"]}),
                content_type="application/json")
    assert PushSubscription.objects.filter(user=bob).count() == 1
    client.force_login(bob)
    response = client.post(reverse("notifications:push_unsubscribe"), json.dumps({"endpoint": good["endpoint"]}),
                           content_type="application/json")
    assert response.status_code == 200
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_without_a_vapid_key_push_is_off(client, bob, settings):
    settings.VAPID_PRIVATE_KEY = ""
    client.force_login(bob)

    assert _subscribe(client, Browser().subscription("https://fcm.googleapis.com/fcm/send/x")).status_code == 404
    assert "data-push" not in client.get(reverse("notifications:preferences")).content.decode()


@pytest.mark.django_db
def test_the_service_worker_is_served_for_the_whole_site_and_the_settings_offer_push(client, bob, fake_push):
    response = client.get(reverse("notifications:service_worker"))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "showNotification" in response.content.decode()

    client.force_login(bob)
    page = client.get(reverse("notifications:preferences")).content.decode()
    assert f'data-key="{push.public_key()}"' in page
    assert "/static/js/push.js" in page


@pytest.mark.django_db
def test_json_nested_thousands_deep_is_a_400_and_changes_nothing(client, bob, fake_push):
    client.force_login(bob)
    browser = Browser()
    endpoint = fake_push.origin + "/push/1"
    assert _subscribe(client, browser.subscription(endpoint)).status_code == 201
    deep = "[" * 5000 + "]" * 5000
    nested = '{"endpoint": "' + endpoint + '", "keys": ' + deep + "}"

    for name in ("notifications:push_subscribe", "notifications:push_unsubscribe"):
        for body in (deep, nested, '{"a":' * 5000 + "1" + "}" * 5000):
            response = client.post(reverse(name), body, content_type="application/json")
            assert response.status_code == 400, name

    assert list(PushSubscription.objects.values_list("user", "endpoint")) == [(bob.pk, endpoint)]


def _refusal(response) -> str:
    return response.json()["error"]


@pytest.mark.django_db
def test_an_account_has_push_on_in_at_most_ten_browsers(client, bob, fake_push):
    client.force_login(bob)
    browsers = [Browser() for _ in range(push.MAX_SUBSCRIPTIONS + 1)]
    for i, browser in enumerate(browsers[:-1]):
        assert _subscribe(client, browser.subscription(f"{fake_push.origin}/push/{i}")).status_code == 201

    response = _subscribe(client, browsers[-1].subscription(f"{fake_push.origin}/push/last"))

    assert response.status_code == 400 and "in 10 browsers of yours already" in _refusal(response)
    assert PushSubscription.objects.filter(user=bob).count() == push.MAX_SUBSCRIPTIONS
    # A browser already on renews its keys: that is not one more.
    renewed = Browser()
    assert _subscribe(client, renewed.subscription(f"{fake_push.origin}/push/0")).status_code == 201
    assert PushSubscription.objects.get(endpoint=f"{fake_push.origin}/push/0").p256dh == renewed.p256dh
    assert PushSubscription.objects.filter(user=bob).count() == push.MAX_SUBSCRIPTIONS


@pytest.mark.django_db
def test_another_accounts_endpoint_is_refused_not_moved(client, alice, bob, fake_push):
    endpoint = fake_push.origin + "/push/bobs"
    bobs = Browser()
    client.force_login(bob)
    assert _subscribe(client, bobs.subscription(endpoint)).status_code == 201

    client.force_login(alice)
    response = _subscribe(client, Browser().subscription(endpoint))

    assert response.status_code == 409 and "another account" in _refusal(response)
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.p256dh) == (bob, endpoint, bobs.p256dh)


def _point_off_the_curve() -> str:
    from cryptography.hazmat.primitives.asymmetric import ec

    point = bytearray(_unb64(Browser().p256dh))
    for _ in range(100):
        point[-1] ^= 1
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bytes(point))
        except ValueError:
            return _b64(bytes(point))
    raise AssertionError("no point off the curve found")


def _compressed() -> str:
    from cryptography.hazmat.primitives import serialization

    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    return _b64(key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint))


BAD_SUBSCRIPTIONS = {
    "another port": lambda origin, good: {**good, "endpoint": origin.rsplit(":", 1)[0] + ":1/push/x"},
    "credentials": lambda origin, good: {**good, "endpoint": origin.replace("://", "://user:pw@") + "/push/x"},
    "a user name": lambda origin, good: {**good, "endpoint": origin.replace("://", "://user@") + "/push/x"},
    "a bad port": lambda origin, good: {**good, "endpoint": origin + "99999/push/x"},
    "a point off the curve": lambda origin, good: {**good, "keys": {**good["keys"], "p256dh": _point_off_the_curve()}},
    "a compressed point": lambda origin, good: {**good, "keys": {**good["keys"], "p256dh": _compressed()}},
    "65 bytes of zeros": lambda origin, good: {**good, "keys": {**good["keys"], "p256dh": _b64(bytes(65))}},
    "standard base64": lambda origin, good: {**good, "keys": {**good["keys"],
                                                            "p256dh": good["keys"]["p256dh"][:-2] + "+/"}},
    "a 15-byte auth": lambda origin, good: {**good, "keys": {**good["keys"], "auth": _b64(os.urandom(15))}},
    "a 17-byte auth": lambda origin, good: {**good, "keys": {**good["keys"], "auth": _b64(os.urandom(17))}},
    "auth not base64": lambda origin, good: {**good, "keys": {**good["keys"], "auth": "!!!!!!!!!!!!!!!!!!!!!!"}},
    "keys missing": lambda origin, good: {"endpoint": good["endpoint"]},
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", BAD_SUBSCRIPTIONS)
def test_a_subscription_with_another_port_credentials_or_invalid_keys_is_refused(client, bob, fake_push, case):
    client.force_login(bob)
    good = Browser().subscription(fake_push.origin + "/push/x")

    response = _subscribe(client, BAD_SUBSCRIPTIONS[case](fake_push.origin, good))

    assert response.status_code == 400
    assert not PushSubscription.objects.exists()
    assert _subscribe(client, good).status_code == 201  # (the good one passes)


@pytest.mark.django_db
def test_push_services_that_never_answer_cost_one_budget_per_notification(fake_push, bob, monkeypatch):
    """Ten browsers whose push service never answers: the pushes stop once the budget is
    spent. The budget is counted on a clock of the test's, which each hanging request moves
    on by 0.3 s (so the test depends on no real durations): 0.3, 0.6, 0.9, 1.2 > 1.0."""
    now = [0.0]

    def hang():
        now[0] += 0.3

    fake_push.on_hang = hang
    monkeypatch.setattr(push, "_clock", lambda: now[0])
    monkeypatch.setattr(push, "PUSH_BUDGET", 1.0)
    monkeypatch.setattr(push, "PUSH_TIMEOUT", 1.0)  # real seconds each hanging request waits
    for i in range(push.MAX_SUBSCRIPTIONS):
        PushSubscription.objects.create(user=bob, endpoint=f"{fake_push.origin}/hang/{i}",
                                        **Browser().subscription("")["keys"])

    assert push.send(user_id=bob.pk, payload={"title": "t", "body": "b", "url": "/"}) == 0

    assert len(fake_push.received) == 4


@pytest.mark.django_db
def test_a_browser_whose_push_raises_does_not_keep_the_others_from_theirs(fake_push, bob):
    fine = Browser()
    PushSubscription.objects.create(user=bob, endpoint=fake_push.origin + "/fine/1",
                                    **fine.subscription("")["keys"])
    # Rows stored before the keys were checked: pywebpush raises on them, a ValueError for a
    # point off the curve (not a network error, nor its own WebPushException).
    PushSubscription.objects.create(user=bob, endpoint=fake_push.origin + "/broken-keys", p256dh="AAAA", auth="x")
    PushSubscription.objects.create(user=bob, endpoint=fake_push.origin + "/off-the-curve",
                                    p256dh=_point_off_the_curve(), auth=_b64(os.urandom(16)))
    PushSubscription.objects.create(user=bob, endpoint=fake_push.origin + "/fine/2",
                                    **fine.subscription("")["keys"])

    assert push.send(user_id=bob.pk, payload={"title": "t", "body": "b", "url": "/"}) == 2

    assert sorted(r["path"] for r in fake_push.received) == ["/fine/1", "/fine/2"]
