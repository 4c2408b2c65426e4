"""game_submit_action's refusals, game_timeout, and the mirrored rows agreeing with the state."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.engine import GameState, IllegalAction, apply, legal_actions
from games.engine.bots import make_bot
from games.models import AuctionRow, DeckRow, DeedRow, Game, GameAction, TradeRow
from tests.games.play_helpers import no_auto_vacation


def _snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, game.state, GameAction.objects.filter(game=game).count(), game.deadline


def _user_at(game: Game, position: int) -> User:
    return game.table.seats.get(position=position).user


@pytest.fixture
def duel(alice, bob, make_game) -> Game:
    """Alice (seat 0) against Bob (seat 1), classic rules, by correspondence."""
    game = make_game(alice, bob)
    no_auto_vacation(game)  # (its timeouts are timeouts: RULES.md 16's automatic day is off)
    return game


@pytest.mark.django_db
def test_a_stale_version_is_refused_and_nothing_is_written(duel):
    seat = duel.waiting_seats[0]
    before = _snapshot(duel)

    with pytest.raises(services.StaleVersion):
        services.game_submit_action(
            game=duel,
            user=_user_at(duel, seat),
            action={"type": "roll"},
            expected_version=duel.version - 1,
        )

    assert _snapshot(duel) == before


@pytest.mark.django_db
def test_a_non_player_is_refused_and_nothing_is_written(duel, charlie):
    before = _snapshot(duel)

    with pytest.raises(services.NotAllowed, match="not playing"):
        services.game_submit_action(
            game=duel, user=charlie, action={"type": "roll"}, expected_version=duel.version
        )

    assert _snapshot(duel) == before


@pytest.mark.django_db
def test_an_out_of_turn_action_is_refused_with_the_engines_reason_and_nothing_is_written(duel):
    idle = 1 - duel.waiting_seats[0]
    action = {"type": "roll", "player": idle}
    with pytest.raises(IllegalAction) as engine_error:
        apply(GameState.from_json(duel.state), action)
    before = _snapshot(duel)

    with pytest.raises(services.GameError) as site_error:
        services.game_submit_action(
            game=duel,
            user=_user_at(duel, idle),
            action={"type": "roll"},
            expected_version=duel.version,
        )

    assert str(site_error.value) == str(engine_error.value)
    assert _snapshot(duel) == before


@pytest.mark.django_db
def test_a_timeout_type_action_cannot_be_forged(duel):
    seat = duel.waiting_seats[0]
    before = _snapshot(duel)

    with pytest.raises(services.GameError, match="unknown action"):
        services.game_submit_action(
            game=duel,
            user=_user_at(duel, seat),
            action={"type": "timeout"},
            expected_version=duel.version,
        )

    assert _snapshot(duel) == before


@pytest.mark.django_db
def test_of_two_submissions_of_the_same_version_only_the_first_applies(duel):
    seat = duel.waiting_seats[0]
    user = _user_at(duel, seat)
    version = duel.version

    services.game_submit_action(
        game=duel, user=user, action={"type": "roll"}, expected_version=version
    )
    after_first = _snapshot(duel)
    with pytest.raises(services.StaleVersion):
        services.game_submit_action(
            game=duel, user=user, action={"type": "roll"}, expected_version=version
        )

    assert after_first[0] == version + 1
    assert _snapshot(duel) == after_first


@pytest.mark.django_db
def test_game_timeout_applies_the_default_counts_a_miss_and_bumps_the_version(duel):
    seat = duel.waiting_seats[0]
    Game.objects.filter(pk=duel.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version, _state, actions, _deadline = _snapshot(duel)

    applied = services.game_timeout(game_id=duel.pk)

    duel.refresh_from_db()
    assert applied >= 1
    assert duel.version == version + 1
    assert duel.state["players"][seat]["missed"] == 1
    first = GameAction.objects.filter(game=duel, seq__gt=0).order_by("seq")[actions - 1]
    assert first.source == "timeout" and first.action["type"] == "timeout" and first.seat == seat
    assert duel.deadline > timezone.now()


@pytest.mark.django_db
def test_game_timeout_before_the_deadline_does_nothing(duel):
    assert duel.deadline > timezone.now()
    before = _snapshot(duel)

    assert services.game_timeout(game_id=duel.pk) == 0

    assert _snapshot(duel) == before


def _play(game: Game, moves: int, seed: int = 7) -> None:
    """Let the strategy bot choose for whichever human the game waits on, through the service."""
    rng = random.Random(seed)
    bot = make_bot("strategy")
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        seat = game.waiting_seats[0]
        action = bot.choose(GameState.from_json(game.state), seat, rng)
        action = {k: v for k, v in action.items() if k != "player"}
        services.game_submit_action(
            game=game, user=_user_at(game, seat), action=action, expected_version=game.version
        )


def _assert_rows_agree(game: Game) -> None:
    game.refresh_from_db()
    state = GameState.from_json(game.state)
    deeds = {r.square: r for r in DeedRow.objects.filter(game=game)}
    assert sorted(deeds) == sorted(state.board.deeds)
    for sq, row in deeds.items():
        owner = None if state.owner[sq] < 0 else state.owner[sq]
        assert (row.owner_seat, row.level, row.mortgaged, row.mortgaged_round) == (
            owner,
            state.level[sq],
            state.mortgaged[sq],
            state.mround[sq],
        ), sq
    decks = {r.name: r for r in DeckRow.objects.filter(game=game)}
    assert set(decks) == set(state.decks)
    for name, row in decks.items():
        assert row.cards == state.decks[name]
        assert row.discards == state.discards.get(name, [])
    open_trades = {
        t.number: t for t in TradeRow.objects.filter(game=game, status=TradeRow.Status.OPEN)
    }
    assert set(open_trades) == {int(n) for n in state.trades}
    open_auctions = [(a.square, a.what) for a in AuctionRow.objects.filter(game=game, is_open=True)]
    assert open_auctions == [(f["sq"], f["what"]) for f in state.stack if f["k"] == "auction"]
    # The log holds the start (seq 0) and then every action applied, with no gap: it replays.
    seqs = list(GameAction.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(state.seq + 1))


@pytest.mark.django_db
def test_rows_mirror_the_state_after_a_few_moves_and_a_trade(duel):
    _play(duel, 12)
    _assert_rows_agree(duel)

    # Classic rules allow trades at any time but in the middle of a decision that forbids them
    # (an auction's bids, a debt): the seed is random, so the game may be at one; play on.
    for _ in range(40):
        duel.refresh_from_db()
        state = GameState.from_json(duel.state)
        proposer = duel.waiting_seats[0]
        propose = next((a for a in legal_actions(state, proposer) if a["type"] == "propose"), None)
        if propose is not None:
            break
        _play(duel, 1)
    assert propose is not None, "no position in 40 moves where the player waited on could propose"
    cash = min(10, state.players[proposer].cash)
    services.game_submit_action(
        game=duel,
        user=_user_at(duel, proposer),
        expected_version=duel.version,
        action={
            "type": "propose",
            "to": 1 - proposer,
            "give": {"cash": cash, "squares": [], "cards": 0},
            "take": {"cash": 0, "squares": [], "cards": 0},
        },
    )
    _assert_rows_agree(duel)
    trade = TradeRow.objects.get(game=duel)
    assert (trade.from_seat, trade.to_seat, trade.status) == (
        proposer,
        1 - proposer,
        TradeRow.Status.OPEN,
    )

    duel.refresh_from_db()
    services.game_submit_action(
        game=duel,
        user=_user_at(duel, 1 - proposer),
        expected_version=duel.version,
        action={"type": "reject", "trade": trade.number},
    )
    trade.refresh_from_db()
    assert trade.status == TradeRow.Status.REJECTED
    _play(duel, 12, seed=8)
    _assert_rows_agree(duel)
