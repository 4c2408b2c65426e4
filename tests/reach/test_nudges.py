"""Nudges (issue 29): once per 24 hours per game and player, after the wait has lasted 12 hours
(or half the decision's time on a faster table); the nudged player hears of it on their
channels; the game page says who nudged whom. Refusals change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.engine import waiting_on
from notifications.models import Kind, Notification
from reach.models import Nudge
from tests.games.play_helpers import play_until, users_by_seat
from tests.reach.conftest import waited_since


def _game_waiting_on(user, other, make_game, *more, **kwargs):
    game = make_game(user, other, *more, **kwargs)
    mine = next(p for p, u in users_by_seat(game).items() if u == user)
    game = play_until(game, lambda state: waiting_on(state) == [mine])
    game.refresh_from_db()
    return game, mine


def _nudge(client, game, seat, htmx=True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("reach:nudge", args=[game.pk]), {"seat": str(seat)}, **headers)


@pytest.mark.django_db
def test_a_nudge_after_twelve_hours_reaches_the_player_once_a_day(
        alice, bob, charlie, make_game, client, mailoutbox, celery_eager, django_capture_on_commit_callbacks):
    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72)
    client.force_login(bob)

    waited_since(game, timedelta(hours=11, minutes=50))
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 400
    assert "Too early to nudge" in r.content.decode()
    assert not Nudge.objects.exists()

    waited_since(game, timedelta(hours=12, minutes=1))
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = _nudge(client, game, alice_seat)
    assert r.status_code == 200
    body = r.content.decode()
    a, b = alice.public_name, bob.public_name
    # (Each name isolated: <bdi>, issue 26.)
    assert f"You nudged <bdi>{a}</bdi>." in body and f"<bdi>{b}</bdi> nudged <bdi>{a}</bdi>" in body
    (mail,) = mailoutbox
    assert mail.to == [alice.email]
    assert mail.subject == f"[Monopoly] {b} nudged you: “Slow” is waiting for you"
    assert Notification.objects.filter(kind=Kind.NUDGE, user=alice).count() == 1

    # Twice (a double click, or a day not yet over): refused, nothing more.
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 400 and "less than a day ago" in r.content.decode()
    assert Nudge.objects.count() == 1 and len(mailoutbox) == 1

    # The game page shows who nudged whom, to the players and to spectators.
    client.force_login(charlie)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"<bdi>{b}</bdi> nudged <bdi>{a}</bdi>" in page


@pytest.mark.django_db
def test_refusals_for_a_spectator_oneself_and_a_player_not_waited_on(alice, bob, charlie, make_game, client):
    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow")
    bob_seat = 1 - alice_seat
    waited_since(game, timedelta(hours=20))

    client.force_login(charlie)  # a spectator
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 403 and "Only the players of this game may nudge." in r.content.decode()

    client.force_login(alice)  # herself
    r = _nudge(client, game, alice_seat)
    assert r.status_code == 400 and "You cannot nudge yourself." in r.content.decode()
    r = _nudge(client, game, bob_seat)  # Bob is not waited on
    assert r.status_code == 400 and "not waiting on that player" in r.content.decode()

    client.force_login(bob)
    for junk in ("", "x", "99", "-1", "1" * 50):
        r = client.post(reverse("reach:nudge", args=[game.pk]), {"seat": junk}, HTTP_HX_REQUEST="true")
        assert r.status_code == 400
    assert not Nudge.objects.exists()
    assert not Notification.objects.filter(kind=Kind.NUDGE).exists()

    # A plain form (no JavaScript): the refusal comes back as a message on the game page.
    r = client.post(reverse("reach:nudge", args=[game.pk]), {"seat": str(bob_seat)}, follow=True)
    assert "You cannot nudge yourself." in r.content.decode()


@pytest.mark.django_db
def test_a_faster_table_allows_a_nudge_after_half_the_decisions_time(alice, bob, make_game, client):
    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Quick", turn_hours=12)
    client.force_login(bob)
    waited_since(game, timedelta(hours=5, minutes=50))
    # (the deadline moves with the wait's start: half of 12 hours is 6)
    from games.models import Game
    from reach.models import Wait

    since = Wait.objects.get(game=game).since
    Game.objects.filter(pk=game.pk).update(deadline=since + timedelta(hours=12))
    assert _nudge(client, game, alice_seat).status_code == 400
    Wait.objects.filter(game=game).update(since=since - timedelta(minutes=11))
    Game.objects.filter(pk=game.pk).update(deadline=since - timedelta(minutes=11) + timedelta(hours=12))
    assert _nudge(client, game, alice_seat).status_code == 200
    assert Nudge.objects.get().to_seat == alice_seat


# ---------------------------------------------------------------------------------------------
# Who nudged whom in the game's own log and record (an engine note naming two seats)
# ---------------------------------------------------------------------------------------------

LOG_LINE = {"en": "{b} nudged {a}.", "es": "{b} ha dado un toque a {a}.", "ca": "{b} ha fet un toc a {a}."}


def _log_list(page: str) -> str:
    """The game page's log (its <ol id="log-list">), not the panel that also lists nudges."""
    import re

    found = re.search(r'<ol[^>]*id="log-list"[^>]*>(.*?)</ol>', page, re.S)
    assert found, "no log on the page"
    return found.group(1)


