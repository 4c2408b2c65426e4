"""The analysis of a finished game on the site (issue 30): queued where games end, computed once
(a second task does nothing, a run that died resumes), shown on its page with the chart, its
table, the turning points and the luck; never while the game is on."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from analysis import estimate, services, tasks
from analysis.models import GameAnalysis
from games.engine import GameState
from games.models import Game
from tests.analysis.conftest import finish
from tests.games.play_helpers import autoplay, start_game

pytestmark = pytest.mark.django_db


def _counting():
    calls = []
    real = estimate.chances

    def counted(state, **kwargs):
        calls.append(state.round)
        return real(state, **kwargs)

    return calls, mock.patch.object(estimate, "chances", counted)


def test_a_game_that_ends_queues_its_analysis_on_its_own_queue(alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    autoplay(game, 40)
    with mock.patch("analysis.tasks.analyse_game.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        finish_game = Game.objects.get(pk=game.pk)
        from tests.games.play_helpers import end_by_surrenders
        end_by_surrenders(finish_game, surrenders=2)
    delay.assert_called_once_with(game.pk)
    from django.conf import settings
    assert settings.CELERY_TASK_ROUTES["analysis.tasks.analyse_game"] == {"queue": "analysis"}
    # (The deadline sweep's workers consume only the queues listed: never this one.)
    assert "analysis" not in {q.name for q in settings.CELERY_TASK_QUEUES}


def test_the_analysis_is_computed_once_and_the_page_shows_it(client, finished, alice, charlie):
    calls, counting = _counting()
    with counting:
        assert services.analysis_run(game_id=finished.pk) == "done"
    row = GameAnalysis.objects.get(game=finished)
    rounds = row.rounds_total
    assert rounds == finished.round or rounds == finished.round - 1 or rounds > 1
    assert len(calls) == rounds and row.rounds_done == rounds
    assert row.points[-1]["end"] and row.points[-1]["p"][finished.winner_seat] == 1.0
    assert all(abs(sum(p["p"]) - 1) < 1e-6 for p in row.points)
    assert 1 <= len(row.turning) <= 3 and len(row.luck) == 2 and row.runs == 1
    before = (row.points, row.turning, row.luck)

    # A second task for the same game does no work and writes nothing.
    with counting:
        assert services.analysis_run(game_id=finished.pk) == "busy"
    row.refresh_from_db()
    assert len(calls) == rounds and (row.points, row.turning, row.luck) == before and row.runs == 1
    assert GameAnalysis.objects.filter(game=finished).count() == 1

    # Anyone who may see the game sees its analysis: a spectator of this public table too.
    client.force_login(charlie)
    page = client.get(reverse("analysis:game", args=[finished.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and 'role="img"' in html and "<table" in html
    # The ratings' chart partial draws it, with the legend and the caption (no template text leaks).
    assert 'class="chart analysis-chart"' in html and "Horizontal: rounds" in html and "{#" not in html
    assert "<bdi>Alice</bdi>" in html and "<bdi>Bob</bdi>" in html
    assert html.count('class="turning-swing"') == len(row.turning)
    assert "Move #" in html and "?step=" in html
    assert html.count('class="turning-alone"') == sum(t["swing"] is not None for t in row.turning)
    assert ("Rent paid" in html and "(lucky)" in html) or "(unlucky)" in html
    # Linked from the game-over summary and from the replay.
    url = reverse("analysis:game", args=[finished.pk])
    assert url in client.get(reverse("games:game", args=[finished.pk])).content.decode()
    assert url in client.get(reverse("games:game_replay", args=[finished.pk])).content.decode()


@pytest.mark.parametrize(("language", "gain", "loss"), [
    ("en", "changed <bdi>{name}</bdi>'s chance by +19 points", "by \u22121 point ("),
    ("es", "cambió la probabilidad de <bdi>{name}</bdi> en +19 puntos", "en \u22121 punto ("),
])
def test_a_turning_points_measured_swing_is_said_in_points(client, finished, alice, language, gain, loss):
    assert services.analysis_run(game_id=finished.pk) == "done"
    row = GameAnalysis.objects.get(game=finished)
    turning = [t for t in row.turning if t["step"]]
    assert turning, "no turning point names an action"
    turning[0]["swing"] = 0.187
    row.turning = [turning[0], {**turning[0], "swing": -0.0149}, {**turning[0], "swing": None}]
    row.save(update_fields=["turning"])
    names = [p.name for p in GameState.from_json(finished.state).players]
    type(alice).objects.filter(pk=alice.pk).update(language=language)  # (the account's language)
    client.force_login(alice)
    html = client.get(reverse("analysis:game", args=[finished.pk])).content.decode()
    assert html.count('class="turning-alone"') == 2  # (the third was not measured: nothing said)
    assert gain.format(name=names[turning[0]["side"]]) in html and loss in html


def test_the_page_shows_the_progress_while_the_analysis_runs(client, finished, alice):
    points = [{"round": r, "step": r, "p": [.5, .5], "low": [.4, .4], "high": [.6, .6], "playouts": 6}
              for r in range(1, 24)]
    GameAnalysis.objects.create(game=finished, status=GameAnalysis.Status.RUNNING, rounds_total=60,
                                points=points, claimed_until=timezone.now() + timedelta(seconds=60), runs=1)
    client.force_login(alice)
    html = client.get(reverse("analysis:game", args=[finished.pk])).content.decode()
    assert "Analysing: round 23 of 60" in html and 'hx-trigger="every 2s"' in html and "analysis-chart" not in html
    fragment = client.get(reverse("analysis:game", args=[finished.pk]), HTTP_HX_REQUEST="true")
    assert fragment.content.decode().lstrip().startswith("<div id=\"analysis\"")


def test_a_run_that_died_midway_resumes_after_the_rounds_it_stored(finished):
    assert services.analysis_run(game_id=finished.pk) == "done"
    whole = GameAnalysis.objects.get(game=finished)
    # As a worker killed at round 5 leaves it: five rounds stored, its claim lapsed.
    GameAnalysis.objects.filter(pk=whole.pk).update(
        status=GameAnalysis.Status.RUNNING, points=whole.points[:5], turning=[], luck=[],
        claimed_until=timezone.now() - timedelta(seconds=1))
    calls, counting = _counting()
    with counting:
        assert services.analysis_run(game_id=finished.pk) == "done"
    again = GameAnalysis.objects.get(pk=whole.pk)
    assert calls == [p["round"] for p in whole.points[5:-1]]
    # The analysis's seeds are its own and fixed: the resumed one is the same analysis.
    assert (again.points, again.turning, again.luck) == (whole.points, whole.turning, whole.luck)
    assert again.runs == 2


def test_a_claim_still_held_is_left_to_its_run_and_the_task_looks_again_when_it_lapses(finished):
    GameAnalysis.objects.create(game=finished, status=GameAnalysis.Status.RUNNING,
                                claimed_until=timezone.now() + timedelta(seconds=60), claim="other", runs=1)
    calls, counting = _counting()
    with counting:
        assert services.analysis_run(game_id=finished.pk) == "held"
    assert calls == [] and GameAnalysis.objects.get(game=finished).claim == "other"
    # The task (perhaps the dead run's own, delivered again) comes back once the claim lapses.
    with mock.patch.object(tasks.analyse_game, "retry", side_effect=RuntimeError("retry")) as retry, \
            pytest.raises(RuntimeError):
        tasks.analyse_game.run(finished.pk)
    assert 59 < retry.call_args.kwargs["countdown"] <= 61
    GameAnalysis.objects.filter(game=finished).update(claimed_until=timezone.now() - timedelta(seconds=1))
    assert tasks.analyse_game.run(finished.pk) == "done"


def test_a_run_whose_claim_was_taken_over_stops_writing(finished):
    real = estimate.chances

    def steal(state, **kwargs):
        GameAnalysis.objects.filter(game=finished).update(claim="another run")
        return real(state, **kwargs)

    with mock.patch.object(estimate, "chances", steal):
        assert services.analysis_run(game_id=finished.pk) == "lost"
    assert GameAnalysis.objects.get(game=finished).points == []


def test_the_catch_up_queues_games_without_an_analysis_once(finished, django_capture_on_commit_callbacks):
    with mock.patch("analysis.tasks.analyse_game.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        assert services.analyses_catch_up() == 1
    delay.assert_called_once_with(finished.pk)
    services.analysis_run(game_id=finished.pk)
    with mock.patch("analysis.tasks.analyse_game.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        assert services.analyses_catch_up() == 0
    delay.assert_not_called()


def _chance_words(html: str) -> list[str]:
    return [w for w in ("Win chances", "win chances", "Analysing", "turning points", "/analysis/") if w in html]


@pytest.mark.parametrize("who", ["spectator", "player", "visitor"])
def test_nobody_sees_win_chances_while_the_game_is_on(client, alice, bob, charlie, who):
    game = start_game(alice, bob)
    autoplay(game, 30)
    # Even a row made by hand (or by a forged task) for a game in play stays unseen.
    GameAnalysis.objects.create(game=game, status=GameAnalysis.Status.DONE, rounds_total=1,
                                points=[{"round": 1, "step": 0, "p": [.7, .3], "low": [.6, .2], "high": [.8, .4]}])
    if who != "visitor":
        client.force_login({"spectator": charlie, "player": bob}[who])
    url = reverse("analysis:game", args=[game.pk])
    assert client.get(url).status_code == 404
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 404
    for page in (reverse("games:game", args=[game.pk]), reverse("games:game_poll", args=[game.pk]) + "?v=0",
                 reverse("games:game_log", args=[game.pk])):
        answer = client.get(page)
        assert answer.status_code in (200, 204), page
        html = answer.content.decode()
        assert _chance_words(html) == [] and "70%" not in html, page
    # And no task computes one for a game in play.
    assert services.analysis_run(game_id=game.pk) == "busy"
    assert services.analysis_request(game_id=game.pk) is False


def test_an_aborted_game_or_someone_elses_private_game_has_no_analysis_page(client, alice, bob, charlie):
    game = finish(alice, bob, private=True, actions=20)
    client.force_login(charlie)
    assert client.get(reverse("analysis:game", args=[game.pk])).status_code == 404
    client.force_login(bob)
    assert client.get(reverse("analysis:game", args=[game.pk])).status_code == 200
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    assert client.get(reverse("analysis:game", args=[game.pk])).status_code == 404


def test_a_game_finished_before_analyses_is_queued_by_its_page_once(client, finished, alice,
                                                                    django_capture_on_commit_callbacks):
    client.force_login(alice)
    url = reverse("analysis:game", args=[finished.pk])
    with mock.patch("analysis.tasks.analyse_game.delay") as delay, \
            django_capture_on_commit_callbacks(execute=True):
        assert "waiting for its turn" in client.get(url).content.decode()
        # The page's poll (and reloads) find the row: nothing more is queued.
        client.get(url, HTTP_HX_REQUEST="true")
        client.get(url)
    delay.assert_called_once_with(finished.pk)
    assert GameAnalysis.objects.get(game=finished).status == GameAnalysis.Status.PENDING
