"""Tables: create (validated by the engine), join, leave, bots, teams, start."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, GameAction, Seat, Table
from games.options import table_rules
from tests.factories import UserFactory


@pytest.mark.django_db
def test_table_create_seats_the_host_and_keeps_the_options(alice):
    table = services.table_create(
        host=alice,
        name="Friday",
        preset="classic",
        options={"free_parking_jackpot": True},
        seat_count=3,
    )

    seats = list(table.seats.all())
    assert [s.position for s in seats] == [0, 1, 2]
    assert seats[0].user == alice
    assert all(s.is_empty for s in seats[1:])
    assert table.options == {"free_parking_jackpot": True}
    assert table.is_custom
    assert table.status == Table.Status.OPEN


@pytest.mark.django_db
def test_table_create_refuses_a_bad_option_naming_it(alice):
    with pytest.raises(services.GameError, match="start_cash"):
        services.table_create(host=alice, name="x", preset="classic", options={"start_cash": -5})
    with pytest.raises(services.GameError, match="houses_before_hotel"):
        services.table_create(
            host=alice, name="x", preset="classic", options={"houses_before_hotel": 6}
        )
    with pytest.raises(services.GameError, match="no_such_rule"):
        services.table_create(host=alice, name="x", preset="classic", options={"no_such_rule": 1})

    assert not Table.objects.exists()


@pytest.mark.django_db
def test_table_create_refuses_seats_outside_the_presets_range_and_bad_hours(alice):
    with pytest.raises(services.GameError, match="3 to 3"):
        services.table_create(host=alice, name="x", preset="world-duel", seat_count=4)
    with pytest.raises(services.GameError, match="hours"):
        services.table_create(host=alice, name="x", preset="classic", turn_hours=5)

    assert not Table.objects.exists()


@pytest.mark.django_db
def test_join_fills_a_seat_and_refuses_a_double_join_and_a_full_table(
    alice, bob, charlie, make_table
):
    table = make_table(alice, seat_count=2)

    seat = services.table_join(table=table, user=bob)

    assert seat.position == 1 and seat.user == bob
    with pytest.raises(services.GameError, match="already have a seat"):
        services.table_join(table=table, user=bob)
    with pytest.raises(services.GameError, match="full"):
        services.table_join(table=table, user=charlie)
    assert table.seats.filter(user__isnull=False).count() == 2


@pytest.mark.django_db
def test_join_a_chosen_seat_and_refuse_a_taken_one(alice, bob, charlie, make_table):
    table = make_table(alice, seat_count=4)

    assert services.table_join(table=table, user=bob, position=3).position == 3
    with pytest.raises(services.GameError, match="taken"):
        services.table_join(table=table, user=charlie, position=3)


@pytest.mark.django_db
def test_a_player_leaves_and_the_host_leaving_cancels_the_table(alice, bob, charlie, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)

    services.table_leave(table=table, user=bob)

    assert not table.seats.filter(user=bob).exists()
    with pytest.raises(services.GameError, match="no seat"):
        services.table_leave(table=table, user=charlie)
    services.table_leave(table=table, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    with pytest.raises(services.GameError, match="no longer open"):
        services.table_join(table=table, user=charlie)


@pytest.mark.django_db
def test_change_seat_moves_a_player_to_an_empty_seat_only(alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob, position=1)

    services.table_change_seat(table=table, user=bob, position=2)

    assert table.seats.get(position=2).user == bob
    assert table.seats.get(position=1).is_empty
    with pytest.raises(services.GameError, match="taken"):
        services.table_change_seat(table=table, user=bob, position=0)


@pytest.mark.django_db
def test_only_the_host_seats_and_removes_bots_and_only_in_empty_seats(alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob, position=1)

    with pytest.raises(services.NotAllowed):
        services.table_set_seat(table=table, by=bob, position=2, bot="random")
    with pytest.raises(services.GameError, match="player sits there"):
        services.table_set_seat(table=table, by=alice, position=1, bot="random")
    with pytest.raises(services.GameError, match="unknown bot"):
        services.table_set_seat(table=table, by=alice, position=2, bot="genius")

    services.table_set_seat(table=table, by=alice, position=2, bot="strategy")
    assert table.seats.get(position=2).bot == "strategy"
    services.table_set_seat(table=table, by=alice, position=2, bot="")
    assert table.seats.get(position=2).is_empty


@pytest.mark.django_db
def test_start_only_by_the_host_and_only_when_every_seat_is_filled(alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)

    with pytest.raises(services.GameError, match="every seat"):
        services.table_start(table=table, by=alice)
    services.table_set_seat(table=table, by=alice, position=2, bot="random")
    with pytest.raises(services.NotAllowed):
        services.table_start(table=table, by=bob)
    assert not Game.objects.exists()

    game = services.table_start(table=table, by=alice)

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert game.status == Game.Status.ACTIVE
    assert game.version >= 1
    assert GameAction.objects.filter(game=game, seq=0, action__type="start").exists()
    assert game.deadline is not None
    with pytest.raises(services.GameError, match="no longer open"):
        services.table_start(table=table, by=alice)


@pytest.mark.django_db
def test_team_picking_keeps_two_players_a_team(alice, bob, charlie, make_table):
    dave = UserFactory(username="dave")
    table = make_table(alice, preset="world-teams")
    assert table.seat_count == 4
    services.table_join(table=table, user=bob)
    services.table_join(table=table, user=charlie)
    # Newcomers are balanced: two a team.
    teams = {s.user_id: s.team for s in table.seats.filter(user__isnull=False)}
    assert sorted(teams.values()) in ([0, 0, 1], [0, 1, 1])

    mine = table.seats.get(user=alice).team
    partner = next(u for u, t in teams.items() if t == mine and u != alice.pk)
    other = next(u for u, t in teams.items() if t != mine)
    # Alice's team has two: the third player cannot join it.
    from accounts.models import User

    with pytest.raises(services.GameError, match="full"):
        services.table_set_team(table=table, user=User.objects.get(pk=other), team=mine)
    # The partner switches sides, then the other player may take the place.
    services.table_set_team(table=table, user=User.objects.get(pk=partner), team=1 - mine)
    services.table_set_team(table=table, user=User.objects.get(pk=other), team=mine)
    services.table_join(table=table, user=dave)

    seats = list(table.seats.all())
    assert sorted(s.team for s in seats) == [0, 0, 1, 1]
    game = services.table_start(table=table, by=alice)
    teams_in_game = game.state["teams"]
    assert sorted(len(t) for t in teams_in_game) == [2, 2]
    assert any(set(t) == {s.position for s in seats if s.team == mine} for t in teams_in_game)


@pytest.mark.django_db
def test_team_picking_is_refused_outside_team_games_and_bots_move_only_by_the_host(
    alice, bob, make_table
):
    with pytest.raises(services.GameError, match="not a team game"):
        services.table_set_team(table=make_table(alice), user=alice, team=1)
    table = make_table(alice, preset="world-teams")
    services.table_join(table=table, user=bob)
    services.table_set_seat(table=table, by=alice, position=2, bot="random")

    with pytest.raises(services.NotAllowed):
        services.table_set_team(table=table, user=bob, team=0, position=2)
    seat = services.table_set_team(
        table=table, user=alice, team=1 - table.seats.get(position=2).team, position=2
    )
    assert Seat.objects.get(pk=seat.pk).team == seat.team


@pytest.mark.django_db
def test_correspondence_tables_count_the_world_thresholds_in_rounds(alice, make_table):
    table = make_table(alice, preset="world-classic", pace="correspondence", turn_hours=72)
    rules = table_rules(preset=table.preset, options=table.options, pace=table.pace)

    assert rules.salary_stops_minutes is None and rules.rent_tax_minutes is None
    assert rules.salary_stops_round == 40
    assert rules.rent_tax_round == 50
    assert rules.rent_tax_step_rounds == 3
    # The conversion is the pace's, not a custom change.
    assert not table.is_custom


@pytest.mark.django_db
def test_correspondence_tables_take_the_hosts_rounds_and_live_tables_keep_minutes(
    alice, make_table
):
    corr = table_rules(
        preset="world-quick", options={"salary_stops_round": 12}, pace="correspondence"
    )
    never = table_rules(
        preset="world-quick", options={"rent_tax_minutes": None}, pace="correspondence"
    )
    live = table_rules(preset="world-quick", options={}, pace="live")

    assert (corr.salary_stops_round, corr.salary_stops_minutes) == (12, None)
    assert (never.rent_tax_round, never.rent_tax_minutes) == (None, None)
    assert (live.salary_stops_minutes, live.rent_tax_minutes, live.salary_stops_round) == (
        30,
        40,
        None,
    )
    table = make_table(alice, preset="world-quick", pace="live")
    assert table.turn_hours is None


@pytest.mark.django_db
def test_invitation_create_only_by_the_host_and_once_per_address(alice, bob, charlie, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)

    first = services.invitation_create(table=table, by=alice, email=" Dave@Example.com ")
    again = services.invitation_create(table=table, by=alice, email="dave@example.com")

    assert (first.status, again.status) == (services.Invited.SENT, services.Invited.ALREADY)
    assert first.invitation.pk == again.invitation.pk
    assert first.invitation.email == "dave@example.com"
    # A seated player who is not the host may not invite, nor may a stranger.
    for user in (bob, charlie):
        with pytest.raises(services.NotAllowed):
            services.invitation_create(table=table, by=user, email="eve@example.com")
    assert list(table.invitations.values_list("email", flat=True)) == ["dave@example.com"]
