"""A real Celery worker on the analysis queue (issue 30): a game that ends in this process queues
its analysis, which only the analysis worker takes (the deadline sweep's worker never does);
SIGKILLed mid-analysis, the task comes back and the next worker resumes after the rounds stored."""

from __future__ import annotations

import pytest

from analysis.models import GameAnalysis
from games.models import Game
from tests.analysis.conftest import finish
from tests.workers.conftest import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _analyser(procs, name: str):
    return procs._start(["worker", "-Q", "analysis", "--pool=solo", "--loglevel=info", "--without-gossip",
                         "--without-mingle", f"--hostname={name}@%h"], name)


def _row(game: Game) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game).first()


def test_the_analysis_worker_computes_it_and_a_killed_one_is_resumed(celery_processes, alice, bob):
    procs = celery_processes
    # Enough playouts that a round takes a moment (the kill must land midway), a short claim.
    procs.env.update(ANALYSIS_MAX_PLAYOUTS="40", ANALYSIS_LEASE_SECONDS="3", ANALYSIS_SWING_PLAYOUTS="8")
    procs.worker()  # the deadline sweep's worker: it must leave the analysis alone
    game = finish(alice, bob, actions=160)
    first = _analyser(procs, "analysis-1")
    wait_for(lambda: (row := _row(game)) is not None and row.rounds_done >= 2, timeout=120,
             what="the first rounds of the analysis", procs=procs)
    row = _row(game)
    assert row.status == GameAnalysis.Status.RUNNING and row.runs == 1
    procs.kill(first)
    stored = _row(game).rounds_done
    assert stored < row.rounds_total, "the analysis finished before the kill: make rounds dearer"
    _analyser(procs, "analysis-2")
    wait_for(lambda: _row(game).status == GameAnalysis.Status.DONE, timeout=300,
             what="the resumed analysis", procs=procs)
    done = _row(game)
    assert done.runs == 2 and done.rounds_done == done.rounds_total
    assert [p["round"] for p in done.points if not p.get("end")] == list(range(1, done.rounds_total + 1))
    assert done.points[-1]["end"] and len(done.luck) == 2
