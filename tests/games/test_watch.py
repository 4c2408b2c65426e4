"""The Watch page (issue 12): the games in progress at public tables, with their players, round
and last move, each one click from spectating; linked from the header and the lobby. Private
tables' games, finished games and tables still filling up are not listed; neither is a game
one of whose players blocks the viewer (moderators see it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.models import GameAction, Seat
from moderation.models import Block
from tests.factories import UserFactory
from tests.games.play_helpers import autoplay, start_game
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def _cards(html: str) -> list[str]:
    """The Watch cards of a page, each as its HTML."""
    return [part.split("</article>")[0] for part in html.split('<article class="table-card watch-card">')[1:]]


def test_watch_lists_live_public_games_with_players_round_and_last_move(client, alice, bob, charlie):
    live = autoplay(start_game(alice, bob, name="Live one"), 12)
    start_game(alice, charlie, name="Secret one", private=True)
    finished = start_game(bob, charlie, name="Over one")
    finished.refresh_from_db()
    services.game_submit_action(game=finished, user=charlie, action={"type": "surrender"},
                                expected_version=finished.version)
    services.table_create(host=charlie, name="Filling one", preset="classic")
    # Its last move two hours ago (the page says how long ago, not a time).
    last = GameAction.objects.filter(game=live).order_by("-seq").first()
    GameAction.objects.filter(pk=last.pk).update(created_at=last.created_at - timedelta(hours=2))
    client.force_login(charlie)

    html = client.get(reverse("games:watch")).content.decode()

    cards = _cards(html)
    assert len(cards) == 1
    card = cards[0]
    live.refresh_from_db()
    assert "Live one" in card
    assert "Alice" in card and "Bob" in card
    assert f"Round {live.round}" in card
    assert "last move 2\xa0hours ago" in card
    assert f'href="{reverse("games:game", args=[live.pk])}"' in card
    assert ">Watch<" in card
    for hidden in ("Secret one", "Over one", "Filling one"):
        assert hidden not in html


def test_a_bot_is_listed_by_its_label_in_the_readers_language(client, alice, make_table):
    table = make_table(alice, name="Bots", seat_count=2)
    services.table_set_seat(table=table, by=alice, position=1, bot=Seat.Bot.STRATEGY)
    services.table_start(table=table, by=alice)
    alice.language = "es"
    alice.save(update_fields=["language"])
    client.force_login(alice)

    card = _cards(client.get(reverse("games:watch")).content.decode())[0]

    assert "Bot estratega 2" in card and "Strategy bot" not in card
    assert "Ronda 1" in card and ">Mirar<" in card


def test_a_game_of_a_player_who_blocks_the_viewer_is_not_listed_to_them(client, alice, bob, charlie):
    start_game(alice, bob, name="Alice and Bob")
    Block.objects.create(blocker=bob, blocked=charlie)
    watch = reverse("games:watch")

    client.force_login(charlie)
    assert "Alice and Bob" not in client.get(watch).content.decode()
    client.force_login(alice)
    assert "Alice and Bob" in client.get(watch).content.decode()
    mona = make_moderator("mona")
    Block.objects.create(blocker=bob, blocked=mona)
    client.force_login(mona)
    assert "Alice and Bob" in client.get(watch).content.decode()
    client.logout()
    assert "Alice and Bob" in client.get(watch).content.decode()


@pytest.mark.parametrize("games", [2, 9])
def test_watch_runs_a_fixed_number_of_queries(client, charlie, games, django_assert_num_queries):
    for i in range(games):
        start_game(UserFactory(), UserFactory(), name=f"Game {i}")
    client.force_login(charlie)

    # The viewer (the session comes from the cache: cached_db), the moderator check (their
    # groups' permissions and their own), the games with their last move, every seat of them
    # with its user.
    with django_assert_num_queries(5):
        html = client.get(reverse("games:watch")).content.decode()

    assert len(_cards(html)) == games


def test_spectating_is_one_click_from_the_lobby(client, alice, bob, charlie):
    game = start_game(alice, bob, name="In play")
    client.force_login(charlie)

    lobby = client.get(reverse("games:lobby")).content.decode()

    assert f'href="{reverse("games:watch")}"' in lobby  # the header and the "all games" link
    card = _cards(lobby)[0]
    watch_link = f'href="{reverse("games:game", args=[game.pk])}"'
    assert watch_link in card and ">Watch<" in card
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "watching" in page


def test_a_game_that_just_moved_says_so(client, alice, bob, charlie):
    start_game(alice, bob, name="Fresh")
    client.force_login(charlie)

    card = _cards(client.get(reverse("games:watch")).content.decode())[0]

    assert "last move just now" in card and "ago" not in card


def test_watch_says_so_when_nothing_is_being_played(client, charlie):
    client.force_login(charlie)

    html = client.get(reverse("games:watch")).content.decode()

    assert "No public game is being played right now." in html
    assert _cards(html) == []


@pytest.mark.parametrize("language, words", [("en", "Bob (played by a bot)"), ("es", "Bob (lo juega un bot)"),
                                             ("ca", "Bob (el juga un bot)")])
def test_a_seat_a_bot_took_over_shows_its_player_played_by_a_bot(client, alice, bob, charlie, language, words):
    """Issue 26 item 36: after a bot takes a player's seat (RULES.md 15, absent players), Watch,
    and My games name the player, not "Strategy bot 2"."""
    bob.display_name = "Bob"
    bob.save(update_fields=["display_name"])
    game = start_game(alice, bob, name="Taken over")
    seat = Seat.objects.get(table=game.table, user=bob)
    seat.bot = Seat.Bot.STRATEGY  # as services.moves._bot_takes_over leaves it
    seat.save(update_fields=["bot"])
    for viewer in (charlie, alice):
        viewer.language = language
        viewer.save(update_fields=["language"])
    client.force_login(charlie)
    card = _cards(client.get(reverse("games:watch")).content.decode())[0]
    assert words in card and "bot 2" not in card and "bot estratega" not in card.lower()
    client.force_login(alice)
    mine = client.get(reverse("games:my_games")).content.decode()
    assert words in mine and "bot 2" not in mine
