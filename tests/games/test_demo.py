from __future__ import annotations

import pytest

from games.demo import create_demo_game
from games.models import Game, Table


@pytest.mark.django_db
def test_create_demo_game_twice_makes_one_game_against_three_strategy_bots(alice):
    first = create_demo_game(alice)
    second = create_demo_game(alice)

    assert first.pk == second.pk
    assert Game.objects.count() == 1
    assert Table.objects.count() == 1
    table = first.table
    assert (table.name, table.preset, table.pace, table.turn_hours) == (
        "Demo",
        "classic",
        "correspondence",
        24,
    )
    assert not table.is_private
    seats = list(table.seats.all())
    assert seats[0].user == alice
    assert [s.bot for s in seats[1:]] == ["strategy"] * 3
    assert first.status == Game.Status.ACTIVE
    # The bots have played up to the demo user's first decision.
    assert first.waiting_seats == [0]


@pytest.mark.django_db
def test_a_finished_demo_game_is_replaced_by_a_new_one(alice):
    first = create_demo_game(alice)
    Game.objects.filter(pk=first.pk).update(status=Game.Status.FINISHED)

    second = create_demo_game(alice)

    assert second.pk != first.pk
    assert second.status == Game.Status.ACTIVE
