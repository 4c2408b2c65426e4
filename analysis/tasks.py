"""Celery tasks of the analysis app: thin, they take ids and call a service. They run on the
``analysis`` queue (config/settings.py), which a worker of its own consumes (bin/run): a
whole-game analysis is minutes of CPU and never delays the deadline sweep."""

from __future__ import annotations

from celery import shared_task

from analysis import services


@shared_task(ignore_result=True)
def analyse_game(game_id: int) -> str:
    return services.analysis_run(game_id=game_id)


@shared_task(ignore_result=True)
def analyses_catch_up() -> int:
    return services.analyses_catch_up()
