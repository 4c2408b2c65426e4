from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("bell/", views.badge, name="badge"),
    path("read/", views.read_all, name="read_all"),
    path("<int:notification_id>/open/", views.open_one, name="open"),
    path("settings/", views.preferences, name="preferences"),
    path("settings/reconfirm/", views.reconfirm, name="reconfirm"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
