"""The notification preferences (account settings) and the one-click unsubscribe (RFC 8058).

The unsubscribe URL is signed (services.unsubscribe_token): a GET only shows a page with a
button, since mail scanners follow GET links; a POST, from that button or from the mail
program's own unsubscribe button (``List-Unsubscribe-Post``), turns the kind off with no login
and no CSRF token (the mail program has none; the signature is what proves the link).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event

from accounts.models import User
from games.links import game_path, invite_path
from games.models import Invitation
from notifications import services
from notifications.digest import DIGEST_LABEL
from notifications.models import Kind, Mode, Notification, Preference, Undeliverable


@require_http_methods(["GET", "POST"])
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    current = dict(Preference.objects.filter(user=request.user).values_list("kind", "mode"))
    if request.method == "POST":
        chosen = {kind: request.POST.get(kind, "") for kind in Kind.values}
        bad = [kind for kind, mode in chosen.items() if mode not in Mode.values]
        if bad:
            # A forged or stale form: nothing is changed.
            messages.error(request, _("Choose immediately, daily digest or off for every kind."))
            return redirect("notifications:preferences")
        for kind, mode in chosen.items():
            if current.get(kind, Mode.IMMEDIATELY) != mode:
                services.preference_set(user=request.user, kind=kind, mode=mode)
        messages.success(request, _("Your notification settings have been saved."))
        return redirect("notifications:preferences")
    rows = [{"kind": kind, "label": label, "mode": current.get(kind, Mode.IMMEDIATELY)}
            for kind, label in Kind.choices]
    undeliverable = Undeliverable.objects.filter(email=request.user.email.strip().lower()).first()
    from notifications import push

    return render(request, "notifications/preferences.html",
                  {"rows": rows, "modes": Mode.choices, "undeliverable": undeliverable,
                   "push_key": push.public_key() if push.enabled() else ""})


@require_POST
@login_required
def reconfirm(request: HttpRequest) -> HttpResponse:
    """Send the confirmation link to the user's address that bounced (webhooks.py)."""
    if services.address_reconfirm(request=request, user=request.user):
        messages.success(request, _("We have sent a confirmation link to %(email)s. Open it to receive "
                                    "notifications there again.") % {"email": request.user.email})
    else:
        messages.error(request, _("Your address has not bounced: there is nothing to confirm."))
    return redirect("notifications:preferences")


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    target = services.unsubscribe_target(token)
    user = None
    if target is not None:
        user = User.objects.filter(pk=target[0], is_active=True).first()
    if user is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=404)
    kind = target[1]
    label = DIGEST_LABEL if kind == services.DIGEST_KIND else Kind(kind).label
    ctx = {"kind_label": label, "token": token}
    if request.method == "POST":
        if kind == services.DIGEST_KIND:
            # The digest's own link: whatever was read in the digest is switched off.
            Preference.objects.filter(user=user, mode=Mode.DIGEST).update(mode=Mode.OFF)
        else:
            services.preference_set(user=user, kind=kind, mode=Mode.OFF)
        return render(request, "notifications/unsubscribe.html", {**ctx, "done": True})
    return render(request, "notifications/unsubscribe.html", ctx)


# ---------------------------------------------------------------------------------------------
# The bell: unread notifications in the header, each linking to its game
# ---------------------------------------------------------------------------------------------

INBOX_SIZE = 30
# How many notifications the list reads to fill its lines, at most (folded by game).
FOLDED = 10


def _unread(user) -> int:
    """Unread lines of the bell: a game's unread items fold into one line (issue 26), the others
    (an invitation) count one each. One query."""
    counts = Notification.objects.filter(user=user, read_at__isnull=True).aggregate(
        games=Count("game", distinct=True), loose=Count("pk", filter=Q(game__isnull=True)))
    return counts["games"] + counts["loose"]


def _waiting(user) -> int:
    """How many games wait on the user now (one query): the tab's title and favicon count."""
    from games.models import Game, Seat

    rows = Seat.objects.filter(user=user, bot="", table__game__status=Game.Status.ACTIVE).values_list(
        "position", "table__game__waiting_seats")
    return sum(1 for position, waiting in rows if position in (waiting or ()))


@require_safe
@login_required
def badge(request: HttpRequest) -> HttpResponse:
    """The bell's contents, which the header loads and refreshes with htmx (one COUNT), and the
    number of games waiting on the user, for the tab's title and favicon (static/js/tab_badge.js)."""
    return render(request, "notifications/_bell.html",
                  {"unread": _unread(request.user), "waiting": _waiting(request.user)})


