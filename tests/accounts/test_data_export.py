""" "Download my data" (issue 31): a Celery task builds one ZIP with a JSON file per kind of
data, mailed as a signed link that lasts a day and opens only for its owner; nobody else's
e-mail address nor any moderator's notes are in it."""

from __future__ import annotations

import io
import json
import re
import zipfile
from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import export, services
from accounts.models import DataExport
from moderation import services as moderation
from notifications.models import Kind, Mode, Notification, Preference
from ratings import services as ratings
from tests.factories import add_totp
from tests.moderation.conftest import make_moderator
from tests.ratings.conftest import store_finished
from tests.ratings.helpers import play_record

pytestmark = pytest.mark.django_db
PRIVATE_NOTE = "Mod note: the reporter exaggerates, keep an eye on both"


@pytest.fixture
def alices_history(alice, bob):
    game = store_finished(play_record("classic", 2, 7), [alice, bob], preset="classic")
    ratings.game_result_record(game_id=game.pk)
    moderation.chat_post(user=alice, game=game, text="Good game, Bob!", is_player=True)
    moderation.chat_post(user=bob, game=game, text="Bob's own words", is_player=True)
    report = moderation.report_create(reporter=alice, reason="abuse", text="Bob was rude", target=bob)
    mona = make_moderator("mona")
    moderation.report_resolve(moderator=mona, report=report, outcome="no_action", note=PRIVATE_NOTE)
    moderation.block_create(user=alice, blocked=bob)
    Notification.objects.create(user=alice, kind=Kind.GAME_OVER, key=f"over:{game.pk}", game=game, status="sent")
    Notification.objects.create(user=bob, kind=Kind.GAME_OVER, key=f"over:{game.pk}", game=game, status="sent")
    Preference.objects.create(user=alice, kind=Kind.YOUR_TURN, mode=Mode.DIGEST)
    add_totp(alice)
    return game


def _link(mail) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/data/download/\S+/)", mail.body)
    assert match, mail.body
    return match.group(1)


def test_asking_for_the_data_mails_a_link_to_one_zip_with_a_file_per_kind(
    client, alice, bob, alices_history, mailoutbox, django_capture_on_commit_callbacks, celery_eager
):
    client.force_login(alice)
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:data_request"))

    assert response.status_code == 302
    sent = [m for m in mailoutbox if m.to == ["alice@example.com"]]
    assert len(sent) == 1 and "a day" in sent[0].body
    download = client.get(_link(sent[0]))
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"

    archive = zipfile.ZipFile(io.BytesIO(download.content))
    assert sorted(archive.namelist()) == sorted(export.FILES)
    raw = {name: archive.read(name).decode() for name in archive.namelist()}
    data = {name: json.loads(text) for name, text in raw.items()}

    profile = data["profile.json"]
    assert profile["username"] == "alice" and profile["second_factors"] == ["totp"]
    assert [a["email"] for a in profile["email_addresses"]] == ["alice@example.com"]

    [played] = data["games.json"]
    assert played["game"]["id"] == alices_history.pk and played["game"]["record"]["actions"]

    assert [m["text"] for m in data["chat_messages.json"]] == ["Good game, Bob!"]

    reports = data["reports_and_blocks.json"]
    assert [(r["text"], r["about"], r["outcome"]) for r in reports["reports"]] == [("Bob was rude", "Bob", "no_action")]
    assert [b["blocked"] for b in reports["blocks"]] == ["Bob"]

    notes = data["notifications.json"]
    assert [n["kind"] for n in notes["notifications"]] == ["game_over"]
    assert notes["preferences"] == {"your_turn": "digest"}

    rated = data["ratings.json"]
    assert [h["game"] for h in rated["history"]] == [alices_history.pk]
    assert rated["progress"]["xp"] > 0

    everything = "".join(raw.values())
    for secret in ("bob@example.com", "mona@example.com", PRIVATE_NOTE, "Bob's own words"):
        assert secret not in everything


def test_the_link_opens_only_for_its_owner_and_only_for_a_day(client, alice, bob, alices_history, settings):
    made = DataExport.objects.get(pk=services.data_export_build(user_id=alice.pk))
    path = export.download_path(made)

    client.force_login(bob)
    assert client.get(path).status_code == 404  # not bob's

    owner = Client()
    owner.force_login(alice)
    assert owner.get(path).status_code == 200
    assert Client().get(path).status_code == 302  # signed out: the sign-in page first

    tampered = path.replace("/download/", "/download/x")
    assert owner.get(tampered).status_code == 404

    settings.DATA_EXPORT_MAX_AGE = -1  # a day has passed
    expired = owner.get(path)
    assert expired.status_code == 404 and "expired" in expired.content.decode()


def test_a_new_export_replaces_the_old_one(alice, alices_history):
    first = services.data_export_build(user_id=alice.pk)
    second = services.data_export_build(user_id=alice.pk)

    assert list(DataExport.objects.values_list("pk", flat=True)) == [second]
    assert first != second
    with pytest.raises(signing.BadSignature):
        export.read_token("not-a-token")


