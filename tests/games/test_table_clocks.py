"""The clock options of a correspondence table (RULES.md 16, issue 28): a time bank with its
increment, playing hours and weekends, in the table's zone (the host's). Set on the table form
with a line of explanation each, shown on the lobby card and the table page, refused with a
clear message (and nothing written) when no decision could live with them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def madrid(alice):
    alice.time_zone = "Europe/Madrid"
    alice.save(update_fields=["time_zone"])
    return alice


def test_a_table_keeps_its_clock_in_its_hosts_zone(madrid):
    table = services.table_create(
        host=madrid,
        name="Slow",
        preset="classic",
        turn_hours=24,
        time_bank_hours=72,
        time_bank_increment_hours=4,
        playing_hours=" 08:00-22:00 ",
        count_weekends=False,
    )
    table.refresh_from_db()
    assert (table.time_bank_hours, table.time_bank_increment_hours) == (72, 4)
    assert (table.playing_hours, table.count_weekends, table.time_zone) == ("08:00-22:00", False, "Europe/Madrid")
    assert table.hours is not None and (table.hours.start, table.hours.end) == (8 * 60, 22 * 60)


def test_a_table_without_clock_options_counts_every_hour(madrid):
    table = services.table_create(host=madrid, name="Plain", preset="classic")
    assert (table.time_bank_hours, table.playing_hours, table.count_weekends) == (0, "", True)
    assert table.hours is None


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"playing_hours": "08:00-08:00"}, "zero length"),
        ({"playing_hours": "8 to 10"}, "HH:MM-HH:MM"),
        ({"time_bank_hours": 721}, "at most 30 days"),
        ({"time_bank_increment_hours": 4}, "needs a time bank"),
        ({"time_bank_hours": 2, "time_bank_increment_hours": 3}, "larger than the time bank"),
        ({"time_bank_hours": "72"}, "whole hours"),
    ],
)
def test_impossible_clocks_are_refused_and_nothing_is_written(madrid, options, words):
    with pytest.raises(services.GameError, match=words):
        services.table_create(host=madrid, name="Bad", preset="classic", **options)
    assert not Table.objects.exists()


def test_live_tables_have_no_clock_options(madrid):
    table = services.table_create(
        host=madrid,
        name="Live",
        preset="classic",
        pace=Table.Pace.LIVE,
        time_bank_hours=72,
        playing_hours="08:00-22:00",
        count_weekends=False,
    )
    assert (table.time_bank_hours, table.playing_hours, table.count_weekends) == (0, "", True)


def test_the_options_are_on_the_form_the_card_and_the_table_page(client, madrid):
    client.force_login(madrid)
    form = client.get(reverse("games:table_new")).content.decode()
    for name in ("time_bank_hours", "time_bank_increment_hours", "playing_hours", "count_weekends"):
        assert f'name="{name}"' in form
    assert "e.g. 08:00-22:00" in form

    base = {"name": "Slow", "preset": "classic", "pace": "correspondence", "turn_hours": "24"}
    refused = client.post(reverse("games:table_create"), {**base, "playing_hours": "22:00-22:00"})
    assert refused.status_code == 200 and not Table.objects.exists()
    assert "Playing hours of zero length: no decision could ever be answered." in refused.content.decode()
    refused = client.post(reverse("games:table_create"), {**base, "time_bank_hours": "800"})
    assert refused.status_code == 200 and not Table.objects.exists()

    response = client.post(
        reverse("games:table_create"),
        {
            **base,
            "time_bank_hours": "72",
            "time_bank_increment_hours": "4",
            "playing_hours": "08:00-22:00",
            "count_weekends": "off",
        },
    )
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.time_bank_hours, table.playing_hours, table.count_weekends) == (72, "08:00-22:00", False)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Time bank 3 d, plus 4 h for each answer in time" in lobby
    assert "Clocks run 08:00\N{EN DASH}22:00 on weekdays (Europe/Madrid)" in lobby
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Time bank 3 d, plus 4 h for each answer in time" in page


def test_a_form_without_the_clock_fields_makes_a_table_with_the_defaults(client, madrid):
    client.force_login(madrid)
    client.post(
        reverse("games:table_create"),
        {"name": "Old form", "preset": "classic", "pace": "correspondence", "turn_hours": "24"},
    )
    table = Table.objects.get()
    assert (table.time_bank_hours, table.playing_hours, table.count_weekends) == (0, "", True)
