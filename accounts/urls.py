from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("settings/", views.profile, name="profile"),
    path("settings/update/", views.profile_update, name="profile_update"),
    path("delete/", views.account_delete_confirm, name="delete_confirm"),
    path("delete/confirm/", views.account_delete, name="delete"),
]
