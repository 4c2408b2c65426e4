"""Play on from here (issue 30): from a step of a finished game's replay, a private game against
strategy bots at that position, the person in the seat they chose; never rated, no progress,
never listed; bad input refused with a clear error and nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis.models import Sandbox
from games import records, services
from games.engine import GameState, apply
from games.engine.dice import StateRng
from games.errors import GameError
from games.models import Game, GameAction, Seat, Table, TradeRow
from ratings.models import PlayerResult, Progress
from ratings.services import game_result_record
from tests.analysis.conftest import finish
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game

pytestmark = pytest.mark.django_db


def _play_on(client, game: Game, step, seat):
    return client.post(reverse("analysis:play_on", args=[game.pk]), {"step": step, "seat": seat})


def _replays_to_its_state(game: Game) -> None:
    game.refresh_from_db()
    record = records.game_record(game)
    last = records.checkpoints(record)[-1]
    state = GameState.from_json(last.state)
    for n, action in enumerate(last.actions, start=last.index * records.CHECKPOINT_EVERY + 1):
        records._apply(state, n, action, events=False)
    assert state.to_json() == GameState.from_json(game.state).to_json()


def test_playing_on_starts_a_private_game_against_bots_at_that_position(client, finished, alice, bob, charlie):
    step = 57
    client.force_login(charlie)  # a spectator of the public table may play on from its replay
    answer = _play_on(client, finished, step, 1)
    sandbox = Sandbox.objects.get()
    game = sandbox.game
    assert answer.status_code == 302 and answer["Location"] == reverse("games:game", args=[game.pk])
    assert (sandbox.source_id, sandbox.step, sandbox.seat, sandbox.owner_id) == (finished.pk, step, 1, charlie.pk)
    table = game.table
    assert table.is_private and table.host_id == charlie.pk and table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("position"))
    assert [(s.user_id, s.bot) for s in seats] == [(None, Seat.Bot.STRATEGY), (charlie.pk, "")]
    # The position is the replay's at that step (then the bots played on to charlie's decision).
    replay = services.game_replay(game=finished)
    there = records.replay_position(replay=replay, step=step).state
    copied = list(GameAction.objects.filter(game=game).exclude(seq=0).order_by("seq", "sub")
                  .values_list("action", flat=True)[:step])
    assert copied == [a for a in records.game_record(finished)["actions"][:step]]
    assert [p.name for p in GameState.from_json(game.state).players] == ["Strategy bot 1", "Charlie"]
    assert GameState.from_json(game.state).seq >= there.seq
    _replays_to_its_state(game)
    # Charlie plays it; nobody else sees it, and it is listed nowhere.
    assert client.get(reverse("games:game", args=[game.pk])).status_code == 200
    client.force_login(bob)
    assert client.get(reverse("games:game", args=[game.pk])).status_code == 404
    assert "Play on" not in client.get(reverse("games:watch")).content.decode()
    assert "Play on" not in client.get(reverse("games:lobby")).content.decode()


def test_a_sandbox_has_fresh_dice_and_cards_kept_in_its_record(client, finished, alice):
    step = 57
    client.force_login(alice)
    _play_on(client, finished, step, 0)
    game = Sandbox.objects.get().game
    there = records.replay_position(replay=services.game_replay(game=finished), step=step).state
    # Right after the copied moves, the site's reseed with a seed of its own (no player chose it).
    row = GameAction.objects.filter(game=game).exclude(seq=0).order_by("seq", "sub")[step]
    assert row.action["type"] == "reseed" and row.source == "system" and row.seat == 0
    assert row.action["amount"] != finished.seed and 0 <= row.action["amount"] < 2**64
    fresh = there.copy()
    apply(fresh, row.action)
    # Not the finished game's stream: other dice to come, the undrawn cards in another order.
    assert fresh.rng != there.rng and _rolls(fresh) != _rolls(there)
    assert any(fresh.decks[k] != there.decks[k] for k in there.decks)
    # Its log says so, and its record still replays exactly to the game's state.
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "the dice and the cards are this game" in page.replace("&#x27;", "'")
    _replays_to_its_state(game)
    # A second sandbox from the same step gets dice of its own too.
    _play_on(client, finished, step, 0)
    second = Sandbox.objects.exclude(game=game).get().game
    row2 = GameAction.objects.filter(game=second).exclude(seq=0).order_by("seq", "sub")[step]
    assert row2.action["type"] == "reseed" and row2.action["amount"] != row.action["amount"]


def test_a_player_cannot_post_a_reseed(client, alice, bob):
    game = start_game(alice, bob)
    before = Game.objects.get(pk=game.pk).version
    seat = Seat.objects.get(table=game.table, user=alice).position
    with pytest.raises(GameError):
        services.game_submit_actions(game=game.pk, user=alice, expected_version=before,
                                     actions=[{"type": "reseed", "player": seat, "amount": 1}])
    assert Game.objects.get(pk=game.pk).version == before


def _rolls(state: GameState, n: int = 8) -> list:
    rng = StateRng(state.copy())
    return [rng.dice() for _ in range(n)]


def test_a_sandbox_that_ends_gives_no_rating_or_progress(client, finished, alice):
    client.force_login(alice)
    _play_on(client, finished, 30, 0)
    game = Sandbox.objects.get().game
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:
        game = end_by_surrenders(game, surrenders=1)
    xp_before = Progress.objects.filter(user=alice).values_list("xp", flat=True).first()
    result = game_result_record(game_id=game.pk)
    assert result is not None and not result.rated
    assert not PlayerResult.objects.filter(game=game).exists()
    assert Progress.objects.filter(user=alice).values_list("xp", flat=True).first() == xp_before
    _replays_to_its_state(game)


def test_a_trade_open_at_that_step_waits_in_the_sandbox_too(client, alice, bob):
    game = start_game(alice, bob)
    autoplay(game, 12)
    game.refresh_from_db()
    if GameState.from_json(game.state).pending() != "roll":
        pytest.skip("the fixed game is not at a roll here")
    seat = game.waiting_seats[0]
    services.game_submit_action(game=game, user=alice if seat == 0 else bob,
                                action={"type": "propose", "to": 1 - seat, "give": {"cash": 10}, "take": {}},
                                expected_version=game.version)
    steps = GameAction.objects.filter(game=game).exclude(seq=0).count()
    end_by_surrenders(game, surrenders=2)
    client.force_login(alice)
    assert _play_on(client, game, steps, 1 - seat).status_code == 302
    sandbox = Sandbox.objects.get()
    # The answer is the person's to give: the trade's row is open, the game waits on them.
    row = TradeRow.objects.get(game=sandbox.game)
    assert (row.from_seat, row.to_seat, row.status, row.give["cash"]) == (seat, 1 - seat, TradeRow.Status.OPEN, 10)
    sandbox.game.refresh_from_db()
    assert sandbox.game.waiting_seats == [1 - seat]


@pytest.mark.parametrize("step, seat, why", [
    ("99999", "0", "has no move 99999"),
    ("-3", "0", "Choose a move"),
    ("12abc", "0", "Choose a move"),
    ("", "0", "Choose a move"),
    ("10", "7", "has no seat 8"),
    ("10", "", "Choose a move"),
])
def test_forged_steps_and_seats_are_refused_and_nothing_is_made(client, finished, alice, step, seat, why):
    client.force_login(alice)
    games = Game.objects.count()
    answer = _play_on(client, finished, step, seat)
    assert answer.status_code == 400 and why in answer.content.decode()
    assert Game.objects.count() == games and not Sandbox.objects.exists()


def test_the_last_step_of_a_finished_game_is_refused(client, finished, alice):
    client.force_login(alice)
    steps = GameAction.objects.filter(game=finished).exclude(seq=0).count()
    answer = _play_on(client, finished, steps, 0)
    assert answer.status_code == 400 and "The game is over at this move" in answer.content.decode()
    assert not Sandbox.objects.exists()


def test_a_live_game_someone_elses_private_game_a_get_or_a_visitor_are_refused(client, alice, bob, charlie):
    live = start_game(alice, bob)
    client.force_login(charlie)
    answer = _play_on(client, live, 0, 0)
    assert answer.status_code == 400 and "still being played" in answer.content.decode()
    private = finish(alice, bob, private=True, actions=20)
    assert _play_on(client, private, 0, 0).status_code == 404
    assert client.get(reverse("analysis:play_on", args=[private.pk])).status_code == 405
    client.logout()
    answer = _play_on(client, private, 0, 0)
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert not Sandbox.objects.exists()


def test_the_replay_offers_play_on_at_its_step_to_a_signed_in_viewer(client, finished, alice):
    url = reverse("games:game_replay", args=[finished.pk]) + "?step=40"
    assert "Play on from here" not in client.get(url).content.decode()
    client.force_login(alice)
    html = client.get(url).content.decode()
    assert 'name="step" value="40"' in html and reverse("analysis:play_on", args=[finished.pk]) in html
    # Each step's fragment (htmx) carries the form with its own step.
    fragment = client.get(reverse("games:game_replay", args=[finished.pk]) + "?step=41", HTTP_HX_REQUEST="true")
    assert 'name="step" value="41"' in fragment.content.decode()


def test_a_suspended_player_opens_no_sandbox(client, finished, charlie):
    from moderation.models import Sanction

    Sanction.objects.create(user=charlie, kind="suspend", reason="x", until=None)
    client.force_login(charlie)
    answer = _play_on(client, finished, 10, 0)
    assert answer.status_code == 403 and not Sandbox.objects.exists()
