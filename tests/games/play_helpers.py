"""Helpers for the game page's tests: start a game between users, and play it on through the
service with a simple policy (the same moves a cautious player would click)."""

from __future__ import annotations

from unittest import mock

from games import services
from games.engine import GameState, apply, legal_actions, waiting_on
from games.models import Game

# What the simple player prefers, first listed first. In debt it sells and mortgages.
PREFERENCE = ("buy", "decline", "roll", "end_turn", "pay_fine", "keep_mortgaged", "income_tax", "casino_skip", "bus",
              "teleport", "destroy", "reject", "pass", "sell", "sell_all", "mortgage")


def start_game(host, *others, preset: str = "classic", pace: str = "live", private: bool = False,
               name: str = "Test table", seed: int = 20240601) -> Game:
    """A started game between users, with a fixed seed so that every run plays the same game."""
    table = services.table_create(host=host, name=name, preset=preset, pace=pace, turn_hours=24,
                                  seat_count=1 + len(others), is_private=private)
    for user in others:
        services.table_join(table=table, user=user)
    with mock.patch("secrets.randbits", return_value=seed):
        return services.table_start(table=table, by=host)


def users_by_seat(game: Game) -> dict[int, object]:
    return {s.position: s.user for s in game.table.seats.select_related("user")}


def choose(state: GameState, seat: int) -> dict | None:
    legal = legal_actions(state, seat)
    top = state.pending_frame()
    in_debt = top is not None and top["k"] == "debt" and top["p"] == seat
    for kind in PREFERENCE:
        for a in legal:
            if a["type"] != kind:
                continue
            if kind in ("sell", "sell_all", "mortgage") and not in_debt:
                continue
            return {k: v for k, v in a.items() if k not in ("player", "min", "max")}
    if in_debt:
        return {"type": "surrender"}
    return None


def next_move(game: Game) -> tuple[int, dict] | None:
    """The seat the game waits on and the move the simple player makes there."""
    state = GameState.from_json(game.state)
    for seat in waiting_on(state):
        move = choose(state, seat)
        if move is not None:
            return seat, move
    return None


def autoplay(game: Game, actions: int) -> Game:
    """Play ``actions`` moves (or until the game ends) through services.game_submit_action."""
    users = users_by_seat(game)
    for _ in range(actions):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        found = next_move(game)
        assert found is not None, f"the simple player has no move: {game.state['stack'][-1:]}"
        seat, move = found
        services.game_submit_action(game=game, user=users[seat], action=move, expected_version=game.version)
    game.refresh_from_db()
    return game


def end_by_surrenders(game: Game, surrenders: int = 2) -> Game:
    """The players the game waits on surrender, one after the other, until it is over (at most
    ``surrenders`` of them): a game played for a while, then finished. Asserts it is."""
    users = users_by_seat(game)
    for _ in range(surrenders):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.waiting_seats[0]
        services.game_submit_action(game=game, user=users[seat], action={"type": "surrender"},
                                    expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def play_until(game: Game, done, limit: int = 500) -> Game:
    """Play on with the simple player until ``done(state)`` holds (checked before each move)."""
    users = users_by_seat(game)
    for _ in range(limit):
        game.refresh_from_db()
        state = GameState.from_json(game.state)
        if done(state):
            return game
        assert game.status == Game.Status.ACTIVE, "the game ended first"
        seat, move = next_move(game)
        services.game_submit_action(game=game, user=users[seat], action=move, expected_version=game.version)
    raise AssertionError("the condition never came")


def cheapest_deed(state: GameState, seat: int) -> int | None:
    """A deed of ``seat`` that may be traded (no buildings in its group, not mortgaged)."""
    board = state.board
    deeds = [sq for sq in board.deeds if state.owner[sq] == seat and not state.mortgaged[sq]
             and not any(state.level[x] for x in board.group_of[sq])]
    return min(deeds, key=lambda sq: board.price[sq]) if deeds else None


def rig_doubles(game: Game) -> None:
    """Set the game's dice so that the current player's next roll is doubles onto a square that
    asks nothing (no purchase, rent or card): the turn goes on with another roll. The engine's
    dice are its seeded generator, whose whole state is ``state.rng``: this picks one."""
    game.refresh_from_db()
    cash = game.state["players"][game.state["current"]]["cash"]
    for candidate in range(1, 10_000):
        state = GameState.from_json(game.state)
        state.rng = candidate
        apply(state, {"type": "roll", "player": state.current})
        quiet = state.players[state.current].cash == cash  # (no rent, tax or card paid)
        if state.turn["doubles"] == 1 and not state.stack and state.phase == "roll" and quiet:
            game.state = dict(game.state, rng=candidate)
            Game.objects.filter(pk=game.pk).update(state=game.state)
            return
    raise AssertionError("no generator state gives doubles onto a quiet square")


def no_auto_vacation(game: Game) -> None:
    """Every player of ``game`` turns auto-vacation off (RULES.md 16: on by default where
    vacation is allowed): a test of what a timeout does gets the timeout, not a day off."""
    from games.models import Vacation

    for seat in range(len(game.state["players"])):
        Vacation.objects.update_or_create(game=game, seat=seat, defaults={"auto": False})
