"""URLs of the games app; each half lives beside its views (urls_tables.py, urls_play.py)."""

from games import urls_play, urls_tables

app_name = "games"
urlpatterns = [*urls_tables.urlpatterns, *urls_play.urlpatterns]
