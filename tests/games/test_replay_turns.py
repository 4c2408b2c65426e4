"""The replay steps by turn and by round, not only by action (issue 12): the record's turn
starts are found once, when it is prepared (records.checkpoints), kept on the Replay, and give
each step its "previous/next turn" and "previous/next round" controls and the slider's ticks.
Without JavaScript every control is a link or a GET form."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from games import records, services
from games.models import GameAction, Replay
from games.records import replay_nav
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game

APOS = "\N{RIGHT SINGLE QUOTATION MARK}"  # (the page's typographic apostrophe)

# Turns of a small game: [step, round, seat].
TURNS = [[0, 1, 0], [3, 1, 1], [5, 2, 0], [9, 2, 1], [12, 3, 0]]


@pytest.mark.parametrize(("step", "prev_turn", "next_turn", "prev_round", "next_round", "where"), [
    (0, 0, 3, 0, 5, (1, 0, 1)),
    (1, 0, 3, 0, 5, (1, 0, 1)),
    (3, 0, 5, 0, 5, (1, 1, 2)),  # at a turn's start "previous" goes to the turn before
    (4, 3, 5, 0, 5, (1, 1, 2)),  # inside a turn, to the turn's own start
    (5, 3, 9, 0, 12, (2, 0, 3)),
    (10, 9, 12, 5, 12, (2, 1, 4)),
    (12, 9, 15, 5, 15, (3, 0, 5)),
    (15, 12, 15, 12, 15, (3, 0, 5)),  # the last step: "next" stays there
])
def test_replay_nav_goes_to_the_start_of_turns_and_rounds(step, prev_turn, next_turn, prev_round, next_round,
                                                          where):
    nav = replay_nav(TURNS, step, 15)

    assert (nav.prev_turn, nav.next_turn, nav.prev_round, nav.next_round) == (
        prev_turn, next_turn, prev_round, next_round)
    assert (nav.round, nav.seat, nav.turn) == where
    assert nav.turns == 5
    assert nav.round_starts == [0, 5, 12]


@pytest.fixture
def finished(db, alice, bob, charlie):
    return end_by_surrenders(autoplay(start_game(alice, bob, charlie), 150))


@pytest.mark.django_db
def test_the_turn_starts_are_the_steps_whose_events_start_a_turn(finished):
    """What checkpoints finds from the positions agrees with the game's own log: each turn start
    after the first is a step whose events include the engine's "turn" event, and each such step
    starts a turn."""
    turns = services.replay_turns(replay=services.game_replay(game=finished))
    rows = GameAction.objects.filter(game=finished, seq__gt=0).order_by("seq")
    logged = [(row.seq, e["round"], e["p"]) for row in rows for e in row.events if e.get("e") == "turn"]

    assert turns[0][0] == 0
    assert len(turns) > 10
    assert [tuple(t) for t in turns[1:]] == logged


@pytest.mark.django_db
def test_the_replay_page_links_each_turn_and_round_and_marks_rounds_on_the_slider(client, finished):
    replay = services.game_replay(game=finished)
    turns = replay.turns
    base = reverse("games:game_replay", args=[finished.pk])
    second_round = next(t[0] for t in turns if t[1] == 2)

    html = unescape(client.get(base, {"step": 0}).content.decode())

    assert f'href="{base}?step={turns[1][0]}" ' in html and 'data-replay="next-turn"' in html
    assert re.search(rf'href="{re.escape(base)}\?step={second_round}"[^>]*data-replay="next-round"', html)
    first = finished.state["players"][turns[0][2]]["name"]
    assert f"Round 1 · <bdi>{first}</bdi>{APOS}s turn (1 of {len(turns)})" in html
    assert re.search(r'<input type="range" id="replay-step" name="step" min="0" max="\d+" value="0" '
                     r'list="replay-rounds"', html)
    assert f'<option value="{second_round}"></option>' in html
    # The form works without JavaScript: a GET of the step.
    assert f'<form method="get" action="{base}" class="replay-jump"' in html


@pytest.mark.django_db
def test_following_next_turn_shows_the_start_of_that_turn(client, finished):
    replay = services.game_replay(game=finished)
    base = reverse("games:game_replay", args=[finished.pk])
    step, rnd, seat = replay.turns[4]
    names = [p["name"] for p in finished.state["players"]]

    html = unescape(client.get(base, {"step": replay.turns[3][0] + 1}).content.decode())
    link = re.search(r'href="([^"]+)"[^>]*data-replay="next-turn"', html).group(1)
    landed = unescape(client.get(link).content.decode())

    assert link == f"{base}?step={step}"
    assert f"Move {step} of {replay.steps}" in landed
    assert f"Round {rnd}: <bdi>{names[seat]}</bdi>'s turn." in landed  # the log line of the turn's start
    assert f"Round {rnd} · <bdi>{names[seat]}</bdi>{APOS}s turn (5 of {len(replay.turns)})" in landed


@pytest.mark.django_db
def test_a_replay_prepared_before_turns_were_kept_gets_them_once(finished, django_assert_num_queries):
    replay = services.game_replay(game=finished)
    expected = replay.turns
    Replay.objects.filter(pk=replay.pk).update(turns=None)
    replay.refresh_from_db()

    assert services.replay_turns(replay=replay) == expected
    replay.refresh_from_db()
    assert replay.turns == expected
    with django_assert_num_queries(0):
        assert services.replay_turns(replay=replay) == expected


@pytest.mark.django_db
def test_an_uploaded_record_steps_by_turn_too(client, alice, finished):
    record = records.game_record(finished)
    services.replay_upload(owner=alice, record=record)
    client.force_login(alice)

    html = client.get(reverse("games:record_replay"), {"step": 0}).content.decode()

    assert 'data-replay="next-turn"' in html
    assert Replay.objects.get(owner=alice).turns == services.game_replay(game=finished).turns


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words", "preset"), [
    ("es", "Ronda 1 · turno de", "Clásico"), ("ca", "Ronda 1 · torn de", "Clàssic")])
def test_the_turn_controls_and_header_speak_the_readers_language(client, finished, language, words, preset):
    html = unescape(client.get(reverse("games:game_replay", args=[finished.pk]), {"step": 0},
                               HTTP_ACCEPT_LANGUAGE=language).content.decode())

    assert words in html
    assert "Turns and rounds" not in html
    # The header names the rules as the site does, not by the preset's key.
    start = html.index('<header class="game-header">')
    header = html[start:html.index("</header>", start)]
    assert preset in header and "classic" not in header.lower().replace(preset.lower(), "")
