"""Account actions and what a sanctioned player meets: a suspended or banned user cannot sign
in (told why and until when, with one appeal), cannot move, chat, open or join a table; their
games go on; every action writes its audit row in its own transaction, and a failing action
leaves none."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Game, GameAction
from moderation import services
from moderation.admin import AuditEntryAdmin
from moderation.models import AuditEntry, Report, Sanction
from tests.games.play_helpers import no_auto_vacation

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


def _login(client, user, password):
    return client.post(reverse("account_login"), {"login": user.username, "password": password})


def test_a_suspended_user_cannot_sign_in_and_is_told_why_and_until_when(client, mod, bob, password):
    sanction = services.sanction_create(moderator=mod, user=bob, kind="suspend", reason="Insults in chat",
                                        duration=3 * DAY)

    response = _login(client, bob, password)

    assert response.status_code == 302 and response["Location"] == reverse("moderation:suspended")
    assert "_auth_user_id" not in client.session
    page = client.get(response["Location"]).content.decode()
    assert "Your account is suspended until" in page and "Insults in chat" in page
    assert str(sanction.until.year) in page


def test_a_banned_user_is_told_the_ban_is_permanent(client, mod, bob, password):
    services.sanction_create(moderator=mod, user=bob, kind="ban", reason="Cheating")

    page = client.get(_login(client, bob, password)["Location"]).content.decode()

    assert "Your account is banned; reason: Cheating" in page


def test_an_expired_or_lifted_suspension_lets_the_user_in_again(client, mod, bob, password):
    sanction = services.sanction_create(moderator=mod, user=bob, kind="suspend", reason="x", duration=DAY)
    Sanction.objects.filter(pk=sanction.pk).update(until=timezone.now() - timedelta(minutes=1))
    assert _login(client, bob, password)["Location"] != reverse("moderation:suspended")
    client.logout()

    services.sanction_create(moderator=mod, user=bob, kind="ban", reason="y")
    services.sanction_lift(moderator=mod, user=bob, reason="appeal granted")
    assert _login(client, bob, password)["Location"] != reverse("moderation:suspended")
    assert client.session["_auth_user_id"] == str(bob.pk)


def test_suspending_signs_the_user_out_everywhere(mod, alice, bob):
    phone, laptop, someone_else = Client(), Client(), Client()
    phone.force_login(bob)
    laptop.force_login(bob)
    someone_else.force_login(alice)
    assert Session.objects.count() == 3

    services.sanction_create(moderator=mod, user=bob, kind="suspend", reason="x", duration=DAY)

    assert list(Session.objects.values_list("session_key", flat=True)) == [someone_else.session.session_key]
    assert phone.get(reverse("moderation:standing")).status_code == 302  # signed out: to the login page


def test_a_suspended_player_cannot_move_and_is_told_why(client, mod, alice, bob, game):
    services.sanction_create(moderator=mod, user=alice, kind="suspend", reason="Stalling", duration=DAY)
    client.force_login(alice)  # a session from before, say
    url = reverse("games:game_act", args=[game.pk])

    page = client.post(url, {"type": "roll", "version": game.version}, HTTP_HX_REQUEST="true")
    api = client.post(url, {"type": "roll", "version": game.version}, HTTP_ACCEPT="application/json")

    assert page.status_code == 403 and "Your account is suspended until" in page.content.decode()
    assert api.status_code == 403 and api.json()["error"] == "Your account is suspended."
    assert "Stalling" in api.json()["message"]
    assert GameAction.objects.filter(game=game).count() == Game.objects.get(pk=game.pk).actions.count()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_suspension_stops_a_player_who_was_just_moving_and_its_lifting_lets_them_go_on(
        client, mod, alice, bob, game):
    """Whether a player has no sanction is remembered between their moves (the move path asks
    on every move: moderation.selectors.lockout); a new suspension or its lifting is seen at the
    next move all the same, whether the moderation service or the admin (a plain save) made it."""
    client.force_login(alice)
    url = reverse("games:game_act", args=[game.pk])
    state_version = Game.objects.get(pk=game.pk).version
    # A refused move (a forged action) still asks: "no sanction" is now remembered.
    assert client.post(url, {"type": "no-such", "version": state_version}, HTTP_ACCEPT="application/json"
                       ).status_code == 400

    services.sanction_create(moderator=mod, user=alice, kind="suspend", reason="Stalling", duration=DAY)
    client.force_login(alice)  # (a suspension signs the user out: a session it missed, say)
    refused = client.post(url, {"type": "no-such", "version": state_version}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 403 and refused.json()["error"] == "Your account is suspended."

    services.sanction_lift(moderator=mod, user=alice, reason="Appeal upheld")
    assert client.post(url, {"type": "no-such", "version": state_version}, HTTP_ACCEPT="application/json"
                       ).status_code == 400

    # A ban saved some other way (the admin's form saves the model): seen at once too.
    Sanction(user=alice, kind="ban", reason="Cheating", created_by=mod).save()
    assert client.post(url, {"type": "no-such", "version": state_version}, HTTP_ACCEPT="application/json"
                       ).status_code == 403


def test_a_suspended_user_cannot_chat_open_or_join_a_table(client, mod, alice, bob, charlie, game):
    services.sanction_create(moderator=mod, user=charlie, kind="suspend", reason="Spam", duration=DAY)
    table = game_services.table_create(host=alice, name="Open", preset="classic", seat_count=3)
    client.force_login(charlie)

    chat = client.post(reverse("moderation:chat_post", args=[game.pk]), {"text": "hi"}, HTTP_HX_REQUEST="true")
    join = client.post(reverse("games:table_join", args=[table.pk]), follow=True)
    create = client.post(reverse("games:table_create"), {"name": "Mine", "preset": "classic"}, follow=True)

    assert chat.status_code == 403 and "Your account is suspended until" in chat.content.decode()
    assert "Your account is suspended until" in join.content.decode()
    assert "Your account is suspended until" in create.content.decode()
    assert not table.seats.filter(user=charlie).exists()
    assert not charlie.hosted_tables.exists()
    assert game.chat_messages.count() == 0


def test_a_muted_user_may_play_but_not_chat(client, mod, alice, game):
    services.sanction_create(moderator=mod, user=alice, kind="mute", reason="Caps lock", duration=DAY)
    client.force_login(alice)

    chat = client.post(reverse("moderation:chat_post", args=[game.pk]), {"text": "HELLO"}, HTTP_HX_REQUEST="true")
    move = client.post(reverse("games:game_act", args=[game.pk]), {"type": "roll", "version": game.version},
                       HTTP_ACCEPT="application/json")

    assert chat.status_code == 403 and "You are muted in chat until" in chat.content.decode()
    assert move.status_code == 200


def test_a_suspended_players_game_goes_on_their_turn_times_out(mod, alice, bob, game):
    services.sanction_create(moderator=mod, user=alice, kind="suspend", reason="x", duration=DAY)
    no_auto_vacation(game)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    applied = game_services.game_timeout(game_id=game.pk)

    assert applied >= 1
    assert GameAction.objects.filter(game=game, source="timeout", seat=0).exists()


def _absent_players_game(mod, kind: str | None) -> tuple[Game, list[tuple]]:
    """A two-player game on a table whose absent players' seats go to a bot (RULES.md 15), its
    host sanctioned with ``kind`` (or not at all) and never moving: each of her decisions runs
    out of time through the deadline sweep, the other player plays his own. Returns the game once
    a bot has her seat, and its log."""
    from games import tasks
    from games.models import Seat, Table
    from tests.factories import UserFactory
    from tests.games.play_helpers import next_move

    ana = UserFactory(username=f"ana-{kind}", display_name=f"Ana {kind}")  # (one name per account)
    ben = UserFactory(username=f"ben-{kind}", display_name=f"Ben {kind}")
    table = game_services.table_create(host=ana, name="Absent", preset="classic", pace=Table.Pace.LIVE, seat_count=2,
                                       absent_seat=Table.AbsentSeat.BOT)
    game_services.table_join(table=table, user=ben)
    with mock.patch("secrets.randbits", return_value=20240601):
        game = game_services.table_start(table=table, by=ana)
    if kind is not None:
        services.sanction_create(moderator=mod, user=ana, kind=kind, reason="x",
                                 duration=DAY if kind == "suspend" else None)
    seat = Seat.objects.get(table=table, user=ana)
    for _ in range(300):
        game.refresh_from_db()
        seat.refresh_from_db()
        if seat.bot or game.status != Game.Status.ACTIVE:
            break
        if seat.position in game.waiting_seats:
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            assert tasks.process_deadlines() >= 1
        else:
            _position, move = next_move(game)
            game_services.game_submit_action(game=game, user=ben, action=move, expected_version=game.version)
    log = list(GameAction.objects.filter(game=game).exclude(seq=0).order_by("seq")
               .values_list("seat", "source", "action", "events"))
    return game, log


@pytest.mark.parametrize("kind", ["suspend", "ban"])
def test_a_sanctioned_players_third_missed_turn_hands_the_seat_to_a_bot_as_anyone_elses(mod, kind):
    from games.engine import GameState
    from games.models import Seat

    game, log = _absent_players_game(mod, kind)

    seat = Seat.objects.get(table_id=game.table_id, position=0)
    assert seat.bot == Seat.Bot.STRATEGY and seat.user.username == f"ana-{kind}"
    assert game.status == Game.Status.ACTIVE and not GameState.from_json(game.state).players[0].bankrupt
    # Two turns missed, then the timeout that would have been the third is the bot's move.
    missed = [e["count"] for _seat, _source, _action, events in log for e in events
              if e["e"] == "missed" and e["p"] == 0]
    assert missed == [1, 2]
    sources = [source for s, source, _action, _events in log if s == 0]
    assert "bot" in sources and "timeout" not in sources[sources.index("bot"):]
    # Move for move what happens to a player nobody sanctioned.
    _game, unsanctioned = _absent_players_game(mod, None)
    assert log == unsanctioned


def test_one_appeal_enters_the_queue_and_a_second_is_refused(client, mod, bob, password):
    sanction = services.sanction_create(moderator=mod, user=bob, kind="ban", reason="Cheating")
    _login(client, bob, password)
    url = reverse("moderation:suspended")

    first = client.post(url, {"text": "It was my brother."})
    second = client.post(url, {"text": "Please!"})

    assert first.status_code == 302
    appeal = Report.objects.get(kind="appeal")
    assert appeal.sanction == sanction and appeal.target == bob and appeal.text == "It was my brother."
    assert second.status_code == 400 and "already appealed" in second.content.decode()
    assert Report.objects.filter(kind="appeal").count() == 1
    assert "Your appeal is with the moderators" in client.get(url).content.decode()


def test_the_appeal_page_needs_the_refused_sign_in(client, mod, bob):
    services.sanction_create(moderator=mod, user=bob, kind="ban", reason="Cheating")

    response = client.post(reverse("moderation:suspended"), {"text": "forged"})

    assert response.status_code == 302 and Report.objects.count() == 0


@pytest.mark.parametrize(("kind", "duration", "error"), [
    ("mute", None, "Choose how long it lasts"),
    ("suspend", timedelta(days=400), "Choose how long it lasts"),
    ("ban", DAY, "Warnings and bans have no duration"),
    ("warn", None, "Give a reason"),
])
def test_bad_account_actions_are_refused_and_write_nothing(mod, bob, kind, duration, error):
    reason = "" if kind == "warn" else "because"
    with pytest.raises(services.ModerationError, match=error):
        services.sanction_create(moderator=mod, user=bob, kind=kind, reason=reason, duration=duration)
    assert Sanction.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_each_action_writes_who_what_on_whom_why_and_until_when(mod, bob):
    sanction = services.sanction_create(moderator=mod, user=bob, kind="mute", reason="Spam", duration=DAY)

    entry = AuditEntry.objects.get()
    assert (entry.moderator, entry.moderator_name, entry.action, entry.target, entry.target_name, entry.reason) == (
        mod, "Mona", "mute", bob, "Bob", "Spam")
    assert entry.until == sanction.until


def test_a_failing_action_leaves_no_audit_row_and_no_effect(mod, bob):
    with mock.patch.object(services, "_end_sessions", side_effect=RuntimeError("database went away")), \
            pytest.raises(RuntimeError):
        services.sanction_create(moderator=mod, user=bob, kind="ban", reason="Cheating")

    assert Sanction.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_a_failing_rename_leaves_the_name_and_no_audit_row(mod, bob):
    with mock.patch.object(services, "_audit", side_effect=RuntimeError("disk full")), pytest.raises(RuntimeError):
        services.user_reset_display_name(moderator=mod, user=bob, reason="Offensive name")

    bob.refresh_from_db()
    assert bob.display_name == "Bob" and AuditEntry.objects.count() == 0


def test_force_rename_keeps_the_old_name_in_the_audit(mod, bob):
    services.user_reset_display_name(moderator=mod, user=bob, reason="Offensive name")

    bob.refresh_from_db()
    assert bob.display_name == f"Player {bob.pk}"
    assert AuditEntry.objects.get().details == {"old_name": "Bob", "new_name": f"Player {bob.pk}"}


def test_remove_a_player_from_a_game_and_close_a_game(mod, alice, bob, charlie):
    from tests.games.play_helpers import start_game

    three = start_game(alice, bob, charlie, pace="correspondence")

    services.game_remove_player(moderator=mod, game=three, user=charlie, reason="Abandoned")
    three.refresh_from_db()
    assert three.status == "active" and three.state["players"][2]["bankrupt"]

    services.game_close(moderator=mod, game=three, reason="Both left")
    three.refresh_from_db()
    assert three.status == "aborted" and three.winner_seat is None and three.deadline is None
    assert list(AuditEntry.objects.order_by("id").values_list("action", "game")) == [
        ("forfeit", three.pk), ("close_game", three.pk)]
    with pytest.raises(services.ModerationError, match="This game is over"):
        services.game_close(moderator=mod, game=three, reason="again")
    assert AuditEntry.objects.count() == 2


def test_the_account_history_page_shows_every_action(client, mod, bob):
    services.sanction_create(moderator=mod, user=bob, kind="warn", reason="First warning")
    services.sanction_create(moderator=mod, user=bob, kind="suspend", reason="Second time", duration=DAY)
    client.force_login(mod)

    html = client.get(reverse("moderation:account", args=[bob.pk])).content.decode()

    assert "First warning" in html and "Second time" in html
    assert html.count("<tr>") == 1 + 2  # the head and two entries


def test_the_audit_log_cannot_be_edited_anywhere(rf, mod, bob):
    services.sanction_create(moderator=mod, user=bob, kind="warn", reason="x")
    admin = AuditEntryAdmin(AuditEntry, None)
    request = rf.get("/")
    request.user = mod

    assert not admin.has_change_permission(request) and not admin.has_delete_permission(request)
    assert not admin.has_add_permission(request)
    assert not any("audit" in url and "edit" in url for url in [str(p.pattern) for p in __import__(
        "moderation.urls", fromlist=["urlpatterns"]).urlpatterns])