def _nudge_rows(game):
    from games.models import GameAction

    return list(GameAction.objects.filter(game=game, action__type="note", action__choice="nudge"))


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_a_nudge_is_a_line_of_the_games_own_log_and_changes_nothing_else(
        alice, bob, charlie, make_game, client, language, django_capture_on_commit_callbacks):
    from games.engine import GameState
    from tests.games.record_helpers import replays_exactly

    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72)
    bob_seat = 1 - alice_seat
    waited_since(game, timedelta(hours=13))
    game.refresh_from_db()
    version, deadline, waiting, state = game.version, game.deadline, list(game.waiting_seats), game.state

    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        assert _nudge(client, game, alice_seat).status_code == 200

    (row,) = _nudge_rows(game)
    assert row.action == {"type": "note", "player": alice_seat, "choice": "nudge", "by": bob_seat}
    assert (row.seat, row.user_id, row.source, row.sub) == (bob_seat, bob.pk, "player", 0)
    assert row.events == [{"e": "note", "p": alice_seat, "what": "nudge", "by": bob_seat}]
    game.refresh_from_db()
    # A new version (open pages show the line); the decision, its deadline and the position stay.
    assert (game.version, game.deadline, game.waiting_seats) == (version + 1, deadline, waiting)
    after, before = GameState.from_json(game.state).to_json(), GameState.from_json(state).to_json()
    assert after["seq"] == before["seq"] + 1
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}
    replays_exactly(game)

    line = LOG_LINE[language].format(a=f"<bdi>{alice.public_name}</bdi>", b=f"<bdi>{bob.public_name}</bdi>")
    for reader in (charlie, alice, bob):  # a spectator, the one nudged, the nudger
        reader.language = language
        reader.save(update_fields=["language"])
        client.force_login(reader)
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert line in _log_list(page), (reader, language)
        log = client.get(reverse("games:game_log", args=[game.pk])).content.decode()
        assert line in log


@pytest.mark.django_db
def test_a_refused_nudge_writes_no_log_line(alice, bob, charlie, make_game, client):
    from games.models import GameAction

    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72)
    bob_seat = 1 - alice_seat
    rows, version = GameAction.objects.filter(game=game).count(), game.version

    def unchanged():
        game.refresh_from_db()
        assert GameAction.objects.filter(game=game).count() == rows and game.version == version
        assert not _nudge_rows(game)

    waited_since(game, timedelta(hours=11))
    client.force_login(bob)
    assert _nudge(client, game, alice_seat).status_code == 400  # too early
    unchanged()
    waited_since(game, timedelta(hours=13))
    client.force_login(charlie)
    assert _nudge(client, game, alice_seat).status_code == 403  # a spectator
    client.force_login(alice)
    assert _nudge(client, game, alice_seat).status_code == 400  # herself
    assert _nudge(client, game, bob_seat).status_code == 400  # not waited on
    client.force_login(bob)
    for junk in ("", "x", "99", "-1"):
        assert client.post(reverse("reach:nudge", args=[game.pk]), {"seat": junk}).status_code in (302, 400)
    unchanged()
    assert _nudge(client, game, alice_seat).status_code == 200
    rows, version = rows + 1, version + 1
    assert _nudge(client, game, alice_seat).status_code == 400  # twice in a day
    game.refresh_from_db()
    assert GameAction.objects.filter(game=game).count() == rows and game.version == version
    assert len(_nudge_rows(game)) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_the_replay_shows_the_nudge_as_the_nudgers_step(alice, bob, make_game, client, language):
    from games import records
    from tests.games.play_helpers import end_by_surrenders
    from tests.games.record_helpers import replays_exactly

    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72)
    waited_since(game, timedelta(hours=13))
    client.force_login(bob)
    assert _nudge(client, game, alice_seat).status_code == 200
    game = end_by_surrenders(game)
    replays_exactly(game)
    actions = records.game_record(game)["actions"]
    step = 1 + next(i for i, a in enumerate(actions) if a.get("choice") == "nudge")

    bob.language = language
    bob.save(update_fields=["language"])
    r = client.get(reverse("games:game_replay", args=[game.pk]), {"step": step})
    assert r.status_code == 200
    line = LOG_LINE[language].format(a=f"<bdi>{alice.public_name}</bdi>", b=f"<bdi>{bob.public_name}</bdi>")
    assert r.context["lines"] == [line]
    assert r.context["actor"] == f"<bdi>{bob.public_name}</bdi>"  # the nudger acted
    assert r.context["action_label"] == {"en": "nudge", "es": "toque", "ca": "toc"}[language]
    assert line in r.content.decode()

    # The record downloaded and uploaded again replays through the nudge, its line at its step.
    from tests.games.test_play_records import upload

    record = client.get(reverse("games:game_record", args=[game.pk])).content
    assert b'"by"' in record
    r = upload(client, record)
    assert r.status_code == 302, r.content.decode()
    assert client.get(r["Location"]).context["state"].to_json() == game.state
    r = client.get(r["Location"], {"step": step})
    # (An uploaded record has the names it was saved with: the same here.)
    assert r.context["lines"] == [line] and r.context["actor"] == f"<bdi>{bob.public_name}</bdi>"


@pytest.mark.django_db
def test_a_nudge_queues_the_bots_next_task_again_for_its_new_version(
        alice, bob, make_game, client, settings, monkeypatch, django_capture_on_commit_callbacks):
    """The nudge's new version makes a bot task queued for the old one stale (it does nothing):
    the task is queued again for the new version, with the bots' delay, as after a pause."""
    from games import tasks
    from tests.games.test_bot_tasks import Queue

    game, alice_seat = _game_waiting_on(alice, bob, make_game, name="Slow", turn_hours=72, bots=("strategy",))
    waited_since(game, timedelta(hours=13))
    settings.BOT_DELAY_SECONDS = 1.5
    queue = Queue(monkeypatch)
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        assert _nudge(client, game, alice_seat).status_code == 200
    game.refresh_from_db()
    assert queue.queued == [((game.pk, game.version), {"countdown": 1.5})]
    # (Nothing is due to a bot now: the game waits on Alice. The task finds that and does nothing.)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.play_site_action(game.pk, game.version) == 0