@dataclass
class Line:
    """One line of the bell's list: a game's notifications folded into the latest of them (its
    kind and time shown), or one notification about no game."""

    latest: Notification
    count: int = 1
    unread: int = 0


def _inbox_context(user) -> dict:
    # The latest notifications, folded by game: a game waits on you or tells you something, one
    # line each, with how many items it holds (issue 26: identical lines by the hundred).
    rows = Notification.objects.filter(user=user).select_related("game__table")[:INBOX_SIZE * FOLDED]
    lines: dict[object, Line] = {}
    for n in rows:
        key = n.game_id if n.game_id is not None else f"n{n.pk}"
        line = lines.get(key)
        if line is None:
            if len(lines) == INBOX_SIZE:
                continue
            line = lines[key] = Line(latest=n, count=0)
        line.count += 1
        line.unread += n.read_at is None
    return {"rows": list(lines.values()), "unread": sum(line.unread for line in lines.values())}


@require_safe
@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    return render(request, "notifications/inbox.html", _inbox_context(request.user))


@require_POST
@login_required
def open_one(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Mark one notification read and go to its game (another user's id: 404, nothing read)."""
    n = get_object_or_404(Notification.objects.select_related("game"), pk=notification_id, user=request.user)
    if n.game_id is not None:
        # The line folds every item of its game: all of them are read.
        services.notification_mark_read(user=request.user, game_id=n.game_id)
    else:
        services.notification_mark_read(user=request.user, ids=[n.pk])
    if n.game_id is not None:
        return redirect(game_path(n.game_id))
    if n.kind == Kind.INVITATION and n.data.get("invitation"):
        invitation = Invitation.objects.select_related("table").filter(pk=n.data["invitation"]).first()
        if invitation is not None:
            return redirect(invite_path(invitation.table.invite_code))
    return redirect("notifications:inbox")


@require_POST
@login_required
def read_all(request: HttpRequest) -> HttpResponse:
    services.notification_mark_read(user=request.user)
    if request.htmx:
        response = render(request, "notifications/_inbox.html", _inbox_context(request.user))
        # The header's bell hears it too (it reloads its count on this event).
        return trigger_client_event(response, "notifications-read")
    return redirect("notifications:inbox")


# ---------------------------------------------------------------------------------------------
# Web Push: the service worker, and a browser's subscription (push.py)
# ---------------------------------------------------------------------------------------------

@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/push_sw.js, served here so that it may control the whole site (scope "/"):
    a worker served from /static/js/ could otherwise only have that folder as its scope."""
    from django.contrib.staticfiles import finders
    from django.contrib.staticfiles.storage import staticfiles_storage

    path = finders.find("js/push_sw.js")
    if path:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    else:  # (only the collected files are deployed)
        with staticfiles_storage.open("js/push_sw.js") as f:
            source = f.read().decode("utf-8")
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def _json_body(request: HttpRequest) -> dict | None:
    """The request's JSON object, or None for anything else: not UTF-8, not JSON, not an
    object, or nested deeper than the decoder recurses (a RecursionError, once a 500)."""
    try:
        body = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return body if isinstance(body, dict) else None


@require_POST
@login_required
def push_subscribe(request: HttpRequest) -> HttpResponse:
    from notifications import push

    if not push.enabled():
        return JsonResponse({"error": _("Browser notifications are not available on this site.")}, status=404)
    body = _json_body(request)
    if body is None:
        return JsonResponse({"error": _("This browser's subscription could not be used.")}, status=400)
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
    try:
        push.subscription_save(user=request.user, endpoint=str(body.get("endpoint") or ""),
                               p256dh=str(keys.get("p256dh") or ""), auth=str(keys.get("auth") or ""))
    except push.SubscriptionTaken:
        return JsonResponse({"error": _("This browser receives another account's notifications: turn them off "
                                        "there first.")}, status=409)
    except push.TooManySubscriptions:
        return JsonResponse({"error": _("Browser notifications are on in %(n)s browsers of yours already: turn "
                                        "them off in one of them first.") % {"n": push.MAX_SUBSCRIPTIONS}},
                            status=400)
    except push.BadSubscription:
        return JsonResponse({"error": _("This browser's subscription could not be used.")}, status=400)
    return JsonResponse({"ok": True}, status=201)


@require_POST
@login_required
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    from notifications import push

    body = _json_body(request)
    if body is None or not isinstance(body.get("endpoint"), str):
        return JsonResponse({"error": _("This browser's subscription could not be used.")}, status=400)
    push.subscription_delete(user=request.user, endpoint=body["endpoint"])
    return JsonResponse({"ok": True})
