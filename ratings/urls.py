from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("players/<str:username>/games/", views.history, name="history"),
    path("ratings/", views.leaderboard, name="leaderboards"),
    path("ratings/<str:family>/", views.leaderboard, name="leaderboard"),
    path("games/<int:game_id>/rematch/", views.rematch, name="rematch"),
]
