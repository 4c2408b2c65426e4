from django.urls import path

from chats import views

app_name = "chats"

urlpatterns = [
    path("tables/<int:table_id>/", views.channel_page, name="channel"),
    path("tables/<int:table_id>/connect/", views.channel_connect, name="connect"),
    path("tables/<int:table_id>/test/", views.channel_test, name="test"),
    path("tables/<int:table_id>/disconnect/", views.channel_disconnect, name="disconnect"),
    path("me/", views.identity, name="identity"),
]
