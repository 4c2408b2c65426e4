"""The same moderator form posted many times at once acts once (issue 26, item 11: fifty posts of
one mute made fifty mutes and fifty audit rows). Threads with connections of their own, on
PostgreSQL, where the target's row lock makes the posts wait for each other; SQLite runs whole
transactions one at a time, which proves nothing about locks."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from moderation.forms import AccountActionForm
from moderation.models import AuditEntry, Report, Sanction

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

POSTS = 20  # at once (the machine's PostgreSQL is shared: not fifty connections)


def _post_together(user, url: str, data: dict) -> list:
    clients = []
    for _ in range(POSTS):
        client = Client()
        client.force_login(user)
        clients.append(client)
    barrier = threading.Barrier(POSTS)
    answers: list = [None] * POSTS

    def post(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = clients[i].post(url, data).status_code
        except Exception as e:  # (the test looks at what each post got)
            answers[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(POSTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return answers


@pytest.mark.parametrize("with_report", [False, True])
@pytest.mark.parametrize("action", ["mute", "warn", "rename"])
def test_one_form_posted_many_times_at_once_acts_once(mod, alice, bob, action, with_report):
    report = Report.objects.create(kind=Report.Kind.PLAYER, reason="abuse", reporter=alice, target=bob)
    key = AccountActionForm().initial["key"]
    data = {"action": action, "duration": "1d" if action == "mute" else "", "reason": "Insults", "key": key}
    if with_report:
        data["report"] = report.pk

    answers = _post_together(mod, reverse("moderation:account_act", args=[bob.pk]), data)

    assert answers == [302] * POSTS
    assert Sanction.objects.filter(user=bob).count() == (0 if action == "rename" else 1)
    assert list(AuditEntry.objects.filter(target=bob).values_list("request_key", flat=True)) == [key]
    report.refresh_from_db()
    assert report.state == (Report.State.RESOLVED if with_report else Report.State.OPEN)


def test_another_form_acts_again(mod, bob):
    url = reverse("moderation:account_act", args=[bob.pk])
    client = Client()
    client.force_login(mod)
    for _ in range(2):
        key = AccountActionForm().initial["key"]
        assert client.post(url, {"action": "warn", "reason": "Be kind", "key": key}).status_code == 302
        assert client.post(url, {"action": "warn", "reason": "Be kind", "key": key}).status_code == 302

    assert Sanction.objects.filter(user=bob, kind="warn").count() == 2
    assert AuditEntry.objects.filter(target=bob).count() == 2


def test_the_same_form_sent_again_for_another_action_is_refused(mod, bob):
    url = reverse("moderation:account_act", args=[bob.pk])
    client = Client()
    client.force_login(mod)
    key = AccountActionForm().initial["key"]
    assert client.post(url, {"action": "warn", "reason": "Be kind", "key": key}).status_code == 302

    response = client.post(url, {"action": "ban", "reason": "Be kind", "key": key}, follow=True)

    assert "This form was sent already" in response.content.decode()
    assert list(Sanction.objects.filter(user=bob).values_list("kind", flat=True)) == ["warn"]
