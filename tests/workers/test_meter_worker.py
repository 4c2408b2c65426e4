"""The trade meter's task in a real Celery worker on Redis (issue 30, games/meter.py): the
request's commit queues it, the worker (threads, as bin/run runs it) fills the row with the
estimate at full size, and a second request for the same trade reads that row."""

from __future__ import annotations

import pytest

from games import meter, services
from games.engine import GameState
from games.models import Game, Table, TradeMeter
from tests.factories import UserFactory
from tests.games.play_helpers import cheapest_deed
from tests.workers.conftest import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_worker_computes_the_meter_once(celery_processes):
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    table = services.table_create(host=alice, name="Meter", preset="classic-short", pace=Table.Pace.LIVE,
                                  seat_count=2, advisor=True)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    state = GameState.from_json(game.state)
    me, other = state.current, 1 - state.current
    offer = meter.proposed_position(state, me=me, other=other, give={"squares": [cheapest_deed(state, me)]},
                                    take={"squares": [cheapest_deed(state, other)]})
    celery_processes.worker()
    row = meter.meter_request(game=Game.objects.get(pk=game.pk), seat=me, state=offer)  # (committed: queued)

    interim = []

    def done():
        row.refresh_from_db()
        if row.status == TradeMeter.Status.PENDING and row.result is not None:
            interim.append(row.result)  # the figures so far, written between batches
        return row.status != TradeMeter.Status.PENDING

    # (The timeout only bounds a hung test: the estimate takes seconds of one core.)
    wait_for(done, timeout=600, what="the worker to fill the meter", procs=celery_processes, every=0.5)
    assert row.status == TradeMeter.Status.DONE, celery_processes.logs()
    result = row.result
    # Whatever figures so far were seen came from fewer playouts, a whole number of batches, and
    # are of the same sides (how many were seen depends on the machine: the polls are 0.5 s apart).
    for seen in interim:
        assert seen["interim"] is True and seen["playouts"] % meter.METER_BATCH == 0
        assert seen["playouts"] < result["playouts"]
        assert [side["seats"] for side in seen["sides"]] == [[0], [1]]
    assert "interim" not in result
    assert [side["seats"] for side in result["sides"]] == [[0], [1]]
    # Stopped at the target on every difference, or at the most playouts a side.
    widest = max((side["delta"][2] - side["delta"][1]) / 2 for side in result["sides"])
    assert widest <= meter.METER_TARGET + 1e-9 or result["playouts"] == meter.METER_PLAYOUTS
    for side in result["sides"]:
        for p, low, high in (side["now"], side["after"]):
            assert 0 <= low <= p <= high <= 1
    # Two players' chances add up to one in each position (a game of two: one wins).
    assert sum(side["now"][0] for side in result["sides"]) == pytest.approx(1)
    again = meter.meter_request(game=Game.objects.get(pk=game.pk), seat=other, state=offer)
    assert again.pk == row.pk and TradeMeter.objects.count() == 1
