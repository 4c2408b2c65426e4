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
    path("push/sw.js", views.service_worker, name="service_worker"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
]
