"""Routes of the tables half: lobby at "/", tables, invitation links, "My games"."""

from django.urls import path

from games.views import tables

urlpatterns = [
    path("", tables.lobby, name="lobby"),
    path("tables/new/", tables.table_new, name="table_new"),
    path("tables/create/", tables.table_create, name="table_create"),
    path("tables/<int:table_id>/", tables.table_detail, name="table"),
    path("tables/<int:table_id>/join/", tables.table_join, name="table_join"),
    path("tables/<int:table_id>/leave/", tables.table_leave, name="table_leave"),
    path("tables/<int:table_id>/seat/", tables.table_seat, name="table_seat"),
    path("tables/<int:table_id>/bot/", tables.table_bot, name="table_bot"),
    path("tables/<int:table_id>/team/", tables.table_team, name="table_team"),
    path("tables/<int:table_id>/invite/", tables.table_invite_email, name="table_invite_email"),
    path("tables/<int:table_id>/start/", tables.table_start, name="table_start"),
    path("t/<str:code>/", tables.table_invite, name="invite"),
    path("me/games/", tables.my_games, name="my_games"),
]