def test_a_second_request_within_minutes_queues_nothing_and_says_why(
    client, alice, mailoutbox, django_capture_on_commit_callbacks, celery_eager
):
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:data_request"))
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = client.post(reverse("accounts:data_request"), follow=True)

    assert queued == [] and DataExport.objects.count() == 1
    assert len([m for m in mailoutbox if "data" in m.subject.lower()]) == 1
    assert "a few minutes ago" in again.content.decode()


def test_expired_exports_are_purged(alice, bob, settings):
    kept = services.data_export_build(user_id=alice.pk)
    old = services.data_export_build(user_id=bob.pk)
    DataExport.objects.filter(pk=old).update(created_at=timezone.now() - timedelta(days=2))

    assert services.data_export_purge() == 1
    assert list(DataExport.objects.values_list("pk", flat=True)) == [kept]


def _reach_data(alice, bob, game):
    """Issue 29's rows for Alice and Bob: chat names, a note each in ``game``, Alice's reminders
    and calendar feed. Returns Alice's calendar secret."""
    from datetime import time

    from chats.models import Identity
    from reach import choices, notes

    Identity.objects.create(user=alice, discord_id="112233445566778899", slack_id="U0ALICE",
                            telegram_username="alice_tg")
    Identity.objects.create(user=bob, discord_id="998877665544332211", telegram_username="bob_tg")
    seats = {s.user_id: s.position for s in game.table.seats.all()}
    notes.note_save(game_id=game.pk, seat=seats[alice.pk], text="Bob hoards the oranges <b>!</b>")
    notes.note_reveal(game_id=game.pk, seat=seats[alice.pk], reveal=True)
    notes.note_save(game_id=game.pk, seat=seats[bob.pk], text="Bob's own plan")
    choices.save(user=alice, warnings=[8, 1], email=True, push=False, bell=True,
                 quiet_start=time(23, 0), quiet_end=time(8, 0))
    return choices.calendar_reset(user=alice)


def test_the_zip_has_the_players_chat_names_notes_and_whether_their_feed_is_on(alice, bob, alices_history):
    token = _reach_data(alice, bob, alices_history)
    archive = zipfile.ZipFile(io.BytesIO(export.build_zip(alice)))
    assert sorted(archive.namelist()) == sorted(export.FILES)
    raw = {name: archive.read(name).decode() for name in archive.namelist()}

    [played] = json.loads(raw["games.json"])
    assert played["game"]["my_note"]["text"] == "Bob hoards the oranges <b>!</b>"
    assert played["game"]["my_note"]["shown_in_replay"] is True
    reach = json.loads(raw["reach.json"])
    assert reach["chat_names"] == {"discord_user_id": "112233445566778899", "slack_member_id": "U0ALICE",
                                   "telegram_username": "alice_tg"}
    assert reach["warnings_before_a_deadline_hours"] == [8, 1]
    assert reach["channels"] == {"email": True, "push": False, "bell": True}
    assert reach["quiet_hours"] == {"from": "23:00", "until": "08:00", "time_zone": alice.time_zone}
    # Whether the feed is on; never its secret address (it would go on opening the calendar).
    assert reach["calendar_feed"] is True
    everything = "".join(raw.values())
    for other in (token, "/reach/calendar/", "Bob's own plan", "998877665544332211", "bob_tg"):
        assert other not in everything


def test_a_player_without_those_choices_gets_empty_ones(alice, bob, alices_history):
    data = json.loads(zipfile.ZipFile(io.BytesIO(export.build_zip(alice))).read("reach.json"))
    assert data == {"chat_names": None, "warnings_before_a_deadline_hours": [],
                    "channels": {"email": True, "push": True, "bell": True}, "quiet_hours": None,
                    "calendar_feed": False}
    [played] = json.loads(zipfile.ZipFile(io.BytesIO(export.build_zip(alice))).read("games.json"))
    assert played["game"]["my_note"] is None


def test_deleting_the_account_drops_chat_names_choices_and_feed_and_keeps_notes_with_the_seats(
        client, alice, bob, alices_history, password):
    """accounts.services.user_delete: the person's rows go with the account (chat names, reminder
    choices, the calendar's secret: its address is a 404 at once); the notes stay with the seat,
    as the game's record does (reach/models.py), a revealed one still in the replay."""
    from chats.models import Identity
    from reach.models import Note, Reach

    token = _reach_data(alice, bob, alices_history)
    feed = reverse("reach:calendar", args=[token])
    assert Client().get(feed).status_code == 200

    services.user_delete(user=alice, password=password)

    assert not Identity.objects.filter(user_id=alice.pk).exists() and Identity.objects.filter(user=bob).exists()
    assert not Reach.objects.filter(user_id=alice.pk).exists()
    assert Client().get(feed).status_code == 404
    assert sorted(Note.objects.filter(game=alices_history).values_list("text", flat=True)) == [
        "Bob hoards the oranges <b>!</b>", "Bob's own plan"]
    client.force_login(bob)
    replay = client.get(reverse("games:game_replay", args=[alices_history.pk])).content.decode()
    assert "Bob hoards the oranges &lt;b&gt;!&lt;/b&gt;" in replay
    assert "Bob&#x27;s own plan" not in replay and "Bob's own plan" not in replay
