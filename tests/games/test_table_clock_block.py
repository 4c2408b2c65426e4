"""A table's clock options change only before its game starts (RULES.md 16, issue 28): the host
may change them on the table page while it is open; once the game started the service refuses,
saying why, and nothing changes (a page drawn before the start, a forged form)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services, table_clock
from games.models import Table

pytestmark = pytest.mark.django_db

CLOCK = {"time_bank_hours": "72", "time_bank_increment_hours": "4", "playing_hours": "08:00-22:00",
         "count_weekends": "off", "round_limit": "40"}


def _table(alice, bob) -> Table:
    table = services.table_create(host=alice, name="Friends", preset="classic", seat_count=2)
    services.table_join(table=table, user=bob)
    return table


def test_the_host_changes_the_clock_of_an_open_table(client, alice, bob):
    table = _table(alice, bob)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Change the clock" in page
    assert client.post(reverse("games:table_clock", args=[table.pk]), CLOCK).status_code == 302
    table.refresh_from_db()
    assert (table.time_bank_hours, table.time_bank_increment_hours, table.playing_hours, table.count_weekends,
            table.round_limit) == (72, 4, "08:00-22:00", False, 40)
    # The game starts on that clock.
    game = services.table_start(table=table, by=alice)
    assert game.aids["clock"]["run"] and game.state["rules"]["options"]["round_limit"] == 40


def test_the_clock_cannot_change_once_the_game_started(client, alice, bob):
    table = _table(alice, bob)
    services.table_start(table=table, by=alice)
    with pytest.raises(services.GameError, match="cannot change"):
        table_clock.table_clock_set(table=table, by=alice, time_bank_hours=72, time_bank_increment_hours=4,
                                    playing_hours="08:00-22:00", count_weekends=False, round_limit=40)
    client.force_login(alice)
    response = client.post(reverse("games:table_clock", args=[table.pk]), CLOCK, follow=True)
    assert "The clock of a game that has started cannot change" in response.content.decode()
    table.refresh_from_db()
    assert (table.time_bank_hours, table.playing_hours, table.count_weekends, table.round_limit) == (0, "", True, None)


def test_only_the_host_and_only_a_clock_that_works(client, alice, bob):
    table = _table(alice, bob)
    with pytest.raises(services.NotAllowed, match="only the host"):
        table_clock.table_clock_set(table=table, by=bob, time_bank_hours=72, time_bank_increment_hours=4,
                                    playing_hours="", count_weekends=True, round_limit=None)
    with pytest.raises(services.GameError, match="zero length"):
        table_clock.table_clock_set(table=table, by=alice, time_bank_hours=0, time_bank_increment_hours=0,
                                    playing_hours="08:00-08:00", count_weekends=True, round_limit=None)
    client.force_login(alice)
    response = client.post(reverse("games:table_clock", args=[table.pk]), dict(CLOCK, time_bank_hours="9999"),
                           follow=True)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.time_bank_hours == 0
