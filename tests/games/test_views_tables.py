"""The lobby, the create-table form, the table page and its writes, "My games"."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

import pytest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from games import services
from games.models import Game, Table
from tests.factories import UserFactory


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- Lobby ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_lobby_lists_open_public_tables_only(client, alice, bob, make_table, make_game):
    open_public = make_table(alice, name="Open public")
    make_table(alice, name="Hidden private", is_private=True)
    cancelled = make_table(bob, name="Cancelled one")
    services.table_leave(table=cancelled, user=bob)
    make_game(bob, alice, name="Already playing")

    response = client.get(reverse("games:lobby"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Open public" in html
    assert reverse("games:table", args=[open_public.pk]) in html
    # (A game in play is listed below the open tables, to watch: tests/games/test_watch.py.)
    open_tables = html[html.index('id="lobby-list"'):html.index('class="lobby-watch"')]
    for hidden in ("Hidden private", "Cancelled one", "Already playing"):
        assert hidden not in open_tables
    assert "Hidden private" not in html and "Cancelled one" not in html


@pytest.mark.django_db
def test_lobby_card_lists_every_change_from_the_preset_and_marks_custom_tables(
    client, alice, make_table
):
    make_table(
        alice, name="Jackpot night", options={"free_parking_jackpot": True, "start_cash": 2000}
    )
    make_table(alice, name="Plain")

    html = client.get(reverse("games:lobby")).content.decode()

    jackpot = html[html.index("Jackpot night") :]
    jackpot = jackpot[: jackpot.index("</article>")]
    assert "custom, unrated" in jackpot
    assert "Free Parking jackpot" in jackpot and "Start cash" in jackpot and "2,000" in jackpot
    assert "1 of 4" in jackpot or "1 of 8" in jackpot
    plain = html[html.index("Plain") :]
    assert "custom, unrated" not in plain[: plain.index("</article>")]


@pytest.mark.django_db
def test_lobby_runs_a_fixed_number_of_queries(
    client, alice, make_table, django_assert_max_num_queries
):
    for i in range(12):
        make_table(UserFactory(), name=f"Table {i}", options={"start_cash": 1000 + i})
    client.force_login(alice)

    # (Two of them are the games in progress: tests/games/test_watch.py.)
    with django_assert_max_num_queries(8):
        response = client.get(reverse("games:lobby"))

    assert response.content.decode().count('table-card"') == 12


@pytest.mark.django_db
def test_lobby_htmx_poll_gets_the_list_fragment(client, alice, make_table):
    make_table(alice, name="Fragmented")

    response = client.get(reverse("games:lobby"), headers={"HX-Request": "true"})

    html = response.content.decode()
    assert "Fragmented" in html
    assert "<html" not in html


# --- Create a table -------------------------------------------------------------------------


@pytest.mark.django_db
def test_create_table_form_needs_a_login(client):
    response = client.get(reverse("games:table_new"))

    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


@pytest.mark.django_db
def test_create_table_makes_a_table_and_shows_it(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("games:table_create"),
        {
            "name": "Sunday",
            "preset": "world-classic",
            "seat_count": "3",
            "pace": "correspondence",
            "turn_hours": "12",
            "start_cash": "20000",
            "free_parking_jackpot": "",
        },
    )

    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert (table.name, table.preset, table.seat_count, table.turn_hours) == (
        "Sunday",
        "world-classic",
        3,
        12,
    )
    assert table.options == {"start_cash": 20000}
    assert table.seats.get(position=0).user == alice


@pytest.mark.django_db
def test_create_table_form_refuses_an_invalid_option_naming_it(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("games:table_create"),
        {
            "preset": "world-classic",
            "pace": "correspondence",
            "turn_hours": "24",
            "builds_per_turn": "0",
            "houses_before_hotel": "5",
        },
    )

    assert response.status_code == 200
    assert not Table.objects.exists()
    errors = response.context["form"].errors
    # The engine's own message, shown on the field it names.
    assert errors["houses_before_hotel"] == [
        "option 'houses_before_hotel': at most 4 houses fit on a deed"
    ]
    assert "option &#x27;houses_before_hotel&#x27;" in response.content.decode()

    # Every bad option gets its message at once.
    response = client.post(
        reverse("games:table_create"),
        {
            "preset": "classic",
            "pace": "live",
            "start_cash": "-5",
            "turn_seconds": "0",
        },
    )
    errors = response.context["form"].errors
    assert errors["start_cash"] == ["option 'start_cash': must be at least 0, got -5"]
    assert errors["turn_seconds"] == ["option 'turn_seconds': must be at least 1, got 0"]
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_create_table_form_checks_seats_against_the_rules_and_seconds_against_the_pace():
    from games.forms import TableForm

    form = TableForm(
        {"preset": "classic", "pace": "live", "houses_before_hotel": "4", "start_cash": "100"}
    )
    assert form.is_valid(), form.errors
    form = TableForm({"preset": "world-duel", "pace": "live", "seat_count": "4"})
    assert not form.is_valid()
    assert "3 to 3" in str(form.errors["seat_count"])
    form = TableForm({"preset": "classic", "pace": "correspondence", "turn_seconds": "30"})
    assert not form.is_valid()
    assert "turn_seconds" in form.errors


@pytest.mark.django_db
def test_create_table_form_engine_error_lands_on_the_named_field(monkeypatch):
    from games import forms
    from games.engine import InvalidRules

    def refuse(**kwargs):
        raise InvalidRules("option_too_small", key="'mortgage_expiry_rounds'", option="mortgage_expiry_rounds",
                           minimum=1, value=-1)

    monkeypatch.setattr(forms, "table_rules", refuse)
    form = forms.TableForm({"preset": "classic", "pace": "live", "mortgage_expiry_rounds": "3"})

    assert not form.is_valid()
    assert form.errors["mortgage_expiry_rounds"] == [
        "option 'mortgage_expiry_rounds': must be at least 1, got -1"
    ]


@pytest.mark.django_db
def test_create_table_form_leaves_out_values_equal_to_the_preset(alice):
    from games.forms import TableForm

    form = TableForm(
        {
            "preset": "classic",
            "pace": "correspondence",
            "turn_hours": "24",
            "start_cash": "1500",
            "even_building": "on",
            "salary_stops": "0",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["options"] == {}

    form = TableForm(
        {
            "preset": "world-classic",
            "pace": "correspondence",
            "turn_hours": "24",
            "salary_stops": "40",
            "rent_tax_from": "0",
            "speed_die_from_round": "5",
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["options"] == {"rent_tax_minutes": None, "speed_die_from_round": 5}


# --- Table page -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_public_table_page_shows_seats_to_visitors(client, alice, make_table):
    table = make_table(alice, name="Visible", seat_count=3)

    response = client.get(reverse("games:table", args=[table.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Visible" in html and "Alice" in html and "Sign in to join" in html


@pytest.mark.django_db
def test_private_table_is_hidden_but_reachable_by_its_invite_link(client, alice, bob, make_table):
    table = make_table(alice, name="Secret", is_private=True, seat_count=2)
    client.force_login(bob)

    assert client.get(reverse("games:table", args=[table.pk])).status_code == 404
    assert client.post(reverse("games:table_join", args=[table.pk])).status_code == 404

    page = client.get(reverse("games:invite", args=[table.invite_code]))
    assert page.status_code == 200
    assert "Secret" in page.content.decode()
    response = client.post(
        reverse("games:table_join", args=[table.pk]), {"code": table.invite_code}
    )

    assert response.status_code == 302
    assert table.seats.get(position=1).user == bob
    # Seated now, Bob sees the table page itself.
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 200


@pytest.mark.django_db
def test_invite_link_needs_a_login_and_a_real_code(client, alice, bob, make_table):
    table = make_table(alice, is_private=True)

    response = client.get(reverse("games:invite", args=[table.invite_code]))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    client.force_login(bob)
    assert client.get(reverse("games:invite", args=["not-a-code"])).status_code == 404


@pytest.mark.django_db
def test_writes_need_post_and_login_and_lead_people_back_to_the_table(client, alice, bob, make_table):
    table = make_table(alice)
    url = reverse("games:table_join", args=[table.pk])
    page = reverse("games:table", args=[table.pk])

    # Signed out (a session that ended): sign in, then back to the table page, not to this address.
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={quote(page)}"
    # Opened, not posted (where that sign-in used to lead): the table page, not an empty 405.
    client.force_login(bob)
    for name in ("table_join", "table_leave", "table_seat", "table_bot", "table_team",
                 "table_invite_email", "table_start"):
        response = client.get(reverse(f"games:{name}", args=[table.pk]))
        assert (response.status_code, response["Location"]) == (302, page), name
    response = client.get(reverse("games:table_create"))
    assert (response.status_code, response["Location"]) == (302, reverse("games:table_new"))
    assert not table.seats.filter(user=bob).exists()


@pytest.mark.django_db
def test_a_signed_out_join_through_an_invitation_link_comes_back_to_that_link(client, alice, make_table):
    table = make_table(alice, is_private=True)
    link = reverse("games:invite", args=[table.invite_code])

    response = client.post(reverse("games:table_join", args=[table.pk]), {"code": table.invite_code})

    assert response["Location"] == f"{reverse('account_login')}?next={quote(link)}"


@pytest.mark.django_db
def test_join_full_table_shows_the_error_as_a_message(client, alice, bob, charlie, make_table):
    table = make_table(alice, seat_count=2)
    services.table_join(table=table, user=bob)
    client.force_login(charlie)

    response = client.post(reverse("games:table_join", args=[table.pk]), follow=True)

    assert "The table is full" in _messages(response)
    assert not table.seats.filter(user=charlie).exists()


@pytest.mark.django_db
def test_host_adds_and_removes_bots_others_may_not(client, alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)
    url = reverse("games:table_bot", args=[table.pk])

    client.force_login(bob)
    response = client.post(url, {"position": 2, "bot": "random"}, follow=True)
    assert "Only the host may seat bots" in _messages(response)
    assert table.seats.get(position=2).is_empty

    client.force_login(alice)
    client.post(url, {"position": 2, "bot": "strategy"})
    assert table.seats.get(position=2).bot == "strategy"
    client.post(url, {"position": 2, "bot": ""})
    assert table.seats.get(position=2).is_empty


@pytest.mark.django_db
def test_htmx_write_returns_the_refreshed_table_body_with_its_message(client, alice, make_table):
    table = make_table(alice, seat_count=2)
    client.force_login(alice)

    response = client.post(
        reverse("games:table_bot", args=[table.pk]),
        {"position": 1, "bot": "random"},
        headers={"HX-Request": "true"},
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="table-body"' in html and "<html" not in html
    assert "Random bot" in html


@pytest.mark.django_db
def test_htmx_poll_answers_204_while_nothing_changed(client, alice, bob, make_table):
    table = make_table(alice, seat_count=2)
    client.force_login(alice)
    url = reverse("games:table", args=[table.pk])
    first = client.get(url)
    stamp = first.context["stamp"]

    unchanged = client.get(url, {"stamp": stamp}, headers={"HX-Request": "true"})
    services.table_join(table=table, user=bob)
    changed = client.get(url, {"stamp": stamp}, headers={"HX-Request": "true"})

    assert unchanged.status_code == 204
    assert changed.status_code == 200 and "Bob" in changed.content.decode()


@pytest.mark.django_db
def test_team_picker_on_the_table_page(client, alice, bob, make_table):
    table = make_table(alice, preset="world-teams")
    services.table_join(table=table, user=bob)
    client.force_login(bob)
    team = table.seats.get(user=bob).team

    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    client.post(reverse("games:table_team", args=[table.pk]), {"team": 1 - team})

    assert "Switch team" in html
    assert table.seats.get(user=bob).team == 1 - team


@pytest.mark.django_db
def test_start_refused_until_full_then_goes_to_the_game(client, alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)
    client.force_login(alice)
    url = reverse("games:table_start", args=[table.pk])

    refused = client.post(url, follow=True)
    assert any("Every seat must be filled" in m for m in _messages(refused))
    assert not Game.objects.exists()

    services.table_set_seat(table=table, by=alice, position=2, bot="random")
    client.force_login(bob)
    assert "Only the host" in " ".join(_messages(client.post(url, follow=True)))
    client.force_login(alice)
    response = client.post(url)

    game = Game.objects.get()
    assert response.status_code == 302
    try:
        expected = reverse("games:game", kwargs={"game_id": game.pk})
    except NoReverseMatch:  # pragma: no cover - the game page is built alongside
        pytest.skip("the game page (games:game) is not routed yet")
    assert response["Location"] == expected


@pytest.mark.django_db
def test_host_cancels_the_table_and_a_player_leaves(client, alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)

    client.force_login(bob)
    client.post(reverse("games:table_leave", args=[table.pk]))
    assert not table.seats.filter(user=bob).exists()
    client.force_login(alice)
    response = client.post(reverse("games:table_leave", args=[table.pk]))

    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    assert response["Location"] == reverse("games:lobby")


@pytest.mark.django_db
def test_invite_by_email_queues_the_email(
    client, alice, make_table, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    table = make_table(alice, is_private=True)
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("games:table_invite_email", args=[table.pk]),
            {"email": "dave@example.com"},
            follow=True,
        )

    assert "Invitation sent to dave@example.com." in _messages(response)
    assert table.invitations.get().email == "dave@example.com"
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["dave@example.com"]
    assert f"/t/{table.invite_code}/" in mailoutbox[0].body


# --- My games -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_my_games_lists_waiting_games_first_then_others_open_tables_and_finished(
    client, alice, bob, charlie, make_table, make_game
):
    mine_now = make_game(alice, bob, name="Alice to play")
    if 0 not in mine_now.waiting_seats:
        # Seat order comes from the engine's roll for first; put Alice on the move for the test.
        Game.objects.filter(pk=mine_now.pk).update(waiting_seats=[0])
    later = make_game(bob, alice, name="Bob to play")
    Game.objects.filter(pk=later.pk).update(waiting_seats=[0])
    soon = make_game(charlie, alice, name="Alice soon")
    Game.objects.filter(pk=soon.pk).update(
        waiting_seats=[1], deadline=timezone.now() + timedelta(minutes=5)
    )
    Game.objects.filter(pk=mine_now.pk).update(
        deadline=timezone.now() + timedelta(hours=3, minutes=2)
    )
    make_table(charlie, name="Filling up").seats  # noqa: B018
    services.table_join(table=Table.objects.get(name="Filling up"), user=alice)
    over = make_game(alice, charlie, name="Done and dusted")
    state = dict(over.state)
    Game.objects.filter(pk=over.pk).update(
        status=Game.Status.FINISHED, winner_seat=1, finished_at=timezone.now(), state=state
    )
    make_table(bob, name="Not mine")
    client.force_login(alice)

    response = client.get(reverse("games:my_games"))

    html = response.content.decode()
    board = response.context["board"]
    assert [e.table.name for e in board.waiting] == ["Alice soon", "Alice to play"]
    assert [e.table.name for e in board.playing] == ["Bob to play"]
    assert [e.table.name for e in board.open] == ["Filling up"]
    assert [e.table.name for e in board.finished] == ["Done and dusted"]
    assert board.finished[0].winner == over.state["players"][1]["name"]
    order = [
        html.index(n)
        for n in ("Alice soon", "Alice to play", "Bob to play", "Filling up", "Done and dusted")
    ]
    assert order == sorted(order)
    assert "in 5 min" in html or "in 4 min" in html
    assert "in 3 h" in html
    assert "Not mine" not in html


@pytest.mark.django_db
def test_my_games_shows_deadlines_in_the_users_time_zone(client, alice, bob, make_game):
    game = make_game(alice, bob, name="Zoned")
    deadline = timezone.datetime(2030, 1, 15, 12, 0, tzinfo=timezone.get_fixed_timezone(0))
    Game.objects.filter(pk=game.pk).update(deadline=deadline, waiting_seats=[0])
    alice.time_zone = "Asia/Tokyo"
    alice.save()
    client.force_login(alice)

    html = client.get(reverse("games:my_games")).content.decode()

    assert "Tue 15 Jan, 21:00" in html  # noon UTC is 21:00 in Tokyo


@pytest.mark.django_db
def test_my_games_runs_a_fixed_number_of_queries(
    client, alice, bob, make_game, make_table, django_assert_max_num_queries
):
    for i in range(4):
        make_game(alice, bob, name=f"Game {i}")
    for i in range(3):
        make_table(alice, name=f"Open {i}")
    finished = make_game(alice, bob, name="Finished")
    Game.objects.filter(pk=finished.pk).update(
        status=Game.Status.FINISHED, winner_seat=0, finished_at=timezone.now()
    )
    client.force_login(alice)

    with django_assert_max_num_queries(7):
        response = client.get(reverse("games:my_games"))

    board = response.context["board"]
    assert len(board.waiting) + len(board.playing) == 4
    assert len(board.open) == 3 and len(board.finished) == 1


@pytest.mark.django_db
def test_htmx_start_and_poll_of_a_started_table_send_the_browser_to_the_game(
    client, alice, bob, make_table
):
    table = make_table(alice, seat_count=2)
    services.table_join(table=table, user=bob)
    client.force_login(alice)

    response = client.post(
        reverse("games:table_start", args=[table.pk]), headers={"HX-Request": "true"}
    )

    game = Game.objects.get()
    try:
        expected = reverse("games:game", kwargs={"game_id": game.pk})
    except NoReverseMatch:  # pragma: no cover - the game page is built alongside
        pytest.skip("the game page (games:game) is not routed yet")
    assert response["HX-Redirect"] == expected
    client.force_login(bob)
    poll = client.get(
        reverse("games:table", args=[table.pk]), {"stamp": "old"}, headers={"HX-Request": "true"}
    )
    assert poll["HX-Redirect"] == expected
    page = client.get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 302 and page["Location"] == expected
