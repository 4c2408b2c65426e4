from django.urls import path

from reach import views

app_name = "reach"

urlpatterns = [
    path("settings/", views.settings_page, name="settings"),
    path("settings/calendar/", views.calendar_reset, name="calendar_reset"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="calendar"),
    path("next/", views.next_game, name="next"),
    path("games/<int:game_id>/nudge/", views.nudge, name="nudge"),
    path("games/<int:game_id>/notes/", views.note_save, name="note_save"),
    path("games/<int:game_id>/notes/reveal/", views.note_reveal, name="note_reveal"),
]
