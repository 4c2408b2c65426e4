from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("settings/", views.profile, name="profile"),
    path("settings/update/", views.profile_update, name="profile_update"),
    path("delete/", views.account_delete_confirm, name="delete_confirm"),
    path("delete/confirm/", views.account_delete, name="delete"),
    # Before allauth's own /accounts/sessions/ (config/urls.py includes this module first).
    path("sessions/", views.sessions, name="sessions"),
    path("data/", views.data_export, name="data"),
    path("data/request/", views.data_export_request, name="data_request"),
    path("data/download/<str:token>/", views.data_download, name="data_download"),
]
