"""URLs of the game page (views/play.py); included by games/urls.py under the "games" namespace."""

from django.urls import path

from games.views import play

urlpatterns = [
    path("games/<int:game_id>/", play.game, name="game"),
    path("games/<int:game_id>/act/", play.act, name="game_act"),
    path("games/<int:game_id>/poll/", play.poll, name="game_poll"),
    path("games/<int:game_id>/log/", play.log, name="game_log"),
    path("games/<int:game_id>/record.json", play.record, name="game_record"),
    path("games/<int:game_id>/replay/", play.replay, name="game_replay"),
    path("games/records/upload/", play.record_upload, name="record_upload"),
    path("games/records/replay/", play.record_replay, name="record_replay"),
]
