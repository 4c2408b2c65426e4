"""The pages: the game-over summary on the game page, the profile (and who sees what on it),
the leaderboards, and the host's rematch button (bad requests change nothing)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import GameState
from games.models import GameAction, Invitation, Table
from moderation import services as block_services
from moderation.models import Block
from ratings import progress, services, skill
from ratings.models import Progress, Rating, Rematch
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _page(response) -> str:
    # The page without its CSRF tokens, which are masked afresh in every response.
    return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', r"\1", response.content.decode())


@pytest.fixture
def rated(finished_game, alice, bob, charlie):
    game = finished_game([alice, bob, charlie])
    services.game_result_record(game_id=game.pk)
    return game


def test_the_finished_game_page_shows_the_summary_from_the_record(client, rated, alice):
    client.force_login(alice)
    page = _text(client.get(reverse("games:game", args=[rated.pk])))
    state = GameState.from_json(rated.state)

    assert "Game summary" in page and "Rated · Classic" in page
    # Rent paid between players, summed from the events the site stored for each move.
    rent: dict[tuple[int, int], int] = {}
    for events in GameAction.objects.filter(game=rated).values_list("events", flat=True):
        for e in events:
            if e["e"] == "rent" and e["amount"]:
                rent[(e["p"], e["owner"])] = rent.get((e["p"], e["owner"]), 0) + e["amount"] - e.get("tax", 0)
    assert rent
    names = [p.name for p in state.players]
    for (payer, owner), amount in rent.items():
        assert f"{names[payer]} paid {names[owner]} ${amount:,}" in page
    # The rating change of each player, and the chart of net worth.
    for r in Rating.objects.all():
        delta = r.value - 1500
        sign, kind = ("+", "up") if delta > 0 else ("−", "down")
        # One rated game: the new rating is provisional, and marked so.
        assert f'{r.value}<abbr class="provisional" title="provisional">?</abbr> <span class="delta {kind}">' \
               f'{sign}{abs(delta)}' in page
    assert page.count('class="chart-line"') == 3
    assert "bankrupted" in page or "went bankrupt" in page


def test_a_game_not_yet_counted_says_so(client, finished_game, alice, bob):
    game = finished_game([alice, bob], seed=1)
    client.force_login(alice)
    page = _text(client.get(reverse("games:game", args=[game.pk])))
    assert "being counted" in page


def test_the_profile_shows_ratings_level_achievements_and_games(client, rated, alice, bob):
    client.force_login(bob)
    page = _text(client.get(reverse("ratings:profile", args=["alice"])))
    rating = Rating.objects.get(user=alice)
    assert f"{rating.value}<abbr class=\"provisional\"" in page  # one game: provisional
    # The level of the XP earned: the game's, and a weekly quest's when the week's quests
    # include one that a single game completes (which depends on the date the test runs).
    xp = Progress.objects.get(user=alice).xp
    assert xp >= progress.WIN_XP // 2
    assert f"Level {progress.level_of(xp)}</span>" in page and "First game" in page and "Rated table" in page
    assert "Moderation history" not in page
    assert page.count('class="chart-line"') == 1


def test_a_private_game_is_listed_only_to_its_players(client, finished_game, alice, bob, charlie):
    game = finished_game([alice, bob], seed=1, is_private=True)
    services.game_result_record(game_id=game.pk)
    url = reverse("ratings:profile", args=["alice"])

    client.force_login(charlie)
    assert reverse("games:game", args=[game.pk]) not in client.get(url).content.decode()
    client.force_login(bob)
    assert reverse("games:game", args=[game.pk]) in client.get(url).content.decode()
    client.logout()
    assert reverse("games:game", args=[game.pk]) not in client.get(url).content.decode()


def test_a_moderator_sees_the_link_to_the_accounts_moderation_history(client, rated, alice, bob):
    client.force_login(make_moderator("mona"))
    page = client.get(reverse("ratings:profile", args=["alice"])).content.decode()
    assert reverse("moderation:account", args=[alice.pk]) in page
    assert reverse("admin:accounts_user_history", args=[alice.pk]) not in page


def test_staff_who_are_not_moderators_keep_the_admins_history_link(client, rated, alice, bob):
    bob.is_staff = True
    bob.save()
    client.force_login(bob)
    page = client.get(reverse("ratings:profile", args=["alice"])).content.decode()
    assert reverse("admin:accounts_user_history", args=[alice.pk]) in page
    assert reverse("moderation:account", args=[alice.pk]) not in page


# Blocks (issue 13): the owner's block hides the pages; the viewer's own block is shown, undoable.

def test_a_player_who_blocks_the_viewer_is_as_unknown_to_them_as_no_account(client, rated, alice, bob, charlie):
    block_services.block_create(user=alice, blocked=bob)
    client.force_login(bob)
    unknown = client.get(reverse("ratings:profile", args=["nobody"]))

    for url in (reverse("ratings:profile", args=["alice"]), reverse("ratings:history", args=["alice"])):
        response = client.get(url)
        assert response.status_code == 404
        assert _page(response) == _page(unknown).replace("nobody", "alice")
    # Others, visitors and the owner still see them; so does a moderator the owner blocks.
    mod = make_moderator("mona")
    block_services.block_create(user=alice, blocked=mod)
    for viewer in (charlie, None, alice, mod):
        client.logout() if viewer is None else client.force_login(viewer)
        assert client.get(reverse("ratings:profile", args=["alice"])).status_code == 200
        assert client.get(reverse("ratings:history", args=["alice"])).status_code == 200


def test_a_viewer_who_blocks_the_owner_sees_so_and_may_unblock(client, rated, alice, bob):
    block_services.block_create(user=bob, blocked=alice)
    client.force_login(bob)
    url = reverse("ratings:profile", args=["alice"])

    page = _text(client.get(url))
    assert "You have blocked this player" in page
    action = reverse("moderation:block", args=[alice.pk])
    assert re.search(rf'<form method="post" action="{action}"[^>]*> ?<input type="hidden" name="csrfmiddlewaretoken"',
                     page)
    assert 'name="unblock" value="1"' in page and ">Block</button>" not in page

    response = client.post(reverse("moderation:block", args=[alice.pk]), {"unblock": "1", "next": url}, follow=True)

    assert response.redirect_chain == [(url, 302)]
    assert not Block.objects.filter(blocker=bob, blocked=alice).exists()
    page = _text(response)
    assert "You have blocked this player" not in page and ">Block</button>" in page


def test_a_signed_in_viewer_may_block_from_the_profile_and_nobody_else_sees_the_button(client, rated, alice, bob):
    url = reverse("ratings:profile", args=["alice"])
    assert ">Block</button>" not in _text(client.get(url))  # a visitor
    client.force_login(alice)
    assert ">Block</button>" not in _text(client.get(url))  # her own profile
    client.force_login(bob)
    assert ">Block</button>" in _text(client.get(url))

    first = client.post(reverse("moderation:block", args=[alice.pk]), {"next": url})
    client.post(reverse("moderation:block", args=[alice.pk]), {"next": url})  # a double click

    assert first.url == url
    assert list(Block.objects.values_list("blocker", "blocked")) == [(bob.pk, alice.pk)]
    page = _text(client.get(url))
    assert "You have blocked this player" in page and ">Block</button>" not in page


def test_a_forged_block_changes_nothing(client, rated, alice, bob):
    client.force_login(bob)
    assert client.get(reverse("moderation:block", args=[alice.pk])).status_code == 405
    assert client.post(reverse("moderation:block", args=[999999])).status_code == 404
    client.post(reverse("moderation:block", args=[bob.pk]))  # himself
    client.logout()
    assert client.post(reverse("moderation:block", args=[alice.pk])).status_code == 302  # to sign in
    assert Block.objects.count() == 0


def test_an_unknown_or_closed_account_has_no_profile(client, alice):
    assert client.get(reverse("ratings:profile", args=["nobody"])).status_code == 404
    alice.is_active = False
    alice.save()
    assert client.get(reverse("ratings:profile", args=["alice"])).status_code == 404


def test_the_leaderboard_ranks_established_players_and_marks_provisional_ones(client, alice, bob, charlie):
    Rating.objects.create(user=alice, family="classic", mu=30, games=skill.PROVISIONAL_GAMES,
                          value=skill.display(30))
    Rating.objects.create(user=bob, family="classic", mu=27, games=skill.PROVISIONAL_GAMES + 3,
                          value=skill.display(27))
    Rating.objects.create(user=charlie, family="classic", mu=40, games=1, value=skill.display(40))
    page = _text(client.get(reverse("ratings:leaderboard", args=["classic"])))
    rows = re.findall(r"<tr[^>]*> <td class=\"num\">([^<]*)</td> <td><a [^>]*><bdi>([^<]*)</bdi></a>", page)
    assert rows == [("1", "Alice"), ("2", "Bob"), ("\u2013", "Charlie")]
    assert page.count('class="provisional"') == 1
    assert client.get(reverse("ratings:leaderboard", args=["world"])).status_code == 200
    assert client.get(reverse("ratings:leaderboard", args=["chess"])).status_code == 404


def test_the_host_opens_one_rematch_with_the_same_seats_and_invites(client, finished_game, alice, bob, charlie):
    game = finished_game([alice, bob, "strategy", charlie], seed=1)
    client.force_login(alice)
    url = reverse("ratings:rematch", args=[game.pk])

    first = client.post(url)
    second = client.post(url)  # a double click

    assert Rematch.objects.count() == 1
    table = Rematch.objects.get().table
    assert first.url == second.url == reverse("games:table", args=[table.pk])
    assert (table.preset, table.options, table.pace, table.seat_count) == ("classic", {}, Table.Pace.LIVE, 4)
    seats = list(table.seats.order_by("position").values_list("user_id", "bot"))
    assert seats == [(alice.pk, ""), (None, ""), (None, "strategy"), (None, "")]
    assert sorted(Invitation.objects.filter(table=table).values_list("email", flat=True)) == [
        "bob@example.com", "charlie@example.com"]
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:table", args=[table.pk]) in page


def test_only_the_host_may_open_a_rematch_and_only_by_post(client, finished_game, alice, bob):
    game = finished_game([alice, bob], seed=1)
    url = reverse("ratings:rematch", args=[game.pk])
    tables = Table.objects.count()

    client.force_login(bob)
    response = client.post(url, follow=True)
    assert "only the host may open a rematch" in response.content.decode()
    client.force_login(alice)
    assert client.get(url).status_code == 405
    game.status = game.Status.ACTIVE
    game.save(update_fields=["status"])
    assert "the game is not over yet" in client.post(url, follow=True).content.decode()
    assert Table.objects.count() == tables and not Rematch.objects.exists()
    client.logout()
    assert client.post(url).status_code == 302 and not Rematch.objects.exists()


@pytest.mark.parametrize(("language", "words"), [("es", ("Logros", "Resumen de la partida", "Revancha")),
                                                 ("ca", ("Assoliments", "Resum de la partida", "Revenja"))])
def test_the_pages_speak_the_players_language(client, rated, alice, language, words):
    alice.language = language
    alice.save()
    client.force_login(alice)
    profile = client.get(reverse("ratings:profile", args=["alice"])).content.decode()
    game = client.get(reverse("games:game", args=[rated.pk])).content.decode()
    assert words[0] in profile
    assert words[1] in game and words[2] in game


def test_the_header_leads_to_ones_own_profile_and_the_leaderboard(client, alice):
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("ratings:profile", args=["alice"])}" class="nav-user"' in page
    assert f'href="{reverse("ratings:leaderboards")}" class="nav-link nav-wide"' in page
    own = client.get(reverse("ratings:profile", args=["alice"])).content.decode()
    assert reverse("accounts:profile") in own and reverse("ratings:leaderboards") in own


def test_the_game_history_lists_every_game_newest_first_and_hides_private_ones(
        client, finished_game, alice, bob, charlie, monkeypatch):
    from ratings import views

    monkeypatch.setattr(views, "HISTORY_PAGE", 2)
    games = [finished_game([alice, bob], seed=s) for s in (1, 2, 3)]
    hidden = finished_game([alice, bob], seed=4, is_private=True)
    for g in [*games, hidden]:
        services.game_result_record(game_id=g.pk)
    url = reverse("ratings:history", args=["alice"])

    client.force_login(charlie)
    first = client.get(url).content.decode()
    second = client.get(url + "?page=2").content.decode()
    links = re.findall(r'href="/games/(\d+)/"', first + second)
    assert links == [str(g.pk) for g in reversed(games)]
    assert "Page 1 of 2" in first
    client.force_login(bob)
    assert f'href="/games/{hidden.pk}/"' in client.get(url).content.decode()
    assert client.get(url + "?family=classic").status_code == 200
    assert client.get(url + "?family=chess").status_code == 404
    assert client.get(reverse("ratings:history", args=["nobody"])).status_code == 404


@pytest.mark.parametrize(("language", "block", "blocked"), [
    ("es", ">Bloquear</button>", "Has bloqueado a este jugador"),
    ("ca", ">Bloquejar</button>", "Has bloquejat aquest jugador"),
])
def test_the_profiles_block_line_speaks_the_viewers_language(client, alice, bob, language, block, blocked):
    type(bob).objects.filter(pk=bob.pk).update(language=language)
    client.force_login(bob)
    url = reverse("ratings:profile", args=["alice"])
    assert block in _text(client.get(url))
    block_services.block_create(user=bob, blocked=alice)
    assert blocked in _text(client.get(url))


def _bob_gives_up(state):
    return {"type": "surrender", "player": 1} if state.round == 11 and state.current == 1 else None


def test_a_surrender_is_called_a_surrender_in_the_summary(client, finished_game, alice, bob):
    """Issue 26 item 33: one word for a surrender, not "forfeited" in the standings and "went
    bankrupt" under Bankruptcies."""
    game = finished_game([alice, bob], stop=_bob_gives_up, seed=1)
    services.game_result_record(game_id=game.pk)
    client.force_login(alice)
    page = _text(client.get(reverse("games:game", args=[game.pk])))
    bob_name = GameState.from_json(game.state).players[1].name
    assert "<td>surrendered</td>" in page and "forfeited" not in page
    assert f"{bob_name} surrendered (round 11)" in page
    assert "went bankrupt" not in page and "bankrupted" not in page


