"""Ending early by agreement (RULES.md 16, issue 28): any active player proposes, every active
player agrees within the window (24 h by correspondence, 30 s live; silence is no), and the game
ends ranked by net worth (section 12); every step in the log and the record, which replays
exactly; bad input refused with nothing changed. A fake clock throughout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from games import agreement, services
from games.engine import GameState, net_worth
from games.models import Game, GameAction, Seat, Table
from notifications.models import Kind, Mode, Notification
from notifications.services import preference_set
from tests.games.play_helpers import autoplay, users_by_seat
from tests.games.record_helpers import replays_exactly

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(clock):
    clock.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    return clock


def _game(alice, bob, charlie=None, *, pace="correspondence", **options) -> Game:
    table = services.table_create(host=alice, name="Long one", preset="classic", seat_count=3 if charlie else 2,
                                  pace=pace, turn_hours=24, **options)
    services.table_join(table=table, user=bob)
    if charlie:
        services.table_join(table=table, user=charlie)
    game = services.table_start(table=table, by=alice)
    return autoplay(game, 12)


def _unchanged(game: Game):
    """What a refusal must leave as it was: the version, the proposal and the log."""
    game.refresh_from_db()
    return game.version, dict(game.aids.get("end") or {}), GameAction.objects.filter(game=game).count()


def test_every_player_agrees_and_net_worth_ranks_them(alice, bob, charlie, clock, celery_eager,
                                                      django_capture_on_commit_callbacks):
    game = _game(alice, bob, charlie)
    users = users_by_seat(game)
    with django_capture_on_commit_callbacks(execute=True):
        assert agreement.end_propose(game=game, user=users[1], expected_version=game.version) is False
    # The others are told, each once, by a notification of its own kind.
    told = Notification.objects.filter(kind=Kind.END_PROPOSED)
    assert sorted(told.values_list("user_id", flat=True)) == sorted([users[0].pk, users[2].pk])
    game.refresh_from_db()
    n = agreement.open_proposal(game).n
    clock.now += timedelta(hours=5)
    assert agreement.end_answer(game=game, user=users[0], proposal=n, agree=True) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert agreement.end_answer(game=game, user=users[2], proposal=n, agree=True) is True

    game.refresh_from_db()
    state = GameState.from_json(game.state)
    assert game.status == Game.Status.FINISHED and state.over
    richest = max(state.active(), key=lambda p: (net_worth(state, p), -p))
    assert game.winner_seat == richest == state.winner
    rows = list(GameAction.objects.filter(game=game, seq__gt=0).order_by("-seq")[:4].values_list(
        "source", "seat", "action"))
    assert [(r[0], r[2]["type"], r[2].get("choice")) for r in rows] == [
        ("agreement", "end_agreed", None), ("player", "note", "end_agree"), ("player", "note", "end_agree"),
        ("player", "note", "end_proposed")]
    events = replays_exactly(game)
    assert {"e": "agreed_end", "p": 2, "round": state.round} in events


def test_the_game_over_summary_says_it_ended_by_agreement(client, alice, bob):
    from ratings import services as ratings_services

    game = _game(alice, bob)
    users = users_by_seat(game)
    agreement.end_propose(game=game, user=users[0])
    agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)
    game.refresh_from_db()
    ratings_services.game_result_record(game_id=game.pk)
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"Ended by agreement in round {game.round}; ranked by net worth." in page
    assert "proposes to end the game, ranked by net worth." in page  # (the log)


def test_a_decline_closes_it_and_the_game_goes_on(alice, bob, charlie):
    game = _game(alice, bob, charlie)
    users = users_by_seat(game)
    agreement.end_propose(game=game, user=users[0])
    agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)
    assert agreement.end_answer(game=game, user=users[2], proposal=1, agree=False) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and agreement.open_proposal(game) is None
    # A yes to the declined proposal, however late, is refused; nothing changes.
    before = _unchanged(game)
    with pytest.raises(services.GameError, match="no longer open"):
        agreement.end_answer(game=game, user=users[2], proposal=1, agree=True)
    assert _unchanged(game) == before
    # A new proposal is numbered anew; an answer to the old number is refused.
    agreement.end_propose(game=game, user=users[2])
    game.refresh_from_db()
    assert agreement.open_proposal(game).n == 2
    with pytest.raises(services.GameError, match="no longer open"):
        agreement.end_answer(game=game, user=users[0], proposal=1, agree=True)
    replays_exactly(game)


def test_bad_input_is_refused_and_changes_nothing(alice, bob, charlie, clock):
    game = _game(alice, bob)
    users = users_by_seat(game)
    agreement.end_propose(game=game, user=users[0])
    before = _unchanged(game)
    with pytest.raises(services.GameError, match="already proposed"):
        agreement.end_propose(game=game, user=users[1])  # proposing twice
    with pytest.raises(services.GameError, match="you proposed it"):
        agreement.end_answer(game=game, user=users[0], proposal=1, agree=True)
    with pytest.raises(services.GameError, match="only the player who proposed"):
        agreement.end_withdraw(game=game, user=users[1], proposal=1)
    with pytest.raises(services.NotAllowed, match="not playing"):
        agreement.end_answer(game=game, user=charlie, proposal=1, agree=True)  # a spectator
    with pytest.raises(services.StaleVersion):
        agreement.end_propose(game=game, user=users[1], expected_version=game.version - 1)
    assert _unchanged(game) == before

    agreement.end_withdraw(game=game, user=users[0], proposal=1)
    game.refresh_from_db()
    before = _unchanged(game)
    with pytest.raises(services.GameError, match="no longer open"):  # a stale page's answer
        agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)
    with pytest.raises(services.GameError, match="no longer open"):  # a double click on withdraw
        agreement.end_withdraw(game=game, user=users[0], proposal=1)
    assert _unchanged(game) == before


def test_a_double_click_on_agree_is_refused(alice, bob, charlie):
    game = _game(alice, bob, charlie)
    users = users_by_seat(game)
    agreement.end_propose(game=game, user=users[0])
    agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)
    before = _unchanged(game)
    with pytest.raises(services.GameError, match="agreed already"):
        agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)
    assert _unchanged(game) == before


def test_a_bankrupt_player_has_no_say(alice, bob, charlie):
    game = _game(alice, bob, charlie)
    users = users_by_seat(game)
    state = dict(game.state)
    state["players"] = [dict(p, bankrupt=(i == 2)) for i, p in enumerate(state["players"])]
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    with pytest.raises(services.GameError, match="out of this game"):
        agreement.end_propose(game=game, user=users[2])
    # The two still in are all the end needs.
    agreement.end_propose(game=game, user=users[0])
    with pytest.raises(services.GameError, match="out of this game"):
        agreement.end_answer(game=game, user=users[2], proposal=1, agree=True)
    assert agreement.end_answer(game=game, user=users[1], proposal=1, agree=True) is True


def test_silence_is_no_the_proposal_lapses_after_24_hours(alice, bob, clock):
    game = _game(alice, bob)
    users = users_by_seat(game)
    agreement.end_propose(game=game, user=users[0])
    clock.now += agreement.WINDOW_CORRESPONDENCE
    with pytest.raises(services.GameError, match="no longer open"):
        agreement.end_answer(game=game, user=users[1], proposal=1, agree=True)
    agreement.end_propose(game=game, user=users[1])  # a new one may be made
    game.refresh_from_db()
    notes = list(GameAction.objects.filter(game=game, action__type="note").values_list("action__choice", "source"))
    assert notes[-2:] == [("end_lapsed", "clock"), ("end_proposed", "player")]
    replays_exactly(game)


def test_a_live_table_gives_30_seconds(alice, bob, clock):
    game = _game(alice, bob, pace=Table.Pace.LIVE)
    users = users_by_seat(game)
    agreement.end_propose(game=game, user=users[0])
    game.refresh_from_db()
    clock.now += timedelta(seconds=29)
    assert agreement.open_proposal(game) is not None
    clock.now += timedelta(seconds=1)
    assert agreement.open_proposal(game) is None


def test_bots_never_object_a_seat_a_bot_took_has_no_say(alice, bob):
    game = _game(alice, bob)
    users = users_by_seat(game)
    Seat.objects.filter(table=game.table, position=1).update(bot="strategy")
    with pytest.raises(services.NotAllowed, match="bot plays your seat"):
        agreement.end_propose(game=game, user=users[1])
    assert agreement.end_propose(game=game, user=users[0]) is True  # the only person with a say
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_proposal_notification_follows_its_preference(alice, bob, celery_eager, django_capture_on_commit_callbacks):
    game = _game(alice, bob)
    users = users_by_seat(game)
    preference_set(user=users[1], kind=Kind.END_PROPOSED, mode=Mode.OFF)
    with django_capture_on_commit_callbacks(execute=True):
        agreement.end_propose(game=game, user=users[0])
    assert Notification.objects.get(kind=Kind.END_PROPOSED).status == Notification.Status.OFF


def test_the_panel_and_its_form(client, alice, bob):
    game = _game(alice, bob)
    users = users_by_seat(game)
    url = reverse("games:game_end", args=[game.pk])
    client.force_login(users[0])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Propose to end the game" in page
    assert client.post(url, {"do": "propose", "version": game.version, "extra": "1"}).status_code == 302
    game.refresh_from_db()
    assert agreement.open_proposal(game) is None  # a forged form changed nothing
    response = client.post(url, {"do": "propose", "version": game.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "not yet answered" in response.content.decode()
    again = client.post(url, {"do": "propose", "version": game.version + 1}, HTTP_HX_REQUEST="true")
    assert again.status_code == 400 and "already proposed" in again.content.decode()
    client.force_login(users[1])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Agree to end the game" in page and "Decline" in page
    assert client.post(url, {"do": "agree", "n": "x"}, HTTP_HX_REQUEST="true").status_code == 400
    response = client.post(url, {"do": "agree", "n": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
