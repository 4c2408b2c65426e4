"""The game log and the replay say what a trade contained: each side's cash (in the board's
currency), deeds and jail cards, when it is offered and when it is accepted (RULES.md 9)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import GameState, describe
from games.engine.boards import DATA, Board, load_board
from games.models import Game, GameAction
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

NAMES = ["Alice", "Bob", "Charlie"]
OFFER = {"e": "trade_proposed", "p": 0, "to": 1, "trade": 38,
         "give": {"cash": 200, "squares": [39, 1], "cards": 1}, "take": {"cash": 0, "squares": [37], "cards": 0}}
ACCEPTED = {"e": "trade_accepted", "p": 1, "proposer": 0, "trade": 2,
            "give": {"cash": 1500, "squares": [3], "cards": 0}, "take": {"cash": 0, "squares": [], "cards": 2}}


def test_an_offer_says_what_each_side_would_give():
    line = describe(OFFER, NAMES, load_board("classic"))

    assert line == ("Alice offers Bob a trade (#38): $200, Boardwalk, Mediterranean Avenue and a jail card "
                    "for Park Place.")


def test_an_accepted_trade_says_what_changed_hands():
    line = describe(ACCEPTED, NAMES, load_board("classic"))

    assert line == "Trade #2 is accepted: Alice gives $1,500 and Baltic Avenue; Bob gives 2 jail cards."


def test_a_side_giving_nothing_says_so():
    event = dict(OFFER, give={"cash": 0, "squares": [], "cards": 0}, take={"cash": 10, "squares": [], "cards": 0})

    assert describe(event, NAMES, load_board("classic")) == "Alice offers Bob a trade (#38): nothing for $10."


def test_trade_lines_use_the_boards_currency_and_deed_names():
    with open(DATA / "world.json", encoding="utf-8") as f:
        board = Board({**json.load(f), "currency": "€"})

    line = describe(ACCEPTED, NAMES, board)

    assert line == (f"Trade #2 is accepted: Alice gives €1,500 and {board.name_of(3)}; Bob gives 2 jail cards.")
    assert describe({"e": "buy", "p": 0, "sq": 39, "price": 400}, NAMES, board).endswith("for €400.")


def test_an_accepted_trade_logged_before_events_carried_its_contents_keeps_the_short_line():
    assert describe({"e": "trade_accepted", "trade": 4, "p": 1}, NAMES, load_board("classic")) == (
        "Trade #4 is accepted.")


@pytest.mark.parametrize(("language", "offer", "accepted"), [
    ("es",
     "Alice ofrece un intercambio a Bob (#38): $200, Boardwalk, Mediterranean Avenue y una carta para salir "
     "de la Cárcel a cambio de Park Place.",
     "Se acepta el intercambio #2: Alice da $1,500 y Baltic Avenue; Bob da 2 cartas para salir de la Cárcel."),
    ("ca",
     "Alice ofereix un intercanvi a Bob (#38): $200, Boardwalk, Mediterranean Avenue i una carta per sortir "
     "de la Presó a canvi de Park Place.",
     "S'accepta l'intercanvi #2: Alice dona $1,500 i Baltic Avenue; Bob dona 2 cartes per sortir de la Presó."),
])
def test_trade_lines_in_spanish_and_catalan(language, offer, accepted):
    board = load_board("classic")
    with translation.override(language):
        lines = [describe(e, NAMES, board, gettext=translation.gettext) for e in (OFFER, ACCEPTED)]

    assert lines == [offer, accepted]


# ---------------------------------------------------------------------------------------------
# On the site: the game page's log and the replay of the finished game
# ---------------------------------------------------------------------------------------------

def both_own_deeds(state: GameState) -> bool:
    return (state.pending() == "roll" and cheapest_deed(state, 0) is not None
            and cheapest_deed(state, 1) is not None)


@pytest.fixture
def traded(alice, bob):
    """A classic game in which seat 0 gave $10 and a deed for one of seat 1's, through the
    service as the page's forms do; returns the game and the two deeds' names."""
    game = play_until(start_game(alice, bob), both_own_deeds)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    mine, theirs = cheapest_deed(state, 0), cheapest_deed(state, 1)
    services.game_submit_action(game=game, user=users[0], expected_version=game.version, action={
        "type": "propose", "to": 1, "give": {"cash": 10, "squares": [mine]}, "take": {"squares": [theirs]}})
    game.refresh_from_db()
    services.game_submit_action(game=game, user=users[1], expected_version=game.version,
                                action={"type": "accept", "trade": 1})
    game.refresh_from_db()
    names = [p.name for p in state.players]
    return game, names, state.board.name_of(mine), state.board.name_of(theirs)


@pytest.mark.django_db
def test_the_game_log_says_what_the_trade_contained(client, traded):
    game, names, mine, theirs = traded
    client.force_login(users_by_seat(game)[0])

    html = client.get(reverse("games:game", args=[game.pk])).content.decode()

    assert f"<bdi>{names[0]}</bdi> offers <bdi>{names[1]}</bdi> a trade (#1): $10 and {mine} for {theirs}." in html
    assert (f"Trade #1 is accepted: <bdi>{names[0]}</bdi> gives $10 and {mine}; <bdi>{names[1]}</bdi> gives "
            f"{theirs}.") in html


@pytest.mark.django_db
def test_the_replay_says_what_the_trade_contained(client, traded):
    game, names, mine, theirs = traded
    users = users_by_seat(game)
    seat = game.waiting_seats[0]
    services.game_submit_action(game=game, user=users[seat], action={"type": "surrender"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    step = GameAction.objects.get(game=game, action__type="accept").seq

    html = client.get(reverse("games:game_replay", args=[game.pk]), {"step": step}).content.decode()

    assert (f"Trade #1 is accepted: <bdi>{names[0]}</bdi> gives $10 and {mine}; <bdi>{names[1]}</bdi> gives "
            f"{theirs}." in html)
