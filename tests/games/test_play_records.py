"""Game records: download a finished game, upload it again, step through it; bad uploads."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import services
from games.models import Game, GameAction
from tests.games.play_helpers import autoplay, start_game, users_by_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, charlie):
    """A three-player game played for a while, ended by two surrenders."""
    game = autoplay(start_game(alice, bob, charlie), 120)
    users = users_by_seat(game)
    for _ in range(2):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.waiting_seats[0]
        services.game_submit_action(game=game, user=users[seat], action={"type": "surrender"},
                                    expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def upload(client, content: bytes, name: str = "game.json"):
    return client.post(reverse("games:record_upload"), {"record": SimpleUploadedFile(name, content)})


def test_record_download_has_the_format_rules_seed_names_and_actions(client, finished):
    response = client.get(reverse("games:game_record", args=[finished.pk]))

    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    start = GameAction.objects.get(game=finished, seq=0).action
    assert record["format"] == "monopoly-record/1"
    assert record["rules"] == start["rules"] == {"preset": "classic", "options": {}}
    assert record["seed"] == finished.seed
    assert record["names"] == ["Alice", "Bob", "Charlie"]
    assert record["teams"] is None
    assert len(record["actions"]) == GameAction.objects.filter(game=finished).count() - 1
    assert all("type" in a and "player" in a for a in record["actions"])


def test_record_of_a_game_in_play_is_not_offered(client, alice, bob):
    # The record holds the seed, which would tell the dice to come.
    game = start_game(alice, bob)
    client.force_login(alice)

    assert client.get(reverse("games:game_record", args=[game.pk])).status_code == 404
    assert client.get(reverse("games:game_replay", args=[game.pk])).status_code == 404


def test_downloaded_record_uploaded_again_replays_to_the_final_state(client, finished):
    record = client.get(reverse("games:game_record", args=[finished.pk])).content

    response = upload(client, record)

    assert response.status_code == 302
    replay = client.get(response["Location"])
    assert replay.status_code == 200
    assert replay.context["step"] == replay.context["steps"] == len(json.loads(record)["actions"])
    assert replay.context["state"].to_json() == finished.state
    assert replay.context["decision"].startswith("Game over")


def test_replay_viewer_steps_through_a_finished_game(client, finished):
    url = reverse("games:game_replay", args=[finished.pk])

    first = client.get(url, {"step": 0})
    third = client.get(url, {"step": 3})
    last = client.get(url)
    beyond = client.get(url, {"step": 10**6})

    assert first.status_code == third.status_code == last.status_code == 200
    assert first.context["step"] == 0 and first.context["prev"] == 0
    assert "Rolling for the first turn" in first.content.decode()
    assert third.context["prev"] == 2 and third.context["next"] == 4
    assert third.context["state"].seq == 3
    assert last.context["state"].to_json() == finished.state
    assert beyond.context["step"] == last.context["steps"]
    html = third.content.decode()
    assert 'class="board board-classic"' in html
    assert reverse("games:game_act", args=[finished.pk]) not in html  # read-only
    assert f'href="{url}?step=2"' in html and f'href="{url}?step=4"' in html


def test_replay_fragment_for_htmx_navigation(client, finished):
    response = client.get(reverse("games:game_replay", args=[finished.pk]), {"step": 5}, HTTP_HX_REQUEST="true")

    assert response.content.decode().lstrip().startswith('<div id="replay"')


def test_finished_game_page_links_to_the_replay_and_the_record(client, finished):
    html = client.get(reverse("games:game", args=[finished.pk])).content.decode()

    assert reverse("games:game_replay", args=[finished.pk]) in html
    assert reverse("games:game_record", args=[finished.pk]) in html
    assert "hx-trigger" not in html  # nothing left to poll for


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe\x00", "not JSON"),
    (b"[1, 2, 3]", "A game record is a JSON object"),
    (json.dumps({"format": "chess-pgn"}).encode(), "Unknown record format"),
    (json.dumps({"format": "monopoly-record/1", "rules": {"preset": "classic"}, "seed": 1,
                 "names": ["a", "b"], "actions": "roll"}).encode(), "actions must be a list"),
    (json.dumps({"format": "monopoly-record/1", "rules": {"preset": "snakes-and-ladders"}, "seed": 1,
                 "names": ["a", "b"], "actions": []}).encode(), "rule set is not valid"),
    (json.dumps({"format": "monopoly-record/1", "rules": {"preset": "classic"}, "seed": 1,
                 "names": ["a"], "actions": []}).encode(), "cannot start this game"),
])
def test_bad_upload_shows_an_error_and_stores_nothing(client, content, message):
    response = upload(client, content)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert "uploaded_record" not in client.session


def test_upload_with_an_action_the_engine_refuses_names_it(client, finished):
    record = json.loads(client.get(reverse("games:game_record", args=[finished.pk])).content)
    # Whoever moves first cannot end the turn before rolling.
    first = record["actions"][0]["player"]
    record["actions"].insert(0, {"type": "end_turn", "player": first})

    response = upload(client, json.dumps(record).encode())

    assert response.status_code == 400
    html = response.content.decode()
    assert "Action 1 of the record (end_turn) is refused by the engine" in html
    assert "uploaded_record" not in client.session


def test_upload_without_a_file_asks_for_one(client):
    response = client.post(reverse("games:record_upload"), {})

    assert response.status_code == 400
    assert "Choose a game record file" in response.content.decode()


def test_uploaded_replay_without_a_record_sends_to_the_upload_form(client):
    response = client.get(reverse("games:record_replay"))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:record_upload")
