"""Issue 14, with real parts: a whole correspondence game of two humans and two strategy bots,
played through a real Celery worker on Redis (the bots' tasks, the notifications' tasks), whose
e-mails go over SMTP to a real server on localhost (aiosmtpd). The test reads every message as a
mail program would (headers, text and HTML parts) and counts them against the waits that the
game's record shows: one e-mail per wait, once each, plus the start and the end."""

from __future__ import annotations

import email
import threading
from collections import Counter
from email import policy
from unittest import mock

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings as django_settings
from django.urls import reverse

from games import records, services
from games.engine import GameState, apply, new_game, waiting_on
from games.models import Game, GameAction, Table
from notifications.models import Kind, Notification
from notifications.services import WAITS, unsubscribe_target
from tests.factories import UserFactory
from tests.games.play_helpers import choose
from tests.processes import free_port
from tests.workers.conftest import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# A table name with what HTML would escape: the subject must show it as typed.
TABLE_NAME = "Bob & Alice's \"night\" <4>"
SURRENDER_ROUND = 6


class Inbox:
    """aiosmtpd's handler: every message received, as bytes, with its envelope's recipients."""

    def __init__(self):
        self.lock = threading.Lock()
        self.messages: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), envelope.original_content or envelope.content))
        return "250 Message accepted for delivery"

    def count(self) -> int:
        with self.lock:
            return len(self.messages)


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, inbox
    controller.stop()


def _waits(game: Game, humans: dict[int, int]) -> set[tuple[int, str]]:
    """The waits in the game's record: (user id, key) for each human the game started to wait on
    at a write (each write here is one action: the start, a person's move, a bot's task), keyed
    by the version the wait began at, as notifications.services.plan_game keys them."""
    record = records.game_record(game)
    start = records.start_of(record)
    from games.engine import RuleSet

    state, _ = new_game(RuleSet.from_json(start["rules"]), start["names"], start["seed"],
                        teams=start.get("teams"), events=False)
    out = set()
    previous: set[int] = set()
    for version, action in enumerate([None, *record["actions"]], start=1):
        if action is not None:
            state, _events = apply(state, {k: v for k, v in action.items() if k != "clock"}, events=False)
        if state.over:
            break
        now = set(waiting_on(state))
        for p in now - previous:
            if p in humans and not state.players[p].bankrupt:
                out.add((humans[p], f"g{game.pk}:v{version}"))
        previous = now
    return out


