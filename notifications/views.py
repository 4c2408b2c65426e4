"""The notification preferences (account settings) and the one-click unsubscribe (RFC 8058).

The unsubscribe URL is signed (services.unsubscribe_token): a GET only shows a page with a
button, since mail scanners follow GET links; a POST, from that button or from the mail
program's own unsubscribe button (``List-Unsubscribe-Post``), turns the kind off with no login
and no CSRF token (the mail program has none; the signature is what proves the link).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import User
from notifications import services
from notifications.digest import DIGEST_LABEL
from notifications.models import Kind, Mode, Preference


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
    return render(request, "notifications/preferences.html", {"rows": rows, "modes": Mode.choices})


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
