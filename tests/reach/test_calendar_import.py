"""The private calendar feed imported by a calendar application's own parser (issue 29), not only
read back by the ``icalendar`` package that wrote it: Mozilla's ical.js, the parser of
Thunderbird's calendar, run by Node.js on ``tests/calendar_import/import.mjs`` (pinned in its
package-lock.json, installed by bin/setup). Google and Apple Calendar need the internet; this
runs here and in CI. A feed ical.js cannot read fails the import, as it would in Thunderbird."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from games.aids import services as aids
from games.engine import waiting_on
from games.links import absolute, game_path
from reach import choices
from tests.games.play_helpers import play_until, users_by_seat

pytestmark = pytest.mark.slow

FOLDER = Path(__file__).resolve().parent.parent / "calendar_import"
# Long enough to be folded, with characters of two, three and four octets on the fold's way.
# (A table's name has at most 80 characters.)
LONG_NAME = "Partida de Núria i Joan, la taula dels dilluns al vespre — ✓ 🎲 — nom llarg"


def _import(body: bytes) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None or not (FOLDER / "node_modules" / "ical.js" / "package.json").exists():
        pytest.skip("ical.js is not installed: bin/setup installs it with npm (needs Node.js)")
    return subprocess.run([node, str(FOLDER / "import.mjs")], input=body, capture_output=True, timeout=60)


def _imported(body: bytes) -> dict:
    done = _import(body)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def _iso(moment) -> str:
    """An instant as ical.js writes it (toISOString: UTC, milliseconds); iCalendar counts whole
    seconds."""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _feed(client, user) -> bytes:
    response = client.get(reverse("reach:calendar", args=[choices.of(user.pk).calendar_token]))
    assert response.status_code == 200
    return response.content


@pytest.mark.django_db
def test_thunderbirds_parser_imports_the_waiting_game_its_alarms_and_a_vacation(alice, bob, make_game, client):
    alice.language = "es"
    alice.save(update_fields=["language"])
    game = make_game(alice, bob, name=LONG_NAME, turn_hours=72)
    mine = next(p for p, u in users_by_seat(game).items() if u == alice)
    game = play_until(game, lambda state: waiting_on(state) == [mine])
    aids.vacation_take(game=game, user=alice, days=2)
    choices.save(user=alice, warnings=[8, 1], email=True, push=True, bell=True, quiet_start=None, quiet_end=None)
    choices.calendar_reset(user=alice)
    game.refresh_from_db()
    assert game.table.name == LONG_NAME

    calendar = _imported(_feed(client, alice))

    assert calendar["version"] == "2.0" and "Monopoly" in calendar["prodid"]
    assert calendar["name"].endswith(": tus partidas")
    events = {e["summary"]: e for e in calendar["events"]}
    assert len(events) == 2, events
    # The long name comes back whole: folded at 75 octets, never inside a character.
    wait = events[f"Te toca en «{LONG_NAME}»"]
    assert wait["uid"].startswith(f"wait-{game.pk}-{mine}-")
    assert wait["end"] == _iso(game.deadline)
    assert wait["start"] < wait["end"] and wait["transparent"]
    url = absolute(game_path(game.pk))
    assert wait["url"] == url and url in wait["description"]
    assert wait["alarms"] == [
        {"action": "DISPLAY", "related": "END", "seconds": -8 * 3600,
         "description": f"Quedan 8 horas en «{LONG_NAME}»"},
        {"action": "DISPLAY", "related": "END", "seconds": -3600,
         "description": f"Queda 1 hora en «{LONG_NAME}»"},
    ]
    vacation = events[f"De vacaciones en «{LONG_NAME}»"]
    assert vacation["uid"].startswith("vacation-") and vacation["url"] == url
    assert vacation["alarms"] == []
    from games.models import Vacation

    row = Vacation.objects.get(game=game)
    assert (vacation["start"], vacation["end"]) == (_iso(row.started_at), _iso(row.until))
    assert row.until - row.started_at == timedelta(days=2)


@pytest.mark.django_db
def test_a_feed_thunderbirds_parser_cannot_read_fails_the_import(alice, bob, make_game, client):
    """The import can fail: the same feed, broken as a careless writer would break it."""
    game = make_game(alice, bob, name=LONG_NAME, turn_hours=72)
    mine = next(p for p, u in users_by_seat(game).items() if u == alice)
    play_until(game, lambda state: waiting_on(state) == [mine])
    choices.calendar_reset(user=alice)
    body = _feed(client, alice)
    assert _import(body).returncode == 0
    assert b"\r\n " in body  # (a folded line, to unfold wrongly below)

    broken = {
        # A continuation line without its leading space: a line of no property.
        "folding": body.replace(b"\r\n ", b"\r\n", 1),
        # Cut short: the calendar never ends.
        "truncated": body[: body.index(b"END:VEVENT")],
        # An event without its UID (RFC 5545 3.6.1: required; a calendar could not update it).
        "no uid": b"".join(line for line in body.splitlines(keepends=True) if not line.startswith(b"UID:")),
        # A deadline with no zone: floating, a different instant in every reader's zone.
        "floating": body.replace(b"Z\r\n", b"\r\n"),
    }
    for why, feed in broken.items():
        assert feed != body, why
        done = _import(feed)
        assert done.returncode == 1, (why, done.stdout.decode())
        assert "ical.js could not import the feed" in done.stderr.decode(), why
