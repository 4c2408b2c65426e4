"""Auctions: an auction that opens is not told to a holder whose standing order answered it,
and a holder whose maximum the bidding went past is told they were outbid (RULES.md 15)."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState, apply, waiting_on
from games.engine.dice import ScriptedRng
from games.models import Game
from notifications.models import Kind, Notification
from notifications.services import plan_game
from tests.games.play_helpers import users_by_seat


def _open_auction(game: Game) -> GameState:
    """The current player rolls 2 + 4 from Go onto Oriental Avenue and declines it: an auction
    (written as the game's state, as if those moves had been played)."""
    state = GameState.from_json(game.state)
    cur = state.current
    apply(state, {"type": "roll", "player": cur}, ScriptedRng([2, 4]))
    apply(state, {"type": "decline", "player": cur})
    assert state.pending() == "auction"
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), waiting_seats=waiting_on(state),
                                           pending="auction", current_seat=state.current)
    game.refresh_from_db()
    return state


@pytest.mark.django_db
def test_a_holder_whose_maximum_the_bidding_passed_is_told_they_were_outbid(
    alice, bob, charlie, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob, charlie, name="Gavel")
    state = _open_auction(game)
    users = users_by_seat(game)
    holder, bidder = [p for p in range(3) if p != state.current]
    services.game_submit_action(game=game, user=users[holder], expected_version=game.version,
                                action={"type": "max_bid", "amount": 80})
    game.refresh_from_db()
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users[bidder], expected_version=game.version,
                                    action={"type": "bid", "amount": 120})

    outbid = [m for m in mailoutbox if m.subject == "[Monopoly] You were outbid in “Gavel”"]
    assert [m.to for m in outbid] == [[users[holder].email]]
    assert "the bidding for Oriental Avenue went past your maximum bid of $80" in outbid[0].body
    assert "you may still bid by hand" in outbid[0].body
    # The maximum is the holder's secret: nobody else's e-mail names it.
    assert not any("$80" in m.body for m in mailoutbox if m.to != [users[holder].email])
    assert Notification.objects.filter(kind=Kind.OUTBID).count() == 1


@pytest.mark.django_db
def test_an_auction_opening_is_not_told_to_a_holder_whose_order_answered_it(
    alice, bob, charlie, make_game, mailoutbox, celery_eager
):
    from notifications.services import notify

    game = make_game(alice, bob, charlie, name="Lot")
    before = game.state
    state = GameState.from_json(before)
    cur = state.current
    holder = (cur + 1) % 3
    apply(state, {"type": "roll", "player": cur}, ScriptedRng([2, 4]))
    _, events = apply(state, {"type": "decline", "player": cur})
    # (As a standing order leaves one the moment the auction opens.)
    _, more = apply(state, {"type": "max_bid", "player": holder, "amount": 150})
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), waiting_seats=waiting_on(state),
                                           pending=state.pending())
    game.refresh_from_db()
    assert holder not in waiting_on(state)  # the engine leads for the holder

    items = plan_game(game=game, seats=list(game.table.seats.all()), previous_waiting={cur}, state=state,
                      events=events + more, started=False, over=False, version=game.version, before=before)
    users = users_by_seat(game)
    opened = [i for i in items if i[0] == Kind.AUCTION_OPEN]
    # RULES.md 15: a decision a standing order answers is never notified (issue 26, item 22).
    assert {i[1]: i[4].get("maximum") for i in opened} == {
        users[p].pk: None for p in range(3) if p not in (cur, holder)}

    mailoutbox.clear()
    notify(game_id=game.pk, items=items)
    assert users[holder].email not in {m.to[0] for m in mailoutbox}
    assert all("$150" not in m.body for m in mailoutbox)


@pytest.mark.django_db
def test_a_holder_is_told_once_per_auction_that_they_were_outbid_however_many_bids_follow(
    alice, bob, charlie, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    """Issue 26, item 23: one "you were outbid" per auction and player (it went out once per bid,
    as the engine passed the holder again after every bid), also when a new maximum of theirs
    is outbid again later in the same auction."""
    game = make_game(alice, bob, charlie, name="Gavel")
    state = _open_auction(game)
    users = users_by_seat(game)
    holder, bidder = [p for p in range(3) if p != state.current]
    decliner = state.current

    def move(seat, **action):
        game.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            services.game_submit_action(game=game, user=users[seat], expected_version=game.version, action=action)

    move(holder, type="max_bid", amount=60)
    for seat, amount in ((bidder, 80), (decliner, 90), (bidder, 100), (decliner, 110)):
        move(seat, type="bid", amount=amount)
    # A new maximum of the holder's leads, and is outbid in its turn: still the same auction.
    move(holder, type="max_bid", amount=150)
    move(bidder, type="bid", amount=200)

    outbid = [m for m in mailoutbox if m.subject == "[Monopoly] You were outbid in “Gavel”"]
    assert [m.to for m in outbid] == [[users[holder].email]]
    assert "went past your maximum bid of $60" in outbid[0].body
    assert Notification.objects.filter(kind=Kind.OUTBID).count() == 1
    events = [e for row in game.actions.all() for e in row.events]
    assert [e["p"] for e in events if e["e"] == "pass" and e.get("by") == "max"] == [holder, holder]


@pytest.mark.django_db
def test_each_auction_has_its_own_outbid_notice(alice, bob, charlie, make_game, celery_eager,
                                                 django_capture_on_commit_callbacks):
    game = make_game(alice, bob, charlie, name="Gavel")
    users = users_by_seat(game)
    for _auction in range(2):
        state = _open_auction(game)
        holder, bidder = [p for p in range(3) if p != state.current]
        for seat, action in ((holder, {"type": "max_bid", "amount": 60}), (bidder, {"type": "bid", "amount": 80})):
            game.refresh_from_db()
            with django_capture_on_commit_callbacks(execute=True):
                services.game_submit_action(game=game, user=users[seat], expected_version=game.version,
                                            action=action)
        # (The auction is left open: the next one replaces its frame, as a new auction.)
        state = GameState.from_json(game.state)
        state.stack.clear()
        state.phase = "roll"
        Game.objects.filter(pk=game.pk).update(state=state.to_json())
        game.refresh_from_db()

    assert Notification.objects.filter(kind=Kind.OUTBID).count() == 2
