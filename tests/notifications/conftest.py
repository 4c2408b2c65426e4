from tests.games.conftest import make_game, make_table  # noqa: F401
