"""Celery tasks of the analysis app: thin, they take ids and call a service. They run on the
``analysis`` queue (config/settings.py), which a worker of its own consumes (bin/run): a
whole-game analysis is minutes of CPU and never delays the deadline sweep."""

from __future__ import annotations

from celery import shared_task

from analysis import services


@shared_task(bind=True, ignore_result=True, max_retries=None)
def analyse_game(self, game_id: int) -> str:
    done = services.analysis_run(game_id=game_id)
    if done == "held":
        # Another run holds the game: it may have died (this may be its task, delivered again).
        # Look again once its claim would lapse; a live run will have finished or renewed it.
        wait = services.held_for(game_id=game_id)
        if wait is not None:
            raise self.retry(countdown=wait + 1)
    return done


@shared_task(ignore_result=True)
def analyses_catch_up() -> int:
    return services.analyses_catch_up()
