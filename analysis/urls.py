"""URLs of the analysis app (issue 30), under the "analysis" namespace."""

from django.urls import path

from analysis import views

app_name = "analysis"
urlpatterns = [
    path("games/<int:game_id>/analysis/", views.game_analysis, name="game"),
    path("games/<int:game_id>/play-on/", views.play_on, name="play_on"),
]
