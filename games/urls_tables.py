"""Routes of the tables half: lobby at "/", tables, invitation links, "My games". The addresses
forms post to are wrapped in ``tables.form_address`` (opened by a person, they lead to the
form's page)."""

from django.urls import path

from games.views import table_clock, tables

urlpatterns = [
    path("", tables.lobby, name="lobby"),
    path("tables/new/", tables.table_new, name="table_new"),
    path("tables/create/", tables.form_address(tables.table_create), name="table_create"),
    path("tables/<int:table_id>/", tables.table_detail, name="table"),
    path("tables/<int:table_id>/join/", tables.form_address(tables.table_join), name="table_join"),
    path("tables/<int:table_id>/leave/", tables.form_address(tables.table_leave), name="table_leave"),
    path("tables/<int:table_id>/seat/", tables.form_address(tables.table_seat), name="table_seat"),
    path("tables/<int:table_id>/bot/", tables.form_address(tables.table_bot), name="table_bot"),
    path("tables/<int:table_id>/team/", tables.form_address(tables.table_team), name="table_team"),
    path("tables/<int:table_id>/invite/", tables.form_address(tables.table_invite_email), name="table_invite_email"),
    # RULES.md 16: the host changes the clock while the table is open (games/table_clock.py).
    path("tables/<int:table_id>/clock/", tables.form_address(table_clock.table_clock_view), name="table_clock"),
    path("tables/<int:table_id>/start/", tables.form_address(tables.table_start), name="table_start"),
    path("t/<str:code>/", tables.table_invite, name="invite"),
    path("me/games/", tables.my_games, name="my_games"),
    path("watch/", tables.watch, name="watch"),
]
