"""Celery tasks of the ratings app: thin, they take ids and call a service.

``record_game_result`` is queued with ``transaction.on_commit`` when a game finishes
(games.services); running it twice records the game once (ratings.services). The periodic
``results_catch_up`` records any finished game whose task was lost.
"""

from __future__ import annotations

from celery import shared_task

from ratings import services


@shared_task(ignore_result=True)
def record_game_result(game_id: int) -> bool:
    return services.game_result_record(game_id=game_id) is not None


@shared_task(ignore_result=True)
def results_catch_up() -> int:
    return services.results_catch_up()
