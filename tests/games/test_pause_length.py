"""A pause lasts at most the table's ``pause_max_minutes`` (RULES.md 16, issue 26 item 15): then
the countdown to resume starts by itself, as if every player had confirmed. The option is set
on the table form and shown on the lobby card and the table page. A fake clock throughout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services, tasks
from games.aids import pause
from games.aids import services as aids
from games.models import Game, Pause, Table
from tests.games.play_helpers import users_by_seat

pytestmark = pytest.mark.django_db


def _paused(alice, bob, clock, **options) -> tuple[Game, dict, Pause]:
    table = services.table_create(host=alice, name="Live", preset="classic", pace=Table.Pace.LIVE,
                                  seat_count=2, **options)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    users = users_by_seat(game)
    game.refresh_from_db()
    clock.now += timedelta(seconds=5)
    aids.pause_ask(game=game, user=users[0])
    aids.pause_answer(game=game, user=users[1], agree=True)
    game.refresh_from_db()
    row = Pause.objects.get(game=game)
    assert row.status == Pause.Status.PAUSED
    return game, users, row


def test_a_pause_nobody_ends_resumes_by_itself_after_the_tables_longest_pause(alice, bob, clock):
    game, users, row = _paused(alice, bob, clock)
    paused_at, left = clock.now, row.remaining
    aids.pause_confirm(game=game, user=users[0])  # one player is ready; the other never says

    clock.now = paused_at + timedelta(minutes=15) - timedelta(seconds=1)
    assert tasks.expire_pauses() == 0
    assert Pause.objects.get(game=game).status == Pause.Status.PAUSED

    # The sweep comes a little late: the countdown still starts when the 15 minutes ran out.
    clock.now = paused_at + timedelta(minutes=15, seconds=3)
    assert tasks.expire_pauses() == 1
    row = Pause.objects.get(game=game)
    cap = paused_at + timedelta(minutes=15)
    assert row.status == Pause.Status.RESUMING
    assert row.resume_at == cap + timedelta(seconds=pause.COUNTDOWN_SECONDS)
    game.refresh_from_db()
    assert game.deadline == row.resume_at + left
    assert tasks.expire_pauses() == 0  # (once)

    clock.now = row.resume_at
    assert not pause.is_paused(game)
    sub = services.game_submit_action(game=game, user=users[game.current_seat], action={"type": "roll"},
                                      expected_version=game.version)
    assert sub.actions >= 1


def test_the_longest_pause_is_the_tables_option(alice, bob, clock):
    game, _users, _row = _paused(alice, bob, clock, pause_max_minutes=5)
    paused_at = clock.now
    clock.now = paused_at + timedelta(minutes=5)
    assert tasks.expire_pauses() == 1
    assert Pause.objects.get(game=game).status == Pause.Status.RESUMING


@pytest.mark.parametrize("bad", [0, 121, "15", None])
def test_a_longest_pause_out_of_range_is_refused(alice, bad):
    with pytest.raises(services.GameError):
        services.table_create(host=alice, name="Live", preset="classic", pace=Table.Pace.LIVE,
                              pause_max_minutes=bad)
    assert not Table.objects.exists()


def test_the_option_is_on_the_form_the_card_and_the_table_page(client, alice):
    client.force_login(alice)
    form = client.get(reverse("games:table_new"))
    assert 'name="pause_max_minutes"' in form.content.decode()

    refused = client.post(reverse("games:table_create"),
                          {"name": "Quick", "preset": "classic", "pace": "live", "pause_max_minutes": "0"})
    assert refused.status_code == 200 and not Table.objects.exists()

    response = client.post(reverse("games:table_create"),
                           {"name": "Quick", "preset": "classic", "pace": "live", "pause_max_minutes": "8"})
    table = Table.objects.get()
    assert response.status_code == 302 and table.pause_max_minutes == 8
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "A pause lasts at most 8 minutes." in lobby
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Longest pause" in page and "8 minutes" in page



def test_the_pause_panel_says_when_the_countdown_starts_by_itself(client, alice, bob, clock):
    game, users, _row = _paused(alice, bob, clock, pause_max_minutes=5)
    auto = clock.now + timedelta(minutes=5)
    clock.now += timedelta(minutes=2)
    client.force_login(users[0])

    page = client.get(reverse("games:game", args=[game.pk])).content.decode()

    assert ("Without them, the countdown to resume starts by itself in "
            f'<time datetime="{auto.isoformat()}" data-deadline>') in page