def test_a_whole_correspondence_game_sends_one_email_per_wait_over_smtp(celery_processes, smtp_server, settings):
    controller, inbox = smtp_server
    procs = celery_processes
    procs.env.update({"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(controller.port), "EMAIL_USE_TLS": "false",
                      "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"})
    procs.worker()
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    users = {0: alice, 1: bob}
    humans = {0: alice.pk, 1: bob.pk}
    table = services.table_create(host=alice, name=TABLE_NAME, preset="classic", pace=Table.Pace.CORRESPONDENCE,
                                  turn_hours=24, seat_count=4, options={"end": "second_bankruptcy"})
    services.table_join(table=table, user=bob)
    for position in (2, 3):
        services.table_set_seat(table=table, by=alice, position=position, bot="strategy")
    with mock.patch("secrets.randbits", return_value=20240601):
        game = services.table_start(table=table, by=alice)

    def quiet() -> bool:
        """The game waits on a human, and every notification of the waits so far is written and
        delivered: the human "comes back" once their e-mail is out (the page closed meanwhile)."""
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return True
        if not set(game.waiting_seats) & set(humans) or set(game.waiting_seats) - set(humans):
            return False
        rows = Notification.objects.filter(game=game, kind__in=WAITS)
        if rows.filter(status__in=[Notification.Status.PENDING, Notification.Status.SENDING]).exists():
            return False
        return _waits(game, humans) <= set(rows.values_list("user_id", "key"))

    surrendered: list[int] = []
    for _ in range(3000):
        wait_for(quiet, timeout=120, what="the bots and the notifications to catch up", procs=procs, every=0.05)
        if game.status != Game.Status.ACTIVE:
            break
        state = GameState.from_json(game.state)
        seat = next(p for p in game.waiting_seats if p in humans)
        if state.round >= SURRENDER_ROUND and seat not in surrendered:
            # Each human gives up in turn: the second bankruptcy ends the game (the table's rule).
            move = {"type": "surrender"}
            surrendered.append(seat)
        else:
            move = choose(state, seat)
        try:
            services.game_submit_action(game=game, user=users[seat], action=move, expected_version=game.version)
        except services.StaleVersion:
            continue  # (a bot's bid in an open auction came first)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    def all_delivered() -> bool:
        rows = Notification.objects.filter(game=game)
        return rows.filter(kind=Kind.GAME_OVER).count() == 2 and not rows.filter(
            status__in=[Notification.Status.PENDING, Notification.Status.SENDING]).exists()

    wait_for(all_delivered, timeout=60, what="the end's e-mails", procs=procs)
    sent = Notification.objects.filter(game=game, status=Notification.Status.SENT)
    wait_for(lambda: inbox.count() >= sent.count(), timeout=30, what="the SMTP server to get every e-mail")

    # One notification per wait, none twice, none missing; every wait's e-mail sent unless the
    # game had moved on before it went (a bot's move ended the wait first).
    waits = _waits(game, humans)
    rows = Notification.objects.filter(game=game, kind__in=WAITS)
    assert sorted(rows.values_list("user_id", "key")) == sorted(waits)
    assert set(rows.values_list("status", flat=True)) <= {Notification.Status.SENT, Notification.Status.STALE}
    kinds = Counter(sent.values_list("kind", flat=True))
    assert kinds[Kind.GAME_OVER] == 2 and kinds[Kind.GAME_STARTED] == 1  # bob's (alice started it)
    assert kinds[Kind.YOUR_TURN] > 0

    # What the SMTP server got: exactly the sent notifications, each once.
    assert inbox.count() == sent.count()
    per_user = Counter()
    site = django_settings.SITE_URL
    for rcpt, raw in inbox.messages:
        message = email.message_from_bytes(raw, policy=policy.default)
        user = alice if rcpt == [alice.email] else bob
        assert rcpt in ([alice.email], [bob.email]) and message["To"] == user.email
        per_user[user.pk] += 1
        subject = str(message["Subject"])
        # A plain-text subject: the table's name as typed, not HTML-escaped, one line.
        assert "\n" not in subject and "&amp;" not in subject and "&quot;" not in subject
        assert TABLE_NAME in subject or "ended" in subject.lower() or "started" in subject.lower(), subject
        # RFC 8058 one-click unsubscribe: a signed link naming this user, and the POST header.
        link = str(message["List-Unsubscribe"]).strip()  # (folded: a long line)
        assert link.startswith(f"<{site}/") and link.endswith(">")
        token = link[1:-1].rstrip("/").rsplit("/", 1)[1]
        target = unsubscribe_target(token)
        assert target is not None and target[0] == user.pk
        assert str(message["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"
        # A text part and an HTML part, both with the link to the game.
        assert message.get_content_type() == "multipart/alternative"
        text = message.get_body(preferencelist=("plain",)).get_content()
        html = message.get_body(preferencelist=("html",)).get_content()
        game_url = site + reverse("games:game", args=[game.pk])
        assert game_url in text and f'href="{game_url}' in html
        assert "<html" in html.lower() and "<p" not in text
    assert per_user == Counter({u: sent.filter(user_id=u).count() for u in humans.values()})

    actions = GameAction.objects.filter(game=game).count()
    print(f"whole game: {actions} actions, {game.round} rounds; waits per human "
          f"{Counter(u for u, _k in waits)}; e-mails per human {dict(per_user)}; by kind {dict(kinds)}")
