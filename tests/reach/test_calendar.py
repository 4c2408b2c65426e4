"""The private calendar feed (issue 29): RFC 5545 as the icalendar parser reads it, every game
waiting on its owner ending at the deadline with alarms at their warnings, their vacations; a
secret URL that a reset replaces (the old one is then a 404)."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from games.aids import services as aids
from games.engine import waiting_on
from reach import choices
from tests.games.play_helpers import play_until, users_by_seat

LONG_NAME = "A table with a rather long name, to see the feed's lines folded at seventy-five octets ✓"


def _game_waiting_on(user, other, make_game, **kwargs):
    game = make_game(user, other, **kwargs)
    mine = next(p for p, u in users_by_seat(game).items() if u == user)
    game = play_until(game, lambda state: waiting_on(state) == [mine])
    game.refresh_from_db()
    return game, mine


def _feed(client, user) -> tuple[bytes, str]:
    token = choices.of(user.pk).calendar_token
    url = reverse("reach:calendar", args=[token])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return response.content, url


@pytest.mark.django_db
def test_the_feed_is_rfc_5545_with_the_waiting_game_and_its_alarms(alice, bob, make_game, client):
    game, _mine = _game_waiting_on(alice, bob, make_game, name=LONG_NAME, turn_hours=72)
    choices.save(user=alice, warnings=[8, 1], email=True, push=True, bell=True, quiet_start=None, quiet_end=None)
    choices.calendar_reset(user=alice)
    body, _url = _feed(client, alice)  # (no login: the URL is the key)

    # Lines end in CRLF and none is longer than 75 octets (RFC 5545 3.1), the long name folded.
    lines = body.split(b"\r\n")
    assert all(len(line) <= 75 for line in lines)
    assert any(line.startswith(b" ") for line in lines)
    assert b"\n" not in body.replace(b"\r\n", b"")

    cal = Calendar.from_ical(body)
    assert cal["VERSION"] == "2.0"
    assert "Monopoly" in str(cal["PRODID"])
    (event,) = cal.walk("VEVENT")
    assert str(event["UID"]).startswith(f"wait-{game.pk}-")
    assert event["DTSTAMP"].dt.tzinfo is not None and event["DTSTAMP"].dt.utcoffset() == timedelta(0)
    # (iCalendar counts whole seconds: the event ends at the deadline's second, not after it.)
    assert event["DTEND"].dt == game.deadline.astimezone(UTC).replace(microsecond=0)
    assert event["DTEND"].dt.utcoffset() == timedelta(0)
    assert b"DTEND:" in body and body.count(b"Z\r\n") >= 3  # UTC times: "…Z", no VTIMEZONE needed
    assert not cal.walk("VTIMEZONE")
    assert game.table.name in str(event["SUMMARY"]) and len(game.table.name) > 70
    alarms = event.walk("VALARM")
    assert sorted(a["TRIGGER"].dt for a in alarms) == [timedelta(hours=-8), timedelta(hours=-1)]
    assert all(a["TRIGGER"].params["RELATED"] == "END" and a["ACTION"] == "DISPLAY" for a in alarms)

    # Fetched again: the same UID (calendars update the event, they do not add a copy).
    again = Calendar.from_ical(_feed(client, alice)[0])
    assert [str(e["UID"]) for e in again.walk("VEVENT")] == [str(event["UID"])]

    # Bob's feed has no event of a game that waits on Alice.
    choices.calendar_reset(user=bob)
    assert Calendar.from_ical(_feed(client, bob)[0]).walk("VEVENT") == []


@pytest.mark.django_db
def test_a_vacation_is_in_the_feed(alice, bob, make_game, client):
    game, _mine = _game_waiting_on(alice, bob, make_game, name="Away")
    aids.vacation_take(game=game, user=alice, days=2)
    choices.calendar_reset(user=alice)
    cal = Calendar.from_ical(_feed(client, alice)[0])
    summaries = {str(e["SUMMARY"]): e for e in cal.walk("VEVENT")}
    vacation = summaries["On vacation in “Away”"]
    assert vacation["DTEND"].dt - vacation["DTSTART"].dt == timedelta(days=2)
    assert vacation["DTSTART"].dt.utcoffset() == timedelta(0)


@pytest.mark.django_db
def test_a_reset_makes_a_new_url_and_the_old_one_a_404(alice, client):
    client.force_login(alice)
    settings_url = reverse("reach:settings")
    assert "calendar/" not in client.get(settings_url).content.decode().split("feed-url")[0][-10:]
    client.post(reverse("reach:calendar_reset"))
    first = choices.of(alice.pk).calendar_token
    page = client.get(settings_url).content.decode()
    assert reverse("reach:calendar", args=[first]) in page
    client.post(reverse("reach:calendar_reset"))
    second = choices.of(alice.pk).calendar_token
    assert second != first
    client.logout()
    assert client.get(reverse("reach:calendar", args=[first])).status_code == 404
    assert client.get(reverse("reach:calendar", args=[second])).status_code == 200
    assert client.get(reverse("reach:calendar", args=["guess"])).status_code == 404
    # A feed is only read: a POST to it is refused.
    assert client.post(reverse("reach:calendar", args=[second])).status_code == 405
    assert timezone.now()
