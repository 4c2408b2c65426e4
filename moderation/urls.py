"""Routes of moderation: the moderators' pages under /moderation/, the players' report and block
pages, and a game's chat beside the game page."""

from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [
    path("moderation/", views.queue, name="queue"),
    path("moderation/reports/<int:report_id>/", views.report_detail, name="report"),
    path("moderation/reports/<int:report_id>/claim/", views.report_claim, name="report_claim"),
    path("moderation/reports/<int:report_id>/resolve/", views.report_resolve, name="report_resolve"),
    path("moderation/users/<int:user_id>/", views.account, name="account"),
    path("moderation/users/<int:user_id>/act/", views.account_act, name="account_act"),
    path("moderation/games/<int:game_id>/act/", views.game_act, name="game_act"),
    path("moderation/messages/<int:message_id>/hide/", views.message_hide, name="message_hide"),
    path("moderation/log/", views.audit_log, name="log"),
    path("report/", views.report_new, name="report_new"),
    path("me/blocks/", views.blocks, name="blocks"),
    path("me/blocks/<int:user_id>/", views.block, name="block"),
    path("me/standing/", views.standing, name="standing"),
    path("account-suspended/", views.suspended, name="suspended"),
    path("games/<int:game_id>/chat/", views.chat, name="chat"),
    path("games/<int:game_id>/chat/post/", views.chat_post, name="chat_post"),
    path("games/<int:game_id>/chat/settings/", views.chat_settings, name="chat_settings"),
]
