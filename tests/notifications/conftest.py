from tests.games.conftest import celery_eager, make_game, make_table  # noqa: F401
