"""URLs of the game page (views/play.py), its record and replay (views/records.py); included by
games/urls.py under the "games" namespace."""

from django.urls import path

from games.views import api, play, records

urlpatterns = [
    path("games/<int:game_id>/", play.game, name="game"),
    path("games/<int:game_id>/act/", play.act, name="game_act"),
    path("games/<int:game_id>/poll/", play.poll, name="game_poll"),
    path("games/<int:game_id>/log/", play.log, name="game_log"),
    path("games/<int:game_id>/record.json", records.record, name="game_record"),
    path("games/<int:game_id>/replay/", records.replay, name="game_replay"),
    path("games/records/upload/", records.record_upload, name="record_upload"),
    path("games/records/replay/", records.record_replay, name="record_replay"),
    # For programs (bench/web.py): the viewer's legal actions; the benchmark's minimal endpoint.
    path("games/<int:game_id>/legal.json", api.legal, name="game_legal"),
    path("games/<int:game_id>/bench-lock/", api.bench_lock, name="game_bench_lock"),
]
