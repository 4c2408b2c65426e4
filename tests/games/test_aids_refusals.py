"""Who may use the correspondence aids and the live pause (RULES.md 11 and 15): each aid refuses,
in its own words and changing nothing, a game that is over, a table of the other pace, someone
without a seat, a seat a bot plays and a player out of the game (games/aids/services.py, one lookup of
the caller's seat with each aid's refusals)."""

from __future__ import annotations

import pytest

from games.aids import services as aids
from games.aids import standing
from games.errors import GameError, NotAllowed
from games.models import Game, Seat, StandingOrder, Vacation
from tests.games.play_helpers import start_game

pytestmark = pytest.mark.django_db

AIDS = {
    "orders": lambda game, user: aids.standing_orders_set(game=game, user=user,
                                                          orders=standing.Orders(end_turn=True)),
    "vacation": lambda game, user: aids.vacation_take(game=game, user=user, days=1),
    "pause": lambda game, user: aids.pause_ask(game=game, user=user),
}
PACE = {"orders": "correspondence", "vacation": "correspondence", "pause": "live"}
OTHER_PACE = {"vacation": ("correspondence", "live", "vacations are for correspondence tables"),
              "pause": ("live", "correspondence", "only live tables pause")}
BOT_OR_OUT = {
    "orders": ("a bot plays your seat since your third missed turn", GameError, "you are out of this game"),
    "vacation": ("a bot plays your seat since your third missed turn", GameError, "you are out of this game"),
    "pause": ("you have no say in this game any more", NotAllowed, "you have no say in this game any more"),
}


def _refused(aid: str, game: Game, user, error: type, words: str) -> None:
    version = Game.objects.get(pk=game.pk).version
    with pytest.raises(error) as caught:
        AIDS[aid](game, user)
    assert str(caught.value) == words
    assert Game.objects.get(pk=game.pk).version == version
    assert not StandingOrder.objects.exists() and not Vacation.objects.filter(days_used__gt=0).exists()


@pytest.mark.parametrize("aid", AIDS)
def test_someone_without_a_seat_and_a_finished_game_are_refused(aid, alice, bob, charlie):
    game = start_game(alice, bob, pace=PACE[aid])
    _refused(aid, game, charlie, NotAllowed, "you are not playing in this game")

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    _refused(aid, game, alice, GameError, "this game is over")


@pytest.mark.parametrize("aid", OTHER_PACE)
def test_an_aid_of_the_other_pace_is_refused_in_its_own_words(aid, alice, bob):
    _own, other, words = OTHER_PACE[aid]
    _refused(aid, start_game(alice, bob, pace=other), alice, GameError, words)


@pytest.mark.parametrize("aid", AIDS)
def test_a_seat_a_bot_plays_and_a_player_out_of_the_game_are_refused_in_each_aids_words(
    aid, alice, bob, charlie
):
    game = start_game(alice, bob, charlie, pace=PACE[aid])
    bot_words, out_error, out_words = BOT_OR_OUT[aid]
    # Bob's seat was handed to a bot at his third missed turn (RULES.md 15); Charlie is out.
    Seat.objects.filter(table_id=game.table_id, user=bob).update(bot=Seat.Bot.STRATEGY)
    charlie_seat = Seat.objects.get(table_id=game.table_id, user=charlie).position
    state = Game.objects.get(pk=game.pk).state
    state["players"][charlie_seat]["bankrupt"] = True
    Game.objects.filter(pk=game.pk).update(state=state)

    _refused(aid, game, bob, NotAllowed, bot_words)
    _refused(aid, game, charlie, out_error, out_words)

    # Alice, still playing her own seat, may.
    AIDS[aid](game, alice)
