from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

# The admin signs people in through allauth's form, which asks for the second factor (issue 31);
# its own password-only form would skip it.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    # Our own account pages first, then allauth's (sign-up, login, e-mail, password).
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # Moderation: /moderation/ for moderators, report and block pages, each game's chat.
    path("", include("moderation.urls")),
    # The games app owns "/" (the lobby) and everything about tables and games.
    path("notifications/", include("notifications.urls")),
    # Group chats: a table's channel and a player's chat names (issue 29).
    path("chats/", include("chats.urls")),

    # Issue 29: reminder settings, the calendar feed, the next game waiting, nudges and notes.
    path("reach/", include("reach.urls")),
    path("", include("games.urls")),
    # Issue 30: a finished game's analysis, and "play on from here" from its replay.
    path("", include("analysis.urls")),
    # Profiles, leaderboards and rematches.
    path("", include("ratings.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # The e-mail provider's tracking webhooks (bounces, complaints): notifications/webhooks.py.
    path("anymail/", include("config.anymail_urls")),
    path("admin/", admin.site.urls),
]

# A request too malformed to read (too many fields, too large a body) gets the site's page.
handler400 = "games.views.errors.bad_request"
