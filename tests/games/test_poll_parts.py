"""The poll's cheap answer (issue 12, "updates pushed, not polled"): a page that hears of a new
version asks for the game with the marks of what it shows and gets only the parts that differ,
drawn as a move's answer is (games/views/page/parts.py), however far behind it is. Applied to
the page as htmx applies it (tests/games/parts_helpers.py), the answer leaves the page as a
fresh render of the game."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services, sql
from games.engine import GameState
from games.models import Game
from tests.games.parts_helpers import (
    apply_parts,
    canonical,
    differences,
    game_of,
    marks_of,
    parse,
    parts_headers,
    select,
)
from tests.games.play_helpers import autoplay, choose, next_move, start_game, users_by_seat
from tests.games.test_bot_tasks import Queue, _bot_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _page(client, game: Game) -> str:
    """The #game fragment a page shows (what the poll and the moves swap)."""
    response = client.get(reverse("games:game", args=[game.pk]), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def _poll(client, game: Game, shown: int, **headers):
    return client.get(reverse("games:game_poll", args=[game.pk]), {"v": shown}, **headers)


def _play(game: Game, moves: int, capture) -> Game:
    """``moves`` moves of the simple player through the service, each committed (its callbacks
    run: the position is kept, as after a real commit)."""
    for _ in range(moves):
        with capture(execute=True):
            game = autoplay(game, 1)
    return game


def _assert_parts_make_the_fresh_page(client, game: Game, page: str, answer) -> None:
    html = answer.content.decode()
    assert answer.status_code == 200
    assert answer["HX-Reswap"] == "none" and 'id="game"' not in html, html[:300]
    game.refresh_from_db()
    moved = json.loads(answer["HX-Trigger"])["game:moved"]
    fresh_page = _page(client, game)
    assert moved == {"version": game.version, "marks": marks_of(fresh_page)}
    applied = game_of(apply_parts(page, html))
    fresh = game_of(parse(fresh_page))
    assert canonical(applied) == canonical(fresh), differences(canonical(applied), canonical(fresh))
    # The decision's forms quote the new version (the slots' may lag: game.js posts the page's).
    quoted = {i.attrs["value"] for i in select(applied, "#game .centre input")
              if i.attrs.get("name") == "version"}
    assert quoted <= {str(game.version)}


def test_a_poll_after_one_move_answers_with_the_parts_that_make_the_fresh_page(
        client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    mover, _move = next_move(game)
    watcher = users_by_seat(game)[1 - mover]
    client.force_login(watcher)
    page, shown = _page(client, game), game.version

    game = _play(game, 1, django_capture_on_commit_callbacks)
    answer = _poll(client, game, shown, **parts_headers(page))

    _assert_parts_make_the_fresh_page(client, game, page, answer)
    full = _poll(client, game, shown, **HTMX)
    assert full.content.decode().lstrip().startswith('<div id="game"')
    assert len(answer.content) * 3 < len(full.content)


def test_a_page_several_moves_behind_gets_every_change_since_its_version(
        client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    client.force_login(alice)
    page, shown = _page(client, game), game.version

    game = _play(game, 7, django_capture_on_commit_callbacks)
    assert game.version >= shown + 7
    answer = _poll(client, game, shown, **parts_headers(page))

    _assert_parts_make_the_fresh_page(client, game, page, answer)


def test_a_page_behind_reads_only_the_log_entries_it_lacks(client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    client.force_login(alice)
    page, shown, seen = _page(client, game), game.version, game.state["seq"]

    game = _play(game, 3, django_capture_on_commit_callbacks)
    with mock.patch.object(sql, "log_rows", wraps=sql.log_rows) as read:
        answer = _poll(client, game, shown, **parts_headers(page))

    game.refresh_from_db()
    # One read, of the entries after the page's newest: not the log's first page.
    assert [c.kwargs["limit"] for c in read.call_args_list] == [game.state["seq"] - seen]
    _assert_parts_make_the_fresh_page(client, game, page, answer)


def test_a_page_far_behind_gets_the_log_redrawn_whole(client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    client.force_login(alice)
    page, shown = _page(client, game), game.version

    game = _play(game, 30, django_capture_on_commit_callbacks)
    answer = _poll(client, game, shown, **parts_headers(page))

    assert '<ol id="log-list" hx-swap-oob="innerHTML">' in answer.content.decode()
    _assert_parts_make_the_fresh_page(client, game, page, answer)


def test_a_page_behind_the_moves_of_a_person_and_of_bots_in_their_tasks(
        client, alice, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.BOT_DELAY_SECONDS = 1  # each bot action a version of its own, by its task
    queue = Queue(monkeypatch)
    game = _bot_game(alice, bots=2, capture=django_capture_on_commit_callbacks)
    client.force_login(alice)
    while 0 not in game.waiting_seats:
        queue.run_next(django_capture_on_commit_callbacks)
        game.refresh_from_db()
    page, shown = _page(client, game), game.version

    # Alice plays to the end of her turn, then the bots play theirs, one version an action.
    bot_versions = 0
    for _ in range(60):
        game.refresh_from_db()
        if 0 in game.waiting_seats and game.version > shown + bot_versions + 1 and bot_versions >= 3:
            break
        if 0 in game.waiting_seats:
            move = choose(GameState.from_json(game.state), 0)
            with django_capture_on_commit_callbacks(execute=True):
                services.game_submit_action(game=game, user=alice, action=move, expected_version=game.version)
        else:
            queue.run_next(django_capture_on_commit_callbacks)
            bot_versions += 1
    assert bot_versions >= 3 and 0 in game.waiting_seats
    answer = _poll(client, game, shown, **parts_headers(page))

    html = answer.content.decode()
    assert html.count('class="log-entry') >= bot_versions
    _assert_parts_make_the_fresh_page(client, game, page, answer)
    # Her turn again: her choices are on the page.
    assert select(apply_parts(page, html), "#game .centre .choices button")


def test_a_spectators_poll_gets_the_parts(client, alice, bob, charlie, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    for viewer in (None, charlie):  # anonymous, then signed in without a seat
        if viewer is not None:
            client.force_login(viewer)
        page, shown = _page(client, game), game.version
        game = _play(game, 3, django_capture_on_commit_callbacks)
        answer = _poll(client, game, shown, **parts_headers(page))

        _assert_parts_make_the_fresh_page(client, game, page, answer)
        assert not select(apply_parts(page, answer.content.decode()), "#game .centre .choices button")


def test_the_player_now_to_move_gets_their_choices(client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    first = game.waiting_seats[0]
    other = users_by_seat(game)[1 - first]
    client.force_login(other)
    page, shown = _page(client, game), game.version
    assert not select(parse(page), "#game .centre .choices button")

    # The first player plays until the game waits on the other one.
    for _ in range(30):
        game = _play(game, 1, django_capture_on_commit_callbacks)
        if 1 - first in game.waiting_seats:
            break
    assert 1 - first in game.waiting_seats
    answer = _poll(client, game, shown, **parts_headers(page))

    _assert_parts_make_the_fresh_page(client, game, page, answer)
    assert select(apply_parts(page, answer.content.decode()), "#game .centre .choices button")


def test_the_movers_page_on_another_device_gets_the_parts(client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    mover, _move = next_move(game)
    user = users_by_seat(game)[mover]
    client.force_login(user)
    page, shown = _page(client, game), game.version

    # The mover plays on from another page (their moves through the service), buying what they land on.
    for _ in range(4):
        seat, move = next_move(game)
        if seat != mover:
            break
        with django_capture_on_commit_callbacks(execute=True):
            services.game_submit_action(game=game, user=user, action=move, expected_version=game.version)
        game.refresh_from_db()
    assert game.version > shown
    answer = _poll(client, game, shown, **parts_headers(page))

    _assert_parts_make_the_fresh_page(client, game, page, answer)


def test_a_page_without_readable_marks_gets_the_whole_fragment(
        client, alice, bob, django_capture_on_commit_callbacks):
    """A page from before the marks ("1"), and marks that are malformed, cut short or too long:
    the whole fragment, never an error."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    client.force_login(alice)
    page, shown = _page(client, game), game.version
    game = _play(game, 2, django_capture_on_commit_callbacks)
    assert _poll(client, game, shown, **parts_headers(page))["HX-Reswap"] == "none"

    marks = marks_of(page)
    for sent, v in (("1", shown), ("", shown), ("s1.zz " + marks, shown), (marks.rsplit(" ", 3)[0], shown),
                    (marks + " x.1" * 600, shown), ("s1." + "a" * 9, shown), (marks + " ", shown),
                    (" " + marks, shown), (marks.replace(" ", "  ", 1), shown), (marks.replace(".", "..", 1), shown)):
        answer = _poll(client, game, v, HTTP_HX_REQUEST="true", HTTP_X_GAME_PARTS=sent)
        assert answer.status_code == 200
        html = answer.content.decode()
        assert html.lstrip().startswith('<div id="game"') and "hx-swap-oob" not in html, sent[:40]
        assert "HX-Reswap" not in answer
    # The version only says whether anything is new (204): marks that read get the parts.
    _assert_parts_make_the_fresh_page(client, game, page, _poll(client, game, "12a", **parts_headers(page)))


def test_nothing_is_kept_of_past_positions(client, alice, bob):
    """The page's marks are the position it shows: moves whose commit never ran anything (the
    test's transaction never commits) still give the parts."""
    game = start_game(alice, bob)
    client.force_login(alice)
    page, shown = _page(client, game), game.version
    game = autoplay(game, 3)

    answer = _poll(client, game, shown, **parts_headers(page))

    _assert_parts_make_the_fresh_page(client, game, page, answer)


def test_a_change_outside_the_parts_gets_the_whole_fragment(client, alice, bob, django_capture_on_commit_callbacks):
    """A vacation bumps the version and shows outside the parts (the aids panel): a page from
    before it gets the whole fragment, even once moves follow; a page from after it, the parts."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, pace="correspondence")
    client.force_login(alice)
    before_move, shown = _page(client, game), game.version
    game = _play(game, 1, django_capture_on_commit_callbacks)
    after_move = _page(client, game)
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("games:game_vacation", args=[game.pk]),
                               {"days": 1, "version": game.version}, **HTMX)
    assert response.status_code == 200, response.content.decode()[:300]
    client.force_login(alice)
    after_vacation, vacation_version = _page(client, game), game.version + 1
    game = _play(game, 1, django_capture_on_commit_callbacks)
    assert game.version == vacation_version + 1

    for page, v in ((before_move, shown), (after_move, shown + 1)):
        html = _poll(client, game, v, **parts_headers(page)).content.decode()
        assert html.lstrip().startswith('<div id="game"'), v
    answer = _poll(client, game, vacation_version, **parts_headers(after_vacation))
    _assert_parts_make_the_fresh_page(client, game, after_vacation, answer)


def test_a_game_over_since_the_page_gets_the_whole_fragment(client, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    client.force_login(alice)
    page, shown = _page(client, game), game.version
    seat = game.waiting_seats[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users_by_seat(game)[seat], action={"type": "surrender"},
                                    expected_version=game.version)

    html = _poll(client, game, shown, **parts_headers(page)).content.decode()

    assert 'id="game"' in html and "game-over-banner" in html and "hx-swap-oob" not in html


def test_the_parts_answer_reads_less_than_the_whole_fragment(client, alice, bob, charlie,
                                                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, charlie)
    game = _play(game, 40, django_capture_on_commit_callbacks)
    client.force_login(alice)
    page, shown = _page(client, game), game.version
    game = _play(game, 3, django_capture_on_commit_callbacks)

    with CaptureQueriesContext(connection) as cheap:
        answer = _poll(client, game, shown, **parts_headers(page))
    assert answer["HX-Reswap"] == "none"
    with CaptureQueriesContext(connection) as full:
        whole = _poll(client, game, shown, **HTMX)
    assert 'id="game"' in whole.content.decode()

    print(f"poll after 3 moves: parts {len(cheap)} queries, {len(answer.content)} bytes; "
          f"whole fragment {len(full)} queries, {len(whole.content)} bytes")
    assert len(cheap) < len(full)
    # The version, the game with its seats, and the log's first page (user and session aside).
    assert len(cheap) <= 8, [q["sql"][:120] for q in cheap.captured_queries]
