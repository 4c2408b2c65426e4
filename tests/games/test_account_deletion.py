"""Games outlive accounts: a deleted player's seats are forfeited at once (or taken by a bot
where the table says so, RULES.md 15), shown as a deleted player, and finished games keep their
records; open tables are cancelled (the host's) or get a free seat back."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from accounts import services as accounts
from games import records, services, tasks
from games.engine import GameState
from games.models import Game, GameAction, Invitation, Seat, Table
from tests.factories import UserFactory, add_totp
from tests.games.play_helpers import autoplay, start_game, users_by_seat


def delete(user, password) -> None:
    accounts.user_delete(user=user, password=password)


def seat_of(game: Game, position: int) -> Seat:
    return Seat.objects.get(table_id=game.table_id, position=position)


@pytest.mark.django_db
def test_a_host_who_deletes_their_account_leaves_the_game_going_for_the_others(alice, bob, charlie, password):
    game = start_game(alice, bob, charlie, pace="correspondence", name="Outlives")
    version = game.version

    delete(alice, password)

    game.refresh_from_db()
    table = Table.objects.get(pk=game.table_id)
    assert table.host_id is None and table.status == Table.Status.PLAYING
    assert game.status == Game.Status.ACTIVE and game.version == version + 1
    seat = seat_of(game, 0)
    assert seat.user_id is None and seat.account_deleted and not seat.is_empty
    assert str(seat.label) == "Deleted player"
    state = GameState.from_json(game.state)
    assert state.players[0].bankrupt and state.players[0].name == "Deleted player"
    assert 0 not in game.waiting_seats
    forfeit = GameAction.objects.filter(game=game).order_by("-seq").first()
    assert forfeit.source == "system" and forfeit.user_id is None and forfeit.seat == 0
    assert forfeit.action == {"type": "surrender", "player": 0, "reason": "account_deleted"}
    assert any(e["e"] == "surrender" and e["p"] == 0 for e in forfeit.events)
    # The start record no longer names her, and the game goes on between Bob and Charlie.
    start = GameAction.objects.get(game=game, seq=0)
    assert start.action["names"][0] == "Deleted player"
    game = autoplay(game, 10)
    assert game.version > version + 1


@pytest.mark.django_db
def test_the_last_opponent_deleting_their_account_ends_the_game(
    alice, bob, password, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, pace="correspondence", name="Walkover")
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        delete(bob, password)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert game.deadline is None
    assert Table.objects.get(pk=game.table_id).status == Table.Status.FINISHED
    # The game-over e-mail goes to the one left (the deleted account has no address any more).
    assert [(m.to, m.subject.startswith("[Monopoly] You won")) for m in mailoutbox] == [([alice.email], True)]
    # Its record, with the forfeit the site played for the deleted account, uploads and replays.
    record = records.game_record(game)
    assert record["actions"][-1]["reason"] == "account_deleted"
    assert records.parse_record(json.dumps(record).encode()) == record


@pytest.mark.django_db
def test_where_the_table_says_so_a_strategy_bot_takes_the_deleted_players_seat(alice, bob, password, make_game):
    game = make_game(alice, bob, pace=Table.Pace.LIVE, absent_seat=Table.AbsentSeat.BOT)
    users = users_by_seat(game)
    gone = game.current_seat  # the game waits on them: the bot must answer at once
    version = game.version

    delete(users[gone], password)

    game.refresh_from_db()
    seat = seat_of(game, gone)
    assert seat.bot == Seat.Bot.STRATEGY and seat.account_deleted and seat.user_id is None
    assert str(seat.label) == "Deleted player (bot)"
    state = GameState.from_json(game.state)
    assert not state.players[gone].bankrupt and state.players[gone].name == "Deleted player (bot)"
    assert game.status == Game.Status.ACTIVE and game.version == version + 1
    assert GameAction.objects.filter(game=game, seat=gone, source="bot").exists()
    assert not GameAction.objects.filter(game=game, source="system", seq__gt=0).exists()
    assert gone not in game.waiting_seats
    # The bot keeps playing the seat through the other player's moves.
    game = autoplay(game, 30)
    assert GameAction.objects.filter(game=game, seat=gone, source="bot").count() > 1


@pytest.mark.django_db
def test_a_deleted_hosts_open_table_is_cancelled_and_a_deleted_guest_frees_their_seat(
    alice, bob, charlie, password, make_table
):
    hosted = make_table(alice, name="Alice's", seat_count=3)
    services.table_join(table=hosted, user=bob)
    visited = make_table(charlie, name="Charlie's", seat_count=3)
    services.table_join(table=visited, user=alice)

    delete(alice, password)

    hosted.refresh_from_db()
    visited.refresh_from_db()
    assert hosted.status == Table.Status.CANCELLED and hosted.host_id is None
    assert visited.status == Table.Status.OPEN
    assert [s.is_empty for s in visited.seats.all()] == [False, True, True]
    assert not any(s.account_deleted for s in Seat.objects.all())
    services.table_join(table=visited, user=UserFactory(username="dave"))


@pytest.mark.django_db
def test_finished_games_keep_their_records_with_a_deleted_player(alice, bob, password, client):
    game = start_game(alice, bob)
    users = users_by_seat(game)
    loser = game.current_seat
    services.game_submit_action(game=game, user=users[loser], action={"type": "surrender"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    actions = GameAction.objects.filter(game=game).count()

    delete(users[loser], password)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and GameAction.objects.filter(game=game).count() == actions
    assert GameAction.objects.filter(game=game, user__isnull=True, source="player").exists()
    record = json.loads(client.get(reverse("games:game_record", args=[game.pk])).content)
    assert record["names"][loser] == "Deleted player"
    # The record still replays to the very end, deleted player and all.
    records.check_record(record)
    steps = len(record["actions"])
    last = records.position(records.start_of(record), steps, records.checkpoints(record)[-1], steps).state
    assert last.over and last.winner == game.winner_seat
    assert last.players[loser].name == "Deleted player"


@pytest.mark.django_db
def test_every_page_renders_with_a_deleted_player(alice, bob, charlie, password, client):
    """Pages, a log and the admin, where a deleted player (and a deleted host) appear."""
    running = start_game(alice, bob, charlie, name="Running")
    finished = start_game(bob, alice, name="Finished")
    users = users_by_seat(finished)
    services.game_submit_action(game=finished, user=users[finished.current_seat], action={"type": "surrender"},
                                expected_version=finished.version)
    cancelled = services.table_create(host=alice, name="Cancelled", preset="classic")

    delete(alice, password)

    client.force_login(bob)
    pages = {
        "running table": reverse("games:table", args=[running.table_id]),
        "running game": reverse("games:game", args=[running.pk]),
        "running log": reverse("games:game_log", args=[running.pk]),
        "finished table": reverse("games:table", args=[finished.table_id]),
        "finished game": reverse("games:game", args=[finished.pk]),
        "replay": reverse("games:game_replay", args=[finished.pk]),
        "replay start": reverse("games:game_replay", args=[finished.pk]) + "?step=0",
        "my games": reverse("games:my_games"),
        "cancelled table": reverse("games:table", args=[cancelled.pk]),
        "lobby": reverse("games:lobby"),
    }
    for what, url in pages.items():
        response = client.get(url, follow=True)  # (a started table's page leads to its game)
        assert response.status_code == 200, what
        html = response.content.decode()
        assert not re.search(r"\bAlice\b", html), what
        if what != "lobby":
            assert "Deleted player" in html, what
    log = client.get(reverse("games:game", args=[running.pk])).content.decode()
    assert "The player deleted their account: the seat is forfeited." in log

    staff = UserFactory(username="root", is_staff=True, is_superuser=True)

    add_totp(staff)  # staff need a second factor (issue 31)
    client.force_login(staff)
    for url in (
        reverse("admin:games_table_changelist"),
        reverse("admin:games_table_change", args=[running.table_id]),
        reverse("admin:games_game_change", args=[running.pk]),
        reverse("admin:games_gameaction_changelist"),
        reverse("admin:games_game_changelist"),
    ):
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_deleting_the_account_through_the_page_forfeits_the_seat(client, alice, bob, password):
    game = start_game(alice, bob, pace="correspondence")
    client.force_login(bob)

    response = client.post(reverse("accounts:delete"), {"password": password})

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0


@pytest.mark.django_db
def test_a_wrong_password_forfeits_nothing(client, alice, bob):
    game = start_game(alice, bob)
    version = game.version
    client.force_login(bob)

    client.post(reverse("accounts:delete"), {"password": "not-it"})

    game.refresh_from_db()
    assert game.version == version and game.status == Game.Status.ACTIVE
    assert not seat_of(game, 1).account_deleted


@pytest.mark.django_db
def test_a_move_from_a_page_drawn_before_the_deletion_is_stale(alice, bob, charlie, password):
    game = start_game(alice, bob, charlie)
    users = users_by_seat(game)
    mover = next(p for p in game.waiting_seats)
    gone = next(p for p in range(3) if p != mover)
    drawn = game.version

    delete(users[gone], password)

    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game=game, user=users[mover], action={"type": "roll"}, expected_version=drawn)


@pytest.mark.django_db
def test_an_account_deleted_in_the_admin_forfeits_its_seats_too(client, alice, bob):
    game = start_game(alice, bob)
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    add_totp(staff)  # staff need a second factor (issue 31)
    client.force_login(staff)

    response = client.post(reverse("admin:accounts_user_delete", args=[bob.pk]), {"post": "yes"})

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and seat_of(game, 1).account_deleted


@pytest.mark.django_db
def test_an_invitation_outlives_its_sender_and_is_not_mailed_without_one(alice, bob, password, make_table, mailoutbox):
    # (Only a table's host invites.)
    table = make_table(alice, is_private=True)
    services.table_join(table=table, user=bob)
    invitation = services.invitation_create(table=table, by=alice, email="dave@example.com").invitation

    delete(alice, password)

    invitation.refresh_from_db()
    assert invitation.invited_by_id is None
    tasks.send_invitation(invitation.pk)
    assert mailoutbox == []
    assert Invitation.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_the_host_chooses_what_becomes_of_an_absent_players_seat(client, alice):
    client.force_login(alice)
    form = client.get(reverse("games:table_new")).content.decode()
    assert 'name="absent_seat" value="out"' in form and 'name="absent_seat" value="bot"' in form

    response = client.post(reverse("games:table_create"), {
        "name": "Bots stand in", "preset": "classic", "pace": "correspondence", "turn_hours": "24",
        "absent_seat": "bot",
    })

    table = Table.objects.get()
    assert response.status_code == 302 and table.absent_seat == Table.AbsentSeat.BOT
    assert "A bot plays their seat" in client.get(reverse("games:table", args=[table.pk])).content.decode()
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "A bot plays the seat of a player who leaves for good." in lobby
    # Without the choice (an older form), the default: the seat is forfeited.
    client.post(reverse("games:table_create"), {"name": "Default", "preset": "classic", "pace": "live"})
    assert Table.objects.get(name="Default").absent_seat == Table.AbsentSeat.OUT
    assert "A player who leaves for good forfeits their seat." in client.get(reverse("games:lobby")).content.decode()


@pytest.mark.django_db
def test_a_forged_absent_seat_choice_is_refused_and_makes_no_table(client, alice):
    client.force_login(alice)

    response = client.post(reverse("games:table_create"), {
        "name": "Forged", "preset": "classic", "pace": "live", "absent_seat": "zombie",
    })

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Table.objects.exists()
    with pytest.raises(services.GameError):
        services.table_create(host=alice, name="Forged", preset="classic", absent_seat="zombie")
    assert not Table.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("preset", "bot"), [("world-teams", False), ("world-duel", False), ("world-teams", True)])
def test_deletion_in_team_and_duel_games_leaves_a_game_that_plays_on(preset, bot, password):
    people = [UserFactory(username=f"u{i}") for i in range(4 if preset == "world-teams" else 3)]
    table = services.table_create(host=people[0], name="Many", preset=preset,
                                  absent_seat=Table.AbsentSeat.BOT if bot else Table.AbsentSeat.OUT)
    for user in people[1:]:
        services.table_join(table=table, user=user)
    game = services.table_start(table=table, by=people[0])
    game = autoplay(game, 15)
    users = users_by_seat(game)
    gone = next(p for p, u in users.items() if p not in game.waiting_seats)

    delete(users[gone], password)

    game.refresh_from_db()
    assert GameState.from_json(game.state).players[gone].bankrupt is (not bot)
    game = autoplay(game, 40)
    assert game.status in (Game.Status.ACTIVE, Game.Status.FINISHED)


def _two_misses(game: Game, seat: int) -> None:
    """The player at ``seat`` has missed two decisions in a row, and the one waiting is due."""
    game.refresh_from_db()
    state = dict(game.state)
    state["players"] = [dict(p, missed=2 if i == seat else p["missed"]) for i, p in enumerate(state["players"])]
    Game.objects.filter(pk=game.pk).update(state=state, deadline=game.deadline.replace(year=2000))
    game.refresh_from_db()


@pytest.mark.django_db
def test_where_the_table_says_so_a_bot_takes_the_seat_at_the_third_missed_turn(alice, bob, make_game, client):
    game = make_game(alice, bob, pace=Table.Pace.LIVE, absent_seat=Table.AbsentSeat.BOT)
    users = users_by_seat(game)
    absent = game.current_seat
    _two_misses(game, absent)

    assert tasks.process_deadlines() >= 1

    game.refresh_from_db()
    seat = seat_of(game, absent)
    assert seat.bot == Seat.Bot.STRATEGY and seat.user == users[absent]
    state = GameState.from_json(game.state)
    assert not state.players[absent].bankrupt
    # The takeover is in the log (the bot's first decision for the seat, RULES.md 15), then the bot.
    assert GameAction.objects.filter(game=game, seat=absent, source="takeover").count() == 1
    assert GameAction.objects.filter(game=game, seat=absent, source="bot").exists()
    assert not GameAction.objects.filter(game=game, source="timeout").exists()
    assert game.status == Game.Status.ACTIVE and absent not in game.waiting_seats
    # The player watches: no moves of theirs, on the page or through the service.
    client.force_login(users[absent])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'name="type" value="roll"' not in page and 'name="type" value="end_turn"' not in page
    assert "A bot plays your seat since your third missed turn." in page
    with pytest.raises(services.NotAllowed, match="a bot plays your seat"):
        services.game_submit_action(game=game, user=users[absent], action={"type": "surrender"},
                                    expected_version=game.version)


@pytest.mark.django_db
def test_by_default_the_third_missed_turn_is_still_bankruptcy(alice, bob, make_game):
    game = make_game(alice, bob, pace=Table.Pace.LIVE)
    absent = game.current_seat
    _two_misses(game, absent)

    tasks.process_deadlines()

    game.refresh_from_db()
    assert GameState.from_json(game.state).players[absent].bankrupt
    assert not seat_of(game, absent).bot and game.status == Game.Status.FINISHED