def test_a_surrender_is_called_a_surrender_on_the_card_the_replay_and_the_profile(client, finished_game, alice, bob):
    """Issue 26 item 33, its last places: the player's card on the game page and in the replay,
    and the results table of the profile, say "surrendered" (not "bankrupt", not "forfeited");
    a player who went bankrupt without surrendering is still "bankrupt"."""
    game = finished_game([alice, bob], stop=_bob_gives_up, seed=1)
    services.game_result_record(game_id=game.pk)
    client.force_login(alice)
    badges = re.findall(r'<span class="badge badge-out">([^<]*)</span>',
                        _text(client.get(reverse("games:game", args=[game.pk]))))
    assert badges == ["surrendered"]
    replay = _text(client.get(reverse("games:game_replay", args=[game.pk])))
    assert re.findall(r'<span class="badge badge-out">([^<]*)</span>', replay) == ["surrendered"]
    # The step's text isolates each name (<bdi>, item 30) as the game's log does.
    assert re.search(r'<p class="replay-action"><strong><bdi>[^<]+</bdi></strong>', replay)
    assert re.search(r'class="replay-turn">[^<]*<bdi>[^<]+</bdi>', replay)
    events = re.search(r'<ul class="replay-events">(.*?)</ul>', replay, re.S).group(1)
    assert "<bdi>" in events
    profile = _text(client.get(reverse("ratings:profile", args=["bob"])))
    assert "<td>surrendered</td>" in profile and "forfeited" not in profile


def test_a_bankruptcy_without_surrender_stays_bankrupt_on_the_card(client, finished_game, alice, bob):
    game = finished_game([alice, bob], seed=1)
    services.game_result_record(game_id=game.pk)
    assert not GameAction.objects.filter(game=game, action__type="surrender").exists()
    client.force_login(alice)
    badges = re.findall(r'<span class="badge badge-out">([^<]*)</span>',
                        _text(client.get(reverse("games:game", args=[game.pk]))))
    assert badges == ["bankrupt"]
