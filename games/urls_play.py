"""URLs of the game page (views/play.py), its record and replay (views/records.py); included by
games/urls.py under the "games" namespace."""

from django.urls import path

from games.views import agreement, aids, api, deeds, live, play, records, trade_meter, trade_preview

urlpatterns = [
    path("games/<int:game_id>/", play.game, name="game"),
    path("games/<int:game_id>/act/", play.act, name="game_act"),
    path("games/<int:game_id>/poll/", play.poll, name="game_poll"),
    path("games/<int:game_id>/events/", live.events, name="game_events"),
    path("games/<int:game_id>/log/", play.log, name="game_log"),
    # Correspondence aids (RULES.md 15): standing orders and vacation.
    path("games/<int:game_id>/standing/", aids.standing_orders, name="game_standing"),
    path("games/<int:game_id>/vacation/", aids.vacation_view, name="game_vacation"),
    path("games/<int:game_id>/pause/", aids.pause_view, name="game_pause"),
    path("games/<int:game_id>/back/", aids.seat_back, name="game_back"),
    path("games/<int:game_id>/end/", agreement.end_view, name="game_end"),  # RULES.md 16
    path("games/<int:game_id>/record.json", records.record, name="game_record"),
    path("games/<int:game_id>/replay/", records.replay, name="game_replay"),
    path("games/<int:game_id>/deeds/<int:square>/", deeds.deed, name="game_deed"),
    path("games/<int:game_id>/trade-preview/", trade_preview.trade_preview, name="game_trade_preview"),
    # Issue 30: the trade meter's part (the table option advisor).
    path("games/<int:game_id>/trade-meter/", trade_meter.trade_meter, name="game_trade_meter"),
    path("games/records/upload/", records.record_upload, name="record_upload"),
    path("games/records/replay/", records.record_replay, name="record_replay"),
    # For programs (the web benchmark): the viewer's legal actions.
    path("games/<int:game_id>/legal.json", api.legal, name="game_legal"),
]
